"""The standings bench inside Django, on PostgreSQL and Redis (bench/standings.py runs it).

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... python -m bench.standings_server

migrates that database, builds a club with a 2,000-match Gin season, has one real Celery
worker recompute its standings from the logs, times the season and league standings pages,
then one more match finishing and the recompute it queues; prints one line of JSON. Settings
read DATABASE_URL and CELERY_BROKER_URL when Django starts, hence a process of its own.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Sequence
from datetime import timedelta
from itertools import count
from random import Random
from time import perf_counter
from typing import Any

from bench.logs import log_build
from bench.server import database_name, django_setup
from bench.spread import repeat
from scoring.events import TABLE_CREATED, LogEvent
from scoring.replay import replay

MATCHES = 2_000
PLAYERS = 40
SEATS = 2
# Gin Classic to 50, as the club tests' league: some six hands a match, so 2,000 matches
# are a season's worth of short logs.
LEAGUE_OPTIONS = {"preset": "classic", "target": 50}
TIEBREAKERS = ["head_to_head", "points_difference"]
# Matches 80 minutes apart (2,000 of them: the last four months), events 4 minutes apart:
# finish times order the matches for ratings, so they must differ as at a real club.
MATCH_EVERY, EVENT_EVERY = timedelta(minutes=80), timedelta(minutes=4)
# Long enough for any match to end: log_build stops there if it has not.
MATCH_EVENTS = 200
REQUESTS, WARMUP = 20, 3
# Seconds to wait: for the worker to answer a ping, for each recompute to land.
READY_TIMEOUT, FULL_TIMEOUT, INCREMENTAL_TIMEOUT = 60.0, 300.0, 60.0
SERVICE_RUNS, SERVICE_BUDGET = 5, 5.0
WORKER_LOG = 3_000  # characters of the worker's log shown when the bench fails
BENCH = "bench"


def club_build():
    """Make the club, its roster, a private Gin league and its season through the services,
    as the pages make them; return (owner, players, league, season)."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.clubs import services as club_services

    # "!" is Django's mark of an unusable password: the owner signs in with force_login.
    owner = User.objects.create(username="bench-owner", password="!")
    club = club_services.club_create(user=owner, name="Bench Club")
    players = [
        club_services.player_create(actor=owner, club_id=club.pk, name=f"Player {number:02}")
        for number in range(1, PLAYERS + 1)
    ]
    league = club_services.league_create(
        actor=owner,
        club_id=club.pk,
        name="Gin Bench",
        variant="gin",
        players=SEATS,
        options=LEAGUE_OPTIONS,
        tiebreakers=TIEBREAKERS,
    )
    today = timezone.localdate()
    season = club_services.season_create(
        actor=owner,
        league_id=league.pk,
        name="Bench season",
        starts_on=today - (MATCHES + 1) * MATCH_EVERY,
        ends_on=today + timedelta(days=30),
    )
    return owner, players, league, season


def match_logs(league, players: Sequence[Any], matches: int) -> list[tuple[list[Any], list]]:
    """Return ``matches`` finished Gin matches: two players drawn from the roster and a log
    that opens as table_create opens a league table (the league's full options, the players'
    names) and ends with the event that finished the match."""
    rng, seeds, found = Random(MATCHES), count(), []
    while len(found) < matches:
        builder = log_build("gin", MATCH_EVENTS, seed=next(seeds), options=league.options)
        if not builder.state.finished:
            continue
        events = builder.events
        seated = rng.sample(list(players), league.players)
        names = [player.name for player in seated]
        created = LogEvent(
            seq=1, event_type=TABLE_CREATED, payload={**events[0].payload, "seats": names}
        )
        found.append((seated, [created, *events[1:]]))
    return found


def tables_load(season, matches: Sequence[tuple[list[Any], list]], first_at) -> list:
    """Insert league tables in one go: the rows table_create and event_append write (seats
    of the club's players, hash-chained events, head, status, cached state); match n's
    events start ``n * MATCH_EVERY`` after ``first_at``.

    Appending 15,000 events one by one would replay each log once per event and take
    minutes; none of these inserts queues a task.
    """
    from django.db import transaction

    from games.models import Event, Seat, Table, TableProjection
    from games.tables.log import event_row

    league = season.league
    tables, seats, events, projections = [], [], [], []
    for number, (seated, log) in enumerate(matches):
        state = replay(log)
        table = Table(
            variant=league.variant,
            preset=league.preset,
            options=league.options,
            target=league.options["target"],
            season=season,
            status=Table.Status.FINISHED if state.finished else Table.Status.OPEN,
            head_seq=len(log),
        )
        table.keys_issue()  # bulk_create skips save(), which makes them
        began, prev = first_at + number * MATCH_EVERY, ""
        for event in log:
            row = event_row(
                table=table,
                seq=event.seq,
                prev_hash=prev,
                event_id=uuid.uuid4(),
                event_type=event.event_type,
                payload=event.payload,
                entered_by=BENCH,
                created_at=began + event.seq * EVENT_EVERY,
            )
            events.append(row)
            prev = row.hash
        table.head_hash = prev
        tables.append(table)
        seats += [Seat(table=table, position=n, player=p) for n, p in enumerate(seated)]
        projections.append(TableProjection(table=table, seq=len(log), state=state.to_dict()))
    with transaction.atomic():
        for model, rows in ((Table, tables), (Seat, seats), (Event, events)):
            model.objects.bulk_create(rows, batch_size=1_000)
        TableProjection.objects.bulk_create(projections, batch_size=1_000)
    return tables


