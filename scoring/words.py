"""The words a game brings for the pages: ``GameWords``, held by its ``GameRules.words``.

The engine cannot translate (no Django here), so a game's words are its English strings,
keyed as the pages' own catalogues key theirs (games/rules/game_words.py, text.py,
verdicts.py): by option key or (rule, key), by flag key, by count or column name, by rule
ID, by (rule, code). The pages look in the game's words first and translate each string
with gettext when they show it; ``makemessages`` finds the strings because the game's
``words`` module marks each one with a local no-op named ``gettext_noop``.

So adding a game touches no page catalogue: its package, its registry line, its rules text
and its translations (docs/design.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def _none() -> Mapping[Any, str]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class GameWords:
    """Hold a game's own words, in English, each found by the key the pages look it up by.

    ``options``: an option's label, by its key or by (rule, key) where a key means
    different things in different games (``target``); ``choices``: a choice's name, by
    (option key, value). ``flags``: a seat flag's label (SeatFlag.key). ``counts``: the
    standings' counts (StandingsReading.counts); ``book_columns`` and ``book_notes`` the
    players' book's (by column, or the rule a note is about). ``rule_titles``: each of the
    game's rules in a few words, by rule ID; ``rule_titles_with_options``: those naming a
    number the table chooses, with ``%(option)s`` placeholders. ``refusals``: the sentence
    of each (rule, code) the game refuses with, its params as ``%(name)s`` placeholders.
    ``item_titles``: what each score item is for, by rule, or by (rule, code) where the
    code says more (``item_titles_by_code``). ``fields``: the part of an entry a refusal
    names (its ``field`` param), keyed by the field with each index written ``[]``
    ("pairs[].melded"); ``%(n1)s``, ``%(n2)s`` are its indices counted from 1.
    ``endings``: the name of each of its hand endings (GameRules.hand_endings), where the
    pages' entry does not name it. ``hand_lines``: the history's line saying how a hand
    ended, by the key the game's ``hand_line`` gives (scoring/game.py), ``%(who)s`` the
    seat it names and the hand's numbers as their own placeholders. ``chances``: the hand
    review's name of a missed chance (scoring/review/model.py, Chance), by the rule the
    chance cites, where the game has its own word for it ("Could go gin" for GIN-GIN).
    ``moves``: a move button's name (its move, as the move form names it) where the game's
    own word says more than the pages' ("Knock / Gin").
    """

    options: Mapping[Any, str] = field(default_factory=_none)
    choices: Mapping[tuple[str, Any], str] = field(default_factory=_none)
    flags: Mapping[str, str] = field(default_factory=_none)
    counts: Mapping[str, str] = field(default_factory=_none)
    book_columns: Mapping[str, str] = field(default_factory=_none)
    book_notes: Mapping[str, str] = field(default_factory=_none)
    rule_titles: Mapping[str, str] = field(default_factory=_none)
    rule_titles_with_options: Mapping[str, str] = field(default_factory=_none)
    refusals: Mapping[tuple[str, str], str] = field(default_factory=_none)
    item_titles: Mapping[str, str] = field(default_factory=_none)
    item_titles_by_code: Mapping[tuple[str, str], str] = field(default_factory=_none)
    fields: Mapping[str, str] = field(default_factory=_none)
    endings: Mapping[str, str] = field(default_factory=_none)
    hand_lines: Mapping[str, str] = field(default_factory=_none)
    chances: Mapping[str, str] = field(default_factory=_none)
    moves: Mapping[str, str] = field(default_factory=_none)


@dataclass(frozen=True, slots=True)
class HandLine:
    """How one hand ended, as a game reads its result for the history's line: the key of
    its words (GameWords.hand_lines), the seat the line names (None: none) and the
    numbers it shows (each a placeholder of the words)."""

    key: str
    seat: int | None = None
    numbers: Mapping[str, int] = field(default_factory=_none)
