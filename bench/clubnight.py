"""A club night on this machine: N Gin tables, each with two scorekeeper phones and two
viewers, against gunicorn + PostgreSQL + Redis + one real Celery worker.

Every phone opens its table's page once, then polls it every 2 s as the page does (htmx,
``?since=`` the head it last saw; 204 when nothing changed); every ~20 s (jittered) one of
a table's scorekeepers records a quick hand through the API at the head it saw (a 409 is an
answer to read the head again and retry, not an error). N steps up until a target fails.
The phones are threads of this process, beside the server on the same two cores: the load
generator's own CPU is part of what the box carries.

Targets per step: p95 append <= 150 ms, p95 poll <= 50 ms, no errors; the section passes
when the largest N holding them is at least 60 tables (240 phones). Without PostgreSQL or
Redis the section is skipped, which is no failure.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bench.postgres import Unavailable, first_line, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict

ROOT = Path(__file__).resolve().parent.parent
PG_DATABASE = "rummyref_bench_night"
CACHE, BROKER = "redis://127.0.0.1:6379/9", "redis://127.0.0.1:6379/10"
STEPS = (10, 20, 40, 60, 80, 100, 120)
RAMP, WINDOW = 6.0, 40.0  # seconds: phones start spread over the ramp, then are measured
POLL_EVERY, HAND_EVERY = 2.0, 20.0
APPEND_P95, POLL_P95, TABLES_TARGET = 0.150, 0.050, 60
HEAD = re.compile(rb'data-head-seq="(\d+)"')
WATCH = re.compile(rb'\?since=\d+&amp;w=([^"&]+)"')


class Failed(Exception):
    """The bench broke: the section fails."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# One pair of secrets for the run: the server, the worker and the night's set-up share them
# (a session signed under one key, or a log chained under another, would not hold).
RUN_SECRETS = {"SECRET_KEY": secrets.token_urlsafe(40), "LOG_CHAIN_KEY": secrets.token_urlsafe(40)}


def _environment(url: str, port: int) -> dict[str, str]:
    return {
        **os.environ,
        **RUN_SECRETS,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": url,
        "CACHE_URL": CACHE,
        "CELERY_BROKER_URL": BROKER,
        "DB_CONN_MAX_AGE": "60",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        # The phones all come from 127.0.0.1: one proxy hop names each one (X-Forwarded-For),
        # as behind the production proxy, so the per-client throttles count them apart.
        "TRUSTED_PROXIES": "127.0.0.1",
        "NUM_PROXIES": "1",
        # The bench's phones read the plain session cookie's name.
        "HOST_COOKIES": "0",
        "LOG_LEVEL": "WARNING",
    }


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _cpu_seconds(pids: list[int]) -> float:
    """Return the CPU time (user + system) of these processes and their children so far."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, cutime, cstime (fields 14-17 of stat; 12-15 after the name).
        total += sum(int(value) for value in fields[11:15]) / tick
    return total


def _server_pids(*processes: subprocess.Popen) -> list[int]:
    """Return the pids whose CPU the box spends on the night: the app's process groups,
    PostgreSQL's and Redis's processes."""
    pids = []
    for process in processes:
        pids += [
            int(p)
            for p in subprocess.run(
                ["pgrep", "-g", str(process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
        ]
    for name in ("postgres", "redis-server"):
        pids += [
            int(p)
            for p in subprocess.run(
                ["pgrep", "-x", name], capture_output=True, text=True, check=False
            ).stdout.split()
        ]
    return pids


@dataclass
class Figures:
    polls: list[float] = field(default_factory=list)
    appends: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, elapsed: float) -> None:
        with self.lock:
            getattr(self, kind).append(elapsed)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Phone:
    """One phone at one table: its own connection and client address."""

    def __init__(self, port: int, address: str, key: str):
        self.port, self.key = port, key
        self.headers = {
            "X-Table-Key": key,
            "X-Forwarded-For": address,
            "X-Forwarded-Proto": "https",
            "Host": "127.0.0.1",
        }
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, bytes]:
        all_headers = {**self.headers, **(headers or {})}
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=all_headers)
                response = self.connection.getresponse()
                answer = response.read()
                if response.status in (301, 302):
                    # Say where it was sent: a redirect is an error in this bench.
                    answer = (response.getheader("Location") or "").encode()
                return response.status, answer
            except (http.client.HTTPException, OSError):
                # A worker recycled (max_requests) closes kept-alive connections: reconnect.
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def _table_create(port: int, number: int) -> dict:
    phone = Phone(port, f"10.9.{number // 250}.{number % 250 + 1}", "")
    body = json.dumps(
        {"variant": "gin", "players": [f"A{number}", f"B{number}"], "options": {"target": 500}}
    )
    status, answer = phone.request(
        "POST", "/api/v1/tables/", body, {"Content-Type": "application/json"}
    )
    if status != 201:
        raise Failed(f"creating a table answered {status}: {answer[:200]!r}")
    return json.loads(answer)


def _run_table(port: int, number: int, created: dict, until: float, start_at: float, figures):
    """Run one table's four phones until ``until``: each a thread."""
    table_id = created["id"]
    keys = [created["scorekeeper_key"]] * 2 + [created["viewer_key"]] * 2
    head = {"seq": created["head_seq"]}
    rng = random.Random(number)

    def phone_loop(index: int) -> None:
        phone = Phone(port, f"10.{number // 250}.{number % 250}.{index + 1}", keys[index])
        time.sleep(max(0.0, start_at - time.monotonic()) + rng.random() * RAMP)
        measured = lambda: time.monotonic() >= start_at + RAMP  # noqa: E731
        began = time.perf_counter()
        status, body = phone.request("GET", f"/t/{table_id}/")
        if status != 200:
            figures.error(f"page {status}")
        figures.add("pages", time.perf_counter() - began)
        seen = head["seq"]
        # The page's poll address carries its watch token, as a browser's htmx sends it.
        found = WATCH.search(body)
        if found is None:
            figures.error("no watch token on the page")
        watch = f"&w={found.group(1).decode()}" if found else ""
        next_hand = time.monotonic() + rng.uniform(0, HAND_EVERY)
        while time.monotonic() < until:
            time.sleep(POLL_EVERY * rng.uniform(0.9, 1.1))
            began = time.perf_counter()
            status, body = phone.request(
                "GET", f"/t/{table_id}/?since={seen}{watch}", headers={"HX-Request": "true"}
            )
            elapsed = time.perf_counter() - began
            if status == 200:
                found = HEAD.search(body)
                seen = int(found.group(1)) if found else seen
            elif status != 204:
                figures.error(f"poll {status}")
            if measured():
                figures.add("polls", elapsed)
            # The first scorekeeper records the table's hands (the second one watches).
            if index == 0 and time.monotonic() >= next_hand:
                next_hand += HAND_EVERY * rng.uniform(0.8, 1.2)
                _append(phone, table_id, head, figures, measured(), rng)

    threads = [threading.Thread(target=phone_loop, args=(i,), daemon=True) for i in range(4)]
    for thread in threads:
        thread.start()
    return threads


