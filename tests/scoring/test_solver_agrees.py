"""The solver and the referee agree on which melds are legal, for every variant's MeldRules.

scoring.melds.check_meld is the referee's word on a meld (RAM-OPT-FIXEDGROUPS and
RAM-OPT-FIXEDJOKER included); scoring.solver chooses how to lay cards. Two properties tie
them together, on random hands from two decks and up to 4 jokers:

- every meld the solver returns (arrangements, openings, going out, table melds grown by
  layoffs) is accepted by check_meld as written, its jokers declared as the solver placed
  them (Meld.represents), and check_meld reads it as the same cards;
- on small hands the solver's least deadwood, and whether the hand goes out, match a brute
  force whose only notion of a legal meld is check_meld: a group of cards is a meld when
  check_meld accepts it written in some order (the order matters only for a set with
  jokers under fixed groups, where the written order places the jokers).
"""

import random
from collections import Counter
from functools import cache
from itertools import combinations, permutations

import pytest

from scoring.cards import FULL_DECK, JOKER, RANKS, SUITS, Card, DeckSpec
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules, check_meld
from scoring.solver import (
    Closing,
    best_arrangement,
    best_layoff,
    best_opening,
    can_go_out,
    deadwood_count,
)
from scoring.variants import knock_rummy, ramino, rummy40
from scoring.variants.gin.cards import gin_value

DECK = DeckSpec(decks=2, jokers=4)
CLOSING = Closing(discard="optional", rule="RAM-OUT")
ALL_OUT = Closing(discard="none", rule="KR-OUT")


def _ramino_rule_sets() -> list[tuple[str, MeldRules]]:
    found = []
    names = ("circular_runs", "fixed_jokers", "fixed_groups", "no_jokers")
    for mask in range(1 << len(names)):
        chosen = {name: bool(mask >> i & 1) for i, name in enumerate(names)}
        try:
            options = ramino.RaminoOptions(**chosen)
        except RuleViolation:
            continue  # e.g. fixed_jokers without jokers: a table the variant refuses
        label = "+".join(name for name, on in chosen.items() if on) or "standard"
        found.append((f"ramino:{label}", ramino.meld_rules(options)))
    return found


RULE_SETS: list[tuple[str, MeldRules, object]] = [
    ("gin", MeldRules(), gin_value),
    ("rummy40", rummy40.meld_rules(rummy40.Rummy40Options()), rummy40.card_value),
    ("knock", knock_rummy.meld_rules(knock_rummy.KnockRummyOptions()), knock_rummy.card_value),
    *((name, rules, ramino.card_value) for name, rules in _ramino_rule_sets()),
]
IDS = [name for name, _, _ in RULE_SETS]


def _shoe(rng: random.Random, name: str) -> list[Card]:
    """Return a shuffled pool of two decks and 4 jokers, often narrowed so melds are common.

    Gin is played without jokers (GIN-SETUP): its pool has none.
    """
    if rng.random() < 0.25:
        ranks = list(RANKS)
    else:
        start = rng.randrange(13)
        ranks = [(start + i) % 13 + 1 for i in range(rng.randint(3, 5))]
    suits = SUITS if rng.random() < 0.7 else rng.sample(SUITS, rng.randint(1, 3))
    pool = [card for card in FULL_DECK if card.rank in ranks and card.suit in suits] * 2
    pool += [JOKER] * (0 if name == "gin" else 4)
    rng.shuffle(pool)
    return pool


def _declarations(meld: Meld) -> list[Card | None]:
    return [
        stands if card.is_joker else None
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
    ]


def _assert_legal(meld: Meld, rules: MeldRules, where: str) -> None:
    try:
        checked = check_meld(meld.cards, rules, _declarations(meld))
    except RuleViolation as exc:
        raise AssertionError(f"{where}: check_meld refuses {meld.label}: {exc}") from exc
    assert checked.kind == meld.kind, (where, meld.label)
    assert checked.stands_for == meld.stands_for, (where, meld.label, checked.label)


