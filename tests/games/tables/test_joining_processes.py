"""The /join/ page's limit on wrong codes holds across the app's processes: a real gunicorn
with three workers, one client trying 30 wrong codes, and only JOIN_THROTTLE's 10 are
looked up. The counter lives in the shared cache the settings choose (files on this machine,
or Redis when CACHE_URL names it)."""

import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.core.cache import cache

from tests.gunicorn import ROOT, gunicorn_serving

LIMIT = 10  # JOIN_THROTTLE's default: 10/min
TRIES = 30


@pytest.fixture
def gunicorn_on_its_own_sqlite(tmp_path):
    """Serve the app with three workers on a database of its own, no try counted yet."""
    cache.clear()
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "JOIN_THROTTLE": "10/min"}
    env["CACHE_DIR"] = os.environ.get("CACHE_DIR", str(tmp_path / "cache"))
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    subprocess.run(
        migrate, cwd=ROOT, env={**os.environ, **env}, check=True, capture_output=True, timeout=300
    )
    with gunicorn_serving(tmp_path, **env) as base:
        yield base


def _phone(base: str):
    """Return a function that types a code at /join/ as one browser (cookies, CSRF token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/join/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def try_code(code: str) -> int:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "code": code}).encode()
        request = urllib.request.Request(f"{base}/join/", data=body, headers={"Referer": base})
        try:
            with opener.open(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    return try_code


@pytest.mark.slow
class TestWrongCodesAcrossProcesses:
    def test_three_workers_look_up_only_the_configured_number_of_wrong_codes(
        self, gunicorn_on_its_own_sqlite
    ):
        try_code = _phone(gunicorn_on_its_own_sqlite)
        statuses = [try_code(f"AAA{n:03d}".replace("0", "C")) for n in range(TRIES)]
        assert statuses.count(404) == LIMIT
        assert statuses.count(429) == TRIES - LIMIT
        # Another browser on the same address has no tries left either.
        assert _phone(gunicorn_on_its_own_sqlite)("AAAAAA") == 429
