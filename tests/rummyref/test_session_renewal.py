"""An anonymous phone's session lasts ANON_SESSION_DAYS from its last use: a used one is
written again, with a fresh cookie, at most once a day (rummyref.security)."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.shared.sessions import stored_key
from games.tables.access import SESSION_GRANTS
from tests.factories import PASSWORD, UserWithPasswordFactory

DAY = timedelta(days=1)
NEW_TABLE = {
    "variant": "gin",
    "gin__preset": "big_gin",
    "gin__target": "100",
    "player_1": "A",
    "player_2": "B",
}


@pytest.fixture
def django_clock(monkeypatch):
    """Django's clock, moved by hand: sessions expire and are renewed by it."""

    class Clock:
        start = timezone.now()
        offset = timedelta(0)

        def __call__(self):
            return self.start + self.offset

    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


@pytest.fixture
def scorekeeper_phone(client, db, django_clock):
    """A phone that opened a table: its session holds the table's scorekeeper key."""
    response = client.post("/", NEW_TABLE)
    assert response.status_code == 302
    client.table_url = response["Location"]
    return client


def _stored_expiry(phone):
    return Session.objects.get(session_key=stored_key(phone.session.session_key)).expire_date


def _later(phone, clock, elapsed: timedelta):
    """Open the phone's table ``elapsed`` after it was created, the session's cached copy
    gone as it would be by then; return the answer."""
    clock.offset = elapsed
    cache.clear()
    return phone.get(phone.table_url)


class TestAnonymousSessionLength:
    def test_a_new_session_lasts_the_anonymous_days(
        self, scorekeeper_phone, django_clock, settings
    ):
        assert settings.ANON_SESSION_DAYS == 30
        assert settings.SESSION_COOKIE_AGE == 30 * 24 * 3600
        assert scorekeeper_phone.session.get_expiry_age() == settings.SESSION_COOKIE_AGE
        assert scorekeeper_phone.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 30 * 24 * 3600
        assert _stored_expiry(scorekeeper_phone) == django_clock() + 30 * DAY

    def test_a_session_unused_for_that_long_lapses_with_its_keys(
        self, scorekeeper_phone, django_clock
    ):
        response = _later(scorekeeper_phone, django_clock, 30 * DAY + timedelta(minutes=1))
        assert response.status_code != 200
        assert SESSION_GRANTS not in scorekeeper_phone.session


class TestRenewal:
    def test_a_use_within_a_day_writes_nothing(self, scorekeeper_phone, django_clock, settings):
        written = _stored_expiry(scorekeeper_phone)
        response = _later(scorekeeper_phone, django_clock, timedelta(hours=23))
        assert response.status_code == 200
        assert settings.SESSION_COOKIE_NAME not in response.cookies
        assert _stored_expiry(scorekeeper_phone) == written

    def test_a_use_a_day_later_extends_the_session_and_its_cookie(
        self, scorekeeper_phone, django_clock, settings
    ):
        response = _later(scorekeeper_phone, django_clock, 2 * DAY)
        assert response.status_code == 200
        cookie = response.cookies[settings.SESSION_COOKIE_NAME]
        assert cookie.value == scorekeeper_phone.session.session_key
        assert cookie["max-age"] == 30 * 24 * 3600
        assert _stored_expiry(scorekeeper_phone) == django_clock() + 30 * DAY
        # ...once: the next use that day writes nothing.
        response = _later(scorekeeper_phone, django_clock, 2 * DAY + timedelta(hours=5))
        assert settings.SESSION_COOKIE_NAME not in response.cookies

    def test_a_phone_used_every_few_weeks_keeps_its_keys(self, scorekeeper_phone, django_clock):
        for week in (3, 6, 9, 12):
            response = _later(scorekeeper_phone, django_clock, week * 7 * DAY)
            assert response.status_code == 200, week
        assert scorekeeper_phone.session[SESSION_GRANTS]

    def test_a_visitor_without_a_session_is_given_none(self, client, db, django_clock, settings):
        response = client.get("/")
        assert response.status_code == 200
        assert settings.SESSION_COOKIE_NAME not in response.cookies
        assert not Session.objects.exists()

    def test_a_signed_in_session_keeps_the_account_days(self, client, db, django_clock, settings):
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        user = UserWithPasswordFactory(username="mara")
        client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
        assert client.session.get_expiry_age() == settings.ACCOUNT_SESSION_DAYS * 24 * 3600
        written = _stored_expiry(client)
        django_clock.offset = 2 * DAY
        response = client.get("/")
        assert settings.SESSION_COOKIE_NAME not in response.cookies
        assert _stored_expiry(client) == written
