"""Table pages and appends on real databases: SQLite, and PostgreSQL when it answers.

Each database runs bench/server.py in a process of its own (settings read DATABASE_URL when
Django starts), with Celery eager. SQLite gets a file in a temporary directory; PostgreSQL
(127.0.0.1:5432, user postgres) a database ``rummyref_bench`` that this bench creates and
drops. The logs are built here once and handed over in a JSON file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import replay
from bench.logs import log_build, moves_build
from bench.postgres import Unavailable, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict
from scoring.events import LogEvent
from scoring.replay import TableState
from scoring.replay import replay as replay_log
from scoring.variants import ramino

ROOT = Path(__file__).resolve().parent.parent
PG_DATABASE = "rummyref_bench"
PAGE_HANDS = 30
# (game, seats): Rummy40 with 2, whose 500-point limit leaves room for 30 hands.
PAGE_TABLES = (("gin", 2), ("rummy40", 2), ("ramino", 4), ("knock_rummy", 4))
GAME_NAMES = {
    "gin": "Gin",
    "rummy40": "Rummy40",
    "ramino": "Ramino",
    "knock_rummy": "Knock Rummy",
    "burraco": "Burraco",
}
PAGE_MEDIAN, PAGE_P95 = 0.100, 0.250
# Appends at the head of move-by-move logs of these lengths: the longest within APPEND_P95,
# and its median within APPEND_GROWTH times the shortest's (the cost does not grow with the
# log: the state at the head is kept, not replayed).
APPEND_LOGS = (50, 2_000, 5_000)
APPENDS_AT_HEAD = 20
APPEND_P95, APPEND_GROWTH = 0.030, 1.5
# Other games played move by move (their worked hand, bench/logs.py moves_build), appended
# at the head of logs of these lengths: the longest within APPEND_P95 and its median within
# the growth given of the shortest's.
PLAYED_APPENDS: Mapping[str, tuple[tuple[int, ...], float]] = {"burraco": ((50, 2_000), 1.3)}
# A poll one event behind the head of any of those logs: p95 and size at most these.
NEWS_P95, NEWS_BYTES = 0.030, 10_000
# A quick hand's htmx save answer: at most this (the board and the news, not the form).
SAVE_BYTES = 8 * 1024
# A poll that finds nothing new (answered from the cached head, before the session).
IDLE_P95 = 0.005
SERVER_TIMEOUT = 900


@dataclass(frozen=True)
class DatabaseRun:
    """Hold one database's times by figure, or why it was not measured."""

    name: str
    server: str = ""
    hands: Mapping[str, int] = field(default_factory=dict)
    times: Mapping[str, Sequence[float]] = field(default_factory=dict)
    sizes: Mapping[str, int] = field(default_factory=dict)  # news poll bytes, by log length
    skipped: str = ""  # not measured, and that is no failure (PostgreSQL not running)
    error: str = ""  # the bench broke on this database

    def spread(self, figure: str) -> Spread | None:
        times = self.times.get(figure)
        return Spread.of(times) if times else None


def hands_log(variant: str, seats: int) -> list[LogEvent]:
    """Return a log ending with its 30th hand, the match still in play (Ramino's 20-hand
    match: its 19th hand).

    A match to 500 may end before its 30th hand; the next seed is then taken, so the page
    shows as many hands whatever the luck of the draw.
    """
    most = min(PAGE_HANDS, ramino.MAX_HANDS - 1) if variant == "ramino" else PAGE_HANDS
    for seed in range(PAGE_HANDS, PAGE_HANDS + 50):
        builder = log_build(variant, PAGE_HANDS * 2, seats=seats, seed=seed)
        hands = builder.state.hands
        if len(hands) - builder.state.finished >= most:
            return builder.events[: hands[most - 1].seq]
    raise RuntimeError(f"no {variant} log of {most} hands in play")


