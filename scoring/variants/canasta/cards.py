"""Canasta's cards: the deck, the deal and each card's value (CAN-SETUP, CAN-VALUES)."""

from __future__ import annotations

from scoring.cards import Card, DeckSpec

# CAN-SETUP: two 52-card decks and four jokers, 108 cards; 11 to each of the 4 players.
DECK = DeckSpec(decks=2, jokers=4, no_jokers_rule="CAN-SETUP")
HAND_SIZE = 11
PLAYERS = 4
PAIRS = ((0, 2), (1, 3))  # partners sit across: North-South, East-West

# CAN-VALUES: joker 50, 2 and ace 20, K Q J 10 9 8 10, 7 6 5 4 5, black 3 5.
JOKER_VALUE = 50
TWO_VALUE = 20
ACE_VALUE = 20
HIGH_VALUE = 10
LOW_VALUE = 5
TWO_RANK = 2
THREE_RANK = 3
RED_SUITS = ("H", "D")
RED_THREES = 2 * DECK.decks  # two red 3s a deck


def is_wild(card: Card) -> bool:
    """Tell whether a card is wild: a joker or any 2 (CAN-MELD-2)."""
    return card.is_joker or card.rank == TWO_RANK


def is_red_three(card: Card) -> bool:
    """Tell whether a card is a red 3, a bonus card never melded (CAN-RED3-1)."""
    return card.rank == THREE_RANK and card.suit in RED_SUITS


def is_black_three(card: Card) -> bool:
    """Tell whether a card is a black 3, melded only when going out (CAN-MELD-3)."""
    return card.rank == THREE_RANK and card.suit not in RED_SUITS


def card_value(card: Card) -> int:
    """Return a card's value, melded or left in hand (CAN-VALUES). A red 3 is never held
    at the hand's end (it is laid down at once), so its worth is its bonus (CAN-RED3-1),
    not a value here; held it would count as a black 3."""
    if card.is_joker:
        return JOKER_VALUE
    if card.rank == TWO_RANK:
        return TWO_VALUE
    if card.rank == 1:
        return ACE_VALUE
    return HIGH_VALUE if card.rank >= 8 else LOW_VALUE


# What the deck's cards but the red 3s are worth: the most a hand's cards, melded and held,
# add up to. 4 jokers 200, 8 twos 160, 8 aces 160, 48 eights to kings 480, 32 fours to
# sevens 160, 4 black 3s 20: 1180.
DECK_VALUE = sum(card_value(card) for card in DECK.cards() if not is_red_three(card))
VALUE_STEP = 5  # every value is a multiple of 5, so any sum of cards is


def deck(options: object, players: int) -> DeckSpec:
    """Return the cards of a Canasta table (CAN-SETUP)."""
    return DECK


def hand_size(options: object, players: int) -> int:
    """Return how many cards each player is dealt: 11 (CAN-SETUP)."""
    return HAND_SIZE
