"""Playing out a night's Gin tables as phones would: the hand, then both confirmations."""

import uuid

from games.tables import services as table_services
from games.tournaments import services as night_services
from games.tournaments.models import Tournament
from games.tournaments.services import StartedRound
from tests.payloads import quick

# The new-night form as the director fills it: Swiss, 3-1-0 with 3 for a bye, 30 minutes.
NIGHT_FORM = {
    "name": "Gin night",
    "format": "swiss",
    "scale": "wdl",
    "win_points": 3,
    "draw_points": 1,
    "loss_points": 0,
    "bye_points": 3,
    "rounds": 2,
    "round_minutes": 30,
}


def append(table_id, expected_seq: int, event_type: str, payload: dict):
    """Append an event at ``expected_seq`` (the head the phone saw)."""
    return table_services.event_append(
        table_id=table_id,
        event_id=uuid.uuid4(),
        expected_seq=expected_seq,
        event_type=event_type,
        payload=payload,
    )


def finish_gin_table(table_id, *, winner_seat: int = 0, defender: int = 30) -> None:
    """The seat ``winner_seat`` goes gin with the other on ``defender`` (GIN-SCORE-GIN:
    25 + ``defender``, past a Classic 50 target from 25 on), then both players confirm."""
    append(table_id, 1, "hand_recorded", quick(winner_seat, "gin", 0, defender))
    append(table_id, 2, "result_confirmed", {"seat": 0})
    append(table_id, 3, "result_confirmed", {"seat": 1})


def gin_night_started(world) -> tuple[Tournament, StartedRound]:
    """Make a two-round Swiss Gin night of the world's club (3-1-0), Anna and Bruno in it,
    and start its first round: one table, the two of them."""
    night = night_services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin night",
        rounds=2,
        round_minutes=30,
        seed=5,
    )
    night_services.entrants_register(
        actor=world.admin, tournament_id=night.pk, player_ids=[world.anna.pk, world.bruno.pk]
    )
    return night, night_services.round_start(actor=world.admin, tournament_id=night.pk)
