"""A Burraco pairs night: a plan of Mitchell and Danese rounds, each round, the standings.

The director fixes before the first round: the pairs (entry order: it seats the Mitchell
lines and breaks the last ties), the plan (``night_plan("3 Mitchell + 1 Danese")``), the
VP table (``victory_points``) and the VP of a bye. Then each round is worked out from the
results so far (``next_round``), the same results always giving the same round: the
engine draws no lots and reads no clock.

- Mitchell rounds (``mitchell``): the k-th Mitchell round of the plan is the k-th rotation,
  whatever Danese rounds come between; the rotations never repeat a meeting among
  themselves. A Danese round before a Mitchell one counts the meetings the later Mitchell
  rounds will bring as met already, so it keeps those pairs apart where it can.
- Danese rounds (``danese``): the pairs still in, by the standings so far.
- A bye (the phantom's table, or an odd Danese field) scores ``bye_vp`` VP and no points
  difference (BURRACO-BYE). The federation's figure could not be checked: 12 is the
  default the club uses, a director's parameter.
- A pair that leaves the night (``withdrawn``) is paired no more; its results stand. In a
  Mitchell round its table's other pair plays nobody and scores a bye's VP as a walkover,
  which is not one of its byes (NIGHT-WITHDRAW); a Danese round pairs those still in.
- Standings (``night_standings``, BURRACO-STANDINGS): total VP, then the total points
  difference over the night, then head to head among the pairs still tied (each meeting
  won +1, lost -1), and pairs still level share the place (1, 2, 2, 4); the ranking for a
  Danese round breaks that last tie by entry order.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.tournaments.danese import danese_round
from scoring.tournaments.mitchell import (
    MitchellLines,
    TableAssignment,
    mitchell_lines,
    mitchell_tables,
)
from scoring.tournaments.ranking import (
    HEAD_TO_HEAD,
    POINTS_DIFFERENCE,
    TournamentRow,
    named,
    tournament_standings,
)
from scoring.tournaments.results import Bye, PlayerKey, TableResult
from scoring.tournaments.swiss import Pairing
from scoring.tournaments.victory_points import VPTable, VPTableScale, validate

MITCHELL = "mitchell"
DANESE = "danese"
KINDS = (MITCHELL, DANESE)
MAX_ROUNDS = 12
STANDING_TIEBREAKS = (POINTS_DIFFERENCE, HEAD_TO_HEAD)


def night_plan(text: str) -> tuple[str, ...]:
    """Return the rounds of a plan written as "3 Mitchell + 1 Danese", in that order."""
    rounds: list[str] = []
    for part in text.split("+"):
        found = re.fullmatch(r"\s*(\d{1,2})\s*(mitchell|danese)\s*", part, re.IGNORECASE)
        if found is None:
            raise ValueError(f"not a part of a plan: {part.strip()!r} (e.g. '3 Mitchell')")
        rounds += [found.group(2).lower()] * int(found.group(1))
    return tuple(rounds)


@dataclass(frozen=True, slots=True)
class PairsNight:
    """What the director fixes before the first round; ``lines``: the Mitchell lines, if
    the director seats them (else from the entry order, ``mitchell.mitchell_lines``)."""

    pairs: tuple[PlayerKey, ...]
    plan: tuple[str, ...]
    table: VPTable
    bye_vp: Fraction = Fraction(12)
    lines: MitchellLines | None = None
    tiebreaks: tuple[str, ...] = field(default=STANDING_TIEBREAKS)

    def __post_init__(self) -> None:
        if len(self.pairs) < 2 or len(set(self.pairs)) != len(self.pairs):
            raise ValueError("a night needs two or more different pairs")
        if not 0 < len(self.plan) <= MAX_ROUNDS or set(self.plan) - set(KINDS):
            raise ValueError(f"a plan is 1 to {MAX_ROUNDS} rounds, each Mitchell or Danese")
        if not 0 <= self.bye_vp <= 20:
            raise ValueError("a bye scores 0 to 20 VP")
        validate(self.table)
        lines = self.mitchell_lines()
        seated = {pair for pair in (*lines.ns, *lines.ew) if pair is not None}
        if seated != set(self.pairs):
            raise ValueError("the Mitchell lines seat exactly the night's pairs")
        if self.plan.count(MITCHELL) > lines.tables:
            raise ValueError(
                f"{lines.tables} tables make at most {lines.tables} Mitchell rounds,"
                f" the plan has {self.plan.count(MITCHELL)}"
            )

    def mitchell_lines(self) -> MitchellLines:
        return self.lines if self.lines is not None else mitchell_lines(self.pairs)

    @property
    def scale(self) -> VPTableScale:
        return VPTableScale(table=self.table, bye=self.bye_vp)


@dataclass(frozen=True, slots=True)
class PairsRound:
    """One round: its kind, the tables where two pairs play (by table number), the pair with
    the bye and those scoring a walkover."""

    round_number: int
    kind: str
    tables: tuple[TableAssignment, ...]
    bye: PlayerKey | None = None
    walkovers: tuple[PlayerKey, ...] = ()

    def pairing(self) -> Pairing:
        """Return the round in the shape of the other formats (seat order NS, EW)."""
        tables = tuple((table.ns, table.ew) for table in self.tables)
        return Pairing(self.round_number, tables, self.bye, self.walkovers)

    def byes(self) -> list[Bye]:
        """Return what the round scores without a table: the bye and the walkovers."""
        scored = [Bye(self.round_number, self.bye)] if self.bye is not None else []
        return scored + [Bye(self.round_number, pair, walkover=True) for pair in self.walkovers]


def match_result(
    round_number: int, ns: PlayerKey, ew: PlayerKey, ns_points: int, ew_points: int
) -> TableResult:
    """Return a finished match as the standings read it: places and points difference."""
    difference = Fraction(ns_points - ew_points)
    places = (1, 1) if difference == 0 else (1, 2) if difference > 0 else (2, 1)
    return TableResult(round_number, (ns, ew), places, (difference, -difference))


def next_round(
    night: PairsNight,
    results: Iterable[TableResult],
    byes: Iterable[Bye],
    *,
    withdrawn: Collection[PlayerKey] = (),
) -> PairsRound:
    """Return the round after the last one the results and byes name (round 1 if none)."""
    results, byes = list(results), list(byes)
    played = max((item.round_number for item in (*results, *byes)), default=0)
    return night_round(night, results, byes, round_number=played + 1, withdrawn=withdrawn)


def night_round(
    night: PairsNight,
    results: Iterable[TableResult],
    byes: Iterable[Bye],
    *,
    round_number: int,
    withdrawn: Collection[PlayerKey] = (),
) -> PairsRound:
    """Return round ``round_number`` of the night, given the rounds before it."""
    if not 1 <= round_number <= len(night.plan):
        raise ValueError(f"the night's plan has {len(night.plan)} rounds, not a {round_number}")
    unknown = set(withdrawn) - set(night.pairs)
    if unknown:
        raise ValueError(f"not pairs of the night: {sorted(unknown)}")
    present = [pair for pair in night.pairs if pair not in set(withdrawn)]
    kind = night.plan[round_number - 1]
    if kind == MITCHELL:
        rotation = night.plan[:round_number].count(MITCHELL)
        return _mitchell_round(night, round_number, rotation, set(present))
    results, byes = list(results), list(byes)
    order = standing_order(night, present, results, byes)
    met = {frozenset(result.players) for result in results} | _mitchell_to_come(night, round_number)
    had = Counter(bye.player for bye in byes if not bye.walkover)
    pairing = danese_round(order, met, had, round_number=round_number)
    tables = tuple(
        TableAssignment(table=number, ns=a, ew=b)
        for number, (a, b) in enumerate(pairing.tables, start=1)
    )
    return PairsRound(round_number, DANESE, tables, pairing.bye)


def _mitchell_to_come(night: PairsNight, round_number: int) -> set[frozenset]:
    """Return the meetings the plan's Mitchell rounds after ``round_number`` will bring."""
    lines = night.mitchell_lines()
    done, planned = night.plan[:round_number].count(MITCHELL), night.plan.count(MITCHELL)
    return {
        frozenset((table.ns, table.ew))
        for rotation in range(done + 1, planned + 1)
        for table in mitchell_tables(lines, rotation)
        if table.ns is not None and table.ew is not None
    }


