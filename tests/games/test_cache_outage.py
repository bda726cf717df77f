"""A shared cache that goes away (games.shared.cache): pages, the API, sessions, logging in
and idle polls keep answering while Redis is down, throttles let requests through, and
counting, the idle polls' heads and the health check come back with Redis.

Each test starts its own redis-server on a free port, stops it mid-test (killed: refused
connections; paused: connections that hang until the timeouts) and starts it again.
"""

import shutil
import signal
import socket
import subprocess
import time
from contextlib import contextmanager

import pytest
import redis
from axes.models import AccessAttempt
from django.core.cache import caches
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from games.shared import cache as shared_cache
from games.shared.cache import cache_reachable
from tests.factories import PASSWORD, SuperUserFactory, UserWithPasswordFactory
from tests.games.pages.test_idle_polls import _poll_address, _record_hand
from tests.games.pages.test_pages import _create
from tests.games.workers import wait_for

REST = 0.3  # seconds the cache rests after a failure (REST_SECONDS), short for the tests


class RedisServer:
    """A redis-server of the test's own, on a free loopback port, without persistence."""

    def __init__(self, directory=None):
        # With a directory, SAVE keeps a snapshot there that a restart loads, as a Redis
        # with persistence does; without one nothing is kept.
        self.directory = directory
        executable = shutil.which("redis-server")
        if executable is None:  # installed on every machine and in CI: never skip quietly
            pytest.fail("redis-server is not installed; these tests need a real one.")
        self.executable = executable
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        command = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        if self.directory is not None:
            command += ["--dir", str(self.directory)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start on port {self.port}.")
                time.sleep(0.05)
            finally:
                client.close()

    def save(self) -> None:
        """Keep a snapshot of what Redis holds now, for the next start to load."""
        client = redis.Redis(port=self.port)
        try:
            client.save()
        finally:
            client.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def redis_server(settings, monkeypatch):
    """Start a redis-server and make it the default cache (throttles' and heads' too)."""
    yield from _serving(RedisServer(), settings, monkeypatch)


@pytest.fixture
def saving_redis_server(settings, monkeypatch, tmp_path):
    """As redis_server, a Redis that loads its last save when it starts again."""
    yield from _serving(RedisServer(tmp_path), settings, monkeypatch)


def _serving(server: RedisServer, settings, monkeypatch):
    server.start()
    monkeypatch.setattr(shared_cache, "REST_SECONDS", REST)
    monkeypatch.setattr(shared_cache, "_outages", {})
    monkeypatch.setattr(shared_cache, "_warned", {})
    settings.CACHES = {
        "default": {
            "BACKEND": "games.shared.cache.ResilientRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "rummyref",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
    yield server
    # This test's processes forget what they lost, so their menders end (a mender left
    # trying a server that is gone would count its failures in the next test's outages).
    for outage in shared_cache._outages.values():
        with outage.lock:
            outage.lost, outage.lost_all = set(), False
        if outage.mender is not None:
            outage.mender.join(timeout=REST * 2 + 1)
    if server.process.poll() is None:
        server.resume()
        server.kill()


def _back(server: RedisServer) -> None:
    """Start Redis again and let the cache's rest run out."""
    server.start()
    time.sleep(REST + 0.1)


def _referee(client: Client) -> int:
    body = {"variant": "gin", "cards": "7S 8S 9S"}
    return client.post("/api/v1/referee/meld/", body, content_type="application/json").status_code


@pytest.fixture
def few_referee_questions(monkeypatch):
    """Five referee questions a day per client."""
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "referee": "5/day"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)


class TestRedisKilled:
    def test_pages_the_api_and_sessions_keep_working(self, redis_server, db):
        phone = Client()
        before = _create(phone)
        assert phone.get("/").status_code == 200
        assert phone.get(f"/t/{before.id}/").status_code == 200
        assert _referee(phone) == 200

        redis_server.kill()
        assert phone.get("/").status_code == 200
        # The session is read from the database: the table made before is still this phone's.
        assert phone.get(f"/t/{before.id}/").status_code == 200
        assert Client().get(f"/t/{before.id}/").status_code == 404  # and nobody else's
        _record_hand(phone, before)
        during = _create(phone)
        assert phone.get(f"/t/{during.id}/").status_code == 200
        assert phone.get(f"/t/{during.id}/tv/").status_code == 200
        assert _referee(phone) == 200
        created = phone.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["Anna", "Bruno"]},
            content_type="application/json",
        )
        assert created.status_code == 201
        state = phone.get(
            f"/api/v1/tables/{created.json()['id']}/state/",
            HTTP_X_TABLE_KEY=created.json()["viewer_key"],
        )
        assert state.status_code == 200

        _back(redis_server)
        assert phone.get(f"/t/{before.id}/").status_code == 200
        assert phone.get(f"/t/{during.id}/").status_code == 200

    def test_a_throttle_lets_requests_through_and_counts_again_when_redis_is_back(
        self, redis_server, few_referee_questions, db, caplog
    ):
        phone = Client()
        assert [_referee(phone) for _ in range(6)] == [200] * 5 + [429]

        redis_server.kill()
        assert [_referee(phone) for _ in range(8)] == [200] * 8
        # One line says so, not one per request.
        uncounted = [r for r in caplog.records if "uncounted" in r.getMessage()]
        unreachable = [r for r in caplog.records if "unreachable" in r.getMessage()]
        assert len(uncounted) == 1 and len(unreachable) == 1

        _back(redis_server)  # an empty Redis: the day's count starts again
        assert [_referee(phone) for _ in range(6)] == [200] * 5 + [429]

    def test_logging_in_and_the_admins_login_keep_working(self, redis_server, db, settings):
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        UserWithPasswordFactory(username="lia")
        SuperUserFactory(username="boss")
        redis_server.kill()

        phone = Client()
        assert phone.get("/accounts/login/").status_code == 200
        wrong = phone.post("/accounts/login/", {"username": "lia", "password": "wrong"})
        assert wrong.status_code == 200  # the form again, with its error
        assert AccessAttempt.objects.filter(username="lia").count() == 1  # axes: the database
        right = phone.post("/accounts/login/", {"username": "lia", "password": PASSWORD})
        assert right.status_code == 302 and right.url == "/clubs/"
        assert "lia" in phone.get("/").content.decode()

        admin = Client()
        assert admin.get("/admin/login/").status_code == 200
        logged_in = admin.post(
            "/admin/login/?next=/admin/", {"username": "boss", "password": PASSWORD}
        )
        assert logged_in.status_code == 302
        assert admin.get("/admin/").status_code == 200

    def test_idle_polls_go_through_the_view_until_redis_is_back(self, redis_server, db):
        phone = Client()
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204  # from the cache

        redis_server.kill()
        # No cached head: the view answers, and checks the key (a stranger has none).
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 404
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204

        _back(redis_server)
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204  # puts the head back
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204

    def test_the_health_check_says_whether_redis_answers(self, redis_server, db):
        assert cache_reachable() is True
        redis_server.kill()
        assert cache_reachable() is False
        _back(redis_server)
        assert cache_reachable() is True


