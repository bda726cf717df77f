"""Forms of the phone pages; each turns its fields into a service call or an event payload."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.reference import refusal_html
from games.rules.text import GIN_PRESET_LABELS
from games.shared.models import Variant
from scoring.variants import gin, knock_rummy

SUITS = (("C", "♣"), ("S", "♠"), ("H", "♥"), ("D", "♦"))
GIN_HAND_SIZE = 10  # cards kept after the discard (Big Gin keeps 11: app.js adds it)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_CHOICES = [(f"{r}{s}", f"{r}{sym}") for s, sym in SUITS for r in RANKS]

PRESET_CHOICES = list(GIN_PRESET_LABELS.items())
TARGET_CHOICES = [
    ("1", _("Single hand")),
    ("50", "50"),
    ("100", "100"),
    ("125", "125"),
    ("150", "150"),
    ("200", "200"),
    ("250", "250"),
    ("500", "500"),
]
# A Gin option the chosen preset sets unless the table says otherwise: "" keeps the preset's.
AS_PRESET = [("", _("As the rules chosen")), ("on", _("Yes")), ("off", _("No"))]
# Gin's bonuses a table may set (docs/rules.md): field name, label, rule, most.
GIN_BONUSES = [
    ("gin_bonus", _("Gin bonus"), "GIN-GIN", 100),
    ("undercut_bonus", _("Undercut bonus"), "GIN-UNDERCUT", 100),
    ("big_gin_bonus", _("Big Gin bonus"), "GIN-BIGGIN", 100),
    ("box_bonus", _("Box bonus, for each hand won"), "GIN-BOX", 100),
    ("game_bonus", _("Game bonus"), "GIN-GAME", 500),
]
# Gin's switches, each "as the preset", on or off: field name, label, rule.
GIN_SWITCHES = [
    ("undercut_on_tie", _("A tie after a knock is an undercut"), "GIN-UNDERCUT"),
    ("big_gin", _("Big Gin: all 11 cards melded, no discard"), "GIN-BIGGIN"),
    ("shutout", _("Shutout: a loser who scored nothing doubles the winner's"), "GIN-SHUTOUT"),
    ("oklahoma", _("Oklahoma: the upcard sets the most a knock may keep"), "GIN-OKLAHOMA"),
    ("spade_double", _("Oklahoma: a spade upcard doubles the hand"), "GIN-SPADES"),
    ("hollywood", _("Hollywood: three games on one sheet"), "GIN-HOLLYWOOD"),
]
SWITCH_VALUES = {"on": True, "off": False}
ENDING_LABELS = {
    "knock": _("Knock"),
    "gin": _("Gin"),
    "big_gin": _("Big Gin"),
    "wall": _("Wall (no score)"),
}


MAX_PLAYERS = 6
R40_OPENING_CHOICES = [("0", _("None")), ("40", "40"), ("50", "50")]
R40_TARGET_CHOICES = [("1", _("Single hand")), ("100", "100"), ("200", "200"), ("500", "500")]
# Ramino house rules (option keys of docs/rules.md), each shown with its rule ID of docs/rules.md.
RAMINO_RULES = [
    ("short_deck", "RAM-OPT-SHORT", _("Short deck: one deck and 3 jokers")),
    ("scala40", "RAM-OPT-SCALA40", _("Opening minimum 40 instead of 30")),
    ("no_opening", "RAM-OPT-NOOPEN", _("No opening minimum")),
    ("circular_runs", "RAM-OPT-CIRCULAR", _("Circular runs (K-A-2)")),
    ("no_jokers", "RAM-OPT-NOJOKER", _("No jokers")),
    ("fixed_jokers", "RAM-OPT-FIXEDJOKER", _("Fixed jokers")),
    ("fixed_groups", "RAM-OPT-FIXEDGROUPS", _("Fixed groups (suits in order)")),
    ("knock_claim", "RAM-OPT-KNOCKCLAIM", _("Knock to claim the last discard (3+ players)")),
    ("no_discard_win", "RAM-OPT-NODISCARDWIN", _("Go out without a final discard")),
    ("casino_scoring", "RAM-OPT-CASINO", _("Casino scoring")),
    ("practice", "RAM-OPT-PRACTICE", _("Practice table: not counted in standings")),
]


class TableCreateForm(forms.Form):
    """One form for every game; each game's fields are shown only when it is chosen (CSS).

    Field names of the Gin options stay unprefixed (preset, target, ...); the other games'
    options carry a prefix, so one form can hold them all and post them all.
    """

    variant = forms.ChoiceField(
        label=_("Game"), choices=Variant.choices, initial=Variant.GIN, widget=forms.RadioSelect
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(str(n), str(n)) for n in range(2, MAX_PLAYERS + 1)],
        coerce=int,
        initial="2",
        required=False,
        empty_value=2,
    )
    preset = forms.ChoiceField(
        label=_("Rules"), choices=PRESET_CHOICES, initial="big_gin", widget=forms.RadioSelect
    )
    target = forms.TypedChoiceField(
        label=_("Play to"), choices=TARGET_CHOICES, coerce=int, initial="100"
    )
    player_1 = forms.CharField(label=_("Player 1"), max_length=40)
    player_2 = forms.CharField(label=_("Player 2"), max_length=40)
    player_3 = forms.CharField(label=_("Player 3"), max_length=40, required=False)
    player_4 = forms.CharField(label=_("Player 4"), max_length=40, required=False)
    player_5 = forms.CharField(label=_("Player 5"), max_length=40, required=False)
    player_6 = forms.CharField(label=_("Player 6"), max_length=40, required=False)
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
    r40_opening_minimum = forms.TypedChoiceField(
        label=_("Opening minimum"), choices=R40_OPENING_CHOICES, coerce=int, initial="40"
    )
    r40_target = forms.TypedChoiceField(
        label=_("Limit"), choices=R40_TARGET_CHOICES, coerce=int, initial="100"
    )
    ram_hands = forms.IntegerField(label=_("Hands"), min_value=1, max_value=20, initial=5)
    kr_target = forms.IntegerField(
        label=_("Game ends at"), min_value=1, max_value=knock_rummy.MAX_TARGET, initial=150
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, _rule, label in RAMINO_RULES:
            self.fields[f"ram_{key}"] = forms.BooleanField(label=label, required=False)
        for key, label, _rule, most in GIN_BONUSES:
            self.fields[key] = forms.IntegerField(
                label=label, min_value=0, max_value=most, required=False
            )
        for key, label, _rule in GIN_SWITCHES:
            self.fields[key] = forms.ChoiceField(label=label, choices=AS_PRESET, required=False)
        if self.is_bound:
            # Only the chosen game's options must be filled in; the others are not sent on.
            variant = self.data.get("variant", Variant.GIN)
            required = {
                Variant.GIN: ("preset", "target"),
                Variant.RUMMY40: ("r40_opening_minimum", "r40_target"),
                Variant.RAMINO: ("ram_hands",),
                Variant.KNOCK_RUMMY: ("kr_target",),
            }
            for names in required.values():
                for name in names:
                    self.fields[name].required = name in required.get(variant, ())

    def player_fields(self):
        return [self[f"player_{n}"] for n in range(1, MAX_PLAYERS + 1)]

    def ramino_rules(self):
        return [(self[f"ram_{key}"], rule) for key, rule, _label in RAMINO_RULES]

    def gin_bonuses(self):
        """Gin's bonus fields, each with its rule: left empty, the preset's value stands."""
        return [(self[key], rule) for key, _label, rule, _most in GIN_BONUSES]

    def gin_switches(self):
        """Gin's switches, each with its rule: "as the rules chosen", on or off."""
        return [(self[key], rule) for key, _label, rule in GIN_SWITCHES]

    def gin_overrides(self) -> dict:
        """Return the Gin options the table sets itself; the others are the preset's."""
        data = self.cleaned_data
        overrides = {key: data[key] for key, _l, _r, _m in GIN_BONUSES if data.get(key) is not None}
        overrides.update(
            {key: SWITCH_VALUES[data[key]] for key, _l, _r in GIN_SWITCHES if data.get(key)}
        )
        return overrides

    def clean(self):
        data = super().clean()
        count = 2 if data.get("variant") == Variant.GIN else data.get("players") or 2
        for n in range(3, count + 1):
            if not data.get(f"player_{n}"):
                self.add_error(f"player_{n}", _("Enter a name for every player."))
        self.clean_gin_target(data)
        return data

    def clean_gin_target(self, data: dict) -> None:
        """Refuse a Gin match length its preset does not play, by the field (GIN-MATCH)."""
        if data.get("variant") == Variant.GIN and data.get("preset") and data.get("target"):
            # Each preset has its own match lengths (GIN-MATCH): refuse here, by the field.
            allowed = gin.TARGETS[data["preset"]]
            if data["target"] not in allowed:
                if 1 in allowed:
                    message = _("%(preset)s plays to %(targets)s, or a single hand.")
                else:
                    message = _("%(preset)s plays to %(targets)s.")
                message %= {
                    "preset": dict(PRESET_CHOICES)[data["preset"]],
                    "targets": ", ".join(str(t) for t in allowed if t != 1),
                }
                self.add_error("target", refusal_html(message, "GIN-MATCH"))

    def target_choices(self):
        """The "Play to" choices, each with the presets that allow it (the page hides the
        others for the preset chosen)."""
        presets = gin.TARGETS.items()
        return [
            (value, label, " ".join(p for p, targets in presets if int(value) in targets))
            for value, label in TARGET_CHOICES
        ]

    def player_names(self) -> list[str]:
        data = self.cleaned_data
        count = 2 if data["variant"] == Variant.GIN else data["players"]
        return [data[f"player_{n}"] for n in range(1, count + 1)]

    def options(self) -> dict:
        data = self.cleaned_data
        variant = data["variant"]
        if variant == Variant.RUMMY40:
            return {"opening_minimum": data["r40_opening_minimum"], "target": data["r40_target"]}
        if variant == Variant.RAMINO:
            # Only the rules switched on: no_opening left out follows short_deck (RAM-OPT-SHORT).
            flags = {key: True for key, _rule, _label in RAMINO_RULES if data[f"ram_{key}"]}
            return {"hands": data["ram_hands"], **flags}
        if variant == Variant.KNOCK_RUMMY:
            return {"target": data["kr_target"]}
        return {
            "preset": data["preset"],
            "target": data["target"],
            "no_rediscard": data["no_rediscard"],
            "wall": data["wall"],
            **self.gin_overrides(),
        }


