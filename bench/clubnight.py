"""A club night on this machine: N Gin tables, each with two scorekeeper phones and two
viewers, against gunicorn + PostgreSQL + Redis + one real Celery worker.

Every phone opens its table's page once, then polls it every 2 s as the page does (htmx,
``?since=`` the head it last saw, with the watch token the page carries; 204 when nothing
changed); every ~20 s (jittered) one of a table's scorekeepers records a quick hand through
the API at the head it saw (a 409 is an answer to read the head again and retry, not an
error). N steps up until a target fails.

The phones are tasks of one asyncio process of their own (bench/phones.py), each with one
kept-alive HTTP/1.1 connection: as light a load generator as the standard library makes, so
that what is timed is the server. It still runs on the same two cores as the server, so its
CPU and how late its event loop wakes are reported beside the server's CPU, and so is the
CPU the rest of the machine spent meanwhile (another job on the box is felt by every figure).
The room board's 30 screens, a smaller measurement after the steps, are threads of this
process.

Phones arrive as at a club night, over minutes rather than all at once: each step's phones
open their pages spread evenly over max(6 s, phones / 10) seconds, at most 10 page loads a
second (600 phones arrive over a minute); the step is measured over the 40 s after that.

Targets per step: p95 poll <= 50 ms, p95 append <= 150 ms, p95 page load <= 300 ms, no
errors; the section passes when the largest N holding them is at least 150 tables (600
phones), the largest gunicorn worker's RSS after the last step is at most 120 MiB, and the
room board holds its own targets. Without PostgreSQL or Redis the section is skipped, which
is no failure.
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
STEPS = (10, 20, 40, 60, 80, 100, 120, 150, 180)
# Seconds: a step's phones arrive over the ramp, then are measured over the window. Phones
# come to a club night over minutes, and a page load costs the server far more than a poll,
# so the ramp grows with the phones: page loads arrive at most ARRIVALS a second.
RAMP, ARRIVALS, WINDOW = 6.0, 10.0, 40.0
POLL_EVERY, HAND_EVERY = 2.0, 20.0
APPEND_P95, POLL_P95, PAGE_P95, TABLES_TARGET = 0.150, 0.050, 0.300, 150
RSS_TARGET = 120 * 2**20  # bytes, the largest gunicorn worker's after the last step
# Seconds the phones' process gets to start before the first phone is due.
GENERATOR_START = 2.0


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


# A PostgreSQL process serving a client names the client's address in its title
# ("postgres: 15/main: postgres <database> 127.0.0.1(41236) idle"); others, none.
PG_SESSION = re.compile(r"\(\d+\)|\[local\]")


def _serving(pid: str, comm: str, group: int, groups: set[int], database: str) -> bool:
    """Tell whether the process serves the night: the app's process groups, Redis, and
    PostgreSQL's processes but the sessions of other databases (another bench or test run
    on this machine is not the night's cost)."""
    if group in groups or comm == "redis-server":
        return True
    if comm != "postgres":
        return False
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return False
    return database in title or not PG_SESSION.search(title)


