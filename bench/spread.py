"""Repeating a slow call within a time budget, and the median and p95 of what it took."""

from __future__ import annotations

import gc
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from bench.timing import duration


def repeat(
    call: Callable[[], Any], *, runs: int, least: int, budget: float, collect_each: bool = True
) -> list[float]:
    """Time ``call`` up to ``runs`` times, stopping after ``budget`` seconds but not before
    ``least`` runs; the collector on during each run, as in a server.

    gc.collect() runs before the first run, and before every one with ``collect_each``: a
    full collection can take longer than a short call, so short ones share one.
    """
    times: list[float] = []
    spent = 0.0
    gc.collect()
    while len(times) < runs and (len(times) < least or spent < budget):
        if collect_each and times:
            gc.collect()
        start = perf_counter()
        call()
        times.append(perf_counter() - start)
        spent += times[-1]
    return times


@dataclass(frozen=True)
class Spread:
    """Hold the number of runs and the median, 95th percentile and maximum of their times."""

    runs: int
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, times: Sequence[float]) -> Spread:
        ordered = sorted(times)
        # Nearest rank: with 20 runs or fewer the p95 is the slowest run.
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
        return cls(len(ordered), statistics.median(ordered), p95, ordered[-1])


def seconds(value: float) -> str:
    """Return a time for people: as duration() below a second, else in seconds."""
    return duration(value) if value < 1 else f"{value:.2f} s"
