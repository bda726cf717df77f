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
from dataclasses import replace
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
    lower = state.variant.standings.lower_is_better
    sign = -1 if lower else 1
    summary = match_summary(state, players)
    # The points difference is the game's own (Ramino's gained less lost, from the hands),
    # moved by what the director's adjustments move each total against the others' average
    # (NIGHT-ADJUST): read from the match without them, then moved.
    unadjusted = replace(state, adjustments=()) if state.adjustments else state
    base = match_summary(unadjusted, players) if state.adjustments else summary
    moved = [
        _margin(state.match.totals, seat, lower) - _margin(unadjusted.match.totals, seat, lower)
        for seat in range(len(players))
    ]
    return TableResult(
        round_number,
        players,
        tuple(seat.place for seat in summary.seats),
        tuple(
            sign * (seat.points_for - seat.points_against) + moved[seat.seat] for seat in base.seats
        ),
    )


def _margin(totals: Sequence[int], seat: int, lower_is_better: bool) -> Fraction:
    """Return a seat's total against the others' average, better being positive."""
    others = [total for other, total in enumerate(totals) if other != seat]
    difference = Fraction(totals[seat]) - Fraction(sum(others), len(others))
    return -difference if lower_is_better else difference
