"""Reads of a night's tables as its results show them: each seat's total, the director's
adjustments and decisions (the results page and the results file)."""

from dataclasses import dataclass, replace

from games.tables import snapshots
from games.tournaments.models import Round, RoundTable, Tournament
from games.tournaments.selectors import (
    entrant_totals,
    scale,
    seat_names,
    table_victory_points,
    tournament_rounds,
)


@dataclass(frozen=True)
class NightTable:
    """One table of a night's results: each seat's (name, total), and the director's
    adjustments of the totals as (name, points, reason), which the totals include; the
    director's decision on it, if any, with its reason and the VP it gave."""

    pairing: RoundTable
    seats: list[tuple[str, int]]
    adjustments: list[tuple[str, int, str]]
    decision: str = ""  # "lock", "void" or "score" when the director decided the table
    reason: str = ""  # the decision's reason
    given: tuple[tuple[str, int], ...] = ()  # the VP the director gave each seat ("score")
    # At a pairs night, each pair's VP from the table's result (a printed sheet reads them).
    victory_points: tuple = ()


def night_tables(*, tournament: Tournament) -> list[tuple[Round, list[NightTable]]]:
    """Return each round with its tables, as the night's results show them."""
    rounds = []
    pairs = tournament.format == Tournament.Format.PAIRS
    night_scale = scale(tournament) if pairs else None
    for round_ in tournament_rounds(tournament=tournament):
        tables = []
        for pairing in round_.tables.all():
            state = snapshots.head_state(pairing.table)
            names = seat_names(pairing, state)
            adjustments = [(names[a.seat], a.points, a.reason) for a in state.adjustments]
            line = NightTable(pairing, entrant_totals(pairing, state), adjustments)
            if pairs:
                given = table_victory_points(
                    pairing, round_.number, state=state, night_scale=night_scale
                )
                line = replace(line, victory_points=given)
            tables.append(_with_decision(line, state, pairing))
        rounds.append((round_, tables))
    return rounds


def _with_decision(line: NightTable, state, pairing: RoundTable) -> NightTable:
    """Return the table's line with the director's decision on it, if any: the VP it gave
    each entrant (a pair's, those of its side's first seat)."""
    decision = state.decision
    if decision is None:
        return line
    given = ()
    if decision.points:
        sides = state.variant.teams(len(state.seats))
        given = tuple(
            (seat.entrant.name, decision.points[sides[seat.seat][0]])
            for seat in pairing.seats.all()
        )
    return replace(line, decision=decision.decision, reason=decision.reason, given=given)
