"""The arrangement solver: minimum deadwood (GIN-DEADWOOD) and best layoffs (GIN-LAYOFF).

The oracles here are written independently of scoring.solver: a brute force that tries every
subset of a hand as a meld and every packing of those melds, and open_spiel's C++ Gin Rummy
(pyspiel.gin_rummy.GinRummyUtils), whose card ints are suit * 13 + rank with suits s, c, d, h.
"""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, JOKER, Card, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules, check_meld
from scoring.solver import (
    Arrangement,
    best_arrangement,
    best_layoff,
    deadwood_count,
    min_arrangements,
)
from tests.hypothesis_profiles import examples

GIN = MeldRules()
OPEN_SPIEL = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
OPEN_SPIEL_SUITS = "scdh"
OPEN_SPIEL_RANKS = "A23456789TJQK"


def value(card: Card) -> int:
    # Written out again (GIN-VALUE) so the oracles share nothing with the engine.
    return min(card.rank, 10)


def is_gin_meld(cards: Sequence[Card]) -> bool:
    """Tell whether cards are a Gin meld: 3-4 of a rank in distinct suits, or an ace-low run."""
    if len(cards) < 3:
        return False
    ranks = sorted(card.rank for card in cards)
    suits = {card.suit for card in cards}
    if len(set(ranks)) == 1:
        return len(suits) == len(cards) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def meld_checker(rules: MeldRules) -> Callable[[Sequence[Card]], bool]:
    """Use check_meld as the predicate for variant rules (it has its own tests)."""

    def check(cards: Sequence[Card]) -> bool:
        try:
            check_meld(cards, rules)
        except RuleViolation:
            return False
        return True

    return check


def all_melds(hand: Sequence[Card], is_meld) -> list[frozenset[Card]]:
    """Return every subset of the hand that is a meld (only same-rank or same-suit subsets)."""
    groups = [[c for c in hand if c.rank == rank] for rank in range(1, 14)]
    groups += [[c for c in hand if c.suit == suit] for suit in "CSHD"]
    return [
        frozenset(subset)
        for group in groups
        for size in range(3, len(group) + 1)
        for subset in combinations(group, size)
        if is_meld(subset)
    ]


def packings(melds: list[frozenset[Card]]) -> Iterable[list[frozenset[Card]]]:
    """Yield every set of pairwise disjoint melds."""

    def walk(start: int, used: frozenset[Card], chosen: list[frozenset[Card]]):
        yield chosen
        for i in range(start, len(melds)):
            if not melds[i] & used:
                yield from walk(i + 1, used | melds[i], [*chosen, melds[i]])

    return walk(0, frozenset(), [])


def brute_force(hand: Sequence[Card], is_meld=is_gin_meld) -> tuple[int, list]:
    """Return the minimum deadwood and every packing that reaches it."""
    total = sum(value(card) for card in hand)
    found: dict[int, list] = {}
    for packing in packings(all_melds(hand, is_meld)):
        count = total - sum(value(card) for meld in packing for card in meld)
        found.setdefault(count, []).append(packing)
    best = min(found)
    return best, found[best]


def merged(packing: Iterable[frozenset[Card]]) -> frozenset[frozenset[Card]]:
    """Return a Gin packing with runs of one suit that touch joined into one run."""
    melds = [set(meld) for meld in packing]
    joined = True
    while joined:
        joined = False
        for a, b in combinations(melds, 2):
            both_runs = len({c.rank for c in a}) > 1 and len({c.rank for c in b}) > 1
            if both_runs and is_gin_meld(list(a | b)):
                melds.remove(a)
                melds.remove(b)
                melds.append(a | b)
                joined = True
                break
    return frozenset(frozenset(meld) for meld in melds)


def as_sets(arrangement: Arrangement) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(meld.cards) for meld in arrangement.melds)


def assert_is_arrangement_of(arrangement: Arrangement, hand: Sequence[Card], rules=GIN) -> None:
    for meld in arrangement.melds:
        assert check_meld(meld.cards, rules) == meld
    shown = [card for meld in arrangement.melds for card in meld.cards] + list(arrangement.deadwood)
    assert Counter(shown) == Counter(hand)
    assert arrangement.count == sum(value(card) for card in arrangement.deadwood)


