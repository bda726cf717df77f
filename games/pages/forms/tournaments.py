from collections.abc import Sequence

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.clubs.models import League, Season
from games.tournaments.models import MAX_POINTS, MAX_ROUND_MINUTES, MAX_ROUNDS, Tournament
from scoring.payloads.outcome import (
    MAX_ADJUSTED_POINTS,
    MAX_DECIDED_POINTS,
    MAX_DECISION_REASON,
)

MAX_LATE_PENALTY = 200

POINT_FIELDS = ("win_points", "draw_points", "loss_points", "bye_points")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    league = forms.ModelChoiceField(
        label=_("Rules: those of the league"), queryset=League.objects.none(), empty_label=None
    )
    season = forms.ModelChoiceField(
        label=_("Counted in the season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("No: the night stands alone"),
        help_text=_(
            "An open season of the same league: the night's results go into its standings, "
            "and the table cards' keys record at its tables."
        ),
    )
    format = forms.ChoiceField(
        label=_("Two at a table"),
        choices=[
            (Tournament.Format.SWISS, Tournament.Format.SWISS.label),
            (Tournament.Format.ROUND_ROBIN, Tournament.Format.ROUND_ROBIN.label),
            (Tournament.Format.KNOCKOUT, Tournament.Format.KNOCKOUT.label),
        ],
        initial=Tournament.Format.SWISS,
        widget=forms.RadioSelect,
        help_text=_("A league of 3 to 6 a table seats its players at tables by the standings."),
    )
    scale = forms.ChoiceField(
        label=_("Victory points, two at a table"),
        choices=Tournament.Scale.choices,
        initial=Tournament.Scale.WIN_DRAW_LOSS,
        widget=forms.RadioSelect,
    )
    win_points = forms.IntegerField(label=_("a win"), min_value=0, max_value=MAX_POINTS, initial=3)
    draw_points = forms.IntegerField(
        label=_("a draw"), min_value=0, max_value=MAX_POINTS, initial=1
    )
    loss_points = forms.IntegerField(
        label=_("a loss"), min_value=0, max_value=MAX_POINTS, initial=0
    )
    bye_points = forms.IntegerField(label=_("a bye"), min_value=0, max_value=MAX_POINTS, initial=3)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        help_text=_(
            "A round robin plays as many rounds as it takes everyone to meet, a knock-out as "
            "many as it takes to leave one."
        ),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes a round"), min_value=5, max_value=MAX_ROUND_MINUTES, initial=40
    )
    late_penalty = forms.IntegerField(
        label=_("Points off for a late player"),
        help_text=_(
            "The director's one-tap penalty at a late player's table, in the game's points "
            "(added in a game scored in penalties). 0: none."
        ),
        min_value=0,
        max_value=MAX_LATE_PENALTY,
        initial=0,
        required=False,
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(club=club)
        self.fields["season"].queryset = Season.objects.filter(
            league__club=club, status=Season.Status.OPEN
        ).select_related("league")
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        for name in ("rounds", "round_minutes", "late_penalty", *POINT_FIELDS):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    def clean(self):
        data = super().clean()
        season, league = data.get("season"), data.get("league")
        if season is not None and league is not None and season.league_id != league.pk:
            self.add_error(
                "season", _("Choose a season of the league whose rules the night plays.")
            )
        return data

    def points(self) -> tuple[int, int, int, int]:
        """Return the victory points for a win, a draw, a loss and a bye."""
        return tuple(self.cleaned_data[name] for name in POINT_FIELDS)


class EntrantsForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Add players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(p.pk, p.name) for p in players]


class EntrantNamesForm(forms.Form):
    names = forms.CharField(
        label=_("Add players by name, one a line"),
        help_text=_(
            "A name already on the club's roster (whatever the capitals) is that player; "
            "any other joins the roster. Tap each one in as they arrive."
        ),
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off"}),
        max_length=6000,
    )

    def name_lines(self) -> list[str]:
        return self.cleaned_data["names"].splitlines()


class AdjustForm(forms.Form):
    """The director's adjustment of one player's total at a table (NIGHT-ADJUST)."""

    seat = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points = forms.IntegerField(
        label=_("Points (a minus to take them)"),
        min_value=-MAX_ADJUSTED_POINTS,
        max_value=MAX_ADJUSTED_POINTS,
    )
    reason = forms.CharField(label=_("Why?"), max_length=MAX_DECISION_REASON)

    def __init__(self, *args, seats: Sequence[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = list(enumerate(seats))

    def clean_points(self):
        points = self.cleaned_data["points"]
        if points == 0:
            raise forms.ValidationError(_("Give a number of points other than 0."))
        return points


class DecisionForm(forms.Form):
    """The director's decision on one table of the night: a victory points field for each
    of its seats (2 to 6), named after the player, for "score"."""

    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            ("lock", _("Lock: the totals stand")),
            ("void", _("Void: no points to anyone")),
            ("score", _("Score: these victory points")),
        ],
    )
    reason = forms.CharField(label=_("Why?"), max_length=MAX_DECISION_REASON)

    def __init__(self, *args, seats: Sequence[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat, name in enumerate(self.seats):
            self.fields[f"points_{seat}"] = forms.IntegerField(
                label=format_lazy(_("Victory points: {name}"), name=name),
                min_value=0,
                max_value=MAX_DECIDED_POINTS,
                required=False,
            )

    def clean(self):
        data = super().clean()
        if data.get("decision") == "score":
            missing = [
                name
                for seat, name in enumerate(self.seats)
                if data.get(f"points_{seat}") is None and f"points_{seat}" not in self.errors
            ]
            if missing:
                message = _("To score the table, give every player's victory points: %(names)s.")
                raise forms.ValidationError(message, params={"names": ", ".join(missing)})
        return data

    def points(self) -> list[int] | None:
        data = self.cleaned_data
        if data["decision"] != "score":
            return None
        return [data[f"points_{seat}"] for seat in range(len(self.seats))]
