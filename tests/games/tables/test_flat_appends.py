"""An append writes what is new (its event, the head), never the whole state: the
projection's row is rewritten only every ``audit.PROJECTION_EVERY`` events or when the match
is over, and what every reader gets stays equal to a replay of the log, through appends,
amendments and voids; on the embedded defaults and on PostgreSQL with a real worker."""

import contextlib
import functools
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.logs import log_build
from games.models import TableProjection
from games.tables import audit, selectors, snapshots
from games.tables import services as table_services
from games.tables.log import engine_events
from scoring.events import HAND_AMENDED, HAND_VOIDED
from scoring.replay import replay
from tests.games.tables.archive_logs import table_stored
from tests.games.workers import wait_for, worker_stop

# Hands entered whole, with a void or an amendment every few events.
MIX = (("hand_recorded", 6), ("hand_voided", 1), ("hand_amended", 1))
STORED, APPENDED = 40, audit.PROJECTION_EVERY + 30


@functools.cache
def _log():
    events = log_build("knock_rummy", STORED + APPENDED, seats=3, seed=22, mix=MIX).events
    assert len(events) == STORED + APPENDED
    appended = {e.event_type for e in events[STORED:]}
    assert {HAND_VOIDED, HAND_AMENDED} <= appended
    return events


def _append_rest(table, events, committed=contextlib.nullcontext) -> None:
    """Append ``events`` at the head, each in its own transaction; ``committed`` runs what
    each queues on commit (a test in one transaction that never commits passes
    django_capture_on_commit_callbacks)."""
    for event in events:
        table.refresh_from_db()
        with committed():
            table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=table.head_seq,
                event_type=event.event_type,
                payload=dict(event.payload),
            )


def _replayed(table, upto: int | None = None) -> dict:
    events = table.events.order_by("seq")
    if upto is not None:
        events = events.filter(seq__lte=upto)
    return replay(engine_events(events)).to_dict()


def _readers_agree(table) -> None:
    """What each reader gets equals a replay of the log: the state this process keeps, then
    (as another process finds it) the row or the shared snapshot, then neither."""
    table.refresh_from_db()
    expected = _replayed(table)
    assert selectors.table_state(table=table) == expected
    snapshots.forget_here()
    assert selectors.table_state(table=table) == expected
    snapshots.forget_here()
    cache.clear()
    assert selectors.table_state(table=table) == expected
    projection = TableProjection.objects.get(table=table)
    # Behind the head by less than PROJECTION_EVERY, and the log's state where it stands.
    assert 0 <= table.head_seq - projection.seq < audit.PROJECTION_EVERY
    assert projection.state == _replayed(table, projection.seq)
    assert projection.verified_seq == table.head_seq


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what a transaction queues on commit, as its commit would (eager Celery)."""
    return functools.partial(django_capture_on_commit_callbacks, execute=True)


def _stored(events, committed=contextlib.nullcontext):
    with committed():
        return table_stored(events)


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
class TestEmbedded:
    def test_readers_get_the_replay_through_appends_amendments_and_voids(self, committed):
        events = _log()
        table = _stored(events[:STORED], committed)
        for start in range(STORED, STORED + APPENDED, 10):
            _append_rest(table, events[start : start + 10], committed)
            _readers_agree(table)
        # The projection's row was rewritten on the way, not only made at the start.
        assert TableProjection.objects.get(table=table).seq > STORED

    def test_the_nightly_audit_brings_the_row_to_the_head(self, committed):
        events = _log()
        table = _stored(events[:STORED], committed)
        _append_rest(table, events[STORED : STORED + 5], committed)
        table.refresh_from_db()
        assert TableProjection.objects.get(table=table).seq < table.head_seq
        result = audit.table_verify(table_id=table.id, whole=True)
        assert result.ok
        projection = TableProjection.objects.get(table=table)
        assert projection.seq == table.head_seq and projection.state == _replayed(table)

    def test_a_finished_match_leaves_its_row_at_the_head(self, committed):
        # Knock Rummy to 100: the first hands end the match.
        events = log_build("knock_rummy", 60, seats=2, seed=3, options={"target": 100}).events
        assert replay(events).closed
        table = _stored(events[:2], committed)
        _append_rest(table, events[2:], committed)
        table.refresh_from_db()
        projection = TableProjection.objects.get(table=table)
        assert projection.seq == table.head_seq and projection.state == _replayed(table)

    def test_an_append_writes_as_much_at_a_long_log_as_at_a_short_one(self, committed):
        """The SQL an append sends (its event, the head, the check's reads and the verified
        mark), with its parameters, is the same size at 40 events as at 130."""
        events = _log()
        sent = {}
        for length in (STORED, STORED + APPENDED - 1):
            table = _stored(events[:length], committed)
            # As after earlier appends: the head's state kept here, the row and the check at
            # the head.
            table_services.projection_rebuild(table_id=table.id)
            audit.table_verify(table_id=table.id, whole=True)
            with CaptureQueriesContext(connection) as queries:
                _append_rest(table, events[length : length + 1], committed)
            statements = [q["sql"] for q in queries.captured_queries]
            assert not [s for s in statements if "games_tableprojection" in s and '"state"' in s]
            sent[length] = sum(map(len, statements))
        short, long = sent.values()
        # The event's own payload differs from one hand to the next: a few hundred bytes.
        assert abs(long - short) < 600, sent


@pytest.mark.postgres
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
class TestWorker:
    def test_readers_get_the_replay_once_the_worker_has_checked(self, worker_process):
        events = _log()
        table = _stored(events[:STORED])
        for start in range(STORED, STORED + APPENDED, 26):
            _append_rest(table, events[start : start + 26])
            table.refresh_from_db()
            if not wait_for(
                lambda: TableProjection.objects.filter(
                    table=table, verified_seq=table.head_seq
                ).exists(),
                timeout=60,
            ):
                pytest.fail("the worker never verified the table:\n" + worker_stop(worker_process))
            _readers_agree(table)
        assert TableProjection.objects.get(table=table).seq > STORED