def _server_cpu(groups: set[int], database: str) -> dict[tuple[str, str, bool], float]:
    """Return the CPU seconds (user + system) each process serving the night has spent so
    far, by pid and start time (a pid can be reused, a start time with it cannot)."""
    tick = os.sysconf("SC_CLK_TCK")
    spent = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            name, after = Path(entry.path, "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = after.split()
        # After the name: pgrp is field 5 of stat, utime and stime 14 and 15, starttime 22.
        group = int(fields[2])
        if _serving(entry.name, name.split("(", 1)[1], group, groups, database):
            # Keyed also by whether it is one of the app's own processes (its groups).
            spent[entry.name, fields[19], group in groups] = (
                int(fields[11]) + int(fields[12])
            ) / tick
    return spent


class CpuMeter:
    """The CPU the night's processes spend from now on, sampled every second or so.

    Each process is counted by itself, not through its parent's reaped-children time: a
    gunicorn worker replaced mid-window (max_requests) and a PostgreSQL session that ends
    are counted up to their last sample, a process born in the window from nothing, and a
    parent's children that are not the night's (PostgreSQL's sessions of other databases)
    not at all.
    """

    def __init__(self, groups: set[int], database: str = PG_DATABASE):
        self.groups, self.database = groups, database
        self.first = _server_cpu(groups, database)
        self.last = dict(self.first)
        self.box_first = self.box_last = _box_cpu()

    def sample(self) -> None:
        self.last.update(_server_cpu(self.groups, self.database))
        self.box_last = _box_cpu()

    def spent(self, *, app_only: bool = False) -> float:
        """Return the CPU seconds spent since the start: the night's processes', or with
        ``app_only`` the app's own (its process groups: no PostgreSQL, no Redis)."""
        return sum(
            value - self.first.get(key, 0.0)
            for key, value in self.last.items()
            if key[2] or not app_only
        )

    def box_spent(self) -> float:
        return self.box_last - self.box_first


def _box_cpu() -> float:
    """Return the CPU seconds all of the machine's cores have been busy so far."""
    # cpu user nice system idle iowait irq softirq steal ...: all but idle and iowait.
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _workers_rss(master: int) -> list[tuple[int, float]]:
    """Return each gunicorn worker's (the master's children's) RSS in bytes and age in
    seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    workers = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != master:
                continue
            status = Path(entry.path, "status").read_text()
        except OSError:
            continue
        rss = next(
            (line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), None
        )
        if rss is not None:
            workers.append((int(rss) * 1024, uptime - int(fields[19]) / tick))
    return workers


@dataclass
class Figures:
    polls: list[float] = field(default_factory=list)
    appends: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Seconds from a hand's 201 to another phone's poll bringing it, and the showings missing.
    deliveries: list[float] = field(default_factory=list)
    missing: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, elapsed: float) -> None:
        with self.lock:
            getattr(self, kind).append(elapsed)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Phone:
    """A client of this process (the tables' set-up, the room board's screens): its own
    connection and client address. The tables' phones are bench/phones.py's."""

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


@dataclass(frozen=True)
class Step:
    tables: int
    ramp: float
    figures: Figures
    cpu: float  # CPU seconds the server spent over the window, per table per second
    generator_cpu: float  # CPU seconds the phones' process spent over the window, per second
    lag: list[float]  # how late the phones' event loop woke, over the window
    # CPU seconds a second that neither the server nor the phones spent over the window: the
    # rest of the machine's work, which the night's figures shared the cores with.
    others: float
    app_cpu: float = 0.0  # as ``cpu``, the app's own processes only (no PostgreSQL, no Redis)

    @property
    def holds(self) -> bool:
        f = self.figures
        if f.errors or not f.polls or not f.appends or not f.pages:
            return False
        return (
            Spread.of(f.polls).p95 <= POLL_P95
            and Spread.of(f.appends).p95 <= APPEND_P95
            and Spread.of(f.pages).p95 <= PAGE_P95
        )


def _step(
    port: int,
    tables: int,
    groups: set[int],
    logs: Path,
    push_port: int | None = None,
    database: str = PG_DATABASE,
) -> Step:
    created = [{"number": n, **_table_create(port, n)} for n in range(tables)]
    ramp = max(RAMP, tables * 4 / ARRIVALS)
    start_at = time.monotonic() + GENERATOR_START
    until = start_at + ramp + WINDOW
    night = {
        "port": port,
        "start_at": start_at,
        "until": until,
        "ramp": ramp,
        "poll_every": POLL_EVERY,
        "hand_every": HAND_EVERY,
        "tables": created,
        # With push on, the phones hold their streams through Pushpin here (bench/live.py).
        "push_port": push_port,
    }
    spec, answer = logs / f"night-{tables}.json", logs / f"phones-{tables}.json"
    spec.write_text(json.dumps(night))
    with spec.open() as given, answer.open("w") as out, (logs / "phones.log").open("a") as log:
        generator = subprocess.Popen(
            [sys.executable, "-m", "bench.phones"], cwd=ROOT, stdin=given, stdout=out, stderr=log
        )
    try:
        time.sleep(max(0.0, start_at + ramp - time.monotonic()))
        meter = CpuMeter(groups, database)
        while (left := until - time.monotonic()) > 0:
            time.sleep(min(1.0, left))
            meter.sample()
        # The last requests may still be out: they end by the phones' own timeout.
        generator.wait(timeout=2 * POLL_EVERY + 60)
    except subprocess.TimeoutExpired:
        raise Failed("the phones did not stop") from None
    finally:
        if generator.poll() is None:
            generator.kill()
            generator.wait()
    if generator.returncode != 0:
        raise Failed("the phones failed: " + (logs / "phones.log").read_text()[-800:])
    done = json.loads(answer.read_text())
    figures = Figures(
        done["polls"],
        done["appends"],
        done["pages"],
        done["errors"],
        deliveries=done["deliveries"],
        missing=done["missing"],
    )
    server = meter.spent()
    others = max(0.0, meter.box_spent() - server - done["cpu"])
    return Step(
        tables,
        ramp,
        figures,
        server / WINDOW / tables,
        done["cpu"] / WINDOW,
        done["lag"],
        others / WINDOW,
        meter.spent(app_only=True) / WINDOW / tables,
    )


def _serve(url: str, logs: Path, **more: str) -> tuple[int, subprocess.Popen, subprocess.Popen]:
    """Serve the app (gunicorn and a Celery worker) on ``url``'s database, with ``more``
    settings in the environment; return its port once it listens."""
    port = _free_port()
    # Static files collected beside the logs, never into the checkout: a staticfiles/ left
    # there would be served to the browser tests in place of what they test (WhiteNoise
    # looks in STATIC_ROOT first).
    env = _environment(url, port) | {"STATIC_ROOT": str(logs / "static")} | more
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
token = nights.room_link_make(actor=director, tournament_id=night.pk)
print(json.dumps({"board": f"/room/{token}/",
    "tables": [[str(t.id), t.scorekeeper_key] for t in started.tables]}))
"""
NIGHT_PLAYERS, BOARD_PHONES, BOARD_WINDOW = 64, 30, 30.0
BOARD_MEDIAN, BOARD_P95 = 0.050, 0.100
# A room screen's poll carries the version of the night it shows (the page's hx-get).
SINCE = re.compile(rb'\?since=([^"&]+)"')


def _board(port: int, url: str) -> Figures:
    """A 64-player Swiss night in its first round (32 tables) on the room's screen, opened
    by the director's room link with no session: 30 screens poll it every 2 s, as its page
    does (with the version of the night each last showed: 204 while nothing moved), while
    a table finishes every 2 s (the standings move)."""
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
        rng = random.Random(index)
        time.sleep(rng.random() * RAMP)
        since = ""
        while time.monotonic() < until:
            began = time.perf_counter()
            status, body = phone.request(
                "GET", night["board"] + since, headers={"HX-Request": "true"}
            )
            elapsed = time.perf_counter() - began
            if status == 200 and (found := SINCE.search(body)):
                since = f"?since={found.group(1).decode()}"
            if status not in (200, 204):
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


@dataclass(frozen=True)
class Night:
    steps: list[Step]
    board: Figures
    workers: list[tuple[int, float]]  # each gunicorn worker's RSS (bytes) and age (seconds)
    load: tuple[str, str]  # the machine's load averages before the first step, after the last


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def measure() -> Night:
    """Step N up until a target fails, read the workers' memory, then run the room board;
    return what was measured."""
    import tempfile

    _redis_check()
    steps: list[Step] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummyref-night-") as tmp,
        postgres_database(PG_DATABASE) as url,
    ):
        port, server, worker = _serve(url, Path(tmp))
        try:
            before = _load()
            for tables in STEPS:
                step = _step(port, tables, {server.pid, worker.pid}, Path(tmp))
                steps.append(step)
                if not step.holds:
                    break
            workers = _workers_rss(server.pid)
            load = (before, _load())
            try:
                board = _board(port, url)
            except Failed as exc:
                # The steps' figures stand on their own: report them beside the board's failure.
                lines = str(exc).strip().splitlines()
                board = Figures(errors=[f"{lines[0][:80]} ... {lines[-1][:200]}"])
        finally:
            _stop(server)
            _stop(worker)
    return Night(steps, board, workers, load)


