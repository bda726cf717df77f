"""A round's table read from its replayed log: the result it gives the night, if any.

- a director's decision settles it: "void" gives everyone 0 VP and no points difference,
  "score" the VP decided, "lock" lets the totals stand as they are (places and margins
  from them, match over or not: e.g. when the round's time ran out; equal totals, 0–0
  before any hand too, share the place, a draw: NIGHT-LOCK);
- otherwise a finished match gives its places and points differences
  (``scoring.standings.match_summary``), and a match still in play gives nothing yet.

A margin is always "better is positive": in a game scored in penalties (Rummy40) the
points taken count against the player, so the winner's margin is positive there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from scoring.replay import TableState
from scoring.standings import match_summary, places_of
from scoring.tournaments.results import PlayerKey, TableResult


def table_result(
    state: TableState, players: Sequence[PlayerKey], *, round_number: int
) -> TableResult | None:
    """Return what the table's log says for the night, or None while its match is in play."""
    decision = state.decision
    players = tuple(players)
    if decision is not None:
        totals = state.match.totals or state.totals
        lower = state.variant.standings.lower_is_better
        places = state.match.places or tuple(places_of(totals, lower_is_better=lower))
        margins = tuple(_margin(totals, seat, lower) for seat in range(len(totals)))
        decided: tuple[Fraction, ...] = ()
        if decision.decision == "void":
            decided = tuple(Fraction(0) for _ in players)
            margins = decided  # a void table counts for nothing, its points neither
        elif decision.decision == "score":
            decided = tuple(Fraction(points) for points in decision.points)
        return TableResult(round_number, players, places, margins, decided)
    if not state.finished:
        return None
    summary = match_summary(state, players)
    sign = -1 if state.variant.standings.lower_is_better else 1
    margins = [sign * (seat.points_for - seat.points_against) for seat in summary.seats]
    return TableResult(
        round_number,
        players,
        tuple(seat.place for seat in summary.seats),
        _adjusted(state, margins, sign),
    )


def _adjusted(state: TableState, margins: list[int], sign: int) -> tuple[Fraction, ...]:
    """Return the margins following the director's adjustments (NIGHT-ADJUST).

    A game whose points for and against are read from the totals (Gin, Rummy40) has them
    in already; one that reads them from the hands (Ramino's points gained and lost) would
    keep the unadjusted value, so each adjustment counts there as points gained or lost by
    its seat.
    """
    if not state.adjustments or _reads_totals(state):
        return tuple(Fraction(m) for m in margins)
    moved = list(margins)
    for adjustment in state.adjustments:
        moved[adjustment.seat] += sign * adjustment.points
    return tuple(Fraction(m) for m in moved)


def _margin(totals: Sequence[int], seat: int, lower_is_better: bool) -> Fraction:
    """Return a seat's total against the others' average, better being positive."""
    others = [total for other, total in enumerate(totals) if other != seat]
    difference = Fraction(totals[seat]) - Fraction(sum(others), len(others))
    return -difference if lower_is_better else difference


def _reads_totals(state: TableState) -> bool:
    """Say whether the game's points for and against move with the match's totals: asked
    with every total moved by a different amount, a game reading the hands answers alike."""
    reading, totals = state.variant.standings, state.match.totals
    moved = tuple(total + 1000 * (seat + 1) for seat, total in enumerate(totals))
    results = state.counted[: state.match.hands]
    return any(
        reading.points(totals, results, seat) != reading.points(moved, results, seat)
        for seat in range(len(totals))
    )
