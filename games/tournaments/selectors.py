"""Reads of a tournament night: its rounds, the results its tables' logs give, standings."""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Prefetch, QuerySet

from games.tables import snapshots
from games.tables.models import Table
from games.tournaments.models import Entrant, Round, RoundSeat, RoundTable, Tournament
from scoring.standings import match_summary
from scoring.tournaments.ranking import TournamentRow, tournament_standings
from scoring.tournaments.results import Bye, TableResult, WinDrawLoss


def scale(tournament: Tournament) -> WinDrawLoss:
    """Return the night's victory points for a win, a draw, a loss and a bye."""
    return WinDrawLoss(
        win=Fraction(tournament.win_points),
        draw=Fraction(tournament.draw_points),
        loss=Fraction(tournament.loss_points),
        bye=Fraction(tournament.bye_points),
    )


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    """Return the rounds, each with its tables, their seats and entrants' players."""
    seats = RoundSeat.objects.select_related("entrant__player")
    tables = RoundTable.objects.select_related("table").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return tournament.round_set.select_related("bye__player").prefetch_related(
        Prefetch("tables", queryset=tables)
    )


@dataclass(frozen=True)
class NightResults:
    """What the night's logs say so far: finished tables' results, byes, tables in play."""

    results: list[TableResult]
    byes: list[Bye]
    playing: list[RoundTable]


def night_results(*, tournament: Tournament) -> NightResults:
    """Read every round's finished tables into results (keys: entrant ids)."""
    results, byes, playing = [], [], []
    for round_ in tournament_rounds(tournament=tournament):
        if round_.bye_id is not None:
            byes.append(Bye(round_number=round_.number, player=round_.bye_id))
        for pairing in round_.tables.all():
            entrants = [seat.entrant_id for seat in pairing.seats.all()]
            if pairing.table.status != Table.Status.FINISHED:
                playing.append(pairing)
                continue
            summary = match_summary(snapshots.head_state(pairing.table), entrants)
            results.append(
                TableResult(
                    round_number=round_.number,
                    players=tuple(entrants),
                    places=tuple(seat.place for seat in summary.seats),
                    margins=tuple(seat.points_for - seat.points_against for seat in summary.seats),
                )
            )
    return NightResults(results, byes, playing)


@dataclass(frozen=True)
class StandingLine:
    row: TournamentRow
    name: str
    withdrawn: bool


def night_standings(*, tournament: Tournament, found: NightResults | None = None) -> list:
    """Return the night's standings, best first, each row with its player's name."""
    found = found or night_results(tournament=tournament)
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    rows = tournament_standings(list(entrants), found.results, found.byes, scale(tournament))
    return [
        StandingLine(row, entrants[row.player].player.name, entrants[row.player].withdrawn)
        for row in rows
    ]


def current_round(*, tournament: Tournament) -> Round | None:
    """Return the latest round started, with its tables, or None before the first."""
    return tournament_rounds(tournament=tournament).order_by("-number").first()


def paired_entrants(*, tournament: Tournament) -> list[Entrant]:
    """Return who the next round pairs: checked in, not withdrawn."""
    return list(
        tournament.entrants.filter(checked_in=True, withdrawn=False)
        .select_related("player")
        .order_by("pk")
    )


def club_tournaments(*, club) -> QuerySet[Tournament]:
    """Return the club's nights, newest first."""
    return Tournament.objects.filter(club=club).order_by("-created_at")
