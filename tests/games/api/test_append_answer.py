"""The API's answer to an append stays small at any length of the log: the stored event, the
new head and the totals; the whole state only with ?include=state."""

import functools
import json
import uuid

import pytest

from bench.logs import log_build
from games.tables.log import engine_events
from scoring.replay import replay
from tests.factories import TableFactory
from tests.games.tables.archive_logs import table_stored
from tests.payloads import quick

ANSWER_BYTES = 4_096
HANDS = 1_500


@functools.cache
def _long_log():
    """Knock Rummy, four seats, past 1,500 hands entered whole, voids and amendments among
    them; the log up to its 1,500th hand and the events after it."""
    events = log_build("knock_rummy", 1_700, seats=4, seed=22).events
    count = 0
    for index, event in enumerate(events):
        count += event.event_type == "hand_recorded"
        if count == HANDS:
            return events[: index + 1], events[index + 1 : index + 4]
    raise AssertionError(f"the log has {count} hands")


@pytest.fixture
def long_table(db, django_capture_on_commit_callbacks):
    stored, following = _long_log()
    with django_capture_on_commit_callbacks(execute=True):
        table = table_stored(stored)
    return table, following


def _post(api, table, event, *, query="", event_id=None):
    return api.post(
        f"/api/v1/tables/{table.id}/events/{query}",
        {
            "event_id": str(event_id or uuid.uuid4()),
            "expected_seq": table.head_seq,
            "type": event.event_type,
            "payload": dict(event.payload),
        },
        format="json",
        HTTP_X_TABLE_KEY=table.scorekeeper_key,
    )


def _replayed(table) -> dict:
    return replay(engine_events(table.events.order_by("seq"))).to_dict()


@pytest.mark.django_db
class TestAppendAnswer:
    @pytest.mark.slow
    def test_at_1500_hands_the_answer_is_the_event_the_head_and_the_totals(
        self, api_client, long_table, django_capture_on_commit_callbacks
    ):
        table, following = long_table
        for event in following:
            with django_capture_on_commit_callbacks(execute=True):
                response = _post(api_client, table, event)
            assert response.status_code == 201, response.content
            assert len(response.content) <= ANSWER_BYTES
            body = response.json()
            table.refresh_from_db()
            assert set(body) == {"event", "head", "totals", "winner", "finished"}
            assert body["event"]["type"] == event.event_type
            assert body["head"] == {"seq": table.head_seq, "hash": table.head_hash}
            expected = _replayed(table)
            assert len(expected["hands"]) >= HANDS
            assert body["totals"] == expected["totals"]
            assert (body["winner"], body["finished"]) == (expected["winner"], expected["finished"])

    def test_include_state_adds_the_whole_state(self, api_client, long_table):
        table, following = long_table
        response = _post(api_client, table, following[0], query="?include=state")
        assert response.status_code == 201, response.content
        body = response.json()
        table.refresh_from_db()
        assert body["state"] == _replayed(table)
        assert body["totals"] == body["state"]["totals"]
        read = api_client.get(
            f"/api/v1/tables/{table.id}/state/", HTTP_X_TABLE_KEY=table.scorekeeper_key
        )
        assert read.json() == body["state"]

    def test_a_retry_answers_small_with_the_head_now(self, api_client, long_table):
        table, following = long_table
        event_id = uuid.uuid4()
        first = _post(api_client, table, following[0], event_id=event_id)
        table.refresh_from_db()
        _post(api_client, table, following[1])
        table.refresh_from_db()
        # The retry carries the first request's expected_seq, now behind the head.
        retry = api_client.post(
            f"/api/v1/tables/{table.id}/events/",
            json.dumps(
                {
                    "event_id": str(event_id),
                    "expected_seq": table.head_seq - 2,
                    "type": following[0].event_type,
                    "payload": dict(following[0].payload),
                }
            ),
            content_type="application/json",
            HTTP_X_TABLE_KEY=table.scorekeeper_key,
        )
        assert first.status_code == 201 and retry.status_code == 200, retry.content
        assert len(retry.content) <= ANSWER_BYTES
        body = retry.json()
        assert body["event"] == first.json()["event"]
        assert body["head"] == {"seq": table.head_seq, "hash": table.head_hash}
        assert body["totals"] == _replayed(table)["totals"]

    def test_an_include_other_than_state_is_refused_and_nothing_is_stored(self, api_client, db):
        table = TableFactory()
        response = api_client.post(
            f"/api/v1/tables/{table.id}/events/?include=hands",
            {
                "event_id": str(uuid.uuid4()),
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": quick(0, "knock", 7, 20),
            },
            format="json",
            HTTP_X_TABLE_KEY=table.scorekeeper_key,
        )
        assert response.status_code == 400
        assert "include" in response.json()["fields"]
        table.refresh_from_db()
        assert table.head_seq == 1