def worker_ready() -> None:
    """Wait until the worker answers a ping, so its start-up is not counted in a recompute."""
    from rummyref.celery import app
    from tests.games.workers import wait_for

    if not wait_for(lambda: bool(app.control.ping(timeout=0.5)), timeout=READY_TIMEOUT):
        raise RuntimeError(f"the Celery worker did not answer in {READY_TIMEOUT:.0f} s")


def standings_read(season) -> dict[str, Any]:
    """Return the season's stored standings as the checks read them."""
    from games.models import SeasonStandings

    stored = SeasonStandings.objects.get(season=season)
    return {
        "matches": stored.matches,
        "played": sum(row["played"] for row in stored.rows),
        "computed_at": stored.computed_at,
    }


def full_recompute(season) -> dict[str, Any]:
    """Time "recompute everything" by the worker: from sending the task to the job row
    saying done (polled every 0.2 s), and the job's own start to finish."""
    from games.models import RecomputeJob
    from games.standings import tasks
    from tests.games.workers import wait_for

    job = RecomputeJob.objects.create()
    over = {RecomputeJob.Status.DONE, RecomputeJob.Status.FAILED}
    sent = perf_counter()
    tasks.standings_recompute_all.delay(job.pk)
    ended = wait_for(
        lambda: RecomputeJob.objects.filter(pk=job.pk, status__in=over).exists(),
        timeout=FULL_TIMEOUT,
    )
    wall = perf_counter() - sent
    job.refresh_from_db()
    if not ended or job.status != RecomputeJob.Status.DONE:
        raise RuntimeError(f"recompute job {job.status} after {wall:.0f} s: {job.error}")
    stored = standings_read(season)
    return {
        "wall": wall,
        "job": (job.finished_at - job.created_at).total_seconds(),
        "tables": job.done,
        "matches": stored["matches"],
        "played": stored["played"],
    }


def incremental_recompute(season, seated: list[Any], log: list) -> dict[str, Any]:
    """Load one more match but its last event, append that event through the service (its
    commit queues the season's recompute), and time from the append to the stored standings
    moving (polled every 0.2 s); then time the same recompute called in this process."""
    from django.utils import timezone

    from games.standings import services as standings_services
    from games.tables import services as table_services
    from tests.games.workers import wait_for

    (table,) = tables_load(season, [(seated, log[:-1])], timezone.now() - MATCH_EVERY)
    before = standings_read(season)["computed_at"]
    last = log[-1]
    started = perf_counter()
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=last.event_type,
        payload=last.payload,
        entered_by=BENCH,
    )
    moved = wait_for(
        lambda: standings_read(season)["computed_at"] > before, timeout=INCREMENTAL_TIMEOUT
    )
    wall = perf_counter() - started
    if not moved:
        raise RuntimeError(f"the standings did not move in {wall:.0f} s")
    stored = standings_read(season)
    service = repeat(
        lambda: standings_services.season_standings_recompute(season_id=season.pk),
        runs=SERVICE_RUNS,
        least=1,
        budget=SERVICE_BUDGET,
    )
    return {
        "wall": wall,
        "service": service,
        "matches": stored["matches"],
        "played": stored["played"],
    }


def page_times(owner, season) -> dict[str, list[float]]:
    """Time the season page and the league standings page as the club's owner sees them
    (a member: table links and the new-table form too)."""
    from django.test import Client

    league = season.league
    base = f"/clubs/{league.club.slug}/l/{league.slug}"
    browser = Client()
    browser.force_login(owner)
    times = {}
    for figure, url in (("season", f"{base}/s/{season.pk}/"), ("league", f"{base}/standings/")):

        def get(url: str = url) -> None:
            response = browser.get(url)
            if response.status_code != 200:
                raise RuntimeError(f"{url} answered {response.status_code}, not 200")

        for _ in range(WARMUP):
            get()
        times[figure] = repeat(get, runs=REQUESTS, least=REQUESTS, budget=0, collect_each=False)
    return times


def main() -> dict[str, Any]:
    """Run the bench on this process's database and broker; return what the report needs."""
    django_setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from rummyref.celery import app
    from tests.games.workers import worker_start, worker_stop

    call_command("migrate", interactive=False, verbosity=0)
    started = perf_counter()
    owner, players, league, season = club_build()
    *matches, extra = match_logs(league, players, MATCHES + 1)
    first_at = timezone.now() - (MATCHES + 1) * MATCH_EVERY
    tables_load(season, matches, first_at)
    built = perf_counter() - started
    app.control.purge()  # tasks left on this broker database by an earlier run
    # As production runs it (DEBUG off: no query log kept in the worker's memory).
    worker = worker_start(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        LOG_CHAIN_KEY=secrets.token_urlsafe(32),
        ALLOWED_HOSTS="localhost",
    )
    try:
        worker_ready()
        full = full_recompute(season)
        pages = page_times(owner, season)
        incremental = incremental_recompute(season, *extra)
    except Exception as exc:
        # The worker's log often says why (a task that failed, a database it cannot reach).
        log = worker_stop(worker)[-WORKER_LOG:]
        raise RuntimeError(f"{exc}\nThe worker's log ends:\n{log}") from exc
    finally:
        if worker.poll() is None:
            worker_stop(worker)
    return {
        "database": database_name(connection),
        "built": built,
        "events": sum(len(log) for _, log in matches),
        # Hands a match, from the first 100: replaying all 2,000 again would take seconds.
        "hands": sum(len(replay(log).hands) for _, log in matches[:100]) / 100,
        "full": full,
        "incremental": incremental,
        "pages": pages,
    }


if __name__ == "__main__":
    print(json.dumps(main()))
