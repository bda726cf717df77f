"""The arrangement solver with two decks and jokers: deadwood, openings, going out, layoffs.

The oracle here shares nothing with scoring.solver or scoring.melds' joker readings: a meld is
legal when some *reading* of it is, a reading being what every card stands for, listed by
trying every window of ranks (runs) or every choice of missing suits (sets) and checking the
joker options of MeldRules one by one. Brute force then tries every subset of a small hand as
a meld and every packing of those melds.
"""

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, Card, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules
from scoring.solver import (
    Closing,
    best_arrangement,
    best_layoff,
    best_opening,
    can_go_out,
    min_arrangements,
)

SUIT_ORDER = "CSHD"
TWO_DECKS = DeckSpec(decks=2, jokers=6)

RAMINO = MeldRules(ace_low=True, ace_high=True, max_jokers=None, jokers_within_naturals=True)
RUMMY40 = MeldRules(ace_low=True, ace_high=True, max_jokers=1)
KNOCK = MeldRules(ace_low=True, ace_high=True, max_jokers=None)
CIRCULAR = MeldRules(wrap=True, max_jokers=None, jokers_within_naturals=True)
FIXED_JOKERS = MeldRules(
    ace_low=True, ace_high=True, max_jokers=None, jokers_within_naturals=True, adjacent_jokers=False
)
FIXED_GROUPS = MeldRules(
    ace_low=True, ace_high=True, max_jokers=None, jokers_within_naturals=True, fixed_groups=True
)
SMALL_SETS = MeldRules(ace_low=False, ace_high=True, max_set=3, max_jokers=2)
ALL_RULES = [RAMINO, RUMMY40, KNOCK, CIRCULAR, FIXED_JOKERS, FIXED_GROUPS, SMALL_SETS]


def ramino_value(card: Card) -> int:
    # RAM-VALUE, written out again: 2-9 face, 10 J Q K 10, ace 11, joker 20.
    if card.is_joker:
        return 20
    return 11 if card.rank == 1 else min(card.rank, 10)


def knock_value(card: Card) -> int:
    # KR-VALUE / R40-VALUE: ace 1, 2-10 face, J Q K 10, joker 25.
    return 25 if card.is_joker else min(card.rank, 10)


# A reading: (card stood for, is it a joker?) for every position, in meld order.
Reading = tuple[tuple[Card, bool], ...]


def windows(length: int, rules: MeldRules) -> Iterator[tuple[int, ...]]:
    """Yield the ranks of every run of the length the rules allow, in run order."""
    if rules.wrap:
        for start in range(1, 14):
            yield tuple((start - 1 + i) % 13 + 1 for i in range(length))
        return
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13
    for start in range(lowest, highest - length + 2):
        yield tuple(1 if p == 14 else p for p in range(start, start + length))


def readings(
    naturals: Sequence[Card], jokers: int, rules: MeldRules, fixed: Sequence[tuple[Card, bool]] = ()
) -> Iterator[Reading]:
    """Yield every legal reading of natural cards and jokers added to fixed positions."""
    known = [card for card, _ in fixed] + list(naturals)
    total = len(known) + jokers
    joker_count = jokers + sum(joker for _, joker in fixed)
    natural_count = total - joker_count
    if natural_count == 0 or total < 3:
        return
    if rules.max_jokers is not None and joker_count > rules.max_jokers:
        return
    if rules.jokers_within_naturals and joker_count > natural_count:
        return
    fixed_jokers = {card for card, joker in fixed if joker}
    ranks = {card.rank for card in known}
    suits = {card.suit for card in known}
    if len(ranks) == 1 and len(suits) == len(known) and total <= min(rules.max_set, 4):
        (rank,) = ranks
        missing = [suit for suit in SUIT_ORDER if suit not in suits]
        for extra in combinations(missing, jokers):
            held = suits | set(extra)
            places = sorted(SUIT_ORDER.index(suit) for suit in held)
            # RAM-OPT-FIXEDGROUPS: a stretch of C S H D without gaps, not only from clubs.
            if rules.fixed_groups and places != list(range(places[0], places[0] + total)):
                continue
            joker_places = sorted(
                SUIT_ORDER.index(suit)
                for suit in held
                if suit in extra or Card(rank, suit) in fixed_jokers
            )
            # RAM-OPT-FIXEDJOKER: two jokers in a set touch, unless fixed groups part them.
            if not rules.adjacent_jokers and (
                any(b - a == 1 for a, b in pairwise(joker_places))
                if rules.fixed_groups
                else joker_count > 1
            ):
                continue
            yield tuple(
                (Card(rank, suit), suit in extra or Card(rank, suit) in fixed_jokers)
                for suit in SUIT_ORDER
                if suit in held
            )
    if len(suits) == 1 and len(ranks) == len(known):
        (suit,) = suits
        for window in windows(total, rules):
            if not ranks <= set(window):
                continue
            reading = tuple(
                (Card(r, suit), r not in ranks or Card(r, suit) in fixed_jokers) for r in window
            )
            flags = [joker for _, joker in reading]
            if not rules.adjacent_jokers and any(a and b for a, b in pairwise(flags)):
                continue
            yield reading


