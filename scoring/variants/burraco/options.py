"""Burraco's table options: the match's length and the two rule switches (BUR-MATCH,
BUR-OPT-SEMIPULITO, BUR-OPT-INTL), and the table's size (BUR-SETUP)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleViolation, Violation
from scoring.options import bad_option, is_int, json_value, read_options
from scoring.side_sheets import check_players as check_four_players

PLAYERS = 4
# BUR-MATCH: a friendly match ends when a pair reaches 2005.
TARGET = 2005
# Bounds, so no target or number of hands a table (or a league) holds reaches past an
# integer column or makes a match that cannot end in an evening's log.
MAX_TARGET = 1_000_000
MAX_HANDS = 100
OPTION_KEYS = ("target", "hands", "semipulito", "international")
_BOOLS = ("semipulito", "international")


@dataclass(frozen=True, slots=True)
class BurracoOptions:
    """Hold a Burraco table's options.

    ``target``: the total that ends the match (BUR-MATCH, 2005 unless chosen, 1 to
    1,000,000). ``hands``: 0 plays to the target; else the match is that many hands (1 to
    100) and the target is not read. ``semipulito``: a burraco whose wild lies outside seven
    clean cards earns 150 (BUR-OPT-SEMIPULITO). ``international``: the international code
    (BUR-OPT-INTL), which has no semipulito, so the two switches exclude each other.
    """

    target: int = TARGET
    hands: int = 0
    semipulito: bool = False
    international: bool = False

    def __post_init__(self) -> None:
        problems = [
            bad_option(name, getattr(self, name), "true or false")
            for name in _BOOLS
            if not isinstance(getattr(self, name), bool)
        ]
        problems += _count_problems("target", self.target, 1, MAX_TARGET)
        problems += _count_problems("hands", self.hands, 0, MAX_HANDS)
        if not problems and self.semipulito and self.international:
            problems.append(
                Violation(
                    rule="BUR-OPT-INTL",
                    code="semipulito_international",
                    message="The international code has no semipulito: choose one of "
                    "'semipulito' and 'international'.",
                    params={"option": "semipulito"},
                )
            )
        if problems:
            raise RuleViolation(*problems)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> BurracoOptions:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        check_players(players)
        return cls(**read_options(data, OPTION_KEYS, "Burraco"))

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, ready for JSON."""
        return {
            "target": self.target,
            "hands": self.hands,
            "semipulito": self.semipulito,
            "international": self.international,
        }


def _count_problems(option: str, value: object, low: int, high: int) -> list[Violation]:
    """Return the refusal of a whole-number option off its bounds (BUR-MATCH), if any."""
    if not is_int(value):
        return [bad_option(option, value, f"a whole number from {low} to {high}")]
    if low <= value <= high:  # type: ignore[operator]
        return []
    return [
        Violation(
            rule="BUR-MATCH",
            code="out_of_bounds",
            message=f"Option {option!r} cannot be {value}: it takes {low} to {high}.",
            params={"option": option, "value": json_value(value), "min": low, "max": high},
        )
    ]


def check_players(players: object) -> int:
    """Return the number of players if Burraco seats that many (4, BUR-SETUP), else refuse."""
    return check_four_players(players, "BUR-SETUP", "Burraco")
