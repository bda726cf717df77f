"""The nightly audit: every table's log replayed, its hash chain checked, failures reported."""

import uuid

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from games.models import Event, Table, TableProjection
from games.tables import audit
from games.tables.log import event_row
from games.tables.tasks import tables_audit
from rummyref.celery import app
from tests.factories import TableFactory
from tests.payloads import quick


def _smuggle(table: Table, event_type: str, payload: dict) -> Event:
    """Store an event the way a bug or an old engine could have: chained, but never replayed."""
    table.refresh_from_db()
    event = event_row(
        table=table,
        seq=table.head_seq + 1,
        prev_hash=table.head_hash,
        event_id=uuid.uuid4(),
        event_type=event_type,
        payload=payload,
        entered_by="",
        created_at=timezone.now(),
    )
    event.save()
    Table.objects.filter(pk=table.pk).update(head_seq=event.seq, head_hash=event.hash)
    return event


@pytest.mark.django_db
class TestTablesAudit:
    def test_healthy_tables_pass_and_a_second_run_changes_nothing(self, append):
        tables = [TableFactory(), TableFactory(players=("Carla", "Dario"))]
        append(tables[0], "hand_recorded", quick(0, "knock", 5, 20))
        first = audit.tables_audit()
        cached = list(TableProjection.objects.order_by("pk").values("state", "verified_seq"))
        second = audit.tables_audit()
        assert first == second == {"checked": 2, "failures": []}
        assert list(TableProjection.objects.order_by("pk").values("state", "verified_seq")) == (
            cached
        )

    def test_a_log_that_no_longer_replays_is_reported_with_its_seq_and_rule(self, append, settings):
        settings.ADMINS = [("Ops", "ops@example.org")]
        good, bad = TableFactory(), TableFactory(players=("Carla", "Dario"))
        append(bad, "hand_recorded", quick(0, "knock", 5, 20))
        # A knock on 14 breaks GIN-KNOCK: the replay stops at this event (seq 3).
        _smuggle(bad, "hand_recorded", quick(1, "knock", 14, 20))
        report = tables_audit.apply().get()
        assert report["checked"] == 2
        [failure] = report["failures"]
        assert failure["table"] == str(bad.id)
        assert failure["replay_failed_at"] == 3
        assert failure["replay_error"].startswith("GIN-KNOCK")
        assert failure["chain_ok"] is True
        assert str(good.id) not in str(report)
        assert len(mail.outbox) == 1 and str(bad.id) in mail.outbox[0].body
        with pytest.raises(CommandError):
            call_command("verify_tables")

    def test_a_broken_hash_chain_is_reported(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 5, 20))
        event = table.events.get(seq=2)
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # The append-only trigger stops every UPDATE; only a superuser can step round it.
                cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute(
                "UPDATE games_event SET entered_by = %s WHERE id = %s", ["tampered", event.pk]
            )
        [failure] = audit.tables_audit()["failures"]
        assert failure["table"] == str(table.id) and failure["chain_ok"] is False

    def test_celery_beat_runs_the_audit_every_night(self):
        entry = app.conf.beat_schedule["nightly-tables-audit"]
        assert entry["task"] == tables_audit.name == "games.tasks.tables_audit"
        assert tables_audit.name in app.tasks
        assert entry["schedule"].hour == {3} and entry["schedule"].minute == {30}
