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
from scoring.tournaments.pairs_night import match_result
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
        places = _places(state) or tuple(places_of(totals, lower_is_better=lower))
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
        _places(state) or tuple(seat.place for seat in summary.seats),
        tuple(
            sign * (seat.points_for - seat.points_against) + moved[seat.seat] for seat in base.seats
        ),
    )


def _margin(totals: Sequence[int], seat: int, lower_is_better: bool) -> Fraction:
    """Return a seat's total against the others' average, better being positive."""
    others = [total for other, total in enumerate(totals) if other != seat]
    difference = Fraction(totals[seat]) - Fraction(sum(others), len(others))
    return -difference if lower_is_better else difference


def _places(state: TableState) -> tuple[int, ...]:
    """Return the places of a game that gives them by who went out (Scala 40, S40-MATCH),
    players out in the same hand parted by their totals as adjusted (NIGHT-ADJUST): a
    penalty moves them as it moves any other total. Empty for a game placed by its totals.

    The match's own places are read from its hands alone; the hand each player went out in
    is read back from the match over the hands up to it.
    """
    match = state.match
    if not match.places or not state.adjustments:
        return match.places
    # A player still in goes out "after" every hand played, whatever the seat count.
    never = match.hands + 1
    gone = {seat: never for seat in range(len(match.places))}
    for hands in range(match.hands, 0, -1):
        for seat in state.variant.match_result(state.options, state.counted[:hands]).out:
            gone[seat] = hands
    sign = 1 if state.variant.standings.lower_is_better else -1
    keys = [(-gone[seat], sign * match.totals[seat]) for seat in range(len(match.places))]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def pairs_table_result(
    state: TableState, pairs: Sequence[PlayerKey], *, round_number: int
) -> TableResult | None:
    """Return what a table of two pairs says for the night (None while its match is in
    play): ``pairs`` is (the pair of the first side, North–South; the pair of the other,
    East–West).

    A pair's points are its side's first seat's total: partners carry the same score, and
    the director's adjustment of a pair is made on that seat (BURRACO-VP). A decision reads
    as at any table: "void" gives both pairs 0 VP and no difference, "score" the VP of each
    side's first seat, "lock" lets the totals stand.
    """
    sides = state.variant.teams(len(state.seats))
    if len(sides) != 2 or len(pairs) != 2:
        raise ValueError("a pairs table seats two sides, one pair each")
    decision = state.decision
    if decision is None and not state.finished:
        return None
    totals = state.match.totals or state.totals
    ns, ew = pairs
    result = match_result(round_number, ns, ew, totals[sides[0][0]], totals[sides[1][0]])
    if decision is None or decision.decision == "lock":
        return result
    if decision.decision == "void":
        nothing = (Fraction(0), Fraction(0))
        return replace(result, margins=nothing, decided=nothing)
    given = tuple(Fraction(decision.points[side[0]]) for side in sides)
    return replace(result, decided=given)
