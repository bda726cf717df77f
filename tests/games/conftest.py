"""Shared fixtures, and which tests run against which servers.

Tests marked ``postgres`` need DATABASE_URL to point at PostgreSQL; tests marked
``celery_worker`` also need CELERY_BROKER_URL, and ``redis`` a Redis cache (CACHE_URL). On
the embedded defaults they are deselected
(reported in the summary), and CI's second run, against the real servers, runs them.
"""

import uuid

import pytest
from django.conf import settings

from games.tables import services as table_services
from tests.games.clubs_setup import club_world
from tests.html_ids import id_problems


def _on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _on_redis() -> bool:
    return settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        needs_pg = item.get_closest_marker("postgres") is not None
        needs_broker = item.get_closest_marker("celery_worker") is not None
        needs_redis = item.get_closest_marker("redis") is not None
        if (
            (needs_pg and not _on_postgres())
            or (needs_broker and not settings.CELERY_BROKER_URL)
            or (needs_redis and not _on_redis())
        ):
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_header(config):
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    broker = settings.CELERY_BROKER_URL or "none (tasks run eagerly)"
    return f"rummyref: database={engine}, celery broker={broker}"


@pytest.fixture
def append(db):
    """Append an event at the table's current head."""

    def do(table, event_type, payload, **kwargs):
        table.refresh_from_db()
        return table_services.event_append(
            table_id=table.id,
            event_id=kwargs.pop("event_id", uuid.uuid4()),
            expected_seq=kwargs.pop("expected_seq", table.head_seq),
            event_type=event_type,
            payload=payload,
            **kwargs,
        )

    return do


@pytest.fixture
def world(db, django_capture_on_commit_callbacks):
    """A club world (tests/games/clubs_setup.py): the club's owner, admin and member, an
    outsider, players, a Gin league and its season; what making it queued has run (on
    commit, as in the application; Celery is eager here)."""
    with django_capture_on_commit_callbacks(execute=True):
        return club_world()


@pytest.fixture(autouse=True)
def _pages_keep_their_ids_whole(monkeypatch):
    """Fail any test whose page answer gives an id twice or names one it lacks
    (tests/html_ids.py): every form error, every label, on every page a test opens."""
    from django.test import Client

    answer = Client.request

    def request(self, **request):
        response = answer(self, **request)
        html = "text/html" in response.get("Content-Type", "")
        if html and not getattr(response, "streaming", False):
            problems = id_problems(response.content.decode())
            assert not problems, (request.get("PATH_INFO"), response.status_code, problems)
        return response

    monkeypatch.setattr(Client, "request", request)
