"""Burraco victory-point (VP) tables: a match's points difference turned into VP out of 20.

A Burraco pairs match lasts 2, 3 or 4 hands; the two pairs' totals differ by some points
and a table of bands turns that difference into VP for the winner and the loser, always
adding up to 20 (10–10 for a close match … 20–0 for a rout). A table is plain data, so a
tournament director can pick one of the federation's tables or edit a copy of one
(``to_dict`` / ``from_dict``, a JSON shape bounded in size) (BURRACO-VP).

Reading a difference (BURRACO-VP-EDGE):

- A band covers ``low`` to ``high`` points inclusive, as the federation prints it (55–150);
  the last band has no ``high`` (1505 and more). Both edges belong to the band: a
  difference of 50 at 3 hands reads 10–10 and 55 reads 11–9.
- Match points move in steps of 5, so the printed bands leave the 4 points between two
  bands (51–54) unprinted. A difference that is not a multiple of 5 (a typing slip, or a
  director's adjustment) reads in the band whose ``high`` is the first at or above it:
  51 reads as 55 would, 11–9. In other words a band holds every difference above the
  previous band's ``high`` up to its own.
- The sign of the difference does not matter to the table: ``victory_points`` gives the
  winner's and the loser's VP, ``line_victory_points`` each side's.

Sources (read 2026-11; no text copied):

- 3 and 4 hands: https://www.puntiburraco.it/partite_e_punti_vittoria_burraco_nei_tornei.html
  and https://eburraco.com/victory-points-burraco (3 hands), which agree with the federation's
  score cards as the club uses them; FIBur's Codice di Gara, art. 17, holds the tables (see
  https://eburraco.com/le-regole-dellarticolo-17-del-codice-di-gara-del-burraco-italiano,
  which names the 2-, 3- and 4-hand and team tables without printing the 2-hand one).
- 2 hands: **not the federation's figures: a house default, to be checked against its
  score card.** The federation has a 2-hand table (art. 17 names it) but no public source
  prints it (searched again 2026-11: none found); the bands are the 3-hand table's scaled
  by 2/3 (the same VP for the same difference a hand), rounded to a multiple of 5. Its
  name says so, its key is ``house-2-hands``, and a director can edit a copy of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from scoring.tournaments.results import TableResult

TOTAL_VP = 20
# Match points move in steps of 5: a band starts 5 after the previous one ends.
STEP = 5
DRAW_VP = TOTAL_VP // 2
# Bounds on a director's table read from JSON: more bands, or larger numbers, than any real
# table has are a mistake (or an attack on the page that reads them), never a table.
MAX_BANDS = 40
MAX_DIFFERENCE = 100_000
MAX_HANDS = 10
MAX_NAME = 80


class VPTableError(ValueError):
    """A VP table refused: the message names the band at fault (1 is the first).

    A band's fault also says which band (``band``, its number; ``label``, as printed) and
    what is wrong with it (``code``, one of ``BAND_FAULTS``; ``params``, its figures), so
    that a page can say it in the reader's language."""

    def __init__(
        self, message: str, *, band: int | None = None, label: str = "", code: str = "", **params
    ):
        super().__init__(message)
        self.band, self.label, self.code, self.params = band, label, code, params


# What can be wrong with a band (``VPTableError.code``).
BAND_FAULTS = (
    "not_twenty",
    "winner_range",
    "first_not_zero",
    "first_not_level",
    "gap",
    "overlap",
    "not_rising",
    "reversed",
    "last_closed",
    "open_inside",
)


@dataclass(frozen=True, slots=True)
class VPBand:
    """Differences from ``low`` to ``high`` points (None: no upper end) give the winner
    ``winner`` VP and the loser ``loser``.

    The loser's VP are stored, not derived, so that a copy typed in by a director is checked
    against the printed table (10–10, 11–9 …) rather than silently completed.
    """

    low: int
    high: int | None
    winner: int
    loser: int

    def label(self) -> str:
        """Return the band as printed: ``55–150`` or ``> 1500``."""
        return f"{self.low}–{self.high}" if self.high is not None else f"≥ {self.low}"


@dataclass(frozen=True, slots=True)
class VPTable:
    """A named table for matches of ``hands`` hands: its bands, smallest difference first."""

    name: str
    hands: int
    bands: tuple[VPBand, ...]


