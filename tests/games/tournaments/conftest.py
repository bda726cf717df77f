"""What the night tests share: the director signed in, and Burraco in the registry for its
pairs nights."""

import pytest
from django.test import Client

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


@pytest.fixture
def director(world):
    """A client signed in as the club's admin, who directs the nights."""
    client = Client()
    client.force_login(world.admin)
    return client
