"""gunicorn's access log never prints a bearer secret: join links, key links, invites and
password reset links are written with their secret redacted (rummyref.access_log), and the
new links carry theirs after "#", which no request sends.

The unit tests drive the logger class gunicorn.conf.py names; the last test serves the app
with a real gunicorn writing its access log to a file, joins a table and a club every way
a link allows (sign-up and sign-in on the way included), and reads the file."""

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from rummyref.access_log import (
    REDACTED,
    SECRET_PATH_PATTERNS,
    RedactingLogger,
    RedactSecretsFilter,
    redact,
)
from tests.gunicorn import ROOT, gunicorn_serving

TOKEN = "kq3Vd0bP_fXr9w-LmZ2sT8yHnC4eJ6uA1gR5iO7pQ0c"  # a join/invite token's shape
KEY = "Zt9-0aQ3Vd0bP_fXr9wLmZ2sT8yHnC4eJ6uA1gR5iO7"
TABLE_ID = "0f8fad5b-d9cb-469f-a165-70867728950e"


class TestRedact:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            (f"/j/{TOKEN}/", f"/j/{REDACTED}/"),
            (f"/j/{TOKEN}", f"/j/{REDACTED}"),
            (f"/invite/{TOKEN}/", f"/invite/{REDACTED}/"),
            (f"/t/{TABLE_ID}/join/{KEY}/", f"/t/{TABLE_ID}/join/{REDACTED}/"),
            (f"/t/not-a-uuid/join/{KEY}/", f"/t/not-a-uuid/join/{REDACTED}/"),
            (f"/accounts/reset/MQ/{TOKEN}/", f"/accounts/reset/MQ/{REDACTED}/"),
            (f"GET /j/{TOKEN}/?x=1 HTTP/1.1", f"GET /j/{REDACTED}/?x=1 HTTP/1.1"),
            (f"https://rummy.example/invite/{TOKEN}/", f"https://rummy.example/invite/{REDACTED}/"),
        ],
    )
    def test_the_secret_segment_of_each_secret_path_is_replaced(self, text, expected):
        assert redact(text) == expected

    @pytest.mark.parametrize(
        "text",
        [
            "/j/",
            "/invite/",
            "/join/",
            f"/t/{TABLE_ID}/",
            f"/t/{TABLE_ID}/share/",
            "/accounts/reset/MQ/set-password/",
            f"/r/{TOKEN}/",  # a shared result: public on purpose
            f"/r/{TOKEN}/card.png",
            "GET /static/css/app.css HTTP/1.1",
            "-",
        ],
    )
    def test_paths_without_a_secret_are_left_alone(self, text):
        assert redact(text) == text

    @pytest.mark.parametrize(
        "text",
        [
            f"/%6A/{TOKEN}/",  # reaches the join view all the same
            f"/invite%2F{TOKEN}/",
            f"next=%2Fj%2F{TOKEN}%2F",
            f"next=%252Finvite%252F{TOKEN}%252F",  # encoded twice
            f"/t/{TABLE_ID}/join/%5A{KEY[1:]}/",
        ],
    )
    def test_percent_encoding_hides_no_secret(self, text):
        assert TOKEN not in redact(text) and KEY[1:] not in redact(text)
        assert REDACTED in redact(text)

    def test_the_patterns_are_plain_regular_expressions_with_two_groups(self):
        # nginx's configuration mirrors them: strings, each keeping group 1, hiding group 2.
        for pattern in SECRET_PATH_PATTERNS:
            assert isinstance(pattern, str) and re.compile(pattern).groups == 2


