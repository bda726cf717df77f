"""The archive API: a table's log out as JSON Lines with its key, and back in by a signed-in
manager (201 with the new table's keys, 422 naming the line, 403, 413), and its schema."""

import io
import json

import pytest
from django.test import override_settings

from games.clubs import groups
from games.tables import selectors
from games.tables.models import Table
from tests.factories import UserFactory
from tests.games.tables.archive_logs import counts, file_of, lines_of, same_match
from tests.payloads import quick


@pytest.fixture
def exportable_gin_table(api_client, db):
    response = api_client.post(
        "/api/v1/tables/",
        {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 100}},
        format="json",
    )
    table = response.json()
    api_client.post(
        f"/api/v1/tables/{table['id']}/events/",
        {
            "event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10",
            "expected_seq": 1,
            "type": "hand_recorded",
            "payload": quick(0, "knock", 7, 20),
        },
        format="json",
        HTTP_X_TABLE_KEY=table["scorekeeper_key"],
    )
    return table


@pytest.fixture
def anna_group(group_manager):
    return groups.group_create(
        name="Thursday friends", players=["Anna"], variant="gin", options={}, user=group_manager
    )


def _export(api, created, key="scorekeeper_key"):
    return api.get(f"/api/v1/tables/{created['id']}/export/", HTTP_X_TABLE_KEY=created[key])


def _file(data: bytes) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = "table.jsonl"
    return upload


def _import(api, data: bytes, **target):
    return api.post("/api/v1/imports/", {"file": _file(data), **target}, format="multipart")


class TestExport:
    @pytest.mark.parametrize("key", ["scorekeeper_key", "viewer_key"])
    def test_the_log_comes_as_json_lines_with_the_tables_key(
        self, api_client, exportable_gin_table, key
    ):
        response = _export(api_client, exportable_gin_table, key)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/x-ndjson")
        lines = lines_of(b"".join(response.streaming_content))
        assert lines[0]["table"] == exportable_gin_table["id"] and lines[-1]["events"] == 2

    def test_no_key_no_log(self, api_client, exportable_gin_table):
        response = api_client.get(f"/api/v1/tables/{exportable_gin_table['id']}/export/")
        assert response.status_code == 404 and response.json()["error"] == "not_found"
        asked = api_client.get(
            f"/api/v1/tables/{exportable_gin_table['id']}/export/",
            HTTP_ACCEPT="application/x-ndjson",
        )
        assert asked.status_code == 404 and json.loads(asked.content)["error"] == "not_found"


class TestImport:
    def test_a_round_trip_through_the_api(
        self, api_client, exportable_gin_table, group_manager, anna_group
    ):
        data = b"".join(_export(api_client, exportable_gin_table).streaming_content)
        api_client.force_login(group_manager)
        response = _import(api_client, data, group=anna_group.pk)
        assert response.status_code == 201, response.content
        body = response.json()
        [item] = body["tables"]
        assert item["imported_from"] == exportable_gin_table["id"] and item["events"] == 2
        assert body["players_created"] == ["Bruno"]
        copy = Table.objects.get(pk=item["id"])
        same_match(Table.objects.get(pk=exportable_gin_table["id"]), copy)
        state = api_client.get(
            f"/api/v1/tables/{item['id']}/state/", HTTP_X_TABLE_KEY=item["scorekeeper_key"]
        )
        assert state.json() == selectors.table_state(table=copy)

    def test_a_refused_file_names_its_line_and_stores_nothing(
        self, api_client, exportable_gin_table, group_manager, anna_group
    ):
        lines = lines_of(b"".join(_export(api_client, exportable_gin_table).streaming_content))
        del lines[2]
        api_client.force_login(group_manager)
        before = counts()
        response = _import(api_client, file_of(lines), group=anna_group.pk)
        assert response.status_code == 422
        body = response.json()
        assert body["error"] == "import_refused" and body["line"] == 3 and body["file"] is None
        assert body["detail"].startswith("Line 3:")
        assert counts() == before

    def test_signed_out_or_into_someone_elses_group_is_refused(
        self, api_client, exportable_gin_table, anna_group
    ):
        data = b"".join(_export(api_client, exportable_gin_table).streaming_content)
        assert _import(api_client, data, group=anna_group.pk).status_code == 403
        api_client.force_login(UserFactory())
        response = _import(api_client, data, group=anna_group.pk)
        assert response.status_code == 403 and response.json()["error"] == "permission_denied"
        assert not Table.objects.filter(imported_from=exportable_gin_table["id"]).exists()

    def test_one_target_exactly(self, api_client, exportable_gin_table, group_manager, anna_group):
        api_client.force_login(group_manager)
        data = b"".join(_export(api_client, exportable_gin_table).streaming_content)
        assert _import(api_client, data).status_code == 400
        assert _import(api_client, data, group=anna_group.pk, club=1).status_code == 400

    @override_settings(IMPORT_MAX_BYTES=1024)
    def test_a_file_past_the_limit_is_413(
        self, api_client, exportable_gin_table, group_manager, anna_group
    ):
        api_client.force_login(group_manager)
        data = b"".join(_export(api_client, exportable_gin_table).streaming_content)
        assert len(data) > 1024
        response = _import(api_client, data, group=anna_group.pk)
        assert response.status_code == 413 and response.json()["error"] == "too_large"


class TestSchema:
    def test_both_operations_are_documented(self, api_client, db):
        response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        paths = json.loads(response.content)["paths"]
        export = paths["/api/v1/tables/{table_id}/export/"]["get"]
        assert "application/x-ndjson" in export["responses"]["200"]["content"]
        post = paths["/api/v1/imports/"]["post"]
        assert "multipart/form-data" in post["requestBody"]["content"]
        assert {"201", "403", "413", "422"} <= set(post["responses"])