def to_open_spiel(cards: Iterable[Card]) -> list[int]:
    strings = [OPEN_SPIEL_RANKS[c.rank - 1] + c.suit.lower() for c in cards]
    return OPEN_SPIEL.card_strings_to_card_ints(strings)


def from_open_spiel(ints: Iterable[int]) -> list[Card]:
    return list(parse_cards(OPEN_SPIEL.card_ints_to_card_strings(list(ints))))


def cards_of_ranks(ranks: Iterable[int]) -> list[Card]:
    return [card for card in FULL_DECK if card.rank in set(ranks)]


def hand_strategy(size: int):
    """Draw hands of distinct cards: from the whole deck, from 5 ranks, or from 2 suits."""
    whole = st.lists(st.sampled_from(FULL_DECK), min_size=size, max_size=size, unique=True)
    dense = st.sets(st.integers(1, 13), min_size=5, max_size=5).flatmap(
        lambda ranks: st.lists(
            st.sampled_from(cards_of_ranks(ranks)), min_size=size, max_size=size, unique=True
        )
    )
    two_suits = st.sets(st.sampled_from("CSHD"), min_size=2, max_size=2).flatmap(
        lambda suits: st.lists(
            st.sampled_from([c for c in FULL_DECK if c.suit in suits]),
            min_size=size,
            max_size=size,
            unique=True,
        )
    )
    return st.one_of(whole, dense, two_suits)


def dense_hand(rng: random.Random, size: int) -> list[Card]:
    return rng.sample(cards_of_ranks(rng.sample(range(1, 14), 5)), size)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def arrange(text: str) -> Arrangement:
    return best_arrangement(cards(text), rules=GIN, value=value)


def names(items: Iterable) -> list[str]:
    return [
        " ".join(map(str, item.cards)) if isinstance(item, Meld) else str(item) for item in items
    ]


