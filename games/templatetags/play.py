"""Template helpers for a hand played move by move: each move said in one line, the melds on
the table as players read them, and the cards of the move picker."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from games.pages.forms.tables import RANKS, SUITS
from games.rules.card_text import card_label
from games.templatetags.rummy import cards
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HAND_STARTED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    TABLE_REARRANGED,
    TURN_PASSED,
)

register = template.Library()


def _cards(text) -> str:
    return cards(str(text or "").split())


@register.simple_tag
def move_line(event, seats) -> str:
    """Say what one move of the hand did, with its cards shown as cards."""
    payload = event.payload
    seat = payload.get("seat")
    who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""
    kind = event.type
    if kind == HAND_STARTED:
        dealer = payload.get("dealer")
        text = _("Dealt")
        if isinstance(dealer, int) and 0 <= dealer < len(seats):
            text = _("%(who)s dealt") % {"who": seats[dealer]}
        if payload.get("upcard"):
            return format_html("{} · {}", text, _cards(payload["upcard"]))
        return text
    if kind == CARD_DRAWN:
        if payload.get("source") == "discard":
            return _("%(who)s took the discard") % {"who": who}
        if payload.get("card"):
            return format_html("{} {}", _("%(who)s drew") % {"who": who}, _cards(payload["card"]))
        return _("%(who)s drew from the stock") % {"who": who}
    if kind == CARD_DISCARDED:
        return format_html("{} {}", _("%(who)s discarded") % {"who": who}, _cards(payload["card"]))
    if kind == TURN_PASSED:
        return _("%(who)s passed") % {"who": who}
    if kind in (MELDS_LAID, TABLE_REARRANGED):
        label = _("%(who)s laid") if kind == MELDS_LAID else _("%(who)s rearranged the table")
        melds = format_html_join(
            "", '<span class="meld">{}</span>', ((_cards(m),) for m in payload["melds"])
        )
        return format_html("{} {}", label % {"who": who}, melds)
    if kind == CARDS_ADDED:
        return format_html(
            "{} {}",
            _("%(who)s added to meld %(meld)s") % {"who": who, "meld": payload["meld"]},
            _cards(payload["cards"]),
        )
    if kind == JOKER_SWAPPED:
        return format_html(
            "{} {}",
            _("%(who)s swapped the joker of meld %(meld)s for")
            % {"who": who, "meld": payload["meld"]},
            _cards(payload["card"]),
        )
    if kind == DISCARD_CLAIMED:
        return _("%(who)s knocked for the discard") % {"who": who}
    if kind == KNOCKED:
        return _("%(who)s knocked") % {"who": who}
    if kind == HANDS_SHOWN:
        return _("Hands shown")
    if kind == MOVE_UNDONE:
        return _("Last move taken back")
    return kind


@register.filter
def make_list_of_one(card: str) -> list[str]:
    """Wrap one card so the cards tag can show it."""
    return [card] if card else []


@register.filter
def split_cards(meld: str) -> list[str]:
    """Split a meld written in notation ('QH KH JK=AH') into its cards."""
    return str(meld).split()


def _meld_card(token: str) -> str:
    """Show one card of a meld: 4♣, a joker with what it stands for as 🃏(4♠)."""
    joker, equals, stands = token.partition("=")
    if equals and joker.upper() == "JK":
        return f"🃏({card_label(stands)})"
    return card_label(token)


def _suit_class(token: str) -> str:
    return "jk" if token.upper().startswith("JK") else f"s{token[-1:].upper()}"


@register.filter
def meld_text(meld: str) -> str:
    """Say a meld written in notation as players read it: 4C JK=4S 4D as 4♣ 🃏(4♠) 4♦."""
    return " ".join(_meld_card(token) for token in str(meld).split())


@register.simple_tag
def meld_cards(meld: str) -> str:
    """Show a meld's cards as small face-up cards, a joker with the card it stands for."""
    return format_html_join(
        "",
        '<span class="c {}">{}</span>',
        ((_suit_class(token), _meld_card(token)) for token in str(meld).split()),
    )


@register.filter
def card_face(card: str) -> str:
    """Show one card in notation as its face: 7S as 7♠, JK as 🃏."""
    return card_label(card)


@register.filter
def suit_class(card: str) -> str:
    """Return the class that colours a card by its suit (sH, sS, ... or jk)."""
    return _suit_class(card)


@register.simple_tag
def pick_grid(jokers: bool, picked=()) -> list[dict[str, object]]:
    """Return the move picker's cards, a suit at a time (A to 7, then 8 to K, so a suit is
    two rows of seven), the joker last where the game has jokers, each marked if picked."""
    chosen = set(picked or ())
    grid = [
        {
            "code": f"{rank}{suit}",
            "face": f"{rank}{symbol}",
            "suit": f"s{suit}",
            "first": n in (0, 7),
            "picked": f"{rank}{suit}" in chosen,
        }
        for suit, symbol in SUITS
        for n, rank in enumerate(RANKS)
    ]
    if jokers:
        grid.append(
            {"code": "JK", "face": "🃏", "suit": "jk", "first": False, "picked": "JK" in chosen}
        )
    return grid