def _access_line(tmp_path, *, path: str, query: str = "", referer: str = "-", fmt=None) -> str:
    """Log one request through RedactingLogger, as gunicorn.conf.py sets it, to a file."""
    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    if fmt:
        config.set("access_log_format", fmt)
    logger = RedactingLogger(config)
    raw = path + (f"?{query}" if query else "")
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": raw,
        "PATH_INFO": urllib.parse.unquote(path),
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.7",
        "HTTP_REFERER": referer,
        "HTTP_USER_AGENT": "phone",
    }
    request = SimpleNamespace(headers=[("REFERER", referer), ("X-ORIGINAL-URI", raw)])
    response = SimpleNamespace(status="302 Found", sent=0, headers=[("Location", raw)])
    logger.access(response, request, environ, timedelta(milliseconds=3))
    for handler in logger.access_log.handlers:
        handler.flush()
    return (tmp_path / "access.log").read_text()


def _console_filters() -> list:
    """The filters of the root logger's handler that settings.LOGGING sets up."""
    import logging

    (console,) = [
        handler
        for handler in logging.getLogger().handlers
        if any(isinstance(f, RedactSecretsFilter) for f in handler.filters)
    ]
    return console.filters


class TestTheAppsOwnLog:
    def test_djangos_lines_naming_a_secret_path_are_redacted(self, settings):
        import logging

        assert "redact_secrets" in settings.LOGGING["handlers"]["console"]["filters"]
        record = logging.LogRecord(
            "django.request", logging.WARNING, __file__, 1, "Not Found: %s", (f"/j/{TOKEN}/",), None
        )
        assert all(f.filter(record) for f in _console_filters())
        assert record.getMessage() == f"Not Found: /j/{REDACTED}/"

    def test_other_lines_are_left_as_they_are(self):
        import logging

        record = logging.LogRecord("x", logging.INFO, __file__, 1, "Saved %s", ("hand 3",), None)
        assert all(f.filter(record) for f in _console_filters())
        assert (record.msg, record.args) == ("Saved %s", ("hand 3",))


