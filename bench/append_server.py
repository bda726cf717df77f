"""The API append bench inside Django, on the setup the environment names (bench/append.py
runs it, once per setup).

    DATABASE_URL=... [CELERY_BROKER_URL=... CACHE_URL=...] python -m bench.append_server

migrates that database, loads a table at 20, 300 and 1,500 hands and times appends at its
head through the API (POST /api/v1/tables/{id}/events/), each by itself: with a broker, one
real Celery worker verifies each append before the next is sent (as appends at a table come
seconds apart); without one, the verification runs in the request (eager Celery), as under
``make run``. Prints one line of JSON. Settings read the environment when Django starts,
hence a process of its own.
"""

from __future__ import annotations

import json
import secrets
import uuid
from time import perf_counter
from typing import Any

from bench.logs import log_build
from bench.server import database_name, django_setup, table_load
from scoring.replay import apply

HANDS = (20, 300, 1_500)
# Knock Rummy, four seats, to 1,000,000 points: the one game whose match runs to 1,500 hands
# entered whole. Corrections are drawn as at a real table (bench/logs.py, about 1 in 16).
VARIANT, SEATS, SEED = "knock_rummy", 4, 1_500
# Appends timed at each length, after one untimed one (the first after loading replays the
# log: nothing kept its state yet, as after a server restart).
APPENDS = 20
LOG_EVENTS = 1_700
READY_TIMEOUT, VERIFY_TIMEOUT = 60.0, 60.0
WORKER_LOG = 3_000  # characters of the worker's log shown when the bench fails
BENCH = "bench"


def logs_cut() -> dict[int, tuple[list[list[Any]], dict[str, Any], list[list[Any]]]]:
    """Return, for every length in HANDS, the log up to its HANDS-th hand (as [type,
    payload] pairs), the state it replays to and the events that follow it in the log."""
    builder = log_build(VARIANT, LOG_EVENTS, seats=SEATS, seed=SEED)
    events = builder.events
    cuts, state = {}, None
    for index, event in enumerate(events):
        state = apply(state, event)
        if len(state.hands) in HANDS and len(state.hands) not in cuts:
            pairs = [[e.event_type, e.payload] for e in events]
            rest = pairs[index + 1 : index + 2 + APPENDS]
            if len(rest) <= APPENDS:
                raise RuntimeError(f"the log ends {len(rest)} events after hand {HANDS[-1]}")
            cuts[len(state.hands)] = (pairs[: index + 1], state.to_dict(), rest)
    if len(cuts) != len(HANDS):
        raise RuntimeError(f"the log has {len(state.hands)} hands, not {HANDS[-1]}")
    return cuts


def verified_wait(table) -> None:
    """Wait until the worker has verified the table's head (polled every 0.2 s)."""
    from games.models import TableProjection
    from tests.games.workers import wait_for

    table.refresh_from_db()
    if not wait_for(
        lambda: TableProjection.objects.filter(table=table, verified_seq=table.head_seq).exists(),
        timeout=VERIFY_TIMEOUT,
    ):
        raise RuntimeError(f"the worker did not verify event {table.head_seq}")


def append_post(phone, table, event: list[Any], *, worker: bool) -> tuple[float, int]:
    """Post one event at the table's head through the API; return the time it took and the
    size in bytes of the answer's body. With a worker, wait (untimed) for its check."""
    event_type, payload = event
    url = f"/api/v1/tables/{table.id}/events/"
    table.refresh_from_db()
    body = {
        "event_id": str(uuid.uuid4()),
        "expected_seq": table.head_seq,
        "type": event_type,
        "payload": payload,
    }
    started = perf_counter()
    response = phone.post(
        url,
        json.dumps(body),
        content_type="application/json",
        headers={"X-Table-Key": table.scorekeeper_key},
    )
    elapsed = perf_counter() - started
    if response.status_code != 201:
        raise RuntimeError(f"{url} answered {response.status_code}: {response.content[:300]}")
    if worker:
        verified_wait(table)
    return elapsed, len(response.content)


def worker_ready() -> None:
    from rummyref.celery import app
    from tests.games.workers import wait_for

    if not wait_for(lambda: bool(app.control.ping(timeout=0.5)), timeout=READY_TIMEOUT):
        raise RuntimeError(f"the Celery worker did not answer in {READY_TIMEOUT:.0f} s")


def lengths_run(cuts, *, worker: bool) -> dict[str, Any]:
    """Load a table at each length, post one untimed append at each, then the timed ones in
    turns (one at each length a turn), so that every length sees the same load."""
    from django.test import Client

    phone = Client()
    tables, times, sizes, events = {}, {}, {}, {}
    for hands, (log, state, appends) in cuts.items():
        # Loaded in one go: nothing queued a check of it; the first append's does.
        tables[hands] = table_load(log, state)
        append_post(phone, tables[hands], appends[0], worker=worker)
        times[str(hands)], events[str(hands)] = [], len(log)
    for turn in range(1, APPENDS + 1):
        for hands, (_log, _state, appends) in cuts.items():
            elapsed, size = append_post(phone, tables[hands], appends[turn], worker=worker)
            times[str(hands)].append(elapsed)
            sizes[str(hands)] = max(size, sizes.get(str(hands), 0))
    return {"times": times, "sizes": sizes, "events": events}


def main() -> dict[str, Any]:
    """Run the bench on this process's setup; return what the report needs."""
    django_setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", interactive=False, verbosity=0)
    cuts = logs_cut()
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    setup = {
        "database": database_name(connection),
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        "celery": "eager" if eager else "worker",
    }
    if eager:
        return {**setup, **lengths_run(cuts, worker=False)}
    from rummyref.celery import app
    from tests.games.workers import worker_start, worker_stop

    app.control.purge()  # tasks left on this broker database by an earlier run
    # As production runs it (DEBUG off), on the chain key this process signs the log with.
    worker = worker_start(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        LOG_CHAIN_KEY=settings.LOG_CHAIN_KEY,
        ALLOWED_HOSTS="localhost",
    )
    try:
        worker_ready()
        found = lengths_run(cuts, worker=True)
    except Exception as exc:
        log = worker_stop(worker)[-WORKER_LOG:]
        raise RuntimeError(f"{exc}\nThe worker's log ends:\n{log}") from exc
    finally:
        if worker.poll() is None:
            worker_stop(worker)
    return {**setup, **found}


if __name__ == "__main__":
    print(json.dumps(main()))
