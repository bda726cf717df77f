"""The ways a hand is entered by its result, one module each: a registry of its own on the
page side, chosen by the game's rules (``GameRules.hand_entry``), so that no page, form,
template, script or stylesheet names a game.

An entry kind is a form that turns its fields into a ``hand_recorded`` payload (``payload``),
re-fills itself from one (``initial_from_payload``, for a correction), draws itself with its
own template (``template``, under templates/entries/) and is built again against a new head
(``rebuild_kwargs``); its correction form adds a reason. Every form takes the table's seat
names, options, game key, the seats out of the match and the head it was drawn at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.pages.entries.knocker_defender import KnockerDefenderAmendForm, KnockerDefenderForm
from games.pages.entries.pairs_sheet import PairsSheetAmendForm, PairsSheetForm
from games.pages.entries.seats import SeatsAmendForm, SeatsHandForm
from scoring.game import KNOCKER_DEFENDER_ENTRY, PAIRS_SHEET_ENTRY, SEATS_ENTRY, GameRules
from scoring.variants import GAMES


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One way of entering a hand: its form, and the form that corrects a hand so entered."""

    record: type
    correct: type


ENTRIES: Mapping[str, HandEntry] = MappingProxyType(
    {
        KNOCKER_DEFENDER_ENTRY: HandEntry(KnockerDefenderForm, KnockerDefenderAmendForm),
        SEATS_ENTRY: HandEntry(SeatsHandForm, SeatsAmendForm),
        PAIRS_SHEET_ENTRY: HandEntry(PairsSheetForm, PairsSheetAmendForm),
    }
)


def seats_sat_out(variant: str, payload: Mapping[str, Any]) -> tuple[int, ...]:
    """Return the seats a recorded hand says sat out (the flags its game's match sets)."""
    keys = [flag.key for flag in GAMES[variant].seat_flags if flag.from_match]
    players = payload.get("players") or []
    return tuple(
        seat for seat, player in enumerate(players) if any(player.get(key) for key in keys)
    )


def entry_of(game: GameRules) -> HandEntry:
    """Return how the game's hands are entered by their result."""
    return ENTRIES[game.hand_entry]
