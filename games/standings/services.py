"""Standings: projections of the league tables' logs, rebuilt by workers (standings.tasks).

Nothing here is the truth: every row can be thrown away and computed again from the logs.
"""

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.clubs.models import League, Season
from games.standings import selectors
from games.standings.models import MatchResult, RecomputeJob, SeasonStandings
from games.tables.log import engine_events, seating_players
from games.tables.models import Event, Seat, Table
from scoring.errors import RuleViolation
from scoring.ratings import RatingHistory, ratings_over
from scoring.replay import apply
from scoring.standings import MatchSummary, match_summary, standings

logger = logging.getLogger(__name__)


RESULT_BATCH = 200


def _match_read(
    table_id: uuid.UUID, rows: Sequence[Event], players: Sequence[int]
) -> tuple[dict[str, Any] | None, datetime | None]:
    """Replay one log; return its match summary record and when it finished, or Nones."""
    state = None
    finished_at = None
    for row, event in zip(rows, engine_events(rows), strict=True):
        state = apply(state, event)
        # The match finished at the last event that took it from unfinished to finished.
        if not state.finished:
            finished_at = None
        elif finished_at is None:
            finished_at = row.created_at
    if state is None or not state.finished:
        return None, None
    summary = match_summary(state, players, match_id=str(table_id))
    return summary.to_record(), finished_at


def match_results_read(table_ids: Sequence[uuid.UUID]) -> list[MatchResult]:
    """Replay the tables' logs; return what standings read of each (``MatchResult``, not
    stored), each with the head it reflects. A log that no longer replays (an engine change
    the nightly audit reports) is logged and left without a result."""
    results: list[MatchResult] = []
    for start in range(0, len(table_ids), RESULT_BATCH):
        batch = list(table_ids[start : start + RESULT_BATCH])
        heads = dict(Table.objects.filter(pk__in=batch).values_list("pk", "head_seq"))
        rows: dict[uuid.UUID, list[Event]] = {pk: [] for pk in heads}
        # Only up to the head read: an append committed meanwhile is left for its own recompute.
        for event in Event.objects.filter(table_id__in=heads).order_by("table_id", "seq"):
            if event.seq <= heads[event.table_id]:
                rows[event.table_id].append(event)
        seats: dict[uuid.UUID, list[int]] = {pk: [] for pk in heads}
        for table_id, player_id in (
            Seat.objects.filter(table_id__in=heads)
            .order_by("table_id", "position")
            .values_list("table_id", "player_id")
        ):
            seats[table_id].append(player_id)
        for table_id, events in rows.items():
            if not events:
                continue  # a log emptied: the audit reports it
            # Who sat where as the log says it (a seat changed since is the audit's finding,
            # never a result moved to another player); the seats of older tables' logs.
            logged = seating_players(events[0].payload) if events[0].seq == 1 else None
            if logged is not None and None in logged:
                logged = None
            try:
                summary, finished_at = _match_read(table_id, events, logged or seats[table_id])
            except RuleViolation as exc:
                logger.error("table %s no longer replays: %s: %s", table_id, exc.rule, exc)
                continue
            results.append(
                MatchResult(
                    table_id=table_id,
                    seq=events[-1].seq,
                    head_hash=events[-1].hash,
                    finished_at=finished_at,
                    summary=summary,
                )
            )
    return results


def match_results_store(results: Sequence[MatchResult]) -> None:
    """Store results read from their logs over the ones kept."""
    MatchResult.objects.bulk_create(
        results,
        update_conflicts=True,
        unique_fields=["table"],
        update_fields=["seq", "head_hash", "finished_at", "summary", "updated_at"],
    )


def match_results_refresh(table_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, MatchResult]:
    """Replay the tables' logs and store what standings read of each (``MatchResult``)."""
    fresh = match_results_read(table_ids)
    for start in range(0, len(fresh), RESULT_BATCH):
        match_results_store(fresh[start : start + RESULT_BATCH])
    return {result.table_id: result for result in fresh}


def book_results_refresh(table_ids: Sequence[uuid.UUID | str]) -> dict[uuid.UUID, MatchResult]:
    """Store the results of book tables (a group's, a club's casual ones) as their logs say
    now: one log replayed and one row written a table, whatever the circle's history.

    The tables' rows are locked while their logs are read, as an append locks them, so a
    refresh that started before a later correction waits for it and reads it: two refreshes
    of one table write in the order of its log, and a repeated one writes the same row.
    """
    with transaction.atomic():
        locked = list(
            Table.objects.select_for_update()
            .filter(pk__in=list(table_ids))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        return match_results_refresh(locked)


def book_results_rebuild() -> int:
    """Read every book table's log again and store its result afresh; return how many.

    The results of league tables are the league recompute's (``recompute_standings``).
    """
    ids = list(selectors.book_tables().order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), RESULT_BATCH):
        book_results_refresh(ids[start : start + RESULT_BATCH])
    return len(ids)


def _season_ratings(history: RatingHistory, start: int, end: int) -> dict[str, Any]:
    """Return each player's rating at the end of a season (matches ``start``..``end``-1 of
    the league, in rating order) and their points in it."""
    ratings = {}
    for entry in history.players:
        before = [point for point in entry.history if point.index < end]
        if not before:
            continue
        ratings[str(entry.player)] = {
            **before[-1].rating.to_dict(),
            "history": [point.to_dict() for point in before if point.index >= start],
        }
    return ratings


