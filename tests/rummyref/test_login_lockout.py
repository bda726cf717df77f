"""How long a session lasts, signed in or not (the lock-out itself: test_login_guard.py)."""

import pytest
from django.urls import reverse

# Dozens of sign-ins a test: quick hashing (tests/rummyref/conftest.py).
pytestmark = pytest.mark.usefixtures("fast_password_hashing")

PASSWORD = "pw-12345-xyz"


def _login(client, username, password, url=None, address="203.0.113.9"):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


class TestAccountSessions:
    def test_a_signed_in_session_lasts_the_account_days_not_a_year(self, client, mara, settings):
        _login(client, "mara", PASSWORD)
        assert client.session.get_expiry_age() == settings.ACCOUNT_SESSION_DAYS * 24 * 3600
        assert settings.ACCOUNT_SESSION_DAYS == 14

    def test_an_anonymous_phone_keeps_its_session_a_month_from_its_last_use(
        self, client, db, settings
    ):
        # Renewed while used: tests/rummyref/test_session_renewal.py.
        new_table = {
            "variant": "gin",
            "gin__preset": "big_gin",
            "gin__target": "100",
            "player_1": "A",
            "player_2": "B",
        }
        assert client.post(reverse("home"), new_table).status_code == 302
        assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE == 30 * 24 * 3600
        assert settings.ANON_SESSION_DAYS == 30
