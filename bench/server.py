"""The pages bench inside Django, on the database DATABASE_URL names (bench/pages.py runs it).

    DATABASE_URL=... python -m bench.server FIXTURE.json

migrates that database, loads the fixture's tables, times the table pages and the appends,
and prints one line of JSON: {"database": ..., "hands": {...}, "times": {figure: [s, ...]}}.
Settings read DATABASE_URL when Django starts, hence one process per database.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import uuid
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from bench.logs import options_in_full
from bench.spread import repeat

REQUESTS = 50
POLLS = 20
# An idle poll is under a millisecond of work: enough of them that the p95 is not one GC.
IDLE_POLLS = 200
WARMUP = 5
BENCH = "bench"


def django_setup() -> None:
    """Start Django as a production server runs the pages: DEBUG off, so no SQL log and a
    template engine without debug data (as Django's test runner does it)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyref.settings")
    # whitenoise looks for collected static files, which only production runs have.
    warnings.filterwarnings("ignore", "No directory at", UserWarning)
    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False


def table_load(log: list[list[Any]], state: dict[str, Any]):
    """Create a table through the service, then insert the rest of its log in one go, hash
    chain and cached state included.

    The rows are the ones event_append writes; appending them one by one would replay the
    log once per event (4,000 times for the long log). The first timed append's
    table_verify checks the long table's chain.
    """
    from django.db import transaction
    from django.utils import timezone

    from games.models import Event, TableProjection
    from games.tables import heads, services
    from games.tables.log import event_row

    created = log[0][1]
    table = services.table_create(
        variant=created["variant"],
        options=options_in_full(created),
        players=created["seats"],
        entered_by=BENCH,
    )
    prev, rows, now = table.head_hash, [], timezone.now()
    for seq, (event_type, payload) in enumerate(log[1:], start=2):
        row = event_row(
            table=table,
            seq=seq,
            prev_hash=prev,
            event_id=uuid.uuid4(),
            event_type=event_type,
            payload=payload,
            entered_by=BENCH,
            created_at=now,
        )
        rows.append(row)
        prev = row.hash
    with transaction.atomic():
        Event.objects.bulk_create(rows, batch_size=500)
        table.head_seq, table.head_hash = len(log), prev
        table.status = table.Status.FINISHED if state["finished"] else table.Status.OPEN
        table.save(update_fields=["head_seq", "head_hash", "status", "updated_at"])
        TableProjection.objects.update_or_create(
            table=table, defaults={"seq": table.head_seq, "state": state}
        )
        # As _store_head does at every append: the shared cache learns the new head.
        heads.head_publish(table.id, table.head_seq)
    return table


def page_times(table, variant: str) -> dict[str, list[float]]:
    """Time the scorekeeper's table page, the htmx poll with news and the poll without."""
    from django.test import Client

    phone = Client()
    # The scorekeeper link puts the key in this browser's session, as on a phone.
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    url, htmx = f"/t/{table.id}/", {"HX-Request": "true"}

    def get(status: int, data: dict[str, Any] | None = None, headers=None) -> None:
        response = phone.get(url, data, headers=headers)
        if response.status_code != status:
            raise RuntimeError(f"{url} answered {response.status_code}, not {status}")
        if data and "w" in data and "Cookie" in response.get("Vary", ""):
            # The view read the session: the idle poll was not answered from the cached head.
            raise RuntimeError(f"{url} answered an idle poll through the view")

    for _ in range(WARMUP):
        get(200)
    page = repeat(lambda: get(200), runs=REQUESTS, least=REQUESTS, budget=0, collect_each=False)
    # The page's poll address carries its watch token: idle polls with it are answered
    # before the session and the database (games.pages.idle_polls).
    body = phone.get(url).content.decode()
    watch = html.unescape(re.search(r'\?since=\d+&amp;w=([^"]+)"', body).group(1))
    news, same = {"since": table.head_seq - 1}, {"since": table.head_seq, "w": unquote(watch)}
    poll = repeat(
        lambda: get(200, news, htmx), runs=POLLS, least=POLLS, budget=0, collect_each=False
    )
    idle = repeat(
        lambda: get(204, same, htmx),
        runs=IDLE_POLLS,
        least=IDLE_POLLS,
        budget=0,
        collect_each=False,
    )
    return {f"page:{variant}": page, f"poll:{variant}": poll, f"idle:{variant}": idle}


def news_poll(table) -> tuple[list[float], int]:
    """Time the htmx poll of a phone one event behind the head; return the times and the
    size of its answer in bytes."""
    from django.test import Client

    phone = Client()
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    url, news = f"/t/{table.id}/", {"since": table.head_seq - 1}
    size = 0

    def get() -> None:
        nonlocal size
        response = phone.get(url, news, headers={"HX-Request": "true"})
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}, not 200")
        size = len(response.content)

    for _ in range(WARMUP):
        get()
    return repeat(get, runs=POLLS, least=POLLS, budget=0, collect_each=False), size


