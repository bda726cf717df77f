"""The form a phone records a hand's moves with, one move per tap of a button.

Every move button posts the same form; the button's value names the move, and the form turns
the fields that move uses into the event payload of scoring/play/. A move's cards come from
wherever the phone put them: the card picker (``picked``, one checkbox a card, which posts
without JavaScript), the Card field or the Cards box. The form refuses, in the players' words,
a move that lacks what it needs (no card tapped, two cards for a discard, no meld chosen,
a typed card that is no card); the engine checks the rest (cards, turn, rules) and names the
rule when it refuses.
"""

from collections import Counter

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.pages.forms.cards import CardChoiceField, CardsChoiceField, CardsField
from games.pages.forms.game_options import SeatField
from games.pages.forms.tables import CARD_CHOICES, EventForm
from games.rules.card_text import cards_label
from games.rules.reference import refusal_html
from games.rules.text import violation_text
from games.shared.errors import EventRejected
from games.tables.board import PlayBoard
from scoring.cards import parse_declared
from scoring.errors import RuleViolation
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
# What a player calls each move that takes cards, as its button says it.
MOVE_NAMES = {
    "discard": _("Discard"),
    "meld": _("Lay melds"),
    "add": _("Add to the meld"),
    "swap": _("Swap the meld's joker"),
    "rearrange": _("Rearrange the table"),
    "claim": _("Knock for the discard"),
}
MAX_CARDS_TEXT = 600
JOKER_CHOICE = ("JK", "🃏")
PICK_CHOICES = [*CARD_CHOICES, JOKER_CHOICE]
MOST_PICKED = 60  # every card of a deck and the jokers: more is no tap of the picker


def _canonical(declared) -> str:
    """Return one read card as the log writes it: 7S, JK, or JK=4C."""
    card, stands = declared
    return str(card) if stands is None else f"{card}={stands}"