@pytest.mark.parametrize(("name", "rules", "value"), RULE_SETS, ids=IDS)
def test_every_meld_the_solver_returns_is_legal(name, rules, value):
    rng = random.Random(f"agree-{name}")
    for _ in range(80):
        shoe = _shoe(rng, name)
        table = best_arrangement(shoe[:10], rules=rules, value=value, deck=DECK).melds
        hand = shoe[10 : 10 + rng.randint(3, 10)]
        where = f"{name} {' '.join(card.label for card in hand)}"
        for meld in best_arrangement(hand, rules=rules, value=value, deck=DECK).melds:
            _assert_legal(meld, rules, f"best_arrangement {where}")
        for meld in best_opening(hand, rules=rules, keep=1, deck=DECK).melds:
            _assert_legal(meld, rules, f"best_opening {where}")
        layoff = best_layoff(hand, table, rules=rules, value=value, deck=DECK)
        for meld in (*layoff.melds, *layoff.grown):
            _assert_legal(meld, rules, f"best_layoff {where}")
        for opened, onto in ((True, table), (False, ())):
            out = can_go_out(
                hand, rules=rules, closing=CLOSING, opened=opened, onto=onto, deck=DECK
            )
            for meld in (*out.melds, *out.grown):
                _assert_legal(meld, rules, f"can_go_out {where}")


def _key(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: (card.rank, card.suit)))


@cache
def _is_meld(cards: tuple[Card, ...], rules: MeldRules) -> bool:
    """Tell whether check_meld accepts the cards written in some order."""
    orders = [cards]
    if JOKER in cards and len(cards) <= len(SUITS):
        orders = list(dict.fromkeys(permutations(cards)))
    for order in orders:
        try:
            check_meld(order, rules)
        except RuleViolation:
            continue
        return True
    return False


def _brute(hand: list[Card], rules: MeldRules, value) -> tuple[int, bool]:
    """Return the least deadwood over every packing of check_meld melds, and whether 0 cards
    can be left (every card melded)."""
    melds = {
        key
        for size in range(3, len(hand) + 1)
        for group in combinations(hand, size)
        if _is_meld(key := _key(group), rules)
    }

    @cache
    def best(rest: tuple[Card, ...]) -> tuple[int, int]:
        # (deadwood, cards left out), least first
        if not rest:
            return 0, 0
        first = rest[0]
        count, left = best(rest[1:])
        found = (count + value(first), left + 1)
        held = Counter(rest)
        for meld in melds:
            if meld[0] == first and not Counter(meld) - held:
                remaining = held - Counter(meld)
                found = min(found, best(_key(remaining.elements())))
        return found

    count, _ = best(_key(hand))
    all_out = best_all(_key(hand), frozenset(melds))
    return count, all_out


@cache
def best_all(rest: tuple[Card, ...], melds: frozenset[tuple[Card, ...]]) -> bool:
    if not rest:
        return True
    held = Counter(rest)
    return any(
        meld[0] == rest[0]
        and not Counter(meld) - held
        and best_all(_key((held - Counter(meld)).elements()), melds)
        for meld in melds
    )


@pytest.mark.parametrize(("name", "rules", "value"), RULE_SETS, ids=IDS)
def test_small_hands_reach_the_check_meld_brute_force(name, rules, value):
    rng = random.Random(f"brute-{name}")
    for _ in range(100):
        hand = _shoe(rng, name)[: rng.randint(3, 7)]
        count, all_out = _brute(hand, rules, value)
        where = f"{name} {' '.join(card.label for card in hand)}"
        assert best_arrangement(hand, rules=rules, value=value, deck=DECK).count == count, where
        assert deadwood_count(hand, rules=rules, value=value, deck=DECK) == count, where
        out = can_go_out(hand, rules=rules, closing=ALL_OUT, opened=True, deck=DECK)
        assert out.possible == all_out, where


