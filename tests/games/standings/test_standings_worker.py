"""A worker killed in the middle of a standings recompute: after redelivery to another
worker, the standings are complete and correct (PostgreSQL, Redis, real workers).

The recompute is caught mid-way for certain, not by timing: the test holds a row lock on
the match result the recompute must rewrite, so the worker's transaction waits there,
having locked the league and read the logs. The worker process is then killed (SIGKILL:
no goodbye to the broker or the database), as by a power cut or the OOM killer.
"""

import os
import signal

import psycopg
import pytest
from django.db import connection

from games.models import SeasonStandings
from games.standings import services as standings_services
from rummyref.celery import app
from tests.games.clubs_setup import club_world, record
from tests.games.standings.test_standings_recompute import rows_by_name, small_season
from tests.games.workers import wait_for, worker_start, worker_stop
from tests.payloads import quick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

# Redelivery of a task whose worker vanished: after this many seconds unacknowledged.
VISIBILITY = "2"
WORKER = {"CELERY_VISIBILITY_TIMEOUT": VISIBILITY, "CELERY_RESTORE_INTERVAL": "1"}


def _waiting_on_result_row(watcher: psycopg.Connection) -> int | None:
    """Return the PostgreSQL backend stuck on the result row the test holds, if any."""
    row = watcher.execute(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND query ILIKE '%%games_matchresult%%'"
    ).fetchone()
    return row[0] if row else None


def _connect(**kwargs) -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"],
        user=settings["USER"],
        dbname=settings["NAME"],
        **kwargs,
    )


def test_a_recompute_killed_mid_way_is_redone_in_full():
    app.control.purge()
    world = club_world()
    tables = small_season(world)
    # The season's recomputes queued so far are the test's own business: drop them and
    # compute the standings here, so the only task the workers see is the one killed.
    app.control.purge()
    standings_services.season_standings_recompute(season_id=world.season.pk)
    assert rows_by_name(world)["Anna"]["points_for"] == 105

    with _connect(autocommit=False) as blocker, _connect(autocommit=True) as watcher:
        blocker.execute(
            "SELECT 1 FROM games_matchresult WHERE table_id = %s FOR UPDATE", [tables[0].id]
        )
        # Bruno held 40, not 30: Anna's gin is worth 25 + 40 = 65 (the module docstring of
        # test_standings_recompute). The append commits and queues the recompute.
        record(
            tables[0],
            {**quick(0, "gin", 0, 40), "hand": 1, "reason": "recount"},
            world.member,
            "hand_amended",
        )
        first = worker_start(**WORKER)
        try:
            caught = wait_for(lambda: _waiting_on_result_row(watcher) is not None)
            if not caught:
                pytest.fail("the recompute never reached the result row:\n" + worker_stop(first))
            pid = _waiting_on_result_row(watcher)
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=20)
        finally:
            # The dead worker's backend goes on, finds its client gone and rolls back.
            blocker.rollback()
            worker_stop(first)
        gone = "SELECT 1 FROM pg_stat_activity WHERE pid = %s"
        assert wait_for(lambda: watcher.execute(gone, [pid]).fetchone() is None)
    # Nothing of the killed recompute was kept: its transaction was rolled back whole.
    assert rows_by_name(world)["Anna"]["points_for"] == 105
    second = worker_start(**WORKER)
    try:
        redone = wait_for(lambda: rows_by_name(world)["Anna"]["points_for"] == 115, timeout=60)
    finally:
        log = worker_stop(second)
    assert redone, "the task was not redelivered:\n" + log
    assert "season_standings_recompute" in log
    rows = rows_by_name(world)
    # The whole season, as worked by hand, with the amendment: Anna 115 for, Bruno 165
    # against; the ranks and the tie-break unchanged.
    assert [rows[name]["rank"] for name in ("Anna", "Carla", "Bruno")] == [1, 2, 3]
    assert (rows["Anna"]["points_for"], rows["Bruno"]["points_against"]) == (115, 165)
    assert (rows["Carla"]["points_for"], rows["Carla"]["points_against"]) == (100, 131)
    assert rows["Carla"]["tiebreak"] == "points_difference"
    standing = SeasonStandings.objects.get(season=world.season)
    tables[0].refresh_from_db()
    assert standing.reflects[str(tables[0].id)] == tables[0].head_seq
    assert standing.matches == 4
    # And exactly what a recompute from every log gives.
    standings_services.league_standings_recompute(league_id=world.league.pk, fresh=True)
    again = SeasonStandings.objects.get(season=world.season)
    assert (again.rows, again.ratings, again.reflects) == (
        standing.rows,
        standing.ratings,
        standing.reflects,
    )
