"""Sessions stored by their cookie's digest (games/shared/sessions.py): the cookie still
opens what its session holds, a copy of the database's session rows opens nothing, and the
sessions kept before the change (under the cookie's value) keep working after migration 0021.
"""

import hashlib
import importlib

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client

from games.models import Table
from games.shared.sessions import SessionStore, stored_key
from games.tables.access import SESSION_GRANTS
from tests.factories import PASSWORD, UserWithPasswordFactory
from tests.games.pages.test_pages import _create

pytestmark = pytest.mark.django_db

by_digest = importlib.import_module("games.migrations.0021_sessions_by_digest")


def _phone_with_a_table() -> tuple[Client, Table]:
    phone = Client()
    return phone, _create(phone)


def _signed_in() -> Client:
    UserWithPasswordFactory(username="lia")
    client = Client()
    assert client.post("/accounts/login/", {"username": "lia", "password": PASSWORD}).status_code
    return client


def _dumped_session_keys(tmp_path) -> list[str]:
    """The session keys a dump of the database holds, as an operator's backup would."""
    out = tmp_path / "dump.json"
    call_command("dumpdata", "sessions", output=str(out))
    import json

    return [row["pk"] for row in json.loads(out.read_text())]


class TestTheCookie:
    def test_the_phone_opens_its_table_and_the_account_its_clubs(self):
        phone, table = _phone_with_a_table()
        assert phone.get(f"/t/{table.id}/").status_code == 200
        assert "My clubs" in _signed_in().get("/clubs/").content.decode()

    def test_the_row_is_keyed_by_the_cookies_digest(self):
        phone, _table = _phone_with_a_table()
        cookie = phone.cookies["sessionid"].value
        assert [row.session_key for row in Session.objects.all()] == [
            hashlib.sha256(cookie.encode()).hexdigest()[:40]
        ]

    def test_logging_out_deletes_the_row(self):
        client = _signed_in()
        assert Session.objects.count() == 1
        client.post("/accounts/logout/")
        assert not Session.objects.filter(
            session_key=stored_key(client.cookies["sessionid"].value)
        ).exists()


class TestACopyOfTheDatabase:
    def test_a_dumps_session_rows_replayed_as_cookies_open_nothing(self, tmp_path):
        phone, table = _phone_with_a_table()
        _signed_in()
        keys = _dumped_session_keys(tmp_path)
        assert len(keys) == 2
        for key in keys:
            thief = Client()
            thief.cookies["sessionid"] = key
            assert thief.get(f"/t/{table.id}/").status_code == 404
            clubs = thief.get("/clubs/")
            assert clubs.status_code == 302 and clubs.url.startswith("/accounts/login/")
        # While the phone's own cookie still opens its table.
        assert phone.get(f"/t/{table.id}/").status_code == 200


class TestTheMigration:
    def test_a_session_kept_under_its_cookie_before_keeps_its_tables_after(self):
        _phone, table = _phone_with_a_table()
        # A session as Django's own store kept it: under the cookie's value itself.
        old = SessionStore()
        old[SESSION_GRANTS] = {str(table.id): table.scorekeeper_digest}
        encoded = old.encode(old._session)
        Session.objects.all().delete()
        cookie = "k" * 32
        Session.objects.create(
            session_key=cookie, session_data=encoded, expire_date=old.get_expiry_date()
        )

        def phone() -> Client:
            client = Client()
            client.cookies["sessionid"] = cookie
            return client

        assert phone().get(f"/t/{table.id}/").status_code == 404  # not found by its digest yet
        by_digest.sessions_by_digest(apps, None)
        assert list(Session.objects.values_list("session_key", flat=True)) == [stored_key(cookie)]
        assert phone().get(f"/t/{table.id}/").status_code == 200
        by_digest.sessions_by_digest(apps, None)  # run again: a digest is not hashed twice
        assert list(Session.objects.values_list("session_key", flat=True)) == [stored_key(cookie)]
