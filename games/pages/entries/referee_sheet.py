"""The referee's score question for games whose hand is entered one sheet a side
(PAIRS_SHEET_ENTRY: Burraco's and Canasta's pairs): each side's boxes, as the game declares
them (``GameRules.side_sheet``, which the table's sheet reads too), and which side went
out. The referee page's form (``SheetRefereeForm``) is the referee's form with these boxes,
one set per such game (``<game>__s<side>_<box>``), the chosen game's shown.

The engine's refusals name a field of the entry (``pairs[0].melded``), which is said again
next to the box it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.pages.entries.pairs_sheet import NOBODY, sheet_box
from games.pages.forms.referee import RefereeForm
from games.rules.text import violation_text
from scoring.errors import Violation
from scoring.game import PAIRS_SHEET_ENTRY, SHEET_FLAG, GameRules
from scoring.variants import GAMES

# An entry's field as the engine names it: a side's box, or the side that went out.
_ENTRY_FIELD = re.compile(r"pairs\[(\d)\]\.(\w+)")


def sheet_games() -> list[GameRules]:
    """Return the games whose hands are entered one sheet a side."""
    return [game for game in GAMES.values() if game.hand_entry == PAIRS_SHEET_ENTRY]


def _sides(game: GameRules) -> int:
    return len(game.teams(max(game.seatings)))


def side_label(game: GameRules | None, side: int, players: int) -> str:
    """Name a side by its number and its seats, e.g. "Pair 1 (seats 1 & 3)"."""
    teams = game.teams(players) if game is not None else ()
    seats = " & ".join(str(seat + 1) for seat in teams[side]) if side < len(teams) else ""
    return gettext("Pair %(number)d (seats %(seats)s)") % {"number": side + 1, "seats": seats}


def _box_name(game: GameRules, side: int, key: str) -> str:
    return f"{game.key}__s{side}_{key}"


def _out_name(game: GameRules) -> str:
    return f"{game.key}__{game.side_sheet.out_key}"


class SheetQuestionMixin:
    """The sides' sheet fields of the referee form, and the entry they make."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for game in sheet_games():
            self.add_sheet_fields(game)

    def clean(self):
        data = super().clean()
        game = GAMES.get(data.get("variant"))
        if self.is_sheet_question(game, data.get("question")):
            self.clean_sheet(data, game)
        return data

    def request(self) -> tuple[str, dict]:
        question, request = super().request()
        game = self.chosen_game()
        if self.is_sheet_question(game, question):
            request["players"] = self.seat_count(self.cleaned_data)
            request |= self.sheet_entry(self.cleaned_data, game, request["players"])
        return question, request

    def said_by_field(self) -> dict[str, str]:
        return {
            box["field"].name: row["name"]
            for panel in self.sheet_panels()
            for row in panel["rows"]
            for box in row["boxes"]
        }

    def add_sheet_fields(self, game: GameRules) -> None:
        """Add one game's boxes, for each side it may seat, and its went-out choice."""
        sheet, players = game.side_sheet, max(game.seatings)
        self.fields[_out_name(game)] = forms.ChoiceField(
            label=gettext_lazy(sheet.out_label),
            required=False,
            widget=forms.RadioSelect,
            initial=NOBODY,
            choices=[
                (NOBODY, gettext_lazy(sheet.nobody_label)),
                *((str(side), side_label(game, side, players)) for side in range(_sides(game))),
            ],
        )
        for side in range(_sides(game)):
            for spec in sheet.fields:
                self.fields[_box_name(game, side, spec.key)] = sheet_box(spec)

    @property
    def sheet_games(self) -> str:
        """Return the keys of the games asked the sides' sheet (data-game)."""
        return " ".join(game.key for game in sheet_games())

    @property
    def seat_games(self) -> str:
        """Return the keys of the games asked each seat's cards (data-game)."""
        sheets = sheet_games()
        return " ".join(key for key, game in GAMES.items() if game not in sheets)

    def sheet_panels(self, refusals: Mapping[str, list[tuple[str, str]]] | None = None):
        """Return, for each sheet game, its sides' boxes as the template draws them, each
        with the engine's refusals naming it (``refusals``: by field name, as
        ``entry_refusals`` gives), and its went-out choice."""
        refusals = refusals or {}
        panels = []
        for game in sheet_games():
            players = max(game.seatings)
            rows = [
                {
                    "index": side,
                    "name": side_label(game, side, players),
                    "boxes": [
                        {
                            "field": self[_box_name(game, side, spec.key)],
                            "spec": spec,
                            "refusals": refusals.get(_box_name(game, side, spec.key), []),
                        }
                        for spec in game.side_sheet.fields
                    ],
                }
                for side in range(_sides(game))
            ]
            panels.append(
                {
                    "key": game.key,
                    "sheet": game.side_sheet,
                    "rows": rows,
                    "out": self[_out_name(game)],
                    "out_refusals": refusals.get(_out_name(game), []),
                }
            )
        return panels

    def is_sheet_question(self, game: GameRules | None, question: str | None) -> bool:
        return question == "score" and game is not None and game in sheet_games()

    def clean_sheet(self, data: dict[str, Any], game: GameRules) -> None:
        """Ask for a required box left empty, naming the side: an empty box is a number not
        counted yet, not a zero."""
        players = self.seat_count(data)
        for side in range(len(game.teams(players))):
            for spec in game.side_sheet.fields:
                name = _box_name(game, side, spec.key)
                if spec.required and name in data and data[name] is None:
                    what = str(self.fields[name].label).lower()
                    message = gettext("Enter %(what)s for %(name)s (0 if none).") % {
                        "what": what,
                        "name": side_label(game, side, players),
                    }
                    self.add_error(name, message)

    def sheet_entry(self, data: Mapping[str, Any], game: GameRules, players: int) -> dict:
        """Return the hand entry these boxes describe, as the table's sheet sends it."""
        sheet = game.side_sheet
        out = data.get(_out_name(game)) or NOBODY
        pairs = []
        for side in range(len(game.teams(players))):
            values = {
                spec.key: (
                    bool(data.get(_box_name(game, side, spec.key)))
                    if spec.kind == SHEET_FLAG
                    else data.get(_box_name(game, side, spec.key)) or 0
                )
                for spec in sheet.fields
            }
            values[sheet.out_key] = out == str(side)
            pairs.append(values)
        return {"mode": "sheet", "pairs": pairs}


