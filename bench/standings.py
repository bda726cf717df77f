"""Standings on PostgreSQL and Redis: a 2,000-match season recomputed from its logs by one
real Celery worker, the recompute one more finished match queues, and the standings pages.

bench/standings_server.py does the work in a process of its own (settings read DATABASE_URL
and CELERY_BROKER_URL when Django starts), on a database ``rummyref_bench_standings`` that
this bench creates and drops and on Redis database 14; it starts the worker itself. Without
PostgreSQL or Redis the section is skipped, which is no failure.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from bench.pages import PAGE_MEDIAN, PAGE_P95, ROOT
from bench.postgres import Unavailable, first_line, postgres_database
from bench.spread import Spread, seconds
from bench.standings_server import MATCHES, PLAYERS, REQUESTS, SEATS, WARMUP
from bench.timing import table, verdict

PG_DATABASE = "rummyref_bench_standings"
BROKER = "redis://127.0.0.1:6379/14"
FULL_TARGET, INCREMENTAL_TARGET = 60.0, 5.0
SERVER_TIMEOUT = 600
TITLE = f"Standings, {MATCHES:,}-match season (PostgreSQL, Redis)"


class Failed(Exception):
    """The bench broke: the section fails."""


def broker_check() -> None:
    """Raise Unavailable unless Redis answers a ping."""
    import redis

    try:
        redis.Redis.from_url(BROKER, socket_connect_timeout=3, socket_timeout=3).ping()
    except redis.RedisError as exc:
        raise Unavailable(f"{BROKER} does not answer: {first_line(exc)}") from None


def server_run(url: str) -> dict[str, Any]:
    """Run bench/standings_server.py on the database ``url`` and the broker; read its figures."""
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": BROKER, "DEBUG": "1"}
    command = [sys.executable, "-m", "bench.standings_server"]
    # A session of its own, so the worker it starts can be ended with it by one group id.
    with subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=SERVER_TIMEOUT)
        except BaseException as exc:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            if isinstance(exc, subprocess.TimeoutExpired):
                raise Failed(f"bench/standings_server.py ran over {SERVER_TIMEOUT} s") from None
            raise
    if process.returncode != 0:
        tail = "\n".join(err.strip().splitlines()[-20:])
        raise Failed(f"bench/standings_server.py failed:\n{tail}")
    return json.loads(out.strip().splitlines()[-1])


def _row(label: str, times: Sequence[float], target: str, ok: bool | None) -> list[str]:
    found = Spread.of(times)
    p95 = seconds(found.p95) if found.runs > 1 else "-"
    return [
        label,
        str(found.runs),
        seconds(found.median),
        p95,
        target,
        verdict(ok) if ok is not None else "",
    ]


def _page_ok(found: Spread) -> bool:
    return found.median < PAGE_MEDIAN and found.p95 < PAGE_P95


def report(found: dict[str, Any]) -> tuple[str, bool]:
    """Return the tables of figures beside their targets, and whether every target holds."""
    full, incremental, pages = found["full"], found["incremental"], found["pages"]
    service = Spread.of(incremental["service"])
    full_ok = full["wall"] < FULL_TARGET
    worker_ok = incremental["wall"] < INCREMENTAL_TARGET
    service_ok = service.median < INCREMENTAL_TARGET
    page_target = f"median < {seconds(PAGE_MEDIAN)}, p95 < {seconds(PAGE_P95)}"
    page_ok = {figure: _page_ok(Spread.of(times)) for figure, times in pages.items()}
    rows = [
        _row(
            f"full recompute, 1 worker: task sent → job done ({full['tables']:,} tables)",
            [full["wall"]],
            f"< {seconds(FULL_TARGET)}",
            full_ok,
        ),
        _row("  the job's own created_at → finished_at", [full["job"]], "", None),
        _row(
            "one more match: its last append → standings moved (worker)",
            [incremental["wall"]],
            f"< {seconds(INCREMENTAL_TARGET)}",
            worker_ok,
        ),
        _row(
            "  the same recompute, service call in the bench's process",
            incremental["service"],
            f"median < {seconds(INCREMENTAL_TARGET)}",
            service_ok,
        ),
        _row(
            f"season page (its {MATCHES:,} tables, a page of them shown)",
            pages["season"],
            page_target,
            page_ok["season"],
        ),
        _row("league standings page", pages["league"], page_target, page_ok["league"]),
    ]
    header = [TITLE, "runs", "median", "p95", "target", "verdict"]
    checks, checks_ok = [], True
    for label, step, matches in (
        ("after the full recompute", full, MATCHES),
        ("after one more match", incremental, MATCHES + 1),
    ):
        expected = (matches, matches * SEATS)
        got = (step["matches"], step["played"])
        checks_ok &= got == expected
        checks.append(
            [
                label,
                "{:,}, {:,}".format(*got),
                "{:,}, {:,}".format(*expected),
                verdict(got == expected),
            ]
        )
    check_header = ["SeasonStandings: matches, sum of played", "found", "expected", "verdict"]
    notes = [
        f"{found['database']}, Redis at {BROKER}; one worker: celery -A rummyref worker"
        " --pool=solo --concurrency=1, DEBUG off as in production, started and answering a"
        " ping before the first task is sent.",
        f"The season: {MATCHES:,} finished Gin matches (Classic to 50), {PLAYERS} club players"
        f" drawn two a table, {found['events']:,} events, about {found['hands']:.1f} hands a"
        " match (the first 100); logs from bench/logs.py (hands by real cards, about one"
        " correction in 16 events), inserted in one go with their hash chains, seats, heads"
        " and cached states"
        f" in {found['built']:.0f} s (not timed).",
        "Full recompute: games.tasks.standings_recompute_all on a fresh RecomputeJob, every"
        " log replayed into its MatchResult, then the league's standings and ratings; timed"
        " from .delay() to the job row saying done (polled every 0.2 s).",
        "One more match: a new table loaded but its last event, which"
        " games.tables.services.event_append then appends; its commit queues"
        " games.tasks.season_standings_recompute, timed from the append to"
        " SeasonStandings.computed_at moving (polled every 0.2 s). Only the new log is"
        f" replayed; standings and ratings of all {MATCHES + 1:,} matches are worked out"
        " again. Then games.standings.services.season_standings_recompute itself, called in the"
        " bench's process (as many runs as 5 s allow, at most 5).",
        f"Pages: Django's test Client (server time, no network), signed in as the club's owner"
        f" (a member: table links and the new-table form too), DEBUG off, {REQUESTS} requests"
        f" after {WARMUP} to warm up, on the {MATCHES:,}-match season, before the one more"
        " match.",
    ]
    passed = full_ok and worker_ok and service_ok and all(page_ok.values()) and checks_ok
    text = f"{table(header, rows)}\n" + "\n".join(notes) + f"\n\n{table(check_header, checks)}"
    return text, passed


def not_measured(reason: str, *, failed: bool) -> tuple[str, bool]:
    """Return the section's report when nothing was measured: skipped (no failure) or broken."""
    word = "failed" if failed else "skipped"
    row = [
        f"{MATCHES:,}-match season: recomputes and pages",
        word,
        "-",
        verdict(False) if failed else word,
    ]
    header = [TITLE, "median", "p95", "verdict"]
    why = f"Failed: {reason}" if failed else f"Skipped (no failure): {reason}"
    return f"{table(header, [row])}\n{why}", not failed


def run() -> tuple[str, bool]:
    """Run the standings bench on PostgreSQL and Redis; return the report and the verdict."""
    try:
        broker_check()
        with postgres_database(PG_DATABASE) as url:
            found = server_run(url)
    except Unavailable as exc:
        return not_measured(str(exc), failed=False)
    except Failed as exc:
        return not_measured(str(exc), failed=True)
    return report(found)
