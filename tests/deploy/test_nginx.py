"""deploy/nginx/rummyref.conf, the nginx site we ship, in a real nginx in front of a real
gunicorn: slow clients cost gunicorn nothing (nginx reads whole bodies first), static files
never reach the app, bodies past the import limit stop at nginx, the app sees the client's
address and HTTPS as nginx saw them, and the access log keeps no secret of a path."""

import json
import socket
import ssl
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager, suppress

import pytest
from django.conf import settings

from tests.deploy.nginx import SITE_FILE, nginx_serving
from tests.gunicorn import ROOT, gunicorn_instance

TLS = ssl._create_unverified_context()  # the test's own self-signed certificate
SLOW_THROUGH_NGINX = 100
SLOW_DIRECT = 30
# Far more than any answer takes; a request queued behind slow bodies waits for them to end
# (minutes at a byte every 2 s), so this bound tells a hang from an answer.
ANSWER_BOUND = 20
HANG_PROBE = 5


def _get(url: str, *, timeout: float = ANSWER_BOUND, headers: dict | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=TLS) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def _post(url: str, body: bytes, *, headers: dict | None = None):
    request = urllib.request.Request(url, data=body, headers=headers or {}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=ANSWER_BOUND, context=TLS) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class _SlowBodies:
    """POSTs whose bodies come one byte every 2 seconds, fed by a thread of their own."""

    HEAD = (
        b"POST /join/ HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
    )

    def __init__(self):
        self.sockets = []
        # A TLS connection is not read and written at once from two threads.
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def feed(self):
        while not self.stop.wait(2):
            with self.lock:
                for sock in self.sockets:
                    with suppress(OSError):  # the server ended it: what is checked
                        sock.sendall(b"c")

    def unanswered(self) -> int:
        """Return how many of them the server holds open without having answered."""
        waiting = 0
        with self.lock:
            for sock in self.sockets:
                sock.setblocking(False)
                try:
                    sock.recv(1)  # an answer, or the end of the connection
                except (BlockingIOError, ssl.SSLWantReadError):
                    waiting += 1
                except OSError:
                    pass
                finally:
                    sock.settimeout(10)
        return waiting


@contextmanager
def _slow_bodies(port: int, count: int, *, tls: bool):
    """Open ``count`` slow POSTs to ``port``; yield them (a _SlowBodies). Each comes from an
    address of its own (127.0.1.x, on the loopback too), as phones would: the site's limits
    per address are tests/deploy/test_nginx_limits.py's."""
    slow = _SlowBodies()
    try:
        for n in range(count):
            source = (f"127.0.1.{n % 250 + 1}", 0)
            sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=source)
            if tls:
                sock = TLS.wrap_socket(sock, server_hostname="localhost")
            sock.sendall(slow.HEAD + b"c")
            slow.sockets.append(sock)
        threading.Thread(target=slow.feed, daemon=True).start()
        yield slow
    finally:
        slow.stop.set()
        with slow.lock:
            for sock in slow.sockets:
                sock.close()


def _logged(nginx, text: str) -> str:
    """Return the access log's line that holds ``text`` (nginx writes it as the request
    ends, which may be just after the client has its answer)."""
    for _ in range(50):
        found = [line for line in nginx.access_log().splitlines() if text in line]
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError(f"{text!r} is not in the access log:\n{nginx.access_log()}")


def _served(base: str) -> bool:
    """Tell whether the rules page (no database needed) is answered within HANG_PROBE s."""
    try:
        return _get(f"{base}/rules/", timeout=HANG_PROBE)[0] == 200
    except (TimeoutError, urllib.error.URLError):
        return False


