"""The referee page's form: one question about cards, turned into the engine's request."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.forms.cards import CardsField
from games.pages.forms.game_options import GameOptionsMixin, most_players
from games.rules.game_words import flag_label
from scoring.game import NAMES_UPCARD, REFEREE_FORM, SeatFlag
from scoring.variants import GAMES

QUESTIONS = [
    ("meld", _("Is this meld legal?")),
    ("hand", _("Best arrangement and count")),
    ("opening", _("Does this opening reach the minimum?")),
    ("layoff", _("Where can these cards be laid off?")),
    ("rearrangement", _("Is this table rearrangement legal?")),
    ("score", _("What does this hand score?")),
]


def _seat_flags() -> dict[str, tuple[SeatFlag, tuple[str, ...]]]:
    """Return every seat flag some game takes, with the games that take it, in order."""
    flags: dict[str, tuple[SeatFlag, tuple[str, ...]]] = {}
    for game in GAMES.values():
        # A flag with a meaning only over a match (a declined re-entry) is not one hand's.
        for flag in (flag for flag in game.seat_flags if not flag.when_option):
            first, games = flags.get(flag.key, (flag, ()))
            flags[flag.key] = (first, (*games, game.key))
    return flags


MAX_TOTAL = 1_000_000


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class RefereeForm(GameOptionsMixin, forms.Form):
    """One question about cards, for any game: its options are those that change an answer
    (OptionSpec.forms holding REFEREE_FORM), its seats' flags those its game takes. The page
    asks a score of a game entered one sheet a side with its sides' sheets added
    (games/pages/entries/referee_sheet.py)."""

    form_kind = REFEREE_FORM

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=lambda: [(str(n), str(n)) for n in range(2, most_players() + 1)],
        coerce=int,
        initial="2",
    )
    question = forms.ChoiceField(
        label=_("Question"), choices=QUESTIONS, initial="meld", widget=forms.RadioSelect
    )
    cards = CardsField(label=_("Cards"), required=False, max_length=300)
    opened = forms.BooleanField(label=_("Already opened this hand"), required=False)
    melds = CardsField(
        label=_("Melds, one per line"), required=False, max_length=2000, widget=forms.Textarea
    )
    before = CardsField(
        label=_("Table before, one meld per line"),
        required=False,
        max_length=3000,
        widget=forms.Textarea,
    )
    after = CardsField(
        label=_("Table after, one meld per line"),
        required=False,
        max_length=3000,
        widget=forms.Textarea,
    )
    hand = CardsField(label=_("Cards in hand"), required=False, max_length=300)
    stock_exhausted = forms.BooleanField(label=_("The stock ran out"), required=False)
    upcard = CardsField(label=_("Upcard at the deal"), required=False, max_length=20)
    # The side's total before the hand, for a game whose opening minimum turns on it
    # (RefereeRules.opening_total_rule); bounded as the engine bounds it.
    total = forms.IntegerField(
        label=_("The side's score before the hand"),
        required=False,
        min_value=-MAX_TOTAL,
        max_value=MAX_TOTAL,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_game_fields()
        self.order_fields(["variant"])
        for name, field in self.fields.items():
            if "__" in name:
                field.required = False  # the referee asks under the game's defaults
        for i in range(most_players()):
            self.fields[f"p{i}_name"] = forms.CharField(required=False, max_length=40)
            self.fields[f"p{i}_hand"] = CardsField(required=False, max_length=300)
            self.fields[f"p{i}_melded"] = CardsField(required=False, max_length=300)
            for flag, _games in _seat_flags().values():
                self.fields[f"p{i}_{flag.key}"] = (
                    forms.IntegerField(min_value=0, max_value=flag.most, required=False)
                    if flag.most
                    else forms.BooleanField(required=False)
                )

    # The registry is read when a form is shown, never at import: a game registered late (the
    # tests' stub game) is offered like the others.

    @property
    def table_melds(self) -> str:
        """Return the games whose players lay melds during a hand: a score names each
        player's melds, and a hand may be asked about once its player has opened."""
        return " ".join(key for key, game in GAMES.items() if game.table_melds)

    @property
    def upcard_games(self) -> str:
        """Return the games whose hands may name the card turned up at the deal (Gin's
        Oklahoma)."""
        return " ".join(key for key, game in GAMES.items() if game.switch_meaning(NAMES_UPCARD))

    @property
    def upcard_rules(self) -> tuple[str, ...]:
        """Return the rules that say what the card turned up at the deal does."""
        specs = (game.switch_meaning(NAMES_UPCARD) for game in GAMES.values())
        return tuple(dict.fromkeys(spec.rule for spec in specs if spec))

    @property
    def total_games(self) -> str:
        """Return the games whose opening question asks the side's score before the hand."""
        return " ".join(key for key, game in GAMES.items() if game.referee.opening_total_rule)

    def _asks_total(self, data: dict) -> bool:
        game = GAMES.get(data.get("variant") or "")
        return (
            data.get("question") == "opening"
            and game is not None
            and game.referee.opening_total_rule is not None
        )

    def player_rows(self):
        return [
            {
                "index": i,
                "name": self[f"p{i}_name"],
                "hand": self[f"p{i}_hand"],
                "melded": self[f"p{i}_melded"],
                "flags": [
                    (self[f"p{i}_{flag.key}"], flag_label(flag), " ".join(games))
                    for flag, games in _seat_flags().values()
                ],
            }
            for i in range(most_players())
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

    # Fields whose errors are said beside them too (the id their input names is there).
    ERRORS_BESIDE = ("total",)

    def clean(self):
        data = super().clean()
        for name in self.NEEDS.get(data.get("question"), ()):
            if name not in self.errors and not (data.get(name) or "").strip():
                label = self.fields[name].label
                self.add_error(name, _("Type or tap the cards for “%(field)s”.") % {"field": label})
        if self._asks_total(data) and "total" not in self.errors and data.get("total") is None:
            self.add_error(
                "total",
                _("Give the side's score before the hand: it sets the first meld's minimum."),
            )
        return data

    def said_by_field(self) -> dict[str, str]:
        """Return the fields whose errors are said next to them too, each with the name of
        what it belongs to (none here; a sheet's boxes in referee_sheet.py)."""
        return {}

    def error_lines(self) -> list[tuple[str, str]]:
        """Return each field's errors with the label of the field they are about, for the
        answer area, and the id that field's aria-describedby names ("" for the form's own
        errors): the answer area is where a field's errors are said."""
        lines = []
        sides = self.said_by_field()
        for name, errors in self.errors.items():
            field = self[name] if name in self.fields else None
            label = str(field.label or "") if field is not None else ""
            said = " ".join(
                f"{label}: {error}" if label and label not in error else error for error in errors
            )
            if name in sides:
                # Said next to its box too (that one holds the id): here, which pair's it is.
                lines.append(("", said if sides[name] in said else f"{sides[name]}: {said}"))
                continue
            # The side's score has its error beside it, under the id its input names.
            beside = field is None or name in self.ERRORS_BESIDE
            lines.append(("" if beside else f"{field.auto_id}_error", said))
        return lines

    def request(self) -> tuple[str, dict]:
        """Return the question and the engine request these fields describe."""
        data = self.cleaned_data
        game, question = self.chosen_game(), data["question"]
        request = {"variant": game.key, "options": self.options(), "players": data["players"]}
        if question == "score":
            request["players"] = [
                {
                    "name": data[f"p{i}_name"] or chr(ord("A") + i),
                    "hand": data[f"p{i}_hand"],
                    "melded": data[f"p{i}_melded"] if game.table_melds else "",
                    **{
                        flag.key: data[f"p{i}_{flag.key}"] or (0 if flag.most else False)
                        for flag in game.seat_flags
                        if not flag.when_option
                    },
                }
                for i in range(data["players"])
            ]
            request["stock_exhausted"] = data["stock_exhausted"]
            if game.takes_upcard(request["options"]) and data["upcard"].strip():
                request["upcard"] = data["upcard"]
        elif question in ("meld", "hand"):
            request["cards"] = data["cards"]
            request["opened"] = data["opened"]
        elif question == "opening":
            request["melds"] = _lines(data["melds"])
            if self._asks_total(data):
                request["total"] = data["total"]
        elif question == "layoff":
            request["melds"] = _lines(data["melds"])
            request["cards"] = data["cards"]
        else:
            request["before"] = _lines(data["before"])
            request["after"] = _lines(data["after"])
            request["hand"] = data["hand"]
        return question, request
