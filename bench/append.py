"""API appends at 20, 300 and 1,500 hands: on the embedded defaults (SQLite, eager Celery,
file cache: ``make run``) and on PostgreSQL with Redis and one real Celery worker.

An append's cost must not grow with the log: the median at 1,500 hands within 1.3 times the
median at 20, on both setups; and its answer (the stored event, the new head, the totals)
must stay under 4 KB at any length. bench/append_server.py does the work, one process per
setup (settings read the environment when Django starts). The embedded run uses a SQLite
file and a cache directory of its own; the PostgreSQL run a database
``rummyref_bench_append`` that this bench creates and drops, Redis database 15 (cache and
broker) and a worker it starts. Without PostgreSQL or Redis that run is skipped, which is no
failure.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.append_server import APPENDS, HANDS
from bench.pages import ROOT
from bench.postgres import Unavailable, first_line, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict

PG_DATABASE = "rummyref_bench_append"
REDIS = "redis://127.0.0.1:6379/15"
GROWTH = 1.3  # the median at the longest log within this many times the shortest's
ANSWER_BYTES = 4_096
SERVER_TIMEOUT = 900
TITLE = "API append (POST /api/v1/tables/{id}/events/)"


class Failed(Exception):
    """The bench broke: the section fails."""


def server_run(env: dict[str, str]) -> dict[str, Any]:
    """Run bench/append_server.py with ``env`` added; read its figures."""
    base = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "CELERY_BROKER_URL")}
    # DEBUG on for settings (no HTTPS redirect for the test client); the server process
    # turns it off itself, as bench/server.py does, and the worker runs with it off.
    env = {
        **base,
        "DEBUG": "1",
        "LOG_CHAIN_KEY": secrets.token_urlsafe(32),
        "API_THROTTLE_ANON": "100000/min",
        **env,
    }
    with subprocess.Popen(
        [sys.executable, "-m", "bench.append_server"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so the worker it starts ends with it, by one group id
    ) as process:
        try:
            out, err = process.communicate(timeout=SERVER_TIMEOUT)
        except BaseException as exc:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            if isinstance(exc, subprocess.TimeoutExpired):
                raise Failed(f"bench/append_server.py ran over {SERVER_TIMEOUT} s") from None
            raise
    if process.returncode != 0:
        tail = "\n".join(err.strip().splitlines()[-20:])
        raise Failed(f"bench/append_server.py failed:\n{tail}")
    return json.loads(out.strip().splitlines()[-1])


def embedded_run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-append-") as scratch:
        env = {
            "DATABASE_URL": f"sqlite:///{Path(scratch) / 'bench.sqlite3'}",
            "CACHE_DIR": str(Path(scratch) / "cache"),
        }
        return server_run(env)


def redis_check() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3, socket_timeout=3).ping()
    except redis.RedisError as exc:
        raise Unavailable(f"{REDIS} does not answer: {first_line(exc)}") from None


def postgres_run() -> dict[str, Any]:
    redis_check()
    with postgres_database(PG_DATABASE) as url:
        env = {"DATABASE_URL": url, "CACHE_URL": REDIS, "CELERY_BROKER_URL": REDIS}
        return server_run(env)


def _setup_rows(name: str, found: dict[str, Any]) -> tuple[list[list[str]], bool]:
    medians = {hands: Spread.of(found["times"][str(hands)]).median for hands in HANDS}
    rows = []
    for hands in HANDS:
        spread = Spread.of(found["times"][str(hands)])
        events = found["events"][str(hands)]
        rows.append(
            [
                f"  {hands:,} hands ({events:,} events)",
                str(spread.runs),
                seconds(spread.median),
                seconds(spread.p95),
                "",
                "",
            ]
        )
    shortest, longest = medians[HANDS[0]], medians[HANDS[-1]]
    flat = longest <= GROWTH * shortest
    rows.append(
        [
            f"  median at {HANDS[-1]:,} / median at {HANDS[0]}",
            "",
            f"{longest / shortest:.2f} ×",
            "",
            f"≤ {GROWTH} ×",
            verdict(flat),
        ]
    )
    size = max(found["sizes"].values())
    small = size <= ANSWER_BYTES
    rows.append(
        [
            f"  answer size, the largest ({found['sizes'][str(HANDS[-1])]:,} B at {HANDS[-1]:,})",
            "",
            f"{size:,} B",
            "",
            f"≤ {ANSWER_BYTES // 1024} KB",
            verdict(small),
        ]
    )
    head = f"{name}: {found['database']}, {found['cache']}, Celery {found['celery']}"
    return [[head, "", "", "", "", ""], *rows], flat and small


def report(runs: dict[str, dict[str, Any] | str]) -> tuple[str, bool]:
    header = [TITLE, "runs", "median", "p95", "target", "verdict"]
    rows, passed, notes = [], True, []
    for name, found in runs.items():
        if isinstance(found, str):
            failed = found.startswith("Failed")
            word = verdict(False) if failed else "skipped"
            rows.append([f"{name}: {word.lower()}", "", "", "", "", word])
            notes.append(f"{name}: {found}")
            passed &= not failed
            continue
        more, ok = _setup_rows(name, found)
        rows += more
        passed &= ok
    notes += [
        f"Knock Rummy, four seats, to 1,000,000 points: a log from bench/logs.py (hands by real"
        f" cards, about one correction in 16 events) loaded in one go up to its 20th, 300th and"
        f" 1,500th hand (hash chain, head, cached state), then its next {APPENDS + 1} events"
        f" posted through the API with Django's test Client (server time, no network), DEBUG off;"
        f" the first untimed (it replays the log, as after a restart); then one append at"
        f" each length in turn, so that all three see the same load.",
        "Embedded: verification runs in the request (eager Celery). PostgreSQL: one worker"
        " (celery --pool=solo) verifies each append before the next is posted.",
    ]
    return f"{table(header, rows)}\n" + "\n".join(notes), passed


def run() -> tuple[str, bool]:
    """Run the append bench on both setups; return the report and the verdict."""
    runs: dict[str, dict[str, Any] | str] = {}
    for name, call in (("embedded defaults", embedded_run), ("PostgreSQL + worker", postgres_run)):
        try:
            runs[name] = call()
        except Unavailable as exc:
            runs[name] = f"Skipped (no failure): {exc}"
        except Failed as exc:
            runs[name] = f"Failed: {exc}"
    return report(runs)


if __name__ == "__main__":
    text, ok = run()
    print(text)
    sys.exit(0 if ok else 1)
