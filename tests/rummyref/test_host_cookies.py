"""In production the session and CSRF cookies are __Host- cookies: Secure, for path / and
without a Domain, so no other host of the domain, nor plain HTTP, can set or shadow them.
Local runs keep the plain names."""

import json
import re

import pytest
from django.test import Client

from tests.rummyref.test_settings import _manage

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 30 + "-production-secret-from-the-environment",
    "LOG_CHAIN_KEY": "c" * 16 + "-log-chain-secret-from-the-environment",
    "ALLOWED_HOSTS": "testserver",
}
COOKIE_SETTINGS = [
    f"{kind}_COOKIE_{part}"
    for kind in ("SESSION", "CSRF")
    for part in ("NAME", "SECURE", "PATH", "DOMAIN")
]
NEW_TABLE = {
    "variant": "gin",
    "gin__preset": "big_gin",
    "gin__target": "100",
    "player_1": "A",
    "player_2": "B",
}


@pytest.fixture(scope="module")
def production_cookies() -> dict:
    """The cookie settings settings.py makes with DEBUG=0."""
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {COOKIE_SETTINGS!r}}}))"
    )
    result = _manage("shell", "-c", code, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


class TestProductionCookies:
    def test_production_names_both_cookies_host_only(self, production_cookies):
        assert production_cookies == {
            "SESSION_COOKIE_NAME": "__Host-sessionid",
            "SESSION_COOKIE_SECURE": True,
            "SESSION_COOKIE_PATH": "/",
            "SESSION_COOKIE_DOMAIN": None,
            "CSRF_COOKIE_NAME": "__Host-csrftoken",
            "CSRF_COOKIE_SECURE": True,
            "CSRF_COOKIE_PATH": "/",
            "CSRF_COOKIE_DOMAIN": None,
        }

    def test_a_phone_opens_a_table_with_them_csrf_checked(self, production_cookies, settings, db):
        for name, value in production_cookies.items():
            setattr(settings, name, value)
        phone = Client(enforce_csrf_checks=True)
        page = phone.get("/", secure=True)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        form = {**NEW_TABLE, "csrfmiddlewaretoken": token}
        created = phone.post("/", form, secure=True, HTTP_REFERER="https://testserver/")
        assert created.status_code == 302
        for name in ("__Host-csrftoken", "__Host-sessionid"):
            header = phone.cookies[name].output()
            assert "; Secure" in header, header
            assert "; Path=/" in header, header
            assert "Domain" not in header, header
        assert "sessionid" not in phone.cookies
        assert "csrftoken" not in phone.cookies
        # The session is read back by its new name: the phone's key opens the table.
        assert phone.get(created["Location"], secure=True).status_code == 200


class TestARunningSiteKeepsItsNames:
    def test_host_cookies_off_keeps_the_plain_names(self):
        code = (
            "from django.conf import settings; "
            "print(settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)"
        )
        result = _manage("shell", "-c", code, **PRODUCTION, HOST_COOKIES="0")
        assert result.returncode == 0, result.stderr
        assert result.stdout.split()[-2:] == ["sessionid", "csrftoken"]


class TestLocalCookies:
    def test_local_runs_keep_the_plain_names(self, settings):
        # These tests' settings were read without DEBUG=0 (the test runner turns DEBUG off
        # only afterwards).
        assert settings.SESSION_COOKIE_NAME == "sessionid"
        assert settings.CSRF_COOKIE_NAME == "csrftoken"
