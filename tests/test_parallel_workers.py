"""Each process of a parallel run gets its own cache and broker (tests/parallel_workers.py)."""

import os
from types import SimpleNamespace

import pytest

from tests.parallel_workers import give_this_worker_its_own_state

CACHE = "redis://127.0.0.1:6379/11"
BROKER = "redis://127.0.0.1:6379/13"


def _settings(cache_location: str, broker: str = "") -> SimpleNamespace:
    caches = {name: {"LOCATION": cache_location} for name in ("default", "template_fragments")}
    return SimpleNamespace(CACHES=caches, CELERY_BROKER_URL=broker)


@pytest.fixture
def environment(monkeypatch):
    """This process's environment, put back after the test, with no parallel run in it."""
    names = ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "CACHE_URL", "CACHE_DIR")
    for name in (*names, "CELERY_BROKER_URL"):
        # Set first, so that monkeypatch puts back even a variable that was not there: the
        # code under test writes these, and the tests after this one must not see them.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)

    def as_worker(name: str, count: int, **env: str) -> None:
        monkeypatch.setenv("PYTEST_XDIST_WORKER", name)
        monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(count))
        for key, value in env.items():
            monkeypatch.setenv(key, value)

    return as_worker


class TestOneProcessOfAParallelRun:
    def test_outside_a_parallel_run_nothing_changes(self, environment):
        settings = _settings(CACHE, BROKER)
        give_this_worker_its_own_state(settings)
        assert settings.CACHES["default"]["LOCATION"] == CACHE
        assert settings.CELERY_BROKER_URL == BROKER

    def test_the_second_process_takes_the_next_redis_databases(self, environment):
        environment("gw1", 2, CACHE_URL=CACHE)
        settings = _settings(CACHE, BROKER)
        give_this_worker_its_own_state(settings)
        own_cache = "redis://127.0.0.1:6379/12"
        assert [c["LOCATION"] for c in settings.CACHES.values()] == [own_cache, own_cache]
        assert settings.CELERY_BROKER_URL == "redis://127.0.0.1:6379/14"
        # The servers and workers a test starts read the same from the environment.
        assert os.environ["CACHE_URL"] == own_cache
        assert os.environ["CELERY_BROKER_URL"] == settings.CELERY_BROKER_URL

    def test_the_first_process_keeps_the_configured_databases(self, environment):
        environment("gw0", 2, CACHE_URL=CACHE)
        settings = _settings(CACHE, BROKER)
        give_this_worker_its_own_state(settings)
        assert settings.CACHES["default"]["LOCATION"] == CACHE
        assert settings.CELERY_BROKER_URL == BROKER

    def test_the_file_cache_gets_a_folder_per_process(self, environment, tmp_path):
        environment("gw1", 2)
        settings = _settings(str(tmp_path))
        give_this_worker_its_own_state(settings)
        assert settings.CACHES["default"]["LOCATION"] == str(tmp_path / "gw1")
        assert os.environ["CACHE_DIR"] == str(tmp_path / "gw1")
        assert settings.CELERY_BROKER_URL == ""

    def test_databases_that_two_processes_would_share_are_refused(self, environment):
        # Cache 12 and 13 for two processes: 13 is the broker's first.
        environment("gw0", 2, CACHE_URL="redis://127.0.0.1:6379/12")
        with pytest.raises(pytest.UsageError, match="database 13, which CACHE_URL needs too"):
            give_this_worker_its_own_state(_settings("redis://127.0.0.1:6379/12", BROKER))

    def test_databases_past_redis_s_last_are_refused(self, environment):
        environment("gw0", 3, CACHE_URL=CACHE)
        broker = "redis://127.0.0.1:6379/14"
        with pytest.raises(pytest.UsageError, match="database 16, which Redis does not have"):
            give_this_worker_its_own_state(_settings(CACHE, broker))
