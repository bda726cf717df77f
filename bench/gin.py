"""Gin: deadwood_count and best_arrangement against open_spiel's C++ min_deadwood, hand by hand."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pyspiel

from bench.timing import Summary, duration, table, time_side_by_side, verdict
from scoring.cards import FULL_DECK, Card
from scoring.melds import MeldRules
from scoring.solver import best_arrangement, deadwood_count, min_arrangements, prepare
from scoring.variants.gin.cards import gin_value

HANDS = 10_000
MEDIAN_RATIO = 5.0  # our median per hand at most 5 times open_spiel's
WORST = 1e-3  # and no hand over 1 ms
GIN = MeldRules()
# open_spiel's card ints are suit * 13 + rank with suits s, c, d, h.
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
_RANKS = "A23456789TJQK"


def to_open_spiel(hand: Sequence[Card]) -> list[int]:
    return UTILS.card_strings_to_card_ints([_RANKS[c.rank - 1] + c.suit.lower() for c in hand])


def hand_sets() -> list[tuple[str, list[list[Card]]]]:
    """Return the seeded hand sets: random 10 and 11 cards, and dense (5 ranks) 10 and 11."""
    rng = random.Random(2024)

    def dense(size: int) -> list[Card]:
        ranks = set(rng.sample(range(1, 14), 5))
        return rng.sample([card for card in FULL_DECK if card.rank in ranks], size)

    def consecutive(size: int) -> list[Card]:
        # Five ranks in a row (4-5-6-7-8…): every card can join sets and runs both, the
        # hardest hands for a search of arrangements.
        low = rng.randint(1, 9)
        ranks = set(range(low, low + 5))
        return rng.sample([card for card in FULL_DECK if card.rank in ranks], size)

    return [
        ("random, 10 cards", [rng.sample(FULL_DECK, 10) for _ in range(HANDS)]),
        ("random, 11 cards", [rng.sample(FULL_DECK, 11) for _ in range(HANDS)]),
        ("dense 5 ranks, 10 cards", [dense(10) for _ in range(HANDS)]),
        ("dense 5 ranks, 11 cards", [dense(11) for _ in range(HANDS)]),
        ("5 consecutive ranks, 10 cards", [consecutive(10) for _ in range(HANDS)]),
        ("5 consecutive ranks, 11 cards", [consecutive(11) for _ in range(HANDS)]),
    ]


def ours(hand: Sequence[Card]) -> int:
    return best_arrangement(hand, rules=GIN, value=gin_value).count


def count(hand: Sequence[Card]) -> int:
    """The same job as open_spiel's min_deadwood: the count, no melds."""
    return deadwood_count(hand, rules=GIN, value=gin_value)


def agrees(hand: Sequence[Card], ints: list[int]) -> bool:
    """Tell whether open_spiel's count is ours, as it defines its count."""
    theirs = UTILS.min_deadwood(ints)
    if len(hand) == 10:
        return ours(hand) == theirs
    # open_spiel's 11-card MinDeadwood keeps one best arrangement of all 11 cards and drops its
    # highest deadwood card: one of our minimum arrangements must give the same.
    arrangements = min_arrangements(hand, rules=GIN, value=gin_value)
    return theirs in {a.count - max(map(gin_value, a.deadwood), default=0) for a in arrangements}


def above_exact(hand: Sequence[Card], ints: list[int]) -> bool:
    """Tell whether open_spiel's 11-card count is above the exact best discard's."""
    exact = min(ours([*hand[:i], *hand[i + 1 :]]) for i in range(len(hand)))
    return UTILS.min_deadwood(ints) > exact


def run() -> tuple[str, bool]:
    """Time every hand set both ways; return the report and whether every target holds."""
    prepare(GIN, gin_value)
    rows = []
    passed = True
    above = 0
    for name, hands in hand_sets():
        ints = [to_open_spiel(hand) for hand in hands]
        disagree = sum(not agrees(h, i) for h, i in zip(hands, ints, strict=True))
        if len(hands[0]) == 11:
            above += sum(above_exact(h, i) for h, i in zip(hands, ints, strict=True))
        disagree += sum(count(h) != ours(h) for h in hands)
        our_times, their_times = time_side_by_side(count, hands, UTILS.min_deadwood, ints)
        whole_times, _ = time_side_by_side(ours, hands, UTILS.min_deadwood, ints)
        mine, theirs = Summary.of(our_times), Summary.of(their_times)
        whole = Summary.of(whole_times)
        ratio = mine.median / theirs.median
        ok = ratio <= MEDIAN_RATIO and max(mine.max, whole.max) <= WORST and not disagree
        passed &= ok
        rows.append(
            [
                name,
                duration(mine.median),
                duration(mine.p99),
                duration(mine.max),
                duration(theirs.median),
                duration(theirs.p99),
                duration(theirs.max),
                f"{ratio:.1f}x",
                duration(whole.median),
                duration(whole.max),
                f"{whole.median / theirs.median:.1f}x",
                str(disagree),
                verdict(ok),
            ]
        )
    header = [
        f"Gin, {HANDS:,} hands each",
        "ours median",
        "p99",
        "max",
        "open_spiel median",
        "p99",
        "max",
        "ratio",
        "with melds median",
        "max",
        "ratio",
        "disagree",
        "verdict",
    ]
    notes = (
        f"Targets: our count's median at most {MEDIAN_RATIO:g}x open_spiel's (ratio of medians),"
        f" no hand over {duration(WORST)} either way, and the same deadwood count on every"
        " hand.\n"
        "Ours: scoring.solver.deadwood_count (Python; the count alone, as the knock check and"
        " the referee's best discard ask it), and best_arrangement (the melds and deadwood"
        " cards too, as a hand's score shows them; no target of its own). Reference:"
        " pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood (C++, the count alone),\n"
        "in the same run, timed in turn with ours on each hand so that both see the same"
        " load.\n"
        "With 11 cards ours arranges all 11 (GIN-BIGGIN); open_spiel's count keeps one best"
        " arrangement of the 11 and drops its highest deadwood card, and is compared so.\n"
        f"That is not always the best discard: on {above} of the 11-card hands open_spiel's"
        " count is above our exact minimum over the 11 discards (never below)."
    )
    return f"{table(header, rows)}\n{notes}", passed