def _append(phone: Phone, table_id: str, head: dict, figures: Figures, measured: bool, rng):
    payload = {
        "mode": "quick",
        "knocker": rng.randrange(2),
        "ending": "knock",
        "knocker_count": 2,
        "defender_count": 10,
    }
    for _attempt in range(3):
        body = json.dumps(
            {
                "event_id": str(uuid.uuid4()),
                "expected_seq": head["seq"],
                "type": "hand_recorded",
                "payload": payload,
            }
        )
        began = time.perf_counter()
        status, answer = phone.request(
            "POST",
            f"/api/v1/tables/{table_id}/events/",
            body,
            {"Content-Type": "application/json"},
        )
        elapsed = time.perf_counter() - began
        if measured:
            figures.add("appends", elapsed)
        if status in (200, 201):
            head["seq"] = json.loads(answer)["event"]["seq"]
            return
        if status == 409:
            head["seq"] = json.loads(answer)["head_seq"]
            continue
        figures.error(f"append {status}: {answer[:120]!r}")
        return
    figures.error("append: three conflicts in a row")


@dataclass(frozen=True)
class Step:
    tables: int
    figures: Figures
    cpu: float  # CPU seconds the box spent over the window, per table per second

    @property
    def holds(self) -> bool:
        f = self.figures
        if f.errors or not f.polls or not f.appends:
            return False
        return Spread.of(f.polls).p95 <= POLL_P95 and Spread.of(f.appends).p95 <= APPEND_P95


def _step(port: int, tables: int, pids: list[int]) -> Step:
    created = [_table_create(port, number) for number in range(tables)]
    figures = Figures()
    start_at = time.monotonic() + 1.0
    until = start_at + RAMP + WINDOW
    threads = []
    for number, table_made in enumerate(created):
        threads += _run_table(port, number, table_made, until, start_at, figures)
    time.sleep(max(0.0, start_at + RAMP - time.monotonic()))
    cpu_before = _cpu_seconds(pids)
    time.sleep(max(0.0, until - time.monotonic()))
    cpu = (_cpu_seconds(pids) - cpu_before) / WINDOW / tables
    for thread in threads:
        thread.join(timeout=35)
    return Step(tables, figures, cpu)


