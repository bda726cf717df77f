"""Cards, decks and the card notation of CARD-1..CARD-3."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import RuleViolation, Violation

# Display order of suits: clubs, spades, hearts, diamonds (the order docs/rules.md lists them in).
SUITS: tuple[str, ...] = ("C", "S", "H", "D")
SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
RANKS: tuple[int, ...] = tuple(range(1, 14))
_RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUIT_ORDER: dict[str, int] = {suit: i for i, suit in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class Card:
    """Hold one playing card: rank 1 (ace) to 13 (king) and a suit letter, or a joker."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not _is_valid_card(self.rank, self.suit):
            raise RuleViolation(
                Violation(
                    rule="CARD-1",
                    code="bad_card",
                    message=f"There is no card with rank {self.rank!r} and suit {self.suit!r}.",
                    params={"rank": str(self.rank), "suit": str(self.suit)},
                )
            )

    @property
    def is_joker(self) -> bool:
        """Tell whether this card is a joker."""
        return self.rank == 0

    @property
    def rank_name(self) -> str:
        """Return the rank as written: A, 2..10, J, Q, K (JK for a joker)."""
        if self.is_joker:
            return "JK"
        return _RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def label(self) -> str:
        """Return the card for people: rank and suit symbol, e.g. 10♥ (JK for a joker)."""
        if self.is_joker:
            return "JK"
        return self.rank_name + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return self.rank_name + self.suit


def _is_valid_card(rank: object, suit: object) -> bool:
    # bool is an int in Python; True is not a rank.
    if not isinstance(rank, int) or isinstance(rank, bool):
        return False
    if rank == 0:
        return suit == ""
    return 1 <= rank <= 13 and suit in _SUIT_ORDER


JOKER = Card(0, "")
FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def card_sort_key(card: Card) -> tuple[int, int]:
    """Return the display sort key: suit (C, S, H, D), then rank from ace to king; jokers last."""
    if card.is_joker:
        return (len(SUITS), 0)
    return (_SUIT_ORDER[card.suit], card.rank)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Return the cards in display order (see card_sort_key)."""
    return tuple(sorted(cards, key=card_sort_key))


# CARD-3 notation: tokens are letters, digits, suit symbols, "*" and the joker emoji, with
# the emoji variation selector phones add after a symbol; anything else separates them. A
# joker may say what it stands for with "=" (JK=4C, *=QS). An "=" always belongs to a token,
# with any spaces around it, so "JK = 4C" never reads as a joker and a 4C, and a stray "="
# ("JK=", "=4C") makes an unknown token instead of vanishing as a separator.
_TOKEN_CHAR = "[0-9A-Za-z*\u2660-\u2667\u2764\ufe0f\U0001f0cf]"
_TOKENS = re.compile(f"(?:{_TOKEN_CHAR}+|=\\s*{_TOKEN_CHAR}*)(?:\\s*=\\s*{_TOKEN_CHAR}*)*")
_RANK_TOKENS: dict[str, int] = {
    "A": 1,
    **{str(n): n for n in range(2, 11)},
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
}
_SUIT_TOKENS: dict[str, str] = {
    "C": "C",
    "S": "S",
    "H": "H",
    "D": "D",
    "♣": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    # The white (outline) symbols and the heart emoji are what many phone keyboards offer.
    "♧": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "❤": "H",
}
_JOKER_TOKENS = frozenset({"JK", "JOKER", "*", "🃏"})
_VARIATION_SELECTOR = "\ufe0f"

# A card with what it stands for: a joker's declared card (JOKER-1), else None.
Declared = tuple[Card, Card | None]


def parse_card(token: str) -> Card | None:
    """Read one CARD-3 token; return None when it is not a card."""
    text = token.strip().replace(_VARIATION_SELECTOR, "").upper()
    if text in _JOKER_TOKENS:
        return JOKER
    rank = _RANK_TOKENS.get(text[:-1])
    suit = _SUIT_TOKENS.get(text[-1:])
    if rank is None or suit is None:
        return None
    return Card(rank, suit)


def _parse_declared_token(token: str) -> Declared | None:
    """Read a token that may carry a declaration (JK=4C); None when it is not one."""
    written, equals, declared_text = token.partition("=")
    card = parse_card(written)
    if card is None or not equals:
        return None if card is None else (card, None)
    declared = parse_card(declared_text)
    if declared is None or declared.is_joker:
        return None
    return card, declared


def _separates(character: str) -> bool:
    """Tell whether a character may stand between cards: space, punctuation, +, & and the
    like. Letters, digits and pictures (an emoji) may not: they are kept as a token of their
    own and refused by name, so no typed character vanishes without a word."""
    category = unicodedata.category(character)
    return character.isspace() or category[0] in "PZ" or category in ("Sm", "Sc", "Sk")


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    at = 0
    for match in [*_TOKENS.finditer(text), None]:
        gap = text[at : match.start() if match else len(text)]
        tokens.extend("".join(c if not _separates(c) else " " for c in gap).split())
        if match:
            tokens.append(match.group())
            at = match.end()
    return tokens


def parse_declared(text: str | Iterable[str | Card]) -> tuple[Declared, ...]:
    """Read cards in CARD-3 notation, each with the card a joker was declared to stand for.

    ``JK=4C``, ``JOKER=10H``, ``*=QS`` and ``🃏=AD`` are jokers standing for 4♣, 10♥, Q♠ and
    A♦ (case-insensitive). Unknown tokens, declared cards that are not cards and declarations
    on natural cards are refused with their position; nothing is read then.
    """
    tokens: list[str | Card] = _tokens(text) if isinstance(text, str) else list(text)
    found: list[Declared] = []
    violations: list[Violation] = []
    for position, token in enumerate(tokens, start=1):
        if isinstance(token, Card):
            found.append((token, None))
            continue
        read = _parse_declared_token(token) if isinstance(token, str) else None
        if read is None:
            violations.append(
                Violation(
                    rule="CARD-3",
                    code="unknown_token",
                    message=f"{str(token)!r} at position {position} is not a card.",
                    params={"token": str(token), "position": position},
                )
            )
        elif read[1] is not None and not read[0].is_joker:
            violations.append(
                Violation(
                    rule="CARD-3",
                    code="declaration_on_natural",
                    message=(
                        f"{token!r} at position {position}: only a joker says what it stands for."
                    ),
                    params={"token": token, "position": position},
                )
            )
        else:
            found.append(read)
    if violations:
        raise RuleViolation(*violations)
    return tuple(found)


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read cards written in CARD-3 notation, refusing unknown tokens with their position.

    Jokers may carry a declaration (JK=4C), which is read and dropped, so the same text
    serves where declarations matter and where they do not.
    """
    return tuple(card for card, _ in parse_declared(text))


