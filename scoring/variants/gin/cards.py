"""Gin Rummy's card values (GIN-VALUE): what a card counts in deadwood, a knock's limit and
an Oklahoma upcard."""

from __future__ import annotations

from scoring.cards import Card
from scoring.errors import RuleViolation, Violation


def gin_value(card: Card) -> int:
    """Return the Gin Rummy value of a card: ace 1, 2-10 face value, J Q K 10 (GIN-VALUE)."""
    if card.is_joker:
        # A Gin deck holds no jokers (GIN-SETUP), so a joker is a data-entry error.
        raise RuleViolation(
            Violation(
                rule="GIN-SETUP",
                code="no_jokers",
                message="Gin Rummy is played without jokers.",
                params={"card": "JK", "count": 1, "limit": 0},
            )
        )
    return min(card.rank, 10)
