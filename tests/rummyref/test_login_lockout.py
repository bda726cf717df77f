"""Wrong passwords lock logging in, per account and per address, with a clear message."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from tests.factories import UserWithPasswordFactory

PASSWORD = "pw-12345-xyz"
LIMIT = 20  # LOGIN_FAILURE_LIMIT's default


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    # Dozens of logins per test: the lock-out does not depend on how slowly a password hashes.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def mara(db):
    return UserWithPasswordFactory(username="mara")


def _login(client, username, password, url=None, address="203.0.113.9"):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


class TestLoginLockout:
    def test_twenty_wrong_passwords_lock_the_account_with_a_clear_message(self, client, mara):
        for _ in range(LIMIT - 1):
            assert _login(client, "mara", "wrong").status_code == 200
        locked = _login(client, "mara", "wrong")
        assert locked.status_code == 429
        text = locked.content.decode()
        assert "Logging in is locked: try again in 15 minutes." in text
        assert 'role="alert"' in text

    def test_the_right_password_is_refused_while_the_lock_holds(self, client, mara):
        for _ in range(LIMIT):
            _login(client, "mara", "wrong")
        response = _login(client, "mara", PASSWORD)
        assert response.status_code == 429
        assert "_auth_user_id" not in client.session

    def test_the_right_password_logs_in_once_the_lock_lifts(self, client, mara):
        for _ in range(LIMIT):
            _login(client, "mara", "wrong")
        # Fifteen minutes pass: the attempts are dated back, as the clock would move them.
        AccessAttempt.objects.update(
            attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
        )
        response = _login(client, "mara", PASSWORD)
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(mara.pk)

    def test_one_address_guessing_many_accounts_is_locked_out_of_all(self, client, mara):
        for n in range(LIMIT):
            _login(client, f"guess{n}", "wrong")
        assert _login(client, "mara", PASSWORD).status_code == 429
        # The account itself is not locked for a member on another network.
        assert _login(client, "mara", PASSWORD, address="198.51.100.4").status_code == 302

    def test_the_admin_login_is_locked_the_same_way(self, client, mara):
        admin_login = reverse("admin:login")
        for _ in range(LIMIT):
            _login(client, "mara", "wrong", url=admin_login)
        assert _login(client, "mara", PASSWORD).status_code == 429

    def test_the_message_is_in_italian_for_an_italian_phone(self, client, mara):
        for _ in range(LIMIT):
            _login(client, "mara", "wrong")
        response = client.post(
            reverse("login"),
            {"username": "mara", "password": "wrong"},
            REMOTE_ADDR="203.0.113.9",
            HTTP_ACCEPT_LANGUAGE="it",
        )
        assert "riprova tra 15 minuti" in response.content.decode()


class TestAccountSessions:
    def test_a_signed_in_session_lasts_the_account_days_not_a_year(self, client, mara, settings):
        _login(client, "mara", PASSWORD)
        assert client.session.get_expiry_age() == settings.ACCOUNT_SESSION_DAYS * 24 * 3600
        assert settings.ACCOUNT_SESSION_DAYS == 14

    def test_an_anonymous_phone_keeps_its_session_for_a_season(self, client, db, settings):
        client.get(reverse("home"))
        assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE == 365 * 24 * 3600