# A quick hand saved from the table's page by htmx, the way a phone sends it: the game,
# its table form's fields and the hand's. The answer's size is a figure (issue 22).
SAVES = {
    "gin": (
        {"variant": "gin", "players": "2", "gin__preset": "big_gin", "gin__target": "100"},
        {
            "mode": "quick",
            "knocker": "0",
            "ending": "knock",
            "knocker_count": "7",
            "defender_count": "20",
        },
    ),
    "ramino": (
        {"variant": "ramino", "players": "4", "ramino__hands": "10"},
        {
            "mode": "points",
            "p0_points": "0",
            "p0_went_out": "on",
            "p1_points": "25",
            "p2_points": "12",
            "p3_points": "40",
        },
    ),
}
SAVED_HANDS = 5


def save_sizes() -> dict[str, int]:
    """Return the size in bytes of a quick hand's htmx save answer, by game: the largest of
    a new table's first SAVED_HANDS hands."""
    from django.test import Client

    sizes = {}
    for variant, (table_form, hand) in SAVES.items():
        phone = Client()
        names = {f"player_{n}": f"Player {n}" for n in range(1, int(table_form["players"]) + 1)}
        url = phone.post("/", {**table_form, **names}).url
        largest = 0
        for _ in range(SAVED_HANDS):
            page = phone.get(url).content.decode()
            keys = {
                name: re.search(rf'name="{name}" value="([^"]+)"', page).group(1)
                for name in ("event_id", "expected_seq", "shown_seq")
            }
            response = phone.post(f"{url}hands/", {**keys, **hand}, headers={"HX-Request": "true"})
            if response.status_code != 200:
                raise RuntimeError(f"{url}hands/ answered {response.status_code}, not 200")
            largest = max(largest, len(response.content))
        sizes[f"save:{variant}"] = largest
    return sizes


def append_times(table, appends: list[list[Any]]) -> tuple[list[float], list[float]]:
    """Time event_append at the table's head, and apart from it table_verify, which a worker
    runs after the commit (the request does not wait for it), after one untimed append: the
    first after loading replays the log (nothing kept its state yet), as the first after a
    server restart does. Return the appends' times and the verifications'."""
    from time import perf_counter

    from games.models import TableProjection
    from games.tables import audit, services

    pending = iter(appends)
    verify_times: list[float] = []
    # The bench stands in for the broker: the append queues its check, which is run and
    # timed on its own once the append has returned.
    queued: list = []
    services._queue_verify = queued.append

    def verify() -> None:
        while queued:
            start = perf_counter()
            audit.table_verify(table_id=queued.pop(0))
            verify_times.append(perf_counter() - start)

    def append() -> None:
        event_type, payload = next(pending)
        table.refresh_from_db()
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=table.head_seq,
            event_type=event_type,
            payload=payload,
            entered_by=BENCH,
        )

    append()
    verify()
    verify_times.clear()
    times = []
    for _ in range(len(appends) - 1):
        # Each append timed alone, then the check it queued (timed apart), then the next.
        times += repeat(append, runs=1, least=1, budget=0)
        verify()
    table.refresh_from_db()
    verified = TableProjection.objects.get(table=table).verified_seq
    if verified != table.head_seq:
        raise RuntimeError(f"table_verify stopped at event {verified} of {table.head_seq}")
    return times, verify_times