def validate(table: VPTable) -> VPTable:
    """Return ``table`` if it is a usable VP table, else raise ``VPTableError``.

    A usable table starts at 0, each band starting 5 after the previous one ends (no gap,
    no overlap), up to an open last band; its winner's VP go up band by band from 10–10,
    each band's VP lie within 0–20 and add up to 20.
    """
    if not isinstance(table.hands, int) or not 1 <= table.hands <= MAX_HANDS:
        raise VPTableError(f"a table is for 1 to {MAX_HANDS} hands, not {table.hands!r}")
    if not table.bands:
        raise VPTableError("a table has at least one band")
    if len(table.bands) > MAX_BANDS:
        raise VPTableError(f"a table has at most {MAX_BANDS} bands, not {len(table.bands)}")
    previous: VPBand | None = None
    for number, band in enumerate(table.bands, start=1):
        _check_band(number, band, previous, last=number == len(table.bands))
        previous = band
    return table


def _check_band(number: int, band: VPBand, previous: VPBand | None, *, last: bool) -> None:
    fault = _band_fault(band, previous, last=last)
    if fault is not None:
        code, why, params = fault
        raise VPTableError(
            f"band {number} ({band.label()}): {why}",
            band=number,
            label=band.label(),
            code=code,
            **params,
        )


def _band_fault(
    band: VPBand, previous: VPBand | None, *, last: bool
) -> tuple[str, str, dict[str, int]] | None:
    """Return what is wrong with ``band`` after ``previous`` (a ``BAND_FAULTS`` code, the
    reason and its figures), or None."""
    vp = {"winner": band.winner, "loser": band.loser}
    if band.winner + band.loser != TOTAL_VP:
        return "not_twenty", f"{band.winner}–{band.loser} VP do not add up to 20", vp
    if not 0 <= band.loser <= band.winner <= TOTAL_VP:
        return "winner_range", f"the winner's VP lie within 10–20, not {band.winner}", vp
    if previous is None and band.low != 0:
        return "first_not_zero", "the first band starts at a difference of 0", {}
    if previous is None and band.winner != DRAW_VP:
        return "first_not_level", f"a difference of 0 gives 10–10, not {band.winner}", vp
    if previous is not None:
        # The previous band is closed: only the last may be open.
        expected = {"end": previous.high, "expected": previous.high + STEP}
        if band.low > expected["expected"]:
            return "gap", f"a gap after {previous.high} (expected {expected['expected']})", expected
        if band.low < expected["expected"]:
            return "overlap", f"overlaps the band before, which ends at {previous.high}", expected
        if band.winner <= previous.winner:
            vp["before"] = previous.winner
            return "not_rising", "the winner's VP must go up band by band", vp
    if band.high is not None and band.high < band.low:
        return "reversed", "ends below where it starts", {}
    if last and band.high is not None:
        return "last_closed", "the last band is open-ended (it covers every difference)", {}
    if not last and band.high is None:
        return "open_inside", "only the last band is open-ended", {}
    return None


def band_for(table: VPTable, difference: int | Fraction) -> VPBand:
    """Return the band a points difference (either sign) reads in."""
    size = abs(difference)
    # The first band whose top is at or above the difference: the unprinted points between
    # two bands (51–54 at 3 hands) read in the upper one (BURRACO-VP-EDGE).
    for band in table.bands:
        if band.high is None or size <= band.high:
            return band
    raise VPTableError(f"table {table.name!r} has no open-ended last band")


def victory_points(table: VPTable, difference: int | Fraction) -> tuple[int, int]:
    """Return (winner's VP, loser's VP) for a match won by ``difference`` points, either
    sign; a difference of 0 gives 10–10."""
    band = band_for(table, difference)
    return band.winner, band.loser


def line_victory_points(table: VPTable, points: int, other_points: int) -> tuple[int, int]:
    """Return the VP of a pair that scored ``points`` and of its opponent (``other_points``)."""
    winner, loser = victory_points(table, points - other_points)
    return (winner, loser) if points >= other_points else (loser, winner)


@dataclass(frozen=True, slots=True)
class VPTableScale:
    """A VP table as the night's scale (``ranking.tournament_standings``): a two-pair
    table's VP by its points difference (``margins[0]``), and ``bye`` VP for a bye or a
    walkover."""

    table: VPTable
    bye: Fraction = Fraction(12)

    def points(self, result: TableResult) -> tuple[Fraction, ...]:
        if len(result.players) != 2:
            raise ValueError("a Burraco match is between two pairs")
        ours, theirs = victory_points(self.table, result.margins[0])
        if result.margins[0] < 0:
            ours, theirs = theirs, ours
        return Fraction(ours), Fraction(theirs)


