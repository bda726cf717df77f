"""The games the engine knows, one package each, and the registry the shared engine reads.

Each package (scoring/variants/<game>/) builds one ``GameRules`` (scoring/game.py) as
``GAME``; no game imports another. Adding a game is adding its package and its line here
(and its rules text and sentences): docs/design.md, "Adding a game".
"""

import copyreg
from collections.abc import Mapping
from types import MappingProxyType

from scoring.errors import RuleViolation, Violation
from scoring.game import GameRules
from scoring.variants import burraco, canasta, gin, knock_rummy, ramino, rummy40, scala40

_REGISTERED: dict[str, GameRules] = {
    game.key: game
    for game in (
        gin.GAME,
        rummy40.GAME,
        ramino.GAME,
        knock_rummy.GAME,
        scala40.GAME,
        burraco.GAME,
        canasta.GAME,
    )
}
# Read-only for everyone: a game joins through ``register`` alone.
GAMES: Mapping[str, GameRules] = MappingProxyType(_REGISTERED)


def register(game: GameRules) -> None:
    """Add ``game`` to the registry, after those already there.

    The games are listed above; this is for a game defined elsewhere (the stub game the tests
    register to prove that nothing outside a game's package names it). Everything that reads
    the registry reads it when asked, never once at import, so a game registered late is
    offered everywhere."""
    if game.key in _REGISTERED:
        raise ValueError(f"A game named {game.key!r} is registered already.")
    _REGISTERED[game.key] = game


def unregister(key: str) -> None:
    """Take the game ``key`` out of the registry (a test's stub game, once the test is over)."""
    del _REGISTERED[key]


def game_get(key: object) -> GameRules:
    """Return the game named ``key`` or refuse it."""
    if not isinstance(key, str) or key not in GAMES:
        raise RuleViolation(
            Violation(
                rule="EVENT",
                code="unknown_variant",
                message="Unknown game; choose one of: " + ", ".join(GAMES) + ".",
                params={"variant": str(key), "choices": list(GAMES)},
            )
        )
    return GAMES[key]


def new_table_options(variant: object, options: object) -> object:
    """Return the options a new table of the game ``variant`` is created with: what it names
    over the game's ``new_table_defaults``. An unknown game, or options that are no dict,
    come back as they are, for the table's creation to refuse."""
    game = GAMES.get(variant) if isinstance(variant, str) else None
    return options if game is None else game.new_table_options(options)


def _pickled_as_its_name(game: GameRules) -> tuple:
    # A game is one of a fixed set, and some of its functions are lambdas: a pickled state
    # (the snapshot a table's appends start from) names its game and takes it back by name.
    return (game_get, (game.key,))


copyreg.pickle(GameRules, _pickled_as_its_name)