def league_heads(league: League) -> dict[uuid.UUID, tuple[int, int, str]]:
    """Return each counted table of the league: its season, head seq and head hash."""
    return {
        pk: (season_id, seq, head_hash)
        for pk, season_id, seq, head_hash in Table.objects.filter(
            season__league=league, practice=False
        ).values_list("pk", "season_id", "head_seq", "head_hash")
    }


def _finished_by_season(
    league: League, seasons: list[Season], *, fresh: bool
) -> dict[int, list[MatchResult]]:
    """Return each season's finished matches (by season id), their results brought up to
    their tables' heads first; ``fresh`` reads every log again."""
    heads = league_heads(league)
    results = {} if fresh else MatchResult.objects.in_bulk(list(heads))
    stale = [
        pk
        for pk, (_, seq, head_hash) in heads.items()
        if pk not in results or (results[pk].seq, results[pk].head_hash) != (seq, head_hash)
    ]
    results.update(match_results_refresh(stale))
    return finished_by_season(heads, results, seasons)


def finished_by_season(
    heads: dict[uuid.UUID, tuple[int, int, str]],
    results: dict[uuid.UUID, MatchResult],
    seasons: list[Season],
) -> dict[int, list[MatchResult]]:
    """Sort the finished matches of a league's tables (``league_heads``) by season."""
    finished: dict[int, list[MatchResult]] = {season.pk: [] for season in seasons}
    for pk, (season_id, _, _) in heads.items():
        result = results.get(pk)
        if result is not None and result.summary is not None:
            finished[season_id].append(result)
    return finished


def seasons_computed(
    league: League, seasons: list[Season], finished: dict[int, list[MatchResult]]
) -> dict[int, dict[str, Any]]:
    """Compute the standings of every season of a league from its finished matches: by
    season id, the fields of its ``SeasonStandings`` but the time.

    Ratings run on across the league's seasons (by start date), each season's matches in
    the order they finished (then table id), so a season's change moves the ratings of the
    seasons after it."""
    ordered: list[MatchSummary] = []
    spans: dict[int, tuple[int, int]] = {}
    for season in seasons:
        matches = sorted(finished[season.pk], key=lambda r: (r.finished_at, str(r.table_id)))
        spans[season.pk] = (len(ordered), len(ordered) + len(matches))
        ordered += [MatchSummary.from_record(result.summary) for result in matches]
    history = ratings_over(ordered)
    computed = {}
    for season in seasons:
        start, end = spans[season.pk]
        ratings = _season_ratings(history, start, end)
        conservative = {int(player): rating["conservative"] for player, rating in ratings.items()}
        rows = standings(ordered[start:end], league.tiebreakers, conservative)
        computed[season.pk] = {
            "rows": [row.to_dict() for row in rows],
            "ratings": ratings,
            "reflects": {str(r.table_id): r.seq for r in finished[season.pk]},
            "matches": end - start,
        }
    return computed


@transaction.atomic
def league_standings_recompute(
    *, league_id: int, from_season_id: int | None = None, fresh: bool = False
) -> list[SeasonStandings]:
    """Recompute the standings of a league's seasons from ``from_season_id`` on (all when
    None); ``fresh`` reads every log again instead of the results still at their head.

    A season's change moves the ratings of the seasons after it, which are recomputed with
    it. The league row is locked: recomputes of one league run one at a time, each reading
    what the one before it committed. Running it twice changes nothing but ``computed_at``.
    """
    league = League.objects.select_for_update().get(pk=league_id)
    seasons = list(league.seasons.order_by("starts_on", "pk"))
    computed = seasons_computed(league, seasons, _finished_by_season(league, seasons, fresh=fresh))
    start_at = 0
    if from_season_id is not None:
        start_at = next(i for i, season in enumerate(seasons) if season.pk == from_season_id)
    return [season_standings_store(season, computed[season.pk]) for season in seasons[start_at:]]


def season_standings_store(season: Season, fields: dict[str, Any]) -> SeasonStandings:
    """Store a season's standings as computed (``seasons_computed``), computed now."""
    standing, _ = SeasonStandings.objects.update_or_create(
        season=season, defaults={**fields, "computed_at": timezone.now()}
    )
    return standing


def season_standings_recompute(*, season_id: int) -> list[SeasonStandings]:
    """Recompute a season's standings, and the later seasons of its league (ratings)."""
    league_id = Season.objects.values_list("league_id", flat=True).get(pk=season_id)
    return league_standings_recompute(league_id=league_id, from_season_id=season_id)


def standings_recompute_all(*, job_id: int) -> RecomputeJob:
    """Read every league table's log again and rebuild every season's standings.

    Progress is committed batch by batch so the page can poll it; a redelivered job starts
    again from the first table, which changes nothing already right.
    """
    job = RecomputeJob.objects.get(pk=job_id)
    if job.status == RecomputeJob.Status.DONE:
        return job
    ids = list(
        Table.objects.filter(season__isnull=False, practice=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    jobs = RecomputeJob.objects.filter(pk=job_id)
    jobs.update(status=RecomputeJob.Status.RUNNING, total=len(ids), done=0, seasons=0, error="")
    for start in range(0, len(ids), RESULT_BATCH):
        batch = ids[start : start + RESULT_BATCH]
        with transaction.atomic():
            match_results_refresh(batch)
        jobs.update(done=start + len(batch))
    seasons = 0
    for league_id in (
        League.objects.filter(seasons__isnull=False).distinct().values_list("pk", flat=True)
    ):
        seasons += len(league_standings_recompute(league_id=league_id))
        jobs.update(seasons=seasons)
    jobs.update(status=RecomputeJob.Status.DONE, finished_at=timezone.now())
    return RecomputeJob.objects.get(pk=job_id)
