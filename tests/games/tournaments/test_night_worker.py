"""A real Celery worker on PostgreSQL and Redis works a night's standings out when a table's
result moves, a correction included; the pages then read what it kept."""

import uuid

import pytest
from django.core.cache import cache

from games.tables import services as table_services
from games.tournaments import selectors
from rummyref.celery import app
from tests.games.clubs_setup import club_world
from tests.games.tournaments.helpers import finish_gin_table, gin_night_started
from tests.games.workers import wait_for, worker_start, worker_stop
from tests.payloads import quick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def worker():
    app.control.purge()  # leftovers of earlier tests point at tables that are gone
    process = worker_start()
    yield process
    worker_stop(process)


def _kept_vps(tournament) -> dict[str, int] | None:
    """Return the standings the worker kept for the night as it is now, by name, if any."""
    lines = cache.get(selectors._standings_key(tournament))
    if lines is None:
        return None
    return {line.name: int(line.row.victory_points) for line in lines}


def test_the_worker_follows_a_result_and_its_correction(worker):
    night, started = gin_night_started(club_world())
    table = started.tables[0]
    first, second = (seat.player.name for seat in table.seats.order_by("position"))
    # The first seat goes gin against 30 (55, past 50); both confirm.
    finish_gin_table(table.id)
    if not wait_for(lambda: _kept_vps(night) == {first: 3, second: 0}):
        pytest.fail("the worker never kept the standings:\n" + worker_stop(worker))
    # A recount: it was the second seat's gin. The correction moves the result.
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=4,
        event_type="hand_amended",
        payload={**quick(1, "gin", 0, 30), "hand": 1, "reason": "recount"},
    )
    if not wait_for(lambda: _kept_vps(night) == {first: 0, second: 3}):
        pytest.fail("the worker never followed the correction:\n" + worker_stop(worker))
    # The correction asks the players to confirm again: the next round waits for them.
    assert selectors.night_results(tournament=night).to_confirm
