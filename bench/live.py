"""Live delivery (docs/live.md): how long after a save's 201 the table's other phones hear
of it through a real Pushpin, with every phone of N tables holding its stream open.

gunicorn + PostgreSQL + Redis + one Celery worker serve the app, as in the club night, with
PUSH_URL set; Pushpin (Debian's package) runs in front on loopback ports of its own. Each
table has three watching phones (the other scorekeeper and two viewers), each one stream
held through Pushpin (an asyncio task with a socket of its own). Saves go to the API, one
every SAVE_EVERY seconds over the tables in turn, from a thread of this process; each
stream notes when the event with the save's seq arrives. Delivery is that moment minus the
moment the save's 201 was read (negative when the event overtook the answer). A phone then
asks its usual poll for the news, which the pages bench times apart (bench/pages.py).

Also reported: Pushpin's memory (its processes' RSS) with every stream open. Targets:
p95 delivery <= 500 ms at 150 tables, no event missing.

Then the club night with push (bench/clubnight.py's steps and phones, bench/phones.py): four
phones a table, a hand about every 20 s a table, every phone holding its stream through
Pushpin and asking its poll once for each hand it hears of; the same night polling every
2 s with push off, on a server started without PUSH_URL. For each: the server's CPU a table
(the app's processes, Pushpin's with push on, over the window, divided by the tables), and
the largest N of CAPACITY_STEPS holding p95 save <= 150 ms, page load <= 300 ms and
delivery (a hand's 201 to another phone's poll bringing it) <= 500 ms with no error and no
hand missing. Without PostgreSQL, Redis or Pushpin the section is skipped, which is no
failure.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from bench import clubnight
from bench.clubnight import (
    BROKER,
    CACHE,
    RUN_SECRETS,
    Failed,
    Phone,
    _serve,
    _stop,
    _table_create,
    section_run,
)
from bench.phones import StreamRefused, event_ids
from bench.postgres import Unavailable, first_line, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict

ROOT = Path(__file__).resolve().parent.parent
PG_DATABASE = "rummyref_bench_live"
STEPS = (50, 150, 400)
WATCHERS = 3
SAVES, SAVE_EVERY = 150, 0.05  # 20 saves a second: a night of 400 tables makes ~20 a second
DELIVERY_P95, TABLES_TARGET = 0.500, 150
ARRIVALS = 50.0  # streams opened a second
# Seconds to wait for every stream to open, and for the last save's events.
OPEN_SECONDS, SETTLE_SECONDS = 60.0, 5.0
# The club night with push: its steps (tables), and the one step also run polling.
CAPACITY_STEPS, POLLING_TABLES, CAPACITY_TARGET = (150, 250, 400), 150, 400
PG_NIGHT = "rummyref_bench_live_night"
SAVE_P95, PAGE_P95 = clubnight.APPEND_P95, clubnight.PAGE_P95


def _watch_token(table_id: str) -> str:
    """Return a table's watch token as the server signs it (the run's SECRET_KEY)."""
    from django.core import signing

    signer = signing.TimestampSigner(
        key=RUN_SECRETS["SECRET_KEY"], salt="games.tables.heads.watch", fallback_keys=[]
    )
    return signer.sign(table_id).split(":", 1)[1]


class Streams:
    """Every phone's stream, and when each of its events arrived."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.arrived: dict[tuple[str, int], list[float]] = {}
        self.opened = 0
        self.errors: list[str] = []

    async def hold(self, table_id: str) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError as exc:
            self.errors.append(f"stream connect: {exc}")
            return
        path = f"/t/{table_id}/live/?w={_watch_token(table_id)}"
        first = True
        try:
            async for seq in event_ids(reader, writer, path):
                self.arrived.setdefault((table_id, seq), []).append(time.monotonic())
                if first:
                    first, self.opened = False, self.opened + 1
        except StreamRefused as exc:
            self.errors.append(str(exc))