class SheetRefereeForm(SheetQuestionMixin, RefereeForm):
    """The referee page's form: any question, and a score asked by the sides' sheets."""


def entry_refusals(
    violations: Iterable[Violation], game: GameRules
) -> dict[str, list[tuple[str, str]]]:
    """Return the engine's refusals that name a box of ``game``'s sheet, by the box's field
    name (``pairs[0].melded``: ``<game>__s0_melded``; a side's went-out flag: the choice's),
    as (sentence, rule) pairs to say next to it."""
    found: dict[str, list[tuple[str, str]]] = {}
    for violation in violations:
        named = _ENTRY_FIELD.fullmatch(str((violation.params or {}).get("field", "")))
        if named is None:
            continue
        side, key = named.groups()
        out = key == game.side_sheet.out_key
        name = _out_name(game) if out else _box_name(game, int(side), key)
        found.setdefault(name, []).append((violation_text(violation), violation.rule))
    return found


def side_points(answer: Mapping[str, Any], game: GameRules, players: int) -> dict[str, int]:
    """Return each side's points of a scored sheet by the side's label, for the answer's
    table (the engine gives them seat by seat, partners alike)."""
    points = answer.get("points") or []
    return {
        side_label(game, side, players): points[seats[0]]
        for side, seats in enumerate(game.teams(players))
        if seats and seats[0] < len(points)
    }


def seat_labels(game: GameRules, players: int) -> list[str]:
    """Return, seat by seat, the label of the seat's side: what a side's score items name."""
    labels = [""] * players
    for side, seats in enumerate(game.teams(players)):
        for seat in seats:
            if seat < players:
                labels[seat] = side_label(game, side, players)
    return labels
