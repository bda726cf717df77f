"""Throttles counted atomically (games.shared.throttles): a sliding window's count, places
given back, and bursts of parallel requests across the app's processes held to the rate."""

import json
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory

from games.shared.throttles import CountedRateThrottle
from tests.gunicorn import gunicorn_serving


class Clock:
    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


class TenAMinute(CountedRateThrottle):
    rate = "10/min"
    scope = "test"

    def get_cache_key(self, request, view):
        return "throttle_test_one_client"


def _take(clock: Clock) -> bool:
    throttle = TenAMinute()
    throttle.timer = clock
    return throttle.allow_request(RequestFactory().get("/"), None)


class TestWindows:
    def test_ten_pass_then_none_until_the_minute_has_slid_by(self, db):
        cache.clear()
        clock = Clock(6_000_000.0)  # the start of a minute
        assert [_take(clock) for _ in range(11)] == [True] * 10 + [False]
        # Half way into the next minute the last one still weighs 10 x 0.5 = 5: five more.
        clock.now += 90
        assert [_take(clock) for _ in range(6)] == [True] * 5 + [False]
        # Refused requests took nothing: a minute on, that minute's 5 weigh 5 x 0.5.
        clock.now += 60
        assert sum(_take(clock) for _ in range(10)) == 7  # 10 - 2.5, rounded down

    def test_no_burst_at_a_windows_edge(self, db):
        cache.clear()
        clock = Clock(6_000_059.0)  # a second before a minute ends
        assert sum(_take(clock) for _ in range(10)) == 10
        clock.now += 2  # a second into the next: the last minute still weighs 59/60 of 10
        assert _take(clock) is False

    def test_a_place_given_back_is_free_again(self, db):
        cache.clear()
        clock = Clock(6_000_000.0)
        throttle = TenAMinute()
        throttle.timer = clock
        for _ in range(10):
            assert throttle.allow_request(RequestFactory().get("/"), None)
            throttle.give_back()
        assert sum(_take(clock) for _ in range(12)) == 10


def _status(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _referee(base: str) -> int:
    body = json.dumps({"variant": "gin", "cards": "7S 8S 9S"}).encode()
    headers = {"Content-Type": "application/json"}
    url = f"{base}/api/v1/referee/meld/"
    return _status(urllib.request.Request(url, data=body, headers=headers, method="POST"))


def _join_form(base: str) -> tuple[str, str]:
    """Return the CSRF cookie and the form's token of the join page."""
    with urllib.request.urlopen(f"{base}/join/", timeout=30) as response:
        cookie = response.headers.get("Set-Cookie", "")
        page = response.read().decode()
    csrf_cookie = re.search(r"csrftoken=([^;]+)", cookie).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return csrf_cookie, token


def _guess(base: str, csrf_cookie: str, token: str) -> int:
    body = f"csrfmiddlewaretoken={token}&code=AAAAAA".encode()
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={csrf_cookie}",
    }
    return _status(
        urllib.request.Request(f"{base}/join/", data=body, headers=headers, method="POST")
    )


@pytest.mark.redis
class TestBursts:
    """One client's requests sent 24 at a time to three gunicorn workers (rates per day,
    so no window ends during the test)."""

    def test_the_referee_api_takes_its_rate_and_not_one_more(self, tmp_path, db):
        cache.clear()
        with (
            gunicorn_serving(tmp_path, API_THROTTLE_REFEREE="40/day") as base,
            ThreadPoolExecutor(max_workers=24) as pool,
        ):
            statuses = list(pool.map(lambda _: _referee(base), range(200)))
        assert {code: statuses.count(code) for code in set(statuses)} == {200: 40, 429: 160}

    def test_wrong_join_codes_in_parallel_take_the_rate_and_not_one_more(self, tmp_path, db):
        cache.clear()
        # The workers look codes up in this test's database (PostgreSQL: redis-marked tests
        # run on the real servers).
        found = connection.settings_dict
        database = f"postgres://{found['USER']}@{found['HOST']}:{found['PORT']}/{found['NAME']}"
        with gunicorn_serving(tmp_path, JOIN_THROTTLE="10/day", DATABASE_URL=database) as base:
            csrf_cookie, token = _join_form(base)
            with ThreadPoolExecutor(max_workers=24) as pool:
                statuses = list(pool.map(lambda _: _guess(base, csrf_cookie, token), range(80)))
        assert {code: statuses.count(code) for code in set(statuses)} == {404: 10, 429: 70}
