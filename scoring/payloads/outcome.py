"""How a match's result is settled after play: players confirming it, a director deciding.

- ``result_confirmed``: ``seat``, the player (seat number from 0) who agrees with the
  result on the table's log. Only once the match is over; a later correction of a hand
  changes the result, so every confirmation must then be given again.
- ``table_decided``: a tournament director's decision, with its ``reason`` (required):
  ``decision`` "lock" (the totals stand as they are, e.g. when the round's time is up),
  "void" (the table scores nothing) or "score" (``points``: the victory points each seat
  gets, whole numbers from 0 to MAX_DECIDED_POINTS). A later decision replaces an earlier
  one; after any, the table takes no more hands, corrections or confirmations.
- ``points_adjusted``: a tournament director's adjustment of one player's total, with its
  ``reason`` (required): ``seat`` and ``points`` (a whole number other than 0, from
  -MAX_ADJUSTED_POINTS to MAX_ADJUSTED_POINTS: a penalty takes points in a game scored in
  points, adds them in one scored in penalties). It moves that seat's total as it stands,
  at any time, and counts no hand (NIGHT-ADJUST).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.payloads.fields import (
    check_fields,
    field_choice,
    field_int,
    field_seat,
    field_str,
    payload_error,
    whole_number,
)

DECISIONS = ("lock", "void", "score")
MAX_DECIDED_POINTS = 100
MAX_DECISION_REASON = 200
MAX_ADJUSTED_POINTS = 1000


@dataclass(frozen=True, slots=True)
class ResultConfirmed:
    seat: int

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, seats: int) -> ResultConfirmed:
        check_fields(payload, ("seat",))
        return cls(seat=field_seat(payload, "seat", seats=seats))


@dataclass(frozen=True, slots=True)
class TableDecided:
    decision: str
    reason: str
    points: tuple[int, ...] = ()

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, seats: int) -> TableDecided:
        check_fields(payload, ("decision", "reason", "points"))
        decision = field_choice(payload, "decision", DECISIONS)
        reason = field_str(payload, "reason", max_length=MAX_DECISION_REASON)
        if not reason:
            raise payload_error("reason", "the reason for the decision", "no_reason")
        points: tuple[int, ...] = ()
        if decision == "score":
            raw = payload.get("points")
            if not isinstance(raw, list) or len(raw) != seats:
                raise payload_error(
                    "points", f"a list of {seats} whole numbers", "bad_points", seats=seats
                )
            points = tuple(
                whole_number(f"points[{seat}]", value, low=0, high=MAX_DECIDED_POINTS)
                for seat, value in enumerate(raw)
            )
        elif "points" in payload:
            raise payload_error("points", "given only with the decision score", "bad_points")
        return cls(decision=decision, reason=reason, points=points)


@dataclass(frozen=True, slots=True)
class PointsAdjusted:
    seat: int
    points: int
    reason: str

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, seats: int) -> PointsAdjusted:
        check_fields(payload, ("seat", "points", "reason"))
        seat = field_seat(payload, "seat", seats=seats)
        points = field_int(payload, "points", low=-MAX_ADJUSTED_POINTS, high=MAX_ADJUSTED_POINTS)
        if points == 0:
            raise payload_error("points", "a number of points other than 0", "no_points")
        reason = field_str(payload, "reason", max_length=MAX_DECISION_REASON)
        if not reason:
            raise payload_error("reason", "the reason for the adjustment", "no_reason")
        return cls(seat=seat, points=points, reason=reason)
