"""The event store under real concurrency, constraints and triggers: PostgreSQL only."""

import threading
import uuid

import pytest
from django.db import connection, connections, transaction
from django.db.utils import InternalError, ProgrammingError

from games.models import Event
from games.tables import audit
from games.tables import services as table_services
from games.tables.log import chain_broken_at
from tests.factories import TableFactory
from tests.payloads import quick

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_threads(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads released together; return results or exceptions."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # each thread's outcome is the test's data
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


class TestConcurrentAppends:
    def test_twenty_phones_on_the_same_head_one_wins_the_rest_get_409(self, db):
        table = TableFactory()

        def record(i):
            return table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=1,
                event_type="hand_recorded",
                payload=quick(i % 2, "knock", i % 10 + 1, 40),
            )

        results = _in_threads(20, record)
        stored = [r for r in results if isinstance(r, table_services.AppendResult)]
        conflicts = [r for r in results if isinstance(r, table_services.AppendConflict)]
        assert len(stored) == 1 and len(conflicts) == 19, results
        assert all(c.head_seq == 2 for c in conflicts)
        assert Event.objects.filter(table=table).count() == 2

    def test_the_same_event_sent_five_times_at_once_is_stored_once(self, db):
        table = TableFactory()
        event_id = uuid.uuid4()

        def send(_):
            return table_services.event_append(
                table_id=table.id,
                event_id=event_id,
                expected_seq=1,
                event_type="hand_recorded",
                payload=quick(0, "knock", 7, 20),
            )

        results = _in_threads(5, send)
        assert all(isinstance(r, table_services.AppendResult) for r in results), results
        assert sum(r.created for r in results) == 1
        assert len({r.event.pk for r in results}) == 1
        assert Event.objects.filter(event_id=event_id).count() == 1


class TestTrigger:
    def test_raw_sql_cannot_update_an_event(self, db):
        table = TableFactory()
        with (
            pytest.raises((InternalError, ProgrammingError)) as caught,
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("UPDATE games_event SET type = 'forged' WHERE table_id = %s", [table.id])
        assert "append-only" in str(caught.value)
        assert table.events.get().type == "table_created"

    def test_raw_sql_cannot_delete_an_event(self, db):
        table = TableFactory()
        with (
            pytest.raises((InternalError, ProgrammingError)) as caught,
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("DELETE FROM games_event WHERE table_id = %s", [table.id])
        assert "append-only" in str(caught.value)
        assert table.events.count() == 1

    def test_a_duplicate_seq_is_refused_by_the_database(self, db):
        from django.db import IntegrityError

        table = TableFactory()
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO games_event (table_id, seq, event_id, type, payload, "
                "schema_version, entered_by, created_at, prev_hash, hash) "
                "VALUES (%s, 1, %s, 'x', '{}', 1, '', now(), '', 'h')",
                [table.id, uuid.uuid4()],
            )


class TestChainOnPostgres:
    def test_the_hash_chain_verifies_after_a_round_trip_through_postgres(self, db):
        table = TableFactory()
        for i in range(5):
            table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=i + 1,
                event_type="hand_recorded",
                payload=quick(i % 2, "knock", 3, 9),
            )
        events = list(Event.objects.filter(table=table).order_by("seq"))
        assert chain_broken_at(events) is None
        assert audit.table_verify(table_id=table.id).ok
