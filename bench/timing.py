"""Timing one call per hand and summarising many."""

from __future__ import annotations

import gc
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter_ns
from typing import Any

RUNS = 3

# BENCH_QUICK=1: the sections that read it run their code on a few runs and small inputs, to
# tell in minutes that they still run (CI does); their figures then say nothing of the targets.
QUICK = os.environ.get("BENCH_QUICK") == "1"
QUICK_NOTE = "Quick run (BENCH_QUICK=1): few runs, small inputs; these figures are no measure."


def sized(full: int, quick: int) -> int:
    """Return ``full``, or ``quick`` in a quick run."""
    return quick if QUICK else full


def best_of(call: Callable[[Any], Any], arg: Any, runs: int = RUNS) -> float:
    """Return the fastest of `runs` calls, in seconds, with the garbage collector off."""
    best = None
    for _ in range(runs):
        gc.disable()
        try:
            start = perf_counter_ns()
            call(arg)
            elapsed = perf_counter_ns() - start
        finally:
            gc.enable()
        best = elapsed if best is None else min(best, elapsed)
    return best / 1e9


def time_all(call: Callable[[Any], Any], args: Sequence[Any]) -> list[float]:
    """Time the call on every argument (gc.collect() first, so earlier garbage costs nothing)."""
    gc.collect()
    return [best_of(call, arg) for arg in args]


def time_side_by_side(
    ours: Callable[[Any], Any],
    our_args: Sequence[Any],
    theirs: Callable[[Any], Any],
    their_args: Sequence[Any],
) -> tuple[list[float], list[float]]:
    """Time two calls hand by hand, alternating, so that both see the same machine load."""
    gc.collect()
    mine, other = [], []
    for a, b in zip(our_args, their_args, strict=True):
        mine.append(best_of(ours, a))
        other.append(best_of(theirs, b))
    return mine, other


@dataclass(frozen=True)
class Summary:
    """Hold the median, 99th percentile and maximum of per-hand times, in seconds."""

    median: float
    p99: float
    max: float

    @classmethod
    def of(cls, times: Sequence[float]) -> Summary:
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return cls(statistics.median(ordered), p99, ordered[-1])


def duration(seconds: float) -> str:
    """Return a time for people: µs below a millisecond, else ms."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Return rows as aligned text columns (the first left-aligned, the rest right)."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [
            str(cell).ljust(width) if i == 0 else str(cell).rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])
