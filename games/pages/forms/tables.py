"""Forms of the phone pages; each turns its fields into a service call or an event payload."""

import uuid

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.pages.forms.game_options import GameOptionsMixin, SeatField, most_players
from scoring.game import TABLE_FORM

SUITS = (("C", "♣"), ("S", "♠"), ("H", "♥"), ("D", "♦"))
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_CHOICES = [(f"{r}{s}", f"{r}{sym}") for s, sym in SUITS for r in RANKS]


class TableCreateForm(GameOptionsMixin, forms.Form):
    """One form for every game: the players, and each game's options (GameRules.options),
    only the chosen game's shown (games.css) and read."""

    form_kind = TABLE_FORM

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=lambda: [(str(n), str(n)) for n in range(2, most_players() + 1)],
        coerce=int,
        initial="2",
        required=False,
        empty_value=2,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_game_fields()
        for n in range(1, most_players() + 1):
            self.fields[f"player_{n}"] = forms.CharField(
                label=gettext("Player %(n)s") % {"n": n}, max_length=40, required=n <= 2
            )
        self.order_fields(["variant"])

    def player_fields(self):
        return [self[f"player_{n}"] for n in range(1, most_players() + 1)]

    def clean(self):
        data = super().clean()
        for n in range(3, self.seat_count(data) + 1):
            if not data.get(f"player_{n}"):
                self.add_error(f"player_{n}", _("Enter a name for every player."))
        self.clean_seat_count(data)
        self.clean_narrowed_choices(data)
        return data

    def player_names(self) -> list[str]:
        data = self.cleaned_data
        return [data[f"player_{n}"] for n in range(1, self.seat_count(data) + 1)]


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


class VoidForm(EventForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)


class PhoneNameForm(forms.Form):
    """The name a phone signs its entries with ("Anna's phone", "Table 3")."""

    name = forms.CharField(label=_("This phone's name"), max_length=40, strip=True)

    def clean_name(self):
        name = self.cleaned_data["name"]
        if any(ord(character) < 32 or 0x7F <= ord(character) < 0xA0 for character in name):
            raise forms.ValidationError(_("Use letters, digits and spaces only."))
        return name


class ConfirmForm(EventForm):
    """A player agreeing with the finished match's result, on a phone at the table."""

    seat = SeatField(widget=forms.HiddenInput)
