"""Factories for the models the tests make.

Whatever the application creates through a service (clubs, memberships, players, leagues,
seasons, tables) is made here through that same service, so a test starts from a state the
application itself produces: a club with its owner's membership, a slug, a table with its
seats and the first event of its log. Only what no service creates (users, recompute jobs)
is saved directly.

Fields that name who acts (``actor``, ``owner``) default to the club's owner.
"""

import datetime as dt

import factory
from django.contrib.auth.models import User

from games.clubs import services as club_services
from games.models import Club, ClubRole, League, Membership, Player, RecomputeJob, Season, Table
from games.tables import services as table_services

PASSWORD = "pw-12345-xyz"
# A Gin league: Classic to 50, two players a table.
LEAGUE_OPTIONS = {"preset": "classic", "target": 50}


def owner_of(club: Club) -> User:
    return club.memberships.get(role=ClubRole.OWNER).user


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


class SuperUserFactory(UserWithPasswordFactory):
    """A superuser (staff too), as ``createsuperuser`` makes; signs in with PASSWORD."""

    username = factory.Sequence(lambda n: f"boss{n}")
    is_staff = True
    is_superuser = True


class ClubFactory(factory.django.DjangoModelFactory):
    """A club made by ``club_create``: its ``owner`` (a new user unless told) is a member."""

    class Meta:
        model = Club

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Club {n}")
    public = False

    @classmethod
    def _create(cls, model_class, *args, owner, **kwargs):
        return club_services.club_create(user=owner, **kwargs)


class MembershipFactory(factory.django.DjangoModelFactory):
    """A membership made as the invite link makes it: the owner invites, ``user`` accepts."""

    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = ClubRole.MEMBER

    @classmethod
    def _create(cls, model_class, *args, club, user, role):
        invite = club_services.invite_create(actor=owner_of(club), club_id=club.pk, role=role)
        return club_services.invite_accept(token=invite.token, user=user)


class PlayerFactory(factory.django.DjangoModelFactory):
    """A guest player on a club's roster, added by ``player_create``."""

    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    actor = factory.LazyAttribute(lambda p: owner_of(p.club))
    name = factory.Sequence(lambda n: f"Player {n}")

    @classmethod
    def _create(cls, model_class, *args, club, **kwargs):
        return club_services.player_create(club_id=club.pk, **kwargs)


class LeagueFactory(factory.django.DjangoModelFactory):
    """A club's league made by ``league_create``: Gin, Classic to 50, two players a table."""

    class Meta:
        model = League

    club = factory.SubFactory(ClubFactory)
    actor = factory.LazyAttribute(lambda league: owner_of(league.club))
    name = factory.Sequence(lambda n: f"League {n}")
    variant = "gin"
    players = 2
    options = factory.LazyFunction(lambda: dict(LEAGUE_OPTIONS))
    tiebreakers = ()
    public = False

    @classmethod
    def _create(cls, model_class, *args, club, **kwargs):
        return club_services.league_create(club_id=club.pk, **kwargs)


class SeasonFactory(factory.django.DjangoModelFactory):
    """A league's season opened by ``season_create``: spring 2026, unless told."""

    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    actor = factory.LazyAttribute(lambda s: owner_of(s.league.club))
    name = factory.Sequence(lambda n: f"Season {n}")
    starts_on = dt.date(2026, 3, 1)
    ends_on = dt.date(2026, 6, 30)

    @classmethod
    def _create(cls, model_class, *args, league, **kwargs):
        return club_services.season_create(league_id=league.pk, **kwargs)


class TableFactory(factory.django.DjangoModelFactory):
    """A casual table made by ``table_create``: its seats and the first event of its log.

    Gin for Anna and Bruno unless told; ``options`` are the game's options as the new-table
    form sends them, and any other argument of ``table_create`` passes through.
    """

    class Meta:
        model = Table

    variant = "gin"
    options = factory.LazyFunction(dict)
    players = ("Anna", "Bruno")

    @classmethod
    def _create(cls, model_class, *args, players, **kwargs):
        return table_services.table_create(players=list(players), **kwargs)


class RecomputeJobFactory(factory.django.DjangoModelFactory):
    """A "recompute everything" job, queued unless told (the admin's start button makes one
    and queues its task; the task moves it on)."""

    class Meta:
        model = RecomputeJob