class TestRedisPaused:
    """A Redis that takes connections but answers nothing (paused, or cut off by the
    network): the timeouts bound what it costs, and what it missed is not read back old."""

    def test_it_costs_one_timeout_then_nothing_while_the_cache_rests(
        self, redis_server, db, monkeypatch
    ):
        monkeypatch.setattr(shared_cache, "REST_SECONDS", 60.0)  # no second try in this test
        timeouts = []
        begin = shared_cache._Outage.begin

        def counted(outage, error):
            timeouts.append(type(error).__name__)
            begin(outage, error)

        monkeypatch.setattr(shared_cache._Outage, "begin", counted)
        phone = Client()
        table = _create(phone)
        page = f"/t/{table.id}/"
        assert phone.get(page).status_code == 200 and timeouts == []

        redis_server.pause()
        # The page reads the cache many times; only the first read waits for the timeout,
        # then the process leaves Redis alone while it rests: the next pages wait for none.
        assert phone.get(page).status_code == 200
        assert timeouts == ["TimeoutError"]
        for _ in range(5):
            assert phone.get(page).status_code == 200
        assert timeouts == ["TimeoutError"]

    def test_a_session_changed_meanwhile_is_not_read_back_old(self, redis_server, db):
        phone = Client()
        before = _create(phone)  # the session, with this table's key, is cached in Redis
        assert phone.get(f"/t/{before.id}/").status_code == 200

        redis_server.pause()
        during = _create(phone)  # the session gains a key in the database only
        assert phone.get(f"/t/{during.id}/").status_code == 200

        redis_server.resume()  # Redis still holds the session as it was before the pause
        time.sleep(REST + 0.1)
        assert phone.get(f"/t/{during.id}/").status_code == 200
        assert phone.get(f"/t/{before.id}/").status_code == 200


class OtherProcess:
    """Another app process, in this test: its own cache object (its own connections) and
    its own memory of outages, which starts empty."""

    def __init__(self):
        self.outages: dict = {}
        self.cache = None

    @contextmanager
    def running(self):
        saved_outages, saved_cache = shared_cache._outages, caches["default"]
        shared_cache._outages = self.outages
        if self.cache is None:
            self.cache = caches.create_connection("default")
        caches["default"] = self.cache
        try:
            yield
        finally:
            caches["default"] = saved_cache
            shared_cache._outages = saved_outages

    def poll(self, phone: Client, poll: str) -> int:
        with self.running():
            return phone.get(poll, HTTP_HX_REQUEST="true").status_code


class TestNoOldCopyRead:
    """An idle poll answers 204 only from the head the log has: never from a copy a Redis
    kept while a write could not reach it, in any process."""

    def test_a_head_lost_while_redis_was_paused_is_mended_for_every_process(self, redis_server, db):
        other, phone = OtherProcess(), Client()
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        assert other.poll(phone, poll) == 204
        redis_server.pause()
        _record_hand(phone, table)  # its head, 2, does not reach Redis: this process knows
        redis_server.resume()
        # The other process saw nothing fail, and Redis still says 1. This one deletes what
        # it lost once Redis answers, though no request of its own comes.
        assert wait_for(lambda: other.poll(phone, poll) != 204, timeout=10)
        assert other.poll(phone, poll) == 200

    def test_a_redis_restarted_from_its_save_serves_no_head_older_than_the_log(
        self, saving_redis_server, db
    ):
        other, phone = OtherProcess(), Client()
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        assert other.poll(phone, poll) == 204
        saving_redis_server.save()  # the save holds head 1
        _record_hand(phone, table)  # head 2, in Redis after the save
        saving_redis_server.kill()
        saving_redis_server.start()  # back from its save: its copy of the head says 1 again
        # Neither process reads the save's copy, before its rest after the broken connection
        # or after it.
        for _ in range(4):
            assert other.poll(phone, poll) == 200
            assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 200
            time.sleep(REST / 2)
