"""The tables API: keys on every request, and the append contract 201/200/409/422."""

import json
import uuid

import pytest

from games.models import Event
from tests.payloads import by_cards, quick


@pytest.fixture
def created_gin_table(api_client, db):
    response = api_client.post(
        "/api/v1/tables/",
        {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 100}},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def _post_event(api, table, key, *, expected_seq, payload, event_id=None, type="hand_recorded"):
    return api.post(
        f"/api/v1/tables/{table['id']}/events/",
        {
            "event_id": str(event_id or uuid.uuid4()),
            "expected_seq": expected_seq,
            "type": type,
            "payload": payload,
        },
        format="json",
        HTTP_X_TABLE_KEY=key,
    )


def _post_raw(api, table, body: bytes):
    return api.generic(
        "POST",
        f"/api/v1/tables/{table['id']}/events/",
        body,
        content_type="application/json",
        HTTP_X_TABLE_KEY=table["scorekeeper_key"],
    )


def _refusal(api, table, payload) -> dict:
    """Send a hand the rules refuse; return the first violation after checking the 422."""
    response = _post_event(api, table, table["scorekeeper_key"], expected_seq=1, payload=payload)
    assert response.status_code == 422, response.content
    assert Event.objects.filter(table_id=table["id"]).count() == 1
    return response.json()["violations"][0]


class TestTables:
    def test_creating_a_table_returns_both_keys_and_links(self, created_gin_table):
        assert created_gin_table["variant"] == "gin" and created_gin_table["head_seq"] == 1
        assert [s["name"] for s in created_gin_table["seats"]] == ["Anna", "Bruno"]
        assert created_gin_table["options"]["preset"] == "big_gin"
        assert created_gin_table["scorekeeper_key"] != created_gin_table["viewer_key"]
        # The links are join links: no key in them, each opens the page with its role.
        assert created_gin_table["scorekeeper_key"] not in created_gin_table["scorekeeper_link"]
        assert created_gin_table["scorekeeper_link"].startswith("http://testserver/j/#")
        assert created_gin_table["role"] == "scorekeeper"

    @pytest.mark.parametrize(
        ("named", "bound"), [({}, True), ({"unopened_discard_check": False}, False)]
    )
    def test_a_new_scala40_table_binds_players_not_opened_unless_it_says_not(
        self, api_client, db, named, bound
    ):
        """S40-DISCARD: a new table takes the regulations' reading where it names none; the
        log keeps it named, so a later change of default never changes the table."""
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "scala40", "players": ["A", "B"], "options": named},
            format="json",
        )
        assert response.status_code == 201, response.content
        assert response.json()["options"]["unopened_discard_check"] is bound
        created = Event.objects.get(table_id=response.json()["id"], seq=1)
        assert created.payload["options"]["unopened_discard_check"] is bound

    def test_a_bad_option_is_refused_with_its_rule(self, api_client, db):
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["A", "B"], "options": {"target": 75}},
            format="json",
        )
        assert response.status_code == 422
        assert response.json()["violations"][0]["rule"] == "GIN-MATCH"

    def test_a_malformed_request_names_the_field(self, api_client, db):
        response = api_client.post(
            "/api/v1/tables/", {"variant": "chess", "players": []}, format="json"
        )
        assert response.status_code == 400
        assert set(response.json()["fields"]) == {"variant", "players"}

    def test_the_list_shows_only_tables_your_keys_open(self, api_client, created_gin_table):
        other = api_client.post(
            "/api/v1/tables/", {"variant": "gin", "players": ["C", "D"]}, format="json"
        ).json()
        listed = api_client.get(
            "/api/v1/tables/", HTTP_X_TABLE_KEY=created_gin_table["viewer_key"]
        ).json()
        assert [t["id"] for t in listed["results"]] == [created_gin_table["id"]]
        assert listed["results"][0]["role"] == "viewer"
        assert api_client.get("/api/v1/tables/").json()["results"] == []
        both = f"{created_gin_table['viewer_key']},{other['scorekeeper_key']}"
        assert len(api_client.get("/api/v1/tables/", HTTP_X_TABLE_KEY=both).json()["results"]) == 2

    def test_a_table_is_invisible_without_its_key(self, api_client, created_gin_table):
        for path in ("", "state/", "events/"):
            url = f"/api/v1/tables/{created_gin_table['id']}/{path}"
            assert api_client.get(url).status_code == 404
            assert api_client.get(url, HTTP_X_TABLE_KEY="guess").status_code == 404
            assert (
                api_client.get(url, HTTP_X_TABLE_KEY=created_gin_table["viewer_key"]).status_code
                == 200
            )

    def test_keys_do_not_open_other_tables(self, api_client, created_gin_table):
        other = api_client.post(
            "/api/v1/tables/", {"variant": "gin", "players": ["C", "D"]}, format="json"
        ).json()
        url = f"/api/v1/tables/{other['id']}/"
        assert (
            api_client.get(url, HTTP_X_TABLE_KEY=created_gin_table["scorekeeper_key"]).status_code
            == 404
        )