def _percentiles(times: list[float]) -> str:
    """Return "p50 / p95 / p99" by nearest rank, or "-" with nothing measured."""
    if not times:
        return "-"
    ordered = sorted(times)
    rank = [ordered[max(0, math.ceil(q * len(ordered)) - 1)] for q in (0.50, 0.95, 0.99)]
    return " / ".join(seconds(value) for value in rank)


def report(night: Night) -> tuple[str, bool]:
    steps, board = night.steps, night.board
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
                f"{step.cpu * 100:.2f} %",
                f"{step.generator_cpu * 100:.1f} %",
                seconds(Spread.of(step.lag).p95) if step.lag else "-",
                f"{step.others * 100:.0f} %",
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
        "phones' CPU (one core)",
        "phones' lag p95",
        "others' CPU (one core)",
        "holds",
    ]
    errors = [e for s in steps for e in s.figures.errors][:5]
    largest = max((rss for rss, _age in night.workers), default=None)
    rss_ok = largest is not None and largest <= RSS_TARGET
    ramps = ", ".join(f"{step.ramp:g}" for step in steps)
    notes = [
        f"Targets per step: p95 poll <= {seconds(POLL_P95)}, p95 append <= {seconds(APPEND_P95)}"
        f", p95 page load <= {seconds(PAGE_P95)}, no errors. Largest N that holds: {held} tables"
        f" ({held * 4} phones); target >= {TABLES_TARGET}: {verdict(passed)}.",
        f"Each step: phones arrive over max({RAMP:g} s, phones / {ARRIVALS:g}) (page loads at most"
        f" {ARRIVALS:g} a second, as phones come to a club night over minutes: {ramps} s), then"
        f" {WINDOW:g} s measured; polls every {POLL_EVERY:g} s, a hand every ~{HAND_EVERY:g} s a"
        " table. Page loads are timed over the ramp, polls and appends over the window. CPU a"
        " table: the app's processes, PostgreSQL's (the night's sessions) and Redis's, over the"
        " window. The phones are one asyncio process (a kept-alive connection each) on the same"
        " two cores: its CPU over the window, and the p95 of how late its event loop woke. Others'"
        " CPU: what the rest of the machine spent over the window (two cores are 200 %), work"
        " the figures shared the cores with.",
        "gunicorn workers' RSS after the last step: "
        + (
            ", ".join(f"{rss / 2**20:.1f} MiB ({age:.0f} s old)" for rss, age in night.workers)
            if night.workers
            else "none found"
        )
        + f"; largest <= {RSS_TARGET / 2**20:.0f} MiB: {verdict(rss_ok)}.",
        f"Load average (1, 5, 15 min) before the first step: {night.load[0]}; after the last:"
        f" {night.load[1]}.",
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
        f"Room screen (/room/<token>/, no session) of a {NIGHT_PLAYERS}-player Swiss night in its"
        f" first round ({NIGHT_PLAYERS // 2} tables), {BOARD_PHONES} screens polling it every"
        f" {POLL_EVERY:g} s for {BOARD_WINDOW:g} s while a table finishes every {POLL_EVERY:g} s:"
        f" p50 / p95 / p99 {_percentiles(board.polls)}, {len(board.errors)} errors; target median"
        f" < {seconds(BOARD_MEDIAN)}, p95 < {seconds(BOARD_P95)}: {verdict(board_ok)}."
        + (f" First errors: {'; '.join(board.errors[:3])}" if board.errors else "")
    )
    return f"{table(header, rows)}\n" + "\n".join(notes), passed and rss_ok and board_ok


def section_run(title: str, measure, report) -> tuple[str, bool]:
    """Measure and report a section that serves the app; skipped (no failure) when a server
    it needs is unavailable, failed when the bench itself broke."""
    try:
        measured = measure()
    except Unavailable as exc:
        return f"{title}: skipped (no failure): {exc}", True
    except Failed as exc:
        return f"{title}: FAIL: {exc}", False
    return report(measured)


def run() -> tuple[str, bool]:
    """Run the club night; skipped (no failure) without PostgreSQL or Redis."""
    return section_run("Club night", measure, report)
