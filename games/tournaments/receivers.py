"""How a night's standings and screens follow its tables: receivers of the tables part's
signals, connected in GamesConfig.ready(), so the tables part never imports tournaments."""

from typing import Any

from games.shared.task_outbox import send_on_commit
from games.tables.signals import table_head_moved, table_settled_changed, tables_audited
from games.tournaments import push
from games.tournaments.audit import night_differences
from games.tournaments.models import RoundTable
from games.tournaments.tasks import night_standings_refresh


def table_settled_changed_received(sender, *, table, **kwargs) -> None:
    """Refresh the night's standings on commit when one of its tables' results moved."""
    tournament_id = (
        RoundTable.objects.filter(table=table).values_list("round__tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return
    send_on_commit(night_standings_refresh, tournament_id)


def table_head_moved_received(sender, *, table, **kwargs) -> None:
    """Push the version of the night the table plays in (if any) to its screens on commit."""
    push.table_night_push_on_commit(table.id)


def tables_audited_received(sender, *, report, **kwargs) -> dict[str, Any]:
    """Compare the nights' kept standings with the logs read again, keep the recompute where
    they differ and say where (the audit mails it)."""
    return {"findings": night_differences(repair=True)}


def connect() -> None:
    table_head_moved.connect(table_head_moved_received, dispatch_uid="tournaments.head_moved")
    table_settled_changed.connect(
        table_settled_changed_received, dispatch_uid="tournaments.table_settled_changed"
    )
    tables_audited.connect(tables_audited_received, dispatch_uid="tournaments.tables_audited")