class TestAppendingEvents:
    def test_a_stored_event_answers_201_with_the_new_state(self, api_client, created_gin_table):
        response = _post_event(
            api_client,
            created_gin_table,
            created_gin_table["scorekeeper_key"],
            expected_seq=1,
            payload=quick(0, "knock", 7, 20),
        )
        assert response.status_code == 201
        body = response.json()
        assert body["event"]["seq"] == 2 and body["totals"] == [13, 0]
        assert body["head"] == {"seq": 2, "hash": body["event"]["hash"]}
        assert "state" not in body

    def test_a_retry_answers_200_and_stores_nothing_twice(self, api_client, created_gin_table):
        event_id = uuid.uuid4()
        key = created_gin_table["scorekeeper_key"]

        def send():
            hand = quick(0, "knock", 7, 20)
            return _post_event(
                api_client, created_gin_table, key, expected_seq=1, payload=hand, event_id=event_id
            )

        first = send()
        codes = [send().status_code for _ in range(4)]
        assert first.status_code == 201 and codes == [200] * 4
        assert Event.objects.filter(event_id=event_id).count() == 1

    def test_a_stale_head_answers_409_with_the_current_head(self, api_client, created_gin_table):
        key = created_gin_table["scorekeeper_key"]
        _post_event(
            api_client, created_gin_table, key, expected_seq=1, payload=quick(0, "knock", 7, 20)
        )
        response = _post_event(
            api_client, created_gin_table, key, expected_seq=1, payload=quick(1, "gin", 0, 9)
        )
        assert response.status_code == 409
        body = response.json()
        assert body["head_seq"] == 2 and body["state"]["totals"] == [13, 0]
        assert "Someone else just recorded" in body["detail"]

    def test_an_illegal_hand_answers_422_with_the_rule(self, api_client, created_gin_table):
        response = _post_event(
            api_client,
            created_gin_table,
            created_gin_table["scorekeeper_key"],
            expected_seq=1,
            payload=quick(0, "knock", 14, 20),
        )
        assert response.status_code == 422
        violation = response.json()["violations"][0]
        assert violation["rule"] == "GIN-KNOCK"
        assert "14" in violation["message"]
        assert Event.objects.filter(table_id=created_gin_table["id"]).count() == 1

    def test_a_director_s_decision_cannot_come_through_the_api(self, api_client, created_gin_table):
        response = _post_event(
            api_client,
            created_gin_table,
            created_gin_table["scorekeeper_key"],
            expected_seq=1,
            type="table_decided",
            payload={"decision": "void", "reason": "we lost"},
        )
        assert response.status_code == 400
        assert "type" in response.json()["fields"]
        assert Event.objects.filter(table_id=created_gin_table["id"]).count() == 1

    def test_a_seat_out_of_range_is_explained_as_a_seat_counted_from_0(
        self, api_client, created_gin_table
    ):
        violation = _refusal(api_client, created_gin_table, quick(2, "knock", 3, 20))
        assert (violation["code"], violation["params"]["field"]) == ("bad_seat", "knocker")
        assert violation["message"] == (
            "“who ended the hand” must be a seat number: 0 for the first player up to 1 for "
            "the last (seats count from 0)."
        )

    def test_the_refusal_speaks_italian_when_asked(self, api_client, created_gin_table):
        response = _post_event(
            api_client,
            created_gin_table,
            created_gin_table["scorekeeper_key"],
            expected_seq=1,
            payload=quick(0, "knock", 14, 20),
        )
        english = response.json()["violations"][0]["message"]
        response = api_client.post(
            f"/api/v1/tables/{created_gin_table['id']}/events/",
            {
                "event_id": str(uuid.uuid4()),
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": quick(0, "knock", 14, 20),
            },
            format="json",
            HTTP_X_TABLE_KEY=created_gin_table["scorekeeper_key"],
            HTTP_ACCEPT_LANGUAGE="it",
        )
        italian = response.json()["violations"][0]["message"]
        assert italian != english and "14" in italian and "bussare" in italian.lower()

    def test_a_card_typed_twice_is_refused_with_the_card(self, api_client, created_gin_table):
        violation = _refusal(
            api_client,
            created_gin_table,
            by_cards(0, "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H", "9C AH AS 2S 5D 6D 7D KC KS KH"),
        )
        assert violation["rule"] == "CARD-2" and violation["params"]["card"] == "9C"

    def test_the_viewer_key_cannot_write(self, api_client, created_gin_table):
        response = _post_event(
            api_client,
            created_gin_table,
            created_gin_table["viewer_key"],
            expected_seq=1,
            payload=quick(0, "knock", 7, 20),
        )
        assert response.status_code == 403
        assert Event.objects.filter(table_id=created_gin_table["id"]).count() == 1

    def test_events_list_in_order_and_after_a_seq(self, api_client, created_gin_table):
        key = created_gin_table["scorekeeper_key"]
        _post_event(
            api_client, created_gin_table, key, expected_seq=1, payload=quick(0, "knock", 7, 20)
        )
        _post_event(
            api_client,
            created_gin_table,
            key,
            expected_seq=2,
            type="hand_voided",
            payload={"hand": 1},
        )
        url = f"/api/v1/tables/{created_gin_table['id']}/events/"
        events = api_client.get(url, HTTP_X_TABLE_KEY=key).json()
        assert [e["type"] for e in events] == ["table_created", "hand_recorded", "hand_voided"]
        later = api_client.get(url + "?after=2", HTTP_X_TABLE_KEY=key).json()
        assert [e["seq"] for e in later] == [3]

    @pytest.mark.parametrize("after", ["-1", "x", "²", "9" * 10, "9" * 5000])
    def test_an_after_that_is_no_seq_is_named_in_a_400(self, api_client, created_gin_table, after):
        url = f"/api/v1/tables/{created_gin_table['id']}/events/"
        response = api_client.get(
            url, {"after": after}, HTTP_X_TABLE_KEY=created_gin_table["scorekeeper_key"]
        )
        assert response.status_code == 400 and "after" in response.json()["fields"]

    @pytest.mark.parametrize(
        "body",
        [
            b"not json",
            b"[]",
            b'{"event_id": "nope", "expected_seq": -1, "type": "x", "payload": 3}',
            b'{"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "expected_seq": 1,'
            b' "type": "hand_recorded", "payload": {"mode": "cards", "knocker": "0"}}',
            b'{"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "expected_seq": 1,'
            b' "type": "hand_recorded", "payload": {"mode": "cards", "knocker": 0,'
            b' "knocker_cards": 5, "defender_cards": null}}',
            b'{"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "expected_seq": 1,'
            b' "type": "hand_recorded", "payload": {"mode": "quick", "knocker": true,'
            b' "ending": "knock", "knocker_count": 1e9, "defender_count": "x"}}',
            b'{"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "expected_seq": 1,'
            b' "type": "hand_voided", "payload": {"hand": [1]}}',
        ],
    )
    def test_garbage_is_a_clear_4xx_never_a_500(self, api_client, created_gin_table, body):
        response = _post_raw(api_client, created_gin_table, body)
        assert response.status_code in (400, 422), response.content
        assert json.loads(response.content)["detail"]
        assert Event.objects.filter(table_id=created_gin_table["id"]).count() == 1


