"""The Mitchell movement for Burraco pairs: North–South stay, East–West move one table up.

With N tables, N pairs sit North–South (NS), one at each table, for the whole Mitchell part
of the night; N pairs sit East–West (EW) and, after each round, every EW pair moves to the
next table up (from the last table back to table 1). In round r the EW pair that started
at table s sits at table s + r - 1 (counted round the N tables), so in N rounds each EW
pair meets each NS pair exactly once: no two pairs meet twice while the rounds are at most
N, and two pairs of the same line never meet (BURRACO-MITCHELL).

Lines from the entry list (``mitchell_lines``): the first pair NS at table 1, the second EW
at table 1, the third NS at table 2, and so on. An odd field leaves one seat empty: the
phantom pair takes the last table's NS seat and stays there, so the last table is the
rest table, and the EW pair that moves onto it each round sits out (the bye, a different
EW pair each round: BURRACO-BYE). A director may also give the lines directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.tournaments.results import PlayerKey


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """One table of a round: its number (1 is the first), the NS pair and the EW pair.
    None stands for the phantom pair (or, in a night's round, a pair that has left)."""

    table: int
    ns: PlayerKey | None
    ew: PlayerKey | None


@dataclass(frozen=True, slots=True)
class MitchellLines:
    """``ns[i]`` sits NS at table i + 1 all night; ``ew[i]`` starts EW at table i + 1. None
    is the phantom pair of an odd field (at most one)."""

    ns: tuple[PlayerKey | None, ...]
    ew: tuple[PlayerKey | None, ...]

    def __post_init__(self) -> None:
        if not self.ns or len(self.ns) != len(self.ew):
            raise ValueError("the two lines have one pair a table, and one table at least")
        seated = [pair for pair in (*self.ns, *self.ew) if pair is not None]
        if len(set(seated)) != len(seated):
            raise ValueError("a pair sits in one seat of one line")
        if len(self.ns) + len(self.ew) - len(seated) > 1:
            raise ValueError("a field has at most one phantom pair")

    @property
    def tables(self) -> int:
        return len(self.ns)


def mitchell_lines(pairs: Sequence[PlayerKey]) -> MitchellLines:
    """Seat ``pairs`` (entry order) table by table, NS then EW; an odd field's last pair
    sits EW at the last table, facing the phantom pair."""
    if len(pairs) < 2:
        raise ValueError("a Mitchell needs two pairs or more")
    seats: list[PlayerKey | None] = list(pairs)
    if len(seats) % 2:
        # The phantom sits NS at the last table, which stays the rest table all night.
        seats.insert(len(seats) - 1, None)
    return MitchellLines(ns=tuple(seats[0::2]), ew=tuple(seats[1::2]))


def mitchell_tables(lines: MitchellLines, rotation: int) -> tuple[TableAssignment, ...]:
    """Return every table of the ``rotation``-th Mitchell round (1 is the first), the
    phantom's table too: its NS pair and the EW pair that has moved there."""
    count = lines.tables
    if not 1 <= rotation <= count:
        raise ValueError(
            f"{count} tables make at most {count} Mitchell rounds without a repeat meeting,"
            f" not a round {rotation}"
        )
    return tuple(
        TableAssignment(
            table=table + 1, ns=lines.ns[table], ew=lines.ew[(table - rotation + 1) % count]
        )
        for table in range(count)
    )
