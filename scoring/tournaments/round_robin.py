"""Round robin for two-player games: everyone meets everyone once (the circle method).

The first player stays put and the others turn round it one place a round; with an odd
number of players an empty seat joins the circle and whoever draws it has the bye. Each
player deals first in about half of their matches: the seats swap every other round.
"""

from __future__ import annotations

from collections.abc import Sequence

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
