"""The words a game brings in its own package (GameRules.words, scoring/words.py), found
for the pages' catalogues and translated when shown.

games/rules/game_words.py, text.py and verdicts.py hold the words of the games that came
before the hook; a game added since keeps its labels, titles and refusal sentences in its
package (scoring/variants/<game>/words.py). Each lookup here asks the game's words first,
and the caller falls back to its own catalogue. The registry is read when asked, never at
import, so a game registered late (a test's stub game) is found too.
"""

import re
from collections.abc import Iterator, Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.game import GameRules
from scoring.variants import GAMES
from scoring.words import GameWords


def game_of_rule(rule: str) -> GameRules | None:
    """Return the game whose rules' IDs start as ``rule`` does, or None (a shared rule)."""
    return next(
        (game for game in GAMES.values() if game.rule_prefix and rule.startswith(game.rule_prefix)),
        None,
    )


def own_word(game: GameRules | None, part: str, *keys: Any) -> str | None:
    """Return the game's own word for the first of ``keys`` its catalogue ``part`` (a field
    of GameWords) holds, in the active language; None where it has none."""
    words = game.words if game is not None else None
    if words is None:
        return None
    catalogue: Mapping[Any, str] = getattr(words, part)
    return next((gettext(catalogue[key]) for key in keys if key in catalogue), None)


# An index in an entry's field ("pairs[1].melded"), written "[]" in the field's key.
_INDEX = re.compile(r"\[(\d+)\]")


def own_field_name(game: GameRules | None, field: str) -> str | None:
    """Return the game's own name for a part of its entry ("pair 2, cards melded" for
    pairs[1].melded), in the active language; None where it has none. Without a game (a
    shared rule's refusal, CARD-2 in a pair's melds), any registered game's word for it."""
    key = _INDEX.sub("[]", field)
    games = [game] if game is not None else list(GAMES.values())
    text = next((word for each in games if (word := own_word(each, "fields", key))), None)
    if text is None:
        return None
    numbers = {f"n{place}": int(index) + 1 for place, index in enumerate(_INDEX.findall(field), 1)}
    try:
        return text % numbers
    except (KeyError, TypeError, ValueError):
        return text  # a translation naming an index the field lacks: the words alone


def own_hand_line(game: GameRules | None, result: Mapping[str, Any], seats: Any) -> str | None:
    """Return the game's own line for how a hand ended (GameRules.hand_line, its words'
    ``hand_lines``), in the active language; None where it has none for this result."""
    line = game.hand_line(result) if game is not None and game.hand_line is not None else None
    if line is None:
        return None
    text = own_word(game, "hand_lines", line.key)
    if text is None:
        return None
    named = 0 <= line.seat < len(seats) if line.seat is not None else False
    params = {**line.numbers, "who": seats[line.seat] if named else ""}
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text  # a translation naming a number the line lacks: the words alone


def _every_words() -> Iterator[GameWords]:
    return (game.words for game in GAMES.values() if game.words is not None)


class WithGamesWords(Mapping):
    """A page catalogue with every registered game's own entries of ``part`` over it.

    For the catalogues keyed so that no two games share a key ((rule, code), a rule ID):
    a game's entry is found whichever game is asking, and comes back lazy, so it is
    translated where it is shown, like the catalogue's own entries. A shared rule's
    refusal that two games both word (CARD-3) takes the first registered game's sentence.
    """

    def __init__(self, base: Mapping[Any, Any], part: str) -> None:
        self._base = base
        self._part = part

    def _own(self) -> dict[Any, str]:
        own: dict[Any, str] = {}
        for words in _every_words():
            for key, text in getattr(words, self._part).items():
                own.setdefault(key, text)
        return own

    def __getitem__(self, key: Any) -> Any:
        for words in _every_words():
            text = getattr(words, self._part).get(key)
            if text is not None:
                return gettext_lazy(text)
        return self._base[key]

    def __iter__(self) -> Iterator[Any]:
        return iter({**dict.fromkeys(self._base), **dict.fromkeys(self._own())})

    def __len__(self) -> int:
        return len(set(self._base) | set(self._own()))
