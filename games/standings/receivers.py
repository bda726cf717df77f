"""How standings follow the tables' logs: receivers of the tables part's signals, connected
in GamesConfig.ready(), so the tables part never imports standings."""

from typing import Any

from games.standings import selectors
from games.standings.audit import derived_differences
from games.standings.queue import book_refresh_queue, season_recompute_queue
from games.standings.tasks import book_results_refresh, season_standings_recompute
from games.tables.signals import league_match_changed, table_settled_changed, tables_audited

BOOK_BATCH = 100


def league_match_changed_received(sender, *, table, **kwargs) -> None:
    """Queue the season's recompute on commit: a league match ended or was corrected."""
    season_recompute_queue(table.season_id)


def table_settled_changed_received(sender, *, table, **kwargs) -> None:
    """Queue the refresh of a book table's result on commit: its match ended, was decided,
    confirmed or corrected. League tables are the league recompute's."""
    if selectors.is_book_table(table):
        book_refresh_queue(table.pk)


def tables_audited_received(sender, *, report, **kwargs) -> dict[str, Any]:
    """Queue again the seasons whose standings do not reflect their tables' logs (a
    recompute lost or failed); say which in the audit's report."""
    behind = selectors.seasons_behind()
    for season_id in behind:
        season_standings_recompute.delay(season_id)
    return {"standings_queued": behind}


def tables_audited_book_received(sender, *, report, **kwargs) -> dict[str, Any]:
    """Queue again the book tables whose result does not reflect their log."""
    behind = [str(pk) for pk in selectors.book_tables_behind()]
    # In batches, as a rebuild reads them: one task locks its tables while it reads them.
    for start in range(0, len(behind), BOOK_BATCH):
        book_results_refresh.delay(behind[start : start + BOOK_BATCH])
    return {"book_queued": behind}


def tables_audited_derived_received(sender, *, report, **kwargs) -> dict[str, Any]:
    """Compare the standings and results with the logs read again, repair what differs and
    say what did (the task mails it)."""
    return {"findings": derived_differences(repair=True)}


def connect() -> None:
    league_match_changed.connect(
        league_match_changed_received, dispatch_uid="standings.league_match_changed"
    )
    tables_audited.connect(tables_audited_received, dispatch_uid="standings.tables_audited")
    table_settled_changed.connect(
        table_settled_changed_received, dispatch_uid="standings.table_settled_changed"
    )
    tables_audited.connect(
        tables_audited_book_received, dispatch_uid="standings.tables_audited_book"
    )
    tables_audited.connect(
        tables_audited_derived_received, dispatch_uid="standings.tables_audited_derived"
    )
