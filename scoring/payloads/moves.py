"""The payloads of a hand played move by move (scoring/play/__init__.py shows each one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, Declared
from scoring.payloads.fields import (
    Pending,
    cards_field,
    check_fields,
    field_choice,
    field_int,
    field_seat,
    field_str,
    meld_list,
    one_card,
    payload_error,
    pending,
)

STOCK_SOURCE = "stock"
DISCARD_SOURCE = "discard"
MAX_REASON = 200
SHOW_MODES = ("cards", "points")
# A hand shown by its value: this bounds typos.
MAX_SHOWN_POINTS = 500


@dataclass(frozen=True, slots=True)
class HandContext:
    """Hold what a move's reader needs of the hand in play, and no more."""

    seats: int
    discard_pile: bool = True
    knock_showing: bool = False  # Gin's knock shows the cards kept and names the discard
    show_by_points: bool = True
    to_show: tuple[bool, ...] = ()  # per seat: whose cards hands_shown must still give


def _seat(payload: Mapping[str, Any], hand: HandContext) -> int:
    return field_seat(payload, "seat", seats=hand.seats)


@dataclass(frozen=True, slots=True)
class HandStarted:
    """Hold a deal: the dealer if named, and the upcard that starts the discard pile."""

    dealer: int | None
    upcard: Card | None

    @classmethod
    def read(cls, payload: Mapping[str, Any], *, seats: int, discard_pile: bool) -> HandStarted:
        """Read a hand_started payload at a table of ``seats`` seats."""
        check_fields(payload, ("dealer", "upcard") if discard_pile else ("dealer",))
        dealer = field_seat(payload, "dealer", seats=seats) if "dealer" in payload else None
        upcard = one_card(payload, "upcard") if discard_pile else None
        return cls(dealer=dealer, upcard=upcard)


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Hold a draw: who, from the stock or the discard pile, and the card if named."""

    seat: int
    source: str
    card: Card | None

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> CardDrawn:
        """Read a card_drawn payload; without a discard pile only the stock is a source."""
        check_fields(payload, ("seat", "source", "card"))
        seat = _seat(payload, hand)
        sources = (STOCK_SOURCE, DISCARD_SOURCE) if hand.discard_pile else (STOCK_SOURCE,)
        source = field_choice(payload, "source", sources)
        card = one_card(payload, "card") if "card" in payload else None
        return cls(seat=seat, source=source, card=card)


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """Hold a discard: who, and the card."""

    seat: int
    card: Card

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> CardDiscarded:
        """Read a card_discarded payload."""
        check_fields(payload, ("seat", "card"))
        seat = _seat(payload, hand)
        return cls(seat=seat, card=one_card(payload, "card"))


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """Hold a pass: the seat that passes."""

    seat: int

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> TurnPassed:
        """Read a turn_passed payload."""
        check_fields(payload, ("seat",))
        return cls(seat=_seat(payload, hand))


@dataclass(frozen=True, slots=True)
class MeldsLaid:
    """Hold new melds: who, and each meld's cards with what its jokers stand for."""

    seat: int
    melds: tuple[tuple[Declared, ...], ...]

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> MeldsLaid:
        """Read a melds_laid payload."""
        check_fields(payload, ("seat", "melds"))
        seat = _seat(payload, hand)
        return cls(seat=seat, melds=meld_list(payload, "melds"))


@dataclass(frozen=True, slots=True)
class CardsAdded:
    """Hold cards added to a table meld: who, which meld, and the cards.

    ``meld`` is kept as sent: it must number a meld on the table, which only the hand knows.
    """

    seat: int
    meld: object
    cards: tuple[Card, ...]

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> CardsAdded:
        """Read a cards_added payload: one card or more."""
        check_fields(payload, ("seat", "meld", "cards"))
        seat = _seat(payload, hand)
        cards = cards_field(payload, "cards")
        if not cards:
            raise payload_error("cards", "one card or more", "bad_cards")
        return cls(seat=seat, meld=payload.get("meld"), cards=cards)


@dataclass(frozen=True, slots=True)
class JokerSwapped:
    """Hold a joker swap: who, which meld (kept as sent, as in CardsAdded), the card put in."""

    seat: int
    meld: object
    card: Card

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> JokerSwapped:
        """Read a joker_swapped payload."""
        check_fields(payload, ("seat", "meld", "card"))
        seat = _seat(payload, hand)
        return cls(seat=seat, meld=payload.get("meld"), card=one_card(payload, "card"))


