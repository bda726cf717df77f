"""Worked hands, read from the registry: each game's own are in its package
(scoring/variants/<game>/samples.py) and reach the API docs, the demo, the bench and the tests
through its ``GameRules.examples``, so a game registered is in all of them, and one without
its examples fails tests/scoring/test_game_examples.py.

Each sample is a table (game, options, players) and the events a phone appends after the
table's creation, with the hand's points worked out by hand from docs/rules.md in comments.
"""

from scoring.game import GameExamples, SampleHand
from scoring.variants import GAMES

__all__ = ["SampleHand", "examples_of", "played", "played_of", "reviewed", "reviewed_of"]


def examples_of(variant: str) -> GameExamples:
    """Return the worked examples of the game ``variant``, or refuse a game without them."""
    examples = GAMES[variant].examples
    if examples is None:
        raise LookupError(f"The game {variant!r} gives no worked examples (GameRules.examples).")
    return examples


def played_of(variant: str) -> SampleHand:
    """Return the game's hand played move by move."""
    return examples_of(variant).played


def reviewed_of(variant: str) -> SampleHand:
    """Return the game's hand whose every draw names its card, for the hand review."""
    reviewed = examples_of(variant).reviewed
    if reviewed is None:
        raise LookupError(f"The game {variant!r} gives no reviewed hand (GameExamples.reviewed).")
    return reviewed


def played() -> tuple[SampleHand, ...]:
    """Return every registered game's hand played move by move, in the registry's order.

    A game without one is left out here (the API docs still load), and fails
    tests/scoring/test_game_test_data.py."""
    return tuple(game.examples.played for game in GAMES.values() if game.examples)


def reviewed() -> tuple[SampleHand, ...]:
    """Return every registered game's reviewed hand, in the registry's order (a game without
    one left out, as in ``played``)."""
    return tuple(
        game.examples.reviewed
        for game in GAMES.values()
        if game.examples and game.examples.reviewed
    )
