"""The players' book bench inside Django, on one database (bench/book.py runs it).

    DATABASE_URL=... python -m bench.book_server

migrates that database, builds a group of 8 players and its finished matches (tables, seats
and hash-chained logs inserted in one go, their results stored by the real service), times
the worker's update for one more finished match after 10 matches and after 500, then the
group's stats page; prints one line of JSON. Settings read DATABASE_URL when Django starts,
hence a process of its own; Celery runs eagerly (no broker), the task timed in-process.
"""

from __future__ import annotations

import json
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
from bench.timing import sized
from scoring.events import TABLE_CREATED, LogEvent

MATCHES = sized(500, 30)
EARLY = 10  # the update is timed when the group has this many matches, and MATCHES
PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Ugo")
# A circle's evenings: mostly Gin, some of each other game, at tables of their usual size.
GAMES = (
    ("gin", {"preset": "classic", "target": 50}, 2, 7),
    ("rummy40", {"target": 100}, 2, 1),
    ("ramino", {"hands": 3}, 4, 1),
    ("knock_rummy", {"target": 60}, 3, 1),
)
MATCH_EVERY, EVENT_EVERY = timedelta(hours=3), timedelta(minutes=4)
MATCH_EVENTS = 200  # long enough for any of these matches to end
UPDATE_RUNS, PAGE_REQUESTS, WARMUP = sized(30, 3), sized(40, 4), 3
BENCH = "bench"


def group_build():
    """Make the group and its players as the group pages make them."""
    from games.clubs import groups

    group = groups.group_create(
        name="Bench circle",
        players=list(PLAYERS),
        variant="gin",
        options=dict(GAMES[0][1]),
        user=None,
    )
    return group, list(group.players.order_by("pk"))


def match_logs(players: Sequence[Any], matches: int) -> list[tuple[list[Any], list]]:
    """Return ``matches`` finished matches: the players seated and a log opening as
    table_create opens a group's table (full options, the players' names), ending with the
    event that finished the match (bench/logs.py: hands by real cards, about one correction
    in sixteen events)."""
    rng, seeds, found = Random(MATCHES), count(), []
    variants = [game for game in GAMES for _ in range(game[3])]
    while len(found) < matches:
        variant, options, seats, _ = rng.choice(variants)
        builder = log_build(variant, MATCH_EVENTS, seats=seats, seed=next(seeds), options=options)
        if not builder.state.finished:
            continue
        seated = rng.sample(list(players), seats)
        created = LogEvent(
            seq=1,
            event_type=TABLE_CREATED,
            payload={
                "variant": variant,
                "options": builder.state.variant.options_to_dict(builder.state.options),
                "seats": [player.name for player in seated],
            },
        )
        found.append((seated, [created, *builder.events[1:]]))
    return found


def tables_load(group, matches: Sequence[tuple[list[Any], list]], first_at) -> list:
    """Insert the group's finished tables in one go (the rows table_create and event_append
    write: seats, hash-chained events, head, status), match n's events ``n * MATCH_EVERY``
    after ``first_at``; then store their results with the service the worker calls."""
    from django.db import transaction

    from games.models import Event, Seat, Table
    from games.standings import services
    from games.tables.log import event_row

    tables, seats, events = [], [], []
    for number, (seated, log) in enumerate(matches):
        created = log[0].payload
        options = created["options"]
        table = Table(
            variant=created["variant"],
            preset=options.get("preset", ""),
            options=options,
            target=options.get("target", options.get("hands", 1)),
            group=group,
            status=Table.Status.FINISHED,
            head_seq=len(log),
        )
        table.keys_issue()  # as save() does; bulk_create does not call it
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
    with transaction.atomic():
        for model, rows in ((Table, tables), (Seat, seats), (Event, events)):
            model.objects.bulk_create(rows, batch_size=1_000)
    ids = [table.id for table in tables]
    for start in range(0, len(ids), services.RESULT_BATCH):
        services.book_results_refresh(ids[start : start + services.RESULT_BATCH])
    return tables


def update_times(group, match: tuple[list[Any], list], at) -> dict[str, Any]:
    """Load one more finished match and time the worker's task that stores its result
    (games.tasks.book_results_refresh, run in this process): the first run writes the row,
    the others write it again, the same work."""
    from games.models import MatchResult
    from games.standings import tasks

    (table,) = tables_load(group, [match], at)
    MatchResult.objects.filter(table=table).delete()

    def run() -> None:
        tasks.book_results_refresh.apply(args=[[str(table.id)]]).get()

    times = repeat(run, runs=UPDATE_RUNS, least=UPDATE_RUNS, budget=0, collect_each=False)
    return {"times": times, "events": len(match[1])}


def page_times(group) -> dict[str, list[float]]:
    """Time the group's stats page as a phone with its viewer key sees it: views of the book
    kept in the cache, and first views after a result moved (the book worked out again)."""
    from django.core.cache import cache
    from django.test import Client

    from games.tables.access import KEY_HEADER

    phone = Client(headers={KEY_HEADER: group.viewer_key})
    url = f"/g/{group.pk}/stats/"

    def get() -> None:
        response = phone.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}, not 200")

    for _ in range(WARMUP):
        get()
    kept = repeat(get, runs=PAGE_REQUESTS, least=PAGE_REQUESTS, budget=0, collect_each=False)
    fresh = []
    for _ in range(PAGE_REQUESTS // 2):
        cache.clear()
        fresh += repeat(get, runs=1, least=1, budget=0, collect_each=False)
    return {"kept": kept, "fresh": fresh}


def main() -> dict[str, Any]:
    """Run the bench on this process's database; return what the report needs."""
    django_setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.standings import selectors

    call_command("migrate", interactive=False, verbosity=0)
    started = perf_counter()
    group, players = group_build()
    # The match whose result is timed is the same log both times, so only the history
    # before it differs: EARLY - 1 matches, then MATCHES - 1.
    *history, probe = match_logs(players, MATCHES - 1)
    first_at = timezone.now() - (MATCHES + 1) * MATCH_EVERY
    tables_load(group, history[: EARLY - 1], first_at)
    built = perf_counter() - started
    early = update_times(group, probe, first_at + (EARLY - 1) * MATCH_EVERY)
    started = perf_counter()
    tables_load(group, history[EARLY - 1 :], first_at + EARLY * MATCH_EVERY)
    built += perf_counter() - started
    late = update_times(group, probe, first_at + MATCHES * MATCH_EVERY)
    pages = page_times(group)
    stats = selectors.group_stats(group=group)
    return {
        "database": database_name(connection),
        "built": built,
        "events": sum(len(log) for _, log in history) + 2 * len(probe[1]),
        "games": {tab.variant: tab.matches for tab in stats.tabs},
        "matches": stats.matches,
        "update": {str(EARLY): early, str(MATCHES): late},
        "pages": pages,
    }


if __name__ == "__main__":
    print(json.dumps(main()))
