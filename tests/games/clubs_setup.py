"""A small club world for the club, league and season tests, composed of the factories
(tests/factories.py), which make clubs, leagues and seasons through the services, as the
pages make them.
"""

import datetime as dt
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User

from games.models import Club, ClubRole, League, Player, Season, Table
from games.tables import services as table_services
from tests.factories import (
    ClubFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)


@dataclass
class ClubWorld:
    """A club with an owner, an admin and a member; another club with its own owner."""

    owner: User
    admin: User
    member: User
    outsider: User
    club: Club
    other_club: Club
    anna: Player
    bruno: Player
    carla: Player
    league: League
    season: Season

    def table(self, *players: Player, **kwargs) -> Table:
        """Start a table of the season, by the member, with Anna and Bruno unless told."""
        return table_services.season_table_create(
            actor=kwargs.pop("actor", self.member),
            season_id=kwargs.pop("season_id", self.season.pk),
            player_ids=[p.pk for p in (players or (self.anna, self.bruno))],
            **kwargs,
        )


def club_world(*, public_league: bool = False) -> ClubWorld:
    owner, admin, member, outsider = (
        UserFactory(username=name) for name in ("olga", "adam", "mara", "otto")
    )
    club = ClubFactory(owner=owner, name="Circolo del Ramino")
    MembershipFactory(club=club, user=admin, role=ClubRole.ADMIN)
    MembershipFactory(club=club, user=member)
    other_club = ClubFactory(owner=outsider, name="Other Club")
    anna, bruno, carla = (
        PlayerFactory(club=club, actor=admin, name=name) for name in ("Anna", "Bruno", "Carla")
    )
    league = LeagueFactory(
        club=club,
        actor=admin,
        name="Gin Tuesdays",
        tiebreakers=["head_to_head", "points_difference"],
        public=public_league,
    )
    season = SeasonFactory(league=league, actor=admin, name="Spring")
    return ClubWorld(
        owner=owner,
        admin=admin,
        member=member,
        outsider=outsider,
        club=club,
        other_club=other_club,
        anna=anna,
        bruno=bruno,
        carla=carla,
        league=league,
        season=season,
    )


def record(table: Table, payload: dict, user, event_type: str = "hand_recorded"):
    """Append one event at the table's head, as a member at the table does."""
    table.refresh_from_db()
    return table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=event_type,
        payload=payload,
        user=user,
    )


def play(world: ClubWorld, players, hands, **kwargs) -> Table:
    """Start a table of the season with ``players`` and record ``hands`` (Gin quick entry)."""
    table = world.table(*players, **kwargs)
    for hand in hands:
        record(table, hand, world.member)
    return table


def open_autumn(world: ClubWorld) -> Season:
    """Open the league's second season, Autumn, after Spring."""
    return SeasonFactory(
        league=world.league,
        actor=world.admin,
        name="Autumn",
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 12, 31),
    )
