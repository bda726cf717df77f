"""A finished table as the tournament sees it, and its victory points.

A table's log is its result: the caller reads the match's places and points difference
from the replayed table (``scoring.standings.match_summary``) into a ``TableResult``. The
director picks how a result becomes victory points (VP) before the night starts:

- ``WinDrawLoss``: fixed points for a win, a draw and a loss (two-player games);
- ``MarginBands``: by the points difference, in bands (two-player games): a narrow win
  splits the VP almost evenly, a wide one gives the winner nearly all;
- ``ByPlace``: by finishing place at a table of 3 to 6; players sharing a place share the
  points of the places they cover.

A bye scores ``bye`` VP; a table scored by the director's decision carries its own VP
(NIGHT-VP, NIGHT-BANDS, NIGHT-SHARED-PLACE).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

PlayerKey = Hashable


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one round: its players in seat order, their places (1 is best, shared
    on equal totals) and points differences (for minus against).

    ``decided`` holds the VP the director gave by decision (a void table gives 0 to all);
    empty when the table's log decides.
    """

    round_number: int
    players: tuple[PlayerKey, ...]
    places: tuple[int, ...]
    margins: tuple[Fraction, ...]
    decided: tuple[Fraction, ...] = ()

    def __post_init__(self) -> None:
        size = len(self.players)
        if size < 2 or len(set(self.players)) != size:
            raise ValueError("a table holds two or more different players")
        if len(self.places) != size or len(self.margins) != size:
            raise ValueError("one place and one margin a player")
        if self.decided and len(self.decided) != size:
            raise ValueError("a decision gives VP to every player at the table")


@dataclass(frozen=True, slots=True)
class Bye:
    """A round in which ``player`` had no opponent: the bye, or a round robin's walkover
    (the scheduled opponent had left), which scores a bye's points but is no bye: it does
    not count among the player's byes (NIGHT-WITHDRAW)."""

    round_number: int
    player: PlayerKey
    walkover: bool = False


@dataclass(frozen=True, slots=True)
class WinDrawLoss:
    win: Fraction = Fraction(3)
    draw: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(3)

    def points(self, result: TableResult) -> tuple[Fraction, ...]:
        if len(result.players) != 2:
            raise ValueError("win/draw/loss scores two-player tables")
        if result.places[0] == result.places[1]:
            return (self.draw, self.draw)
        return tuple(self.win if place == 1 else self.loss for place in result.places)


@dataclass(frozen=True, slots=True)
class MarginBands:
    """``bands``: (smallest margin, winner's VP, loser's VP), smallest margin first; the
    first band starts at 0 (a draw scores its VP to both)."""

    bands: tuple[tuple[int, Fraction, Fraction], ...] = (
        (0, Fraction(10), Fraction(10)),
        (1, Fraction(12), Fraction(8)),
        (50, Fraction(14), Fraction(6)),
        (100, Fraction(16), Fraction(4)),
        (200, Fraction(18), Fraction(2)),
        (300, Fraction(20), Fraction(0)),
    )
    bye: Fraction = Fraction(14)

    def __post_init__(self) -> None:
        if not self.bands or self.bands[0][0] != 0:
            raise ValueError("the first band starts at a margin of 0")
        if [band[0] for band in self.bands] != sorted({band[0] for band in self.bands}):
            raise ValueError("bands go up by margin, each once")

    def points(self, result: TableResult) -> tuple[Fraction, ...]:
        if len(result.players) != 2:
            raise ValueError("margin bands score two-player tables")
        margin = abs(result.margins[0])
        band = [b for b in self.bands if b[0] <= margin][-1]
        if result.places[0] == result.places[1]:
            return (band[1], band[1]) if margin == 0 else (band[2], band[2])
        return tuple(band[1] if place == 1 else band[2] for place in result.places)


@dataclass(frozen=True, slots=True)
class ByPlace:
    """``places``: the VP of the 1st, 2nd, … place; a table smaller than the scale uses its
    first places, and players sharing a place split the points of the places they cover."""

    places: tuple[Fraction, ...] = field(
        default=(Fraction(4), Fraction(2), Fraction(1), Fraction(0), Fraction(0), Fraction(0))
    )
    bye: Fraction = Fraction(2)

    def points(self, result: TableResult) -> tuple[Fraction, ...]:
        size = len(result.players)
        if size > len(self.places):
            raise ValueError(f"the scale has {len(self.places)} places, the table {size}")
        scores = []
        for place in result.places:
            sharing = result.places.count(place)
            covered = self.places[place - 1 : place - 1 + sharing]
            scores.append(Fraction(sum(covered), sharing))
        return tuple(scores)


VictoryPoints = WinDrawLoss | MarginBands | ByPlace


def victory_points(result: TableResult, scale: VictoryPoints) -> dict[PlayerKey, Fraction]:
    """Return each player's VP for the table: the director's decision, else the scale's."""
    points = result.decided or scale.points(result)
    return dict(zip(result.players, points, strict=True))
