"""Every game's table options as form fields, read from its GameRules (scoring/game.py).

One form holds every game's options, each field named ``<game>__<option>`` (``gin__target``,
``scala40__reentries``); the page shows only the chosen game's (the ``data-game`` attribute
and the stylesheet games.css, made from the registry: games/pages/game_styles.py), and only
the chosen game's are read. Nothing here names a game: a new game's options appear on the
new-table, league, group and referee forms by being in its ``GameRules.options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.rules.game_words import (
    choice_label,
    game_name,
    narrowed_refusal,
    option_label,
    seatings_text,
)
from games.rules.reference import refusal_html
from games.shared.models import game_choices
from scoring.game import BOOL, INT, GameRules, OptionSpec
from scoring.variants import GAMES

# A switch the preset gives unless the table sets it: "as the rules chosen", on or off.
AS_PRESET = [("", _("As the rules chosen")), ("on", _("Yes")), ("off", _("No"))]
SWITCH_VALUES = {"on": True, "off": False}


def most_players() -> int:
    """Return the most seats any game has: the forms offer this many names. Read when a form
    is built, never at import: a game registered late (the tests' stub game) counts too."""
    return max(max(game.seatings) for game in GAMES.values())


class SeatField(forms.IntegerField):
    """A seat's number: from 0 to one less than the most seats any game has, that bound read
    when a value is checked (the registry may have grown since the form class was made)."""

    def __init__(self, **kwargs):
        super().__init__(min_value=0, **kwargs)

    def validate(self, value):
        super().validate(value)
        if value is not None and value >= (most := most_players()):
            raise forms.ValidationError(
                _("Ensure this value is less than or equal to %(limit_value)s."),
                code="max_value",
                params={"limit_value": most - 1},
            )


# The most a number the game does not bound may be set to on a form (every input is bounded).
FORM_MOST = 1000


def field_name(game: GameRules, spec: OptionSpec) -> str:
    """Name the form field of one game's option."""
    return f"{game.key}__{spec.key}"


def _choice_value(spec: OptionSpec):
    """Return how the option's choices come back from a post: as numbers or as text."""
    return int if all(isinstance(value, int) for value in spec.choices) else str


def option_field(spec: OptionSpec) -> forms.Field:
    """Return the field that sets one option, in the active language."""
    label = option_label(spec)
    if spec.kind == BOOL and spec.from_preset:
        return forms.ChoiceField(label=label, choices=AS_PRESET, required=False)
    if spec.kind == BOOL:
        return forms.BooleanField(label=label, required=False, initial=spec.default is True)
    if spec.kind == INT:
        return forms.IntegerField(
            label=label,
            min_value=spec.low,
            max_value=spec.high or FORM_MOST,
            required=False,
            initial=spec.default,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
    coerce = _choice_value(spec)
    return forms.TypedChoiceField(
        label=label,
        choices=[(str(value), choice_label(spec, value)) for value in spec.choices],
        coerce=coerce,
        required=False,
        initial=None if spec.default is None else str(spec.default),
        # Named choices are chips; numbers a list.
        widget=forms.RadioSelect if coerce is str else forms.Select,
    )


class GameChoice(forms.RadioSelect):
    """The game's radio buttons, each saying how many seats its game has: the stylesheet
    hides the number of players for a game of one table size (data-seats)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        game = GAMES.get(str(value))
        if game is not None:
            option["attrs"]["data-seats"] = " ".join(map(str, game.seatings))
        return option


@dataclass(frozen=True)
class OptionField:
    """One option's field as the templates draw it."""

    field: Any  # the bound field
    spec: OptionSpec
    game: str

    @property
    def widget(self) -> str:
        """Say how it is drawn: a check box, a switch as the preset, a number, chips, a list."""
        if self.spec.kind == BOOL:
            return "switch" if self.spec.from_preset else "check"
        if self.spec.kind == INT:
            return "number"
        return "radio" if _choice_value(self.spec) is str else "select"

    @property
    def choices(self) -> list[tuple[str, str, str]]:
        """Return a list's choices, each with the values of the option that narrows it under
        which it is open (the stylesheet hides the others; Gin's lengths by preset)."""
        spec = self.spec
        return [
            (
                str(value),
                choice_label(spec, value),
                " ".join(str(by) for by, allowed in spec.choices_for if value in allowed),
            )
            for value in spec.choices
        ]

    @property
    def narrowed_by(self) -> str:
        return f"{self.game}__{self.spec.choices_by}" if self.spec.choices_by else ""


@dataclass(frozen=True)
class GamePanel:
    """One game's options on a form: those in view, the house rules folded away."""

    key: str
    name: str
    seats_hint: str
    options: tuple[OptionField, ...]
    house: tuple[OptionField, ...]

    @property
    def house_from_preset(self) -> bool:
        """Tell whether a house rule left empty takes the preset's value (the page says so)."""
        return any(option.spec.from_preset for option in self.house)


class GameOptionsMixin:
    """A form offering every game and its options; ``form_kind`` names which options it
    offers (scoring.game's TABLE_FORM, LEAGUE_FORM, REFEREE_FORM)."""

    form_kind: str
    # Fields whose errors the page says beside them, left out of the options' list of errors
    # (an error said twice would give two elements the id its field's aria-describedby names).
    errors_shown_apart: tuple[str, ...] = ()

    def option_errors(self) -> list:
        """Return the fields with errors that the list under the options says."""
        return [f for f in self if f.errors and f.name not in self.errors_shown_apart]

    def add_game_fields(self) -> None:
        self.fields["variant"] = forms.ChoiceField(
            label=_("Game"), choices=game_choices(), initial=next(iter(GAMES)), widget=GameChoice
        )
        chosen = self.data.get("variant") if self.is_bound else None
        for game in GAMES.values():
            for spec in game.options_offered(self.form_kind):
                field = option_field(spec)
                # Only the chosen game's options are read, and those with a value to offer
                # must have one; the other games' are posted too, and left alone.
                field.required = (
                    game.key == chosen and spec.kind != BOOL and spec.default is not None
                )
                if not isinstance(field.widget, forms.RadioSelect):
                    field.widget.attrs["data-testid"] = f"{game.key}-{spec.key}"
                self.fields[field_name(game, spec)] = field

    def chosen_game(self) -> GameRules:
        return GAMES[self.cleaned_data["variant"]]

    def game_panels(self) -> list[GamePanel]:
        panels = []
        for game in GAMES.values():
            shown = [
                OptionField(self[field_name(game, spec)], spec, game.key)
                for spec in game.options_offered(self.form_kind)
            ]
            hint = seatings_text(game) if len(game.seatings) > 1 else ""
            panels.append(
                GamePanel(
                    key=game.key,
                    name=game_name(game),
                    seats_hint=hint,
                    options=tuple(option for option in shown if not option.spec.house),
                    house=tuple(option for option in shown if option.spec.house),
                )
            )
        return panels

    def options(self) -> dict[str, Any]:
        """Return the chosen game's options as the table's options dict: what the table
        sets; a switch or bonus left "as the rules chosen" is the preset's."""
        game, data = self.chosen_game(), self.cleaned_data
        options: dict[str, Any] = {}
        for spec in game.options_offered(self.form_kind):
            value = data.get(field_name(game, spec))
            if spec.kind == BOOL and spec.from_preset:
                if value:
                    options[spec.key] = SWITCH_VALUES[value]
            elif spec.kind == BOOL:
                # A switch on by default is sent off too; one off by default only when on,
                # so a game deciding it by other options (Ramino's no_opening) still can.
                if value or spec.default is True:
                    options[spec.key] = bool(value)
            elif value is not None and value != "":
                options[spec.key] = value
        return options

    def clean_narrowed_choices(self, data: Mapping[str, Any]) -> None:
        """Refuse, by its field, a choice the option that narrows it does not open (Gin's
        match lengths by preset, GIN-MATCH)."""
        game = GAMES.get(data.get("variant"))
        if game is None:
            return
        for spec in game.options_offered(self.form_kind):
            name, by = field_name(game, spec), game.option(spec.choices_by)
            if by is None or data.get(name) in (None, ""):
                continue
            chosen = data.get(field_name(game, by))
            allowed = spec.allowed({by.key: chosen})
            if data[name] not in allowed:
                message = narrowed_refusal(spec, by, chosen, allowed)
                self.add_error(name, refusal_html(message, spec.rule))

    def seat_count(self, data: Mapping[str, Any]) -> int:
        """Return how many players the chosen game seats: its one table size, or the
        number chosen."""
        game = GAMES.get(data.get("variant"))
        if game is not None and len(game.seatings) == 1:
            return game.seatings[0]
        return data.get("players") or 2

    def clean_seat_count(self, data: Mapping[str, Any]) -> None:
        """Refuse a number of players the chosen game is not played by, by its field."""
        game = GAMES.get(data.get("variant"))
        count = self.seat_count(data)
        if game is not None and "players" in self.fields and count not in game.seatings:
            message = gettext("%(game)s is played by %(counts)s players.") % {
                "game": game_name(game),
                "counts": seatings_text(game, bare=True),
            }
            self.add_error("players", refusal_html(message, game.setup_rule))


def options_initial(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Return a form's initial values for a game and its options: the inverse of
    ``GameOptionsMixin.options``, so a group's next table offers what it played last."""
    game = GAMES.get(variant)
    if game is None:
        return {}
    initial: dict[str, Any] = {"variant": variant}
    for spec in game.options:
        if spec.key not in options:
            continue
        value = options[spec.key]
        if spec.kind == BOOL and spec.from_preset:
            initial[field_name(game, spec)] = "on" if value else "off"
        else:
            initial[field_name(game, spec)] = value
    return initial
