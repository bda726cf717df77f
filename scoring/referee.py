"""The referee: answer one question about cards under a game's rules, citing the rules.

Questions (the referee API and page ask them): ``meld`` (is it legal, what is it worth),
``hand`` (best arrangement and count, can the hand knock or go out, best opening),
``opening`` (does it reach the minimum), ``layoff`` (where can cards be laid off),
``rearrangement`` (Knock Rummy table moves) and ``score`` (one hand's end state). Each game
lists the ones it has (``RefereeRules.questions``); the shared answers are in
scoring/questions.py, Gin's own in scoring/variants/gin/referee.py.

Answers are plain dicts: cards as notation strings, ``violations`` as Violation objects and
``rules`` as rule IDs, which the caller renders in its language. A request the engine cannot
read (unknown card, too many copies, wrong card count, an option the game lacks) raises
RuleViolation: that is bad input, not a verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import refusal as _refuse
from scoring.questions import not_in_game, referee_table
from scoring.variants import GAMES

VARIANTS: tuple[str, ...] = tuple(GAMES)


def answer(question: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer ``question`` about the cards in ``data`` under its game's rules."""
    variant = data.get("variant")
    if variant not in GAMES:
        raise _refuse(
            "REFEREE",
            "unknown_variant",
            f"Unknown game '{variant}'; choose one of {', '.join(VARIANTS)}.",
            variant=str(variant),
            choices=list(VARIANTS),
        )
    game = GAMES[variant]
    table = referee_table(game, data)
    handler = game.referee.questions.get(question)
    if handler is None:
        raise not_in_game(question, table)
    return handler(table, data)


def table_options(data: Mapping[str, Any]) -> dict[str, Any]:
    """Return the options a question is answered under, every one explicit (defaults
    included): what the rules it cites are titled with. Empty for a game the engine lacks."""
    game = GAMES.get(data.get("variant"))
    if game is None:
        return {}
    return game.options_to_dict(referee_table(game, data).options)
