"""Ramino: best_arrangement on 14-card hands from two decks and up to 6 jokers."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bench.timing import Summary, duration, table, time_all, verdict
from scoring.cards import FULL_DECK, JOKER, Card, DeckSpec
from scoring.melds import MeldRules
from scoring.solver import Closing, best_arrangement, best_opening, can_go_out

HANDS = 5_000
P99 = 10e-3
WORST = 100e-3
HAND_SIZE = 14
# RAM-SETUP, RAM-SET, RAM-RUN, RAM-JOKER: two decks and 6 jokers; ace low or high, never
# inside; jokers anywhere, never more than the natural cards of a meld.
DECK = DeckSpec(decks=2, jokers=6)
RAMINO = MeldRules(
    ace_low=True, ace_high=True, max_jokers=None, jokers_within_naturals_rule="RAM-JOKER"
)
OUT = Closing("required", "RAM-OUT", opening_minimum=30, opening_rule="RAM-OPEN")


def ramino_value(card: Card) -> int:
    """Return RAM-VALUE: 2-9 face value, 10 J Q K 10, ace 11, joker 20."""
    if card.is_joker:
        return 20
    return 11 if card.rank == 1 else min(card.rank, 10)


def hands(jokers: int, count: int, seed: int) -> list[list[Card]]:
    """Return seeded hands of 14 cards holding exactly `jokers` jokers, the rest from two decks."""
    rng = random.Random(seed)
    naturals = list(FULL_DECK) * 2
    return [rng.sample(naturals, HAND_SIZE - jokers) + [JOKER] * jokers for _ in range(count)]


def arrange(hand: Sequence[Card]) -> object:
    return best_arrangement(hand, rules=RAMINO, value=ramino_value, deck=DECK)


def open_(hand: Sequence[Card]) -> object:
    return best_opening(hand, rules=RAMINO, deck=DECK)


def go_out(hand: Sequence[Card]) -> object:
    return can_go_out(hand, rules=RAMINO, closing=OUT, opened=False, deck=DECK)


def _row(name: str, call: Callable[[Sequence[Card]], object], hand_list) -> tuple[list, Summary]:
    found = Summary.of(time_all(call, hand_list))
    return [name, duration(found.median), duration(found.p99), duration(found.max)], found


def run() -> tuple[str, bool]:
    """Time the deadwood search for each number of jokers; return the report and the verdict."""
    rows = []
    passed = True
    for jokers in (0, 2, 4, 6):
        row, found = _row(f"{jokers} jokers", arrange, hands(jokers, HANDS, 100 + jokers))
        ok = found.p99 < P99 and found.max < WORST
        passed &= ok
        rows.append([*row, verdict(ok)])
    header = [f"Ramino deadwood, {HANDS:,} hands each", "median", "p99", "max", "verdict"]
    report = table(header, rows)
    notes = (
        f"Targets: p99 under {duration(P99)} and no hand over {duration(WORST)}, even with 6"
        " jokers. Rules: ace low or high, no wrap, jokers unlimited but never more than the"
        " naturals of a meld; values 2-9 face, 10 J Q K 10, ace 11, joker 20."
    )
    extra = [
        _row("best_opening, 6 jokers", open_, hands(6, 1_000, 200))[0],
        _row("can_go_out (not opened, 30), 6 jokers", go_out, hands(6, 1_000, 300))[0],
        _row("can_go_out (not opened, 30), 0 jokers", go_out, hands(0, 1_000, 400))[0],
    ]
    other = table(["Other questions, 1,000 hands (no target)", "median", "p99", "max"], extra)
    return f"{report}\n{notes}\n\n{other}", passed
