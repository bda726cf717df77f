"""Template helpers for a hand played move by move: each move said in one line."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

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
        melds = format_html(
            "".join('<span class="meld">{}</span>' for _m in payload["melds"]),
            *(_cards(m) for m in payload["melds"]),
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
