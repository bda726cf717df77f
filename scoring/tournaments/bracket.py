"""Single elimination for two-player games (a Gin knock-out), with seeding.

The bracket has the next power of two of places; seeds are placed so that 1 and 2 can
only meet in the final, 1–4 in the semi-finals, and so on (1 v 8, 4 v 5, 2 v 7, 3 v 6 for
eight). Places beyond the field are byes, which fall to the top seeds. A player who
leaves the night before winning their match gives it to their opponent (a walkover), with
no table; a match that ends level has no winner until the director scores its table
(NIGHT-KO-SEEDS, NIGHT-KO-DRAW).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from scoring.tournaments.results import PlayerKey

Match = tuple[PlayerKey | None, PlayerKey | None]


def seed_positions(places: int) -> list[int]:
    """Return the seeds (1-based) in bracket order for a power-of-two number of places."""
    if places < 2 or places & (places - 1):
        raise ValueError("a bracket has a power of two of places")
    order = [1, 2]
    while len(order) < places:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(seeds: Sequence[PlayerKey]) -> list[Match]:
    """Return the first round's matches for players in seed order; None is a bye."""
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise ValueError("a bracket needs two or more different players")
    places = 1 << (len(seeds) - 1).bit_length()
    slot = [seeds[seed - 1] if seed <= len(seeds) else None for seed in seed_positions(places)]
    return [(slot[i], slot[i + 1]) for i in range(0, places, 2)]


def goes_through(
    match: Match, winner: PlayerKey | None, *, withdrawn: Collection[PlayerKey] = frozenset()
) -> PlayerKey | None:
    """Return who goes through a match (``winner``: its table's, if any), or None if nobody
    does (yet).

    A bye's player goes through, and so does the winner, whoever has left since; a match
    without a winner goes to the player still in when the other has left (a walkover).
    """
    a, b = match
    if a is None or b is None:
        return a if b is None else b
    if winner is not None:
        return winner
    staying = [player for player in match if player not in withdrawn]
    return staying[0] if len(staying) == 1 else None


def unsettled(
    matches: Sequence[Match],
    winners: Mapping[int, PlayerKey],
    *,
    withdrawn: Collection[PlayerKey] = frozenset(),
) -> list[int]:
    """Return the indexes of the round's matches that nobody goes through yet: two players
    still in and no winner (a table in play, or one that ended level, NIGHT-KO-DRAW)."""
    return [
        index
        for index, (a, b) in enumerate(matches)
        if a is not None
        and b is not None
        and winners.get(index) is None
        and a not in withdrawn
        and b not in withdrawn
    ]


def advance(
    matches: Sequence[Match],
    winners: Mapping[int, PlayerKey],
    *,
    withdrawn: Collection[PlayerKey] = frozenset(),
) -> list[Match] | None:
    """Return the next round from this round's matches and their winners (by match index),
    or None when the round still has a match to play. Who goes through is
    ``goes_through``'s: a bye's player, the winner, or the opponent of a player
    ``withdrawn`` before winning; when both players of a match have left, nobody does (the
    next opponent has a bye)."""
    for index, (a, b) in enumerate(matches):
        winner = winners.get(index)
        if a is not None and b is not None and winner is not None and winner not in (a, b):
            raise ValueError(f"match {index + 1} was between {a} and {b}")
    if unsettled(matches, winners, withdrawn=withdrawn):
        return None
    through = [
        goes_through(match, winners.get(index), withdrawn=withdrawn)
        for index, match in enumerate(matches)
    ]
    if len(through) == 1:
        return []
    return [(through[i], through[i + 1]) for i in range(0, len(through), 2)]
