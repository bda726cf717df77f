"""The referee's documented examples (the OpenAPI schema's request examples) are answered as
the docs say: each one a 200 with an answer, never a refusal of the question."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _examples() -> list[tuple[str, str, dict]]:
    schema = APIClient().get("/api/schema/?format=json").json()
    found = []
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/v1/referee/"):
            continue
        content = operations["post"]["requestBody"]["content"]["application/json"]
        for name, example in content.get("examples", {}).items():
            found.append((path, name, example["value"]))
    return found


def test_every_referee_endpoint_documents_examples_that_it_answers():
    examples = _examples()
    paths = {path for path, _name, _value in examples}
    assert len(paths) == 6, paths
    for path, name, value in examples:
        response = APIClient().post(path, value, format="json")
        assert response.status_code == 200, (path, name, response.content)


def test_the_oklahoma_example_scores_as_its_title_says():
    """GIN-OKLAHOMA, GIN-SPADES: knock with 5 under the Q♠ (limit 10); B lays off to 12;
    (12 - 5) x 2 = 14."""
    (value,) = [
        value
        for path, name, value in _examples()
        if path.endswith("/score/") and "Oklahoma" in name
    ]
    body = APIClient().post("/api/v1/referee/score/", value, format="json").json()
    assert body["points"] == {"A": 14, "B": 0}


def test_the_api_documents_and_keeps_the_english_card_letters_in_every_language():
    """The pages read 7C as 7 of cuori in Italian; the API, for programs, keeps CARD-3's
    English letters whatever the language asked for, and says so in its schema."""
    schema = APIClient().get("/api/schema/?format=json").json()
    cards = schema["components"]["schemas"]["MeldAskRequest"]["properties"]["cards"]
    assert "always with the English letters" in cards["description"]
    body = {"variant": "gin", "cards": "7C 8C 9C"}
    response = APIClient().post(
        "/api/v1/referee/meld/", body, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    # MELD-RUN: 7, 8, 9 of one suit; read as clubs (C), not as the Italian cuori (hearts).
    assert response.status_code == 200 and response.json()["valid"]
    assert response.json()["cards"] == ["7C", "8C", "9C"]  # in Italian reading: 7H 8H 9H
