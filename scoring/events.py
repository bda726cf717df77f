"""The event vocabulary shared by every variant (scoring/payloads/ reads their payloads)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

TABLE_CREATED = "table_created"
HAND_RECORDED = "hand_recorded"
HAND_VOIDED = "hand_voided"
HAND_AMENDED = "hand_amended"

HAND_STARTED = "hand_started"
CARD_DRAWN = "card_drawn"
CARD_DISCARDED = "card_discarded"
TURN_PASSED = "turn_passed"
MELDS_LAID = "melds_laid"
CARDS_ADDED = "cards_added"
JOKER_SWAPPED = "joker_swapped"
TABLE_REARRANGED = "table_rearranged"
DISCARD_CLAIMED = "discard_claimed"
KNOCKED = "knocked"
HANDS_SHOWN = "hands_shown"
MOVE_UNDONE = "move_undone"

# How a finished match's result is settled (scoring/payloads/outcome.py).
RESULT_CONFIRMED = "result_confirmed"
TABLE_DECIDED = "table_decided"
# A tournament director's points added to, or taken from, one player's total (a penalty).
POINTS_ADJUSTED = "points_adjusted"

# The moves of a hand played move by move (scoring/play/__init__.py documents their payloads).
MOVE_TYPES = (
    CARD_DRAWN,
    CARD_DISCARDED,
    TURN_PASSED,
    MELDS_LAID,
    CARDS_ADDED,
    JOKER_SWAPPED,
    TABLE_REARRANGED,
    DISCARD_CLAIMED,
    KNOCKED,
    HANDS_SHOWN,
)

EVENT_TYPES = (
    TABLE_CREATED,
    HAND_RECORDED,
    HAND_VOIDED,
    HAND_AMENDED,
    HAND_STARTED,
    *MOVE_TYPES,
    MOVE_UNDONE,
    RESULT_CONFIRMED,
    TABLE_DECIDED,
    POINTS_ADJUSTED,
)
# Types a client may append; the table's first event is written by the table's creation,
# and decisions and adjustments only by a tournament's director (games' tournament services).
DIRECTOR_TYPES = (TABLE_DECIDED, POINTS_ADJUSTED)
APPENDABLE_TYPES = tuple(t for t in EVENT_TYPES[1:] if t not in DIRECTOR_TYPES)

SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One entry of a table's log as the engine sees it: position, type and payload.

    ``event_type`` is the entry's "type" on the wire (one of EVENT_TYPES).
    """

    seq: int
    event_type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
