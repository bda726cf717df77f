"""The event store on any database: appending, idempotency, conflicts, refusals, corrections."""

import uuid

import pytest
from django.core.management import call_command

from games.models import Event, ImmutableEventError, TableProjection
from games.shared.errors import EventRejected
from games.tables import audit
from games.tables import selectors as table_selectors
from games.tables import services as table_services
from games.tables.log import chain_broken_at
from tests.factories import TableFactory
from tests.payloads import quick


class TestTableCreation:
    def test_a_new_table_starts_its_log_with_its_creation(self, db):
        table = TableFactory(options={"preset": "classic", "target": 50})
        events = list(table.events.all())
        assert [(e.seq, e.type) for e in events] == [(1, "table_created")]
        assert events[0].payload["seats"] == ["Anna", "Bruno"]
        assert events[0].payload["options"]["preset"] == "classic"
        assert table.head_seq == 1 and table.head_hash == events[0].hash
        assert table.target == 50 and table.preset == "classic"
        assert [s.player.name for s in table.seats.order_by("position")] == ["Anna", "Bruno"]

    def test_bad_settings_are_refused_and_nothing_is_stored(self, db):
        with pytest.raises(EventRejected) as caught:
            table_services.table_create(variant="gin", options={"target": 7}, players=["A", "B"])
        assert caught.value.violations[0].rule == "GIN-MATCH"
        assert not Event.objects.exists()

    def test_gin_is_for_two_players(self, db):
        with pytest.raises(EventRejected) as caught:
            table_services.table_create(variant="gin", options={}, players=["A", "B", "C"])
        assert caught.value.violations[0].rule == "GIN-SETUP"


