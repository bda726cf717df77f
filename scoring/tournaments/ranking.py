"""The night's standings: victory points first, then the tie-breaks the director chose.

- ``buchholz`` (NIGHT-BUCHHOLZ): the sum of the VP of everyone a player met at a table,
  once a table shared (a strong schedule counts for more); a bye adds nobody, though its
  VP count in the Buchholz of those who met its player (NIGHT-BYE).
- ``head_to_head`` (NIGHT-TIEBREAK): among the players still tied, however many, each pair
  placed apart at a table gives the better one +1 and the other -1 (as the leagues count
  it); at a table the director decided, the VP given place them, a void table none.
- ``points_difference`` (NIGHT-DIFFERENCE): the sum of the player's points differences over
  the night, better being positive.

Each tie-break applies, in the given order, to exactly the players still tied when its turn
comes; players tied after every one share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from scoring.tournaments.results import Bye, PlayerKey, TableResult, VictoryPoints, victory_points

BUCHHOLZ = "buchholz"
HEAD_TO_HEAD = "head_to_head"
POINTS_DIFFERENCE = "points_difference"
TIEBREAKS = (BUCHHOLZ, HEAD_TO_HEAD, POINTS_DIFFERENCE)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One player's line: rank (shared when still tied), VP and the tie-break values."""

    rank: int
    player: PlayerKey
    victory_points: Fraction
    buchholz: Fraction
    points_difference: Fraction
    played: int
    byes: int
    opponents: frozenset[PlayerKey]
    tiebreak: str | None = None  # the tie-break that placed this row above the next


def tournament_standings(
    players: Sequence[PlayerKey],
    results: Iterable[TableResult],
    byes: Iterable[Bye],
    scale: VictoryPoints,
    *,
    tiebreaks: Sequence[str] = TIEBREAKS,
) -> list[TournamentRow]:
    """Rank ``players`` over the tables and byes of the rounds played so far.

    ``players`` must name everyone the results and byes name, those who have left the night
    too: their points stand, and count in their opponents' Buchholz.
    """
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks: {unknown}")
    results, byes = list(results), list(byes)
    outside = named(results, byes) - set(players)
    if outside:
        raise ValueError(f"results name players outside the standings: {sorted(outside)}")
    vp, margin, met, played, bye_count = _tally(players, results, byes, scale)
    buchholz = {player: sum((vp[other] for other in met[player]), Fraction(0)) for player in vp}

    def keys(name: str, group: Sequence[PlayerKey]) -> dict[PlayerKey, Fraction | int]:
        if name == BUCHHOLZ:
            return {player: buchholz[player] for player in group}
        if name == POINTS_DIFFERENCE:
            return {player: margin[player] for player in group}
        return _head_to_head(group, results)

    ordered: list[tuple[list[PlayerKey], str | None]] = []
    for value in sorted(set(vp.values()), reverse=True):
        group = sorted(player for player in vp if vp[player] == value)
        ordered += _split(group, list(tiebreaks), keys)
        ordered[-1] = (ordered[-1][0], None)
    rows = []
    rank = 1
    for block, tiebreak in ordered:
        for index, player in enumerate(block):
            rows.append(
                TournamentRow(
                    rank=rank,
                    player=player,
                    victory_points=vp[player],
                    buchholz=buchholz[player],
                    points_difference=margin[player],
                    played=played[player],
                    byes=bye_count[player],
                    opponents=frozenset(met[player]),
                    tiebreak=tiebreak if index == len(block) - 1 else None,
                )
            )
        rank += len(block)
    return rows


