"""Forms of the phone pages; each turns its fields into a service call or an event payload."""

import uuid

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.pages.forms.cards import CardsField
from games.pages.forms.game_options import GameOptionsMixin, SeatField, most_players
from games.rules.game_words import flag_label
from scoring.game import KNOCKER_DEFENDER_ENTRY, SEATS_ENTRY, TABLE_FORM
from scoring.variants import GAMES, gin

SUITS = (("C", "♣"), ("S", "♠"), ("H", "♥"), ("D", "♦"))
GIN_HAND_SIZE = 10  # cards kept after the discard (Big Gin keeps 11: app.js adds it)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_CHOICES = [(f"{r}{s}", f"{r}{sym}") for s, sym in SUITS for r in RANKS]

ENDING_LABELS = {
    "knock": _("Knock"),
    "gin": _("Gin"),
    "big_gin": _("Big Gin"),
    "wall": _("Wall (no score)"),
}


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


class GinHandForm(EventForm):
    template = "tables/_hand_form.html"

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
    knocker_typed = CardsField(label=_("or type them"), required=False, max_length=200)
    defender_cards = forms.MultipleChoiceField(
        label=_("Defender's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    defender_typed = CardsField(label=_("or type them"), required=False, max_length=200)
    # GIN-OKLAHOMA: the card turned up at the deal sets the knock limit (Oklahoma tables only).
    upcard = forms.ChoiceField(
        label=_("Upcard at the deal"), choices=[("", "—"), *CARD_CHOICES], required=False
    )

    def __init__(self, *args, seats: list[str], options: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options = seats, options
        rules = gin.GinOptions.from_dict(options)
        self.oklahoma = rules.oklahoma
        self.fields["knocker"].choices = list(enumerate(seats))
        endings = ["knock", "gin"]
        if rules.big_gin:
            endings.append("big_gin")
        if rules.wall:
            endings.append("wall")
        self.fields["ending"].choices = [(e, ENDING_LABELS[e]) for e in endings]

    @property
    def picker_hands(self) -> list[tuple[str, int, str]]:
        """Return the one card picker's hands: field, cards it holds, and its name."""
        return [
            ("knocker_cards", GIN_HAND_SIZE, _("Knocker")),
            ("defender_cards", GIN_HAND_SIZE, _("Defender")),
        ]

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
        if self.oklahoma and ending != "wall" and not data.get("upcard"):
            self.add_error("upcard", _("Choose the upcard: at Oklahoma it sets the knock."))
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        # Only an Oklahoma table takes the upcard (GIN-OKLAHOMA); a wall may leave it out.
        upcard = {"upcard": data["upcard"]} if self.oklahoma and data.get("upcard") else {}
        if data["mode"] == "quick":
            if data["ending"] == "wall":
                return {"mode": "quick", "ending": "wall", **upcard}
            return {
                "mode": "quick",
                "knocker": data["knocker"],
                "ending": data["ending"],
                "knocker_count": 0 if data["ending"] != "knock" else data["knocker_count"],
                "defender_count": data["defender_count"],
                **upcard,
            }
        payload = {
            "mode": "cards",
            "knocker": data["knocker"],
            "knocker_cards": " ".join([*data["knocker_cards"], data["knocker_typed"]]).strip(),
            "defender_cards": " ".join([*data["defender_cards"], data["defender_typed"]]).strip(),
        }
        if data.get("ending") in ("gin", "big_gin", "knock"):
            payload["ending"] = data["ending"]
        return {**payload, **upcard}

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {"seats": self.seats, "options": self.table_options, "head_seq": head_seq}

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {k: payload[k] for k in ("mode", "knocker", "ending", "upcard") if k in payload}
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


class SeatsHandForm(EventForm):
    """Record a hand seat by seat (a game whose hand entry is SEATS_ENTRY): every seat's
    cards or points, and the flags its game takes (GameRules.seat_flags). A seat out of the
    match (``out``, the state's match) sits the hand out: the form says so and asks nothing."""

    template = "tables/_seats_form.html"
    mode = forms.ChoiceField(
        label=_("Entry"),
        choices=[("cards", _("Cards")), ("points", _("Points in hand"))],
        initial="cards",
        required=False,
        widget=forms.RadioSelect,
    )
    stock_exhausted = forms.BooleanField(label=_("The stock ran out"), required=False)

    def __init__(self, *args, seats: list[str], options: dict, variant: str, out=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options, self.variant = seats, options, variant
        self.out = tuple(seat for seat in out if 0 <= seat < len(seats))
        game = GAMES[variant]
        self.flags = tuple(
            flag for flag in game.seat_flags if not flag.from_match and flag.asked(options)
        )
        self.match_flags = tuple(flag for flag in game.seat_flags if flag.from_match)
        # Casino scoring pays the winner for what they melded (RAM-OPT-CASINO).
        switch = game.melded_points_option
        self.takes_melded_points = bool(switch and options.get(switch))
        for i in range(len(seats)):
            self.fields[f"p{i}_hand"] = CardsField(
                label=_("Cards still in hand"), required=False, max_length=300
            )
            self.fields[f"p{i}_melded"] = CardsField(
                label=_("Cards melded this hand"), required=False, max_length=300
            )
            # The fast way at a noisy table: each hand's value instead of its cards.
            self.fields[f"p{i}_points"] = forms.IntegerField(
                label=_("Points in hand"), min_value=0, max_value=500, required=False
            )
            if self.takes_melded_points:
                self.fields[f"p{i}_melded_points"] = forms.IntegerField(
                    label=_("Points melded this hand"), min_value=0, max_value=500, required=False
                )
            for flag in self.flags:
                label = flag_label(flag)
                if flag.most:
                    field = forms.IntegerField(
                        label=label, min_value=0, max_value=flag.most, required=False
                    )
                else:
                    field = forms.BooleanField(label=label, required=False)
                self.fields[f"p{i}_{flag.key}"] = field

    def seat_rows(self) -> list[dict]:
        rows = []
        for i, name in enumerate(self.seats):
            if i in self.out:
                # Nothing to ask of a seat out of the match: the match says it sits out.
                # Each flag the match sets goes with the entry too (a hidden field the form
                # does not read: it knows the seats out), for the phone's provisional totals.
                sits = [
                    (flag_label(flag), flag.rule, f"p{i}_{flag.key}") for flag in self.match_flags
                ]
                rows.append({"index": i, "name": name, "out": sits})
                continue
            rows.append(
                {
                    "index": i,
                    "name": name,
                    "out": [],
                    "hand": self[f"p{i}_hand"],
                    "melded": self[f"p{i}_melded"],
                    "points": self[f"p{i}_points"],
                    "melded_points": (
                        self[f"p{i}_melded_points"] if self.takes_melded_points else None
                    ),
                    "flags": [(self[f"p{i}_{flag.key}"], flag.rule) for flag in self.flags],
                }
            )
        return rows

    def clean(self):
        data = super().clean()
        if data.get("mode") == "points":
            # An empty box is a number not typed yet, not "holds nothing": only the player who
            # went out may leave it empty (the engine reads that as 0).
            for i, name in enumerate(self.seats):
                field = f"p{i}_points"
                if i in self.out or data.get(f"p{i}_went_out"):
                    continue
                if field in data and data[field] is None:
                    self.add_error(
                        field,
                        _("Enter the points %(name)s holds (0 only for who went out).")
                        % {"name": name},
                    )
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        mode = data.get("mode") or "cards"
        by_points = mode == "points"
        players = []
        for i in range(len(self.seats)):
            if i in self.out:
                blank = {"points": 0} if by_points else {"hand": "", "melded": ""}
                players.append({**blank, **{flag.key: True for flag in self.match_flags}})
                continue
            if by_points:
                seat = {"points": data[f"p{i}_points"] or 0}
                if self.takes_melded_points and data[f"p{i}_melded_points"]:
                    seat["melded_points"] = data[f"p{i}_melded_points"]
            else:
                seat = {"hand": data[f"p{i}_hand"].strip(), "melded": data[f"p{i}_melded"].strip()}
            for flag in self.flags:
                seat[flag.key] = data[f"p{i}_{flag.key}"] or (0 if flag.most else False)
            players.append(seat)
        return {
            "mode": mode,
            "players": players,
            "stock_exhausted": data["stock_exhausted"],
        }

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {
            "seats": self.seats,
            "options": self.table_options,
            "variant": self.variant,
            "out": self.out,
            "head_seq": head_seq,
        }

    @staticmethod
    def sat_out(variant: str, payload: dict) -> tuple[int, ...]:
        """Return the seats a recorded hand says sat out (the flags its game's match sets)."""
        keys = [flag.key for flag in GAMES[variant].seat_flags if flag.from_match]
        players = payload.get("players") or []
        return tuple(
            seat for seat, player in enumerate(players) if any(player.get(key) for key in keys)
        )

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {
            "mode": payload.get("mode", "cards"),
            "stock_exhausted": payload.get("stock_exhausted", False),
        }
        for i, seat in enumerate(payload.get("players", [])):
            for key, value in seat.items():
                initial[f"p{i}_{key}"] = " ".join(value) if isinstance(value, list) else value
        return initial


class SeatsAmendForm(SeatsHandForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)


# Each way a game's hand is entered by its result (GameRules.hand_entry), and its correction.
HAND_FORMS = {
    KNOCKER_DEFENDER_ENTRY: (GinHandForm, GinAmendForm),
    SEATS_ENTRY: (SeatsHandForm, SeatsAmendForm),
}


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
