"""The schema states the bounds the API applies, and the API applies the bounds it states.

tests/games/api/test_schema_conformance.py fuzzes every operation against the schema; these
name the bounds this schema had left out, one by one, beside the refusal that applies each.
"""

import re

import pytest

from games.shared.clean_text import FILLED_TEXT_PATTERN, NAME_PATTERN, TEXT_PATTERN
from tests.games.clubs_setup import club_world

OPERATIONS = ("get", "post")


def _request_schema(schema, name):
    return schema["components"]["schemas"][name]


def _operations(schema):
    for path, item in schema["paths"].items():
        for method in OPERATIONS:
            if method in item:
                yield f"{method.upper()} {path}", item[method]


class TestErrorsEveryOperationDocuments:
    def test_every_operation_documents_400_and_429_in_the_error_shape(self, api_schema):
        for label, operation in _operations(api_schema):
            for code in ("400", "429"):
                content = operation["responses"][code]["content"]["application/json"]
                assert content["schema"]["$ref"].endswith(("/Error", "/BadRequestOut")), label

    def test_every_operation_with_a_body_documents_413_and_415(self, api_schema):
        for label, operation in _operations(api_schema):
            if "requestBody" in operation:
                assert {"413", "415"} <= set(operation["responses"]), label

    def test_writes_of_a_signed_in_session_document_403_and_the_referee_s_do_not(self, api_schema):
        operations = dict(_operations(api_schema))
        assert "403" in operations["POST /api/v1/tables/{table_id}/events/"]["responses"]
        assert "403" in operations["POST /api/v1/imports/"]["responses"]
        assert "403" not in operations["POST /api/v1/referee/meld/"]["responses"]

    def test_a_refused_list_item_s_errors_fit_the_documented_fields(self, api_schema, client, db):
        world = club_world()
        client.force_login(world.member)
        response = client.post(
            f"/api/v1/seasons/{world.season.pk}/tables/",
            {"players": [world.anna.pk, 2**63]},
            content_type="application/json",
        )
        assert response.status_code == 400
        # A list's refusals are per item: {"1": [...]}, an object where a list was documented.
        assert response.json()["fields"]["players"] == {
            "1": ["Ensure this value is less than or equal to 9223372036854775807."]
        }
        fields = _request_schema(api_schema, "Error")["properties"]["fields"]
        assert {"type": "object"} in fields["additionalProperties"]["anyOf"]


class TestCleanText:
    def test_every_request_text_and_key_is_bounded_by_the_clean_text_rule(self, api_schema):
        create = _request_schema(api_schema, "TableCreateRequest")
        assert create["properties"]["players"]["items"]["pattern"] == FILLED_TEXT_PATTERN
        assert create["propertyNames"]["pattern"] == NAME_PATTERN
        options = create["properties"]["options"]
        assert options["propertyNames"]["pattern"] == NAME_PATTERN
        assert options["additionalProperties"]["$ref"].endswith("/CleanValue")
        clean = _request_schema(api_schema, "CleanValue")
        assert {"type": "string", "pattern": TEXT_PATTERN} in clean["anyOf"]

    @pytest.mark.parametrize(
        ("text", "clean", "filled"),
        [
            ("Anna", True, True),
            ("a\tb\n", True, True),
            ("  ", True, False),
            ("A\x00", False, False),
        ],
    )
    def test_the_patterns_take_what_the_parser_takes(self, text, clean, filled):
        assert bool(re.fullmatch(TEXT_PATTERN, text)) is clean
        assert bool(re.fullmatch(FILLED_TEXT_PATTERN, text)) is filled

    def test_a_name_of_white_space_is_refused_as_the_pattern_says(self, client, db):
        response = client.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["Anna", "   "]},
            content_type="application/json",
        )
        assert response.status_code == 400
        assert list(response.json()["fields"]["players"]) == ["1"]


class TestListBounds:
    def test_nested_lists_state_their_lengths(self, api_schema):
        players = _request_schema(api_schema, "ScoreAskRequest")["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (2, 6)

    def test_a_season_table_s_players_are_distinct_in_the_schema_and_the_answer(
        self, api_schema, client, db
    ):
        players = _request_schema(api_schema, "SeasonTableCreateRequest")["properties"]["players"]
        assert players["uniqueItems"] is True
        world = club_world()
        client.force_login(world.member)
        response = client.post(
            f"/api/v1/seasons/{world.season.pk}/tables/",
            {"players": [world.anna.pk, world.anna.pk]},
            content_type="application/json",
        )
        assert response.status_code == 400
        assert response.json()["fields"] == {
            "players": ["Choose a different player for every seat."]
        }

    def test_an_import_names_a_group_or_a_club_in_the_schema_too(self, api_schema):
        body = _request_schema(api_schema, "ImportRequestRequest")
        assert body["oneOf"] == [{"required": ["group"]}, {"required": ["club"]}]
        assert body["properties"]["file"]["minLength"] == 1


class TestQueryBounds:
    def test_pages_state_and_apply_their_lower_bounds(self, api_schema, client, api_gin_table):
        parameters = dict(_operations(api_schema))["GET /api/v1/tables/"]["parameters"]
        bounds = {p["name"]: p["schema"].get("minimum") for p in parameters if p["in"] == "query"}
        assert bounds == {"limit": 1, "offset": 0}
        key = api_gin_table["viewer_key"]
        for query, field in [
            ("limit=0", "limit"),
            ("limit=many", "limit"),
            ("offset=-1", "offset"),
            # Empty, or given twice: no whole number either (a form would drop the empty one).
            ("limit=", "limit"),
            ("offset=1&offset=2", "offset"),
        ]:
            response = client.get(f"/api/v1/tables/?{query}", HTTP_X_TABLE_KEY=key)
            assert response.status_code == 400, query
            assert list(response.json()["fields"]) == [field]
        assert client.get("/api/v1/tables/?limit=1", HTTP_X_TABLE_KEY=key).json()["count"] == 1

    def test_events_after_states_and_applies_its_bounds(self, api_schema, client, api_gin_table):
        operation = dict(_operations(api_schema))["GET /api/v1/tables/{table_id}/events/"]
        (after,) = (p["schema"] for p in operation["parameters"] if p["name"] == "after")
        assert (after["minimum"], after["maximum"]) == (0, 999_999_999)
        url = f"/api/v1/tables/{api_gin_table['id']}/events/"
        key = api_gin_table["viewer_key"]
        for given in ("1000000000", "-1", "x", "", "1&after=2"):
            response = client.get(f"{url}?after={given}", HTTP_X_TABLE_KEY=key)
            assert response.status_code == 400, given
            assert list(response.json()["fields"]) == ["after"]
        assert client.get(f"{url}?after=999999999", HTTP_X_TABLE_KEY=key).json() == []

    def test_the_export_has_no_format_parameter(self, api_schema):
        operation = dict(_operations(api_schema))["GET /api/v1/tables/{table_id}/export/"]
        assert [p["name"] for p in operation["parameters"]] == ["X-Table-Key", "table_id"]
