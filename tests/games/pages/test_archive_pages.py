"""The pages of files out and in: a table's log and hands, a group's or a club's archive, and
the import page (who may, CSRF, the upload's bound, refusals shown by the file)."""

import io
import os
import zipfile

import pytest
from django.test import Client, override_settings

from games.clubs import groups
from games.tables.models import Table
from tests.factories import UserFactory
from tests.games.tables.archive_logs import counts, exported, file_of, lines_of, rehashed


def _as(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def _post(client, data: bytes, target: str, name: str = "table.jsonl"):
    upload = io.BytesIO(data)
    upload.name = name
    return client.post("/import/", {"file": upload, "target": target})


class TestTableDownloads:
    @pytest.mark.parametrize("key", ["scorekeeper_key", "viewer_key"])
    def test_anyone_with_a_role_at_the_table_finds_both_links_and_files(
        self, client, gin_table_with_one_hand, key
    ):
        headers = {"X-Table-Key": getattr(gin_table_with_one_hand, key)}
        page = client.get(f"/t/{gin_table_with_one_hand.id}/", headers=headers).content.decode()
        assert f'href="/t/{gin_table_with_one_hand.id}/log.jsonl"' in page
        assert f'href="/t/{gin_table_with_one_hand.id}/hands.csv"' in page
        log = client.get(f"/t/{gin_table_with_one_hand.id}/log.jsonl", headers=headers)
        assert log.status_code == 200 and log["Content-Type"].startswith("application/x-ndjson")
        assert "attachment" in log["Content-Disposition"]
        assert lines_of(b"".join(log.streaming_content))[-1]["events"] == 2
        hands = client.get(f"/t/{gin_table_with_one_hand.id}/hands.csv", headers=headers)
        assert hands.status_code == 200 and hands["Content-Type"].startswith("text/csv")
        assert hands.content.decode().startswith("row,hand,seq,")

    def test_a_stranger_gets_neither(self, client, gin_table_with_one_hand):
        for path in ("log.jsonl", "hands.csv"):
            assert client.get(f"/t/{gin_table_with_one_hand.id}/{path}").status_code == 404
            wrong = {"X-Table-Key": "guess"}
            assert (
                client.get(f"/t/{gin_table_with_one_hand.id}/{path}", headers=wrong).status_code
                == 404
            )


class TestArchiveDownloads:
    def test_a_phone_with_a_key_of_the_group_downloads_its_archive(
        self, client, thursday_friends, gin_table_with_one_hand
    ):
        Table.objects.filter(pk=gin_table_with_one_hand.pk).update(group=thursday_friends)
        for key in (thursday_friends.member_key, thursday_friends.viewer_key):
            response = client.get(f"/g/{thursday_friends.pk}/export/", headers={"X-Table-Key": key})
            assert response.status_code == 200 and response["Content-Type"] == "application/zip"
            archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
            assert f"tables/{gin_table_with_one_hand.id}.jsonl" in archive.namelist()

    def test_no_one_else_downloads_a_groups_archive(self, client, thursday_friends, group_manager):
        assert client.get(f"/g/{thursday_friends.pk}/export/").status_code == 404
        # Managing the group from an account is not holding its key in this browser.
        assert _as(UserFactory()).get(f"/g/{thursday_friends.pk}/export/").status_code == 404

    def test_a_clubs_admins_download_its_archive_and_no_one_else(self, world):
        season_table = world.table()
        url = f"/clubs/{world.club.slug}/export/"
        response = _as(world.admin).get(url)
        assert response.status_code == 200
        archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
        assert f"tables/{season_table.id}.jsonl" in archive.namelist()
        assert _as(world.member).get(url).status_code == 403
        assert _as(world.outsider).get(url).status_code == 404
        assert Client().get(url).status_code == 302  # to sign in


class TestImportPage:
    def test_signing_in_comes_first(self, client, db):
        response = client.get("/import/")
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    def test_the_form_offers_the_groups_managed_and_imports_into_one(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        client = _as(group_manager)
        page = client.get("/import/").content.decode()
        assert f'value="group:{thursday_friends.pk}"' in page and 'type="file"' in page
        response = _post(client, exported(gin_table_with_one_hand), f"group:{thursday_friends.pk}")
        assert response.status_code == 200
        copy = Table.objects.get(imported_from=gin_table_with_one_hand.pk)
        assert copy.group == thursday_friends
        assert f"/t/{copy.pk}/" in response.content.decode()
        # The same file again: refused in words, with a link to the table it made.
        again = _post(client, exported(gin_table_with_one_hand), f"group:{thursday_friends.pk}")
        page = again.content.decode()
        assert again.status_code == 422 and "imported already" in page
        assert f'<a href="/t/{copy.pk}/" data-testid="imported-before">' in page

    def test_a_refusal_is_shown_by_the_file_naming_the_line_and_nothing_is_stored(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        lines = lines_of(exported(gin_table_with_one_hand))
        lines[2]["payload"]["knocker_count"] = 3
        before = counts()
        response = _post(_as(group_manager), file_of(lines), f"group:{thursday_friends.pk}")
        assert response.status_code == 422
        page = response.content.decode()
        errors = page[page.index('id="import-file-errors"') :]
        assert "Line 3:" in errors[:400]
        assert counts() == before

    def test_an_edited_log_the_rules_refuse_names_its_rule(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        lines = lines_of(exported(gin_table_with_one_hand))
        lines[2]["payload"]["knocker_count"] = 40
        response = _post(_as(group_manager), rehashed(lines), f"group:{thursday_friends.pk}")
        assert response.status_code == 422 and "GIN-KNOCK" in response.content.decode()

    @override_settings(IMPORT_MAX_BYTES=2048)
    def test_an_upload_past_the_limit_is_cut_off_and_refused(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        before = counts()
        response = _post(
            _as(group_manager),
            exported(gin_table_with_one_hand) + b" " * 4096,
            f"group:{thursday_friends.pk}",
        )
        assert response.status_code == 422
        assert "larger than" in response.content.decode()
        assert counts() == before

    def test_a_21_mb_upload_is_refused(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        before = counts()
        big = exported(gin_table_with_one_hand) + b" " * (21 * 1024 * 1024)
        response = _post(_as(group_manager), big, f"group:{thursday_friends.pk}")
        assert response.status_code == 422 and "larger than 20 MB" in response.content.decode()
        assert counts() == before

    def test_a_group_you_do_not_manage_is_not_offered_nor_taken(
        self, thursday_friends, gin_table_with_one_hand
    ):
        stranger = _as(UserFactory())
        page = stranger.get("/import/").content.decode()
        assert f"group:{thursday_friends.pk}" not in page and 'data-testid="import-nowhere"' in page
        response = _post(
            stranger, exported(gin_table_with_one_hand), f"group:{thursday_friends.pk}"
        )
        assert response.status_code == 422
        assert not Table.objects.filter(imported_from=gin_table_with_one_hand.pk).exists()

    def test_the_form_needs_its_csrf_token(
        self, group_manager, thursday_friends, gin_table_with_one_hand
    ):
        client = _as(group_manager, enforce_csrf_checks=True)
        response = _post(client, exported(gin_table_with_one_hand), f"group:{thursday_friends.pk}")
        assert response.status_code == 403
        assert not Table.objects.filter(imported_from=gin_table_with_one_hand.pk).exists()

    def test_a_club_admin_imports_and_this_browser_opens_the_table(
        self, world, gin_table_with_one_hand
    ):
        client = _as(world.admin)
        response = _post(client, exported(gin_table_with_one_hand), f"club:{world.club.pk}")
        assert response.status_code == 200
        copy = Table.objects.get(imported_from=gin_table_with_one_hand.pk)
        assert client.get(f"/t/{copy.pk}/").status_code == 200


class TestArchiveUpload:
    def _archive(self, client, group, table) -> bytes:
        Table.objects.filter(pk=table.pk).update(group=group)
        response = client.get(f"/g/{group.pk}/export/", headers={"X-Table-Key": group.member_key})
        return b"".join(response.streaming_content)

    @pytest.mark.parametrize("padding", [0, 3 * 1024 * 1024])
    def test_a_groups_archive_downloaded_then_uploaded_comes_back(
        self, client, group_manager, thursday_friends, gin_table_with_one_hand, padding
    ):
        data = self._archive(client, thursday_friends, gin_table_with_one_hand)
        if padding:
            # Past Django's in-memory limit, the upload is a temporary file on disk.
            out = io.BytesIO(data)
            with zipfile.ZipFile(out, "a") as archive:
                archive.writestr("notes.bin", os.urandom(padding))
            data = out.getvalue()
        other = groups.group_create(
            name="Cousins", players=["anna"], variant="gin", options={}, user=group_manager
        )
        response = _post(_as(group_manager), data, f"group:{other.pk}", "group.zip")
        assert response.status_code == 200, response.content.decode()[-500:]
        assert Table.objects.get(imported_from=gin_table_with_one_hand.pk).group == other