def split(cards: Iterable[Card]) -> tuple[list[Card], int]:
    cards = list(cards)
    return [c for c in cards if not c.is_joker], sum(c.is_joker for c in cards)


def reading_value(reading: Reading, kind_is_set: bool) -> int:
    """Return VALUE: ace 11 in a set or after a king, else 1; 2-10 face; J Q K 10."""
    total = 0
    for i, (card, _) in enumerate(reading):
        if card.rank == 1:
            total += 11 if kind_is_set or (i > 0 and reading[i - 1][0].rank == 13) else 1
        else:
            total += min(card.rank, 10)
    return total


def is_set_reading(reading: Reading) -> bool:
    return len({card.rank for card, _ in reading}) == 1


@cache
def meld_info(key: tuple[str, ...], rules: MeldRules) -> int | None:
    """Return the best opening value of a multiset of cards, None when it is no meld."""
    naturals, jokers = split(parse_cards(" ".join(key)))
    values = [reading_value(r, is_set_reading(r)) for r in readings(naturals, jokers, rules)]
    return max(values, default=None)


def key_of(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in cards))


def legal_melds(hand: Sequence[Card], rules: MeldRules) -> list[frozenset[int]]:
    """Return every subset of hand positions that is a meld (distinct multisets once each)."""
    seen: dict[tuple[str, ...], frozenset[int]] = {}
    for size in range(3, len(hand) + 1):
        for subset in combinations(range(len(hand)), size):
            key = key_of(hand[i] for i in subset)
            if key not in seen and meld_info(key, rules) is not None:
                seen[key] = frozenset(subset)
    # Another subset with the same cards is the same meld with other copies: list those too,
    # as a packing may need both copies of a card in two melds.
    found = []
    for size in range(3, len(hand) + 1):
        for subset in combinations(range(len(hand)), size):
            if key_of(hand[i] for i in subset) in seen:
                found.append(frozenset(subset))
    return found


def packings(melds: list[frozenset[int]]) -> Iterator[list[frozenset[int]]]:
    """Yield every set of pairwise disjoint melds."""

    def walk(start: int, used: frozenset[int], chosen: list[frozenset[int]]):
        yield chosen
        for i in range(start, len(melds)):
            if not melds[i] & used:
                yield from walk(i + 1, used | melds[i], [*chosen, melds[i]])

    return walk(0, frozenset(), [])


def brute_deadwood(hand: Sequence[Card], rules: MeldRules, value) -> int:
    total = sum(value(card) for card in hand)
    return min(
        total - sum(value(hand[i]) for meld in packing for i in meld)
        for packing in packings(legal_melds(hand, rules))
    )


def brute_opening(hand: Sequence[Card], rules: MeldRules, keep: int) -> int:
    best = 0
    for packing in packings(legal_melds(hand, rules)):
        used = sum(len(meld) for meld in packing)
        if len(hand) - used >= keep:
            value = sum(meld_info(key_of(hand[i] for i in meld), rules) for meld in packing)
            best = max(best, value)
    return best


def brute_go_out(hand: Sequence[Card], rules: MeldRules, closing: Closing, opened: bool) -> bool:
    """Return whether the hand goes out with own melds (and an opening, if not opened)."""
    options: list[int | None] = [] if closing.discard == "required" else [None]
    if closing.discard != "none":
        options += [
            i
            for i, card in enumerate(hand)
            if closing.joker_discard_rule is None or not card.is_joker
        ]
    everything = set(range(len(hand)))
    for packing in packings(legal_melds(hand, rules)):
        used = frozenset().union(*packing)
        for option in options:
            if option in used or used | ({option} - {None}) != everything:
                continue
            value = sum(meld_info(key_of(hand[i] for i in m), rules) for m in packing)
            if opened or (value >= closing.opening_minimum and len(used) >= 3):
                return True
    return False


