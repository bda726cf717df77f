"""The deployment tests: real nginx, gunicorn, PostgreSQL and Redis. Tests marked for a
server are deselected where it is not configured, as everywhere (tests/games/conftest.py)."""

from tests.games.conftest import pytest_collection_modifyitems  # noqa: F401