def _saves(port: int, tables: list[dict], heads: dict[str, int], answered: dict, errors) -> None:
    """Record SAVES quick hands over the tables in turn (``heads``: each table's seq, kept
    from step to step), noting when each save was sent and when its 201 was read."""
    phones = {t["id"]: Phone(port, "10.8.0.1", t["scorekeeper_key"]) for t in tables}
    payload = {"mode": "quick", "knocker": 0, "ending": "knock"}
    payload |= {"knocker_count": 2, "defender_count": 10}
    started = time.monotonic()
    for number in range(SAVES):
        time.sleep(max(0.0, started + number * SAVE_EVERY - time.monotonic()))
        table_id = tables[number % len(tables)]["id"]
        body = {"event_id": str(uuid.uuid4()), "expected_seq": heads.setdefault(table_id, 1)}
        body |= {"type": "hand_recorded", "payload": payload}
        sent = time.monotonic()
        status, answer = phones[table_id].request(
            "POST",
            f"/api/v1/tables/{table_id}/events/",
            json.dumps(body),
            {"Content-Type": "application/json"},
        )
        read = time.monotonic()
        if status != 201:
            errors.append(f"append {status}: {answer[:120]!r}")
            continue
        heads[table_id] = json.loads(answer)["event"]["seq"]
        answered[(table_id, heads[table_id])] = (sent, read)


async def _step_async(app_port: int, push_port: int, tables: list[dict], heads: dict):
    streams = Streams(push_port)
    holders = []
    for t in tables:
        for _ in range(WATCHERS):
            holders.append(asyncio.create_task(streams.hold(t["id"])))
            await asyncio.sleep(1 / ARRIVALS)  # phones arrive over time, not all at once
    deadline = time.monotonic() + OPEN_SECONDS
    while streams.opened < len(holders) and time.monotonic() < deadline and not streams.errors:
        await asyncio.sleep(0.1)
    if streams.opened < len(holders):
        raise Failed(f"{streams.opened} of {len(holders)} streams opened: {streams.errors[:3]}")
    answered: dict[tuple[str, int], float] = {}
    errors: list[str] = []
    saver = threading.Thread(target=_saves, args=(app_port, tables, heads, answered, errors))
    saver.start()
    while saver.is_alive():
        await asyncio.sleep(0.05)
    await asyncio.sleep(SETTLE_SECONDS)
    for holder in holders:
        holder.cancel()
    from_sent, from_201, missing = [], [], 0
    for key, (sent, read) in answered.items():
        heard = streams.arrived.get(key, [])
        missing += WATCHERS - len(heard)
        from_sent += [arrival - sent for arrival in heard]
        from_201 += [arrival - read for arrival in heard]
    return Step(len(tables), from_sent, from_201, missing, errors + streams.errors)


def _process_tree(root: int) -> list[list[str]]:
    """Return the stat fields (after the name) of process ``root`` and every process under
    it (Pushpin's runner starts condure, zurl, its proxy and its handler, each in a session
    of its own)."""
    stats = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            stats[int(stat.parent.name)] = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError, ValueError):
            continue
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, fields in stats.items() if int(fields[1]) in tree} - tree
        tree |= more
        grown = bool(more)
    return [stats[pid] for pid in tree if pid in stats]


def _rss_of_tree(root: int) -> float:
    """Return the RSS (bytes) of process ``root`` and every process under it."""
    return sum(int(fields[21]) for fields in _process_tree(root)) * os.sysconf("SC_PAGE_SIZE")


def _redis_urls() -> dict[str, str]:
    """Return the Redis databases the run uses (the environment's, else the club night's),
    emptied first; Unavailable if Redis does not answer."""
    import redis

    urls = {
        "CACHE_URL": os.environ.get("CACHE_URL") or CACHE,
        "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL") or BROKER,
    }
    for url in urls.values():
        try:
            redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).flushdb()
        except redis.RedisError as exc:
            raise Unavailable(f"{url} does not answer: {first_line(exc)}") from None
    return urls


@dataclass
class Step:
    tables: int
    from_sent: list[float]  # seconds from a save sent to a stream hearing it
    from_201: list[float]  # seconds from its 201 read to a stream hearing it (< 0: before)
    missing: int
    errors: list[str]
    rss: float = 0.0  # Pushpin's processes' RSS (bytes) with every stream open

    @property
    def holds(self) -> bool:
        return (
            bool(self.from_201)
            and Spread.of(self.from_201).p95 <= DELIVERY_P95
            and not self.missing
            and not self.errors
        )