class TestSlowClients:
    def test_slow_bodies_hold_up_gunicorn_alone_but_not_behind_nginx(self, tmp_path):
        # One process with two threads: few enough that slow bodies sent straight to it take
        # every thread (a byte every 2 s keeps gunicorn reading), the failure nginx prevents.
        env = {"GUNICORN_THREADS": "2", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
        with gunicorn_instance(tmp_path, workers=1, **env) as (_server, base):
            port = int(base.rsplit(":", 1)[1])
            with _slow_bodies(port, SLOW_DIRECT, tls=False):
                assert not _served(base), "gunicorn alone answered while its threads were held"
            # The slow clients gone, gunicorn answers again.
            assert _get(f"{base}/rules/")[0] == 200

            with (
                nginx_serving(tmp_path, [f"127.0.0.1:{port}"]) as nginx,
                _slow_bodies(nginx.https_port, SLOW_THROUGH_NGINX, tls=True) as slow,
            ):
                status, _headers, _body = _get(f"{nginx.base}/rules/")
                assert status == 200
                # ...while nginx still holds every slow client, unanswered.
                assert slow.unanswered() == SLOW_THROUGH_NGINX


@pytest.fixture(scope="class")
def nginx_before_gunicorn(tmp_path_factory):
    """gunicorn (referee API limited to 5 a minute per client) behind the shipped site."""
    folder = tmp_path_factory.mktemp("nginx-site")
    env = {
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "TRUSTED_PROXIES": "127.0.0.1",
        "API_THROTTLE_REFEREE": "5/min",
    }
    with ExitStack() as stack:
        _server, base = stack.enter_context(gunicorn_instance(folder, workers=1, **env))
        port = base.rsplit(":", 1)[1]
        yield stack.enter_context(nginx_serving(folder, [f"127.0.0.1:{port}"]))


def _client_max_body_size() -> int:
    for line in SITE_FILE.read_text().splitlines():
        words = line.split()
        if words and words[0] == "client_max_body_size":
            value = words[1].rstrip(";")
            assert value.endswith("m")
            return int(value[:-1]) * 1024 * 1024
    raise AssertionError("client_max_body_size is not set")


class TestTheShippedSite:
    def test_static_files_are_served_by_nginx(self, nginx_before_gunicorn):
        status, headers, body = _get(f"{nginx_before_gunicorn.base}/static/css/app.css")
        assert status == 200
        assert body == (ROOT / "static" / "css" / "app.css").read_bytes()
        assert headers["Cache-Control"] == "public, max-age=3600"
        # nginx answered it: gunicorn's pages would carry the app's security headers.
        assert "Content-Security-Policy" not in headers
        assert "upstream=- " in _logged(nginx_before_gunicorn, "GET /static/css/app.css ")

    def test_plain_http_is_sent_to_https(self, nginx_before_gunicorn):
        connection = socket.create_connection(
            ("127.0.0.1", nginx_before_gunicorn.http_port), timeout=10
        )
        with connection:
            connection.sendall(b"GET /rules/?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            head = connection.recv(4096).decode()
        assert head.startswith("HTTP/1.1 301")
        assert "Location: https://localhost/rules/?x=1" in head

    def test_the_app_sees_https_and_the_host(self, nginx_before_gunicorn):
        body = json.dumps({"variant": "gin", "cards": "7S 8S 10H"}).encode()
        headers = {"Content-Type": "application/json", "X-Forwarded-Proto": "http"}
        status, answer = _post(
            f"{nginx_before_gunicorn.base}/api/v1/referee/meld/", body, headers=headers
        )
        assert status == 200
        rule_url = json.loads(answer)["violations"][0]["rule_url"]
        assert rule_url == "https://localhost/rules/#MELD-RUN"

    def test_a_client_cannot_choose_the_address_it_is_counted_as(self, nginx_before_gunicorn):
        body = json.dumps({"variant": "gin", "cards": "7S 8S 9S"}).encode()
        statuses = [
            _post(
                f"{nginx_before_gunicorn.base}/api/v1/referee/meld/",
                body,
                headers={"Content-Type": "application/json", "X-Forwarded-For": f"192.0.2.{n}"},
            )[0]
            for n in range(8)
        ]
        # Five a minute for this client, whatever it wrote in X-Forwarded-For.
        assert statuses == [200] * 5 + [429] * 3

    def test_bodies_up_to_the_import_limit_reach_the_app_and_larger_ones_stop(
        self, nginx_before_gunicorn
    ):
        limit = _client_max_body_size()
        assert limit >= settings.IMPORT_MAX_BYTES
        # A file of the app's largest size goes through (the app refuses it: no login).
        upload = b"x" * settings.IMPORT_MAX_BYTES
        status, answer = _post(
            f"{nginx_before_gunicorn.base}/api/v1/imports/",
            upload,
            headers={"Content-Type": "application/octet-stream"},
        )
        assert status == 403
        assert b"credentials" in answer
        # Past nginx's limit, the answer comes from nginx before the body is sent.
        raw = socket.create_connection(("127.0.0.1", nginx_before_gunicorn.https_port), timeout=10)
        with TLS.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(
                b"POST /api/v1/imports/ HTTP/1.1\r\nHost: localhost\r\n"
                + f"Content-Length: {limit + 1}\r\n\r\n".encode()
            )
            head = tls.recv(4096).decode()
        assert head.startswith("HTTP/1.1 413")

    @pytest.mark.parametrize(
        ("sent", "logged"),
        [
            ("/j/SECRET1/", "/j/REDACTED"),
            ("/invite/SECRET1/?x=1", "/invite/REDACTED?x=1"),
            ("/t/0d5a3c52-57ad-4c1e/join/SECRET1/", "/t/0d5a3c52-57ad-4c1e/join/REDACTED"),
            ("/accounts/reset/MQ/SECRET1-abc/", "/accounts/reset/MQ/REDACTED"),
            ("/%6A/SECRET1/", "/j/REDACTED"),  # the path as the app reads it, decoded
            ("/accounts/login/?next=/j/SECRET1/", "/accounts/login/?next=/j/REDACTED"),
            ("/accounts/login/?next=%2Fj%2FSECRET1%2F", "/accounts/login/?next=%2Fj%2FREDACTED"),
            (
                "/accounts/login/?next=%252Finvite%252FSECRET1",
                "/accounts/login/?next=%252Finvite%252FREDACTED",
            ),
            ("/j/SECRET1/?next=/j/SECRET2/", "/j/REDACTED?next=/j/REDACTED"),
            # No secret: logged whole.
            ("/accounts/reset/MQ/set-password/", "/accounts/reset/MQ/set-password/"),
            ("/join/?code=AB12", "/join/?code=AB12"),
            ("/r/public-result-token/", "/r/public-result-token/"),
        ],
    )
    def test_the_access_log_keeps_no_secret_of_a_path(self, nginx_before_gunicorn, sent, logged):
        _get(f"{nginx_before_gunicorn.base}{sent}")
        line = _logged(nginx_before_gunicorn, f"GET {logged} HTTP/1.1")
        assert "SECRET" not in line
