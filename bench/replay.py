"""Replay: the engine folding whole table logs, with no database."""

from __future__ import annotations

import functools
import random
from time import perf_counter

from bench.logs import SEATS, LogBuilder, bench_log, log_build, moves_build
from bench.spread import Spread, repeat, seconds
from bench.timing import table, verdict
from scoring.events import LogEvent
from scoring.replay import replay

LONG_EVENTS = 2_000
LONG_P95 = 0.5  # one 2,000-event log of moves: p95 under 500 ms
WHOLE_VARIANT, WHOLE_SEATS = "knock_rummy", 4
# 2,000 hands entered whole is some fifty matches' worth at one table: the match result is
# worked out again after each hand, over all of them, so this log costs more per event.
WHOLE_P95 = 2.0
# And its time per event within LINEAR_GROWTH times that of a log ten times shorter.
LINEAR_GROWTH = 2.0
TABLES = 200
TABLE_EVENTS = (30, 60)
TABLES_TOTAL = 5.0  # 200 tables replayed one after the other: under 5 s in all
GAMES = ("gin", "rummy40", "ramino", "knock_rummy")
# Runs of each figure: at most RUNS, at least LEAST, and none begun after BUDGET seconds.
RUNS, LEAST, BUDGET = 20, 3, 5.0


@functools.cache
def long_table() -> LogBuilder:
    """Return the 2,000-event log of hands played move by move (built once: the pages bench
    appends at its head too)."""
    return moves_build(LONG_EVENTS)


@functools.cache
def whole_hands_table() -> LogBuilder:
    """Return a 2,000-event log of hands entered whole.

    Only Knock Rummy's options let a match run to 2,000 hands entered whole (Gin and
    Rummy40 stop at 500 points, Ramino after 20 hands), so the log is Knock Rummy's.
    """
    return log_build(WHOLE_VARIANT, LONG_EVENTS, seats=WHOLE_SEATS, seed=2_000)


def many_tables() -> list[list[LogEvent]]:
    """Return 200 logs, the four games in turn, 30 to 60 events each (fewer if the match
    ends first), each with its own seed and a number of seats the game allows."""
    rng = random.Random(TABLES)
    logs = []
    for number in range(TABLES):
        variant = GAMES[number % len(GAMES)]
        seats = rng.choice(SEATS[variant])
        logs.append(bench_log(variant, rng.randint(*TABLE_EVENTS), seats=seats, seed=number))
    return logs


def replay_all(logs: list[list[LogEvent]]) -> None:
    for log in logs:
        replay(log)


def run() -> tuple[str, bool]:
    """Time the replay of one long log and of 200 tables; return the report and the verdict."""
    started = perf_counter()
    builder = long_table()
    long_log = builder.events
    whole = whole_hands_table()
    whole_log = whole.events
    tables = many_tables()
    built = perf_counter() - started
    for log, state in ((long_log, builder.state), (whole_log, whole.state)):
        if len(log) != LONG_EVENTS or state.finished:
            raise RuntimeError(f"a long log stops at {len(log)} events or ends its match")

    long = Spread.of(repeat(lambda: replay(long_log), runs=RUNS, least=LEAST, budget=BUDGET))
    hands = Spread.of(repeat(lambda: replay(whole_log), runs=LEAST, least=LEAST, budget=0))
    many = Spread.of(repeat(lambda: replay_all(tables), runs=LEAST, least=LEAST, budget=0))
    long_ok, many_ok = long.p95 < LONG_P95, many.median < TABLES_TOTAL
    hands_ok = hands.p95 < WHOLE_P95
    events = sum(map(len, tables))
    rows = [
        [
            f"one {LONG_EVENTS:,}-event log, move by move ({len(builder.state.hands)} hands)",
            str(long.runs),
            seconds(long.median),
            seconds(long.p95),
            f"p95 < {seconds(LONG_P95)}",
            verdict(long_ok),
        ],
        [
            f"one {LONG_EVENTS:,}-event log, {len(whole.state.hands):,} hands entered whole",
            str(hands.runs),
            seconds(hands.median),
            seconds(hands.p95),
            f"p95 < {seconds(WHOLE_P95)}",
            verdict(hands_ok),
        ],
        [
            f"{TABLES} tables, {events:,} events, in all",
            str(many.runs),
            seconds(many.median),
            seconds(many.p95),
            f"median < {seconds(TABLES_TOTAL)}",
            verdict(many_ok),
        ],
    ]
    # Linear: a log of hands entered whole ten times shorter, time per event side by side.
    short = log_build(WHOLE_VARIANT, LONG_EVENTS // 10, seats=WHOLE_SEATS, seed=2_000).events
    short_times = Spread.of(repeat(lambda: replay(short), runs=RUNS, least=LEAST, budget=BUDGET))
    per_short = short_times.median / len(short)
    per_long = hands.median / len(whole_log)
    linear_ok = per_long <= LINEAR_GROWTH * per_short
    rows.append(
        [
            f"  per event: {len(short):,}-event log of hands entered whole → {len(whole_log):,}",
            str(short_times.runs),
            f"{per_short * 1e6:.0f} µs → {per_long * 1e6:.0f} µs",
            f"× {per_long / per_short:.2f}",
            f"≤ {LINEAR_GROWTH:g}× (linear)",
            verdict(linear_ok),
        ]
    )
    header = ["Replay, engine only (no database)", "runs", "median", "p95", "target", "verdict"]
    half = repeat(lambda: replay(long_log[: LONG_EVENTS // 2]), runs=1, least=1, budget=0)[0]
    lengths = {g: sum(len(t) for t in tables if t[0].payload["variant"] == g) for g in GAMES}
    notes = (
        "The move-by-move log (bench/logs.py, moves_build): Knock Rummy's worked hand of"
        " scoring/variants/knock_rummy/samples.py dealt again and again (draws, melds, a"
        " rearrangement, a knock, hands shown) at a table playing to 1,000,000.\n"
        "The other logs (bench_log): table_created, then hands entered by real cards, about one"
        " correction (hand_voided, hand_amended) in 16 events; the whole-hands one is Knock"
        f" Rummy's ({WHOLE_SEATS} seats, target 1,000,000): no other game's options let a match"
        " run to 2,000 hands entered whole (Gin and Rummy40 stop at 500 points, Ramino after 20"
        " hands).\n"
        f"The {TABLES} tables: the four games in turn, {TABLE_EVENTS[0]} to {TABLE_EVENTS[1]}"
        " events each or fewer where the match ends first; events per game: "
        + ", ".join(f"{g} {n:,}" for g, n in lengths.items())
        + ".\n"
        f"The long log's first {LONG_EVENTS // 2:,} events replay in {seconds(half)} (one run;"
        f" all {LONG_EVENTS:,}: the median above).\n"
        f"Garbage collector on, as in a server; logs built in {built:.1f} s (not timed)."
    )
    return f"{table(header, rows)}\n{notes}", long_ok and many_ok and hands_ok and linear_ok
