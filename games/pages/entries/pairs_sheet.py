"""A hand entered one sheet a side (PAIRS_SHEET_ENTRY, partners scoring as one): for each
side, the boxes its game declares (``GameRules.side_sheet``: points, counts, check boxes,
each with its label, bounds and rule), and which side went out (none when the hand ended
otherwise).

A few taps a side: the numbers are what the players count on the table at the hand's end;
the game's engine checks each against what its deck allows and scores the sheet. Nothing
here names a game: the boxes are the game's declaration.
"""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.pages.entries.base import EntryForm
from scoring.game import SHEET_COUNT, SHEET_FLAG, SHEET_POINTS, SheetField
from scoring.variants import GAMES

NOBODY = ""


def sheet_box(spec: SheetField) -> forms.Field:
    """Return the form field of one declared box, bounded as the game declares it."""
    label = gettext_lazy(spec.label)  # marked in the game's words module
    if spec.kind == SHEET_FLAG:
        return forms.BooleanField(label=label, required=False)
    return forms.IntegerField(label=label, min_value=0, max_value=spec.high, required=False)


class PairsSheetForm(EntryForm):
    template = "entries/pairs_sheet.html"

    went_out = forms.ChoiceField(required=False, widget=forms.RadioSelect, initial=NOBODY)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game = GAMES[self.variant]
        self.sheet = game.side_sheet
        self.sides = game.teams(len(self.seats))
        self.boxes = self.sheet.asked(self.table_options)
        # The choice's name in the post is the game's own (Burraco's "closed").
        out = self.fields.pop("went_out")
        out.label = gettext_lazy(self.sheet.out_label)
        out.choices = [
            (NOBODY, gettext_lazy(self.sheet.nobody_label)),
            *((str(side), self.side_name(side)) for side in range(len(self.sides))),
        ]
        self.fields[self.sheet.out_key] = out
        for side in range(len(self.sides)):
            for spec in self.boxes:
                self.fields[f"s{side}_{spec.key}"] = sheet_box(spec)
            if self.initial.pop(f"s{side}_{self.sheet.out_key}", False):
                self.initial[self.sheet.out_key] = str(side)

    @property
    def out_field(self):
        return self[self.sheet.out_key]

    def side_name(self, side: int) -> str:
        """Return the side's partners' names, joined as the scoreboard joins them."""
        return " & ".join(self.seats[seat] for seat in self.sides[side])

    def side_rows(self) -> list[dict]:
        """Return each side's boxes for the template: its numbers of points apart."""
        rows = []
        for side in range(len(self.sides)):
            boxes = [(spec, self[f"s{side}_{spec.key}"]) for spec in self.boxes]
            rows.append(
                {
                    "index": side,
                    "name": self.side_name(side),
                    "points": [(s, box) for s, box in boxes if s.kind == SHEET_POINTS],
                    "counts": [(s, box) for s, box in boxes if s.kind == SHEET_COUNT],
                    "flags": [(s, box) for s, box in boxes if s.kind == SHEET_FLAG],
                }
            )
        return rows

    def clean(self):
        data = super().clean()
        # An empty box is a number not counted yet, not a zero: ask for it by the side's name.
        for side in range(len(self.sides)):
            for spec in self.boxes:
                field = f"s{side}_{spec.key}"
                if spec.required and field in data and data[field] is None:
                    self.add_error(
                        field,
                        gettext("Enter %(what)s for %(name)s (0 if none).")
                        % {
                            "what": str(self.fields[field].label).lower(),
                            "name": self.side_name(side),
                        },
                    )
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        out = data.get(self.sheet.out_key) or NOBODY
        pairs = []
        for side in range(len(self.sides)):
            # A box the table does not play is not shown: the sheet says none of it.
            sheet = {
                spec.key: (
                    bool(data.get(f"s{side}_{spec.key}"))
                    if spec.kind == SHEET_FLAG
                    else data.get(f"s{side}_{spec.key}") or 0
                )
                for spec in self.sheet.fields
            }
            sheet[self.sheet.out_key] = out == str(side)
            pairs.append(sheet)
        return {"mode": "sheet", "pairs": pairs}

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment); the side that
        went out, which only the game's declaration names, is read back on drawing."""
        initial: dict = {}
        for side, sheet in enumerate(payload.get("pairs") or []):
            for key, value in sheet.items():
                initial[f"s{side}_{key}"] = value
        return initial


class PairsSheetAmendForm(PairsSheetForm):
    reason = forms.CharField(label=gettext_lazy("Why?"), required=False, max_length=200)