@dataclass
class NightLoad:
    """One step of the club night, with push on or off."""

    push: bool
    step: clubnight.Step

    @property
    def holds(self) -> bool:
        f = self.step.figures
        return (
            bool(f.appends and f.pages and f.deliveries)
            and Spread.of(f.appends).p95 <= SAVE_P95
            and Spread.of(f.pages).p95 <= PAGE_P95
            and Spread.of(f.deliveries).p95 <= DELIVERY_P95
            and not f.errors
            and not f.missing
        )


def _groups_of_tree(root: int) -> set[int]:
    """Return the process groups of ``root`` and every process under it."""
    return {int(fields[2]) for fields in _process_tree(root)}


def _night_loads(push: bool, steps: tuple[int, ...]) -> list[NightLoad]:
    """Run the club night's steps on a server of their own, push on (Pushpin in front of it,
    phones streaming) or off (phones polling), until a step does not hold."""
    from tests.e2e.pushpin import Pushpin

    loads: list[NightLoad] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummyref-live-night-") as tmp,
        postgres_database(PG_NIGHT) as url,
    ):
        logs = Path(tmp)
        engine = Pushpin(folder=logs / "pushpin", app="")
        more = {"SECURE_SSL_REDIRECT": "0", **_redis_urls()}
        if push:
            more |= {"PUSH_URL": engine.publish_url, "PUSH_SIG_KEY": engine.sig_key}
        port, server, worker = _serve(url, logs, **more)
        groups = {server.pid, worker.pid}
        try:
            if push:
                engine.app = f"127.0.0.1:{port}"
                engine.write_config()
                engine.start()
                groups |= _groups_of_tree(engine.process.pid)
            for tables in steps:
                push_port = engine.http_port if push else None
                step = clubnight._step(port, tables, groups, logs, push_port, PG_NIGHT)
                load = NightLoad(push, step)
                loads.append(load)
                if not load.holds:
                    break
        finally:
            engine.close()
            _stop(server)
            _stop(worker)
    return loads


@dataclass
class Measured:
    delivery: list[Step]
    nights: list[NightLoad]


def measure() -> Measured:
    """The delivery steps, then the club night polling and with push."""
    if shutil.which("pushpin") is None:
        raise Unavailable("pushpin is not installed (apt-get install pushpin)")
    delivery = measure_delivery()
    nights = _night_loads(False, (POLLING_TABLES,)) + _night_loads(True, CAPACITY_STEPS)
    return Measured(delivery, nights)


def measure_delivery() -> list[Step]:
    from tests.e2e.pushpin import Pushpin

    steps = []
    with (
        tempfile.TemporaryDirectory(prefix="rummyref-live-") as tmp,
        postgres_database(PG_DATABASE) as url,
    ):
        logs = Path(tmp)
        engine = Pushpin(folder=logs / "pushpin", app="")
        more = {"PUSH_URL": engine.publish_url, "PUSH_SIG_KEY": engine.sig_key}
        more |= {"SECURE_SSL_REDIRECT": "0", **_redis_urls()}
        port, *processes = _serve(url, logs, **more)
        engine.app = f"127.0.0.1:{port}"
        engine.write_config()
        engine.start()
        try:
            created: list[dict] = []
            heads: dict[str, int] = {}
            for tables in STEPS:
                created += [_table_create(port, n) for n in range(len(created), tables)]
                step = asyncio.run(_step_async(port, engine.http_port, created, heads))
                step.rss = _rss_of_tree(engine.process.pid)
                steps.append(step)
        except Failed as exc:
            raise Failed(f"{exc}\n{engine.logs()[-1500:]}") from None
        finally:
            engine.close()
            for process in processes:
                _stop(process)
    return steps


def _ranks(times: list[float]) -> str:
    """Return "p50 / p95 / p99" by nearest rank, in ms (negative: before the 201)."""
    if not times:
        return "-"
    ordered = sorted(times)
    ranks = [ordered[max(0, math.ceil(q * len(ordered)) - 1)] for q in (0.50, 0.95, 0.99)]
    return " / ".join(f"{value * 1000:.1f}" for value in ranks) + " ms"


