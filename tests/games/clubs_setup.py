"""Factories and a small club world for the club, league and season tests.

Clubs, leagues and seasons are made through the services, as the pages make them, so the
tests start from states the application itself produces.
"""

import datetime as dt
import uuid
from dataclasses import dataclass

import factory
from django.contrib.auth.models import User

from games.clubs import services as club_services
from games.models import Club, ClubRole, League, Membership, Player, Season, Table
from games.tables import services as table_services

PASSWORD = "pw-12345-xyz"
# A Gin league: Classic to 50, two players a table.
LEAGUE_OPTIONS = {"preset": "classic", "target": 50}


class UserFactory(factory.django.DjangoModelFactory):
    """A user who signs in with ``force_login``: no password, so no slow hashing."""

    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = "!"  # Django's mark of an unusable password


class UserWithPasswordFactory(UserFactory):
    """A user who signs in on the login page with PASSWORD."""

    password = factory.django.Password(PASSWORD)


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


def join(club: Club, user: User, role: str = ClubRole.MEMBER) -> Membership:
    """Make ``user`` a member through an invite, as the invite link does."""
    owner = club.memberships.get(role=ClubRole.OWNER).user
    invite = club_services.invite_create(actor=owner, club_id=club.pk, role=role)
    return club_services.invite_accept(token=invite.token, user=user)


def club_world(*, public_league: bool = False) -> ClubWorld:
    owner, admin, member, outsider = (
        UserFactory(username=name) for name in ("olga", "adam", "mara", "otto")
    )
    club = club_services.club_create(user=owner, name="Circolo del Ramino")
    join(club, admin, ClubRole.ADMIN)
    join(club, member)
    other_club = club_services.club_create(user=outsider, name="Other Club")
    anna, bruno, carla = (
        club_services.player_create(actor=admin, club_id=club.pk, name=name)
        for name in ("Anna", "Bruno", "Carla")
    )
    league = club_services.league_create(
        actor=admin,
        club_id=club.pk,
        name="Gin Tuesdays",
        variant="gin",
        players=2,
        options=LEAGUE_OPTIONS,
        tiebreakers=["head_to_head", "points_difference"],
        public=public_league,
    )
    season = club_services.season_create(
        actor=admin,
        league_id=league.pk,
        name="Spring",
        starts_on=dt.date(2026, 3, 1),
        ends_on=dt.date(2026, 6, 30),
    )
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
    return club_services.season_create(
        actor=world.admin,
        league_id=world.league.pk,
        name="Autumn",
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 12, 31),
    )