class TestSchema:
    def test_the_openapi_schema_documents_the_append_endpoint_with_examples(self, api_client, db):
        response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert response.status_code == 200
        schema = json.loads(response.content)
        post = schema["paths"]["/api/v1/tables/{table_id}/events/"]["post"]
        assert {"201", "200", "409", "422"} <= set(post["responses"])
        examples = post["requestBody"]["content"]["application/json"]["examples"]
        assert len(examples) >= 4

    def test_the_docs_page_serves_without_a_cdn(self, client, db):
        response = client.get("/api/docs/")
        assert response.status_code == 200
        assert b"cdn.jsdelivr" not in response.content


class TestStrictPayloads:
    def test_an_unknown_payload_field_is_refused_by_name(self, api_client, created_gin_table):
        violation = _refusal(
            api_client, created_gin_table, {**quick(0, "knock", 7, 20), "note": "x" * 500}
        )
        assert violation["code"] == "unknown_field" and violation["params"]["field"] == "note"

    def test_nine_cards_for_the_knocker_are_refused_with_the_count(
        self, api_client, created_gin_table
    ):
        violation = _refusal(
            api_client,
            created_gin_table,
            by_cards(0, "9C 9S 9H 9D 4C 4S 4H 3C 3S", "6C AH AS 2S 5D 6D 7D KC KS KH"),
        )
        assert violation["rule"] == "GIN-SETUP"
        assert violation["params"] == {"player": "knocker", "count": 9, "expected": 10}

    def test_an_oversized_body_is_refused_not_crashed_on(self, api_client, created_gin_table):
        body = b'{"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "payload": {"x": "'
        body += b"y" * (3 * 1024 * 1024) + b'"}}'
        response = _post_raw(api_client, created_gin_table, body)
        assert response.status_code in (400, 413)
        assert Event.objects.filter(table_id=created_gin_table["id"]).count() == 1