def _nights_report(nights: list[NightLoad]) -> tuple[str, bool]:
    header = ["club night", "save p95", "page load p95", "poll p95", "delivery p50/p95/p99"]
    header += ["missing", "errors", "CPU a table: app (+ PG, Redis)"]
    header += ["phones' CPU", "phones' lag p95", "holds"]
    rows = []
    for night in nights:
        step, f = night.step, night.step.figures
        rows.append(
            [
                f"{step.tables} tables, {'push' if night.push else 'polling every 2 s'}",
                seconds(Spread.of(f.appends).p95) if f.appends else "-",
                seconds(Spread.of(f.pages).p95) if f.pages else "-",
                seconds(Spread.of(f.polls).p95) if f.polls else "-",
                _ranks(f.deliveries),
                str(f.missing),
                str(len(f.errors)),
                f"{step.app_cpu * 100:.2f} % ({step.cpu * 100:.2f} %)",
                f"{step.generator_cpu * 100:.0f} %",
                seconds(Spread.of(step.lag).p95) if step.lag else "-",
                verdict(night.holds) if night.push else "-",
            ]
        )
    held = max((n.step.tables for n in nights if n.push and n.holds), default=0)
    passed = held >= CAPACITY_TARGET
    errors = [e for n in nights for e in n.step.figures.errors][:3]
    note = (
        f"Club night, four phones a table, a hand every ~{clubnight.HAND_EVERY:g} s a table,"
        f" {clubnight.WINDOW:g} s measured after the phones arrive. CPU a table, of one core:"
        " the app's processes (gunicorn, the Celery worker, and Pushpin's with push on) over"
        " the window, divided by the tables; in brackets with PostgreSQL's and Redis's, as the"
        " clubnight section counts it (Redis is shared with whatever else runs). The phones'"
        " process (one core at most) and how late its event loop woke: a late loop adds to"
        " every time it measures. Delivery: a"
        " hand's 201 to another phone's poll bringing it. Largest N with push holding p95 save"
        f" <= {seconds(SAVE_P95)}, page load <= {seconds(PAGE_P95)}, delivery <="
        f" {seconds(DELIVERY_P95)}, no error, nothing missing: {held} tables; target >="
        f" {CAPACITY_TARGET}: {verdict(passed)}."
        + (f" First errors: {'; '.join(errors)}" if errors else "")
    )
    return f"{table(header, rows)}\n{note}", passed


def report(measured: Measured) -> tuple[str, bool]:
    delivery, delivered = _delivery_report(measured.delivery)
    nights, held = _nights_report(measured.nights)
    return f"{delivery}\n\n{nights}", delivered and held


def _delivery_report(steps: list[Step]) -> tuple[str, bool]:
    header = ["tables", "streams", "heard", "sent->heard p50/p95/p99", "201->heard p50/p95/p99"]
    header += ["missing", "Pushpin RSS", "verdict"]
    rows = []
    for step in steps:
        rows.append(
            [
                str(step.tables),
                str(step.tables * WATCHERS),
                str(len(step.from_201)),
                _ranks(step.from_sent),
                _ranks(step.from_201),
                str(step.missing),
                f"{step.rss / 2**20:.0f} MiB",
                verdict(step.holds) + (f" ({'; '.join(step.errors[:2])})" if step.errors else ""),
            ]
        )
    passed = all(step.holds for step in steps if step.tables <= TABLES_TARGET)
    note = (
        f"Live delivery through Pushpin: {SAVES} saves a step, one every {SAVE_EVERY:g} s, each"
        f" heard by its table's {WATCHERS} streams (the event is pushed at the commit, so it"
        " often overtakes the 201). A phone then fetches the news with its usual poll (the"
        " pages bench's news poll). Polling every 2 s instead, the news waits 0-2 s (1 s on"
        f" average). Target p95 201->heard <= {seconds(DELIVERY_P95)} up to {TABLES_TARGET}"
        f" tables, nothing missing: {verdict(passed)}."
    )
    return f"{table(header, rows)}\n{note}", passed


def run() -> tuple[str, bool]:
    """Run the live delivery bench; skipped (no failure) without its servers."""
    return section_run("Live delivery", measure, report)
