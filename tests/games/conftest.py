"""Shared fixtures, and which tests run against which servers.

Tests marked ``postgres`` need DATABASE_URL to point at PostgreSQL; tests marked
``celery_worker`` also need CELERY_BROKER_URL, and ``redis`` a Redis cache (CACHE_URL). On
the embedded defaults they are deselected
(reported in the summary), and CI's second run, against the real servers, runs them.
"""

import uuid

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games.clubs import groups
from games.tables import services as table_services
from rummyref.celery import app as celery_app
from scoring import samples
from tests.factories import TableFactory, UserFactory
from tests.games.book_setup import friday_gin, group_make
from tests.games.clubs_setup import club_world
from tests.games.review_setup import sample_table
from tests.games.workers import worker_start, worker_stop
from tests.html_ids import id_problems
from tests.payloads import quick


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


@pytest.fixture
def api_client(db):
    """A REST framework test client on the test database, with no table key or user yet."""
    return APIClient()


@pytest.fixture
def api_gin_table(db):
    """The API's answer to creating a Gin table for Anna and Bruno: its id and both keys."""
    answer = APIClient().post(
        "/api/v1/tables/", {"variant": "gin", "players": ["Anna", "Bruno"]}, format="json"
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


@pytest.fixture
def gin_table_with_one_hand(append):
    """A Gin table of Anna and Bruno where Anna knocked with 7 against 20 (Anna 13)."""
    table = TableFactory(players=("Anna", "Bruno"))
    append(table, "hand_recorded", quick(0, "knock", 7, 20))
    table.refresh_from_db()
    return table


@pytest.fixture
def group_manager(db):
    """The user gina, who makes and manages the groups of these tests."""
    return UserFactory(username="gina")


@pytest.fixture
def thursday_friends(group_manager):
    """gina's Gin group "Thursday friends" of Anna and Bruno."""
    return groups.group_create(
        name="Thursday friends",
        players=["Anna", "Bruno"],
        variant="gin",
        options={},
        user=group_manager,
    )


@pytest.fixture
def reviewed_gin_table(db):
    """A table holding the reviewed Gin sample of scoring.samples, played move by move."""
    return sample_table(samples.reviewed_of("gin"))


@pytest.fixture
def four_matches_played(world, django_capture_on_commit_callbacks):
    """The club world after the four matches that tests/games/standings/
    test_standings_exports.py works by hand; the world and those tables."""
    from tests.games.standings.test_standings_exports import four_matches

    with django_capture_on_commit_callbacks(execute=True):
        tables = four_matches(world)
    return world, tables


@pytest.fixture
def friday_gin_group(db, django_capture_on_commit_callbacks):
    """The Friday group's three Gin matches (tests/games/book_setup.py), what they queued on
    commit run; the group, its players and the tables."""
    group, players = group_make()
    with django_capture_on_commit_callbacks(execute=True):
        tables = friday_gin(group, players)
    return group, players, tables


@pytest.fixture
def worker_process():
    """A real Celery worker process on the test database and the configured broker."""
    celery_app.control.purge()  # leftovers of earlier tests point at tables that are gone
    process = worker_start()
    yield process
    worker_stop(process)


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