class TestBestArrangement:
    def test_a_hand_without_melds_is_all_deadwood(self):
        """GIN-DEADWOOD: 9♣ J♣ K♣ 9♠ J♠ K♠ 10♥ Q♥ 10♦ Q♦ holds no meld: 2 × 9 + 8 × 10."""
        result = arrange("9C JC KC 9S JS KS 10H QH 10D QD")
        assert result.melds == ()
        assert result.count == 98

    def test_the_minimum_splits_a_four_set_to_make_a_run(self):
        """GIN-DEADWOOD: 7-7-7 + 7♦8♦9♦ leaves K♣ Q♣ J♠ 2♥ (32), better than 7-7-7-7 (49)."""
        result = arrange("7C 7S 7H 7D 8D 9D KC QC JS 2H")
        assert sorted(names(result.melds)) == ["7C 7S 7H", "7D 8D 9D"]
        assert result.count == 10 + 10 + 10 + 2

    def test_a_long_run_is_shown_as_one_meld(self):
        """MELD-RUN: A♠..10♠ is one run of 10, deadwood 0."""
        result = arrange("10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
        assert names(result.melds) == ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"]
        assert result.count == 0

    def test_q_k_a_is_no_run_in_gin(self):
        """GIN-MELDS / ACE-HIGH: Q♠ K♠ A♠ stay deadwood: 10 + 10 + 1."""
        assert arrange("QS KS AS").count == 21

    def test_ties_go_to_the_lowest_card_in_a_meld_clubs_first(self):
        """GIN-DEADWOOD tie-break: A♥2♥3♥ vs 2♣2♠2♥ both leave 4; 2♣ is the lowest card."""
        result = arrange("AH 2H 3H 2C 2S")
        assert names(result.melds) == ["2C 2S 2H"]
        assert names(result.deadwood) == ["AH", "3H"]
        assert result.count == 4

    def test_ties_prefer_fewer_deadwood_cards(self):
        """GIN-DEADWOOD tie-break: two arrangements of 2♣2♠2♦ 3♣3♠3♥3♦ 4♦ 6♦ 7♠ count 17.

        2♣2♠2♦ + 3♣3♠3♥3♦ leave 4♦ 6♦ 7♠ (4+6+7 = 17, three cards); 3♣3♠3♥ + 2♦3♦4♦ leave
        2♣ 2♠ 6♦ 7♠ (2+2+6+7 = 17, four cards). The one with fewer deadwood cards comes first.
        """
        hand = cards("2C 2S 2D 3C 3S 3H 3D 4D 6D 7S")
        result = min_arrangements(hand, rules=GIN, value=value)
        assert [sorted(names(a.melds)) for a in result] == [
            ["2C 2S 2D", "3C 3S 3H 3D"],
            ["2D 3D 4D", "3C 3S 3H"],
        ]
        assert [names(a.deadwood) for a in result] == [["7S", "4D", "6D"], ["2C", "2S", "7S", "6D"]]
        assert [a.count for a in result] == [17, 17]
        assert best_arrangement(hand, rules=GIN, value=value) == result[0]

    def test_the_result_does_not_depend_on_the_order_cards_are_entered(self):
        hand = cards("AH 2H 3H 2C 2S 9D 9C 9S 10D JD")
        forward = best_arrangement(hand, rules=GIN, value=value)
        backward = best_arrangement(hand[::-1], rules=GIN, value=value)
        assert forward == backward

    def test_a_whole_suit_round_the_corner_is_one_run_however_it_is_split(self):
        """ACE-WRAP: with circular runs all 13 hearts are one run of at most 13 cards."""
        hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        wrap = MeldRules(wrap=True)
        (only,) = min_arrangements(hand, rules=wrap, value=value)
        assert names(only.melds) == ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]
        assert only == best_arrangement(hand, rules=wrap, value=value)

    def test_a_run_round_the_corner_is_found_only_with_circular_runs(self):
        """ACE-WRAP / ACE-HIGH: Q♥K♥A♥2♥3♥ is one run when circular; with ace high, Q♥K♥A♥."""
        hand = cards("QH KH AH 2H 3H 7C 8C 9C")
        wrap = best_arrangement(hand, rules=MeldRules(wrap=True), value=value)
        assert names(wrap.melds) == ["7C 8C 9C", "QH KH AH 2H 3H"]
        high = best_arrangement(hand, rules=MeldRules(ace_high=True), value=value)
        assert names(high.melds) == ["7C 8C 9C", "QH KH AH"]
        assert high.count == 2 + 3

    def test_an_empty_hand_is_an_empty_arrangement(self):
        assert best_arrangement((), rules=GIN, value=value) == Arrangement((), (), 0)

    def test_a_card_twice_is_refused_with_card_2(self):
        """CARD-2: one deck holds each card once."""
        with pytest.raises(RuleViolation) as caught:
            arrange("7S 8S 9S 7S")
        assert caught.value.violations[0].params == {"card": "7S", "count": 2, "limit": 1}

    def test_a_joker_is_refused_with_card_2(self):
        """CARD-2: the solver handles one deck without jokers for now."""
        with pytest.raises(RuleViolation) as caught:
            best_arrangement((*cards("7S 8S"), JOKER), rules=GIN, value=value)
        assert caught.value.violations[0].params == {"card": "JK", "count": 1, "limit": 0}

    @settings(max_examples=examples(400), deadline=None)
    @given(hand_strategy(10))
    def test_ten_card_hands_reach_the_brute_force_minimum(self, hand):
        """GIN-DEADWOOD: the count is the minimum over all arrangements."""
        result = best_arrangement(hand, rules=GIN, value=value)
        assert result.count == brute_force(hand)[0]
        assert_is_arrangement_of(result, hand)

    @settings(max_examples=examples(400), deadline=None)
    @given(hand_strategy(11))
    def test_eleven_card_hands_reach_the_brute_force_minimum(self, hand):
        """GIN-DEADWOOD, GIN-BIGGIN: 11 cards are arranged whole (no discard)."""
        result = best_arrangement(hand, rules=GIN, value=value)
        assert result.count == brute_force(hand)[0]
        assert_is_arrangement_of(result, hand)

    @settings(max_examples=examples(200), deadline=None)
    @given(
        hand_strategy(9),
        st.sampled_from([MeldRules(ace_high=True), MeldRules(wrap=True), MeldRules(max_set=3)]),
    )
    def test_other_meld_rules_reach_the_brute_force_minimum(self, hand, rules):
        """ACE-HIGH, ACE-WRAP, MELD-SET: the solver follows the rules it is given."""
        result = best_arrangement(hand, rules=rules, value=value)
        assert result.count == brute_force(hand, meld_checker(rules))[0]
        assert_is_arrangement_of(result, hand, rules)

    def test_eleven_card_hands_match_the_brute_force_on_500_seeded_dense_hands(self):
        """GIN-DEADWOOD: dense hands (5 ranks) are where melds overlap most."""
        rng = random.Random(1111)
        for _ in range(500):
            hand = dense_hand(rng, 11)
            assert best_arrangement(hand, rules=GIN, value=value).count == brute_force(hand)[0]


