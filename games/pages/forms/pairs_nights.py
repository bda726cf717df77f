"""The director's forms of a pairs night (Burraco): creating it, with its plan, its matches'
hands and its VP table (one of the federation's, the director's own as rows of bands, or
one imported as JSON), and adding a pair of club players."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games.clubs.models import League, Season
from games.pages.forms.vp_tables import band_rows, rows_table
from games.tournaments.models import MAX_POINTS, MAX_ROUND_MINUTES
from games.tournaments.pairs_services import MATCH_HANDS
from scoring.tournaments.victory_points import (
    FIBUR_3_HANDS,
    FIBUR_TABLES,
    MAX_NAME,
    VPTableError,
    from_dict,
    to_dict,
)
from scoring.variants import GAMES

OWN_TABLE = "own"  # the rows of bands on the form
JSON_TABLE = "json"  # a table imported as JSON text
FILL_FORM = "vp-fill"  # the id of the form that fills the rows with a federation's table
# A VP table of the most bands, written out as JSON with room to spare: more is no table.
MAX_TABLE_TEXT = 6000

# What is wrong with a band, said in the reader's language (victory_points.BAND_FAULTS).
BAND_FAULTS = {
    "not_twenty": _("Band %(band)s (%(label)s): %(winner)s–%(loser)s VP do not add up to 20."),
    "winner_range": _(
        "Band %(band)s (%(label)s): the winner's VP lie between 10 and 20, not %(winner)s."
    ),
    "first_not_zero": _("Band %(band)s (%(label)s): the first band starts at a difference of 0."),
    "first_not_level": _(
        "Band %(band)s (%(label)s): a difference of 0 gives 10–10, not %(winner)s–%(loser)s."
    ),
    "gap": _(
        "Band %(band)s (%(label)s): a gap after %(end)s; the band should start at %(expected)s."
    ),
    "overlap": _("Band %(band)s (%(label)s): it overlaps the band before, which ends at %(end)s."),
    "not_rising": _(
        "Band %(band)s (%(label)s): the winner's VP must go up band by band, "
        "and %(winner)s does not go up from %(before)s."
    ),
    "reversed": _("Band %(band)s (%(label)s): it ends below where it starts."),
    "last_closed": _(
        "Band %(band)s (%(label)s): the last band has no upper end, so that it covers every "
        "larger difference (leave “To” empty; in JSON, null)."
    ),
    "open_inside": _("Band %(band)s (%(label)s): only the last band has no upper end."),
}


def table_refusal(exc: VPTableError) -> str:
    """Return why a VP table is refused, in the reader's language where the band says it."""
    if exc.code in BAND_FAULTS:
        return str(BAND_FAULTS[exc.code] % {"band": exc.band, "label": exc.label, **exc.params})
    return str(_("The table is refused: %(why)s.") % {"why": exc})


class PairsNightForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    league = forms.ModelChoiceField(
        label=_("Rules: those of the league"), queryset=League.objects.none(), empty_label=None
    )
    season = forms.ModelChoiceField(
        label=_("Counted in the season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("No: the night stands alone"),
    )
    plan = forms.CharField(
        label=_("Plan of the rounds"),
        max_length=40,
        initial="3 Mitchell + 1 Danese",
        help_text=_(
            "Mitchell rounds (North–South stay, East–West move a table up) and Danese rounds "
            "(1st meets 2nd by the standings), in order: e.g. “3 Mitchell + 1 Danese”."
        ),
    )
    hands = forms.TypedChoiceField(
        label=_("Hands a match"),
        coerce=int,
        choices=[(hands, hands) for hands in MATCH_HANDS],
        initial=3,
    )
    vp_table = forms.ChoiceField(
        label=_("Victory points (VP) table"),
        initial="fibur-3-hands",
        help_text=_(
            "The federation's table for the matches' hands, or your own: its rows below, "
            "or imported as JSON."
        ),
    )
    own_name = forms.CharField(
        label=_("Your own table's name"),
        max_length=MAX_NAME,
        required=False,
        initial=_("Our club's table"),
    )
    start = forms.ChoiceField(
        label=_("Fill the rows with the table"),
        required=False,
        initial="fibur-3-hands",
    )
    own_table = forms.CharField(
        label=_("Import a VP table (JSON)"),
        required=False,
        max_length=MAX_TABLE_TEXT,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_(
            "Read when “My own table, imported as JSON” is chosen: each band from a "
            "difference (“from”) to another (“to”, null for the last), the winner's and the "
            "loser's VP, 20 in all."
        ),
    )
    bye_points = forms.IntegerField(
        label=_("VP for a bye"),
        min_value=0,
        max_value=MAX_POINTS,
        initial=12,
        help_text=_("12 is the house default, not a checked federation figure: set your own."),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes a round"), min_value=5, max_value=MAX_ROUND_MINUTES, initial=60
    )

    def __init__(self, *args, club, start: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        # Read from the registry when asked: a game of partners is offered once registered.
        pairs_games = [key for key, game in GAMES.items() if game.partners]
        self.fields["league"].queryset = League.objects.filter(club=club, variant__in=pairs_games)
        self.fields["season"].queryset = Season.objects.filter(
            league__club=club, league__variant__in=pairs_games, status=Season.Status.OPEN
        ).select_related("league")
        federation = [(key, table.name) for key, table in FIBUR_TABLES.items()]
        self.fields["vp_table"].choices = [
            *federation,
            (OWN_TABLE, _("My own table: the rows below")),
            (JSON_TABLE, _("My own table, imported as JSON")),
        ]
        self.fields["start"].choices = federation
        # Filling the rows is a form of its own (FILL_FORM), a GET that creates nothing.
        self.fields["start"].widget.attrs["form"] = FILL_FORM
        if not self.is_bound and start in FIBUR_TABLES:
            self.initial.update(vp_table=OWN_TABLE, start=start, hands=FIBUR_TABLES[start].hands)
        # The rows show the table asked for (the "fill" button), else the 3-hand one.
        self.rows = band_rows(
            self.data if self.is_bound else None, FIBUR_TABLES.get(start, FIBUR_3_HANDS)
        )
        for name in ("bye_points", "round_minutes"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    def clean(self):
        data = super().clean()
        choice = data.get("vp_table")
        if choice == OWN_TABLE:
            data["table"] = self._rows_table(data)
        elif choice == JSON_TABLE:
            data["table"] = self._own_table(data.get("own_table", ""))
        elif choice in FIBUR_TABLES:
            data["table"] = to_dict(FIBUR_TABLES[choice])
        table, hands = data.get("table"), data.get("hands")
        if table is not None and hands is not None and table["hands"] != hands:
            field = "own_table" if choice == JSON_TABLE else "vp_table"
            self.add_error(
                field,
                _("This table is for matches of %(table)s hands, the night's are %(hands)s.")
                % {"table": table["hands"], "hands": hands},
            )
        return data

    def _rows_table(self, data) -> dict | None:
        """Return the table the rows make, for the night's hands, or None with the fault
        beside its row and a word at the choice."""
        name = (data.get("own_name") or "").strip()
        if not name:
            self.add_error("own_name", _("Give your table a name."))
        hands = data.get("hands")
        table = rows_table(self.rows, name=name or "-", hands=hands or 3, refusal=table_refusal)
        if table is None:
            self.add_error("vp_table", _("Your table has a row to correct: see the rows below."))
            return None
        return to_dict(table) if name else None

    def _own_table(self, text: str) -> dict | None:
        """Return the director's table read from its JSON, or None with the error beside
        the field (naming the band at fault)."""
        try:
            return to_dict(from_dict(json.loads(text)))
        except json.JSONDecodeError as exc:
            self.add_error(
                "own_table",
                _("Not a table in JSON (line %(line)s, column %(column)s).")
                % {"line": exc.lineno, "column": exc.colno},
            )
        except RecursionError:  # brackets nested past what json reads: no table either
            self.add_error("own_table", _("Not a table in JSON: it nests too deep."))
        except VPTableError as exc:
            self.add_error("own_table", table_refusal(exc))
        return None


class PairForm(forms.Form):
    """Two club players the director registers as the night's next pair."""

    first = forms.TypedChoiceField(label=_("First player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Partner"), coerce=int)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p.pk, p.name) for p in players]
        self.fields["first"].choices = self.fields["second"].choices = choices
        if len(choices) > 1:
            self.fields["second"].initial = choices[1][0]
