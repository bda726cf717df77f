"""The review page of a hand already reviewed (games/pages/review.py): the page at a step, a
step asked by htmx (Previous, Next, a swipe) and the API's answer, each read from the cache.

``python -m bench.review_page`` (which bench/review.py starts, in a process of its own, as
settings read DATABASE_URL and CACHE_URL when Django starts) migrates a SQLite file in a
temporary directory, plays bench/review.py's two long hands onto tables through the services
(every move appended as a phone appends it), opens each hand's review once (worked out and
kept), then times the cached answers through Django's test client with DEBUG off: the
table's lookup and key, the state at the head, the cache's read and the page drawn. Before
those it times the API's first reads (the cache emptied before each: the log read, the
review worked out, kept and answered) and measures the answers' sizes. It prints one line
of JSON: {hand: {"times": {figure: [seconds, ...]}, "sizes": {"api": bytes, "steps": n,
"step": bytes of the largest step htmx asks}}}.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from bench.logs import options_in_full
from bench.spread import repeat
from bench.timing import sized

REQUESTS = sized(50, 5)
WARMUP = 3
FIRST_RUNS = sized(20, 2)


def _table(events) -> Any:
    """Create a table of the hand's game and seats and append its moves, as a phone does."""
    from games.tables import services

    created = events[0].payload
    table = services.table_create(
        variant=created["variant"], options=options_in_full(created), players=created["seats"]
    )
    keys = table.scorekeeper_key
    for event in events[1:]:
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=event.seq - 1,
            event_type=event.event_type,
            payload=event.payload,
        )
    table.refresh_from_db()
    table.scorekeeper_key = keys
    return table


def _timed(table) -> dict[str, Any]:
    """Time the review's first reads (the cache emptied before each: worked out from the log
    and kept) and its answer's size, then its cached answers."""
    from django.core.cache import cache
    from django.test import Client

    phone = Client()
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    page = f"/t/{table.id}/hands/1/review/"

    def get(url: str, **headers) -> bytes:
        response = phone.get(url, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        return response.content

    api = f"/api/v1/tables/{table.id}/hands/1/review/"
    key = {"X-Table-Key": table.scorekeeper_key}

    def first() -> None:
        # A first read: nothing kept yet (the bench's own cache, emptied; the phone's
        # session is in the database), the review worked out from the log and kept.
        cache.clear()
        answers.append(get(api, **key))

    answers: list[bytes] = []
    first_times = repeat(first, runs=FIRST_RUNS, least=FIRST_RUNS, budget=0)
    steps = len(json.loads(answers[-1])["steps"])
    middle = f"{page}?step={steps // 2}"
    for _ in range(WARMUP):
        get(middle)
    htmx = {"HX-Request": "true"}
    sizes = {
        "api": len(answers[-1]),
        "steps": steps,
        "step": max(len(get(f"{page}?step={index}", **htmx)) for index in range(steps)),
    }
    times = {
        "first": first_times,
        "page": repeat(lambda: get(middle), runs=REQUESTS, least=REQUESTS, budget=0),
        "step": repeat(
            lambda: get(f"{page}?step={steps // 2 + 1}", **{"HX-Request": "true"}),
            runs=REQUESTS,
            least=REQUESTS,
            budget=0,
        ),
        "api": repeat(
            lambda: get(api, **{"X-Table-Key": table.scorekeeper_key}),
            runs=REQUESTS,
            least=REQUESTS,
            budget=0,
        ),
    }
    return {"times": times, "sizes": sizes}


def main() -> dict[str, Any]:
    """Play the hands onto tables; time each review's first reads, then its cached answers;
    measure its answers' sizes (the API's whole answer, the largest step htmx asks)."""
    from bench.server import django_setup

    django_setup()
    from django.core.cache import cache
    from django.core.management import call_command

    from bench.review import hands

    call_command("migrate", interactive=False, verbosity=0)
    # The cache is the bench's own (files beside the database, or a Redis database no one
    # else uses): it starts empty and is left so.
    cache.clear()
    found = {}
    try:
        for key, (events, _moves) in hands().items():
            found[key] = _timed(_table(events))
    finally:
        cache.clear()
    return found


if __name__ == "__main__":
    print(json.dumps(main()))
