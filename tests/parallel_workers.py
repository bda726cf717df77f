"""State of its own for each process of a parallel run (`pytest -n 2`, pytest-xdist).

pytest-django gives each worker a test database of its own (test_rummyref_gw0, …_gw1). The
rest of what the tests share is split here, before any test runs:

- the cache: every test empties it (tests/conftest.py), and emptying a Redis cache empties
  its whole database. Worker gwN uses CACHE_URL's database number + N, or a folder gwN
  inside the file cache's folder.
- the Celery broker: a real worker that one process starts would take another's tasks, for
  tables in a database it cannot see. Worker gwN uses CELERY_BROKER_URL's database + N.

The environment is set to match, for the servers and workers the tests start. Everything
else the tests write (checkpoint logs, servers' databases and logs) is under each test's own
tmp_path; roles and databases made on PostgreSQL take random names; each process takes
its ports from a block of its own (tests/ports.py).
"""

import os
from urllib.parse import urlsplit, urlunsplit

import pytest

# Redis's default count of numbered databases (0 to 15).
REDIS_DATABASES = 16


def worker_number() -> int | None:
    """This process's number in a parallel run (0 for gw0), or None outside one."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name.removeprefix("gw")) if name.startswith("gw") else None


def _redis_database(url: str) -> int:
    return int(urlsplit(url).path.strip("/") or 0)


def _with_database(url: str, database: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def _numbers_in_use(urls: dict[str, str], workers: int) -> None:
    """Refuse to start if two workers' Redis databases would meet or run past the last one."""
    taken: dict[tuple[str, int], str] = {}
    for name, url in urls.items():
        first = _redis_database(url)
        for database in range(first, first + workers):
            place = (urlsplit(url).netloc, database)
            if database >= REDIS_DATABASES:
                problem = f"database {database}, which Redis does not have"
            elif place in taken:
                problem = f"database {database}, which {taken[place]} needs too"
            else:
                taken[place] = name
                continue
            raise pytest.UsageError(
                f"{workers} test processes: {name} would need Redis {problem} (process gwN "
                "uses the URL's number + N). Choose numbers further apart or fewer processes."
            )


def give_this_worker_its_own_state(settings) -> None:
    """Point this worker's cache and broker (settings and environment) at its own."""
    number = worker_number()
    if number is None:
        return
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", number + 1))
    redis = {
        name: url
        for name, url in (
            ("CACHE_URL", os.environ.get("CACHE_URL", "")),
            ("CELERY_BROKER_URL", settings.CELERY_BROKER_URL),
        )
        if url.startswith("redis://")
    }
    _numbers_in_use(redis, workers)
    if "CACHE_URL" in redis:
        own = _with_database(redis["CACHE_URL"], _redis_database(redis["CACHE_URL"]) + number)
        os.environ["CACHE_URL"] = own
    else:
        own = os.path.join(settings.CACHES["default"]["LOCATION"], f"gw{number}")
        os.environ["CACHE_DIR"] = own
    for cache in settings.CACHES.values():
        cache["LOCATION"] = own
    if "CELERY_BROKER_URL" in redis:
        broker = redis["CELERY_BROKER_URL"]
        settings.CELERY_BROKER_URL = _with_database(broker, _redis_database(broker) + number)
        os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
        from rummyref.celery import app

        if app.configured:  # read Django's settings already: tell it too
            app.conf.broker_url = settings.CELERY_BROKER_URL
