"""The arrangement solver with two decks and jokers: cards laid off onto table melds, against
the brute-force oracle (solver_oracle.py).
"""

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, Card
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules
from scoring.solver import best_layoff
from tests.hypothesis_profiles import examples
from tests.scoring.solver_oracle import (
    ALL_RULES,
    RAMINO,
    RUMMY40,
    SUIT_ORDER,
    TWO_DECKS,
    assert_legal,
    cards,
    knock_value,
    legal_melds,
    ramino_value,
    reading_of,
    readings,
    split,
)


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

    @settings(max_examples=examples(120), deadline=None)
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
