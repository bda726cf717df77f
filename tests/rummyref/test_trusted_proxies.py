"""X-Forwarded-* counts only from a trusted proxy (TRUSTED_PROXIES): a client that reaches
the app directly cannot choose the address its throttles and login lock-outs count, nor
pose as HTTPS; gunicorn listens on loopback unless told otherwise."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserWithPasswordFactory
from tests.gunicorn import ROOT, gunicorn_serving
from tests.rummyref.test_settings import _manage

# Dozens of sign-ins a test: quick hashing (tests/rummyref/conftest.py).
pytestmark = pytest.mark.usefixtures("fast_password_hashing")

PROXY = "10.0.0.5"  # the reverse proxy: the direct peer of every request it passes on
CLIENT = "203.0.113.9"  # the address the proxy reports
SPOOF = "198.51.100.77"  # what a client writes in its own X-Forwarded-For


@pytest.fixture
def behind_the_proxy(settings):
    """TRUSTED_PROXIES names the proxy (and so, as in settings.py, one proxy hop)."""
    settings.TRUSTED_PROXIES = [PROXY]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}


def _wrong_password(peer: str, forwarded_for: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    return Client().post(
        reverse("login"),
        {"username": "mara", "password": "wrong"},
        REMOTE_ADDR=peer,
        **headers,
    )


def _counted_address() -> str:
    return AccessAttempt.objects.get().ip_address


class TestTheLoginLockOutsAddress:
    def test_without_trusted_proxies_x_forwarded_for_is_ignored(self, db, settings):
        assert settings.TRUSTED_PROXIES == []
        _wrong_password(PROXY, forwarded_for=SPOOF)
        assert _counted_address() == PROXY

    def test_from_a_trusted_proxy_the_forwarded_address_counts(self, db, behind_the_proxy):
        _wrong_password(PROXY, forwarded_for=f"{SPOOF}, {CLIENT}")
        assert _counted_address() == CLIENT

    def test_from_any_other_peer_x_forwarded_for_is_ignored(self, db, behind_the_proxy):
        _wrong_password(CLIENT, forwarded_for=SPOOF)
        assert _counted_address() == CLIENT

    @pytest.mark.parametrize("proxies", [["10.0.0.0/24"], ["::ffff:10.0.0.5/128", "10.0.0.5"]])
    def test_a_trusted_proxy_may_be_named_by_its_network(self, db, settings, proxies):
        settings.TRUSTED_PROXIES = proxies
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
        _wrong_password(PROXY, forwarded_for=CLIENT)
        assert _counted_address() == CLIENT

    def test_a_direct_client_cannot_dodge_its_lock_with_new_addresses(self, db, behind_the_proxy):
        UserWithPasswordFactory(username="mara")
        for n in range(10):  # LOGIN_FAILURE_LIMIT
            _wrong_password(CLIENT, forwarded_for=f"192.0.2.{n}")
        answer = Client().post(
            reverse("login"),
            {"username": "mara", "password": PASSWORD},
            REMOTE_ADDR=CLIENT,
            HTTP_X_FORWARDED_FOR="192.0.2.200",
        )
        assert answer.status_code == 429


class TestForwardedProto:
    @pytest.fixture
    def https_only(self, settings):
        settings.SECURE_SSL_REDIRECT = True
        settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    def test_a_direct_client_cannot_pose_as_https(self, db, https_only, behind_the_proxy):
        answer = Client().get("/", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_PROTO="https")
        assert answer.status_code == 301
        assert answer["Location"].startswith("https://")

    def test_the_trusted_proxy_says_the_request_came_over_https(
        self, db, https_only, behind_the_proxy
    ):
        answer = Client().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https")
        assert answer.status_code == 200


LIMIT = 5


def _referee(base: str, forwarded_for: str) -> int:
    body = json.dumps({"variant": "gin", "cards": "7S 8S 9S"}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/referee/meld/",
        data=body,
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow
class TestThrottlesBehindGunicorn:
    """A real gunicorn on loopback: its peer is always 127.0.0.1."""

    @pytest.mark.parametrize(
        ("trusted", "served"),
        [
            # The proxy on this machine: each forwarded address is its own client.
            ("127.0.0.1", 2 * LIMIT),
            # Another proxy: the peer on loopback is one client, whatever it writes.
            (PROXY, LIMIT),
        ],
    )
    def test_forwarded_addresses_count_only_from_a_trusted_peer(
        self, tmp_path, db, trusted, served
    ):
        cache.clear()
        # An hour's rate: a slow machine's requests never reach into the next window, where
        # the last one's count fades and lets more through.
        env = {"API_THROTTLE_REFEREE": f"{LIMIT}/hour", "TRUSTED_PROXIES": trusted}
        with gunicorn_serving(tmp_path, workers=1, **env) as base:
            statuses = [_referee(base, f"192.0.2.{n}") for n in range(2 * LIMIT)]
        assert statuses.count(200) == served
        assert statuses.count(429) == 2 * LIMIT - served


def _gunicorn_config(**env: str) -> dict[str, str]:
    """Return the settings gunicorn reads from gunicorn.conf.py with ``env`` (only)."""
    dropped = ("GUNICORN_BIND", "TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    printed = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--print-config", "rummyref.wsgi"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return {
        name.strip(): value.strip()
        for name, _, value in (line.partition("=") for line in printed.splitlines())
    }


class TestGunicornDefaults:
    def test_it_listens_on_loopback_and_believes_only_a_local_proxy(self):
        config = _gunicorn_config()
        assert config["bind"] == "['127.0.0.1:8000']"
        assert config["forwarded_allow_ips"] == "['127.0.0.1']"

    def test_the_environment_chooses_the_address_and_the_proxies(self):
        config = _gunicorn_config(GUNICORN_BIND="0.0.0.0:9000", TRUSTED_PROXIES="10.0.0.0/8")
        assert config["bind"] == "['0.0.0.0:9000']"
        assert config["forwarded_allow_ips"] == "['10.0.0.0/8']"


class TestProxySettings:
    def test_a_count_of_proxies_without_their_addresses_stops_start_up(self):
        result = _manage("check", NUM_PROXIES="1")
        assert result.returncode != 0
        assert "TRUSTED_PROXIES" in result.stderr

    def test_an_address_that_is_not_one_stops_start_up(self):
        result = _manage("check", TRUSTED_PROXIES="10.0.0.5,proxy.example.org")
        assert result.returncode != 0
        assert "'proxy.example.org' is not an IP address or network" in result.stderr