def reading_of(meld: Meld) -> Reading:
    stood = meld.represents or meld.cards
    return tuple((card, shown.is_joker) for card, shown in zip(stood, meld.cards, strict=True))


def assert_legal(meld: Meld, rules: MeldRules) -> None:
    """The meld's exact reading (what each joker stands for) is one of the legal ones."""
    naturals, jokers = split(meld.cards)
    if jokers:
        assert len(meld.represents) == len(meld.cards)
        for card, stood in zip(meld.cards, meld.represents, strict=True):
            assert card.is_joker or card == stood
    else:
        assert meld.represents in ((), meld.cards)
    assert reading_of(meld) in set(readings(naturals, jokers, rules)), meld


def assert_arrangement(arrangement, hand: Sequence[Card], rules: MeldRules, value) -> None:
    for meld in arrangement.melds:
        assert_legal(meld, rules)
    shown = [c for m in arrangement.melds for c in m.cards] + list(arrangement.deadwood)
    assert Counter(shown) == Counter(hand)
    assert arrangement.count == sum(value(card) for card in arrangement.deadwood)


POOLS = [
    ((1, 2, 3, 4, 5), "CS"),
    ((9, 10, 11, 12, 13), "SH"),
    ((11, 12, 13, 1, 2), "CSH"),
    ((4, 5, 6, 7), "CSHD"),
    ((1, 2, 3, 12, 13), "H"),
    ((6, 7, 8, 9, 10, 11), "D"),
]


@st.composite
def small_hands(draw, most: int = 8, jokers: int = 3) -> list[Card]:
    """Draw up to `most` cards from a few ranks and suits, two decks, with up to 3 jokers."""
    ranks, suits = draw(st.sampled_from(POOLS))
    pool = [(rank, suit, copy) for rank in ranks for suit in suits for copy in (0, 1)]
    count = draw(st.integers(0, jokers))
    picked = draw(st.lists(st.sampled_from(pool), max_size=most - count, unique=True))
    return [Card(rank, suit) for rank, suit, _ in picked] + [JOKER] * count


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def names(melds: Iterable[Meld]) -> list[str]:
    return [" ".join(str(card) for card in meld.cards) for meld in melds]


def arrange(text: str, rules: MeldRules, value=ramino_value):
    return best_arrangement(cards(text), rules=rules, value=value, deck=TWO_DECKS)


def go_out(text: str, rules: MeldRules, closing: Closing, opened: bool = True, **options):
    return can_go_out(
        cards(text), rules=rules, closing=closing, opened=opened, deck=TWO_DECKS, **options
    )


class TestOracle:
    def test_the_oracle_reads_jokers_as_the_rules_say(self):
        """The test's own reading of JOKER-1 and the MeldRules options, on plain examples."""
        assert meld_info(key_of(cards("7S 8S JK")), RAMINO) == 7 + 8 + 9
        assert meld_info(key_of(cards("QS KS JK")), RAMINO) == 10 + 10 + 11
        assert meld_info(key_of(cards("7S JK JK")), RAMINO) is None  # RAM-JOKER
        assert (
            meld_info(key_of(cards("7S JK JK")), KNOCK) == 7 + 8 + 9
        )  # 7-8-9 beats 7-7-7 and 5-6-7
        assert meld_info(key_of(cards("7S 8S JK JK")), RUMMY40) is None  # R40-RUNS
        assert meld_info(key_of(cards("7S JK 9S JK")), FIXED_JOKERS) is not None
        assert meld_info(key_of(cards("7S 8S JK JK")), FIXED_JOKERS) is not None  # JK 7 8 JK
        assert meld_info(key_of(cards("7S 10S JK JK")), FIXED_JOKERS) is None
        assert meld_info(key_of(cards("7C 7S JK JK")), FIXED_JOKERS) is None
        assert meld_info(key_of(cards("7C 7H JK")), FIXED_GROUPS) == 21  # the joker is 7♠
        assert meld_info(key_of(cards("7S 7D JK")), FIXED_GROUPS) == 21  # ♠ JK ♦: S H D
        assert meld_info(key_of(cards("7C 7D JK")), FIXED_GROUPS) is None  # ♣ ♦: a gap
        assert meld_info(key_of(cards("7S 7D JK JK")), FIXED_GROUPS) == 28
        assert meld_info(key_of(cards("KS AS 2S")), CIRCULAR) == 10 + 11 + 2
        assert meld_info(key_of(cards("KS AS 2S")), RAMINO) is None  # ACE-WRAP
        assert meld_info(key_of(cards("AS 2S 3S")), RAMINO) == 1 + 2 + 3


