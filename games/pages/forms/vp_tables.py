"""A director's own VP table as rows of a form: each band from a difference to another, the
winner's and the loser's VP (victory_points.VPBand), the refusal beside the row at fault.

Blank rows are room to add a band and are skipped; the rows read, in order, are the
table's bands, checked by ``victory_points.validate`` like any other table.
"""

from django import forms
from django.forms import formset_factory
from django.utils.translation import gettext_lazy as _

from scoring.tournaments.victory_points import (
    MAX_BANDS,
    MAX_DIFFERENCE,
    TOTAL_VP,
    VPBand,
    VPTable,
    VPTableError,
    validate,
)

PREFIX = "band"
# Blank rows under a table's bands, to add one without a script.
EXTRA_ROWS = 2
# The field of a row that a band's fault (victory_points.BAND_FAULTS) is said beside.
FAULT_FIELDS = {
    "not_twenty": "loser",
    "winner_range": "winner",
    "first_not_zero": "low",
    "first_not_level": "winner",
    "gap": "low",
    "overlap": "low",
    "not_rising": "winner",
    "reversed": "high",
    "last_closed": "high",
    "open_inside": "high",
}
FIELDS = ("low", "high", "winner", "loser")


class VPBandForm(forms.Form):
    """One row: a band of differences and its VP; all four blank, no band."""

    low = forms.IntegerField(label=_("From"), min_value=0, max_value=MAX_DIFFERENCE, required=False)
    high = forms.IntegerField(label=_("To"), min_value=0, max_value=MAX_DIFFERENCE, required=False)
    winner = forms.IntegerField(
        label=_("VP to the winner"), min_value=0, max_value=TOTAL_VP, required=False
    )
    loser = forms.IntegerField(
        label=_("VP to the loser"), min_value=0, max_value=TOTAL_VP, required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        index = (self.prefix or "").rsplit("-", 1)[-1]
        number = int(index) + 1 if index.isdigit() else 1
        self.number = number
        for field in self.fields.values():
            field.widget.attrs.update(
                {
                    "inputmode": "numeric",
                    "aria-label": _("Band %(number)s: %(field)s")
                    % {"number": number, "field": field.label},
                }
            )

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return all(data.get(name) is None for name in FIELDS) and not self.errors

    def clean(self):
        data = super().clean()
        if all(data.get(name) is None for name in FIELDS):
            return data
        for name in ("low", "winner", "loser"):
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, _("Fill this in, or empty the whole row."))
        return data

    def band(self) -> VPBand:
        data = self.cleaned_data
        return VPBand(
            low=data["low"], high=data["high"], winner=data["winner"], loser=data["loser"]
        )


VPBandFormSet = formset_factory(
    VPBandForm,
    extra=EXTRA_ROWS,
    max_num=MAX_BANDS,
    absolute_max=MAX_BANDS + EXTRA_ROWS,
    validate_max=True,
)


def band_rows(data, table: VPTable):
    """Return the rows of ``table``'s bands (and blank ones to add more); bound to ``data``
    when it holds the rows (a form sent back), else showing the table."""
    initial = [
        {"low": band.low, "high": band.high, "winner": band.winner, "loser": band.loser}
        for band in table.bands
    ]
    if data is not None and f"{PREFIX}-TOTAL_FORMS" in data:
        # Sent back: no initial, or a row left as the table had it would read as unchanged,
        # hence blank.
        return VPBandFormSet(data, prefix=PREFIX)
    return VPBandFormSet(prefix=PREFIX, initial=initial)


def rows_table(rows, *, name: str, hands: int, refusal) -> VPTable | None:
    """Return the table the rows make, else None with each fault beside its row
    (``refusal``: a VPTableError said in the reader's language)."""
    if not rows.is_bound or not rows.is_valid():
        return None
    filled = [row for row in rows.forms if not row.is_blank]
    if not filled:
        # No rows at all (a count of forms tampered with to 0) says it at the choice alone.
        if rows.forms:
            rows.forms[0].add_error("low", _("A table has one band at least."))
        return None
    try:
        return validate(VPTable(name=name, hands=hands, bands=tuple(r.band() for r in filled)))
    except VPTableError as exc:
        row = filled[exc.band - 1] if exc.band is not None else filled[0]
        row.add_error(FAULT_FIELDS.get(exc.code, "low"), refusal(exc))
        return None
