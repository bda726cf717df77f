"""Gin's own words for the pages: its endings' names, the history's line for each way a
hand ends, the review's names of its ways out missed, its knock button's and the refusal of
a meld laid in play (scoring/words.py says how the pages find and translate them). Its
other labels, titles and refusals predate GameWords and are still the pages' catalogues'
(games/rules/game_words.py, text.py, verdicts.py).

Each string is marked with ``gettext_noop`` below, a no-op of our own (the engine has no
Django), which ``makemessages`` finds by its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.variants.gin.options import BIG_GIN, GIN, KNOCK, WALL
from scoring.words import GameWords, HandLine


def gettext_noop(text: str) -> str:
    """Return ``text`` as it is: the mark that has makemessages extract it."""
    return text


UNDERCUT = "undercut"

# Its ways out beside the knock and the wall, which the hand entry names itself.
ENDINGS = {GIN: gettext_noop("Gin"), BIG_GIN: gettext_noop("Big Gin")}

# %(who)s is the seat that ended the hand, %(k)s its count, %(d)s the defender's.
HAND_LINES = {
    WALL: gettext_noop("Wall: the stock ran down, no score"),
    BIG_GIN: gettext_noop("%(who)s: Big Gin (defender %(d)s)"),
    GIN: gettext_noop("%(who)s: Gin (defender %(d)s)"),
    UNDERCUT: gettext_noop("%(who)s knocked with %(k)s, undercut with %(d)s"),
    KNOCK: gettext_noop("%(who)s knocked with %(k)s against %(d)s"),
}


def hand_line(result: Mapping[str, Any]) -> HandLine | None:
    """Return the line of a hand's result (GIN-KNOCK, GIN-UNDERCUT, GIN-GIN, GIN-BIGGIN,
    GIN-WALL); None for a result that is not one of Gin's hands."""
    ending = result.get("ending")
    if ending == WALL:
        return HandLine(WALL)
    knocker, k, d = (result.get(name) for name in ("knocker", "knocker_count", "defender_count"))
    if ending not in HAND_LINES or not all(isinstance(n, int) for n in (knocker, k, d)):
        return None
    key = UNDERCUT if ending == KNOCK and result.get("undercut") else ending
    return HandLine(key, knocker, {"k": k, "d": d})


# The review's missed chances of going out every card melded, by the rule each cites
# (scoring/review/model.py: ALL_MELDED, ALL_MELDED_NO_DISCARD).
CHANCES = {
    "GIN-GIN": gettext_noop("Could go gin"),
    "GIN-BIGGIN": gettext_noop("Could go Big Gin"),
}

# The knock button of a hand played move by move: a knock, gin or Big Gin, as the cards
# kept show.
MOVES = {"knock": gettext_noop("Knock / Gin")}

# A meld laid in play (PlayRules.melds_in_play_code), refused under Gin's turn rule.
REFUSALS = {
    ("GIN-TURN", "gin_melds"): gettext_noop(
        "Gin melds are shown when knocking, not laid during play."
    ),
}

WORDS = GameWords(
    endings=ENDINGS, hand_lines=HAND_LINES, chances=CHANCES, moves=MOVES, refusals=REFUSALS
)
