"""The end of a hand reviewed: each seat's cards, their best arrangement, what they could
have counted at least, and the layoffs made or missed.

A scored hand that shows the knocker's melds (Gin's result: ``knocker_melds``,
``defender_layoffs``...) is read as scored, layoffs made; any other end is read from each
seat's cards and the table's melds, layoffs missed. A hand entered whole by cards has no
table: the cards each seat melded are arranged into melds for it (``table_known`` False).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.hands import SeatEnd
from scoring.melds import Meld
from scoring.play import Play
from scoring.review.judge import Judge
from scoring.review.model import EndReview, EndSeat, Layoff


def shown_melds_end(result: Any, rule: str) -> EndReview | None:
    """Return the end of a hand whose scoring laid out the knocker's melds and the
    defender's layoffs (Gin), as scored; None for any other result."""
    knocker = getattr(result, "knocker", None)
    kept = getattr(result, "knocker_cards", ())
    if knocker is None or not kept:
        return None
    defender = 1 - knocker
    seats = {
        knocker: EndSeat(
            knocker,
            tuple(kept),
            result.knocker_count,
            result.knocker_count,
            tuple(result.knocker_melds),
            tuple(result.knocker_deadwood),
        ),
        defender: EndSeat(
            defender,
            tuple(result.defender_cards),
            result.defender_count,
            result.defender_count,
            tuple(result.defender_melds),
            tuple(result.defender_deadwood),
            tuple(Layoff(card, index + 1) for card, index in result.defender_layoffs),
            layoffs_made=True,
        ),
    }
    return EndReview(
        result.ending,
        knocker,
        rule,
        tuple(seats[seat] for seat in sorted(seats)),
        tuple(result.knocker_melds),
    )


def _seat_end(
    judge: Judge,
    seat: int,
    cards: Sequence[Card] | None,
    points: int | None,
    onto: Sequence[Meld],
    numbers: Sequence[int],
    *,
    counts_deadwood: bool,
) -> EndSeat:
    """Return one seat's end from its cards (None: shown by ``points`` or never shown)."""
    if cards is None:
        return EndSeat(seat, None, points, None)
    try:
        own = judge.weigh(cards)
        best = judge.weigh(cards, onto) if onto else own
    except RuleViolation:  # a hand past the solver's limits (LIMITS): its cards alone
        held = judge.held(cards)
        return EndSeat(seat, tuple(cards), held, None, deadwood=tuple(cards))
    count = own.count if counts_deadwood else judge.held(cards)
    layoffs = tuple(Layoff(card, numbers[index]) for card, index in best.layoffs)
    return EndSeat(seat, tuple(cards), count, best.count, own.melds, own.deadwood, layoffs)


def played_end(
    judge: Judge,
    final: Play,
    cards: Sequence[tuple[Card, ...] | None],
    addable: Sequence[tuple[tuple[Meld, ...], tuple[int, ...]]],
    rule: str,
) -> EndReview:
    """Return the end of a hand played move by move from its last state: each seat's cards
    (``cards``, None where not known) and the table melds each could lay cards on."""
    counts_deadwood = final.rules.melds_at_knock
    seats = tuple(
        _seat_end(
            judge,
            seat,
            cards[seat],
            hand.points,
            addable[seat][0],
            addable[seat][1],
            counts_deadwood=counts_deadwood,
        )
        for seat, hand in enumerate(final.hands)
    )
    table = tuple(item.meld for item in final.table)
    return EndReview(final.ending, final.ender, rule, seats, table)


def entered_end(
    judge: Judge, players: Sequence[SeatEnd], ending: str | None, rule: str, *, any_meld: bool
) -> EndReview:
    """Return the end of a hand entered by each seat's cards: each seat's cards melded,
    arranged into melds, stand for the table (which the entry does not show; cards a seat
    added to others' melds make none of their own). Anyone may lay cards on any of them
    (``any_meld``), else only on their own."""
    owned = [_melds_of(judge, player.melded) for player in players]
    table = tuple(meld for melds in owned for meld in melds)
    starts = [1 + sum(len(melds) for melds in owned[:seat]) for seat in range(len(players))]
    seats = []
    for seat, player in enumerate(players):
        if player.by_points:
            seats.append(EndSeat(seat, None, player.points, None))
            continue
        onto: tuple[Meld, ...] = ()
        if player.melded:
            onto = table if any_meld else owned[seat]
        first = 1 if any_meld else starts[seat]
        numbers = tuple(range(first, first + len(onto)))
        seats.append(
            _seat_end(judge, seat, player.hand, None, onto, numbers, counts_deadwood=False)
        )
    ender = next((seat for seat, player in enumerate(players) if player.went_out), None)
    if ender is None:
        ender = next((seat for seat, player in enumerate(players) if player.knocked), None)
    return EndReview(ending, ender, rule, tuple(seats), table, table_known=False)


def _melds_of(judge: Judge, cards: Sequence[Card]) -> tuple[Meld, ...]:
    """Return the melds the cards make at best (none past the solver's limits)."""
    if not cards:
        return ()
    try:
        return judge.weigh(cards).melds
    except RuleViolation:
        return ()
