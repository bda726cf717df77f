"""Forms of the phone pages; each turns its fields into a service call or an event payload."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Variant

SUITS = (("C", "♣"), ("S", "♠"), ("H", "♥"), ("D", "♦"))
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_CHOICES = [(f"{r}{s}", f"{r}{sym}") for s, sym in SUITS for r in RANKS]

PRESET_CHOICES = [("big_gin", _("Big Gin")), ("classic", _("Classic"))]
TARGET_CHOICES = [
    ("1", _("Single hand")),
    ("50", "50"),
    ("100", "100"),
    ("200", "200"),
    ("500", "500"),
]
ENDING_LABELS = {
    "knock": _("Knock"),
    "gin": _("Gin"),
    "big_gin": _("Big Gin"),
    "wall": _("Wall (no score)"),
}


class TableCreateForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Game"), choices=Variant.choices, initial=Variant.GIN, widget=forms.HiddenInput
    )
    preset = forms.ChoiceField(
        label=_("Rules"), choices=PRESET_CHOICES, initial="big_gin", widget=forms.RadioSelect
    )
    target = forms.TypedChoiceField(
        label=_("Play to"), choices=TARGET_CHOICES, coerce=int, initial="100"
    )
    player_1 = forms.CharField(label=_("Player 1"), max_length=40)
    player_2 = forms.CharField(label=_("Player 2"), max_length=40)
    undercut_on_tie = forms.BooleanField(
        label=_("A tie after a knock is an undercut"), required=False
    )
    no_rediscard = forms.BooleanField(
        label=_("A card taken from the discard pile may not be discarded at once"),
        required=False,
        initial=True,
    )
    wall = forms.BooleanField(
        label=_("The hand is void when only 2 cards remain in the stock"),
        required=False,
        initial=True,
    )

    def players(self) -> list[str]:
        return [self.cleaned_data["player_1"], self.cleaned_data["player_2"]]

    def options(self) -> dict:
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "target": data["target"],
            "undercut_on_tie": data["undercut_on_tie"],
            "no_rediscard": data["no_rediscard"],
            "wall": data["wall"],
        }


class EventForm(forms.Form):
    """Carries the idempotency key and the head the phone saw when the form was drawn."""

    event_id = forms.UUIDField(widget=forms.HiddenInput)
    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args, head_seq: int = 0, **kwargs):
        initial = {"event_id": uuid.uuid4(), "expected_seq": head_seq, **kwargs.pop("initial", {})}
        super().__init__(*args, initial=initial, **kwargs)

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {"head_seq": head_seq}


class GinHandForm(EventForm):
    mode = forms.ChoiceField(
        label=_("Entry"),
        choices=[("quick", _("Counts")), ("cards", _("Cards"))],
        initial="quick",
        widget=forms.RadioSelect,
    )
    knocker = forms.TypedChoiceField(
        label=_("Who ended the hand?"), coerce=int, required=False, widget=forms.RadioSelect
    )
    ending = forms.ChoiceField(label=_("How?"), required=False, widget=forms.RadioSelect)
    knocker_count = forms.IntegerField(
        label=_("Knocker's deadwood"), min_value=0, max_value=98, required=False
    )
    defender_count = forms.IntegerField(
        label=_("Defender's deadwood, after lay-offs"), min_value=0, max_value=98, required=False
    )
    knocker_cards = forms.MultipleChoiceField(
        label=_("Knocker's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    knocker_typed = forms.CharField(label=_("or type them"), required=False, max_length=200)
    defender_cards = forms.MultipleChoiceField(
        label=_("Defender's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    defender_typed = forms.CharField(label=_("or type them"), required=False, max_length=200)

    def __init__(self, *args, seats: list[str], options: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options = seats, options
        self.fields["knocker"].choices = list(enumerate(seats))
        endings = ["knock", "gin"]
        if options.get("preset") == "big_gin":
            endings.append("big_gin")
        if options.get("wall"):
            endings.append("wall")
        self.fields["ending"].choices = [(e, ENDING_LABELS[e]) for e in endings]

    def clean(self):
        data = super().clean()
        ending = data.get("ending")
        if data.get("mode") == "quick":
            if not ending:
                self.add_error("ending", _("Choose how the hand ended."))
            if ending != "wall" and data.get("knocker") is None:
                self.add_error("knocker", _("Choose who ended the hand."))
            if ending == "knock":
                for name in ("knocker_count", "defender_count"):
                    if data.get(name) is None:
                        self.add_error(name, _("Enter the count."))
            if ending in ("gin", "big_gin") and data.get("defender_count") is None:
                self.add_error("defender_count", _("Enter the count."))
        elif data.get("knocker") is None:
            self.add_error("knocker", _("Choose who ended the hand."))
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        if data["mode"] == "quick":
            if data["ending"] == "wall":
                return {"mode": "quick", "ending": "wall"}
            return {
                "mode": "quick",
                "knocker": data["knocker"],
                "ending": data["ending"],
                "knocker_count": 0 if data["ending"] != "knock" else data["knocker_count"],
                "defender_count": data["defender_count"],
            }
        payload = {
            "mode": "cards",
            "knocker": data["knocker"],
            "knocker_cards": " ".join([*data["knocker_cards"], data["knocker_typed"]]).strip(),
            "defender_cards": " ".join([*data["defender_cards"], data["defender_typed"]]).strip(),
        }
        if data.get("ending") in ("gin", "big_gin", "knock"):
            payload["ending"] = data["ending"]
        return payload

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {"seats": self.seats, "options": self.table_options, "head_seq": head_seq}

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {k: payload[k] for k in ("mode", "knocker", "ending") if k in payload}
        if payload.get("mode") == "cards":
            initial["knocker_typed"] = payload.get("knocker_cards", "")
            initial["defender_typed"] = payload.get("defender_cards", "")
        else:
            for name in ("knocker_count", "defender_count"):
                if name in payload:
                    initial[name] = payload[name]
        return initial


class GinAmendForm(GinHandForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)


class VoidForm(EventForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)