def _with_appends(events: int, variant: str = "knock_rummy") -> dict[str, Any]:
    """Return a move-by-move log of ``events`` events and the moves that follow its last
    one, so every append is legal at its head (Knock Rummy's long log: the replay bench's)."""
    if variant == "knock_rummy" and events == replay.LONG_EVENTS:
        log = replay.long_table()
    else:
        log = moves_build(events, variant)
    extra = moves_build(len(log.events) + APPENDS_AT_HEAD + 1, variant)
    appends = [[e.event_type, e.payload] for e in extra.events[len(log.events) :]]
    return {**_stored(log.events, log.state), "appends": appends}


def fixture_write(path: Path) -> None:
    """Write the logs the servers load: the page tables, and the move-by-move logs of each
    length with their states and the moves to append at their heads."""
    fixture = {
        "tables": {variant: _stored(hands_log(variant, seats)) for variant, seats in PAGE_TABLES},
        "logs": {str(events): _with_appends(events) for events in APPEND_LOGS}
        | {
            f"{variant}:{events}": _with_appends(events, variant)
            for variant, (lengths, _growth) in PLAYED_APPENDS.items()
            for events in lengths
        },
    }
    path.write_text(json.dumps(fixture))


def _stored(log: list[LogEvent], state: TableState | None = None) -> dict[str, Any]:
    """Return a log as the server loads it: (type, payload) pairs and the cached state."""
    state = replay_log(log) if state is None else state
    return {"log": [[e.event_type, e.payload] for e in log], "state": state.to_dict()}


