"""The form a phone records a hand's moves with, one move per tap of a button.

Every move button posts the same form; the button's value names the move, and the form turns
the fields that move uses into the event payload of scoring/play/. The engine checks the
rest (cards, turn, rules) and names the rule when it refuses.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.forms.tables import MAX_PLAYERS, EventForm
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

# Button value -> (event type, fixed payload fields).
MOVES: dict[str, tuple[str, dict]] = {
    "deal": (HAND_STARTED, {}),
    "draw_stock": (CARD_DRAWN, {"source": "stock"}),
    "draw_discard": (CARD_DRAWN, {"source": "discard"}),
    "discard": (CARD_DISCARDED, {}),
    "pass": (TURN_PASSED, {}),
    "meld": (MELDS_LAID, {}),
    "add": (CARDS_ADDED, {}),
    "swap": (JOKER_SWAPPED, {}),
    "rearrange": (TABLE_REARRANGED, {}),
    "claim": (DISCARD_CLAIMED, {}),
    "knock": (KNOCKED, {}),
    "show": (HANDS_SHOWN, {}),
    "undo": (MOVE_UNDONE, {}),
}
MAX_CARDS_TEXT = 600


class MoveForm(EventForm):
    """One move of the hand in play (or the deal that starts it)."""

    move = forms.ChoiceField(choices=[(key, key) for key in MOVES])
    seat = forms.IntegerField(required=False, min_value=0, max_value=MAX_PLAYERS - 1)
    claimer = forms.IntegerField(
        label=_("Who knocks for the discard"),
        required=False,
        min_value=0,
        max_value=MAX_PLAYERS - 1,
    )
    dealer = forms.IntegerField(
        label=_("Dealer"), required=False, min_value=0, max_value=MAX_PLAYERS - 1
    )
    upcard = forms.CharField(label=_("Face-up card"), required=False, max_length=20)
    card = forms.CharField(label=_("Card"), required=False, max_length=20)
    cards = forms.CharField(
        label=_("Cards"), required=False, max_length=MAX_CARDS_TEXT, widget=forms.Textarea
    )
    meld = forms.IntegerField(label=_("Meld"), required=False, min_value=1)
    mode = forms.ChoiceField(
        label=_("Hands shown by"),
        choices=[("cards", _("Cards")), ("points", _("Points"))],
        required=False,
    )
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)

    def __init__(self, *args, seats: int = 2, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat_count = seats
        for seat in range(seats):
            self.fields[f"show_{seat}"] = forms.CharField(
                required=False, max_length=MAX_CARDS_TEXT, widget=forms.Textarea
            )
            self.fields[f"points_{seat}"] = forms.IntegerField(
                required=False, min_value=0, max_value=500
            )

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {"head_seq": head_seq, "seats": self.seat_count}

    def event(self) -> tuple[str, dict]:
        """Return the event type and payload of the move the button asked for."""
        data = self.cleaned_data
        event_type, fixed = MOVES[data["move"]]
        payload = dict(fixed)
        seat = data["seat"]
        card, cards = data["card"].strip(), data["cards"].strip()
        if event_type == HAND_STARTED:
            if data["dealer"] is not None:
                payload["dealer"] = data["dealer"]
            if data["upcard"].strip():
                payload["upcard"] = data["upcard"].strip()
            return event_type, payload
        if event_type == MOVE_UNDONE:
            return event_type, {"reason": data["reason"]}
        if event_type == HANDS_SHOWN:
            return event_type, self._shown()
        payload["seat"] = data["claimer"] if event_type == DISCARD_CLAIMED else seat
        # A drawn or claimed stock card is named only when someone saw it.
        needs_card = event_type in (CARD_DISCARDED, JOKER_SWAPPED)
        if needs_card or (card and event_type in (CARD_DRAWN, DISCARD_CLAIMED)):
            payload["card"] = card
        if event_type in (CARDS_ADDED, JOKER_SWAPPED):
            payload["meld"] = data["meld"]
        if event_type == CARDS_ADDED:
            payload["cards"] = cards
        if event_type in (MELDS_LAID, TABLE_REARRANGED):
            # One meld per line (the picker's ↵ starts the next one).
            payload["melds"] = [line.strip() for line in cards.splitlines() if line.strip()]
        if event_type == KNOCKED and (card or cards):
            # Gin: the discard and the cards kept, shown; Knock Rummy knocks with no cards.
            if card:
                payload["card"] = card
            payload["hand"] = cards
        return event_type, payload

    def _shown(self) -> dict:
        data = self.cleaned_data
        mode = data["mode"] or "cards"
        players = []
        for seat in range(self.seat_count):
            text, points = data[f"show_{seat}"].strip(), data[f"points_{seat}"]
            if mode == "points":
                players.append(None if points is None else {"points": points})
            else:
                players.append({"hand": text} if text else None)
        return {"mode": mode, "players": players}
