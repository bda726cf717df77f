"""Circles for the players' book tests (tests/games/standings/test_book.py, the stats pages):
a group and its players, its tables started and played through the services, as the pages
play them; and random histories of hands, voids and amendments."""

import random
import uuid
from collections.abc import Sequence

from bench.logs import STEPS, LogBuilder
from games.models import Event, Group, Player, Table
from games.tables import services as table_services
from games.tables.log import engine_payload
from scoring.errors import RuleViolation
from scoring.events import HAND_RECORDED, TABLE_CREATED, LogEvent
from scoring.replay import apply
from tests.payloads import quick

# Gin Classic to 50 (GIN-MATCH): gin scores 25 + the defender's count (GIN-SCORE-GIN), a
# knock the difference (GIN-SCORE-KNOCK), an undercut the difference (no bonus).
CLASSIC_50 = {"preset": "classic", "target": 50}


def group_make(*names: str, variant: str = "gin") -> tuple[Group, list[Player]]:
    """Make a group and its players (Anna, Bruno and Carla unless told)."""
    group = Group.objects.create(name="Friday friends", variant=variant)
    players = [
        Player.objects.create(name=name, group=group)
        for name in names or ("Anna", "Bruno", "Carla")
    ]
    return group, players


def table_start(
    players: Sequence[Player],
    *,
    group: Group | None = None,
    variant: str = "gin",
    options: dict | None = None,
    practice: bool = False,
) -> Table:
    """Start a table seated with ``players``, of ``group`` when given."""
    return table_services.table_create(
        variant=variant,
        options=dict(CLASSIC_50 if options is None else options),
        players=[player.name for player in players],
        seat_players=list(players),
        group=group,
        practice=practice,
    )


def record(table: Table, payload: dict, event_type: str = HAND_RECORDED):
    """Append one event at the table's head, as the scorekeeper's phone does."""
    table.refresh_from_db()
    return table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=event_type,
        payload=payload,
    )


def play(players: Sequence[Player], hands: Sequence[dict], **kwargs) -> Table:
    """Start a table and record ``hands`` (Gin quick entry unless told)."""
    table = table_start(players, **kwargs)
    for hand in hands:
        record(table, hand)
    return table


def friday_gin(group: Group, players: Sequence[Player]) -> list[Table]:
    """Play the three Gin matches of tests/games/standings/test_book.py's docstring."""
    anna, bruno, carla = players
    return [
        play((anna, bruno), [quick(0, "gin", 0, 30)], group=group),
        play(
            (bruno, carla),
            [quick(0, "knock", 4, 20), quick(1, "gin", 0, 10), quick(0, "gin", 0, 20)],
            group=group,
        ),
        play((carla, anna), [quick(0, "knock", 6, 4), quick(1, "gin", 0, 40)], group=group),
    ]


# Short matches of each game, so that a random history finishes some and corrects them.
SHORT = {
    "gin": (CLASSIC_50, (2,)),
    "rummy40": ({"target": 100}, (2, 4)),
    "ramino": ({"hands": 2}, (2, 3, 4)),
    "knock_rummy": ({"target": 60}, (2, 3)),
}
# Hands recorded, voided and amended: corrections come often, so finished matches are
# reopened and changed.
MIX = (("hand_recorded", 6), ("hand_voided", 1), ("hand_amended", 2))


def random_history(group: Group, players: Sequence[Player], *, seed: int, tables: int) -> None:
    """Play ``tables`` tables of random games of the group through the services: hands by
    cards (bench/logs.py draws them, legal by construction), voids and amendments, before
    and after the match ends, until each table has seen some 12 steps."""
    rng = random.Random(seed)
    names, weights = zip(*MIX, strict=True)
    for _ in range(tables):
        variant = rng.choice(sorted(SHORT))
        options, sizes = SHORT[variant]
        seated = rng.sample(list(players), rng.choice(sizes))
        table = table_start(seated, group=group, variant=variant, options=options)
        created = Event.objects.get(table=table, seq=1)
        first = LogEvent(
            seq=1, event_type=TABLE_CREATED, payload=engine_payload(TABLE_CREATED, created.payload)
        )
        builder = LogBuilder(rng=rng, state=apply(None, first), events=[first], limit=10**6)
        for _step in range(12):
            state, length = builder.state, len(builder.events)
            try:
                STEPS[rng.choices(names, weights)[0]](builder)
            except RuleViolation:
                # A hand after the match's end, a void of a void hand: drawn again next step.
                builder.rewind(state, length)
                continue
            event = builder.events[-1]
            record(table, event.payload, event.event_type)
