"""Canasta's melds: sets of one rank, their wild cards, black 3s, red 3s never melded, and
the canasta a meld of seven or more makes (CAN-MELD-1, CAN-MELD-2, CAN-MELD-3,
CAN-RED3-1, CAN-CANASTA-1).

Readings of the sources (the package's docstring names them):

- A meld is three or more cards of one rank, never a sequence; jokers and 2s are wild and
  make no meld of their own (no meld of wilds alone: the classic game has none).
- At least two natural cards and at most three wilds, however long the meld, a canasta
  included: a mixed canasta holds 4 naturals at least.
- Black 3s meld only when going out, three or four of them, no wild among them; a black
  3s meld is never a canasta (there are only four).
- A red 3 is never melded: laid face up at once, it scores as a bonus (CAN-RED3-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, card_sort_key
from scoring.errors import refusal as _refuse
from scoring.variants.canasta.cards import (
    THREE_RANK,
    card_value,
    is_red_three,
    is_wild,
)

MIN_MELD = 3
MIN_NATURALS = 2
MOST_WILDS = 3
CANASTA_LENGTH = 7
# What canasta a meld makes (CAN-CANASTA-1): natural (no wild) 500, mixed 300, none under 7.
NATURAL, MIXED, NO_CANASTA = "natural", "mixed", "none"
CANASTA_KINDS = (NATURAL, MIXED)
CANASTA_BONUS = {NATURAL: 500, MIXED: 300, NO_CANASTA: 0}


@dataclass(frozen=True, slots=True)
class CanastaMeld:
    """Hold a legal meld: its rank, its cards (naturals first), and the canasta it makes."""

    rank: int
    cards: tuple[Card, ...]

    @property
    def wilds(self) -> int:
        """Return how many wild cards the meld holds."""
        return sum(1 for card in self.cards if is_wild(card))

    @property
    def canasta(self) -> str:
        """Return the canasta the meld makes: natural, mixed or none (CAN-CANASTA-1)."""
        if len(self.cards) < CANASTA_LENGTH:
            return NO_CANASTA
        return MIXED if self.wilds else NATURAL

    @property
    def bonus(self) -> int:
        """Return the canasta's bonus, 0 for a meld that is none."""
        return CANASTA_BONUS[self.canasta]

    @property
    def value(self) -> int:
        """Return what the meld's cards are worth (CAN-VALUES)."""
        return sum(card_value(card) for card in self.cards)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def check_meld(cards: Sequence[Card], *, going_out: bool = True) -> CanastaMeld:
    """Return the cards as a meld, or refuse them naming the rule they break.

    ``going_out``: the meld is laid in the turn its player goes out, the only time black 3s
    meld (CAN-MELD-3); a sheet or a hand entered by its cards reads every meld so.
    """
    cards = tuple(cards)
    shown = " ".join(str(card) for card in cards)
    red = [card for card in cards if is_red_three(card)]
    if red:
        raise _refuse(
            "CAN-RED3-1",
            "red_three_melded",
            f"{red[0]} is a red 3: it is laid down at once as a bonus, never melded.",
            cards=shown,
        )
    if len(cards) < MIN_MELD:
        raise _refuse(
            "CAN-MELD-1",
            "too_short",
            f"{shown or 'No cards'}: a meld is three cards or more.",
            cards=shown,
            min=MIN_MELD,
        )
    naturals = [card for card in cards if not is_wild(card)]
    ranks = sorted({card.rank for card in naturals})
    if len(ranks) > 1:
        raise _refuse(
            "CAN-MELD-1",
            "mixed_ranks",
            f"{shown}: a meld is of one rank only; Canasta has no sequences.",
            cards=shown,
        )
    wilds = len(cards) - len(naturals)
    if len(naturals) < MIN_NATURALS:
        raise _refuse(
            "CAN-MELD-2",
            "too_few_naturals",
            f"{shown}: a meld needs two natural cards at least, it has {len(naturals)}.",
            cards=shown,
            count=len(naturals),
        )
    if wilds > MOST_WILDS:
        raise _refuse(
            "CAN-MELD-2",
            "too_many_wilds",
            f"{shown}: a meld holds three wild cards at most, it has {wilds}.",
            cards=shown,
            count=wilds,
        )
    if ranks[0] == THREE_RANK:
        _check_black_threes(cards, shown, wilds, going_out=going_out)
    ordered = tuple(sorted(naturals, key=card_sort_key)) + tuple(
        sorted((card for card in cards if is_wild(card)), key=card_sort_key)
    )
    return CanastaMeld(ranks[0], ordered)


def _check_black_threes(cards: Sequence[Card], shown: str, wilds: int, *, going_out: bool) -> None:
    """Refuse black 3s melded other than going out, or with a wild (CAN-MELD-3)."""
    if not going_out:
        raise _refuse(
            "CAN-MELD-3",
            "black_threes_not_out",
            f"{shown}: black 3s are melded only by a player going out.",
            cards=shown,
        )
    if wilds:
        raise _refuse(
            "CAN-MELD-3",
            "black_threes_wild",
            f"{shown}: a meld of black 3s takes no wild card.",
            cards=shown,
        )