def _mitchell_round(
    night: PairsNight, round_number: int, rotation: int, present: set[PlayerKey]
) -> PairsRound:
    tables, bye, walkovers = [], None, []
    lines = night.mitchell_lines()
    for table in mitchell_tables(lines, rotation):
        here = [pair for pair in (table.ns, table.ew) if pair in present]
        if len(here) == 2:
            tables.append(table)
        elif here and None in (table.ns, table.ew):
            bye = here[0]  # facing the phantom: the night's bye
        elif here:
            walkovers.append(here[0])  # facing a pair that has left
    return PairsRound(round_number, MITCHELL, tuple(tables), bye, tuple(walkovers))


def night_standings(
    night: PairsNight, results: Iterable[TableResult], byes: Iterable[Bye]
) -> list[TournamentRow]:
    """Return the night's standings over the rounds played so far, pairs that left too."""
    return tournament_standings(
        list(night.pairs), results, byes, night.scale, tiebreaks=night.tiebreaks
    )


def standing_order(
    night: PairsNight,
    present: Sequence[PlayerKey],
    results: Sequence[TableResult],
    byes: Sequence[Bye],
) -> list[PlayerKey]:
    """Return the ``present`` pairs best first; pairs sharing a place in entry order."""
    outside = named(results, byes) - set(night.pairs)
    if outside:
        raise ValueError(f"results name pairs outside the night: {sorted(outside)}")
    entry = {pair: index for index, pair in enumerate(night.pairs)}
    rank = {row.player: row.rank for row in night_standings(night, results, byes)}
    return sorted(present, key=lambda pair: (rank[pair], entry[pair]))