class TestOtherGamesThroughTheApi:
    def test_a_ramino_table_of_three_records_a_hand_by_cards(self, api_client, db):
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "ramino", "players": ["Anna", "Bruno", "Carla"], "options": {"hands": 3}},
            format="json",
        )
        assert response.status_code == 201, response.content
        table = response.json()
        assert table["target"] == 3 and len(table["seats"]) == 3
        payload = {
            "mode": "cards",
            "players": [
                {"hand": "", "melded": "7S 8S 9S", "went_out": True},
                {"hand": "KH QH 5C"},
                {"hand": "JK 2D"},
            ],
        }
        response = _post_event(
            api_client, table, table["scorekeeper_key"], expected_seq=1, payload=payload
        )
        assert response.status_code == 201, response.content
        # RAM-SCORE with RAM-VALUE: B loses 10+10+5 = 25, C loses 20+2 = 22, A gains 47.
        assert response.json()["totals"] == [47, -25, -22]

    def test_a_knock_rummy_knock_over_five_is_refused_at_the_table(self, api_client, db):
        table = api_client.post(
            "/api/v1/tables/",
            {"variant": "knock_rummy", "players": ["Anna", "Bruno"]},
            format="json",
        ).json()
        payload = {"mode": "cards", "players": [{"hand": "4C 5C", "knocked": True}, {"hand": "2C"}]}
        response = _post_event(
            api_client, table, table["scorekeeper_key"], expected_seq=1, payload=payload
        )
        assert response.status_code == 422
        assert response.json()["violations"][0]["rule"] == "KR-KNOCK"

    def test_three_players_cannot_sit_at_rummy40(self, api_client, db):
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "rummy40", "players": ["A", "B", "C"]},
            format="json",
        )
        assert response.status_code == 422
        assert response.json()["violations"][0]["rule"] == "R40-SETUP"
