"""Tables of 3 to 6 (Ramino, Knock Rummy, Rummy40 with 4): who sits with whom this round.

The field is split into tables of the director's size, or one off it where the numbers do
not divide (13 players at tables of 4: 4, 4 and 5 if 5 may sit, else 4, 3, 3, 3). Players
are dealt to the tables down and back up the standings (1st to table 1, 2nd to table 2…,
then back), so every table holds about the same strength. Then players who have sat
together before are parted: swaps of two players between tables are made while they lower
the repeats, or keep them and even the tables' strength; when that stalls with repeats
left, or on a small field short of even tables, it starts again from a few seatings
shuffled by the seed and keeps the best, the most even among those with the fewest repeats
(NIGHT-SEATING). Two players the director keeps apart weigh more at one table than any
number of repeats: they sit together only when no seating can avoid it (NIGHT-APART).

A table's strength is the mean of its players' victory points so far; between seatings as
even by that, the mean of their places in the standings decides (players level on points
still differ in place). Fewer repeats always come before balance; the same standings and
seed give the same round.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction

from scoring.tournaments.results import PlayerKey, TableResult
from scoring.tournaments.swiss import Pairing

# Bounds on the work for the largest field: passes of swaps, and fresh starts.
MAX_PASSES = 20
RESTARTS = 12
# Up to this many players, fresh starts go on after the repeats are down to none, for a
# more even seating: swaps alone cannot go from one seating without repeats to another
# (every swap on the way makes a repeat). A larger field has swaps enough to even it.
SMALL_FIELD = 24


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
    points: Mapping[PlayerKey, Fraction] | None = None,
    apart: Collection[frozenset] = (),
) -> Pairing:
    """Seat ``order`` (the players, best first) at tables for round ``round_number``.

    ``points``: each player's victory points so far, by which the tables' strength is
    evened (none: by the places in ``order`` alone). ``apart``: pairs the director keeps
    apart (NIGHT-APART), seated together only when no seating avoids it.
    """
    sizes = table_sizes(len(order), size, smallest=smallest, largest=largest)
    rank = {player: index for index, player in enumerate(order)}
    tables: list[list[PlayerKey]] = [[] for _ in sizes]
    snake = itertools.cycle([*range(len(sizes)), *reversed(range(len(sizes)))])
    for player in order:
        table = next(t for t in snake if len(tables[t]) < sizes[t])
        tables[table].append(player)
    if met or apart:
        tables = _even_out(order, met, tables, sizes, points or {}, seed + round_number, apart)
    seated = tuple(tuple(sorted(table, key=rank.__getitem__)) for table in tables)
    return Pairing(round_number=round_number, tables=seated)


def _even_out(
    order: Sequence[PlayerKey],
    met: Counter[frozenset],
    tables: list[list[PlayerKey]],
    sizes: list[int],
    points: Mapping[PlayerKey, Fraction],
    seed: int,
    apart: Collection[frozenset] = (),
) -> list[list[PlayerKey]]:
    """Return ``tables`` improved by swaps and fresh starts (see the module's docstring).

    The search works on the players' places in ``order`` (0 the best): each pair's repeats
    weight, squared, is looked up once, and floats stand for the VP (a table's mean VP is
    a small fraction; _lower compares with a margin).
    """
    count = len(order)
    weight = [[0] * count for _ in range(count)]
    for i, j in itertools.combinations(range(count), 2):
        pair = frozenset((order[i], order[j]))
        # A pair kept apart weighs more than every repeat a night can hold together.
        kept_apart = KEPT_APART if pair in apart else 0
        weight[i][j] = weight[j][i] = met.get(pair, 0) ** 2 + kept_apart
    vp = [float(points.get(player, 0)) for player in order]
    place = {player: index for index, player in enumerate(order)}
    best = _Seating([[place[p] for p in table] for table in tables], weight, vp).descend()
    # A swap at a time can stall short of a seating with fewer repeats, or as few and more
    # even, that exists: start again from a few shuffled seatings (the seed's) and keep the
    # best, the most even among those with the fewest repeats.
    draw = random.Random(seed)
    for _ in range(RESTARTS):
        if best.cost[0] == 0 and (count > SMALL_FIELD or best.cost[1] <= EPSILON):
            break
        shuffled = list(range(count))
        draw.shuffle(shuffled)
        start, at = [], 0
        for size in sizes:
            start.append(shuffled[at : at + size])
            at += size
        candidate = _Seating(start, weight, vp).descend()
        if _lower(candidate.cost, best.cost):
            best = candidate
    return [[order[index] for index in table] for table in best.tables]


# What seating a pair kept apart at one table costs: more than the repeats of any night
# (at most a few hundred players, each pair's repeats squared).
KEPT_APART = 10**9
Cost = tuple[int, float, float]
EPSILON = 1e-9


def _lower(after: Cost, before: Cost) -> bool:
    """Say whether a cost is lower: repeats, then imbalance by points, then by places."""
    if after[0] != before[0]:
        return after[0] < before[0]
    if abs(after[1] - before[1]) > EPSILON:
        return after[1] < before[1]
    return after[2] < before[2] - EPSILON


class _Seating:
    """Tables being improved by swaps; the cost is (repeats, imbalance by victory points,
    imbalance by place), least first.

    An imbalance is the sum over tables of the squared distance between the table's mean
    (victory points, or standing) and the field's: it adds up table by table, so a swap's
    effect is computed from the two tables it touches.
    """

    def __init__(self, tables: list[list[int]], weight: list[list[int]], vp: list[float]):
        self.tables = [list(table) for table in tables]
        self.weight, self.vp = weight, vp
        self.mean = (len(vp) - 1) / 2
        self.mean_vp = sum(vp) / len(vp)
        self.parts = [self._part(table) for table in self.tables]

    def _part(self, table: list[int]) -> Cost:
        # Squared (in ``weight``): a pair's third meeting weighs more than two pairs' second.
        weight = self.weight
        repeats = sum(weight[a][b] for a, b in itertools.combinations(table, 2))
        points = sum(self.vp[player] for player in table) / len(table)
        strength = sum(table) / len(table)
        return repeats, (points - self.mean_vp) ** 2, (strength - self.mean) ** 2

    @property
    def cost(self) -> Cost:
        return (
            sum(p[0] for p in self.parts),
            round(sum(p[1] for p in self.parts), 9),
            round(sum(p[2] for p in self.parts), 9),
        )

    def descend(self) -> _Seating:
        """Swap two players of two tables while it lowers the cost, for MAX_PASSES at most."""
        for _ in range(MAX_PASSES):
            improved = False
            for t, u in itertools.combinations(range(len(self.tables)), 2):
                first, second = self.tables[t], self.tables[u]
                for i, j in itertools.product(range(len(first)), range(len(second))):
                    before = _sum(self.parts[t], self.parts[u])
                    first[i], second[j] = second[j], first[i]
                    new_t, new_u = self._part(first), self._part(second)
                    if _lower(_sum(new_t, new_u), before):
                        self.parts[t], self.parts[u] = new_t, new_u
                        improved = True
                    else:
                        first[i], second[j] = second[j], first[i]
            if not improved:
                break
        return self


def _sum(a: Cost, b: Cost) -> Cost:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]