def to_dict(table: VPTable) -> dict[str, Any]:
    """Return the table as JSON-ready data (what ``from_dict`` reads back)."""
    return {
        "name": table.name,
        "hands": table.hands,
        "bands": [
            {"from": b.low, "to": b.high, "winner": b.winner, "loser": b.loser} for b in table.bands
        ],
    }


def from_dict(data: Mapping[str, Any]) -> VPTable:
    """Return the valid table ``data`` describes (``to_dict``'s shape), else raise
    ``VPTableError``: unknown keys, wrong types, too many bands or too large numbers too."""
    if not isinstance(data, Mapping) or set(data) != {"name", "hands", "bands"}:
        raise VPTableError("a table is an object with exactly: name, hands, bands")
    name, hands, bands = data["name"], data["hands"], data["bands"]
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        raise VPTableError(f"a table's name is text of 1 to {MAX_NAME} characters")
    _integer(hands, "hands", 1, MAX_HANDS)
    if not isinstance(bands, list) or not 0 < len(bands) <= MAX_BANDS:
        raise VPTableError(f"a table has a list of 1 to {MAX_BANDS} bands")
    read = tuple(_band_from_dict(number, band) for number, band in enumerate(bands, start=1))
    return validate(VPTable(name=name, hands=hands, bands=read))


def _band_from_dict(number: int, data: Any) -> VPBand:
    if not isinstance(data, Mapping) or set(data) != {"from", "to", "winner", "loser"}:
        raise VPTableError(f"band {number}: an object with exactly: from, to, winner, loser")
    where = f"band {number}"
    low = _integer(data["from"], f"{where}: from", 0, MAX_DIFFERENCE)
    high = data["to"]
    if high is not None:
        _integer(high, f"{where}: to", 0, MAX_DIFFERENCE)
    winner = _integer(data["winner"], f"{where}: winner", 0, TOTAL_VP)
    loser = _integer(data["loser"], f"{where}: loser", 0, TOTAL_VP)
    return VPBand(low=low, high=high, winner=winner, loser=loser)


def _integer(value: Any, what: str, low: int, high: int) -> int:
    # bool is an int to Python, never to a director.
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise VPTableError(f"{what}: a whole number from {low} to {high}, not {value!r}")
    return value


def _fibur(name: str, hands: int, highs: tuple[int, ...]) -> VPTable:
    """Build a federation table from its bands' upper ends (10–10 first, 20–0 open last)."""
    lows = (0, *(high + STEP for high in highs))
    tops: tuple[int | None, ...] = (*highs, None)
    bands = tuple(
        VPBand(low=low, high=high, winner=DRAW_VP + step, loser=DRAW_VP - step)
        for step, (low, high) in enumerate(zip(lows, tops, strict=True))
    )
    return validate(VPTable(name=name, hands=hands, bands=bands))


# 10–10 up to the first figure, 11–9 up to the second … 19–1 up to the last, 20–0 above.
# Not the federation's: a house default until its score card is checked (see above).
FIBUR_2_HANDS = _fibur(
    "2 hands (house default, unverified)", 2, (35, 100, 165, 235, 335, 435, 535, 665, 835, 1000)
)
FIBUR_3_HANDS = _fibur("FIBur 3 hands", 3, (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500))
FIBUR_4_HANDS = _fibur("FIBur 4 hands", 4, (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000))

# The tables a director picks from, by a stable key (a night stores a copy of the table).
FIBUR_TABLES: Mapping[str, VPTable] = MappingProxyType(
    {
        "house-2-hands": FIBUR_2_HANDS,
        "fibur-3-hands": FIBUR_3_HANDS,
        "fibur-4-hands": FIBUR_4_HANDS,
    }
)


def fibur_table(hands: int) -> VPTable:
    """Return the table for matches of ``hands`` hands (2, 3 or 4): the federation's at 3
    and 4, the house default at 2."""
    for table in FIBUR_TABLES.values():
        if table.hands == hands:
            return table
    raise VPTableError(f"the federation has tables for 2, 3 and 4 hands, not {hands}")
