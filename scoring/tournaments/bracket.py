"""Single elimination for two-player games (a Gin knock-out), with seeding.

The bracket has the next power of two of places; seeds are placed so that 1 and 2 can
only meet in the final, 1–4 in the semi-finals, and so on (1 v 8, 4 v 5, 2 v 7, 3 v 6 for
eight). Places beyond the field are byes, which fall to the top seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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


def advance(matches: Sequence[Match], winners: Mapping[int, PlayerKey]) -> list[Match] | None:
    """Return the next round from this round's matches and their winners (by match index),
    or None when the round still has a match to play; a bye's player goes through."""
    through = []
    for index, (a, b) in enumerate(matches):
        if a is None or b is None:
            through.append(a if b is None else b)
        elif index in winners:
            if winners[index] not in (a, b):
                raise ValueError(f"match {index + 1} was between {a} and {b}")
            through.append(winners[index])
        else:
            return None
    if len(through) == 1:
        return []
    return [(through[i], through[i + 1]) for i in range(0, len(through), 2)]
