"""Table keys and invite tokens are kept only as SHA-256 digests: the rows hold no secret,
the API hands the keys out once, X-Table-Key still opens a table, and tables and invites
made before the change keep working with the keys people hold."""

import hashlib
import re

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from games.clubs import services as club_services
from games.models import Invite, Table
from games.tables.access import LEGACY_SESSION_KEYS, SESSION_GRANTS
from tests.factories import ClubFactory, TableFactory, UserFactory, owner_of
from tests.payloads import quick

BEFORE = ("games", "0007_keyed_log_chain")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _row(model, pk) -> dict:
    """Return a row as the database holds it, every column by name."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT * FROM {table} WHERE id = %s",
            [model._meta.pk.get_db_prep_value(pk, connection)],
        )
        names = [column[0] for column in cursor.description]
        return dict(zip(names, cursor.fetchone(), strict=True))


@pytest.mark.django_db
class TestKeysAtRest:
    def test_the_table_row_holds_the_keys_digests_and_never_the_keys(self):
        table = TableFactory()
        row = _row(Table, table.pk)
        stored = " ".join(str(value) for value in row.values())
        assert table.scorekeeper_key not in stored and table.viewer_key not in stored
        assert row["scorekeeper_digest"] == _sha256(table.scorekeeper_key)
        assert row["viewer_digest"] == _sha256(table.viewer_key)
        assert "scorekeeper_key" not in row and "viewer_key" not in row

    def test_a_key_read_back_from_the_database_is_gone(self):
        table = Table.objects.get(pk=TableFactory().pk)
        assert not hasattr(table, "scorekeeper_key") and not hasattr(table, "viewer_key")

    def test_the_database_refuses_a_plaintext_key_or_equal_digests(self):
        table = TableFactory()
        with pytest.raises(IntegrityError), transaction.atomic():
            Table.objects.filter(pk=table.pk).update(scorekeeper_digest=table.scorekeeper_key)
        with pytest.raises(IntegrityError), transaction.atomic():
            Table.objects.filter(pk=table.pk).update(viewer_digest=table.scorekeeper_digest)

    def test_the_invite_row_holds_the_tokens_digest_and_acceptance_still_works(self):
        club = ClubFactory()
        invite = club_services.invite_create(actor=owner_of(club), club_id=club.pk)
        row = _row(Invite, invite.pk)
        assert invite.token not in " ".join(str(value) for value in row.values())
        assert row["token_digest"] == _sha256(invite.token)
        newcomer = UserFactory()
        membership = club_services.invite_accept(token=invite.token, user=newcomer)
        assert membership.club_id == club.pk
        with pytest.raises(Invite.DoesNotExist):
            club_services.invite_accept(token=row["token_digest"], user=UserFactory())


@pytest.mark.django_db
class TestTheApiWithHashedKeys:
    def test_the_create_answer_is_the_only_one_that_holds_the_keys(self, api_gin_table):
        api = APIClient()
        key = api_gin_table["scorekeeper_key"]
        assert len(key) == 43 and api_gin_table["viewer_key"] != key
        for path in ("", "state/", "events/"):
            body = api.get(f"/api/v1/tables/{api_gin_table['id']}/{path}", HTTP_X_TABLE_KEY=key)
            assert body.status_code == 200
            assert key not in body.content.decode()
            assert api_gin_table["viewer_key"] not in body.content.decode()
        listed = api.get("/api/v1/tables/", HTTP_X_TABLE_KEY=key).content.decode()
        assert api_gin_table["id"] in listed and key not in listed

    def test_x_table_key_records_reads_and_a_wrong_key_is_refused(self, api_gin_table):
        api = APIClient()
        url = f"/api/v1/tables/{api_gin_table['id']}/events/"
        event = {"event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10", "expected_seq": 1}
        event.update(type="hand_recorded", payload=quick(0, "knock", 7, 20))
        viewer = api.post(url, event, format="json", HTTP_X_TABLE_KEY=api_gin_table["viewer_key"])
        assert viewer.status_code == 403
        digest = _sha256(api_gin_table["scorekeeper_key"])
        # The digest the database holds is no key: presenting it opens nothing.
        assert api.get(url, HTTP_X_TABLE_KEY=digest).status_code == 404
        assert (
            api.get(url, HTTP_X_TABLE_KEY=api_gin_table["scorekeeper_key"][:-1]).status_code == 404
        )
        ok = api.post(url, event, format="json", HTTP_X_TABLE_KEY=api_gin_table["scorekeeper_key"])
        assert ok.status_code == 201


@pytest.mark.django_db
class TestTheSession:
    def test_the_creating_browser_keeps_the_keys_digest_not_the_key(self):
        phone = Client()
        data = {"variant": "gin", "gin__preset": "big_gin", "gin__target": "100"}
        data.update(player_1="Anna", player_2="Bruno")
        response = phone.post("/", data)
        table = Table.objects.get(pk=response.url.split("/")[2])
        assert phone.session[SESSION_GRANTS] == {str(table.id): table.scorekeeper_digest}

    def test_a_session_from_before_with_a_plain_key_still_opens_its_table(self):
        table = TableFactory()
        phone = Client()
        session = phone.session
        session[LEGACY_SESSION_KEYS] = {str(table.id): table.scorekeeper_key}
        session.save()
        page = phone.get(f"/t/{table.id}/")
        assert page.status_code == 200 and "Record a hand" in page.content.decode()
        # Read once, the plain key is replaced by its digest.
        assert LEGACY_SESSION_KEYS not in phone.session
        assert phone.session[SESSION_GRANTS] == {str(table.id): table.scorekeeper_digest}


@pytest.mark.django_db(transaction=True)
class TestTheHashingMigration:
    @pytest.mark.slow
    def test_a_table_and_an_invite_made_before_keep_working_with_their_old_secrets(self):
        table = TableFactory()
        club = ClubFactory()
        invite = club_services.invite_create(actor=owner_of(club), club_id=club.pk)
        old_key, old_viewer, old_token = "S" * 43, "V" * 43, "I" * 43
        executor = MigrationExecutor(connection)
        latest = executor.loader.graph.leaf_nodes()
        try:
            executor.migrate([BEFORE])
            old = executor.loader.project_state([BEFORE]).apps
            # Before the change the keys were stored as they are, as links carry them.
            old.get_model("games", "Table").objects.filter(pk=table.pk).update(
                scorekeeper_key=old_key, viewer_key=old_viewer
            )
            old.get_model("games", "Invite").objects.filter(pk=invite.pk).update(token=old_token)
        finally:
            executor = MigrationExecutor(connection)
            executor.migrate(latest)

        row = _row(Table, table.pk)
        assert row["scorekeeper_digest"] == _sha256(old_key)
        assert old_key not in " ".join(str(value) for value in row.values())
        phone = Client()
        response = phone.get(f"/t/{table.id}/join/{old_key}/")
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        assert "Record a hand" in phone.get(f"/t/{table.id}/").content.decode()
        api = APIClient()
        answer = api.get(f"/api/v1/tables/{table.id}/", HTTP_X_TABLE_KEY=old_viewer)
        assert answer.status_code == 200 and answer.json()["role"] == "viewer"
        newcomer = UserFactory()
        assert club_services.invite_accept(token=old_token, user=newcomer).club_id == club.pk


@pytest.mark.django_db
class TestTheInviteLinkIsShownOnce:
    def test_only_to_its_maker_only_at_its_club_and_only_once(self, world):
        admin = Client()
        admin.force_login(world.admin)
        elsewhere = ClubFactory(owner=world.admin)
        made = admin.post(
            f"/clubs/{world.club.slug}/invites/", {"role": "member", "max_uses": "1", "days": "7"}
        )
        link = re.compile(r'value="http://testserver/invite/#[\w-]{43}"')
        assert link.search(made.content.decode())
        assert not link.search(admin.get(f"/clubs/{elsewhere.slug}/").content.decode())
        owner = Client()
        owner.force_login(world.owner)
        assert not link.search(owner.get(f"/clubs/{world.club.slug}/").content.decode())
        assert not link.search(admin.get(f"/clubs/{world.club.slug}/").content.decode())