def test_fixed_groups_examples_agree():
    """RAM-OPT-FIXEDGROUPS as check_meld reads it: ♠ ♥ ♦ legal, ♣ JK ♥ legal, JK ♣ ♠ not."""
    rules = ramino.meld_rules(ramino.RaminoOptions(fixed_groups=True, fixed_jokers=True))
    value = ramino.card_value
    hand = [Card(7, "S"), Card(7, "H"), Card(7, "D")]
    assert best_arrangement(hand, rules=rules, value=value, deck=DECK).count == 0
    hand = [Card(7, "S"), Card(7, "D"), JOKER, JOKER]  # JK ♠ JK ♦: the jokers stand apart
    (meld,) = best_arrangement(hand, rules=rules, value=value, deck=DECK).melds
    assert meld.stands_for == (Card(7, "C"), Card(7, "S"), Card(7, "H"), Card(7, "D"))
    _assert_legal(meld, rules, "JK ♠ JK ♦")
    hand = [Card(7, "C"), Card(7, "S"), JOKER, JOKER]  # ♣ ♠ JK JK: side by side
    result = best_arrangement(hand, rules=rules, value=value, deck=DECK)
    assert (len(result.melds[0].cards), result.count) == (3, 20)  # ♣ ♠ JK, one joker left


def _extends(table: Meld, extra: tuple[Card, ...], rules: MeldRules) -> bool:
    """Tell whether check_meld accepts the table meld with the cards added, written in some
    order, the table's jokers still standing for what they stood for."""
    pairs = [
        *zip(table.cards, _declarations(table), strict=True),
        *((card, None) for card in extra),
    ]
    orders = [tuple(pairs)]
    if any(card.is_joker for card, _ in pairs) and len(pairs) <= len(SUITS):
        orders = list(dict.fromkeys(permutations(pairs)))
    for order in orders:
        try:
            check_meld([card for card, _ in order], rules, [stands for _, stands in order])
        except RuleViolation:
            continue
        return True
    return False


@pytest.mark.parametrize(("name", "rules", "value"), RULE_SETS, ids=IDS)
def test_small_layoffs_reach_the_check_meld_brute_force(name, rules, value):
    """GIN-LAYOFF, R40-ADD, RAM-ADD onto one table meld: what check_meld lets it take."""
    rng = random.Random(f"layoff-{name}")
    tried = 0
    while tried < 60:
        shoe = _shoe(rng, name)
        melds = best_arrangement(shoe[:8], rules=rules, value=value, deck=DECK).melds
        if not melds:
            continue
        tried += 1
        # Table melds with jokers are the interesting ones: take the one with most jokers.
        table = max(melds, key=lambda meld: meld.cards.count(JOKER))
        hand = shoe[8 : 8 + rng.randint(1, 6)]
        least = min(
            _brute(list((Counter(hand) - Counter(extra)).elements()), rules, value)[0]
            for extra in {
                _key(group) for size in range(len(hand) + 1) for group in combinations(hand, size)
            }
            if not extra or _extends(table, extra, rules)
        )
        where = f"{name} {table.label} <- {' '.join(card.label for card in hand)}"
        result = best_layoff(hand, [table], rules=rules, value=value, deck=DECK)
        assert result.count == least, where


def test_a_joker_laid_onto_a_fixed_group_stands_apart_from_the_table_joker():
    """RAM-OPT-FIXEDGROUPS with RAM-OPT-FIXEDJOKER: ♣ ♠ JK=♥ takes no joker at ♦ (side by
    side); ♣ JK=♠ ♥ takes one (♠ and ♦ are not neighbours)."""
    rules = ramino.meld_rules(ramino.RaminoOptions(fixed_groups=True, fixed_jokers=True))
    value = ramino.card_value
    touching = Meld(
        "set", (Card(7, "C"), Card(7, "S"), JOKER), (Card(7, "C"), Card(7, "S"), Card(7, "H"))
    )
    assert best_layoff([JOKER], [touching], rules=rules, value=value, deck=DECK).count == 20
    apart = Meld(
        "set", (Card(7, "C"), JOKER, Card(7, "H")), (Card(7, "C"), Card(7, "S"), Card(7, "H"))
    )
    result = best_layoff([JOKER], [apart], rules=rules, value=value, deck=DECK)
    assert result.count == 0
    assert result.grown[0].stands_for == tuple(Card(7, suit) for suit in SUITS)
    _assert_legal(result.grown[0], rules, "♣ JK ♥ JK")
