"""The games the replay knows, each behind one small interface.

A variant turns a table's options dict into its options object, scores a recorded hand
from an event payload, and says when the match is over. The replay does the rest.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scoring import events as ev
from scoring import gin
from scoring.cards import Card, parse_cards
from scoring.errors import RuleViolation, Violation


class HandResult(Protocol):
    """What every variant's hand result offers the replay."""

    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]: ...


class Variant(Protocol):
    """The interface of one game for the replay."""

    key: str
    players: tuple[int, int]
    setup_rule: str
    match_rule: str

    def options_from_dict(self, data: Mapping[str, Any]) -> Any: ...
    def options_to_dict(self, options: Any) -> dict[str, Any]: ...
    def score_hand(self, options: Any, payload: Mapping[str, Any], seats: int) -> HandResult: ...
    def match_winner(self, options: Any, results: Sequence[HandResult]) -> int | None: ...


def cards_field(payload: Mapping[str, Any], name: str) -> tuple[Card, ...]:
    """Parse a payload field written in card notation, naming the field in any refusal."""
    value = payload.get(name)
    if not isinstance(value, str | list):
        raise ev.payload_error(name, "cards in notation such as '7S 8S 9S'", "bad_cards")
    try:
        return parse_cards(value)
    except RuleViolation as exc:
        raise RuleViolation(
            *(
                Violation(v.rule, v.message, {**v.params, "field": name}, v.code)
                for v in exc.violations
            )
        ) from None


QUICK_FIELDS = ("mode", "knocker", "ending", "knocker_count", "defender_count")
CARDS_FIELDS = ("mode", "knocker", "knocker_cards", "defender_cards", "ending")


@dataclass(frozen=True, slots=True)
class GinVariant:
    """Gin Rummy (RULES.md §2), both presets."""

    key: str = "gin"
    players: tuple[int, int] = (2, 2)
    setup_rule: str = "GIN-SETUP"
    match_rule: str = "GIN-MATCH"

    def options_from_dict(self, data: Mapping[str, Any]) -> gin.GinOptions:
        """Build the table's options from its preset and overrides."""
        return gin.GinOptions.from_dict(data)

    def options_to_dict(self, options: gin.GinOptions) -> dict[str, Any]:
        """Return the options as an explicit JSON dict."""
        return options.to_dict()

    def score_hand(
        self, options: gin.GinOptions, payload: Mapping[str, Any], seats: int
    ) -> gin.GinHandResult:
        """Score a hand entered quickly (counts) or by the cards each player held."""
        mode = ev.field_choice(payload, "mode", ("quick", "cards"))
        if mode == "quick":
            ending = ev.field_choice(payload, "ending", (*gin.ENDINGS, gin.WALL))
            if ending == gin.WALL:
                ev.check_fields(payload, ("mode", "ending"))
                return gin.score_wall(options)
            ev.check_fields(payload, QUICK_FIELDS)
            return gin.score_quick(
                options,
                knocker=ev.field_int(payload, "knocker", low=0, high=seats - 1),
                ending=ending,
                knocker_count=ev.field_int(payload, "knocker_count", low=0, high=gin.MAX_COUNT),
                defender_count=ev.field_int(payload, "defender_count", low=0, high=gin.MAX_COUNT),
            )
        ev.check_fields(payload, CARDS_FIELDS)
        ending = payload.get("ending")
        if ending is not None:
            ending = ev.field_choice(payload, "ending", gin.ENDINGS)
        return gin.score_cards(
            options,
            knocker=ev.field_int(payload, "knocker", low=0, high=seats - 1),
            knocker_cards=cards_field(payload, "knocker_cards"),
            defender_cards=cards_field(payload, "defender_cards"),
            ending=ending,
        )

    def match_winner(
        self, options: gin.GinOptions, results: Sequence[gin.GinHandResult]
    ) -> int | None:
        """Return the first seat whose running total reached the target (GIN-MATCH)."""
        totals = [0, 0]
        for result in results:
            for seat, points in enumerate(result.points):
                totals[seat] += points
            winner = gin.match_winner(options, totals)
            if winner is not None:
                return winner
        return None


VARIANTS: dict[str, Variant] = {"gin": GinVariant()}


def variant_get(key: object) -> Variant:
    """Return the variant named ``key`` or refuse it."""
    if not isinstance(key, str) or key not in VARIANTS:
        raise RuleViolation(
            Violation(
                rule="EVENT",
                code="unknown_variant",
                message="Unknown game; choose one of: " + ", ".join(VARIANTS) + ".",
                params={"variant": str(key), "choices": list(VARIANTS)},
            )
        )
    return VARIANTS[key]
