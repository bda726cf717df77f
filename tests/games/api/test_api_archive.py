"""The archive API: a table's log out as JSON Lines with its key, and back in by a signed-in
manager (201 with the new table's keys, 422 naming the line, 403, 413), and its schema."""

import io
import json

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.clubs import groups
from games.tables import selectors
from games.tables.models import Table
from tests.factories import UserFactory
from tests.games.tables.archive_logs import counts, file_of, lines_of, same_match
from tests.payloads import quick


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def created(api, db):
    response = api.post(
        "/api/v1/tables/",
        {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 100}},
        format="json",
    )
    table = response.json()
    api.post(
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
def manager(db):
    return UserFactory(username="gina")


@pytest.fixture
def group(manager):
    return groups.group_create(
        name="Thursday friends", players=["Anna"], variant="gin", options={}, user=manager
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
    def test_the_log_comes_as_json_lines_with_the_tables_key(self, api, created, key):
        response = _export(api, created, key)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/x-ndjson")
        lines = lines_of(b"".join(response.streaming_content))
        assert lines[0]["table"] == created["id"] and lines[-1]["events"] == 2

    def test_no_key_no_log(self, api, created):
        response = api.get(f"/api/v1/tables/{created['id']}/export/")
        assert response.status_code == 404 and response.json()["error"] == "not_found"
        asked = api.get(
            f"/api/v1/tables/{created['id']}/export/", HTTP_ACCEPT="application/x-ndjson"
        )
        assert asked.status_code == 404 and json.loads(asked.content)["error"] == "not_found"


class TestImport:
    def test_a_round_trip_through_the_api(self, api, created, manager, group):
        data = b"".join(_export(api, created).streaming_content)
        api.force_login(manager)
        response = _import(api, data, group=group.pk)
        assert response.status_code == 201, response.content
        body = response.json()
        [item] = body["tables"]
        assert item["imported_from"] == created["id"] and item["events"] == 2
        assert body["players_created"] == ["Bruno"]
        copy = Table.objects.get(pk=item["id"])
        same_match(Table.objects.get(pk=created["id"]), copy)
        state = api.get(
            f"/api/v1/tables/{item['id']}/state/", HTTP_X_TABLE_KEY=item["scorekeeper_key"]
        )
        assert state.json() == selectors.table_state(table=copy)

    def test_a_refused_file_names_its_line_and_stores_nothing(self, api, created, manager, group):
        lines = lines_of(b"".join(_export(api, created).streaming_content))
        del lines[2]
        api.force_login(manager)
        before = counts()
        response = _import(api, file_of(lines), group=group.pk)
        assert response.status_code == 422
        body = response.json()
        assert body["error"] == "import_refused" and body["line"] == 3 and body["file"] is None
        assert body["detail"].startswith("Line 3:")
        assert counts() == before

    def test_signed_out_or_into_someone_elses_group_is_refused(self, api, created, group):
        data = b"".join(_export(api, created).streaming_content)
        assert _import(api, data, group=group.pk).status_code == 403
        api.force_login(UserFactory())
        response = _import(api, data, group=group.pk)
        assert response.status_code == 403 and response.json()["error"] == "permission_denied"
        assert not Table.objects.filter(imported_from=created["id"]).exists()

    def test_one_target_exactly(self, api, created, manager, group):
        api.force_login(manager)
        data = b"".join(_export(api, created).streaming_content)
        assert _import(api, data).status_code == 400
        assert _import(api, data, group=group.pk, club=1).status_code == 400

    @override_settings(IMPORT_MAX_BYTES=1024)
    def test_a_file_past_the_limit_is_413(self, api, created, manager, group):
        api.force_login(manager)
        data = b"".join(_export(api, created).streaming_content)
        assert len(data) > 1024
        response = _import(api, data, group=group.pk)
        assert response.status_code == 413 and response.json()["error"] == "too_large"


class TestSchema:
    def test_both_operations_are_documented(self, api, db):
        response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        paths = json.loads(response.content)["paths"]
        export = paths["/api/v1/tables/{table_id}/export/"]["get"]
        assert "application/x-ndjson" in export["responses"]["200"]["content"]
        post = paths["/api/v1/imports/"]["post"]
        assert "multipart/form-data" in post["requestBody"]["content"]
        assert {"201", "403", "413", "422"} <= set(post["responses"])