class TestAppending:
    def test_a_hand_moves_the_head_and_the_totals(self, append):
        table = TableFactory()
        result = append(table, "hand_recorded", quick(0, "knock", 7, 20))
        assert result.created and result.event.seq == 2
        assert result.state["totals"] == [13, 0]
        table.refresh_from_db()
        assert table.head_seq == 2 and table.head_hash == result.event.hash
        # The projection's row is the worker's to write, after the commit (table_verify).
        assert not TableProjection.objects.filter(table=table, seq=2).exists()
        assert audit.table_verify(table_id=table.id).ok
        assert TableProjection.objects.get(table=table).state == result.state

    # A retry comes at the head its event was sent against, or, from an outbox that lost
    # the answer and learnt the head since, at the new head.
    @pytest.mark.parametrize("resent_at", [1, 2])
    def test_a_retry_with_the_same_event_id_returns_the_stored_event(self, append, resent_at):
        table = TableFactory()
        event_id = uuid.uuid4()
        first = append(table, "hand_recorded", quick(0, "knock", 7, 20), event_id=event_id)
        again = append(
            table,
            "hand_recorded",
            quick(0, "knock", 7, 20),
            event_id=event_id,
            expected_seq=resent_at,
        )
        assert not again.created and again.event.pk == first.event.pk
        assert table.events.count() == 2

    def test_reusing_an_event_id_for_another_event_is_refused(self, append):
        table = TableFactory()
        event_id = uuid.uuid4()
        append(table, "hand_recorded", quick(0, "knock", 7, 20), event_id=event_id)
        with pytest.raises(EventRejected) as caught:
            append(table, "hand_recorded", quick(1, "knock", 2, 20), event_id=event_id)
        assert caught.value.violations[0].code == "event_id_reused"

    def test_a_stale_expected_seq_is_a_conflict_carrying_the_head(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        with pytest.raises(table_services.AppendConflict) as caught:
            append(table, "hand_recorded", quick(1, "gin", 0, 10), expected_seq=1)
        assert caught.value.head_seq == 2
        assert caught.value.state["totals"] == [13, 0]
        assert table.events.count() == 2

    def test_a_rule_violation_is_refused_with_its_rule_and_nothing_is_stored(self, append):
        table = TableFactory()
        with pytest.raises(EventRejected) as caught:
            append(table, "hand_recorded", quick(0, "knock", 14, 20))
        assert caught.value.violations[0].rule == "GIN-KNOCK"
        table.refresh_from_db()
        assert table.head_seq == 1 and table.events.count() == 1

    def test_a_client_cannot_append_a_second_creation(self, append):
        table = TableFactory()
        with pytest.raises(EventRejected) as caught:
            append(table, "table_created", {"variant": "gin", "seats": ["X", "Y"]})
        assert caught.value.violations[0].code == "unknown_type"

    def test_no_hand_is_recorded_after_the_match_is_won(self, append):
        table = TableFactory(options={"target": 100})
        append(table, "hand_recorded", quick(0, "big_gin", 0, 70))  # 31 + 70 = 101
        table.refresh_from_db()
        assert table.status == "finished"
        with pytest.raises(EventRejected) as caught:
            append(table, "hand_recorded", quick(1, "knock", 2, 20))
        assert caught.value.violations[0].rule == "GIN-MATCH"


class TestCorrections:
    def test_a_voided_hand_stops_counting_but_stays_in_the_history(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        append(table, "hand_recorded", quick(1, "knock", 3, 9))
        state = append(table, "hand_voided", {"hand": 1, "reason": "misdeal"}).state
        assert state["totals"] == [0, 6]
        assert state["hands"][0]["voided"] and state["hands"][0]["original"]["points"] == [13, 0]
        assert state["hands"][0]["corrections"][0]["reason"] == "misdeal"

    def test_an_amended_hand_counts_its_new_result_and_keeps_the_original(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        state = append(
            table, "hand_amended", {**quick(0, "knock", 5, 20), "hand": 1, "reason": "recount"}
        ).state
        assert state["totals"] == [15, 0]
        assert state["hands"][0]["amended"]
        assert state["hands"][0]["original"]["points"] == [13, 0]

    def test_a_void_that_ends_the_winners_lead_reopens_the_match(self, append):
        table = TableFactory(options={"target": 100})
        append(table, "hand_recorded", quick(0, "big_gin", 0, 70))
        state = append(table, "hand_voided", {"hand": 1}).state
        assert state["winner"] is None and not state["finished"]
        table.refresh_from_db()
        assert table.status == "open"

    def test_voiding_a_hand_that_does_not_exist_is_refused(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        with pytest.raises(EventRejected) as caught:
            append(table, "hand_voided", {"hand": 2})
        assert caught.value.violations[0].rule == "EVENT"

    def test_the_history_names_who_recorded_and_corrected(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20), entered_by="Anna's phone")
        append(table, "hand_voided", {"hand": 1}, entered_by="Bruno's phone")
        table.refresh_from_db()  # the state is the one at the head the table is read at
        state = table_selectors.table_state(table=table)
        [entry] = table_selectors.table_history(table=table, state=state)
        assert entry.recorded.entered_by == "Anna's phone"
        assert entry.corrections[0][1].entered_by == "Bruno's phone"


class TestImmutability:
    def test_the_orm_refuses_to_update_or_delete_events(self, db):
        table = TableFactory()
        event = table.events.get()
        event.payload = {"tampered": True}
        with pytest.raises(ImmutableEventError):
            event.save()
        with pytest.raises(ImmutableEventError):
            event.delete()
        with pytest.raises(ImmutableEventError):
            Event.objects.filter(table=table).update(type="x")
        with pytest.raises(ImmutableEventError):
            Event.objects.filter(table=table).delete()
        assert table.events.get().payload["seats"] == ["Anna", "Bruno"]


class TestHashChain:
    def test_the_chain_of_a_real_log_verifies(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        append(table, "hand_voided", {"hand": 1})
        events = list(table.events.order_by("seq"))
        assert chain_broken_at(events) is None
        assert events[1].prev_hash == events[0].hash

    def test_a_changed_payload_breaks_the_chain_at_that_event(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        append(table, "hand_recorded", quick(1, "knock", 3, 9))
        events = list(table.events.order_by("seq"))
        events[1].payload = quick(0, "knock", 1, 90)  # in memory only: never saved
        assert chain_broken_at(events) == 2


class TestProjection:
    def test_dropped_projections_rebuild_equal_to_the_cached_ones(self, append):
        tables = [
            TableFactory(),
            TableFactory(players=("Carla", "Dario"), options={"preset": "classic", "target": 50}),
        ]
        append(tables[0], "hand_recorded", quick(0, "knock", 7, 20))
        append(tables[0], "hand_amended", {**quick(1, "gin", 0, 12), "hand": 1})
        append(tables[1], "hand_recorded", quick(1, "knock", 2, 30))
        for table in tables:
            audit.table_verify(table_id=table.id)
        before = {p.table_id: p.state for p in TableProjection.objects.all()}
        TableProjection.objects.all().delete()
        call_command("rebuild_projections")
        after = {p.table_id: p.state for p in TableProjection.objects.all()}
        assert after == before and len(after) == 2

    def test_verification_marks_the_head_verified_and_repairs_a_stale_cache(self, append):
        table = TableFactory()
        append(table, "hand_recorded", quick(0, "knock", 7, 20))
        assert audit.table_verify(table_id=table.id).ok  # writes the row, at the head
        TableProjection.objects.filter(table=table).update(state={"stale": True})
        result = audit.table_verify(table_id=table.id)
        assert result.chain_ok and not result.projection_ok
        projection = TableProjection.objects.get(table=table)
        assert projection.state["totals"] == [13, 0] and projection.verified_seq == 2
        assert audit.table_verify(table_id=table.id).ok

    def test_the_verify_task_runs_after_the_append_commits(
        self,
        db,
        django_capture_on_commit_callbacks,
        eager_celery,
    ):
        table = TableFactory()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=1,
                event_type="hand_recorded",
                payload=quick(0, "knock", 7, 20),
            )
        assert len(callbacks) == 1
        assert TableProjection.objects.get(table=table).verified_seq == 2