def database_run(name: str, url: str, fixture: Path) -> DatabaseRun:
    """Run bench/server.py on one database and read its figures."""
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    # No broker: table_verify runs in the append's process, after its commit.
    env.pop("CELERY_BROKER_URL", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.server", str(fixture)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=SERVER_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return DatabaseRun(name, error=f"bench/server.py ran over {SERVER_TIMEOUT} s")
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        return DatabaseRun(name, error=f"bench/server.py failed:\n{tail}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return DatabaseRun(
        name, found["database"], found["hands"], found["times"], found.get("sizes", {})
    )


def postgres_run(fixture: Path) -> DatabaseRun:
    """Run the bench on a fresh ``rummyref_bench`` database and drop it; skip it if
    PostgreSQL does not answer."""
    try:
        with postgres_database(PG_DATABASE) as url:
            return database_run("PostgreSQL", url, fixture)
    except Unavailable as exc:
        return DatabaseRun("PostgreSQL", skipped=str(exc))


def _cells(run: DatabaseRun, figure: str) -> list[str]:
    if run.skipped or run.error:
        return ["skipped" if run.skipped else "failed", "-"]
    found = run.spread(figure)
    return [seconds(found.median), seconds(found.p95)] if found else ["-", "-"]


def _holds(runs: Sequence[DatabaseRun], figure: str, median: float, p95: float | None) -> bool:
    """Tell whether every database measured meets the target (a failed one does not)."""
    measured = [run for run in runs if not run.skipped]
    for run in measured:
        found = run.spread(figure)
        if run.error or found is None or found.median >= median:
            return False
        if p95 is not None and found.p95 >= p95:
            return False
    return bool(measured)


def _grows_less(
    runs: Sequence[DatabaseRun], shortest: str, longest: str, growth: float = APPEND_GROWTH
) -> bool:
    """Tell whether, on every database measured, the longest log's median append is within
    ``growth`` times the shortest's."""
    measured = [run for run in runs if not run.skipped and not run.error]
    return bool(measured) and all(
        run.spread(longest).median < growth * run.spread(shortest).median for run in measured
    )


def _played_rows(runs: Sequence[DatabaseRun]) -> tuple[list[list[str]], bool]:
    """Return the rows of the other games' appends played move by move (PLAYED_APPENDS),
    with the shortest's median beside the longest's, and whether their targets hold."""
    rows, passed = [], True
    for variant, (lengths, growth) in PLAYED_APPENDS.items():
        shortest, longest = (f"append:{variant}:{events}" for events in (lengths[0], lengths[-1]))
        for events in lengths:
            figure = f"append:{variant}:{events}"
            target, ok = "", True
            if figure == longest:
                target = f"p95 < {seconds(APPEND_P95)}, median < {growth}× at {lengths[0]}"
                ok = _holds(runs, figure, float("inf"), APPEND_P95) and _grows_less(
                    runs, shortest, longest, growth
                )
                passed &= ok
            ratios = [
                f"{run.spread(figure).median / run.spread(shortest).median:.2f}×"
                for run in runs
                if run.spread(figure) and run.spread(shortest)
            ]
            appends = max((len(run.times.get(figure, ())) for run in runs), default=0)
            rows.append(
                [
                    f"{GAME_NAMES[variant]} move by move: append at the head of {events:,}"
                    f" events ({appends} runs; {', '.join(ratios)} the {lengths[0]}'s)",
                    *(c for run in runs for c in _cells(run, figure)),
                    target,
                    verdict(ok) if target else "",
                ]
            )
    return rows, passed


def report(runs: Sequence[DatabaseRun], long_events: int) -> tuple[str, bool]:
    """Return the tables of figures, side by side per database, and whether targets hold."""
    rows, passed = [], True
    page_target = f"median < {seconds(PAGE_MEDIAN)}, p95 < {seconds(PAGE_P95)}"
    hands = next((run.hands for run in runs if run.hands), {})
    for variant, _seats in PAGE_TABLES:
        figure = f"page:{variant}"
        ok = _holds(runs, figure, PAGE_MEDIAN, PAGE_P95)
        passed &= ok
        label = f"{GAME_NAMES[variant]} page, {hands.get(variant, '?')} hands"
        rows.append([label, *(c for run in runs for c in _cells(run, figure)), page_target])
        rows[-1].append(verdict(ok))
    shortest, longest = (f"append:{events}" for events in (APPEND_LOGS[0], APPEND_LOGS[-1]))
    for events in APPEND_LOGS:
        figure = f"append:{events}"
        target, ok = "", True
        if figure == longest:
            target = f"p95 < {seconds(APPEND_P95)}, median < {APPEND_GROWTH}× at {APPEND_LOGS[0]}"
            ok = _holds(runs, figure, float("inf"), APPEND_P95) and _grows_less(
                runs, shortest, longest
            )
            passed &= ok
        appends = max((len(run.times.get(figure, ())) for run in runs), default=0)
        rows.append(
            [
                f"append at the head of {events:,} events ({appends} runs)",
                *(c for run in runs for c in _cells(run, figure)),
                target,
                verdict(ok) if target else "",
            ]
        )
    played, ok = _played_rows(runs)
    rows += played
    passed &= ok
    for figure, label in (
        ("board:idle", "room board of a 64-player night, 5 rounds in: a poll, nothing moved"),
        ("board:moved", "  the same, right after a table's result moved"),
    ):
        ok = _holds(runs, figure, PAGE_MEDIAN, PAGE_P95)
        passed &= ok
        rows.append([label, *(c for run in runs for c in _cells(run, figure)), page_target])
        rows[-1].append(verdict(ok))
    for variant, _seats in PAGE_TABLES:
        figure = f"idle:{variant}"
        ok = _holds(runs, figure, float("inf"), IDLE_P95)
        passed &= ok
        rows.append(
            [
                f"{GAME_NAMES[variant]} poll, nothing new (204, from the cached head)",
                *(c for run in runs for c in _cells(run, figure)),
                f"p95 < {seconds(IDLE_P95)}",
                verdict(ok),
            ]
        )
    for events in APPEND_LOGS:
        rows.append(
            [
                f"table_verify after an append, {events:,} events (worker)",
                *(c for run in runs for c in _cells(run, f"verify:{events}")),
                "",
                "",
            ]
        )
    for events in APPEND_LOGS:
        figure = f"news:{events}"
        sizes = [run.sizes.get(str(events)) for run in runs if not run.skipped and not run.error]
        small = bool(sizes) and all(size is not None and size <= NEWS_BYTES for size in sizes)
        ok = _holds(runs, figure, float("inf"), NEWS_P95) and small
        passed &= ok
        shown = ", ".join(f"{size / 1000:.1f} KB" for size in sizes if size is not None)
        rows.append(
            [
                f"poll with news at the head of {events:,} events ({shown})",
                *(c for run in runs for c in _cells(run, figure)),
                f"p95 < {seconds(NEWS_P95)}, ≤ {NEWS_BYTES / 1000:g} KB",
                verdict(ok),
            ]
        )
    for variant in ("gin", "ramino"):
        sizes = [
            run.sizes.get(f"save:{variant}") for run in runs if not run.skipped and not run.error
        ]
        ok = bool(sizes) and all(size is not None and size <= SAVE_BYTES for size in sizes)
        passed &= ok
        shown = ", ".join(f"{size / 1000:.1f} KB" for size in sizes if size is not None)
        seats = 2 if variant == "gin" else 4
        rows.append(
            [
                f"{GAME_NAMES[variant]} quick hand saved by htmx, {seats} players ({shown})",
                *("-" for run in runs for _ in range(2)),
                f"≤ {SAVE_BYTES / 1024:g} KiB",
                verdict(ok),
            ]
        )
    columns = [c for run in runs for c in (f"{run.name} median", "p95")]
    header = ["Table pages and appends", *columns, "target", "verdict"]
    polls = [
        [
            f"{GAME_NAMES[variant]} {what}",
            *(c for run in runs for c in _cells(run, f"{kind}:{variant}")),
        ]
        for kind, what in (("poll", "poll, news"),)
        for variant, _seats in PAGE_TABLES
    ]
    other = table(["htmx polls (no target)", *columns], polls)
    notes = [
        "Server time through Django's test Client (middleware, session, view, template; no"
        " network), the scorekeeper's key in the session, DEBUG off as in production,"
        f" DB_CONN_MAX_AGE={os.environ.get('DB_CONN_MAX_AGE', '0')}"
        " (0: a connection per request).",
        "Pages: 50 requests after 5 to warm up; polls (?since=, HX-Request) 20 each, 200 of"
        " those with nothing new (answered before the session: their p95 is not one GC). Logs"
        " from"
        " bench/logs.py, stored as event_append stores them (hash chain, cached state);"
        " Ramino's match has 20 hands at most, so its table shows 19 and is still in play.",
        f"Append: event_append of the next move at the head of move-by-move logs of"
        f" {', '.join(f'{n:,}' for n in APPEND_LOGS)} events (bench/logs.py, inserted in one"
        f" go; the {long_events:,}-event one is the replay bench's), {APPENDS_AT_HEAD} each"
        " after one untimed append (the first after loading replays the log once and keeps"
        " its state, as a table's first append after a restart does). table_verify, which a"
        " worker runs after the commit, is timed apart: the bench runs the one each append"
        " queued before the next append.",
        "The same for "
        + ", ".join(
            f"{GAME_NAMES[variant]}'s worked hand (samples.played_of) dealt again and again,"
            f" at the head of {' and '.join(f'{n:,}' for n in lengths)} events"
            for variant, (lengths, _growth) in PLAYED_APPENDS.items()
        )
        + ".",
    ]
    for run in runs:
        if run.skipped:
            notes.append(f"{run.name} skipped (no failure): {run.skipped}")
        elif run.error:
            notes.append(f"{run.name} failed: {run.error}")
        else:
            notes.append(f"{run.name}: {run.server}")
    passed &= not any(run.error for run in runs)
    return f"{table(header, rows)}\n" + "\n".join(notes) + f"\n\n{other}", passed


def run() -> tuple[str, bool]:
    """Run the pages bench on SQLite and on PostgreSQL; return the report and the verdict."""
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
        fixture = Path(tmp) / "fixture.json"
        fixture_write(fixture)
        runs = [
            database_run("SQLite", f"sqlite:///{tmp}/bench.sqlite3", fixture),
            postgres_run(fixture),
        ]
    return report(runs, replay.LONG_EVENTS)
