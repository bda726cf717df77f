"""A hand entered one sheet a side (PAIRS_SHEET_ENTRY: Burraco's pairs): for each pair, the
points of the cards it melded, its burracos by kind, whether it took its pozzetto, the
points its partners still hold, and which pair closed (none when the stock ran out).

A few taps a pair: the numbers are what the players count on the table at the hand's end;
the engine checks each against what two decks allow (BUR-SCORE) and scores the sheet.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.entries.base import EntryForm
from scoring.variants import GAMES

# A side's burracos of each kind (the kinds the table plays: semipulito only where chosen).
KINDS = (
    ("pulito", _("Clean burracos")),
    ("sporco", _("Dirty burracos")),
    ("semipulito", _("Semi-clean burracos")),
)
# The most a sheet's numbers may be (every input is bounded before the engine reads it): the
# whole deck's points, and the most burracos two decks make.
MOST_POINTS = 1080
MOST_BURRACOS = 15
NOBODY = ""


class PairsSheetForm(EntryForm):
    template = "entries/pairs_sheet.html"

    closed = forms.ChoiceField(
        label=_("Who closed?"), required=False, widget=forms.RadioSelect, initial=NOBODY
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seats, options, variant = self.seats, self.table_options, self.variant
        self.sides = GAMES[variant].teams(len(seats))
        self.kinds = tuple(
            (key, label) for key, label in KINDS if key != "semipulito" or options.get(key)
        )
        names = [self.side_name(side) for side in range(len(self.sides))]
        self.fields["closed"].choices = [
            (NOBODY, _("Nobody (the stock ran out)")),
            *((str(side), name) for side, name in enumerate(names)),
        ]
        for side in range(len(self.sides)):
            self.fields[f"s{side}_melded"] = forms.IntegerField(
                label=_("Points melded"), min_value=0, max_value=MOST_POINTS, required=False
            )
            for key, label in self.kinds:
                self.fields[f"s{side}_{key}"] = forms.IntegerField(
                    label=label, min_value=0, max_value=MOST_BURRACOS, required=False
                )
            self.fields[f"s{side}_pozzetto"] = forms.BooleanField(
                label=_("Took its pozzetto"), required=False
            )
            self.fields[f"s{side}_in_hand"] = forms.IntegerField(
                label=_("Points left in hand"), min_value=0, max_value=MOST_POINTS, required=False
            )

    def side_name(self, side: int) -> str:
        """Return the side's partners' names, joined as the scoreboard joins them."""
        return " & ".join(self.seats[seat] for seat in self.sides[side])

    def side_rows(self) -> list[dict]:
        return [
            {
                "index": side,
                "name": self.side_name(side),
                "melded": self[f"s{side}_melded"],
                "kinds": [self[f"s{side}_{key}"] for key, _label in self.kinds],
                "pozzetto": self[f"s{side}_pozzetto"],
                "in_hand": self[f"s{side}_in_hand"],
            }
            for side in range(len(self.sides))
        ]

    def clean(self):
        data = super().clean()
        # An empty box is a number not counted yet, not a zero: ask for it by the pair's name.
        for side in range(len(self.sides)):
            for key in ("melded", "in_hand"):
                field = f"s{side}_{key}"
                if field in data and data[field] is None:
                    self.add_error(
                        field,
                        _("Enter %(what)s for %(name)s (0 if none).")
                        % {"what": self.fields[field].label.lower(), "name": self.side_name(side)},
                    )
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        closed = data.get("closed") or NOBODY
        pairs = []
        for side in range(len(self.sides)):
            sheet = {
                "melded": data[f"s{side}_melded"] or 0,
                # A kind the table does not play has no box: the sheet says none of it.
                **{key: data.get(f"s{side}_{key}") or 0 for key, _label in KINDS},
                "closed": closed == str(side),
                "pozzetto": data[f"s{side}_pozzetto"],
                "in_hand": data[f"s{side}_in_hand"] or 0,
            }
            pairs.append(sheet)
        return {"mode": "sheet", "pairs": pairs}

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {"closed": NOBODY}
        for side, sheet in enumerate(payload.get("pairs") or []):
            for key, value in sheet.items():
                if key == "closed":
                    if value:
                        initial["closed"] = str(side)
                else:
                    initial[f"s{side}_{key}"] = value
        return initial


class PairsSheetAmendForm(PairsSheetForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)
