"""Swiss ("Danese") pairing for two-player games: 1st meets 2nd, 3rd meets 4th…

A round pairs players by the standings so far (``ranking.tournament_standings``): the
pairing chosen is, first, the one with the fewest rematches (none while one can be
avoided), then the one whose pairs stand closest (the least sum of squared distances in
the standings). That is a maximum-weight perfect matching, found by networkx.

With an odd number of players, the bye goes to the lowest-ranked player who has had the
fewest byes (so nobody has a second bye while someone has had none). Players level on
every count are ordered by the seed, so the first round is a draw and every round is the
same for the same seed (NIGHT-SWISS, NIGHT-BYE).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from scoring.tournaments.ranking import named, tournament_standings
from scoring.tournaments.results import Bye, PlayerKey, TableResult, VictoryPoints


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round: its tables (players in seat order; the first deals first) and the bye;
    ``walkovers``: a round robin's players whose scheduled opponent has left, each scoring
    a bye's points."""

    round_number: int
    tables: tuple[tuple[PlayerKey, ...], ...]
    bye: PlayerKey | None = None
    walkovers: tuple[PlayerKey, ...] = ()

    @property
    def players(self) -> list[PlayerKey]:
        seated = [player for table in self.tables for player in table]
        return seated + ([self.bye] if self.bye is not None else []) + list(self.walkovers)


def standing_order(
    players: Sequence[PlayerKey],
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    scale: VictoryPoints,
    *,
    seed: int,
) -> list[PlayerKey]:
    """Return ``players`` best first; players level on everything in the seed's order.

    They are ranked among everyone the results and byes name: a player who has left the
    night is paired no more, but their points stand, and count in their opponents'
    Buchholz, as in the night's standings.
    """
    draw = list(players)
    random.Random(seed).shuffle(draw)
    lot = {player: index for index, player in enumerate(draw)}
    left = sorted(named(results, byes) - set(players))
    rows = tournament_standings([*players, *left], results, byes, scale)
    ranked = [row for row in rows if row.player in lot]
    return [row.player for row in sorted(ranked, key=lambda row: (row.rank, lot[row.player]))]


def swiss_round(
    players: Sequence[PlayerKey],
    results: Iterable[TableResult],
    byes: Iterable[Bye],
    scale: VictoryPoints,
    *,
    round_number: int,
    seed: int,
    apart: Collection[frozenset] = (),
) -> Pairing:
    """Pair ``players`` (those still in the night) for round ``round_number``; ``apart``:
    the pairs the director keeps apart."""
    results, byes = list(results), list(byes)
    order = standing_order(players, results, byes, scale, seed=seed + round_number)
    bye = None
    if len(order) % 2:
        bye = _bye(order, results, byes, round_number)
        order.remove(bye)
    met = {frozenset(r.players) for r in results if len(r.players) == 2}
    tables = tuple(_pairs(order, met, set(apart)))
    return Pairing(round_number=round_number, tables=tables, bye=bye)


def _bye(
    order: list[PlayerKey], results: list[TableResult], byes: list[Bye], round_number: int
) -> PlayerKey:
    """Return who has the bye: the lowest of those with the fewest byes, but not a player
    joining late in this round while anyone else can take it, so that a latecomer sits at a
    table, where a lateness penalty can be taken (NIGHT-LATE)."""
    had = {player: sum(b.player == player for b in byes) for player in order}
    seen = named(results, byes)
    joining = {player for player in order if round_number > 1 and player not in seen}
    candidates = [player for player in order if player not in joining] or order
    fewest = min(had[player] for player in candidates)
    return next(player for player in reversed(candidates) if had[player] == fewest)


def _pairs(
    order: list[PlayerKey], met: set[frozenset], apart: set[frozenset]
) -> list[tuple[PlayerKey, PlayerKey]]:
    count = len(order)
    if count == 0:
        return []
    # Imported here, when a round is paired: networkx weighs about 23 MiB in every web
    # worker that would import it with the page code, and only pairing needs it.
    import networkx as nx

    # Integer weights keep networkx's matching exact. One rematch costs more than every
    # distance of a whole round together, so the fewest rematches always come first; one
    # pair kept apart costs more than every rematch of a round together.
    rematch = count**3 + 1
    kept_apart = rematch * (count + 1)
    top = 2 * (kept_apart + rematch + count**2)
    graph = nx.Graph()
    for i, a in enumerate(order):
        for j in range(i + 1, count):
            pair = frozenset((a, order[j]))
            cost = (j - i) ** 2 + (rematch if pair in met else 0)
            cost += kept_apart if pair in apart else 0
            graph.add_edge(i, j, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    return [(order[i], order[j]) for i, j in pairs]
