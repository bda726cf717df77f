"""Derived tables checked against the logs: season standings and match results.

The runtime role may UPDATE every table but the log and the checkpoints, so whoever holds
its connection can rewrite a season's standings or a match's result, and the pages would
serve them as up to date (``up_to_date`` compares only which heads they reflect). So
``verify_tables`` and the nightly audit compute them again from the logs and compare: a
difference is reported (which season or table, which player, stored and recomputed), and
the audit stores the recompute over it. Seasons and results behind their tables' logs are
not compared: a recompute is on its way (the audit queues it again).
"""

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from games.clubs.models import League, Player, Season
from games.shared.differences import capped, fields_differing
from games.standings import selectors, services
from games.standings.models import MatchResult, SeasonStandings


def _players(ids: Sequence[Any]) -> dict[int, str]:
    wanted = [int(pk) for pk in ids if str(pk).isdigit()]
    return dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name"))


def _as_stored(value: Any) -> Any:
    """Return a value as a JSON column gives it back (lists for tuples, text keys)."""
    return json.loads(json.dumps(value))


def _rows_differing(
    season: Season, stored: SeasonStandings | None, computed: dict[str, Any]
) -> list[str]:
    """Say how a season's stored standings differ from the recomputed, player by player."""
    label = f"season {season.pk} ({season.league.name}, {season.name}) standings"
    computed = _as_stored(computed)
    if stored is None:
        if not computed["rows"] and not computed["ratings"]:
            return []  # nothing finished yet: nothing stored is right
        return [f"{label}: no stored standings, recomputed {len(computed['rows'])} row(s)"]
    rows = {row.get("player"): row for row in stored.rows if isinstance(row, dict)}
    fresh = {row["player"]: row for row in computed["rows"]}
    rated = {int(p): v for p, v in stored.ratings.items() if str(p).isdigit()}
    names = _players(list(rows.keys() | fresh.keys()))
    found = []
    for player in sorted(rows.keys() | fresh.keys(), key=str):
        who = f"player {player} ({names.get(player, '?')})"
        if player not in rows or player not in fresh:
            where = "stored only" if player in rows else "recomputed only"
            found.append(f"{label}: {who} is in the {where}")
            continue
        for said in fields_differing(rows[player], fresh[player]):
            found.append(f"{label}: {who}: {said}")
    ratings = {int(p): v for p, v in computed["ratings"].items()}
    for player in sorted(rated.keys() | ratings.keys()):
        if rated.get(player) != ratings.get(player):
            found.append(f"{label}: rating of player {player} ({names.get(player, '?')}) differs")
    if [row.get("player") for row in stored.rows if isinstance(row, dict)] != list(fresh):
        found.append(f"{label}: the order of the rows differs")
    if stored.matches != computed["matches"]:
        found.append(f"{label}: matches stored {stored.matches}, recomputed {computed['matches']}")
    return capped(found, label)


def _results_differing(
    heads: Mapping[uuid.UUID, tuple[int, str]], fresh: Sequence[MatchResult]
) -> tuple[list[str], list[MatchResult]]:
    """Compare stored match results at their table's head with the ones read again; say
    which differ, and return those read again to store."""
    stored = MatchResult.objects.in_bulk([result.table_id for result in fresh])
    found, wrong = [], []
    for result in fresh:
        kept = stored.get(result.table_id)
        if kept is None or (kept.seq, kept.head_hash) != heads.get(result.table_id):
            continue  # behind its log: its refresh is queued
        said = [
            f"{field} differs"
            for field, value in (
                ("summary", _as_stored(result.summary)),
                ("finished_at", result.finished_at),
            )
            if getattr(kept, field) != value
        ]
        if said:
            found.append(f"match result of table {result.table_id}: {', '.join(said)}")
            wrong.append(result)
    return found, wrong


@transaction.atomic
def _league_differences(league_id: int, *, behind: set[int], repair: bool) -> list[str]:
    """Recompute a league's results and standings from its logs, under the league's lock as
    a recompute takes it; say what the stored ones get wrong, and store the recompute over
    them when ``repair``."""
    league = League.objects.select_for_update().get(pk=league_id)
    seasons = list(league.seasons.select_related("league").order_by("starts_on", "pk"))
    heads = services.league_heads(league)
    fresh = services.match_results_read(list(heads))
    found, wrong = _results_differing(
        {pk: (seq, head) for pk, (_season, seq, head) in heads.items()}, fresh
    )
    finished = services.finished_by_season(
        heads, {result.table_id: result for result in fresh}, seasons
    )
    computed = services.seasons_computed(league, seasons, finished)
    stored = SeasonStandings.objects.in_bulk([season.pk for season in seasons])
    differing = []
    for season in seasons:
        if season.pk in behind:
            continue
        said = _rows_differing(season, stored.get(season.pk), computed[season.pk])
        if said:
            found += said
            differing.append(season)
    if repair:
        services.match_results_store(wrong)
        for season in differing:
            services.season_standings_store(season, computed[season.pk])
    return found


def _book_differences(*, repair: bool) -> list[str]:
    """Read the book tables' logs again; say which stored results differ, and store the
    reads over them when ``repair``."""
    heads = {
        pk: (seq, head)
        for pk, seq, head in selectors.book_tables().values_list("pk", "head_seq", "head_hash")
    }
    found: list[str] = []
    ids = list(heads)
    for start in range(0, len(ids), services.RESULT_BATCH):
        said, wrong = _results_differing(
            heads, services.match_results_read(ids[start : start + services.RESULT_BATCH])
        )
        found += said
        if repair:
            services.match_results_store(wrong)
    return found


def derived_differences(*, repair: bool = False) -> list[str]:
    """Compare every league's standings and results, and every book table's result, with
    the logs read again; return one sentence per difference (the audit repairs them)."""
    behind = set(selectors.seasons_behind())
    found: list[str] = []
    leagues = League.objects.filter(seasons__isnull=False).distinct().order_by("pk")
    for league_id in leagues.values_list("pk", flat=True):
        found += _league_differences(league_id, behind=behind, repair=repair)
    return found + _book_differences(repair=repair)
