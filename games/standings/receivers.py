"""How standings follow the tables' logs: receivers of the tables part's signals, connected
in GamesConfig.ready(), so the tables part never imports standings."""

from typing import Any

from games.standings import selectors
from games.standings.queue import season_recompute_queue
from games.standings.tasks import season_standings_recompute
from games.tables.signals import league_match_changed, tables_audited


def league_match_changed_received(sender, *, table, **kwargs) -> None:
    """Queue the season's recompute on commit: a league match ended or was corrected."""
    season_recompute_queue(table.season_id)


def tables_audited_received(sender, *, report, **kwargs) -> dict[str, Any]:
    """Queue again the seasons whose standings do not reflect their tables' logs (a
    recompute lost or failed); say which in the audit's report."""
    behind = selectors.seasons_behind()
    for season_id in behind:
        season_standings_recompute.delay(season_id)
    return {"standings_queued": behind}


def connect() -> None:
    league_match_changed.connect(
        league_match_changed_received, dispatch_uid="standings.league_match_changed"
    )
    tables_audited.connect(tables_audited_received, dispatch_uid="standings.tables_audited")
