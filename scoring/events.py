"""The event vocabulary shared by every variant, and the checks on event payloads."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.cards import Card, Declared, parse_declared
from scoring.errors import RuleViolation, Violation

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
)
# Types a client may append; the table's first event is written by the table's creation.
APPENDABLE_TYPES = EVENT_TYPES[1:]

SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One entry of a table's log as the engine sees it: position, type and payload.

    ``event_type`` is the entry's "type" on the wire (one of EVENT_TYPES).
    """

    seq: int
    event_type: str
    payload: Mapping[str, Any] = field(default_factory=dict)


def payload_error(
    name: str, expected: str, code: str = "bad_field", **params: Any
) -> RuleViolation:
    """Build the refusal for a payload field that is missing or of the wrong shape.

    ``code`` says what shape was expected, so the caller's language can say it again.
    """
    return RuleViolation(
        Violation(
            rule="EVENT",
            code=code,
            message=f"Field '{name}' must be {expected}.",
            params={"field": name, **params},
        )
    )


def check_fields(payload: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse fields the event type does not have, so the log holds only what it means."""
    for name in payload:
        if name not in allowed:
            raise RuleViolation(
                Violation(
                    rule="EVENT",
                    code="unknown_field",
                    message=f"Unknown field '{name}'; this entry takes: {', '.join(allowed)}.",
                    params={"field": str(name), "choices": list(allowed)},
                )
            )


def field_int(payload: Mapping[str, Any], name: str, *, low: int, high: int) -> int:
    """Return an integer field within [low, high], refusing booleans and other types."""
    value = payload.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise payload_error(
            name, f"a whole number from {low} to {high}", "bad_int", low=low, high=high
        )
    return value


def field_choice(payload: Mapping[str, Any], name: str, choices: tuple[str, ...]) -> str:
    """Return a string field that must be one of ``choices``."""
    value = payload.get(name)
    if not isinstance(value, str) or value not in choices:
        raise payload_error(
            name, "one of " + ", ".join(choices), "bad_choice", choices=list(choices)
        )
    return value


def field_bool(payload: Mapping[str, Any], name: str, *, default: bool = False) -> bool:
    """Return an optional true/false field, refusing 0, 1, "yes" and other stand-ins."""
    value = payload.get(name, default)
    if not isinstance(value, bool):
        raise payload_error(name, "true or false", "bad_choice", choices=["true", "false"])
    return value


def field_str(payload: Mapping[str, Any], name: str, *, max_length: int, default: str = "") -> str:
    """Return an optional free-text field, trimmed."""
    value = payload.get(name, default)
    if not isinstance(value, str) or len(value) > max_length:
        raise payload_error(
            name, f"text of at most {max_length} characters", "bad_text", max_length=max_length
        )
    return value.strip()


def declared_field(payload: Mapping[str, Any], name: str) -> tuple[Declared, ...]:
    """Parse a field in card notation, jokers with what they stand for (JK=4C), naming the
    field in any refusal."""
    value = payload.get(name)
    if not isinstance(value, str | list):
        raise payload_error(name, "cards in notation such as '7S 8S 9S'", "bad_cards")
    try:
        return parse_declared(value)
    except RuleViolation as exc:
        raise RuleViolation(
            *(
                Violation(v.rule, v.message, {**v.params, "field": name}, v.code)
                for v in exc.violations
            )
        ) from None


def cards_field(payload: Mapping[str, Any], name: str) -> tuple[Card, ...]:
    """Parse a payload field written in card notation, naming the field in any refusal."""
    return tuple(card for card, _ in declared_field(payload, name))
