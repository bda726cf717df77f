"""The demo ``make run`` loads: a finished Big Gin match, a Classic one in play, a Ramino hand
being played move by move, and a club with a public Gin league whose first season has six
finished matches, so its standings page has something to show."""

import datetime
import uuid

from django.contrib.auth import get_user_model
from django.db import transaction

from games.clubs import services as club_services
from games.clubs.models import Club, League
from games.tables import services as table_services
from games.tables.models import Table
from scoring.samples import played_of

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
RAMINO = played_of("ramino")
MOVES = list(RAMINO.events[:10])


def _load(table_id, players, options, events, variant="gin") -> Table:
    table = table_services.table_create(
        variant=variant, options=options, players=players, entered_by="demo", table_id=table_id
    )
    for number, (event_type, payload) in enumerate(events):
        table_services.event_append(
            table_id=table.id,
            event_id=uuid.uuid5(table_id, str(number)),
            expected_seq=number + 1,
            event_type=event_type,
            payload=payload,
            entered_by="demo",
        )
    return table


DEMO_CLUB = "circolo-demo"
DEMO_LEAGUE = "gin-del-martedi"
# Each league match of the demo season: its two players and the hands recorded, Gin quick
# entry (Classic to 50). Every match ends at its last hand.
LEAGUE_MATCHES = [
    (("Anna", "Bruno"), [_quick(0, "knock", 4, 20), _quick(0, "gin", 0, 30)]),
    (("Carla", "Dario"), [_quick(1, "gin", 0, 35)]),
    (("Anna", "Carla"), [_quick(1, "knock", 2, 30), _quick(0, "gin", 0, 40)]),
    (("Bruno", "Dario"), [_quick(0, "gin", 0, 28)]),
    (("Anna", "Dario"), [_quick(1, "knock", 3, 25), _quick(1, "knock", 1, 30)]),
    (("Bruno", "Carla"), [_quick(1, "gin", 0, 26)]),
]


def _club_load() -> League:
    """Make the demo club (public), its public league, a season and its six matches."""
    owner, _ = get_user_model().objects.get_or_create(
        username="demo-owner",
        defaults={"password": "!"},  # no password: nobody signs in as it
    )
    club = club_services.club_create(user=owner, name="Circolo Demo", public=True)
    players = {
        name: club_services.player_create(actor=owner, club_id=club.pk, name=name)
        for name in ("Anna", "Bruno", "Carla", "Dario")
    }
    league = club_services.league_create(
        actor=owner,
        club_id=club.pk,
        name="Gin del martedì",
        variant="gin",
        players=2,
        options={"preset": "classic", "target": 50},
        tiebreakers=["head_to_head", "points_difference"],
        public=True,
    )
    season = club_services.season_create(
        actor=owner,
        league_id=league.pk,
        name="Autunno 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    for names, hands in LEAGUE_MATCHES:
        table = table_services.season_table_create(
            actor=owner,
            season_id=season.pk,
            player_ids=[players[name].pk for name in names],
            entered_by="demo",
        )
        for seq, payload in enumerate(hands, start=1):
            table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid5(table.id, str(seq)),
                expected_seq=seq,
                event_type="hand_recorded",
                payload=payload,
                entered_by="demo",
                user=owner,
            )
    return league


def demo_league() -> League | None:
    """Return the demo club's public league, if loaded."""
    return League.objects.filter(club__slug=DEMO_CLUB, slug=DEMO_LEAGUE).first()


@transaction.atomic
def demo_load() -> list[Table]:
    """Create the demo tables unless they exist; return them."""
    if not Table.objects.filter(pk=FINISHED_ID).exists():
        _load(FINISHED_ID, ["Anna", "Bruno"], {"preset": "big_gin", "target": 100}, FINISHED)
    if not Table.objects.filter(pk=IN_PLAY_ID).exists():
        _load(IN_PLAY_ID, ["Carla", "Dario"], {"preset": "classic", "target": 50}, IN_PLAY)
    if not Table.objects.filter(pk=MOVES_ID).exists():
        _load(MOVES_ID, list(RAMINO.players), RAMINO.options, MOVES, variant="ramino")
    if not Club.objects.filter(slug=DEMO_CLUB).exists():
        # Its standings are worked out by the task each finished match queues on commit.
        _club_load()
    return list(Table.objects.filter(pk__in=DEMO_IDS))


def demo_tables() -> list[Table]:
    """Return the demo tables that ``load_demo`` made, if any."""
    return list(Table.objects.filter(pk__in=DEMO_IDS).prefetch_related("seats__player"))
