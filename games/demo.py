"""The demo tables ``make run`` loads: a finished Big Gin match, a Classic one in play, and a
Ramino hand being played move by move."""

import uuid

from django.db import transaction

from games import services
from games.api.examples import RAMINO
from games.models import Table

NAMESPACE = uuid.UUID("5b0f8a53-4a49-4f57-9b0e-2f7f8a1c9d10")
FINISHED_ID = uuid.uuid5(NAMESPACE, "finished-big-gin")
IN_PLAY_ID = uuid.uuid5(NAMESPACE, "classic-in-play")
MOVES_ID = uuid.uuid5(NAMESPACE, "ramino-move-by-move")
DEMO_IDS = (FINISHED_ID, IN_PLAY_ID, MOVES_ID)


def _quick(knocker: int, ending: str, k: int, d: int) -> dict:
    return {
        "mode": "quick",
        "knocker": knocker,
        "ending": ending,
        "knocker_count": k,
        "defender_count": d,
    }


FINISHED = [
    ("hand_recorded", _quick(0, "gin", 0, 22)),
    ("hand_recorded", _quick(1, "knock", 5, 30)),
    (
        "hand_recorded",
        {
            "mode": "cards",
            "knocker": 1,
            "knocker_cards": "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H",
            "defender_cards": "6C AH AS 2S 5D 6D 7D KC KS KH",
        },
    ),
    ("hand_recorded", _quick(0, "knock", 3, 40)),
    ("hand_voided", {"hand": 4, "reason": "misdeal: Anna had 11 cards"}),
    ("hand_amended", {**_quick(1, "knock", 5, 32), "hand": 2, "reason": "recounted"}),
    ("hand_recorded", _quick(0, "big_gin", 0, 30)),
]

IN_PLAY = [
    ("hand_recorded", _quick(0, "knock", 4, 18)),
    ("hand_recorded", _quick(1, "gin", 0, 12)),
]


# The worked Ramino hand of the API docs, stopped before Carla goes out.
MOVES = list(RAMINO.events[:10])


def _load(table_id, players, options, events, variant="gin") -> Table:
    table = services.table_create(
        variant=variant, options=options, players=players, entered_by="demo", table_id=table_id
    )
    for number, (event_type, payload) in enumerate(events):
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid5(table_id, str(number)),
            expected_seq=number + 1,
            type=event_type,
            payload=payload,
            entered_by="demo",
        )
    return table


@transaction.atomic
def demo_load() -> list[Table]:
    """Create the demo tables unless they exist; return them."""
    if not Table.objects.filter(pk=FINISHED_ID).exists():
        _load(FINISHED_ID, ["Anna", "Bruno"], {"preset": "big_gin", "target": 100}, FINISHED)
    if not Table.objects.filter(pk=IN_PLAY_ID).exists():
        _load(IN_PLAY_ID, ["Carla", "Dario"], {"preset": "classic", "target": 50}, IN_PLAY)
    if not Table.objects.filter(pk=MOVES_ID).exists():
        _load(MOVES_ID, list(RAMINO.players), RAMINO.options, MOVES, variant="ramino")
    return list(Table.objects.filter(pk__in=DEMO_IDS))
