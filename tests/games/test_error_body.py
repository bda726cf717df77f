"""One error body (games/shared/errors.py): the same failure, made on a table's page asked
for JSON (as the offline outbox asks) and through the API, is answered with the same body:
the same code, the same keys, and where both sides see the same table the same content."""

import re
import uuid
from dataclasses import dataclass

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Table
from tests.games.sharing import join_by_link
from tests.payloads import quick

JSON = {"HTTP_ACCEPT": "application/json"}
# Big Gin to 100 points; Anna (seat 0) knocks.
GIN = {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 100}}
KNOCK = {
    "mode": "quick",
    "knocker": "0",
    "ending": "knock",
    "knocker_count": "7",
    "defender_count": "20",
}
# GIN-KNOCK: a knock keeps 10 deadwood at most; 14 is refused (docs/rules.md).
KNOCK_ON_14 = {**KNOCK, "knocker_count": "14"}


@dataclass(frozen=True)
class Keys:
    scorekeeper: str
    viewer: str


@pytest.fixture
def created(db) -> dict:
    """A Gin table made through the API, at event 1, with its keys and join links."""
    response = APIClient().post("/api/v1/tables/", GIN, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def table(created) -> Table:
    return Table.objects.get(pk=created["id"])


@pytest.fixture
def table_keys(created) -> Keys:
    return Keys(created["scorekeeper_key"], created["viewer_key"])


def _phone(created: dict, role: str) -> Client:
    """A phone that opened the table with ``role``'s join link."""
    phone = Client()
    link = created[f"{role}_link"].removeprefix("http://testserver")
    assert join_by_link(phone, link).status_code == 302
    return phone


@pytest.fixture
def joined_scorekeeper_phone(created) -> Client:
    return _phone(created, "scorekeeper")


def _page_hand(client: Client, table: Table, hand: dict, *, expected_seq: int):
    data = {"event_id": str(uuid.uuid4()), "expected_seq": str(expected_seq), **hand}
    return client.post(f"/t/{table.id}/hands/", data, **JSON)


def _api_hand(table: Table, payload: dict, *, expected_seq: int, key: str):
    body = {
        "event_id": str(uuid.uuid4()),
        "expected_seq": expected_seq,
        "type": "hand_recorded",
        "payload": payload,
    }
    url = f"/api/v1/tables/{table.id}/events/"
    return APIClient().post(url, body, format="json", HTTP_X_TABLE_KEY=key)


def _body(response, status: int) -> dict:
    assert response.status_code == status, response.content.decode()[:1500]
    assert response["Content-Type"] == "application/json"
    return response.json()


class TestTheSameFailureHasTheSameBody:
    def test_a_rules_refusal_lists_the_same_violations(
        self, joined_scorekeeper_phone, table, table_keys
    ):
        page = _body(_page_hand(joined_scorekeeper_phone, table, KNOCK_ON_14, expected_seq=1), 422)
        api = _body(
            _api_hand(table, quick(0, "knock", 14, 20), expected_seq=1, key=table_keys.scorekeeper),
            422,
        )
        assert page == api
        assert set(page) == {"error", "detail", "violations"}
        assert page["error"] == "rule_violation"
        assert [v["rule"] for v in page["violations"]] == ["GIN-KNOCK"]
        assert page["violations"][0]["rule_url"].startswith("http://testserver/")
        # The sentence says the rule it cites, for a client that shows only the detail.
        assert "(GIN-KNOCK)" in page["detail"]
        assert table.events.count() == 1

    def test_a_conflict_gives_the_same_head_and_state(
        self, joined_scorekeeper_phone, table, table_keys
    ):
        assert _page_hand(joined_scorekeeper_phone, table, KNOCK, expected_seq=1).status_code == 200
        # Both send a hand typed on event 1: the table is at event 2 now.
        page = _body(_page_hand(joined_scorekeeper_phone, table, KNOCK, expected_seq=1), 409)
        api = _body(
            _api_hand(table, quick(1, "gin", 0, 9), expected_seq=1, key=table_keys.scorekeeper),
            409,
        )
        table.refresh_from_db()
        assert page == api
        assert set(page) == {"error", "detail", "head_seq", "head_hash", "state"}
        assert page["error"] == "conflict"
        assert (page["head_seq"], page["head_hash"]) == (2, table.head_hash)
        # Anna knocked on 7 against 20: 13 points (GIN-SCORE-KNOCK).
        assert page["state"]["totals"] == [13, 0]
        assert table.events.count() == 2

    def test_a_viewer_recording_is_denied_with_the_same_code(self, created, table, table_keys):
        viewer = _phone(created, "viewer")
        page = _body(_page_hand(viewer, table, KNOCK, expected_seq=1), 403)
        api = _body(
            _api_hand(table, quick(0, "knock", 7, 20), expected_seq=1, key=table_keys.viewer),
            403,
        )
        assert set(page) == set(api) == {"error", "detail"}
        assert page["error"] == api["error"] == "permission_denied"
        assert page["detail"] and api["detail"]
        assert table.events.count() == 1

    def test_an_invalid_entry_names_its_fields_the_same_way(
        self, joined_scorekeeper_phone, table, table_keys
    ):
        # Seat 7 at a table of two, and a hand with no event type.
        page = _body(
            _page_hand(joined_scorekeeper_phone, table, {**KNOCK, "knocker": "7"}, expected_seq=1),
            422,
        )
        url = f"/api/v1/tables/{table.id}/events/"
        request = {
            "event_id": str(uuid.uuid4()),
            "expected_seq": 1,
            "payload": quick(0, "knock", 7, 20),
        }
        api = _body(
            APIClient().post(url, request, format="json", HTTP_X_TABLE_KEY=table_keys.scorekeeper),
            400,
        )
        assert set(page) == set(api) == {"error", "detail", "fields"}
        assert page["error"] == api["error"] == "invalid"
        assert list(page["fields"]) == ["knocker"] and list(api["fields"]) == ["type"]
        assert all(isinstance(m, str) for m in page["fields"]["knocker"] + api["fields"]["type"])
        assert table.events.count() == 1


def test_a_page_answers_html_alike_but_its_alert_carries_the_bodys_code(
    joined_scorekeeper_phone, table
):
    """Without JSON asked for, the page says it in words; the code is the body's."""
    data = {"event_id": str(uuid.uuid4()), "expected_seq": "1", **KNOCK_ON_14}
    response = joined_scorekeeper_phone.post(f"/t/{table.id}/hands/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert re.search(r'data-error="rule_violation"', response.content.decode())
