"""Throttles hold across the app's processes and cannot be dodged with X-Forwarded-For.

A real gunicorn with three worker processes serves the referee API; one client sends 480
requests. The counters live in the shared cache the settings choose (files on this machine
by default, Redis when CACHE_URL names it, as in CI's second run), so the three processes
together accept the configured 120, not 120 each.

The rate is set per day for these tests: counts are weighed over a sliding window, so a run
that crosses a window's edge on a slow machine would let in a few more than 120 over a
minute's window (what a sliding window is meant to do), and the count would not be exact.
Over a day's window a run of a few minutes moves the weight by less than one request.
"""

import json
import urllib.error
import urllib.request

import pytest
from django.core.cache import cache

from tests.gunicorn import gunicorn_serving

LIMIT = 120  # as API_THROTTLE_REFEREE's default (120/min), counted over a day here
REQUESTS = 480


@pytest.fixture
def gunicorn_with_referee_limit(tmp_path):
    """Serve the app with three gunicorn workers on a free loopback port, no request counted."""
    cache.clear()
    with gunicorn_serving(tmp_path, API_THROTTLE_REFEREE=f"{LIMIT}/day") as base:
        yield base


def _ask(base: str, forwarded_for: str | None = None) -> int:
    headers = {"Content-Type": "application/json"}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    body = json.dumps({"variant": "gin", "cards": "7S 8S 9S"}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/referee/meld/", data=body, headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _count(statuses: list[int]) -> dict[int, int]:
    return {code: statuses.count(code) for code in sorted(set(statuses))}


@pytest.mark.slow
class TestThrottlesAcrossProcesses:
    def test_three_workers_accept_the_configured_number_from_one_client(
        self, gunicorn_with_referee_limit, db
    ):
        statuses = [_ask(gunicorn_with_referee_limit) for _ in range(REQUESTS)]
        assert _count(statuses) == {200: LIMIT, 429: REQUESTS - LIMIT}

    def test_a_new_x_forwarded_for_on_every_request_is_still_one_client(
        self, gunicorn_with_referee_limit, db
    ):
        # A lone address on odd requests, a chain ending in a "trusted" hop on even ones.
        spoofs = [
            f"10.{n // 256}.{n % 256}.7" + ("" if n % 2 else ", 127.0.0.1") for n in range(REQUESTS)
        ]
        statuses = [_ask(gunicorn_with_referee_limit, forwarded_for=spoof) for spoof in spoofs]
        assert _count(statuses) == {200: LIMIT, 429: REQUESTS - LIMIT}