def _serve(url: str, logs: Path) -> tuple[int, subprocess.Popen, subprocess.Popen]:
    port = _free_port()
    env = _environment(url, port)
    python = sys.executable
    # As a deploy does: the database's tables, and the static files with their manifest.
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        done = subprocess.run(
            [python, "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise Failed(f"{command[0]} failed: {done.stderr[-800:]}")
    gunicorn = str(Path(python).with_name("gunicorn"))
    server = _start([gunicorn, "rummyref.wsgi", "-c", "gunicorn.conf.py"], env, logs / "g.log")
    celery = str(Path(python).with_name("celery"))
    worker = _start(
        [celery, "-A", "rummyref", "worker", "--concurrency=1", "--pool=solo", "-l", "WARNING"],
        env,
        logs / "w.log",
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return port, server, worker
        except OSError:
            time.sleep(0.2)
    _stop(server)
    _stop(worker)
    raise Failed("gunicorn did not start: " + (logs / "g.log").read_text()[-800:])


def _redis_check() -> None:
    import redis

    for url in (CACHE, BROKER):
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
            client.flushdb()
        except redis.RedisError as exc:
            raise Unavailable(f"{url} does not answer: {first_line(exc)}") from None


NIGHT_SETUP = """
import json
from django.contrib.auth import get_user_model
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from games.clubs import services as clubs
from games.tournaments import services as nights
director = get_user_model().objects.create_user("director")
club = clubs.club_create(user=director, name="Night club")
league = clubs.league_create(actor=director, club_id=club.pk, name="Gin", variant="gin",
    players=2, options={"preset": "classic", "target": 50})
ids = [clubs.player_create(actor=director, club_id=club.pk, name=f"P{n:02d}").pk
    for n in range(%(players)d)]
night = nights.tournament_create(actor=director, club_id=club.pk, league_id=league.pk,
    name="Night", rounds=5, round_minutes=40, seed=3)
nights.entrants_register(actor=director, tournament_id=night.pk, player_ids=ids)
started = nights.round_start(actor=director, tournament_id=night.pk)
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(director.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = director.get_session_auth_hash()
session.save()
print(json.dumps({"board": f"/clubs/{club.slug}/n/{night.pk}/tv/",
    "session": session.session_key,
    "tables": [[str(t.id), t.scorekeeper_key] for t in started.tables]}))
"""
NIGHT_PLAYERS, BOARD_PHONES, BOARD_WINDOW = 64, 30, 30.0
BOARD_MEDIAN, BOARD_P95 = 0.100, 0.250


def _board(port: int, url: str) -> Figures:
    """A 64-player Swiss night in its first round (32 tables) on the room's screen: 30
    phones poll the board every 2 s while a table finishes every 2 s (the standings move)."""
    env = _environment(url, port)
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", NIGHT_SETUP % {"players": NIGHT_PLAYERS}],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise Failed(f"setting the night up failed: {done.stderr[-800:]}")
    night = json.loads(done.stdout.strip().splitlines()[-1])
    figures = Figures()
    until = time.monotonic() + RAMP + BOARD_WINDOW
    start_measuring = time.monotonic() + RAMP

    def screen(index: int) -> None:
        phone = Phone(port, f"10.200.0.{index + 1}", "")
        phone.headers["Cookie"] = f"sessionid={night['session']}"
        rng = random.Random(index)
        time.sleep(rng.random() * RAMP)
        while time.monotonic() < until:
            began = time.perf_counter()
            status, body = phone.request("GET", night["board"], headers={"HX-Request": "true"})
            elapsed = time.perf_counter() - began
            if status != 200:
                figures.error(f"board {status} {body[:80]!r}")
            elif time.monotonic() >= start_measuring:
                figures.add("polls", elapsed)
            time.sleep(POLL_EVERY * rng.uniform(0.9, 1.1))

    def results() -> None:
        for table_id, key in night["tables"]:
            if time.monotonic() >= until:
                return
            phone = Phone(port, "10.201.0.1", key)
            for seq, (kind, payload) in enumerate(
                [
                    (
                        "hand_recorded",
                        {
                            "mode": "quick",
                            "knocker": 0,
                            "ending": "gin",
                            "knocker_count": 0,
                            "defender_count": 30,
                        },
                    ),
                    ("result_confirmed", {"seat": 0}),
                    ("result_confirmed", {"seat": 1}),
                ],
                start=1,
            ):
                body = json.dumps(
                    {
                        "event_id": str(uuid.uuid4()),
                        "expected_seq": seq,
                        "type": kind,
                        "payload": payload,
                    }
                )
                status, answer = phone.request(
                    "POST",
                    f"/api/v1/tables/{table_id}/events/",
                    body,
                    {"Content-Type": "application/json"},
                )
                if status not in (200, 201):
                    figures.error(f"result {status}: {answer[:100]!r}")
            time.sleep(POLL_EVERY)

    threads = [threading.Thread(target=screen, args=(i,), daemon=True) for i in range(BOARD_PHONES)]
    threads.append(threading.Thread(target=results, daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=RAMP + BOARD_WINDOW + 35)
    return figures


def measure() -> tuple[list[Step], Figures]:
    """Step N up until a target fails, then the room board; return what was measured."""
    import tempfile

    _redis_check()
    steps: list[Step] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummyref-night-") as tmp,
        postgres_database(PG_DATABASE) as url,
    ):
        port, server, worker = _serve(url, Path(tmp))
        try:
            pids = _server_pids(server, worker)
            for tables in STEPS:
                step = _step(port, tables, pids)
                steps.append(step)
                if not step.holds:
                    break
            board = _board(port, url)
        finally:
            _stop(server)
            _stop(worker)
    return steps, board


def _percentiles(times: list[float]) -> str:
    """Return "p50 / p95 / p99" by nearest rank, or "-" with nothing measured."""
    if not times:
        return "-"
    ordered = sorted(times)
    rank = [ordered[max(0, math.ceil(q * len(ordered)) - 1)] for q in (0.50, 0.95, 0.99)]
    return " / ".join(seconds(value) for value in rank)


def report(steps: list[Step], board: Figures) -> tuple[str, bool]:
    rows = []
    for step in steps:
        f = step.figures
        rows.append(
            [
                f"{step.tables} tables ({step.tables * 4} phones)",
                _percentiles(f.polls),
                _percentiles(f.appends),
                _percentiles(f.pages),
                str(len(f.errors)),
                f"{step.cpu * 100:.1f} %",
                verdict(step.holds),
            ]
        )
    held = max((s.tables for s in steps if s.holds), default=0)
    passed = held >= TABLES_TARGET
    header = [
        "Club night (gunicorn, PostgreSQL, Redis, 1 worker)",
        "polls p50 / p95 / p99",
        "appends p50 / p95 / p99",
        "page loads p50 / p95 / p99",
        "errors",
        "CPU a table (one core)",
        "holds",
    ]
    errors = [e for s in steps for e in s.figures.errors][:5]
    notes = [
        f"Targets per step: p95 poll <= {seconds(POLL_P95)}, p95 append <= {seconds(APPEND_P95)}"
        f", no errors. Largest N that holds: {held} tables ({held * 4} phones); target >="
        f" {TABLES_TARGET}: {verdict(passed)}.",
        f"Each step: phones start over {RAMP:g} s, then {WINDOW:g} s measured; polls every"
        f" {POLL_EVERY:g} s, a hand every ~{HAND_EVERY:g} s a table; the load generator runs"
        " on the same two cores. CPU: the app's processes, PostgreSQL's and Redis's, over the"
        " window, per table.",
    ]
    if errors:
        notes.append("First errors: " + "; ".join(errors))
    board_ok = (
        bool(board.polls)
        and not board.errors
        and statistics.median(board.polls) < BOARD_MEDIAN
        and Spread.of(board.polls).p95 < BOARD_P95
    )
    notes.append(
        f"Room board of a {NIGHT_PLAYERS}-player Swiss night in its first round"
        f" ({NIGHT_PLAYERS // 2} tables), {BOARD_PHONES} phones polling it every"
        f" {POLL_EVERY:g} s for {BOARD_WINDOW:g} s while a table finishes every {POLL_EVERY:g} s:"
        f" p50 / p95 / p99 {_percentiles(board.polls)}, {len(board.errors)} errors; target median"
        f" < {seconds(BOARD_MEDIAN)}, p95 < {seconds(BOARD_P95)}: {verdict(board_ok)}."
        + (f" First errors: {'; '.join(board.errors[:3])}" if board.errors else "")
    )
    return f"{table(header, rows)}\n" + "\n".join(notes), passed and board_ok


def run() -> tuple[str, bool]:
    """Run the club night; skipped (no failure) without PostgreSQL or Redis."""
    title = "Club night"
    try:
        steps, board = measure()
    except Unavailable as exc:
        return f"{title}: skipped (no failure): {exc}", True
    except Failed as exc:
        return f"{title}: FAIL: {exc}", False
    return report(steps, board)