NIGHT_PLAYERS, NIGHT_ROUNDS = 64, 5


def night_board_times() -> dict[str, list[float]]:
    """Time the room board of a 64-player Swiss night of Gin after 5 rounds (160 tables,
    each played out and confirmed): as polled while nothing moved (the standings kept),
    and right after a table's result moved (the standings worked out again)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.clubs import services as clubs
    from games.tables import services as tables
    from games.tournaments import services as nights

    director = get_user_model().objects.create_user("director", password=None)
    club = clubs.club_create(user=director, name="Bench club")
    league = clubs.league_create(
        actor=director,
        club_id=club.pk,
        name="Gin",
        variant="gin",
        players=2,
        options={"preset": "classic", "target": 50},
    )
    players = [
        clubs.player_create(actor=director, club_id=club.pk, name=f"P{n:02d}").pk
        for n in range(NIGHT_PLAYERS)
    ]
    night = nights.tournament_create(
        actor=director,
        club_id=club.pk,
        league_id=league.pk,
        name="Night",
        rounds=6,
        round_minutes=30,
        seed=7,
    )
    nights.entrants_register(actor=director, tournament_id=night.pk, player_ids=players)

    def play(table_id, seq: int, event_type: str, payload: dict) -> None:
        tables.event_append(
            table_id=table_id,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            event_type=event_type,
            payload=payload,
        )

    gin = {"mode": "quick", "ending": "gin", "knocker_count": 0, "defender_count": 30}
    for number in range(NIGHT_ROUNDS):
        started = nights.round_start(actor=director, tournament_id=night.pk)
        for index, table in enumerate(started.tables):
            play(table.id, 1, "hand_recorded", {**gin, "knocker": (index + number) % 2})
            play(table.id, 2, "result_confirmed", {"seat": 0})
            play(table.id, 3, "result_confirmed", {"seat": 1})
    last = nights.round_start(actor=director, tournament_id=night.pk).tables
    screen = Client()
    screen.force_login(director)
    url, htmx = f"/clubs/{club.slug}/n/{night.pk}/tv/", {"HX-Request": "true"}

    def get() -> None:
        response = screen.get(url, headers=htmx)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")

    for _ in range(WARMUP):
        get()
    idle = repeat(get, runs=REQUESTS, least=REQUESTS, budget=0, collect_each=False)
    moved = []
    for index, table in enumerate(last[:POLLS]):
        play(table.id, 1, "hand_recorded", {**gin, "knocker": index % 2})
        moved += repeat(get, runs=1, least=1, budget=0)
    return {"board:idle": idle, "board:moved": moved}


def main(fixture_path: str) -> dict[str, Any]:
    """Run the bench on this process's database; return what the report needs."""
    django_setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", interactive=False, verbosity=0)
    fixture = json.loads(Path(fixture_path).read_text())
    times: dict[str, list[float]] = {}
    hands, sizes = {}, {}
    for variant, found in fixture["tables"].items():
        table = table_load(found["log"], found["state"])
        hands[variant] = len(found["state"]["hands"])
        times |= page_times(table, variant)
    for events, found in fixture["logs"].items():
        table = table_load(found["log"], found["state"])
        times[f"append:{events}"], times[f"verify:{events}"] = append_times(table, found["appends"])
        table.refresh_from_db()
        times[f"news:{events}"], sizes[events] = news_poll(table)
    times |= night_board_times()
    sizes |= save_sizes()
    return {
        "database": database_name(connection),
        "hands": hands,
        "times": times,
        "sizes": sizes,
    }


def database_name(connection) -> str:
    """Return the database server and its version, e.g. "PostgreSQL 15.4"."""
    if connection.vendor == "postgresql":
        major, minor = divmod(connection.pg_version, 10_000)
        return f"PostgreSQL {major}.{minor}"
    return f"{connection.display_name} {connection.Database.sqlite_version}"


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
