"""The players' book: a group's stats page over 500 finished matches among 8 players, and
the worker's update for one more finished match, after 10 matches and after 500 (it reads
one log and writes one row, whatever the history).

bench/book_server.py does the work in a process of its own on each database: SQLite in a
temporary file, and PostgreSQL (127.0.0.1:5432, user postgres) on a database
``rummyref_bench_book`` that this bench creates and drops, when it answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.book_server import EARLY, MATCHES, PAGE_REQUESTS, PLAYERS, UPDATE_RUNS
from bench.pages import ROOT
from bench.postgres import Unavailable, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict

PG_DATABASE = "rummyref_bench_book"
PAGE_P95, UPDATE_P95 = 0.100, 0.050
# The update after MATCHES matches costs at most this many times the one after EARLY.
UPDATE_GROWTH = 1.5
SERVER_TIMEOUT = 900
TITLE = f"Players' book, {MATCHES} matches among {len(PLAYERS)} players"


@dataclass(frozen=True)
class DatabaseRun:
    """Hold one database's figures, or why it was not measured."""

    name: str
    found: dict[str, Any] = field(default_factory=dict)
    skipped: str = ""  # not measured, and that is no failure (PostgreSQL not running)
    error: str = ""  # the bench broke on this database

    def spread(self, figure: str) -> Spread | None:
        """Return the spread of one figure: "update:<matches>" or "page:<kept|fresh>"."""
        if not self.found:
            return None
        kind, which = figure.split(":")
        times = self.found["update"][which]["times"] if kind == "update" else None
        times = self.found["pages"][which] if kind == "page" else times
        return Spread.of(times)


def database_run(name: str, url: str, cache_dir: str) -> DatabaseRun:
    """Run bench/book_server.py on one database and read its figures."""
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1", "CACHE_DIR": cache_dir}
    # No broker: the task is timed in the bench's process.
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CACHE_URL", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.book_server"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=SERVER_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return DatabaseRun(name, error=f"bench/book_server.py ran over {SERVER_TIMEOUT} s")
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        return DatabaseRun(name, error=f"bench/book_server.py failed:\n{tail}")
    return DatabaseRun(name, json.loads(done.stdout.strip().splitlines()[-1]))


def postgres_run(cache_dir: str) -> DatabaseRun:
    """Run the bench on a fresh PostgreSQL database and drop it; skip it if PostgreSQL does
    not answer."""
    try:
        with postgres_database(PG_DATABASE) as url:
            return database_run("PostgreSQL", url, cache_dir)
    except Unavailable as exc:
        return DatabaseRun("PostgreSQL", skipped=str(exc))


def _cells(run: DatabaseRun, figure: str) -> list[str]:
    if run.skipped or run.error:
        return ["skipped" if run.skipped else "failed", "-"]
    found = run.spread(figure)
    return [seconds(found.median), seconds(found.p95)]


def _measured(runs: Sequence[DatabaseRun]) -> list[DatabaseRun]:
    return [run for run in runs if not run.skipped]


def _p95_holds(runs: Sequence[DatabaseRun], figure: str, target: float) -> bool:
    measured = _measured(runs)
    return bool(measured) and all(
        not run.error and run.spread(figure).p95 <= target for run in measured
    )


def _flat(runs: Sequence[DatabaseRun]) -> bool:
    """Tell whether, on every database measured, the update after MATCHES matches costs at
    most UPDATE_GROWTH times the one after EARLY (medians)."""
    measured = _measured(runs)
    return bool(measured) and all(
        not run.error
        and run.spread(f"update:{MATCHES}").median
        <= UPDATE_GROWTH * run.spread(f"update:{EARLY}").median
        for run in measured
    )


def report(runs: Sequence[DatabaseRun]) -> tuple[str, bool]:
    """Return the figures side by side per database, and whether every target holds."""
    rows, passed = [], True
    update_target = f"p95 ≤ {seconds(UPDATE_P95)}"
    for matches in (EARLY, MATCHES):
        figure = f"update:{matches}"
        ok = _p95_holds(runs, figure, UPDATE_P95)
        label = f"one more match's result, after {matches} matches (worker task)"
        target = update_target
        if matches == MATCHES:
            ok &= _flat(runs)
            target += f", median ≤ {UPDATE_GROWTH}× at {EARLY}"
        passed &= ok
        rows.append([label, *(c for run in runs for c in _cells(run, figure)), target, verdict(ok)])
    page_target = f"p95 ≤ {seconds(PAGE_P95)}"
    for figure, label in (
        ("page:kept", f"stats page, {MATCHES} matches (the book kept)"),
        ("page:fresh", "  first view after a result moved (the book worked out)"),
    ):
        ok = _p95_holds(runs, figure, PAGE_P95)
        passed &= ok
        rows.append([label, *(c for run in runs for c in _cells(run, figure)), page_target])
        rows[-1].append(verdict(ok))
    columns = [c for run in runs for c in (f"{run.name} median", "p95")]
    header = [TITLE, *columns, "target", "verdict"]
    sample = next((run.found for run in runs if run.found), {})
    games = ", ".join(f"{variant} {n}" for variant, n in sample.get("games", {}).items())
    notes = [
        f"A group of {len(PLAYERS)} players and {MATCHES} finished matches ({games}) from"
        " bench/logs.py (hands by real cards, about one correction in sixteen events),"
        f" {sample.get('events', 0):,} events inserted in one go with their hash chains, seats"
        " and heads, their results stored by games.standings.services.book_results_refresh"
        f" (in {sample.get('built', 0):.0f} s, not timed).",
        "Worker: games.tasks.book_results_refresh on the match just finished, run in the"
        f" bench's process (Celery eager), {UPDATE_RUNS} runs when it is the group's"
        f" {EARLY}th match and again, the same log at a new table, its {MATCHES}th: one log"
        " replayed, one row written, whatever the history. Its first run writes the row, the"
        " others write it again.",
        "Page: /g/<id>/stats/ through Django's test Client (server time, no network) with the"
        f" group's viewer key, DEBUG off, {PAGE_REQUESTS} requests after 3 to warm up: the"
        " stored results' newest time read, then the book kept in the cache for it. The first"
        " view after a result moved reads the results and works the book out again: timed"
        f" {PAGE_REQUESTS // 2} times after emptying the cache.",
    ]
    for run in runs:
        if run.skipped:
            notes.append(f"{run.name} skipped (no failure): {run.skipped}")
        elif run.error:
            notes.append(f"{run.name} failed: {run.error}")
        else:
            count = run.found["matches"]
            ok = count == MATCHES
            passed &= ok
            notes.append(
                f"{run.name}: {run.found['database']}; the page counts {count} matches"
                f" ({verdict(ok)})."
            )
    passed &= not any(run.error for run in runs)
    return f"{table(header, rows)}\n" + "\n".join(notes), passed


def run() -> tuple[str, bool]:
    """Run the book bench on SQLite and on PostgreSQL; return the report and the verdict."""
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-book-") as tmp:
        runs = [
            database_run("SQLite", f"sqlite:///{tmp}/bench.sqlite3", f"{tmp}/cache-sqlite"),
            postgres_run(f"{tmp}/cache-postgres"),
        ]
    return report(runs)


if __name__ == "__main__":
    text, ok = run()
    print(text)
    sys.exit(0 if ok else 1)