class MoveForm(EventForm):
    """One move of the hand in play (or the deal that starts it).

    ``play`` is the hand as the phone was shown it: whose turn, the melds on the table. The
    form reads it to say what a move lacks in the players' words (the meld numbers there
    are, the mover's name); the engine judges the move against the head itself.
    """

    move = forms.ChoiceField(choices=[(key, key) for key in MOVES])
    seat = SeatField(required=False)
    claimer = SeatField(label=_("Who knocks for the discard"), required=False)
    dealer = SeatField(label=_("Dealer"), required=False)
    upcard = CardsField(label=_("Face-up card"), required=False, max_length=20)
    picked = CardsChoiceField(label=_("Cards tapped"), required=False, choices=PICK_CHOICES)
    drawn = CardChoiceField(
        label=_("The card drawn"), required=False, choices=[("", "—"), *PICK_CHOICES]
    )
    card = CardsField(label=_("Card"), required=False, max_length=20)
    cards = CardsField(
        label=_("Cards"), required=False, max_length=MAX_CARDS_TEXT, widget=forms.Textarea
    )
    meld = forms.IntegerField(label=_("Meld"), required=False, min_value=1, max_value=999)
    mode = forms.ChoiceField(
        label=_("Hands shown by"),
        choices=[("cards", _("Cards")), ("points", _("Points"))],
        required=False,
    )
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)

    def __init__(self, *args, seats: int = 2, play: PlayBoard | None = None, **kwargs):
        # Its own ids: the table page draws it beside the hand form, which has the same keys.
        kwargs.setdefault("auto_id", "id_move_%s")
        super().__init__(*args, **kwargs)
        self.seat_count = seats
        self.play = play
        self._event: tuple[str, dict] | None = None
        for seat in range(seats):
            self.fields[f"show_{seat}"] = CardsField(
                required=False, max_length=MAX_CARDS_TEXT, widget=forms.Textarea
            )
            self.fields[f"points_{seat}"] = forms.IntegerField(
                required=False, min_value=0, max_value=500
            )

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {"head_seq": head_seq, "seats": self.seat_count, "play": self.play}

    def clean(self):
        data = super().clean()
        if not self.errors:
            self._event = self._build()
        return data

    def event(self) -> tuple[str, dict]:
        """Return the event type and payload of the move the button asked for."""
        assert self._event is not None, "event() is read from a valid form"
        return self._event

    def add_refusal(self, exc: EventRejected) -> None:
        """Show the engine's refusal of the move: its sentences, with the rule's link where
        a rule of the game was broken (a malformed entry cites none a player could read)."""
        for violation in exc.violations:
            text = violation_text(violation)
            if violation.rule == "EVENT":
                self.add_error(None, text)
            else:
                self.add_error(None, refusal_html(text, violation.rule))

    # The payload ------------------------------------------------------------------------

    def _build(self) -> tuple[str, dict]:
        data = self.cleaned_data
        move = data["move"]
        event_type, fixed = MOVES[move]
        payload = dict(fixed)
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
        payload["seat"] = data["claimer"] if event_type == DISCARD_CLAIMED else data["seat"]
        if move in ("draw_stock", "draw_discard"):
            # A stock card is named only when someone saw it; the pile's is its top card,
            # which a card named must be (the engine checks both).
            seen = [data["drawn"]] if data["drawn"] else self._typed("card")
            if len(seen) > 1:
                raise ValidationError(
                    _("A draw takes one card, and %(cards)s are given in “Card”."),
                    params={"cards": cards_label(seen)},
                )
            if seen:
                payload["card"] = seen[0]
        elif move == "claim":
            seen = self._one_card(move, required=False)
            if seen:
                payload["card"] = seen
        elif move in ("discard", "swap"):
            payload["card"] = self._one_card(move)
        elif move == "add":
            payload["cards"] = " ".join(self._some_cards(move))
        elif move in ("meld", "rearrange"):
            payload["melds"] = self._melds(move)
        elif move == "knock" and self._knock_shows_cards():
            payload.update(self._knock())
        if move in ("add", "swap"):
            payload["meld"] = self._meld_number(move)
        return event_type, payload

    def _knock_shows_cards(self) -> bool:
        if self.play is not None:
            return self.play.knock_shows_cards
        # Drawn without the hand (an old page): a knock with cards is one that shows them.
        data = self.cleaned_data
        return bool(data["cards"].strip() or data["picked"] or data["card"].strip())

    def _typed(self, name: str) -> list[str]:
        """Return the cards typed in a field, as the log writes them; refuse, naming the
        field, a token that is no card."""
        text = self.cleaned_data[name].strip()
        if not text:
            return []
        try:
            read = [_canonical(d) for d in parse_declared(text)]
        except RuleViolation as exc:
            label = self.fields[name].label
            raise ValidationError(
                [refusal_html(f"{label}: {violation_text(v)}", v.rule) for v in exc.violations]
            ) from None
        return read

    def _picked(self) -> list[str]:
        picked = list(self.cleaned_data["picked"])
        if len(picked) > MOST_PICKED:
            raise ValidationError(_("Too many cards are tapped: tap again the ones to drop."))
        return picked

    def _sources(self) -> list[tuple[str, list[str]]]:
        """Return where this move's cards were put, each place with the cards it holds."""
        places = [
            (_("the grid"), self._picked()),
            (_("“Card”"), self._typed("card")),
            (_("“Cards”"), self._typed("cards")),
        ]
        return [(name, found) for name, found in places if found]

    def _agreed(self, move: str) -> list[str]:
        """Return the cards given for ``move``; refuse two places that disagree."""
        sources = self._sources()
        if not sources:
            return []
        first_place, first = sources[0]
        for place, found in sources[1:]:
            if Counter(found) != Counter(first):
                raise ValidationError(
                    _(
                        "%(move)s: %(first_place)s has %(first)s but %(place)s has %(found)s. "
                        "Keep the cards in one place."
                    ),
                    params={
                        "move": MOVE_NAMES[move],
                        "first_place": first_place,
                        "first": cards_label(first),
                        "place": place,
                        "found": cards_label(found),
                    },
                )
        return first

    def _one_card(self, move: str, *, required: bool = True) -> str | None:
        cards = self._agreed(move)
        if not cards:
            if not required:
                return None
            if move == "swap":
                raise ValidationError(
                    _(
                        "Swap the meld's joker needs the card the joker stands for: tap it "
                        "in the grid."
                    )
                )
            raise ValidationError(
                _("%(move)s needs a card: tap it in the grid."),
                params={"move": MOVE_NAMES[move]},
            )
        if len(cards) > 1:
            raise ValidationError(
                _("%(move)s takes one card, and %(cards)s are given: tap the others again."),
                params={"move": MOVE_NAMES[move], "cards": cards_label(cards)},
            )
        return cards[0]

    def _some_cards(self, move: str) -> list[str]:
        cards = self._agreed(move)
        if not cards:
            raise ValidationError(
                _("%(move)s needs a card: tap it in the grid."),
                params={"move": MOVE_NAMES[move]},
            )
        return cards

    def _melds(self, move: str) -> list[str]:
        """Return the melds to lay: the Cards box's lines (one meld each, as the picker's
        "this meld is done" writes them), then the cards tapped in the grid, as one more."""
        text = self.cleaned_data["cards"]
        self._typed("cards")  # a token that is no card is refused, naming the box
        melds = [line.strip() for line in text.splitlines() if line.strip()]
        picked = self._picked()
        if picked:
            melds.append(" ".join(picked))
        if not melds:
            raise ValidationError(
                _("%(move)s needs the cards of a meld: tap them in the grid."),
                params={"move": MOVE_NAMES[move]},
            )
        return melds

    def _knock(self) -> dict:
        """Return a knock that shows the cards kept (GIN-KNOCK): the kept cards from the
        Cards box, else the grid; the discard from "Card", else the one card tapped beside
        kept cards typed in the box (none: Big Gin)."""
        kept_typed, picked = self._typed("cards"), self._picked()
        discard = self._typed("card")
        kept = kept_typed or picked
        if not discard and kept_typed and len(picked) == 1:
            discard = picked
        if not kept:
            raise ValidationError(
                _("Knock needs the cards kept: tap them in the grid, the discard aside.")
            )
        if len(discard) > 1:
            raise ValidationError(
                _("%(move)s takes one card, and %(cards)s are given: tap the others again."),
                params={"move": _("The knock's discard"), "cards": cards_label(discard)},
            )
        knock = {"hand": " ".join(kept)}
        if discard:
            knock["card"] = discard[0]
        return knock

    def _meld_number(self, move: str) -> int:
        number = self.cleaned_data["meld"]
        if number is None:
            raise ValidationError(
                _("%(move)s needs a meld: tap it on the table, or choose it under “Meld”."),
                params={"move": MOVE_NAMES[move]},
            )
        if self.play is not None and number > len(self.play.table):
            raise ValidationError(
                _("There is no meld #%(number)s on the table: tap one of those there."),
                params={"number": number},
            )
        return number

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
