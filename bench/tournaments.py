"""Tournament nights: pairing a 64-player round (pure engine), a 24-pair Burraco night
(3 Mitchell + 1 Danese) paired and ranked, and the room board of a 64-player night under its
phones' polls (bench/server.py, on SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from fractions import Fraction

from bench.spread import Spread, repeat, seconds
from bench.timing import table, verdict
from scoring.tournaments.pairs_night import (
    PairsNight,
    match_result,
    next_round,
    night_plan,
    night_standings,
)
from scoring.tournaments.ranking import points_so_far
from scoring.tournaments.results import Bye, ByPlace, TableResult, WinDrawLoss
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import standing_order, swiss_round
from scoring.tournaments.victory_points import FIBUR_3_HANDS

PLAYERS, ROUNDS_PLAYED = 64, 5
PAIRING_TARGET = 0.100
RUNS, LEAST, BUDGET = 20, 5, 5.0
BURRACO_PAIRS = 24


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


def _burraco_margins(rng: random.Random) -> list[list[int]]:
    """Return each round's points differences, table by table (NS's less EW's), seeded."""
    return [[5 * rng.randint(-300, 300) for _ in range(BURRACO_PAIRS // 2)] for _ in range(4)]


def _burraco_night(margins: list[list[int]]) -> None:
    """Pair every round of a 24-pair "3 Mitchell + 1 Danese" night at 3 hands, playing each
    with the given differences, then rank the night (what the director's page does)."""
    night = PairsNight(
        pairs=tuple(range(1, BURRACO_PAIRS + 1)),
        plan=night_plan("3 Mitchell + 1 Danese"),
        table=FIBUR_3_HANDS,
    )
    results: list[TableResult] = []
    byes: list[Bye] = []
    for round_margins in margins:
        pairs_round = next_round(night, results, byes)
        results += [
            match_result(pairs_round.round_number, t.ns, t.ew, 1000 + margin, 1000)
            for t, margin in zip(pairs_round.tables, round_margins, strict=False)
        ]
        byes += pairs_round.byes()
    night_standings(night, results, byes)


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
    margins = _burraco_margins(rng)
    burraco = Spread.of(
        repeat(lambda: _burraco_night(margins), runs=RUNS, least=LEAST, budget=BUDGET)
    )
    rows, passed = [], True
    for label, found in (
        (f"Swiss round {ROUNDS_PLAYED + 1} of {PLAYERS} players (two at a table)", swiss),
        (f"seating round {ROUNDS_PLAYED + 1} of {PLAYERS} players at tables of 4", seating),
        (f"a {BURRACO_PAIRS}-pair Mitchell night paired and its standings computed", burraco),
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
        " does. The Burraco night: its four rounds (3 Mitchell + 1 Danese, 3 hands) each"
        " worked out from the results before it, then its standings."
        " The room board of a 64-player night is in the table pages section."
    )
    return f"{table(header, rows)}\n{note}", passed