def split_declared(
    declared: Iterable[Declared],
) -> tuple[tuple[Card, ...], tuple[Card | None, ...]]:
    """Return the cards and, position by position, their declarations."""
    pairs = tuple(declared)
    return tuple(card for card, _ in pairs), tuple(stands for _, stands in pairs)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """Describe what a game is played with: N standard 52-card decks plus J jokers (CARD-2)."""

    decks: int
    jokers: int
    # The rule a player looks up when a joker is entered at a table without jokers: the
    # game's own (its setup), else the shared rule of what the cards are.
    no_jokers_rule: str = "CARD-1"

    def limit(self, card: Card) -> int:
        """Return how many copies of the card the decks hold."""
        return self.jokers if card.is_joker else self.decks

    @property
    def size(self) -> int:
        """Return how many cards the decks and jokers make (Ramino: 2 decks + 6 = 110)."""
        return len(FULL_DECK) * self.decks + self.jokers

    def cards(self) -> tuple[Card, ...]:
        """Return every card of the decks, copies included, jokers last."""
        return FULL_DECK * self.decks + (JOKER,) * self.jokers


def _too_many(card: Card, count: int, deck: DeckSpec) -> Violation:
    params = {"card": str(card), "count": count, "limit": deck.limit(card)}
    if card.is_joker and deck.jokers == 0:
        # No joker is a typing slip at a table without any: cite the rule that says so.
        return Violation(
            rule=deck.no_jokers_rule,
            code="no_jokers",
            message="This game is played without jokers.",
            params=params,
        )
    return Violation(
        rule="CARD-2",
        code="too_many_copies",
        message=f"{card.label} appears {count} times, but the deck holds {deck.limit(card)} of it.",
        params=params,
    )


def check_copies(cards: Iterable[Card], deck: DeckSpec) -> None:
    """Refuse cards shown more often than the decks hold them (CARD-2)."""
    counts = Counter(cards)
    violations = [
        _too_many(card, count, deck)
        for card, count in sorted(counts.items(), key=lambda item: card_sort_key(item[0]))
        if count > deck.limit(card)
    ]
    if violations:
        raise RuleViolation(*violations)
