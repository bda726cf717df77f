"""What the night tests share: Burraco in the registry, for its pairs nights."""

import pytest

from scoring.variants import GAMES, burraco, register, unregister


@pytest.fixture
def burraco_game():
    """Burraco in the registry for the test (it joins for good once every page takes it), as
    tests/games/pages/test_burraco_pages.py has it."""
    added = burraco.GAME.key not in GAMES
    if added:
        register(burraco.GAME)
    yield burraco.GAME
    if added:
        unregister(burraco.GAME.key)
