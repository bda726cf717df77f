"""Forms of the group pages: a new group, its players, and a table seated from it."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.clubs.groups import MAX_GROUP_PLAYERS
from games.pages.forms.game_options import most_players
from games.pages.forms.tables import TableCreateForm
from games.shared.models import game_label

# A list of names is bounded before it is split: 40 names of 40 characters and their breaks.
NAMES_MAX_LENGTH = MAX_GROUP_PLAYERS * 42


class _GameOnlyForm(TableCreateForm):
    """The new-table form's game and options without its typed names: a group's players
    are chosen, not typed."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, most_players() + 1):
            del self.fields[f"player_{n}"]
        del self.fields["players"]

    def player_fields(self):
        return []

    def clean(self):
        data = forms.Form.clean(self)
        self.clean_narrowed_choices(data)
        return data


class GroupCreateForm(_GameOnlyForm):
    errors_shown_apart = ("name", "names")
    name = forms.CharField(
        label=_("Group name"),
        max_length=60,
        widget=forms.TextInput(attrs={"placeholder": _("Sunday at Nonna's")}),
    )
    names = forms.CharField(
        label=_("Players, one a line"),
        max_length=NAMES_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5, "autocapitalize": "words"}),
    )

    field_order = ["name", "names"]

    def player_names(self) -> list[str]:
        return [line for line in self.cleaned_data["names"].splitlines() if line.strip()]


class GroupTableForm(_GameOnlyForm):
    """Who plays this table (the group's players, in seat order) and the game."""

    errors_shown_apart = ("seated",)

    seated = forms.TypedMultipleChoiceField(
        label=_("Who is playing?"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seated"].choices = [(p.pk, p.name) for p in players]
        self.players = {p.pk: p for p in players}

    def clean_seated(self):
        seated = self.cleaned_data["seated"]
        if len(seated) < 2:
            raise forms.ValidationError(_("Choose at least two players."))
        if len(seated) > (most := most_players()):
            raise forms.ValidationError(_("A table seats at most %(max)d players.") % {"max": most})
        if len(set(seated)) != len(seated):
            raise forms.ValidationError(_("A player sits at one seat only."))
        return seated

    @property
    def game_label(self) -> str:
        variant = self["variant"].value()
        return game_label(variant) if variant else ""

    def repeat_fields(self) -> list[tuple[str, object]]:
        """Return the game's fields as the one-tap "same players again" form posts them:
        the options offered first (a box left out of a post is a box unticked)."""
        fields = []
        for name, value in self.initial.items():
            if name == "seated" or value is False or value is None:
                continue
            fields.append((name, "on" if value is True else value))
        return fields

    def seat_players(self):
        return [self.players[pk] for pk in self.cleaned_data["seated"]]


class PlayerNameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