class TestDeadwoodCount:
    """deadwood_count: the minimum deadwood alone, without the melds (GIN-DEADWOOD)."""

    def test_a_set_taken_from_a_run_leaves_less_deadwood(self):
        """4♣-7♣ and 9♦-J♦ leave 4♠ 4♥ K♠ = 18; 4♣4♠4♥ + 5♣-7♣ + 9♦-J♦ leave K♠ = 10."""
        hand = cards("4C 5C 6C 7C 4S 4H 9D TD JD KS")
        assert deadwood_count(hand, rules=GIN, value=value) == 10

    def test_a_hand_with_no_meld_counts_every_card(self):
        """A♣ 3♠ 5♥ 7♦ 9♣ J♠ K♥ 2♦ 4♣ 6♠: 1+3+5+7+9+10+10+2+4+6 = 57."""
        hand = cards("AC 3S 5H 7D 9C JS KH 2D 4C 6S")
        assert deadwood_count(hand, rules=GIN, value=value) == 57

    def test_eleven_cards_in_three_melds_count_nothing(self):
        """GIN-BIGGIN: 2♥3♥4♥5♥ + 7♣7♠7♦ + 9♠T♠J♠Q♠ take all 11 cards."""
        hand = cards("2H 3H 4H 5H 7C 7S 7D 9S TS JS QS")
        assert deadwood_count(hand, rules=GIN, value=value) == 0

    @settings(max_examples=examples(300), deadline=None)
    @given(st.sampled_from([10, 11]).flatmap(hand_strategy))
    def test_it_is_the_brute_force_minimum(self, hand):
        assert deadwood_count(hand, rules=GIN, value=value) == brute_force(hand)[0]

    @settings(max_examples=examples(150), deadline=None)
    @given(
        hand_strategy(9),
        st.sampled_from([MeldRules(ace_high=True), MeldRules(wrap=True), MeldRules(max_set=3)]),
    )
    def test_it_follows_the_meld_rules_it_is_given(self, hand, rules):
        expected = brute_force(hand, meld_checker(rules))[0]
        assert deadwood_count(hand, rules=rules, value=value) == expected

    def test_2000_hands_from_5_consecutive_ranks_have_open_spiels_min_deadwood(self):
        """The hardest hands for a search: every card joins sets and runs both (seed 9)."""
        rng = random.Random(9)
        for _ in range(2000):
            low = rng.randint(1, 9)
            hand = rng.sample(cards_of_ranks(range(low, low + 5)), 10)
            ours = deadwood_count(hand, rules=GIN, value=value)
            assert ours == OPEN_SPIEL.min_deadwood(to_open_spiel(hand)), hand

    def test_longer_hands_and_two_decks_are_counted_by_the_full_search(self):
        """Twelve cards may hold four melds; a second copy of a card is a deck of two."""
        twelve = cards("AC 2C 3C 4S 5S 6S 7H 8H 9H TD JD QD")
        assert deadwood_count(twelve, rules=GIN, value=value) == 0
        copies = cards("7C 7C 7S 7H 8C 9C")
        two_decks = DeckSpec(decks=2, jokers=0)
        # 7♣7♠7♥ + 7♣8♣9♣: every card melded.
        assert deadwood_count(copies, rules=GIN, value=value, deck=two_decks) == 0


