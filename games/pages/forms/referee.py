"""The referee page's form: one question about cards, turned into the engine's request."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.forms.tables import MAX_PLAYERS, RAMINO_RULES
from games.shared.models import Variant
from scoring import referee

QUESTIONS = [
    ("meld", _("Is this meld legal?")),
    ("hand", _("Best arrangement and count")),
    ("opening", _("Does this opening reach the minimum?")),
    ("layoff", _("Where can these cards be laid off?")),
    ("rearrangement", _("Is this table rearrangement legal?")),
    ("score", _("What does this hand score?")),
]
VARIANT_LABELS = dict(Variant.choices)
# Boolean house rules, by its option key (docs/rules.md, Table options).
FLAGS = {
    "gin": [
        ("undercut_on_tie", _("A tie after a knock is an undercut")),
    ],
    "rummy40": [
        ("add_to_any_meld", _("Add cards to any player's melds")),
    ],
    # The table form's house rules, less those that change nothing the referee answers.
    "ramino": [
        (key, label) for key, _rule, label in RAMINO_RULES if key not in ("knock_claim", "practice")
    ],
    "knock_rummy": [],
}


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class RefereeForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[("big_gin", _("Big Gin")), ("classic", _("Classic"))],
        initial="big_gin",
        required=False,
        widget=forms.RadioSelect,
    )
    opening_minimum = forms.TypedChoiceField(
        label=_("Opening minimum"),
        choices=[("", "—"), ("0", "0"), ("40", "40"), ("50", "50")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(str(n), str(n)) for n in range(2, MAX_PLAYERS + 1)],
        coerce=int,
        initial="2",
    )
    question = forms.ChoiceField(
        label=_("Question"), choices=QUESTIONS, initial="meld", widget=forms.RadioSelect
    )
    cards = forms.CharField(label=_("Cards"), required=False, max_length=300)
    opened = forms.BooleanField(label=_("Already opened this hand"), required=False)
    melds = forms.CharField(
        label=_("Melds, one per line"), required=False, max_length=2000, widget=forms.Textarea
    )
    before = forms.CharField(
        label=_("Table before, one meld per line"),
        required=False,
        max_length=3000,
        widget=forms.Textarea,
    )
    after = forms.CharField(
        label=_("Table after, one meld per line"),
        required=False,
        max_length=3000,
        widget=forms.Textarea,
    )
    hand = forms.CharField(label=_("Cards in hand"), required=False, max_length=300)
    stock_exhausted = forms.BooleanField(label=_("The stock ran out"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v, VARIANT_LABELS[v]) for v in referee.VARIANTS]
        self.fields["variant"].initial = referee.VARIANTS[0]
        for variant in referee.VARIANTS:
            for key, label in FLAGS[variant]:
                self.fields[f"{variant}__{key}"] = forms.BooleanField(label=label, required=False)
        for i in range(MAX_PLAYERS):
            self.fields[f"p{i}_name"] = forms.CharField(required=False, max_length=40)
            self.fields[f"p{i}_hand"] = forms.CharField(required=False, max_length=300)
            self.fields[f"p{i}_melded"] = forms.CharField(required=False, max_length=300)
            for flag in ("knocked", "went_out", "hand_closed", "opening_penalty"):
                self.fields[f"p{i}_{flag}"] = forms.BooleanField(required=False)

    def flag_fields(self, variant: str):
        return [self[f"{variant}__{key}"] for key, _label in FLAGS[variant]]

    def player_rows(self):
        return [
            {
                "index": i,
                "name": self[f"p{i}_name"],
                "hand": self[f"p{i}_hand"],
                "melded": self[f"p{i}_melded"],
                "flags": [
                    self[f"p{i}_{f}"]
                    for f in ("knocked", "went_out", "hand_closed", "opening_penalty")
                ],
            }
            for i in range(MAX_PLAYERS)
        ]

    # What each question cannot be asked without: an empty question gets a clear "type the
    # cards", not a verdict on nothing.
    NEEDS = {
        "meld": ("cards",),
        "hand": ("cards",),
        "layoff": ("melds", "cards"),
        "opening": ("melds",),
        "rearrangement": ("before", "after"),
    }

    def clean(self):
        data = super().clean()
        for name in self.NEEDS.get(data.get("question"), ()):
            if name not in self.errors and not (data.get(name) or "").strip():
                label = self.fields[name].label
                self.add_error(name, _("Type or tap the cards for “%(field)s”.") % {"field": label})
        return data

    def error_lines(self) -> list[str]:
        """Return each error with the label of the field it is about, for the answer area."""
        lines = []
        for name, errors in self.errors.items():
            label = str(self.fields[name].label) if name in self.fields else ""
            for error in errors:
                lines.append(f"{label}: {error}" if label and label not in error else error)
        return lines

    def request(self) -> tuple[str, dict]:
        """Return the question and the engine request these fields describe."""
        data = self.cleaned_data
        variant, question = data["variant"], data["question"]
        options = {
            key: data[f"{variant}__{key}"]
            for key, _label in FLAGS[variant]
            if data[f"{variant}__{key}"]
        }
        if variant == "gin" and data.get("preset"):
            options["preset"] = data["preset"]
        if variant == "rummy40" and data.get("opening_minimum") is not None:
            options["opening_minimum"] = data["opening_minimum"]
        request = {"variant": variant, "options": options, "players": data["players"]}
        if question == "score":
            request["players"] = [
                {
                    "name": data[f"p{i}_name"] or chr(ord("A") + i),
                    "hand": data[f"p{i}_hand"],
                    "melded": data[f"p{i}_melded"],
                    "knocked": data[f"p{i}_knocked"],
                    "went_out": data[f"p{i}_went_out"],
                    "hand_closed": data[f"p{i}_hand_closed"],
                    "opening_penalty": int(data[f"p{i}_opening_penalty"]),
                }
                for i in range(data["players"])
            ]
            request["stock_exhausted"] = data["stock_exhausted"]
        elif question in ("meld", "hand"):
            request["cards"] = data["cards"]
            request["opened"] = data["opened"]
        elif question == "opening":
            request["melds"] = _lines(data["melds"])
        elif question == "layoff":
            request["melds"] = _lines(data["melds"])
            request["cards"] = data["cards"]
        else:
            request["before"] = _lines(data["before"])
            request["after"] = _lines(data["after"])
            request["hand"] = data["hand"]
        return question, request
