"""Test root. Most Django-side fixtures live in tests/games/conftest.py; tests/scoring needs
none. Celery's switch to in-process is here: the browser tests need it too. The Hypothesis
profiles (tests/hypothesis_profiles.py) are registered and chosen here, and each process of
a parallel run (-n 2) given a cache and a broker of its own (tests/parallel_workers.py)."""

import pytest
from django.conf import settings

from tests.hypothesis_profiles import load_profile_from_environment
from tests.parallel_workers import give_this_worker_its_own_state

# Before any test module is imported: their examples(n) read the profile's numbers.
load_profile_from_environment()
# Before any test runs: in a parallel run, this process's own cache and broker.
give_this_worker_its_own_state(settings)


@pytest.fixture(autouse=True)
def _fresh_caches():
    # Throttle counters live in the shared cache (a live server's requests count there
    # too); each test starts with none spent, and with no table state kept from another.
    from django.core.cache import cache

    from games.tables import snapshots

    cache.clear()
    snapshots.forget_here()


@pytest.fixture(autouse=True)
def _checkpoint_log_of_its_own(settings, tmp_path):
    # Each test's checkpointing runs write their lines to a file of its own, never the repo's.
    settings.CHECKPOINT_LOG = str(tmp_path / "checkpoints.jsonl")


@pytest.fixture(autouse=True)
def _english_again_after_each_test():
    # A test client request in Italian leaves Italian active in this thread; the next test
    # would read Italian where it expects the default language.
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def eager_celery():
    """Run tasks in-process for this test, whatever broker is configured."""
    from rummyref.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = previous


@pytest.fixture(scope="session", autouse=True)
def _flush_steps_round_the_log_guard():
    """Let the test runner empty its PostgreSQL database between transactional tests.

    The event log refuses TRUNCATE (migration 0006), and Django empties the database with
    TRUNCATE. The test database's superuser runs that one statement list in replica mode,
    which skips ordinary triggers; no application role can (it needs a superuser).
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        return original(self, ["SET LOCAL session_replication_role = replica", *sql_list])

    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    DatabaseOperations.execute_sql_flush = original