class TestMinArrangements:
    def test_both_ways_to_reach_the_minimum_are_listed_best_first(self):
        """GIN-DEADWOOD: A♥2♥3♥ + 2♣ 2♠ dead, or 2♣2♠2♥ + A♥ 3♥ dead: both count 4."""
        result = min_arrangements(cards("AH 2H 3H 2C 2S"), rules=GIN, value=value)
        assert [names(a.melds) for a in result] == [["2C 2S 2H"], ["AH 2H 3H"]]
        assert [a.count for a in result] == [4, 4]

    def test_a_long_run_split_differently_is_one_arrangement(self):
        """Distinct arrangements are distinct sets of melds; pieces of one run are one run."""
        result = min_arrangements(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S"), rules=GIN, value=value)
        assert [names(a.melds) for a in result] == [["AS 2S 3S 4S 5S 6S 7S 8S 9S"]]

    @settings(max_examples=examples(300), deadline=None)
    @given(hand_strategy(10))
    def test_they_are_exactly_the_brute_force_minimum_packings(self, hand):
        """GIN-DEADWOOD: every minimum arrangement, once each, the best one first."""
        minimum, best_packings = brute_force(hand)
        result = min_arrangements(hand, rules=GIN, value=value)
        assert {as_sets(a) for a in result} == {merged(p) for p in best_packings}
        assert len({as_sets(a) for a in result}) == len(result)
        assert result[0] == best_arrangement(hand, rules=GIN, value=value)
        for arrangement in result:
            assert arrangement.count == minimum
            assert_is_arrangement_of(arrangement, hand)
        assert [len(a.deadwood) for a in result] == sorted(len(a.deadwood) for a in result)


class TestAgainstOpenSpiel:
    def test_the_card_ints_are_suit_times_13_plus_rank_with_suits_s_c_d_h(self):
        for card in FULL_DECK:
            expected = OPEN_SPIEL_SUITS.index(card.suit.lower()) * 13 + card.rank - 1
            assert to_open_spiel([card]) == [expected]
        assert from_open_spiel(range(52)) == sorted(FULL_DECK, key=lambda c: to_open_spiel([c]))

    def test_10000_seeded_random_ten_card_hands_have_open_spiels_min_deadwood(self):
        """GIN-DEADWOOD against open_spiel's MinDeadwood on 10,000 hands (seed 20240601)."""
        rng = random.Random(20240601)
        disagreements = []
        for _ in range(10_000):
            hand = rng.sample(FULL_DECK, 10)
            ours = best_arrangement(hand, rules=GIN, value=value).count
            if ours != OPEN_SPIEL.min_deadwood(to_open_spiel(hand)):
                disagreements.append(hand)
        assert disagreements == []

    def test_2000_seeded_dense_ten_card_hands_have_open_spiels_min_deadwood(self):
        """GIN-DEADWOOD against open_spiel on 2,000 hands from 5 ranks (seed 5)."""
        rng = random.Random(5)
        for _ in range(2000):
            hand = dense_hand(rng, 10)
            ours = best_arrangement(hand, rules=GIN, value=value).count
            assert ours == OPEN_SPIEL.min_deadwood(to_open_spiel(hand)), hand

    @pytest.mark.slow
    def test_single_card_layoffs_are_the_ones_open_spiel_offers_on_10000_hands(self):
        """GIN-LAYOFF against open_spiel's AllLayoffs: which one card fits the knocker's melds.

        10,000 seeded knocker hands (seed 77); on each, every card open_spiel offers and four
        other cards outside the hand are laid off alone. open_spiel numbers melds of up to 5
        cards only, so hands with a longer run are skipped.
        """
        rng = random.Random(77)
        checked = 0
        for knocker_melds, rest in knocker_melds_sample(rng, 10_000):
            ids = [OPEN_SPIEL.meld_to_int(to_open_spiel(meld.cards)) for meld in knocker_melds]
            offered = set(from_open_spiel(OPEN_SPIEL.all_layoffs(ids, [])))
            # Only cards outside the knocker's hand can be the defender's.
            for card in {*(offered & set(rest)), *rng.sample(rest, 4)}:
                result = best_layoff([card], knocker_melds, rules=GIN, value=value)
                assert bool(result.layoffs) == (card in offered), (knocker_melds, card)
                checked += 1
        assert checked > 40_000

    def test_a_second_card_is_laid_off_exactly_when_open_spiel_lets_it_follow_the_first(self):
        """GIN-LAYOFF against AllLayoffs with one previous layoff: cards chain onto a run.

        For every card a that fits alone and every other card b, the defender holding both
        lays off both exactly when b fits alone or fits once a is laid (seed 78).
        """
        rng = random.Random(78)
        chained = 0
        for knocker_melds, rest in knocker_melds_sample(rng, 150):
            ids = [OPEN_SPIEL.meld_to_int(to_open_spiel(meld.cards)) for meld in knocker_melds]
            alone = set(from_open_spiel(OPEN_SPIEL.all_layoffs(ids, [])))
            for a in [card for card in rest if card in alone]:
                after_a = set(from_open_spiel(OPEN_SPIEL.all_layoffs(ids, to_open_spiel([a]))))
                for b in rest:
                    if b == a:
                        continue
                    result = best_layoff([a, b], knocker_melds, rules=GIN, value=value)
                    expected = b in alone or b in after_a
                    assert (len(result.layoffs) == 2) == expected, (knocker_melds, a, b)
                    chained += b not in alone and b in after_a
        assert chained >= 20


def knocker_melds_sample(rng: random.Random, hands: int):
    """Yield (melds of a dense 10-card hand, the cards outside that hand), runs of 5 or less."""
    produced = 0
    while produced < hands:
        hand = dense_hand(rng, 10)
        melds = best_arrangement(hand, rules=GIN, value=value).melds
        if melds and all(len(meld.cards) <= 5 for meld in melds):
            produced += 1
            yield melds, [card for card in FULL_DECK if card not in hand]


def brute_force_layoff(hand: Sequence[Card], onto: Sequence[Meld]) -> int:
    """Return the defender's least deadwood: own melds, then cards laid off one at a time."""
    total = sum(value(card) for card in hand)
    best = total
    for packing in packings(all_melds(hand, is_gin_meld)):
        melded = frozenset().union(*packing)
        rest = [card for card in hand if card not in melded]
        kept = total - sum(value(card) for card in melded)
        best = min(best, kept - most_laid_off(rest, tuple(tuple(m.cards) for m in onto)))
    return best


def most_laid_off(rest: list[Card], onto: tuple[tuple[Card, ...], ...]) -> int:
    """Return the most value that can be laid off, trying every card on every meld in turn."""
    best = 0
    for i, card in enumerate(rest):
        for j, meld in enumerate(onto):
            if is_gin_meld([*meld, card]):
                grown = (*onto[:j], (*meld, card), *onto[j + 1 :])
                left = rest[:i] + rest[i + 1 :]
                best = max(best, value(card) + most_laid_off(left, grown))
    return best


def layoff_case(rng: random.Random, size: int) -> tuple[tuple[Meld, ...], list[Card]]:
    """Draw knocker melds and a defender hand rich in cards that could go on them."""
    while True:
        hand = rng.sample(FULL_DECK[:26], 10) if rng.random() < 0.5 else dense_hand(rng, 10)
        melds = best_arrangement(hand, rules=GIN, value=value).melds
        if melds:
            break
    near = [
        card
        for card in FULL_DECK
        if card not in hand
        and any(card.rank == m.cards[0].rank or card.suit == m.cards[0].suit for m in melds)
    ]
    far = [card for card in FULL_DECK if card not in hand and card not in near]
    defender = rng.sample(near, min(size, len(near)))
    defender += rng.sample(far, size - len(defender))
    return melds, defender


def assert_layoffs_are_legal(result, defender: Sequence[Card], onto: Sequence[Meld]) -> None:
    grown = [list(meld.cards) for meld in onto]
    for card, index in result.layoffs:
        grown[index].append(card)
        # Each card fits when it is laid, in the order given (a chain grows card by card).
        assert is_gin_meld(grown[index]), (card, grown[index])
    for meld in result.melds:
        assert is_gin_meld(meld.cards)
    shown = [c for m in result.melds for c in m.cards]
    shown += [card for card, _ in result.layoffs] + list(result.deadwood)
    assert Counter(shown) == Counter(defender)
    assert result.count == sum(value(card) for card in result.deadwood)


class TestBestLayoff:
    def test_a_run_takes_several_cards_at_both_ends(self):
        """GIN-LAYOFF: 5♠ 6♠ below and 10♠ J♠ above 7♠8♠9♠, laid from the run outward."""
        onto = [check_meld(cards("7S 8S 9S"), GIN)]
        result = best_layoff(cards("5S 6S 10S JS KD"), onto, rules=GIN, value=value)
        assert [(str(c), i) for c, i in result.layoffs] == [
            ("6S", 0),
            ("5S", 0),
            ("10S", 0),
            ("JS", 0),
        ]
        assert names(result.deadwood) == ["KD"]
        assert result.count == 10

    def test_a_set_of_three_takes_its_fourth_card(self):
        """GIN-LAYOFF: 7♦ completes 7♣7♠7♥ to four."""
        onto = [check_meld(cards("7C 7S 7H"), GIN)]
        result = best_layoff(cards("7D 8D"), onto, rules=GIN, value=value)
        assert [(str(c), i) for c, i in result.layoffs] == [("7D", 0)]
        assert result.count == 8

    def test_a_card_that_fits_a_set_or_a_run_goes_where_the_chain_continues(self):
        """GIN-LAYOFF: 7♦ onto 4♦5♦6♦ lets 8♦ follow; onto 7♣7♠7♥ it would strand 8♦."""
        onto = [check_meld(cards("7C 7S 7H"), GIN), check_meld(cards("4D 5D 6D"), GIN)]
        result = best_layoff(cards("7D 8D KS"), onto, rules=GIN, value=value)
        assert [(str(c), i) for c, i in result.layoffs] == [("7D", 1), ("8D", 1)]
        assert result.count == 10

    def test_no_card_goes_above_the_king_or_below_the_ace_in_gin(self):
        """GIN-LAYOFF with GIN-MELDS: no Q-K-A and no K-A-2, so A♠ fits neither run."""
        onto = [check_meld(cards("JS QS KS"), GIN), check_meld(cards("2S 3S 4S"), GIN)]
        result = best_layoff(cards("AS 10H"), onto, rules=GIN, value=value)
        assert [(str(c), i) for c, i in result.layoffs] == [("AS", 1)]
        result = best_layoff(cards("10S"), onto[:1], rules=GIN, value=value)
        assert result.count == 0
        result = best_layoff(cards("AS"), onto[:1], rules=GIN, value=value)
        assert result.count == 1

    def test_a_card_kept_in_the_defenders_own_meld_cannot_carry_a_chain(self):
        """GIN-LAYOFF: with 3♠4♠5♠ shown, 6♣6♠6♥ + 7♠ dead (7) beats laying 6♠ 7♠ (12 left)."""
        onto = [check_meld(cards("3S 4S 5S"), GIN)]
        result = best_layoff(cards("6S 6C 6H 7S"), onto, rules=GIN, value=value)
        assert names(result.melds) == ["6C 6S 6H"]
        assert result.layoffs == ()
        assert result.count == 7

    def test_own_melds_and_layoffs_are_chosen_together(self):
        """GIN-LAYOFF: 8♠ 9♠ 10♠ could be own or laid; either way 0, and own melds come first."""
        onto = [check_meld(cards("5S 6S 7S"), GIN)]
        result = best_layoff(cards("8S 9S 10S 2D"), onto, rules=GIN, value=value)
        assert result.count == 2
        assert names(result.melds) == ["8S 9S 10S"]

    def test_a_card_shown_by_both_players_is_refused(self):
        """CARD-2: the defender cannot hold a card of the knocker's melds."""
        onto = [check_meld(cards("7S 8S 9S"), GIN)]
        with pytest.raises(RuleViolation) as caught:
            best_layoff(cards("9S 10S"), onto, rules=GIN, value=value)
        assert caught.value.rule == "CARD-2"

    def test_an_illegal_knocker_meld_is_refused(self):
        """MELD-RUN: the melds laid onto must be legal."""
        with pytest.raises(RuleViolation) as caught:
            best_layoff(cards("2D"), [Meld("run", cards("7S 8S 10S"))], rules=GIN, value=value)
        assert caught.value.rule == "MELD-RUN"

    def test_300_seeded_small_cases_match_the_brute_force(self):
        """GIN-LAYOFF: the defender's best outcome is exact (seed 31)."""
        rng = random.Random(31)
        for _ in range(300):
            onto, defender = layoff_case(rng, rng.randint(3, 7))
            result = best_layoff(defender, onto, rules=GIN, value=value)
            assert result.count == brute_force_layoff(defender, onto), (onto, defender)
            assert_layoffs_are_legal(result, defender, onto)

    @settings(max_examples=examples(300), deadline=None)
    @given(st.randoms(use_true_random=False))
    def test_ten_card_defenders_lay_off_legally_and_never_do_worse(self, rng):
        """GIN-LAYOFF: laid-off cards fit in the order laid, and layoffs never add deadwood."""
        onto, defender = layoff_case(rng, 10)
        result = best_layoff(defender, onto, rules=GIN, value=value)
        assert_layoffs_are_legal(result, defender, onto)
        assert result.count <= best_arrangement(defender, rules=GIN, value=value).count
