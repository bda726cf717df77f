"""The table simulator's shared parts (play_simulator.py): its phases and limits, the
records it keeps (Config, Point, Entry, Simulation) and its card and meld helpers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.cards import Card, DeckSpec
from scoring.errors import RuleViolation
from scoring.events import LogEvent
from scoring.melds import Meld, MeldRules, check_meld

SEAT_NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")

# Phases of a hand as the simulator plays it (docs/rules.md words, not the engine's).
FIRST = "first"  # Gin's first turn: take the upcard or pass (GIN-FIRST)
DRAW = "draw"  # the seat to move has not drawn yet
PLAY = "play"  # the seat to move has drawn
FINAL = "final"  # Knock Rummy, stock used up: one melding turn each (KR-STOCK)
SHOW = "show"  # the hand is over, the hands left are to be shown

GIN_KNOCK_LIMIT = 10  # GIN-KNOCK
KR_KNOCK_LIMIT = 5  # KR-KNOCK
KR_DRAWS = 3  # KR-TURN


@dataclass(frozen=True, slots=True)
class Config:
    """Say what table to simulate and how often to take the rarer paths."""

    variant: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    hands: int = 1  # hands to enter at most; the match may end first
    recorded: float = 0.0  # chance that a hand is entered by hand_recorded instead
    undo: float = 0.0  # chance that a move is taken back and made again
    max_events: int | None = None  # stop the log there (a prefix of a legal log is legal)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """Hold a meld on the table and the seat that laid it."""

    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Point:
    """Hold what the table really looked like just before one event of the log."""

    phase: str | None  # None between hands
    turn: int | None
    hands: tuple[tuple[Card, ...], ...] = ()
    opened: tuple[bool, ...] = ()
    table: tuple[TableMeld, ...] = ()
    discard: tuple[Card, ...] = ()
    stock: int = 0
    draws: int = 0
    passes: int = 0  # GIN-FIRST passes so far
    taken: Card | None = None  # the card taken from the discard pile this turn
    melded_now: bool = False  # the seat to move melded this turn


@dataclass(frozen=True, slots=True)
class Entry:
    """Hold one hand as a scorekeeper enters it by hand, and the seq of the event scoring it.

    ``payload`` is None for a Gin hand void because the stock ran out at a table without the
    wall: it scores nothing, and hand by hand it is not entered at all (a hand entered as a
    wall is refused there, GIN-WALL).
    """

    seq: int
    payload: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Simulation:
    """Hold a simulated table: its log, the table before each event, the hands entered."""

    config: Config
    options: Any
    deck: DeckSpec
    melds: MeldRules
    events: tuple[LogEvent, ...]
    points: tuple[Point, ...]
    entries: tuple[Entry, ...]


class _Stop(Exception):
    """The log is as long as asked, or the simulator has no legal move: it stops there."""


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _without(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    left = list(cards)
    for card in gone:
        left.remove(card)
    return left


def extension(meld: Meld, cards: Sequence[Card], rules: MeldRules) -> Meld | None:
    """Return the meld with cards added at its ends, its jokers keeping their cards, or None."""
    if len(cards) == 1 and not _may_extend(meld, cards[0]):
        return None
    declarations = [stands for _, stands in meld.declared()] + [None] * len(cards)
    try:
        return check_meld((*meld.cards, *cards), rules, declarations)
    except RuleViolation:
        return None


def _may_extend(meld: Meld, card: Card) -> bool:
    """Tell whether a card could fit the meld, before asking check_meld (which is slower)."""
    if card.is_joker:
        return True
    stands = meld.stands_for
    if meld.kind == "set":
        return card.rank == stands[0].rank
    ends = (stands[0].rank, stands[-1].rank)
    return card.suit == stands[0].suit and any((card.rank - end) % 13 in (1, 12) for end in ends)


def _jokers(meld: Meld) -> Counter[Card]:
    """Return the cards the meld's jokers stand for."""
    return Counter(stands for card, stands in meld.declared() if card.is_joker)
