"""The picture of a shared result (games/tables/result_card.py): each draw within 150 ms, and
its address answered from the cache once drawn.

``python -m bench.result_card`` (which ``run`` starts, in a process of its own, as settings
read DATABASE_URL when Django starts) migrates a SQLite file with a file cache beside it in a
temporary directory, finishes two matches through the services (Gin with two seats; Ramino
with six, the most a picture holds), shares each, times 30 draws of its picture in Italian
(the longer sentences), then 30 answers of its address once the picture is cached, through
Django's test client: the share's lookup, the cache's read and the response.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from typing import Any

from bench.pages import ROOT
from bench.spread import Spread, repeat, seconds
from bench.timing import table, verdict

DRAWS = ANSWERS = 30
DRAW_TARGET = 0.150  # median and p95 of a draw
# A cached answer reads the share, the table's state and the picture: a poll's budget.
CACHED_P95 = 0.030
SERVER_TIMEOUT = 300
MATCHES = {
    "gin": ("Gin, 2 seats", ["Anna", "Bruno"], {"target": 100}),
    "ramino": (
        "Ramino, 6 seats",
        ["Niccolò", "Bartolomeo", "Carla", "Dàrio", "Elisabetta", "Fëdor"],
        {"hands": 1},
    ),
}
LAST_HANDS = {
    "gin": {
        "mode": "quick",
        "knocker": 1,
        "ending": "big_gin",
        "knocker_count": 0,
        "defender_count": 70,
    },
    "ramino": {
        "mode": "cards",
        "players": [
            {"hand": "", "melded": "7S 8S 9S", "went_out": True},
            {"hand": "KH QH 5C"},
            {"hand": "JK 2D"},
            {"hand": "3C 4C"},
            {"hand": "AD"},
            {"hand": "9H 10H"},
        ],
    },
}


def _shared(variant: str) -> str:
    """Finish a match of ``variant``, share it and return its token."""
    from games.tables import services, sharing

    _, players, options = MATCHES[variant]
    table = services.table_create(variant=variant, options=options, players=players)
    services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=1,
        event_type="hand_recorded",
        payload=LAST_HANDS[variant],
    )
    table.refresh_from_db()
    share = sharing.result_share(table=table, digests=[table.scorekeeper_digest])
    return share.token


def main() -> dict[str, Any]:
    """Time the draws and the cached answers; return them by match."""
    from bench.server import django_setup

    django_setup()
    from django.core.management import call_command
    from django.test import Client
    from django.utils import translation

    from games.tables import result_card, sharing

    call_command("migrate", interactive=False, verbosity=0)
    times: dict[str, dict[str, list[float]]] = {}
    for variant in MATCHES:
        token = _shared(variant)
        match = sharing.shared_result(token=token)
        with translation.override("it"):
            result_card.result_card_draw(match)  # the font's sizes, loaded once a process
            draws = repeat(
                lambda m=match: result_card.result_card_draw(m), runs=DRAWS, least=DRAWS, budget=0
            )
        visitor, card = Client(), f"/r/{token}/card.png"

        def answer(visitor=visitor, card=card) -> None:
            response = visitor.get(card, headers={"Accept-Language": "it"})
            if response.status_code != 200 or response["Content-Type"] != "image/png":
                raise RuntimeError(f"{card} answered {response.status_code}")

        answer()  # drawn and cached
        cached = repeat(answer, runs=ANSWERS, least=ANSWERS, budget=0, collect_each=False)
        times[variant] = {"draw": draws, "cached": cached}
    return times


def _measured() -> dict[str, dict[str, list[float]]]:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "CACHE_DIR": f"{folder}/cache",
            "DEBUG": "1",
        }
        env.pop("CACHE_URL", None)
        env.pop("CELERY_BROKER_URL", None)
        done = subprocess.run(
            [sys.executable, "-m", "bench.result_card"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=SERVER_TIMEOUT,
            check=False,
        )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"bench/result_card.py failed:\n{tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> tuple[str, bool]:
    """Return the section's table and whether every figure is within its target."""
    title = "Shared result's picture (1200 × 630 PNG)"
    try:
        times = _measured()
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return f"{title}: FAIL: {exc}", False
    rows, passed = [], True
    for variant, found in times.items():
        label = MATCHES[variant][0]
        for figure, target, median_too in (
            ("draw", DRAW_TARGET, True),
            ("cached", CACHED_P95, False),
        ):
            spread = Spread.of(found[figure])
            ok = spread.p95 <= target and (not median_too or spread.median <= target)
            passed &= ok
            rows.append(
                [
                    f"{label}: {'drawn' if figure == 'draw' else 'cached answer'}",
                    str(spread.runs),
                    seconds(spread.median),
                    seconds(spread.p95),
                    f"{'median, p95' if median_too else 'p95'} <= {seconds(target)}",
                    verdict(ok),
                ]
            )
    header = [title, "runs", "median", "p95", "target", "holds"]
    notes = (
        "Drawn in Italian, the collector on, as in a server; the cached answer is a GET of"
        " /r/<token>/card.png through Django's test client on SQLite and the file cache (the"
        " share's lookup, the table's state and the picture read from the cache)."
    )
    return f"{table(header, rows)}\n{notes}", passed


if __name__ == "__main__":
    print(json.dumps(main()))