def options_initial(variant: str, options: dict) -> dict:
    """Return the new-table form's initial values for a game and its options: the inverse
    of ``TableCreateForm.options``, so a group's next table offers what it played last."""
    initial: dict = {"variant": variant}
    if variant == Variant.RUMMY40:
        keys = {"r40_opening_minimum": "opening_minimum", "r40_target": "target"}
    elif variant == Variant.RAMINO:
        keys = {"ram_hands": "hands"}
        initial.update({f"ram_{key}": True for key, _r, _l in RAMINO_RULES if options.get(key)})
    elif variant == Variant.KNOCK_RUMMY:
        keys = {"kr_target": "target"}
    else:
        keys = {name: name for name in ("preset", "target", "no_rediscard", "wall")}
        keys.update({key: key for key, _l, _r, _m in GIN_BONUSES})
        initial.update(
            {
                key: "on" if options[key] else "off"
                for key, _l, _r in GIN_SWITCHES
                if isinstance(options.get(key), bool)
            }
        )
    initial.update({field: options[key] for field, key in keys.items() if key in options})
    return initial


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
    knocker_typed = forms.CharField(label=_("or type them"), required=False, max_length=200)
    defender_cards = forms.MultipleChoiceField(
        label=_("Defender's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    defender_typed = forms.CharField(label=_("or type them"), required=False, max_length=200)
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


# What each game's end of hand says of a seat besides its cards (scoring/scoresheet.py).
SEAT_FLAGS = {
    Variant.RUMMY40: ("went_out", "opening_penalty"),
    Variant.RAMINO: ("went_out", "hand_closed"),
    Variant.KNOCK_RUMMY: ("knocked", "went_out"),
}
FLAG_LABELS = {
    "knocked": _("knocked"),
    "went_out": _("went out"),
    "hand_closed": _("closed in one turn"),
    "opening_penalty": _("failed openings"),
}
FLAG_RULES = {
    "knocked": "KR-KNOCK",
    "hand_closed": "RAM-HANDCLOSE",
    "opening_penalty": "R40-OPEN-PENALTY",
}


class SeatsHandForm(EventForm):
    """Record a hand of Rummy40, Ramino or Knock Rummy: every seat's cards and flags."""

    template = "tables/_seats_form.html"
    mode = forms.ChoiceField(
        label=_("Entry"),
        choices=[("cards", _("Cards")), ("points", _("Points in hand"))],
        initial="cards",
        required=False,
        widget=forms.RadioSelect,
    )
    stock_exhausted = forms.BooleanField(label=_("The stock ran out"), required=False)

    def __init__(self, *args, seats: list[str], options: dict, variant: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options, self.variant = seats, options, variant
        self.flags = SEAT_FLAGS[variant]
        # Casino scoring pays the winner for what they melded (RAM-OPT-CASINO).
        self.takes_melded_points = variant == Variant.RAMINO and options.get("casino_scoring")
        for i in range(len(seats)):
            self.fields[f"p{i}_hand"] = forms.CharField(
                label=_("Cards still in hand"), required=False, max_length=300
            )
            self.fields[f"p{i}_melded"] = forms.CharField(
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
                if flag == "opening_penalty":
                    field = forms.IntegerField(
                        label=FLAG_LABELS[flag], min_value=0, max_value=20, required=False
                    )
                else:
                    field = forms.BooleanField(label=FLAG_LABELS[flag], required=False)
                self.fields[f"p{i}_{flag}"] = field

    def seat_rows(self) -> list[dict]:
        return [
            {
                "index": i,
                "name": name,
                "hand": self[f"p{i}_hand"],
                "melded": self[f"p{i}_melded"],
                "points": self[f"p{i}_points"],
                "melded_points": self[f"p{i}_melded_points"] if self.takes_melded_points else None,
                "flags": [(self[f"p{i}_{f}"], FLAG_RULES.get(f, "")) for f in self.flags],
            }
            for i, name in enumerate(self.seats)
        ]

    def clean(self):
        data = super().clean()
        if data.get("mode") == "points":
            # An empty box is a number not typed yet, not "holds nothing": only the player who
            # went out may leave it empty (the engine reads that as 0).
            for i, name in enumerate(self.seats):
                field = f"p{i}_points"
                if field in data and data[field] is None and not data.get(f"p{i}_went_out"):
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
            if by_points:
                seat = {"points": data[f"p{i}_points"] or 0}
                if self.takes_melded_points and data[f"p{i}_melded_points"]:
                    seat["melded_points"] = data[f"p{i}_melded_points"]
            else:
                seat = {"hand": data[f"p{i}_hand"].strip(), "melded": data[f"p{i}_melded"].strip()}
            for flag in self.flags:
                seat[flag] = data[f"p{i}_{flag}"] or (0 if flag == "opening_penalty" else False)
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
            "head_seq": head_seq,
        }

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


MAX_SEATS = 6  # the most any game seats (Ramino)


class ConfirmForm(EventForm):
    """A player agreeing with the finished match's result, on a phone at the table."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_SEATS - 1, widget=forms.HiddenInput)