class TestRedactingLogger:
    def test_gunicorn_conf_names_it(self):
        printed = subprocess.run(
            [sys.executable, "-m", "gunicorn", "--print-config", "rummyref.wsgi"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        assert re.search(
            r"^logger_class\s*=\s*rummyref\.access_log\.RedactingLogger$", printed, re.M
        )
        assert re.search(r"^accesslog\s*=\s*-$", printed, re.M)

    def test_the_request_line_and_the_referer_lose_their_secret(self, tmp_path):
        line = _access_line(
            tmp_path, path=f"/j/{TOKEN}/", referer=f"https://rummy.example/invite/{TOKEN}/"
        )
        assert TOKEN not in line
        assert f'"GET /j/{REDACTED}/ HTTP/1.1" 302' in line
        assert f'"https://rummy.example/invite/{REDACTED}/"' in line
        assert "192.0.2.7" in line and '"phone"' in line

    def test_a_next_parameter_loses_its_secret(self, tmp_path):
        query = urllib.parse.urlencode({"next": f"/invite/{TOKEN}/"})
        line = _access_line(tmp_path, path="/accounts/login/", query=query)
        assert TOKEN not in line and f"/invite/{REDACTED}/" in line

    def test_every_atom_a_custom_format_names_is_redacted(self, tmp_path):
        fmt = "%(U)s %(q)s %({x-original-uri}i)s %({location}o)s %({raw_uri}e)s %({path_info}e)s"
        line = _access_line(tmp_path, path=f"/%6A/{TOKEN}/", query=f"k=/t/x/join/{KEY}/", fmt=fmt)
        assert TOKEN not in line and KEY not in line
        # The path (U, PATH_INFO) once each, the query once, both in each whole address.
        assert line.count(REDACTED) == 2 + 1 + 3 * 2

    def test_other_lines_are_written_as_gunicorn_writes_them(self, tmp_path):
        line = _access_line(tmp_path, path=f"/r/{TOKEN}/", referer="https://rummy.example/")
        assert f'"GET /r/{TOKEN}/ HTTP/1.1" 302 0 "https://rummy.example/" "phone"' in line


# --- A real gunicorn, its access log in a file ----------------------------------------------

PASSWORD = "Rummy-night-4-all!"


class Browser:
    """One phone: its own cookies, its CSRF token from the last form, and no redirect
    followed (each answer is checked where it points)."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), self._NoRedirect
        )

    def request(self, method: str, path: str, data=None, *, json_body=None, headers=None):
        """Return (status, Location or body)."""
        body, head = None, {"Referer": f"{self.base}/", **(headers or {})}
        if data is not None:
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf(), **data}).encode()
        elif json_body is not None:
            body, head["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=head)
        try:
            with self.opener.open(request, timeout=20) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as answer:
            text = answer.headers.get("Location") or answer.read().decode()
            return answer.code, text

    def get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict | None = None, **kwargs):
        if data is None and "json_body" not in kwargs:
            data = {}
        return self.request("POST", path, data, **kwargs)

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def signup(self, username: str, next_path: str = "") -> tuple[int, str]:
        self.get(f"/accounts/signup/?next={next_path}")
        form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
        return self.post("/accounts/signup/", {**form, "email": "", "next": next_path})


@pytest.fixture
def gunicorn_with_access_log(tmp_path):
    """The app under a real gunicorn on a database of its own; yield its address and the
    access log's path."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env["CACHE_DIR"] = os.environ.get("CACHE_DIR", str(tmp_path / "cache"))
    env["GUNICORN_ACCESSLOG"] = str(tmp_path / "access.log")
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    done = subprocess.run(
        migrate, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    with gunicorn_serving(tmp_path, workers=2, **env) as base:
        yield base, tmp_path / "access.log"


def _table_role(phone: Browser, table_id: str) -> str:
    status, page = phone.get(f"/t/{table_id}/")
    assert status == 200, page[:500]
    return "scorekeeper" if "Record a hand" in page else "viewer"


@pytest.mark.slow
class TestARealGunicornsAccessLog:
    def test_joining_a_table_and_a_club_every_way_leaves_no_secret_in_it(
        self, gunicorn_with_access_log
    ):
        base, access_log = gunicorn_with_access_log
        secrets = []

        # A table made through the API: its keys, and join links after "#".
        status, body = Browser(base).post(
            "/api/v1/tables/", None, json_body={"variant": "gin", "players": ["Anna", "Bruno"]}
        )
        assert status == 201, body
        created = json.loads(body)
        table_id = created["id"]
        new_link = created["scorekeeper_link"]
        assert new_link.startswith(f"{base}/j/#")
        token = new_link.split("#", 1)[1]
        secrets += [created["scorekeeper_key"], created["viewer_key"], token]

        # An old key link: the phone is sent on to the table's address at once.
        keeper = Browser(base)
        assert keeper.get(f"/t/{table_id}/join/{created['scorekeeper_key']}/") == (
            302,
            f"/t/{table_id}/",
        )
        assert _table_role(keeper, table_id) == "scorekeeper"
        # The keeper's share block: a viewer link after "#" and a code.
        status, share = keeper.get(f"/t/{table_id}/share/")
        viewer_token = re.findall(r'value="[^"]*/j/#([\w-]+)"', share)[-1]
        code = re.search(r'data-testid="code-viewer">([^<]+)<', share).group(1)
        secrets += [viewer_token, code, code.replace("-", "")]

        # A join link as a browser opens it: /j/ (no token sent), then its script posts it.
        phone = Browser(base)
        assert phone.get("/j/")[0] == 200
        assert phone.post("/j/", {"link": token}) == (302, f"/t/{table_id}/")
        assert _table_role(phone, table_id) == "scorekeeper"
        # The same link pasted whole, without JavaScript.
        pasted = Browser(base)
        pasted.get("/j/")
        assert pasted.post("/j/", {"link": f"{base}/j/#{viewer_token}"})[0] == 302
        assert _table_role(pasted, table_id) == "viewer"
        # A link made before the fragment, and the old viewer key link.
        old = Browser(base)
        assert old.get(f"/j/{token}/") == (302, f"/t/{table_id}/")
        assert _table_role(old, table_id) == "scorekeeper"
        watcher = Browser(base)
        assert watcher.get(f"/t/{table_id}/join/{created['viewer_key']}/")[0] == 302
        assert _table_role(watcher, table_id) == "viewer"
        # A typed code; and a percent-encoded old link, which the view reads as one.
        typist = Browser(base)
        typist.get("/join/")
        assert typist.post("/join/", {"code": code}) == (302, f"/t/{table_id}/")
        sly = Browser(base)
        assert sly.get(f"/%6A/{token}/") == (302, f"/t/{table_id}/")

        # A club, and an invite made by its owner (shown once, after "#").
        owner = Browser(base)
        assert owner.signup("owner") == (302, "/clubs/")
        owner.get("/clubs/")
        status, where = owner.post("/clubs/", {"name": "Circolo Nord"})
        assert status == 302, where
        status, page = owner.post(
            f"{where}invites/", {"role": "member", "max_uses": "5", "days": "7"}
        )
        assert status == 200
        invite_token = re.search(r'value="[^"]*/invite/#([\w-]+)"', page).group(1)
        secrets.append(invite_token)

        # A newcomer opens it, signs up on the way, and accepts.
        newcomer = Browser(base)
        newcomer.get("/invite/")
        assert newcomer.post("/invite/", {"link": invite_token}) == (302, "/invite/")
        status, page = newcomer.get("/invite/")
        assert "Circolo Nord" in page and 'href="/accounts/signup/?next=/invite/"' in page
        assert newcomer.signup("newcomer", "/invite/") == (302, "/invite/")
        newcomer.get("/invite/")
        assert newcomer.post("/invite/") == (302, where)
        # A member-to-be with an account opens the old link, and signs in on the way.
        member = Browser(base)
        member.signup("member")
        member.post("/accounts/logout/")
        assert member.get(f"/invite/{invite_token}/") == (302, "/invite/")
        member.get("/invite/")
        assert member.post("/invite/") == (302, "/accounts/login/?next=/invite/")
        member.get("/accounts/login/?next=/invite/")
        signed_in = member.post(
            "/accounts/login/", {"username": "member", "password": PASSWORD, "next": "/invite/"}
        )
        assert signed_in == (302, "/invite/")
        member.get("/invite/")
        assert member.post("/invite/") == (302, where)
        for joined in (newcomer, member):
            status, page = joined.get(where)
            assert status == 200 and "Members" in page

        # A Referer that copies an old link is redacted too.
        Browser(base).get("/", headers={"Referer": f"{base}/invite/{invite_token}/"})
        # Requests Django refuses and names in its own log (gunicorn's error log): a POST
        # with no CSRF cookie, a path that resolves to nothing; a link preview's HEAD.
        stray = Browser(base)
        assert stray.request("POST", f"/j/{token}/", json_body={})[0] == 403
        assert stray.get(f"/j/{token}/more/")[0] == 404
        assert stray.request("HEAD", f"/invite/{invite_token}/") == (302, "/invite/")
        app_log = (access_log.parent / "gunicorn.log").read_text()
        assert f"Forbidden (CSRF cookie not set.): /j/{REDACTED}/" in app_log
        assert f"Not Found: /j/{REDACTED}/more/" in app_log

        for secret in secrets:
            assert secret not in app_log, secret
        log = access_log.read_text()
        assert log.count("\n") > 40
        for secret in secrets:
            assert secret not in log, secret
        for kept in (
            f"/j/{REDACTED}/",
            f"/t/{table_id}/join/{REDACTED}/",
            f"/invite/{REDACTED}/",
            f'"{base}/invite/{REDACTED}/"',
            '"POST /j/ HTTP/1.1" 302',
            '"POST /invite/ HTTP/1.1" 302',
        ):
            assert kept in log, kept
