"""A player who arrives after the first round (NIGHT-LATE): taken by a Swiss from the next
round with nothing for the rounds missed; refused by a round robin or a knock-out, whose
schedule was drawn from the first round's field."""

import pytest

from games.shared.errors import ActionRefused
from games.tables import snapshots
from games.tournaments import selectors, services
from tests.factories import PlayerFactory
from tests.games.tournaments.helpers import finish_gin_table

pytestmark = pytest.mark.django_db


def _night(world, format: str):
    PlayerFactory(club=world.club, actor=world.admin, name="Dario")
    night = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Late night",
        rounds=3,
        round_minutes=30,
        format=format,
        seed=11,
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=night.pk,
        player_ids=[p.pk for p in world.club.players.all()],
    )
    return night


def _register(world, night, name: str) -> int:
    late = PlayerFactory(club=world.club, actor=world.admin, name=name)
    return services.entrants_register(
        actor=world.admin, tournament_id=night.pk, player_ids=[late.pk]
    )


def test_a_swiss_takes_a_latecomer_from_the_next_round_with_nothing_for_the_one_missed(world):
    """NIGHT-LATE: four play round 1 (two winners on 3 VP, two losers on 0 with a Buchholz
    of 3). Elena comes: 0 VP and a Buchholz of 0, she is last; in a field of five the bye
    of round 2 skips her, joining this round, and goes to the lowest of the others (one of
    the two losers, level on everything: the seed's draw between them). She sits at a
    table, where the night's lateness penalty of 25 is taken from her total."""
    night = _night(world, "swiss")
    night.late_penalty = 25
    night.save(update_fields=["late_penalty"])
    first = services.round_start(actor=world.admin, tournament_id=night.pk)
    for table in first.tables:
        finish_gin_table(table.id)
    losers = {table.seats.order_by("position")[1].player.name for table in first.tables}
    assert _register(world, night, "Elena") == 1
    lines = {line.name: line.row for line in selectors.night_standings(tournament=night)}
    assert (lines["Elena"].victory_points, lines["Elena"].played, lines["Elena"].rank) == (0, 0, 5)
    second = services.round_start(actor=world.admin, tournament_id=night.pk)
    assert second.round.bye.player.name in losers
    assert len(second.tables) == 2
    pairing = second.round.tables.get(seats__entrant__player__name="Elena")
    seat = pairing.seats.get(entrant__player__name="Elena").seat
    services.points_adjust(
        actor=world.admin,
        tournament_id=night.pk,
        round_table_id=pairing.pk,
        seat=seat,
        preset="late",
    )
    pairing.table.refresh_from_db()
    assert snapshots.head_state(pairing.table).totals[seat] == -25


@pytest.mark.parametrize("format", ["round_robin", "knockout"])
def test_a_drawn_schedule_refuses_a_new_player_after_the_first_round(world, format):
    """NIGHT-LATE: the round robin's schedule and the knock-out's bracket were drawn from the
    three checked in at round 1; Elena, new, would never be paired, so is refused, and so is
    checking in Dario, registered before but not there then."""
    night = _night(world, format)
    absent = night.entrants.get(player__name="Dario")
    services.entrant_set(
        actor=world.admin,
        tournament_id=night.pk,
        entrant_id=absent.pk,
        checked_in=False,
        withdrawn=False,
    )
    services.round_start(actor=world.admin, tournament_id=night.pk)
    with pytest.raises(ActionRefused, match="takes no new players"):
        _register(world, night, "Elena")
    assert not night.entrants.filter(player__name="Elena").exists()
    with pytest.raises(ActionRefused, match="takes no new players"):
        services.entrant_set(
            actor=world.admin,
            tournament_id=night.pk,
            entrant_id=absent.pk,
            checked_in=True,
            withdrawn=False,
        )
