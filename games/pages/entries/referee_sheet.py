"""The referee's score question for games whose hand is entered one sheet a side
(PAIRS_SHEET_ENTRY, Burraco's pairs): each side's melded points, burracos by kind,
pozzetto and points in hand, and which side closed, as the table's sheet asks them. The
referee page's form (``SheetRefereeForm``) is the referee's form with these boxes.

The fields are the pairs' sheet's own (games/pages/entries/pairs_sheet.py: its labels and
bounds); the engine's refusals name a field of the entry (``pairs[0].melded``), which is
said again next to the box it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.pages.entries.pairs_sheet import KINDS, MOST_BURRACOS, MOST_POINTS, NOBODY
from games.pages.forms.referee import RefereeForm
from games.rules.text import violation_text
from scoring.errors import Violation
from scoring.game import PAIRS_SHEET_ENTRY, GameRules
from scoring.variants import GAMES

# An entry's field as the engine names it: a side's box, or the closing.
_ENTRY_FIELD = re.compile(r"pairs\[(\d)\]\.(\w+)")


def sheet_games() -> list[GameRules]:
    """Return the games whose hands are entered one sheet a side."""
    return [game for game in GAMES.values() if game.hand_entry == PAIRS_SHEET_ENTRY]


def _most_sides() -> int:
    return max((len(game.teams(max(game.seatings))) for game in sheet_games()), default=0)


def side_label(game: GameRules | None, side: int, players: int) -> str:
    """Name a side by its number and its seats, e.g. "Pair 1 (seats 1 & 3)"."""
    teams = game.teams(players) if game is not None else ()
    seats = " & ".join(str(seat + 1) for seat in teams[side]) if side < len(teams) else ""
    return gettext("Pair %(number)d (seats %(seats)s)") % {"number": side + 1, "seats": seats}


class SheetQuestionMixin:
    """The sides' sheet fields of the referee form, and the entry they make."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_sheet_fields()

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
        return {box["field"].name: row["name"] for row in self.side_rows() for box in _boxes(row)}

    def add_sheet_fields(self) -> None:
        sides = _most_sides()
        if not sides:
            return
        self.fields["closed"] = forms.ChoiceField(
            label=_("Who closed?"),
            required=False,
            widget=forms.RadioSelect,
            initial=NOBODY,
            choices=[
                (NOBODY, _("Nobody (the stock ran out)")),
                *((str(side), side_label(self._sheet_game(), side, 0)) for side in range(sides)),
            ],
        )
        for side in range(sides):
            points = {"min_value": 0, "max_value": MOST_POINTS, "required": False}
            self.fields[f"s{side}_melded"] = forms.IntegerField(label=_("Points melded"), **points)
            for key, label in KINDS:
                self.fields[f"s{side}_{key}"] = forms.IntegerField(
                    label=label, min_value=0, max_value=MOST_BURRACOS, required=False
                )
            self.fields[f"s{side}_pozzetto"] = forms.BooleanField(
                label=_("Took its pozzetto"), required=False
            )
            self.fields[f"s{side}_in_hand"] = forms.IntegerField(
                label=_("Points left in hand"), **points
            )

    def _sheet_game(self) -> GameRules | None:
        """Return the chosen game if its hands are entered one sheet a side, else the first
        such game (the boxes are drawn before a game is chosen)."""
        chosen = GAMES.get(self.data.get("variant") or self.initial.get("variant"))
        games = sheet_games()
        if chosen in games:
            return chosen
        return games[0] if games else None

    @property
    def sheet_games(self) -> str:
        """Return the keys of the games asked the sides' sheet (data-game)."""
        return " ".join(game.key for game in sheet_games())

    @property
    def seat_games(self) -> str:
        """Return the keys of the games asked each seat's cards (data-game)."""
        sheets = sheet_games()
        return " ".join(key for key, game in GAMES.items() if game not in sheets)

    def side_rows(self, refusals: Mapping[str, list[tuple[str, str]]] | None = None):
        """Return each side's boxes as the template draws them, each with the engine's
        refusals naming it (``refusals``: by field name, as ``refusals_by_field`` gives)."""
        refusals = refusals or {}
        game = self._sheet_game()
        players = max(game.seatings) if game is not None else 0

        def box(name: str) -> dict[str, Any]:
            return {"field": self[name], "refusals": refusals.get(name, [])}

        return [
            {
                "index": side,
                "name": side_label(game, side, players),
                "melded": box(f"s{side}_melded"),
                "kinds": [box(f"s{side}_{key}") for key, _label in KINDS],
                "pozzetto": box(f"s{side}_pozzetto"),
                "in_hand": box(f"s{side}_in_hand"),
            }
            for side in range(_most_sides())
        ]

    def is_sheet_question(self, game: GameRules | None, question: str | None) -> bool:
        return question == "score" and game is not None and game in sheet_games()

    def clean_sheet(self, data: dict[str, Any], game: GameRules) -> None:
        """Ask for a side's melded points or points in hand left empty, naming the side: an
        empty box is a number not counted yet, not a zero."""
        players = self.seat_count(data)
        for side in range(len(game.teams(players))):
            for key in ("melded", "in_hand"):
                name = f"s{side}_{key}"
                if name in data and data[name] is None:
                    what = str(self.fields[name].label).lower()
                    message = _("Enter %(what)s for %(name)s (0 if none).") % {
                        "what": what,
                        "name": side_label(game, side, players),
                    }
                    self.add_error(name, message)

    def sheet_entry(self, data: Mapping[str, Any], game: GameRules, players: int) -> dict:
        """Return the hand entry these boxes describe, as the table's sheet sends it."""
        closed = data.get("closed") or NOBODY
        pairs = [
            {
                "melded": data.get(f"s{side}_melded") or 0,
                **{key: data.get(f"s{side}_{key}") or 0 for key, _label in KINDS},
                "closed": closed == str(side),
                "pozzetto": bool(data.get(f"s{side}_pozzetto")),
                "in_hand": data.get(f"s{side}_in_hand") or 0,
            }
            for side in range(len(game.teams(players)))
        ]
        return {"mode": "sheet", "pairs": pairs}


class SheetRefereeForm(SheetQuestionMixin, RefereeForm):
    """The referee page's form: any question, and a score asked by the sides' sheets."""


def _boxes(row: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [row["melded"], *row["kinds"], row["pozzetto"], row["in_hand"]]


def entry_refusals(violations: Iterable[Violation]) -> dict[str, list[tuple[str, str]]]:
    """Return the engine's refusals that name a box of the sheet, by the box's field name
    (``pairs[0].melded``: ``s0_melded``; a side's ``closed``: ``closed``), as (sentence,
    rule) pairs to say next to it."""
    found: dict[str, list[tuple[str, str]]] = {}
    for violation in violations:
        named = _ENTRY_FIELD.fullmatch(str((violation.params or {}).get("field", "")))
        if named is None:
            continue
        side, key = named.groups()
        name = "closed" if key == "closed" else f"s{side}_{key}"
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