@dataclass(frozen=True, slots=True)
class TableRearranged:
    """Hold a Knock Rummy melding move: who, and every meld on the table after it."""

    seat: int
    melds: tuple[tuple[Declared, ...], ...]

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> TableRearranged:
        """Read a table_rearranged payload."""
        check_fields(payload, ("seat", "melds"))
        seat = _seat(payload, hand)
        return cls(seat=seat, melds=meld_list(payload, "melds"))


@dataclass(frozen=True, slots=True)
class DiscardClaimed:
    """Hold a knock claim: who, and the stock card that comes with the discard if named."""

    seat: int
    card: Card | None

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> DiscardClaimed:
        """Read a discard_claimed payload."""
        check_fields(payload, ("seat", "card"))
        seat = _seat(payload, hand)
        card = one_card(payload, "card") if "card" in payload else None
        return cls(seat=seat, card=card)


@dataclass(frozen=True, slots=True)
class Knocked:
    """Hold a knock: who; at Gin also the cards kept, shown, and the discard (none for Big
    Gin), whose refusal waits for the turn checks that come first."""

    seat: int
    kept: tuple[Card, ...] = ()
    discard: Pending[Card] | None = None

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> Knocked:
        """Read a knocked payload: the seat alone unless the knock shows the hand."""
        if not hand.knock_showing:
            check_fields(payload, ("seat",))
            return cls(seat=_seat(payload, hand))
        check_fields(payload, ("seat", "card", "hand"))
        seat = _seat(payload, hand)
        kept = cards_field(payload, "hand")
        discard = pending(lambda: one_card(payload, "card")) if "card" in payload else None
        return cls(seat=seat, kept=kept, discard=discard)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """Hold one seat's hand shown at the end: its cards, or its value (``points``)."""

    cards: tuple[Card, ...] = ()
    points: int | None = None


def _shown(entry: object, seat: int, mode: str, must_show: bool) -> ShownHand | None:
    """Read one seat's entry of hands_shown; None for a seat the log already shows."""
    name = f"players[{seat}]"
    if entry is None:
        if must_show:
            raise payload_error(name, "the cards this player holds", "missing_hand")
        return None
    if not isinstance(entry, Mapping):
        raise payload_error(name, "an object", "bad_players")
    if not must_show:
        raise payload_error(name, "null: the log already shows this hand", "known_hand")
    if mode == "points":
        check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.points",))
        # The refusal names the field "points", as it always has.
        points = field_int({"points": entry.get("points")}, "points", low=0, high=MAX_SHOWN_POINTS)
        return ShownHand(points=points)
    check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.hand",))
    return ShownHand(cards=cards_field({f"{name}.hand": entry.get("hand")}, f"{name}.hand"))


@dataclass(frozen=True, slots=True)
class HandsShown:
    """Hold the hands left at the end, seat by seat; a seat's refusal waits for the hand's
    checks of the seats before it."""

    mode: str
    players: tuple[Pending[ShownHand], ...]

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext) -> HandsShown:
        """Read a hands_shown payload; ``hand.to_show`` says whose cards it must give."""
        check_fields(payload, ("mode", "players"))
        mode = field_choice(payload, "mode", SHOW_MODES if hand.show_by_points else ("cards",))
        raw = payload.get("players")
        if not isinstance(raw, list) or len(raw) != hand.seats:
            raise payload_error(
                "players", f"a list of {hand.seats} entries, one per seat", "bad_players"
            )
        players = tuple(
            pending(lambda seat=seat, entry=entry: _shown(entry, seat, mode, hand.to_show[seat]))
            for seat, entry in enumerate(raw)
        )
        return cls(mode=mode, players=players)


@dataclass(frozen=True, slots=True)
class MoveUndone:
    """Hold the taking back of the hand's last move, and why."""

    reason: str

    @classmethod
    def read(cls, payload: Mapping[str, Any], hand: HandContext | None = None) -> MoveUndone:
        """Read a move_undone payload: only a reason."""
        check_fields(payload, ("reason",))
        return cls(reason=field_str(payload, "reason", max_length=MAX_REASON))
