"""The Danese (Danish) movement for Burraco pairs: by the standings, 1st meets 2nd, 3rd 4th…

The caller ranks the pairs still in the night (best first); then (BURRACO-DANESE):

- An odd field: the bye goes to the lowest-ranked pair that has not had one (a walkover,
  scored as a bye when an opponent had left, is no bye); when all have had one, to the
  lowest of those with the fewest.
- The highest pair not yet paired meets the next pair down that it has not met. When that
  would leave the pairs below with no way to pair up without a repeat meeting, it meets
  the one after instead (and so on: a search that goes back a step when it is stuck). So
  the pairing is the first in standing order with no repeat, and a repeat is played only
  when no pairing of the field avoids one.
- Then (no such pairing, e.g. a small field that has met nearly everyone) the pairing with
  the fewest repeats, pairs as close in the standings as can be (the Swiss pairing's
  matching, ``swiss``).

The search is bounded (``MAX_STEPS`` tries) so that a field with no repeat-free pairing
cannot keep a director waiting; a real night's field is found in a few dozen steps.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from scoring.tournaments.results import PlayerKey
from scoring.tournaments.swiss import Pairing, _pairs

MAX_STEPS = 20_000


def danese_round(
    order: Sequence[PlayerKey],
    met: Collection[frozenset],
    byes_had: Mapping[PlayerKey, int],
    *,
    round_number: int,
) -> Pairing:
    """Pair the pairs in ``order`` (best first): tables in standing order, each pair of the
    table in standing order; ``met``: the pairs of pairs who have met; ``byes_had``: each
    pair's byes so far (absent: none)."""
    rest = list(order)
    if len(set(rest)) != len(rest):
        raise ValueError("each pair once in the standing order")
    bye = None
    if len(rest) % 2:
        fewest = min(byes_had.get(pair, 0) for pair in rest)
        bye = next(pair for pair in reversed(rest) if byes_had.get(pair, 0) == fewest)
        rest.remove(bye)
    met = set(met)
    tables = _without_repeats(rest, met, [MAX_STEPS])
    if tables is None:
        tables = _pairs(rest, met, set())
    return Pairing(round_number=round_number, tables=tuple(tables), bye=bye)


def _without_repeats(
    rest: list[PlayerKey], met: set[frozenset], steps: list[int]
) -> list[tuple[PlayerKey, PlayerKey]] | None:
    """Return the first pairing of ``rest`` in standing order with no repeat, or None when
    there is none (or the steps ran out)."""
    if not rest:
        return []
    top, below = rest[0], rest[1:]
    for index, other in enumerate(below):
        if frozenset((top, other)) in met:
            continue
        steps[0] -= 1
        if steps[0] < 0:
            return None
        tail = _without_repeats(below[:index] + below[index + 1 :], met, steps)
        if tail is not None:
            return [(top, other), *tail]
    return None
