"""Tables of 3 to 6 (Ramino, Knock Rummy, Rummy40 with 4): who sits with whom this round.

The field is split into tables of the director's size, or one off it where the numbers do
not divide (13 players at tables of 4: 4, 4 and 5 if 5 may sit, else 4, 3, 3, 3). Players
are dealt to the tables down and back up the standings (1st to table 1, 2nd to table 2…,
then back), so every table holds about the same strength. Then players who have sat
together before are parted: swaps of two players between tables are made while they lower
the repeats, or keep them and even the tables' strength; when that stalls with repeats
left, it starts again from a few seatings shuffled by the seed and keeps the best. Fewer
repeats always come before balance; the same standings and seed give the same round.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from scoring.tournaments.results import PlayerKey, TableResult
from scoring.tournaments.swiss import Pairing

# Bounds on the work for the largest field: passes of swaps, and fresh starts.
MAX_PASSES = 20
RESTARTS = 12


def table_sizes(players: int, size: int, *, smallest: int, largest: int) -> list[int]:
    """Split ``players`` into tables as close to ``size`` as the game allows, larger first."""
    if not smallest <= size <= largest:
        raise ValueError("the table size must lie within the game's range")
    if players < smallest:
        raise ValueError(f"{players} players cannot fill a table of {smallest}")
    best = None
    for tables in range(-(-players // largest), players // smallest + 1):
        low, extra = divmod(players, tables)
        sizes = [low + 1] * extra + [low] * (tables - extra)
        if sizes[0] > largest or sizes[-1] < smallest:
            continue
        off = (sum(abs(s - size) for s in sizes), max(abs(s - size) for s in sizes))
        if best is None or off < best[0]:
            best = (off, sizes)
    if best is None:
        raise ValueError(f"{players} players cannot sit at tables of {smallest}–{largest}")
    return best[1]


def met_counts(results: Iterable[TableResult]) -> Counter[frozenset]:
    """Return how often each pair of players has sat at one table."""
    met: Counter[frozenset] = Counter()
    for result in results:
        met.update(frozenset(pair) for pair in itertools.combinations(result.players, 2))
    return met


def seat_round(
    order: Sequence[PlayerKey],
    met: Counter[frozenset],
    *,
    round_number: int,
    size: int,
    smallest: int,
    largest: int,
    seed: int = 0,
) -> Pairing:
    """Seat ``order`` (the players, best first) at tables for round ``round_number``."""
    sizes = table_sizes(len(order), size, smallest=smallest, largest=largest)
    rank = {player: index for index, player in enumerate(order)}
    tables: list[list[PlayerKey]] = [[] for _ in sizes]
    snake = itertools.cycle([*range(len(sizes)), *reversed(range(len(sizes)))])
    for player in order:
        table = next(t for t in snake if len(tables[t]) < sizes[t])
        tables[table].append(player)
    if met:
        best = _Seating(tables, met, rank).descend()
        # A swap at a time can stall short of a seating with no repeats that exists: start
        # again from a few shuffled seatings (the seed's) and keep the best.
        draw = random.Random(seed + round_number)
        for _ in range(RESTARTS):
            if best.cost[0] == 0:
                break
            shuffled = list(order)
            draw.shuffle(shuffled)
            start, at = [], 0
            for count in sizes:
                start.append(shuffled[at : at + count])
                at += count
            candidate = _Seating(start, met, rank).descend()
            if candidate.cost < best.cost:
                best = candidate
        tables = best.tables
    seated = tuple(tuple(sorted(table, key=rank.__getitem__)) for table in tables)
    return Pairing(round_number=round_number, tables=seated)


class _Seating:
    """Tables being improved by swaps; the cost is (repeats, imbalance), least first.

    Imbalance is the sum over tables of the squared distance between the table's mean
    standing and the field's: it adds up table by table, so a swap's effect is computed
    from the two tables it touches.
    """

    def __init__(self, tables: list[list], met: Counter[frozenset], rank: dict):
        self.tables = [list(table) for table in tables]
        self.met, self.rank = met, rank
        self.mean = sum(rank.values()) / len(rank)
        self.parts = [self._part(table) for table in self.tables]

    def _part(self, table: list) -> tuple[int, float]:
        # Squared: a pair's third meeting weighs more than two pairs' second ones.
        repeats = sum(self.met[frozenset(pair)] ** 2 for pair in itertools.combinations(table, 2))
        strength = sum(self.rank[player] for player in table) / len(table)
        return repeats, (strength - self.mean) ** 2

    @property
    def cost(self) -> tuple[int, float]:
        return (sum(p[0] for p in self.parts), round(sum(p[1] for p in self.parts), 9))

    def descend(self) -> _Seating:
        """Swap two players of two tables while it lowers the cost, for MAX_PASSES at most."""
        for _ in range(MAX_PASSES):
            improved = False
            for t, u in itertools.combinations(range(len(self.tables)), 2):
                first, second = self.tables[t], self.tables[u]
                for i, j in itertools.product(range(len(first)), range(len(second))):
                    before = (
                        self.parts[t][0] + self.parts[u][0],
                        self.parts[t][1] + self.parts[u][1],
                    )
                    first[i], second[j] = second[j], first[i]
                    new_t, new_u = self._part(first), self._part(second)
                    after = (new_t[0] + new_u[0], new_t[1] + new_u[1])
                    if after[0] < before[0] or (
                        after[0] == before[0] and after[1] < before[1] - 1e-9
                    ):
                        self.parts[t], self.parts[u] = new_t, new_u
                        improved = True
                    else:
                        first[i], second[j] = second[j], first[i]
            if not improved:
                break
        return self
