"""Round robin for two-player games: everyone meets everyone once (the circle method).

The first player stays put and the others turn round it one place a round; with an odd
number of players an empty seat joins the circle and whoever draws it has the bye. Each
player deals first in about half of their matches: the seats swap every other round.

The schedule is drawn once, from the first round's field. A player who leaves the night
is paired no more; their scheduled opponent that round has no table and scores a bye's
points instead (a walkover), so nobody loses points to someone else's leaving
(NIGHT-WITHDRAW).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from scoring.tournaments.results import PlayerKey
from scoring.tournaments.swiss import Pairing


def round_robin(players: Sequence[PlayerKey]) -> list[Pairing]:
    """Return every round of the schedule, first round first."""
    circle: list = list(players)
    if len(set(circle)) != len(circle) or len(circle) < 2:
        raise ValueError("a round robin needs two or more different players")
    if len(circle) % 2:
        circle.append(None)
    count = len(circle)
    rounds = []
    for number in range(1, count):
        pairs, bye = [], None
        for i in range(count // 2):
            a, b = circle[i], circle[count - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            pairs.append((a, b) if (number + i) % 2 else (b, a))
        rounds.append(Pairing(round_number=number, tables=tuple(pairs), bye=bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def round_among(planned: Pairing, present: Collection[PlayerKey]) -> Pairing:
    """Return a scheduled round among the players ``present`` (still in the night): the
    tables of two present players, the schedule's bye if its player is present, and a
    walkover for each present player whose scheduled opponent is not."""
    tables = tuple(table for table in planned.tables if all(p in present for p in table))
    walkovers = tuple(
        player
        for table in planned.tables
        for player in table
        if player in present and not all(p in present for p in table)
    )
    bye = planned.bye if planned.bye in present else None
    return Pairing(planned.round_number, tables, bye, walkovers)
