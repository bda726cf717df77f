"""Burraco's cards: the deck, the deal and each card's value (BUR-SETUP, BUR-VALUES)."""

from __future__ import annotations

from scoring.cards import Card, DeckSpec

# BUR-SETUP: two 52-card decks and four jokers, 108 cards; 11 to each of the 4 players and
# two pozzetti of 11 set aside, so 108 - 44 - 22 = 42 cards make the stock and first discard.
DECK = DeckSpec(decks=2, jokers=4, no_jokers_rule="BUR-SETUP")
HAND_SIZE = 11
POZZETTO_SIZE = 11
PAIRS = ((0, 2), (1, 3))  # partners sit across: North-South, East-West

# BUR-VALUES: jolly 30, pinella (any 2) 20, ace 15, 8 to K 10, 3 to 7 5.
JOLLY_VALUE = 30
PINELLA_VALUE = 20
ACE_VALUE = 15
HIGH_VALUE = 10
LOW_VALUE = 5
PINELLA_RANK = 2


def card_value(card: Card) -> int:
    """Return a card's value, melded or left in hand (BUR-VALUES)."""
    if card.is_joker:
        return JOLLY_VALUE
    if card.rank == PINELLA_RANK:
        return PINELLA_VALUE
    if card.rank == 1:
        return ACE_VALUE
    return HIGH_VALUE if card.rank >= 8 else LOW_VALUE


def is_wild(card: Card) -> bool:
    """Tell whether a card may stand for another: a jolly, or a pinella (any 2, BUR-WILD)."""
    return card.is_joker or card.rank == PINELLA_RANK


# What the whole deck is worth: the most a hand's cards, melded and held, can add up to.
DECK_VALUE = sum(card_value(card) for card in DECK.cards())
# Every value is a multiple of 5, so any sum of cards is.
VALUE_STEP = 5


def deck(options: object, players: int) -> DeckSpec:
    """Return the cards of a Burraco table (BUR-SETUP)."""
    return DECK


def hand_size(options: object, players: int) -> int:
    """Return how many cards each player is dealt: 11 (BUR-SETUP)."""
    return HAND_SIZE
