"""The checks of one payload field, shared by every event's reader."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from scoring.cards import Card, Declared, parse_declared
from scoring.errors import RuleViolation, Violation

T = TypeVar("T")

MAX_MELDS = 40  # a table holds at most 110 cards: 36 melds of three


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


def whole_number(name: str, value: object, *, low: int, high: int) -> int:
    """Return ``value`` if it is an integer within [low, high], refusing booleans and others."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise payload_error(
            name, f"a whole number from {low} to {high}", "bad_int", low=low, high=high
        )
    return value


def field_int(payload: Mapping[str, Any], name: str, *, low: int, high: int) -> int:
    """Return an integer field within [low, high], refusing booleans and other types."""
    return whole_number(name, payload.get(name), low=low, high=high)


def field_seat(payload: Mapping[str, Any], name: str, *, seats: int) -> int:
    """Return a seat number of a table of ``seats`` players; seats count from 0 in the log."""
    value = payload.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise payload_error(
            name, f"a seat number from 0 to {seats - 1}", "bad_seat", high=seats - 1
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


def one_card(payload: Mapping[str, Any], name: str) -> Card:
    """Parse a field that names exactly one card."""
    cards = cards_field(payload, name)
    if len(cards) != 1:
        raise payload_error(name, "exactly one card, such as '7S'", "one_card")
    return cards[0]


def meld_list(payload: Mapping[str, Any], name: str) -> tuple[tuple[Declared, ...], ...]:
    """Return each meld's cards and keep the declarations of jokers (JK=4C) beside them."""
    raw = payload.get(name)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_MELDS:
        raise payload_error(name, f"a list of 1 to {MAX_MELDS} melds", "bad_melds", max=MAX_MELDS)
    return tuple(declared_field({name: text}, name) for text in raw)


@dataclass(frozen=True, slots=True)
class Pending(Generic[T]):
    """Hold a field read with its payload whose refusal, if any, waits for the state checks
    the engine made before reading it (so the first refusal stays the same)."""

    value: T | None = None
    refusal: RuleViolation | None = None

    def get(self) -> T | None:
        """Return the field's value, or raise its refusal now."""
        if self.refusal is not None:
            raise self.refusal
        return self.value


def pending(read: Callable[[], T]) -> Pending[T]:
    """Run ``read`` now and keep its value or its refusal for later."""
    try:
        return Pending(value=read())
    except RuleViolation as exc:
        return Pending(refusal=exc)
