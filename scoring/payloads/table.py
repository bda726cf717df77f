"""The payloads of a table's own entries: its creation and the hands entered whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoring.errors import RuleViolation, Violation
from scoring.payloads.fields import check_fields, field_int, field_str, payload_error

if TYPE_CHECKING:
    from scoring.game import GameRules

MAX_SEAT_NAME = 40
MAX_REASON = 200
TABLE_FIELDS = ("variant", "options", "seats")
# What a void or an amendment adds to a hand's entry: which hand, and why.
CORRECTION_FIELDS = ("hand", "reason")

# A game's reader of a hand entry (GameRules.read_entry with the table's options and seats).
EntryReader = Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True, slots=True)
class TableCreated:
    """Hold a table's creation: its game, its options and the players' names in seat order."""

    game: GameRules
    options: Any
    seats: tuple[str, ...]

    @classmethod
    def read(
        cls, payload: Mapping[str, Any], *, games: Callable[[object], GameRules]
    ) -> TableCreated:
        """Read a table_created payload; ``games`` finds the game its "variant" names."""
        check_fields(payload, TABLE_FIELDS)
        game = games(payload.get("variant"))
        raw_seats = payload.get("seats")
        if not isinstance(raw_seats, list) or not all(isinstance(s, str) for s in raw_seats):
            raise payload_error("seats", "a list of player names", "bad_names")
        seats = tuple(s.strip() for s in raw_seats)
        low, high = game.players
        if not low <= len(seats) <= high:
            raise RuleViolation(
                Violation(
                    rule=game.setup_rule,
                    code="players",
                    message=f"This game is for {low} to {high} players, not {len(seats)}.",
                    params={"count": len(seats), "min": low, "max": high},
                )
            )
        if any(not s or len(s) > MAX_SEAT_NAME for s in seats):
            raise payload_error(
                "seats",
                f"names of 1 to {MAX_SEAT_NAME} characters",
                "bad_names",
                max_length=MAX_SEAT_NAME,
            )
        if len({s.casefold() for s in seats}) != len(seats):
            raise RuleViolation(
                Violation(
                    rule="EVENT",
                    code="duplicate_player",
                    message="Two seats have the same player name.",
                    params={},
                )
            )
        # Options depend on the seats (R40-ADD, RAM-OPT-KNOCKCLAIM); the game refuses counts
        # inside the range that it still lacks (three at Rummy40).
        options = game.options_from_dict(payload.get("options") or {}, len(seats))
        return cls(game=game, options=options, seats=seats)


@dataclass(frozen=True, slots=True)
class HandRecorded:
    """Hold a hand entered whole, as the table's game reads its entry."""

    entry: Any

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, entry: EntryReader) -> HandRecorded:
        """Read a hand_recorded payload with the table's game's ``entry`` reader."""
        return cls(entry=entry(payload))


def _hand_and_reason(payload: Mapping[str, Any], recorded: int) -> tuple[int, str]:
    """Read which hand a correction is about (1 to ``recorded``) and why."""
    number = field_int(payload, "hand", low=1, high=recorded)
    return number, field_str(payload, "reason", max_length=MAX_REASON)


@dataclass(frozen=True, slots=True)
class HandVoided:
    """Hold a void: the number of the hand that no longer counts, and why."""

    hand: int
    reason: str

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, recorded: int) -> HandVoided:
        """Read a hand_voided payload at a table that has ``recorded`` hands (one or more)."""
        hand, reason = _hand_and_reason(payload, recorded)
        check_fields(payload, CORRECTION_FIELDS)
        return cls(hand=hand, reason=reason)


@dataclass(frozen=True, slots=True)
class HandAmended:
    """Hold an amendment: the hand's number, why, and its entry as the game reads it."""

    hand: int
    reason: str
    entry: Any

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, recorded: int, entry: EntryReader) -> HandAmended:
        """Read a hand_amended payload: a correction's fields and a hand entry's."""
        hand, reason = _hand_and_reason(payload, recorded)
        rest = {k: v for k, v in payload.items() if k not in CORRECTION_FIELDS}
        return cls(hand=hand, reason=reason, entry=entry(rest))
