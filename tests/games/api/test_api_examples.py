"""The worked hands of the API docs, appended move by move through the API alone."""

import uuid

import pytest

from scoring.events import APPENDABLE_TYPES
from scoring.samples import SampleHand, played


def _play(api, sample: SampleHand) -> dict:
    created = api.post(
        "/api/v1/tables/",
        {"variant": sample.variant, "players": list(sample.players), "options": sample.options},
        format="json",
    )
    assert created.status_code == 201, created.content
    table = created.json()
    state = None
    for seq, (event_type, payload) in enumerate(sample.events, start=1):
        response = api.post(
            f"/api/v1/tables/{table['id']}/events/?include=state",
            {
                "event_id": str(uuid.uuid4()),
                "expected_seq": seq,
                "type": event_type,
                "payload": payload,
            },
            format="json",
            HTTP_X_TABLE_KEY=table["scorekeeper_key"],
        )
        assert response.status_code == 201, (seq, event_type, response.content)
        state = response.json()["state"]
    return state


@pytest.mark.django_db
class TestWorkedHandsOfTheDocs:
    @pytest.mark.parametrize("sample", played(), ids=lambda s: s.variant)
    def test_each_game_s_hand_is_recorded_move_by_move_to_the_score_worked_by_hand(
        self, api_client, sample
    ):
        state = _play(api_client, sample)
        assert state["play"] is None
        assert len(state["hands"]) == 1
        hand = state["hands"][0]
        assert hand["played"] is True
        assert tuple(hand["result"]["points"]) == sample.points
        assert tuple(state["totals"]) == sample.points
        # The deal passes on from the hand's dealer.
        dealer = sample.events[0][1].get("dealer", 0)
        assert state["dealer"] == (dealer + 1) % len(sample.players)

    def test_the_schema_shows_every_move_type_for_every_game(self, api_client):
        schema = api_client.get("/api/schema/?format=json").json()
        post = schema["paths"]["/api/v1/tables/{table_id}/events/"]["post"]
        examples = post["requestBody"]["content"]["application/json"]["examples"]
        shown = {(e["value"]["type"], e["summary"].split(",")[0]) for e in examples.values()}
        for sample in played():
            for event_type, _ in sample.events:
                assert (event_type, sample.title) in shown
        types = {event_type for event_type, _ in shown}
        assert set(APPENDABLE_TYPES) <= types