class TestDeadwoodWithJokers:
    def test_a_joker_fills_a_gap_and_counts_nothing(self):
        """JOKER-1, RAM-VALUE: 7♠ JK 9♠ is a run; 4♥ stays (4)."""
        result = best_arrangement(
            cards("7S JK 9S 4H"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert names(result.melds) == ["7S JK 9S"]
        assert result.melds[0].represents == cards("7S 8S 9S")
        assert result.count == 4

    def test_an_unmelded_joker_counts_its_value(self):
        """RAM-JOKER, RAM-VALUE: 7♠ and two jokers is no meld in Ramino: 7 + 20 + 20."""
        result = best_arrangement(
            cards("7S JK JK"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds == ()
        assert result.count == 47

    def test_knock_rummy_melds_one_card_with_two_jokers(self):
        """KR-MELDS, KR-JOKER: no joker limit, so 7♠ JK JK melds and nothing is left."""
        result = arrange("7S JK JK", KNOCK, knock_value)
        assert result.count == 0
        assert_legal(result.melds[0], KNOCK)

    def test_rummy40_allows_one_joker_per_meld(self):
        """R40-RUNS: one joker per meld leaves JK and 9♣ (25 + 9); Knock Rummy melds both jokers."""
        hand = cards("5H 6H JK JK 9C")
        assert best_arrangement(hand, rules=RUMMY40, value=knock_value, deck=TWO_DECKS).count == 34
        assert best_arrangement(hand, rules=KNOCK, value=knock_value, deck=TWO_DECKS).count == 9

    def test_two_decks_make_the_same_run_twice(self):
        """CARD-2 with two decks, MELD-RUN: 7♠8♠9♠ twice; a set never holds a card twice."""
        hand = cards("7S 8S 9S 7S 8S 9S 7H")
        result = best_arrangement(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert names(result.melds) == ["7S 8S 9S", "7S 8S 9S"]
        assert result.count == 7

    def test_one_deck_refuses_a_second_copy_but_two_decks_take_it(self):
        """CARD-2: the deck passed says how many copies a hand may hold."""
        with pytest.raises(RuleViolation) as caught:
            best_arrangement(cards("7S 7S"), rules=RAMINO, value=ramino_value)
        assert caught.value.rule == "CARD-2"
        with pytest.raises(RuleViolation):
            best_arrangement(cards("JK " * 7), rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        result = arrange("7S 7S", RAMINO)
        assert result.count == 14

    def test_a_joker_takes_the_place_that_reaches_highest(self):
        """JOKER-1: 7♠ 8♠ JK is shown as 7♠ 8♠ 9♠ (the engine picks one and says which)."""
        result = best_arrangement(
            cards("7S 8S JK"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds[0].represents == cards("7S 8S 9S")

    def test_circular_runs_go_round_the_corner_with_a_joker(self):
        """RAM-OPT-CIRCULAR: K♥ JK 2♥ is K A 2."""
        result = best_arrangement(
            cards("KH JK 2H"), rules=CIRCULAR, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds[0].represents == cards("KH AH 2H")
        assert (
            best_arrangement(
                cards("KH JK 2H"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
            ).count
            > 0
        )

    def test_a_lone_high_ace_takes_four_jokers_below_it(self):
        """KR-MELDS, ACE-HIGH: A♣ and four jokers are 10 J Q K A; a set would leave a joker."""
        result = arrange("AC JK JK JK JK", KNOCK, knock_value)
        assert result.count == 0
        assert result.melds[0].represents == cards("10C JC QC KC AC")
        opening = best_opening(cards("AC JK JK JK JK"), rules=KNOCK, keep=0, deck=TWO_DECKS)
        assert opening.value == 51

    def test_fixed_groups_place_the_joker_in_the_suit_order(self):
        """RAM-OPT-FIXEDGROUPS: 7♣ 7♥ JK: the joker is 7♠; 7♠ 7♦ JK is ♠ JK ♦, the joker ♥."""
        result = arrange("7C 7H JK", FIXED_GROUPS)
        assert result.melds[0].represents == cards("7C 7S 7H")
        result = arrange("7S 7D JK", FIXED_GROUPS)
        assert result.melds[0].represents == cards("7S 7H 7D")
        assert arrange("7C 7D JK", FIXED_GROUPS).count == 7 + 7 + 20
        assert arrange("7C 7D JK", RAMINO).count == 0

    def test_fixed_groups_need_not_start_at_clubs(self):
        """RAM-OPT-FIXEDGROUPS: ♠ ♥ ♦ has no gap; ♣ ♠ ♦ has one."""
        assert arrange("7S 7H 7D", FIXED_GROUPS).count == 0
        assert arrange("7C 7S 7D", FIXED_GROUPS).count == 21

    def test_min_arrangements_lists_equal_ways_and_starts_with_the_best(self):
        """GIN-DEADWOOD ties with two decks and jokers: best_arrangement is the first."""
        hand = cards("7S 8S 9S 7S 8S 9S JK 7H 7D")
        result = min_arrangements(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert result[0] == best_arrangement(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert len(result) >= 2
        assert {a.count for a in result} == {0}

    @settings(max_examples=150, deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES), st.sampled_from([ramino_value, knock_value]))
    def test_small_hands_reach_the_brute_force_minimum(self, hand, rules, value):
        """GIN-DEADWOOD for every variant: the count is the minimum over all arrangements."""
        result = best_arrangement(hand, rules=rules, value=value, deck=TWO_DECKS)
        assert result.count == brute_deadwood(hand, rules, value)
        assert_arrangement(result, hand, rules, value)

    @settings(max_examples=60, deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES))
    def test_every_minimum_arrangement_is_minimal_and_legal(self, hand, rules):
        result = min_arrangements(hand, rules=rules, value=ramino_value, deck=TWO_DECKS)
        minimum = brute_deadwood(hand, rules, ramino_value)
        assert result[0] == best_arrangement(hand, rules=rules, value=ramino_value, deck=TWO_DECKS)
        for arrangement in result:
            assert arrangement.count == minimum
            assert_arrangement(arrangement, hand, rules, ramino_value)


class TestBestOpening:
    def test_the_joker_is_placed_where_it_is_worth_most(self):
        """VALUE, RAM-OPEN: Q♠ K♠ JK opens as Q K A, worth 10 + 10 + 11."""
        result = best_opening(cards("QS KS JK 4D"), rules=RAMINO, deck=TWO_DECKS)
        assert result.value == 31
        assert result.melds[0].represents == cards("QS KS AS")
        assert result.kept == cards("4D")

    def test_an_ace_counts_one_low_and_eleven_high_or_in_a_set(self):
        """VALUE: A-2-3 is 6; Q-K-A is 31; A-A-A is 33."""
        assert best_opening(cards("AS 2S 3S 9D"), rules=RAMINO, deck=TWO_DECKS).value == 6
        assert best_opening(cards("QS KS AS 9D"), rules=RAMINO, deck=TWO_DECKS).value == 31
        assert best_opening(cards("AS AH AD 9D"), rules=RAMINO, deck=TWO_DECKS).value == 33

    def test_a_card_stays_in_hand_to_discard(self):
        """R40-HAND / RAM-TURN: with keep=1 the opening never lays the whole hand."""
        hand = cards("7S 8S 9S 10S")
        assert best_opening(hand, rules=RAMINO, keep=0, deck=TWO_DECKS).value == 34
        kept = best_opening(hand, rules=RAMINO, keep=1, deck=TWO_DECKS)
        assert kept.value == 8 + 9 + 10
        assert kept.kept == cards("7S")

    def test_a_hand_without_melds_opens_nothing(self):
        result = best_opening(cards("7S 9D JK"), rules=RAMINO, deck=TWO_DECKS)
        assert (result.melds, result.value, result.cards) == ((), 0, ())

    def test_a_custom_opening_value_is_used(self):
        """opening_value may be any function of the meld, e.g. counting cards."""
        result = best_opening(
            cards("7S 8S 9S 7H 7D"), rules=RAMINO, opening_value=lambda m: len(m.cards), keep=0
        )
        assert result.value == 3

    @settings(max_examples=120, deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES), st.integers(0, 2))
    def test_small_hands_open_for_the_brute_force_maximum(self, hand, rules, keep):
        """RAM-OPEN, R40-OPEN: the most valuable disjoint melds, keeping cards to discard."""
        result = best_opening(hand, rules=rules, keep=keep, deck=TWO_DECKS)
        assert result.value == brute_opening(hand, rules, keep)
        assert len(result.kept) >= min(keep, len(hand))
        assert Counter(result.cards) + Counter(result.kept) == Counter(hand)
        assert Counter(c for m in result.melds for c in m.cards) == Counter(result.cards)
        for meld in result.melds:
            assert_legal(meld, rules)
        assert result.value == sum(meld_value(meld) for meld in result.melds)


def meld_value(meld: Meld) -> int:
    reading = reading_of(meld)
    return reading_value(reading, is_set_reading(reading))


RAMINO_OUT = Closing("required", "RAM-OUT", opening_minimum=30, opening_rule="RAM-OPEN")
R40_OUT = Closing("required", "R40-HAND", 40, "R40-OPEN", joker_discard_rule="R40-JOKER-DISCARD")


class TestCanGoOut:
    def test_all_cards_but_one_are_melded_and_the_last_discarded(self):
        """RAM-OUT: 7♠ 8♠ JK + 5♣ 5♥ 5♦, discard K♦."""
        result = go_out("7S 8S JK 5C 5H 5D KD", RAMINO, RAMINO_OUT)
        assert result.possible
        assert result.discard == Card(13, "D")
        assert sorted(names(result.melds)) == ["5C 5H 5D", "7S 8S JK"]

    def test_a_hand_that_melds_whole_must_still_discard(self):
        """R40-HAND: a player goes out by discarding; six cards in two sets cannot."""
        result = go_out("7S 7H 7D 5C 5H 5D", RUMMY40, R40_OUT)
        assert not result.possible
        assert result.violation.rule == "R40-HAND"
        assert result.violation.code == "cannot_go_out"

    def test_without_a_discard_where_the_options_allow(self):
        """RAM-OPT-NODISCARDWIN: the last card may be melded instead of discarded."""
        closing = Closing("optional", "RAM-OPT-NODISCARDWIN")
        result = go_out("7S 7H 7D 5C 5H 5D", RAMINO, closing)
        assert result.possible
        assert result.discard is None
        assert result.discards == (None,)

    def test_a_joker_may_not_be_the_last_discard_in_rummy40(self):
        """R40-JOKER-DISCARD: where only the joker could go, the hand cannot go out."""
        hand = "7S 8S 9S 5H 5D 5C JK"
        no_jokers = MeldRules(max_jokers=0)
        barred = go_out(hand, no_jokers, R40_OUT)
        assert not barred.possible
        assert (barred.violation.rule, barred.violation.code) == (
            "R40-JOKER-DISCARD",
            "joker_discard",
        )
        allowed = Closing("required", "RAM-OUT")
        result = go_out(hand, no_jokers, allowed)
        assert result.discard == JOKER

    def test_the_joker_joins_a_meld_and_another_card_is_discarded(self):
        """R40-JOKER-DISCARD, R40-RUNS: 7♠ 8♠ JK + 5♠ 5♥ 5♦ go down, 9♠ is discarded."""
        result = go_out("7S 8S 9S 5H 5D 5C JK", RUMMY40, R40_OUT)
        assert result.possible
        assert not result.discard.is_joker
        assert JOKER not in result.discards

    def test_an_opening_below_the_minimum_cannot_go_out(self):
        """RAM-OPEN, RAM-HANDCLOSE: 2♣2♥2♦ + 3♣3♥3♦ is worth 15, below 30."""
        result = go_out("2C 2H 2D 3C 3H 3D KS", RAMINO, RAMINO_OUT, opened=False)
        assert not result.possible
        assert result.violation.rule == "RAM-OPEN"
        assert result.violation.code == "below_minimum"
        assert dict(result.violation.params) == {"value": 15, "minimum": 30}
        opened = go_out("2C 2H 2D 3C 3H 3D KS", RAMINO, RAMINO_OUT)
        assert opened.possible

    def test_the_most_valuable_way_out_is_taken_when_opening(self):
        """RAM-OPEN, VALUE: discarding J♠ leaves Q♠ K♠ JK=A♠ (31) + 4-4-4 (12), the most."""
        hand = "JS QS KS JK 4H 4D 4C"
        result = go_out(hand, RAMINO, RAMINO_OUT, opened=False)
        assert result.possible
        assert result.value == 43
        assert result.discard == Card(11, "S")
        assert result.discards[0] == Card(11, "S")
        assert set(result.discards) == set(cards(hand))  # each other way is worth 42

    def test_opened_players_add_their_last_cards_to_table_melds(self):
        """RAM-ADD, RAM-OUT: 10♠ goes onto the table's JK 8♠ 9♠; 4♥ is discarded."""
        onto = [Meld("run", (JOKER, *cards("8S 9S")), cards("7S 8S 9S"))]
        result = go_out("10S 4H", RAMINO, RAMINO_OUT, onto=onto)
        assert result.possible
        assert result.layoffs == ((Card(10, "S"), 0),)
        assert result.grown[0].represents == cards("7S 8S 9S 10S")
        assert result.discard == Card(4, "H")

    @settings(max_examples=150, deadline=None)
    @given(
        small_hands(),
        st.sampled_from(ALL_RULES),
        st.sampled_from(["required", "optional", "none"]),
        st.booleans(),
        st.booleans(),
        st.sampled_from([0, 20, 30]),
    )
    def test_small_hands_go_out_exactly_when_the_brute_force_says(
        self, hand, rules, discard, joker_discard, opened, minimum
    ):
        """R40-HAND, RAM-OUT, RAM-OPT-NODISCARDWIN, KR-OUT, RAM-HANDCLOSE against brute force."""
        closing = Closing(
            discard,
            "RAM-OUT",
            opening_minimum=minimum,
            opening_rule="RAM-OPEN",
            joker_discard_rule=None if joker_discard else "R40-JOKER-DISCARD",
        )
        result = can_go_out(hand, rules=rules, closing=closing, opened=opened, deck=TWO_DECKS)
        if result.possible:
            shown = [c for m in result.melds for c in m.cards]
            shown += [result.discard] if result.discard is not None else []
            assert Counter(shown) == Counter(hand)
            for meld in result.melds:
                assert_legal(meld, rules)
            if result.discard is not None:
                assert joker_discard or not result.discard.is_joker
            if not opened:
                assert result.value == sum(meld_value(m) for m in result.melds) >= minimum
        assert result.possible == brute_go_out(hand, rules, closing, opened), result


def brute_layoff(hand: Sequence[Card], onto: Sequence[Meld], rules: MeldRules, value) -> int:
    """Return the least deadwood with own melds and cards added to each table meld at most once."""
    groups: list[tuple[frozenset[int], int]] = [(m, -1) for m in legal_melds(hand, rules)]
    for index, meld in enumerate(onto):
        fixed = reading_of(meld)
        for size in range(1, len(hand) + 1):
            for subset in combinations(range(len(hand)), size):
                naturals, jokers = split(hand[i] for i in subset)
                if any(True for _ in readings(naturals, jokers, rules, fixed)):
                    groups.append((frozenset(subset), index))
    total = sum(value(card) for card in hand)
    best = total

    def walk(start: int, used: frozenset[int], targets: frozenset[int]) -> None:
        nonlocal best
        best = min(best, total - sum(value(hand[i]) for i in used))
        for k in range(start, len(groups)):
            subset, target = groups[k]
            if subset & used or target in targets:
                continue
            walk(k + 1, used | subset, targets | {target} if target >= 0 else targets)

    walk(0, frozenset(), frozenset())
    return best


TABLE_MELDS = [
    Meld("run", cards("5S 6S 7S")),
    Meld("run", (JOKER, *cards("6S 7S")), cards("5S 6S 7S")),
    Meld("run", cards("QH KH AH")),
    Meld("set", cards("7C 7H 7D")),
    Meld("set", (JOKER, *cards("9S 9H")), cards("9C 9S 9H")),
    Meld("run", (*cards("JD QD"), JOKER), cards("JD QD KD")),
]


@st.composite
def layoff_cases(draw):
    """Draw one or two table melds and up to 6 cards, most of a rank or suit they hold."""
    onto = draw(st.lists(st.sampled_from(TABLE_MELDS), min_size=1, max_size=2, unique=True))
    shown = [card for meld in onto for card in (meld.represents or meld.cards)]
    near = sorted(
        {Card(r, s) for r in range(1, 14) for s in SUIT_ORDER}
        & {Card(r, c.suit) for c in shown for r in range(1, 14)}
        | {Card(c.rank, s) for c in shown for s in SUIT_ORDER},
        key=str,
    )
    jokers = draw(st.integers(0, 2))
    picked = draw(st.lists(st.sampled_from(near), max_size=6 - jokers))
    # Two decks: a card may show twice in all (table and hand together).
    picked = [c for i, c in enumerate(picked) if (picked[:i] + shown).count(c) < 2]
    return onto, [*picked, *[JOKER] * jokers]


class TestLayoffsWithJokers:
    def test_a_joker_in_hand_extends_a_run_and_a_card_follows_it(self):
        """RAM-ADD: JK as 8♠ then 9♠ onto 5♠6♠7♠."""
        onto = [Meld("run", cards("5S 6S 7S"))]
        result = best_layoff(
            cards("JK 9S 2D"), onto, rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert result.count == 2
        assert result.grown[0].represents == cards("5S 6S 7S 8S 9S")

    def test_a_table_joker_keeps_what_it_stands_for(self):
        """JOKER-1: JK standing for 7♠ in JK 8♠ 9♠: 7♠ cannot go below it, 6♠ can."""
        onto = [Meld("run", (JOKER, *cards("8S 9S")), cards("7S 8S 9S"))]
        result = best_layoff(cards("6S 7S"), onto, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert result.layoffs == ((Card(6, "S"), 0),)
        assert result.count == 7

    def test_rummy40_takes_no_second_joker_in_a_meld(self):
        """R40-RUNS: a table meld holding a joker takes no other."""
        onto = [Meld("run", (JOKER, *cards("8S 9S")), cards("7S 8S 9S"))]
        result = best_layoff(cards("JK"), onto, rules=RUMMY40, value=knock_value, deck=TWO_DECKS)
        assert result.layoffs == ()
        assert result.count == 25

    def test_a_set_takes_a_missing_suit_once_even_with_two_decks(self):
        """MELD-SET: 7♣7♥7♦ takes 7♠ once; the second 7♠ stays."""
        onto = [Meld("set", cards("7C 7H 7D"))]
        result = best_layoff(cards("7S 7S"), onto, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert result.layoffs == ((Card(7, "S"), 0),)
        assert result.count == 7

    def test_a_table_joker_that_fits_nowhere_is_refused(self):
        """JOKER-1, MELD-RUN: JK declared as 5♠ in JK 8♠ 9♠ leaves a gap."""
        onto = [Meld("run", (JOKER, *cards("8S 9S")), cards("5S 8S 9S"))]
        with pytest.raises(RuleViolation) as caught:
            best_layoff(cards("6S"), onto, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert caught.value.rule == "MELD-RUN"

    def test_a_table_joker_without_a_declaration_is_a_programming_error(self):
        """Table melds come from check_meld, which always says what a joker stands for."""
        with pytest.raises(ValueError, match="stand for"):
            best_layoff(
                cards("6S"),
                [Meld("run", (JOKER, *cards("8S 9S")))],
                rules=RAMINO,
                value=ramino_value,
                deck=TWO_DECKS,
            )

    @settings(max_examples=120, deadline=None)
    @given(layoff_cases(), st.sampled_from(ALL_RULES))
    def test_small_layoffs_reach_the_brute_force_minimum(self, case, rules):
        """R40-ADD, RAM-ADD, GIN-LAYOFF: own melds and additions chosen together, exactly."""
        onto, hand = case
        try:
            result = best_layoff(hand, onto, rules=rules, value=ramino_value, deck=TWO_DECKS)
        except RuleViolation:
            # Not every table meld is legal under every rule set.
            return
        assert result.count == brute_layoff(hand, onto, rules, ramino_value)
        for meld in (*result.melds, *result.grown):
            assert_legal(meld, rules)
        laid = [card for card, _ in result.layoffs]
        shown = [c for m in result.melds for c in m.cards] + laid + list(result.deadwood)
        assert Counter(shown) == Counter(hand)


class TestSeededSweep:
    def test_400_seeded_small_hands_match_the_brute_force_in_every_question(self):
        """Deadwood, openings and going out on 400 hands of up to 8 cards, 4 jokers (seed 8)."""
        rng = random.Random(8)
        for _ in range(400):
            ranks, suits = rng.choice(POOLS)
            pool = [Card(rank, suit) for rank in ranks for suit in suits] * 2
            jokers = rng.randint(0, 4)
            hand = rng.sample(pool, max(0, rng.randint(3, 8) - jokers)) + [JOKER] * jokers
            rules = rng.choice(ALL_RULES)
            result = best_arrangement(hand, rules=rules, value=knock_value, deck=TWO_DECKS)
            assert result.count == brute_deadwood(hand, rules, knock_value), (hand, rules)
            keep = rng.randint(0, 1)
            opening = best_opening(hand, rules=rules, keep=keep, deck=TWO_DECKS)
            assert opening.value == brute_opening(hand, rules, keep), (hand, rules, keep)
            closing = Closing(
                rng.choice(["required", "optional", "none"]),
                "RAM-OUT",
                rng.choice([0, 30, 40]),
                "RAM-OPEN",
                rng.choice([None, "R40-JOKER-DISCARD"]),
            )
            opened = rng.random() < 0.5
            out = can_go_out(hand, rules=rules, closing=closing, opened=opened, deck=TWO_DECKS)
            assert out.possible == brute_go_out(hand, rules, closing, opened), (hand, closing)
