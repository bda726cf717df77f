"""Tournament nights: pairing a 64-player round (pure engine), and the room board of a
64-player night under its phones' polls (bench/server.py, on SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from fractions import Fraction

from bench.spread import Spread, repeat, seconds
from bench.timing import table, verdict
from scoring.tournaments.ranking import points_so_far
from scoring.tournaments.results import Bye, ByPlace, TableResult, WinDrawLoss
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import standing_order, swiss_round

PLAYERS, ROUNDS_PLAYED = 64, 5
PAIRING_TARGET = 0.100
RUNS, LEAST, BUDGET = 20, 5, 5.0


def _swiss_night(rng: random.Random) -> tuple[list[int], list[TableResult], list[Bye]]:
    """Play five Swiss rounds of 64 with random winners; return the field and its results."""
    players, results, byes = list(range(PLAYERS)), [], []
    for number in range(1, ROUNDS_PLAYED + 1):
        pairing = swiss_round(players, results, byes, WinDrawLoss(), round_number=number, seed=1)
        for a, b in pairing.tables:
            margin = Fraction(rng.randint(1, 60))
            winner_first = rng.random() < 0.5
            results.append(
                TableResult(
                    number,
                    (a, b),
                    (1, 2) if winner_first else (2, 1),
                    (margin, -margin) if winner_first else (-margin, margin),
                )
            )
    return players, results, byes


def _seated_night(rng: random.Random) -> tuple[list[int], list[TableResult]]:
    """Seat five rounds of 64 at tables of 4 with random places; return the results."""
    players, results = list(range(PLAYERS)), []
    for number in range(1, ROUNDS_PLAYED + 1):
        order = standing_order(players, results, [], ByPlace(), seed=1)
        pairing = seat_round(
            order, met_counts(results), round_number=number, size=4, smallest=3, largest=6
        )
        for seated in pairing.tables:
            places = list(range(1, len(seated) + 1))
            rng.shuffle(places)
            results.append(
                TableResult(number, seated, tuple(places), tuple(Fraction(0) for _ in seated))
            )
    return players, results


def run() -> tuple[str, bool]:
    rng = random.Random(64)
    players, results, byes = _swiss_night(rng)
    swiss = Spread.of(
        repeat(
            lambda: swiss_round(
                players, results, byes, WinDrawLoss(), round_number=ROUNDS_PLAYED + 1, seed=1
            ),
            runs=RUNS,
            least=LEAST,
            budget=BUDGET,
        )
    )
    players, seated_results = _seated_night(rng)

    def seat_next() -> None:
        order = standing_order(players, seated_results, [], ByPlace(), seed=1)
        seat_round(
            order,
            met_counts(seated_results),
            round_number=ROUNDS_PLAYED + 1,
            size=4,
            smallest=3,
            largest=6,
            points=points_so_far(seated_results, [], ByPlace()),
        )

    seating = Spread.of(repeat(seat_next, runs=RUNS, least=LEAST, budget=BUDGET))
    rows, passed = [], True
    for label, found in (
        (f"Swiss round {ROUNDS_PLAYED + 1} of {PLAYERS} players (two at a table)", swiss),
        (f"seating round {ROUNDS_PLAYED + 1} of {PLAYERS} players at tables of 4", seating),
    ):
        ok = found.p95 < PAIRING_TARGET
        passed &= ok
        rows.append(
            [
                label,
                str(found.runs),
                seconds(found.median),
                seconds(found.p95),
                f"p95 < {seconds(PAIRING_TARGET)}",
                verdict(ok),
            ]
        )
    header = ["Tournament pairing (engine)", "runs", "median", "p95", "target", "verdict"]
    note = (
        f"After {ROUNDS_PLAYED} rounds with random results (seeded): the standings, then the"
        " pairing (networkx matching) or the seating (swaps and restarts), as round_start"
        " does. The room board of a 64-player night is in the table pages section."
    )
    return f"{table(header, rows)}\n{note}", passed
