"""Appends fold their one event into the state kept at the head, and the verify task checks
only what is new since its own snapshot; a snapshot that is missing or not at the asked
(seq, hash) is never used: the log is replayed instead."""

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, TableProjection
from games.tables import audit, snapshots
from games.tables.log import engine_events
from scoring.replay import replay
from tests.factories import TableFactory
from tests.payloads import quick

pytestmark = pytest.mark.django_db


def _log_reads(queries) -> list[str]:
    """Return the queries that read a table's whole log (every event, in order, not only
    those from some seq on)."""
    return [
        q["sql"]
        for q in queries
        if 'FROM "games_event"' in q["sql"]
        and 'ORDER BY "games_event"."seq"' in q["sql"]
        and '"games_event"."seq" >=' not in q["sql"]
    ]


def _full_replay(table) -> dict:
    return replay(engine_events(table.events.order_by("seq"))).to_dict()


class TestHeadSnapshot:
    def test_an_append_keeps_the_state_at_its_new_head(self, gin_table_with_two_hands):
        kept = snapshots.read(
            "head",
            gin_table_with_two_hands.id,
            seq=gin_table_with_two_hands.head_seq,
            hash=gin_table_with_two_hands.head_hash,
        )
        assert kept is not None
        assert kept.totals == (15, 55)
        assert kept.to_dict() == _full_replay(gin_table_with_two_hands)

    def test_an_append_at_a_kept_head_does_not_read_the_log(self, gin_table_with_two_hands, append):
        with CaptureQueriesContext(connection) as queries:
            result = append(
                gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12)
            )  # Anna +10
        assert _log_reads(queries.captured_queries) == []
        assert result.state["totals"] == [25, 55]

    def test_a_snapshot_of_another_log_is_not_used(self, gin_table_with_two_hands, append):
        # A snapshot folded up to this seq but another hash (a log that is not this one)
        # holds other totals: the append replays the real log instead.
        other = TableFactory()
        append(other, "hand_recorded", quick(1, "knock", 0, 40))
        other.refresh_from_db()
        wrong = snapshots.read("head", other.id, seq=other.head_seq, hash=other.head_hash)
        snapshots.keep(
            "head",
            gin_table_with_two_hands.id,
            seq=gin_table_with_two_hands.head_seq,
            hash="0" * 64,
            state=wrong,
        )
        with CaptureQueriesContext(connection) as queries:
            result = append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        assert len(_log_reads(queries.captured_queries)) == 1
        assert result.state["totals"] == [25, 55]

    def test_a_lost_snapshot_is_rebuilt_from_the_log(self, gin_table_with_two_hands, append):
        cache.clear()
        snapshots.forget_here()  # as after a restart
        result = append(
            gin_table_with_two_hands, "hand_recorded", quick(1, "knock", 3, 9)
        )  # Bruno +6
        assert result.state["totals"] == [15, 61]
        gin_table_with_two_hands.refresh_from_db()
        kept = snapshots.read(
            "head",
            gin_table_with_two_hands.id,
            seq=gin_table_with_two_hands.head_seq,
            hash=gin_table_with_two_hands.head_hash,
        )
        assert kept.to_dict() == _full_replay(gin_table_with_two_hands)

    def test_another_process_folds_the_events_since_the_shared_snapshot(
        self, gin_table_with_two_hands, append
    ):
        # The shared copy is written every SHARE_EVERY events: the one from the table's
        # first append (seq 1) is behind the head. A process that never saw this table
        # (a restart) folds in the two hands since it instead of replaying the log.
        snapshots.forget_here()
        assert snapshots.latest("head", gin_table_with_two_hands.id).seq == 1
        with CaptureQueriesContext(connection) as queries:
            result = append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        assert _log_reads(queries.captured_queries) == []
        assert result.state["totals"] == [25, 55]
        gin_table_with_two_hands.refresh_from_db()
        assert snapshots.read(
            "head", gin_table_with_two_hands.id, seq=4, hash=gin_table_with_two_hands.head_hash
        ).to_dict() == (_full_replay(gin_table_with_two_hands))


class TestVerifySinceTheLastCheck:
    def test_a_check_after_an_append_reads_only_the_new_events(
        self, gin_table_with_two_hands, append
    ):
        assert audit.table_verify(table_id=gin_table_with_two_hands.id).ok
        append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        with CaptureQueriesContext(connection) as queries:
            result = audit.table_verify(table_id=gin_table_with_two_hands.id)
        assert result.ok and result.seq == 4
        assert _log_reads(queries.captured_queries) == [], "the whole log was read"
        assert TableProjection.objects.get(table=gin_table_with_two_hands).verified_seq == 4

    def test_a_broken_new_link_is_reported(self, gin_table_with_two_hands, append):
        assert audit.table_verify(table_id=gin_table_with_two_hands.id).ok
        append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        _rewrite_payload(gin_table_with_two_hands, seq=4, payload=quick(0, "knock", 2, 92))
        result = audit.table_verify(table_id=gin_table_with_two_hands.id)
        assert not result.chain_ok
        assert TableProjection.objects.get(table=gin_table_with_two_hands).verified_seq == 3

    def test_a_wrong_cached_state_is_found_and_repaired(self, gin_table_with_two_hands, append):
        assert audit.table_verify(table_id=gin_table_with_two_hands.id).ok
        append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        # A row claiming the head with other totals (the append leaves the row behind; only
        # a row at the head that differs from the log is wrong).
        projection = TableProjection.objects.get(table=gin_table_with_two_hands)
        projection.seq, projection.state = 4, {**projection.state, "totals": [0, 0]}
        projection.save()
        result = audit.table_verify(table_id=gin_table_with_two_hands.id)
        assert result.chain_ok and not result.projection_ok
        assert TableProjection.objects.get(table=gin_table_with_two_hands).state["totals"] == [
            25,
            55,
        ]

    def test_with_no_snapshot_the_whole_log_is_checked(self, gin_table_with_two_hands):
        assert audit.table_verify(table_id=gin_table_with_two_hands.id).ok
        cache.clear()
        snapshots.forget_here()
        with CaptureQueriesContext(connection) as queries:
            assert audit.table_verify(table_id=gin_table_with_two_hands.id).ok
        assert len(_log_reads(queries.captured_queries)) == 1


def _rewrite_payload(table, *, seq: int, payload: dict) -> None:
    """Change one stored payload, as someone with the database could (hashes left alone)."""
    event = Event.objects.get(table=table, seq=seq)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), event.pk]
        )


class TestReadersWithoutALock:
    def test_a_table_read_before_another_append_gets_the_state_at_its_head(
        self, gin_table_with_two_hands, append
    ):
        # A page read the table at seq 3; before it asked for the state, another phone
        # appended seq 4. The state it gets, and the one kept under seq 3, are at seq 3.
        stale = type(gin_table_with_two_hands).objects.get(pk=gin_table_with_two_hands.pk)
        append(gin_table_with_two_hands, "hand_recorded", quick(0, "knock", 2, 12))
        snapshots.forget_here()
        cache.clear()
        state = snapshots.head_state(stale)
        assert state.head_seq == 3 and state.totals == (15, 55)
        kept = snapshots.read("head", gin_table_with_two_hands.id, seq=3, hash=stale.head_hash)
        assert kept.head_seq == 3
        # Folding on from it to the real head works (it would not, were it past seq 3).
        gin_table_with_two_hands.refresh_from_db()
        assert snapshots.head_state(gin_table_with_two_hands).totals == (25, 55)
