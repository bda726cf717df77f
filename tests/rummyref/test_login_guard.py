"""The login guard (games.pages.login_guard): wrong passwords lock one account from one
address, or one address for every account, never an account everywhere; a browser that
logged in to the account before is never locked, only slowed by its own mistakes; the reset
mail still reaches a locked account; the admin's login follows the same rules."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.pages import login_guard
from games.shared.cache import CacheUnavailable
from tests.factories import PASSWORD, SuperUserFactory, UserWithPasswordFactory

# Dozens of sign-ins a test: quick hashing (tests/rummyref/conftest.py).
pytestmark = pytest.mark.usefixtures("fast_password_hashing")

ACCOUNT_LIMIT = 10  # LOGIN_FAILURE_LIMIT's default: one account from one address
ADDRESS_LIMIT = 30  # LOGIN_ADDRESS_FAILURE_LIMIT's default: one address, all accounts
HOME = "203.0.113.9"  # the address the guessing comes from
AWAY = "198.51.100.4"
LOCKED = "Logging in is locked: try again in 15 minutes."


@pytest.fixture
def guard_clock(monkeypatch):
    """The guard's clock, moved by hand: a known device's waits pass without sleeping."""

    class Clock:
        now = 1_900_000_000.0

        def __call__(self):
            return self.now

    clock = Clock()
    monkeypatch.setattr(login_guard, "_clock", clock)
    return clock


def _login(client, username, password, *, address=HOME, url=None):
    return client.post(
        url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def _phone_of(user, *, address=HOME, url=None) -> Client:
    """Return a browser that logged in to ``user``'s account once and was then closed (its
    session gone, its device cookie kept)."""
    phone = Client()
    assert _login(phone, user.username, PASSWORD, address=address, url=url).status_code == 302
    assert phone.cookies[login_guard.DEVICE_COOKIE]["httponly"]
    del phone.cookies[settings.SESSION_COOKIE_NAME]
    return phone


def _lock_address(client, *, address=HOME):
    """Lock ``address`` for every account: wrong passwords for many accounts from it."""
    for n in range(ADDRESS_LIMIT):
        _login(client, f"guess{n}", "wrong", address=address)


class TestOneAccountFromOneAddress:
    def test_ten_wrong_passwords_lock_it_with_a_clear_message(self, client, mara):
        for _ in range(ACCOUNT_LIMIT - 1):
            assert _login(client, "mara", "wrong").status_code == 200
        locked = _login(client, "mara", "wrong")
        assert locked.status_code == 429
        assert locked["Retry-After"] == "900"
        assert LOCKED in locked.content.decode()
        assert 'role="alert"' in locked.content.decode()
        refused = _login(client, "mara", PASSWORD)
        assert refused.status_code == 429
        assert not _logged_in(client)

    def test_the_player_still_logs_in_from_another_address(self, client, mara):
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        player = Client()
        assert _login(player, "mara", PASSWORD, address=AWAY).status_code == 302
        assert _logged_in(player)

    def test_other_accounts_still_log_in_from_that_address(self, client, mara):
        luca = UserWithPasswordFactory(username="luca")
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        neighbour = Client()
        assert _login(neighbour, luca.username, PASSWORD).status_code == 302

    def test_the_lock_lifts_after_fifteen_minutes(self, client, mara):
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        # Fifteen minutes pass: the attempts are dated back, as the clock would move them.
        AccessAttempt.objects.update(
            attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
        )
        assert _login(client, "mara", PASSWORD).status_code == 302
        assert client.session["_auth_user_id"] == str(mara.pk)

    def test_refused_tries_do_not_push_the_lock_further(self, client, mara):
        for _ in range(ACCOUNT_LIMIT + 5):
            _login(client, "mara", "wrong")
        assert AccessAttempt.objects.get().failures_since_start == ACCOUNT_LIMIT


class TestOneAddressForManyAccounts:
    def test_thirty_wrong_passwords_across_accounts_lock_the_address(self, client, mara):
        for n in range(ADDRESS_LIMIT - 1):
            assert _login(client, f"guess{n}", "wrong").status_code == 200
        assert _login(client, "guess-last", "wrong").status_code == 429
        assert _login(client, "mara", PASSWORD).status_code == 429
        # The accounts themselves are not locked for their players on other networks.
        assert _login(Client(), "mara", PASSWORD, address=AWAY).status_code == 302

    def test_logging_in_to_ones_own_account_does_not_clear_the_addresss_count(self, client, db):
        eve = UserWithPasswordFactory(username="eve")
        for n in range(ADDRESS_LIMIT - 1):
            _login(client, f"guess{n}", "wrong")
        assert _login(client, eve.username, PASSWORD).status_code == 302
        client.logout()
        assert _login(client, "guess-last", "wrong").status_code == 429

    def test_a_login_clears_that_accounts_count_from_that_address(self, client, mara):
        for _ in range(ACCOUNT_LIMIT - 1):
            _login(client, "mara", "wrong")
        assert _login(client, "mara", PASSWORD).status_code == 302
        client.logout()
        for _ in range(ACCOUNT_LIMIT - 1):
            assert _login(client, "mara", "wrong").status_code == 200


class TestAKnownDevice:
    def test_logging_in_gives_the_browser_a_device_cookie_for_a_year(self, client, mara):
        _login(client, "mara", PASSWORD)
        cookie = client.cookies[login_guard.DEVICE_COOKIE]
        assert cookie["max-age"] == 365 * 24 * 3600
        assert cookie["samesite"] == "Lax"

    def test_signing_up_gives_one_too(self, client, db):
        password = "seven-Spades-on-the-stock"
        form = {"username": "lia", "password1": password, "password2": password}
        assert client.post(reverse("signup"), form, REMOTE_ADDR=HOME).status_code == 302
        assert login_guard.DEVICE_COOKIE in client.cookies

    def test_the_players_phone_logs_in_whatever_others_guessed(self, client, mara):
        phone = _phone_of(mara)
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        _lock_address(client)
        assert _login(client, "mara", PASSWORD).status_code == 429  # any other browser
        assert _login(phone, "mara", PASSWORD).status_code == 302
        assert phone.session["_auth_user_id"] == str(mara.pk)

    def test_its_own_wrong_passwords_make_it_wait_longer_each_time(self, mara, guard_clock):
        phone = _phone_of(mara)
        for wait in (1, 2, 4):
            assert _login(phone, "mara", "wrong").status_code == 200  # the form's own error
            early = _login(phone, "mara", PASSWORD)
            assert early.status_code == 429
            assert early["Retry-After"] == str(wait)
            unit = "second" if wait == 1 else "seconds"
            assert f"wait {wait} {unit} before trying again" in early.content.decode()
            assert not _logged_in(phone)
            guard_clock.now += wait
        # The wait over, the right password lets the player in, and the waits start again.
        assert _login(phone, "mara", PASSWORD).status_code == 302
        del phone.cookies[settings.SESSION_COOKIE_NAME]
        assert _login(phone, "mara", "wrong").status_code == 200
        assert _login(phone, "mara", "wrong")["Retry-After"] == "1"

    def test_the_wait_stops_at_the_lock_outs_length(self, mara, guard_clock):
        phone = _phone_of(mara)
        for _ in range(14):
            assert _login(phone, "mara", "wrong").status_code == 200
            guard_clock.now += 15 * 60
        assert _login(phone, "mara", "wrong").status_code == 200
        assert _login(phone, "mara", PASSWORD)["Retry-After"] == "900"

    def test_its_cookie_opens_no_lock_of_another_account(self, client, mara):
        luca = UserWithPasswordFactory(username="luca")
        phone = _phone_of(mara)
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "luca", "wrong")
        assert _login(phone, luca.username, PASSWORD).status_code == 429

    def test_a_new_password_retires_the_cookie(self, client, mara):
        phone = _phone_of(mara)
        mara.set_password("a-new-one-after-a-reset")
        mara.save()
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        assert _login(phone, "mara", "a-new-one-after-a-reset").status_code == 429

    def test_a_forged_cookie_is_no_device(self, client, mara):
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        client.cookies[login_guard.DEVICE_COOKIE] = "eyJ1IjoxfQ:forged:signature"
        assert _login(client, "mara", PASSWORD).status_code == 429

    def test_while_the_cache_is_down_it_is_under_the_locks_as_any_browser(
        self, client, mara, monkeypatch
    ):
        phone = _phone_of(mara)
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")

        def unreachable(device):
            raise CacheUnavailable

        monkeypatch.setattr(login_guard, "_device_wait", unreachable)
        assert _login(phone, "mara", PASSWORD).status_code == 429
        assert _login(phone, "mara", PASSWORD, address=AWAY).status_code == 302


@pytest.mark.usefixtures("eager_celery")
class TestTheWayBack:
    def test_the_reset_mail_reaches_a_locked_account(
        self, client, mara, django_capture_on_commit_callbacks
    ):
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        _lock_address(client)
        assert _login(client, "mara", PASSWORD).status_code == 429
        with django_capture_on_commit_callbacks(execute=True):
            asked = client.post(reverse("password_reset"), {"email": mara.email}, REMOTE_ADDR=HOME)
        assert (asked.status_code, asked.url) == (302, reverse("password_reset_done"))
        assert [message.to for message in mail.outbox] == [[mara.email]]

    def test_the_message_is_in_italian_for_an_italian_phone(self, client, mara):
        for _ in range(ACCOUNT_LIMIT):
            _login(client, "mara", "wrong")
        response = client.post(
            reverse("login"),
            {"username": "mara", "password": "wrong"},
            REMOTE_ADDR=HOME,
            HTTP_ACCEPT_LANGUAGE="it",
        )
        assert "riprova tra 15 minuti" in response.content.decode()


class TestTheAdminLogin:
    ADMIN_LOGIN = "/admin/login/"

    def test_it_counts_and_locks_as_the_login_page_does(self, client, db):
        boss = SuperUserFactory()
        for _ in range(ACCOUNT_LIMIT - 1):
            assert _login(client, boss.username, "wrong", url=self.ADMIN_LOGIN).status_code == 200
        assert _login(client, boss.username, "wrong", url=self.ADMIN_LOGIN).status_code == 429
        assert _login(client, boss.username, PASSWORD, url=self.ADMIN_LOGIN).status_code == 429
        assert _login(client, boss.username, PASSWORD).status_code == 429  # the same count
        away = Client()
        assert (
            _login(away, boss.username, PASSWORD, address=AWAY, url=self.ADMIN_LOGIN).status_code
            == 302
        )
        assert away.get("/admin/").status_code == 200

    def test_an_address_locked_on_the_login_page_is_locked_there_too(self, client, db):
        boss = SuperUserFactory()
        _lock_address(client)
        assert _login(client, boss.username, PASSWORD, url=self.ADMIN_LOGIN).status_code == 429

    def test_the_staffs_own_browser_gets_in_despite_the_locks(self, client, db):
        boss = SuperUserFactory()
        laptop = _phone_of(boss, url=self.ADMIN_LOGIN)
        for _ in range(ACCOUNT_LIMIT):
            _login(client, boss.username, "wrong", url=self.ADMIN_LOGIN)
        _lock_address(client)
        assert _login(laptop, boss.username, PASSWORD, url=self.ADMIN_LOGIN).status_code == 302
        assert laptop.get("/admin/").status_code == 200