def _tally(
    players: Sequence[PlayerKey],
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    scale: VictoryPoints,
) -> tuple[
    dict[PlayerKey, Fraction],
    dict[PlayerKey, Fraction],
    dict[PlayerKey, list[PlayerKey]],
    Counter[PlayerKey],
    Counter[PlayerKey],
]:
    """Return each player's VP, points difference, opponents met, tables played and byes."""
    vp: dict[PlayerKey, Fraction] = {player: Fraction(0) for player in players}
    margin: dict[PlayerKey, Fraction] = {player: Fraction(0) for player in players}
    met: dict[PlayerKey, list[PlayerKey]] = defaultdict(list)
    played: Counter[PlayerKey] = Counter()
    bye_count: Counter[PlayerKey] = Counter()
    for result in results:
        for player, points in victory_points(result, scale).items():
            vp[player] += points
            played[player] += 1
            met[player].extend(other for other in result.players if other != player)
        for player, difference in zip(result.players, result.margins, strict=True):
            margin[player] += difference
    for bye in byes:
        vp[bye.player] += scale.bye
        bye_count[bye.player] += not bye.walkover
    return vp, margin, met, played, bye_count


def points_so_far(
    results: Iterable[TableResult], byes: Iterable[Bye], scale: VictoryPoints
) -> dict[PlayerKey, Fraction]:
    """Return the VP of everyone the results and byes name (what seating evens out)."""
    vp: dict[PlayerKey, Fraction] = defaultdict(Fraction)
    for result in results:
        for player, points in victory_points(result, scale).items():
            vp[player] += points
    for bye in byes:
        vp[bye.player] += scale.bye
    return dict(vp)


def named(results: Iterable[TableResult], byes: Iterable[Bye]) -> set[PlayerKey]:
    """Return every player the results and byes name."""
    return {p for result in results for p in result.players} | {bye.player for bye in byes}


def _split(group, breakers, keys) -> list[tuple[list[PlayerKey], str | None]]:
    """Split players of equal VP into blocks still tied, best first (as league standings)."""
    if len(group) == 1 or not breakers:
        return [(group, None)]
    name, rest = breakers[0], breakers[1:]
    values = keys(name, group)
    distinct = sorted(set(values.values()), reverse=True)
    if len(distinct) == 1:
        return _split(group, rest, keys)
    blocks: list[tuple[list[PlayerKey], str | None]] = []
    for value in distinct:
        part = [player for player in group if values[player] == value]
        sub = _split(part, rest, keys)
        sub[-1] = (sub[-1][0], name)
        blocks += sub
    blocks[-1] = (blocks[-1][0], None)
    return blocks


def _head_to_head(
    group: Sequence[PlayerKey], results: Sequence[TableResult]
) -> Mapping[PlayerKey, int]:
    """Net the tied players' meetings: at a table the director decided, the VP given place
    them (a void table none), else the places."""
    tied = set(group)
    net: Counter[PlayerKey] = Counter()
    for result in results:
        order = [-vp for vp in result.decided] if result.decided else result.places
        present = [(p, rank) for p, rank in zip(result.players, order, strict=True) if p in tied]
        for (a, place_a), (b, place_b) in itertools.combinations(present, 2):
            if place_a != place_b:
                better, worse = (a, b) if place_a < place_b else (b, a)
                net[better] += 1
                net[worse] -= 1
    return {player: net[player] for player in group}


def by_stage(rows: Sequence[TournamentRow], stage: Mapping[PlayerKey, int]) -> list[TournamentRow]:
    """Rank a knock-out's rows by how far each player went (``stage``: the round reached,
    one more for the winner), then as the rows already stand (NIGHT-KO-RANK): whoever went
    further is above, whatever their points."""
    ordered = sorted(rows, key=lambda row: (-stage.get(row.player, 0), row.rank))
    ranked: list[TournamentRow] = []
    for index, row in enumerate(ordered):
        before = ordered[index - 1] if index else None
        level = before is not None and (stage.get(before.player, 0), before.rank) == (
            stage.get(row.player, 0),
            row.rank,
        )
        rank = ranked[-1].rank if level else index + 1
        after = ordered[index + 1] if index + 1 < len(ordered) else None
        parted = after is not None and stage.get(after.player, 0) != stage.get(row.player, 0)
        ranked.append(replace(row, rank=rank, tiebreak=None if parted else row.tiebreak))
    return ranked
