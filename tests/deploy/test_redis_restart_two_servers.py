"""A Redis restarted from an older save, behind two real gunicorn app servers (README's
Production section: separate processes, one PostgreSQL, one Redis).

A phone joins a table through server A while Redis is down; Redis comes back with the data
it saved before (an RDB file holding older copies of table heads, as a Redis run with
persistence does); the phone is then served by server B: the table it joined opens (no
404), and its next join, through either server, keeps every table it held (no session
written back old: no lock-out). And an idle poll asked since a head that a later save moved
on never answers 204 "no news", from either server, before or after their caches rest.
"""

import html
import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager

import pytest
from django.db import connection

from games.tables import joining
from games.tables.access import Role
from games.tables.models import JoinToken, Table
from tests.deploy.test_two_app_servers import _append, _new_table
from tests.games.pages.test_idle_polls import _poll_address
from tests.games.test_cache_outage import RedisServer
from tests.gunicorn import gunicorn_instance
from tests.ports import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# games.shared.cache.REST_SECONDS in the servers: after Redis fails them, how long they
# leave it alone; the polls below span it twice.
REST_SECONDS = 2.0


class _Phone:
    """One phone's browser: its cookies (the session) sent to either server, as both are
    the site's one address behind a proxy."""

    def __init__(self):
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, url: str, **headers: str) -> tuple[int, str]:
        return self._send(urllib.request.Request(url, headers=headers))

    def join(self, base: str, secret: str) -> int:
        """Join with a link through the /j/ page's form (what its script sends)."""
        status, page = self.get(f"{base}/j/")
        assert status == 200, page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token[1], "link": secret}).encode()
        request = urllib.request.Request(f"{base}/j/", data=body, headers={"Referer": base})
        return self._send(request)[0]

    def _send(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def _link(table_id: str) -> str:
    """Mint a scorekeeper's join link for the table (as its share block does)."""
    table = Table.objects.get(pk=table_id)
    minted = joining.join_token_mint(
        table=table, holder=Role.SCOREKEEPER, role=Role.SCOREKEEPER, kind=JoinToken.Kind.LINK
    )
    return minted.secret


@contextmanager
def _two_servers(tmp_path, redis: RedisServer):
    found = connection.settings_dict
    env = {
        "DATABASE_URL": f"postgres://{found['USER']}@{found['HOST']}:{found['PORT']}/{found['NAME']}",
        "CACHE_URL": redis.url,
        "CELERY_BROKER_URL": "",  # follow-up work runs in the request: no broker here
        "API_THROTTLE_ANON": "100000/min",
        "JOIN_THROTTLE": "1000/min",
    }
    with (
        gunicorn_instance(tmp_path, workers=1, port=free_port(), name="app-a", **env) as (_, a),
        gunicorn_instance(tmp_path, workers=1, port=free_port(), name="app-b", **env) as (_, b),
    ):
        yield a, b


def _poll(phone: _Phone, base: str, poll: str) -> int:
    return phone.get(f"{base}{poll}", **{"HX-Request": "true"})[0]


def test_a_redis_back_from_an_older_save_locks_no_phone_out_and_hides_no_save(
    transactional_db, tmp_path
):
    (tmp_path / "redis").mkdir()
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    try:
        with _two_servers(tmp_path, redis) as (a, b):
            first, second, third = (_new_table(a) for _ in range(3))
            phone = _Phone()
            assert phone.join(a, _link(first["id"])) == 200  # followed to the table's page
            status, page = phone.get(f"{a}/t/{first['id']}/")
            assert status == 200
            poll = html.unescape(_poll_address(page))
            # Both servers answer the idle poll from the cache: nothing new since the head.
            assert _poll(phone, a, poll) == 204 and _poll(phone, b, poll) == 204

            redis.save()  # the snapshot the restart will load: the first table's head is 1
            status, answer = _append(a, first, expected_seq=1)  # head 2, after the save
            assert status == 201, answer
            redis.kill()

            # While Redis is down the phone joins another table through A: its session,
            # in the database, gains the second table.
            assert phone.join(a, _link(second["id"])) == 200
            assert phone.get(f"{a}/t/{second['id']}/")[0] == 200

            redis.start()  # back with the save's data, the first table's old head among it
            # Through B (and A), before and after the servers' caches rest after the restart
            # broke their connections: the tables open, and the poll always has news.
            deadline = time.monotonic() + 2 * REST_SECONDS + 1
            while time.monotonic() < deadline:
                for server in (b, a):
                    assert phone.get(f"{server}/t/{second['id']}/")[0] == 200
                    assert phone.get(f"{server}/t/{first['id']}/")[0] == 200
                    assert _poll(phone, server, poll) == 200
                time.sleep(0.2)

            # The phone's next join, through B, keeps what it held (no lock-out).
            assert phone.join(b, _link(third["id"])) == 200
            for server in (a, b):
                for table in (first, second, third):
                    assert phone.get(f"{server}/t/{table['id']}/")[0] == 200
            # A stranger (no session) still opens none of them.
            stranger = _Phone()
            assert stranger.get(f"{b}/t/{second['id']}/")[0] == 404
    finally:
        if redis.process is not None and redis.process.poll() is None:
            redis.kill()
