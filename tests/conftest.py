"""Test root. Most Django-side fixtures live in tests/games/conftest.py; tests/scoring needs
none. Celery's switch to in-process is here: the browser tests need it too."""

import pytest


@pytest.fixture
def eager_celery():
    """Run tasks in-process for this test, whatever broker is configured."""
    from rummyref.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = previous
