"""Canasta's table options: the match's target and the two rules clubs vary (CAN-MATCH-1,
CAN-OPT-CONCEALED, CAN-OPT-CANASTAS), and the table's size (CAN-SETUP)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleViolation, Violation
from scoring.options import bad_option, is_int, json_value, read_options
from scoring.side_sheets import check_players as check_four_players

# CAN-MATCH-1: the match ends when a side reaches 5000.
TARGET = 5000
MAX_TARGET = 1_000_000
# CAN-OPT-CANASTAS: the canastas a side needs to go out, one (classic) or two.
CANASTAS_TO_GO_OUT = (1, 2)
OPTION_KEYS = ("target", "concealed_bonus", "canastas_to_go_out")


@dataclass(frozen=True, slots=True)
class CanastaOptions:
    """Hold a Canasta table's options.

    ``target``: the total that ends the match (CAN-MATCH-1, 5000 unless chosen, 1 to
    1,000,000). ``concealed_bonus``: going out concealed earns 200 rather than 100
    (CAN-OPT-CONCEALED, on unless switched off). ``canastas_to_go_out``: 1 (classic) or 2
    (CAN-OPT-CANASTAS).
    """

    target: int = TARGET
    concealed_bonus: bool = True
    canastas_to_go_out: int = 1

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.concealed_bonus, bool):
            problems.append(bad_option("concealed_bonus", self.concealed_bonus, "true or false"))
        if not is_int(self.target):
            problems.append(
                bad_option("target", self.target, f"a whole number from 1 to {MAX_TARGET}")
            )
        elif not 1 <= self.target <= MAX_TARGET:
            problems.append(
                Violation(
                    rule="CAN-MATCH-1",
                    code="out_of_bounds",
                    message=f"Option 'target' cannot be {self.target}: it takes 1 to {MAX_TARGET}.",
                    params={"option": "target", "value": self.target, "min": 1, "max": MAX_TARGET},
                )
            )
        if not is_int(self.canastas_to_go_out) or self.canastas_to_go_out not in CANASTAS_TO_GO_OUT:
            problems.append(
                Violation(
                    rule="CAN-OPT-CANASTAS",
                    code="bad_choice",
                    message=f"Option 'canastas_to_go_out' cannot be "
                    f"{json_value(self.canastas_to_go_out)!r}: it takes 1 or 2.",
                    params={
                        "option": "canastas_to_go_out",
                        "value": json_value(self.canastas_to_go_out),
                        "choices": list(CANASTAS_TO_GO_OUT),
                    },
                )
            )
        if problems:
            raise RuleViolation(*problems)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> CanastaOptions:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        check_players(players)
        return cls(**read_options(data, OPTION_KEYS, "Canasta"))

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, ready for JSON."""
        return {
            "target": self.target,
            "concealed_bonus": self.concealed_bonus,
            "canastas_to_go_out": self.canastas_to_go_out,
        }


def check_players(players: object) -> int:
    """Return the number of players if Canasta seats that many (4, CAN-SETUP), else refuse."""
    return check_four_players(players, "CAN-SETUP", "Canasta")
