"""Forms of the club pages; each turns its fields into one service call."""

import calendar
import datetime as dt
import re

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.clubs.models import ClubRole, Membership, Player, Tiebreaker
from games.clubs.services import (
    INVITE_DAYS,
    MAX_INVITE_DAYS,
    MAX_INVITE_USES,
    MAX_PLAYERS_AT_ONCE,
)
from games.pages.forms.game_options import most_players
from games.pages.forms.tables import TableCreateForm
from scoring.game import LEAGUE_FORM


class ClubCreateForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=80)
    public = forms.BooleanField(
        label=_("Public: signed-in people outside the club see its page and public leagues"),
        required=False,
    )


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Joins as"),
        choices=[(ClubRole.MEMBER, ClubRole.MEMBER.label), (ClubRole.ADMIN, ClubRole.ADMIN.label)],
        initial=ClubRole.MEMBER,
    )
    max_uses = forms.IntegerField(
        label=_("People it lets in"), min_value=1, max_value=MAX_INVITE_USES, initial=1
    )
    days = forms.IntegerField(
        label=_("Valid for (days)"), min_value=1, max_value=MAX_INVITE_DAYS, initial=INVITE_DAYS
    )


# An invite's token, pasted alone or as its link: after "#", or in an old link's path.
PASTED_INVITE = re.compile(r"#(?P<fragment>[^#]*)$|/invite/(?P<path>[^/?#\s]+)")
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


class InviteLinkForm(forms.Form):
    """The /invite/ page's form: its script fills it from the link's fragment and sends
    it; a browser without JavaScript pastes the link itself."""

    link = forms.CharField(
        label=_("Paste the invite link"),
        max_length=300,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "data-secret-input": True}
        ),
    )

    def clean_link(self) -> str:
        """Return the invite's token."""
        text = self.cleaned_data["link"].strip()
        found = PASTED_INVITE.search(text)
        token = (found.group("fragment") or found.group("path") or "") if found else text
        token = token.strip().strip("/")
        if not INVITE_TOKEN.fullmatch(token):
            raise forms.ValidationError(_("Paste the whole invite link."), code="link")
        return token


class PlayerForm(forms.Form):
    """Guest players for the roster, pasted one a line (as the night's page takes them)."""

    names = forms.CharField(
        label=_("Guest players' names, one a line"),
        # Bounded before it is split: 60 names of 40 characters and their breaks.
        max_length=MAX_PLAYERS_AT_ONCE * 42,
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off", "autocapitalize": "words"}),
    )

    def name_lines(self) -> list[str]:
        return self.cleaned_data["names"].splitlines()


class PlayerLinkForm(forms.Form):
    """Pick a guest player of the club and the member whose account they are."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    member = forms.TypedChoiceField(label=_("Member's account"), coerce=int)

    def __init__(self, *args, players: list[Player], members: list[Membership], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p.pk, p.name) for p in players if p.user_id is None]
        linked = {p.user_id for p in players if p.user_id is not None}
        self.fields["member"].choices = [
            (m.user_id, m.user.get_username()) for m in members if m.user_id not in linked
        ]

    def can_link(self) -> bool:
        return bool(self.fields["player"].choices and self.fields["member"].choices)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.choices)


class LeagueForm(TableCreateForm):
    """The new-table form's game and options, without player names, plus what a league adds.

    The game's options are checked by the engine (services.league_options) for tables of the
    chosen number of players.
    """

    form_kind = LEAGUE_FORM  # a league's tables always count: it offers no practice table

    name = forms.CharField(label=_("League name"), max_length=80)
    public = forms.BooleanField(
        label=_("Public: anyone can see the league, its seasons and standings"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, most_players() + 1):
            del self.fields[f"player_{n}"]
        order = [("", _("—")), *Tiebreaker.choices]
        for n in range(1, len(Tiebreaker.choices) + 1):
            self.fields[f"tiebreaker_{n}"] = forms.ChoiceField(
                label=_("Tiebreaker %(n)d") % {"n": n}, choices=order, required=False
            )

    def clean(self):
        # The parent's clean asks for player names, which a league does not have.
        data = forms.Form.clean(self)
        chosen = self.tiebreakers()
        if len(set(chosen)) != len(chosen):
            self.add_error(None, _("Choose each tiebreaker once."))
        self.clean_seat_count(data)
        self.clean_narrowed_choices(data)
        return data

    def player_fields(self):
        return []

    def tiebreaker_fields(self):
        return [self[f"tiebreaker_{n}"] for n in range(1, len(Tiebreaker.choices) + 1)]

    def tiebreakers(self) -> list[str]:
        data = self.cleaned_data
        count = len(Tiebreaker.choices)
        return [data[f"tiebreaker_{n}"] for n in range(1, count + 1) if data.get(f"tiebreaker_{n}")]

    def players_count(self) -> int:
        return self.seat_count(self.cleaned_data)


def _today() -> dt.date:
    return timezone.localdate()


def _three_months_on() -> dt.date:
    """The day before the same date three months from today: a season's usual length."""
    today = _today()
    month = today.month + 3
    year, month = today.year + (month - 1) // 12, (month - 1) % 12 + 1
    day = min(today.day, calendar.monthrange(year, month)[1])
    return dt.date(year, month, day) - dt.timedelta(days=1)


# Dates a season can have: anything outside is a slip of the thumb on the year.
SEASON_YEARS = (2000, 2100)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Season name"), max_length=80)
    starts_on = forms.DateField(
        label=_("Starts on"),
        initial=_today,
        widget=forms.DateInput(
            format="%Y-%m-%d", attrs={"type": "date", "min": "2000-01-01", "max": "2100-12-31"}
        ),
    )
    ends_on = forms.DateField(
        label=_("Ends on"),
        initial=_three_months_on,
        widget=forms.DateInput(
            format="%Y-%m-%d", attrs={"type": "date", "min": "2000-01-01", "max": "2100-12-31"}
        ),
    )

    def clean(self):
        data = super().clean()
        for name in ("starts_on", "ends_on"):
            day = data.get(name)
            if day and not SEASON_YEARS[0] <= day.year <= SEASON_YEARS[1]:
                self.add_error(
                    name,
                    _("Choose a date between the years %(first)s and %(last)s.")
                    % {"first": SEASON_YEARS[0], "last": SEASON_YEARS[1]},
                )
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("A season ends on or after the day it starts."))
        return data


class SeasonTableForm(forms.Form):
    """Seat the club's players at a new league table; the game and options are the league's."""

    practice = forms.BooleanField(
        label=_("Practice table: not counted in standings"), required=False
    )

    def __init__(self, *args, players: list[Player], seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((p.pk, p.name) for p in players)]
        self.seat_names = [f"seat_{n}" for n in range(1, seats + 1)]
        for n, name in enumerate(self.seat_names, start=1):
            self.fields[name] = forms.TypedChoiceField(
                label=_("Seat %(n)d") % {"n": n}, choices=choices, coerce=int
            )

    def seat_fields(self):
        return [self[name] for name in self.seat_names]

    def clean(self):
        data = super().clean()
        chosen = [data[name] for name in self.seat_names if data.get(name)]
        if len(set(chosen)) != len(chosen):
            self.add_error(None, _("Choose a different player for every seat."))
        return data

    def player_ids(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.seat_names]
