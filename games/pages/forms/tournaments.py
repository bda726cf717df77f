from django import forms
from django.utils.translation import gettext_lazy as _

from games.clubs.models import League
from games.tournaments.models import MAX_ROUND_MINUTES, MAX_ROUNDS


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    league = forms.ModelChoiceField(
        label=_("Rules: those of the league"), queryset=League.objects.none(), empty_label=None
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    round_minutes = forms.IntegerField(
        label=_("Minutes a round"), min_value=5, max_value=MAX_ROUND_MINUTES, initial=40
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        # Swiss pairing seats two at a table: the leagues of two-player tables.
        self.fields["league"].queryset = League.objects.filter(club=club, players=2)
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        for name in ("rounds", "round_minutes"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"


class EntrantsForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Add players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(p.pk, p.name) for p in players]
