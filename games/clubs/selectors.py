"""Every read of clubs, leagues and seasons goes through here.

Private data is read only through these, and each one decides who may see it: an object the
user may not see answers DoesNotExist, as an unknown one does.
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games.clubs.models import Club, ClubRole, Invite, League, Membership, Player, Season
from games.shared.models import key_digest


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def membership_get(*, club: Club, user) -> Membership | None:
    """Return the user's membership of the club, or None."""
    if not _signed_in(user):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def clubs_for_user(*, user) -> QuerySet[Club]:
    """Return the clubs the user belongs to, each with the user's role as ``my_role``."""
    if not _signed_in(user):
        return Club.objects.none()
    role = Membership.objects.filter(club=OuterRef("pk"), user=user).values("role")[:1]
    return Club.objects.annotate(my_role=Subquery(role)).filter(my_role__isnull=False)


@dataclass(frozen=True)
class MemberAccess:
    """What one user is in a club: their membership, or None for a visitor."""

    membership: Membership | None

    @property
    def is_member(self) -> bool:
        return self.membership is not None

    @property
    def is_admin(self) -> bool:
        return self.membership is not None and self.membership.is_admin

    @property
    def is_owner(self) -> bool:
        return self.membership is not None and self.membership.role == ClubRole.OWNER


@dataclass(frozen=True)
class ClubAccess(MemberAccess):
    """A club as one user sees it."""

    club: Club


def club_for_user(*, slug: str, user) -> ClubAccess:
    """Return a club its members see, or any signed-in user if it is public; else
    Club.DoesNotExist."""
    club = Club.objects.get(slug=slug)
    membership = membership_get(club=club, user=user)
    if membership is None and not (club.public and _signed_in(user)):
        raise Club.DoesNotExist
    return ClubAccess(club=club, membership=membership)


@dataclass(frozen=True)
class ClubDetail:
    """What a club's page shows; members, players and invites only to those who may see them."""

    members: list[Membership]
    players: list[Player]
    leagues: list[League]
    invites: list[Invite]


def club_detail(*, access: ClubAccess, user) -> ClubDetail:
    """Return the club page's contents for the user behind ``access``."""
    club = access.club
    members = players = invites = []
    if access.is_member:
        members = list(club.memberships.select_related("user").order_by("user__username"))
        players = list(club.players.select_related("user").order_by("name"))
    if access.is_admin:
        usable = club.invites.filter(expires_at__gt=timezone.now(), uses__lt=F("max_uses"))
        invites = list(usable.order_by("-created_at"))
    leagues = list(leagues_visible(user=user).filter(club=club).order_by("name"))
    return ClubDetail(members=members, players=players, leagues=leagues, invites=invites)


def leagues_visible(*, user) -> QuerySet[League]:
    """Return the leagues the user may see: public ones, and every league of their clubs."""
    if not _signed_in(user):
        return League.objects.filter(public=True).select_related("club")
    member = Membership.objects.filter(club=OuterRef("club"), user=user)
    return League.objects.filter(Q(public=True) | Exists(member)).select_related("club")


@dataclass(frozen=True)
class LeagueAccess(MemberAccess):
    """A league as one user sees it, with their membership of its club."""

    league: League


def league_for_user(*, club_slug: str, league_slug: str, user) -> LeagueAccess:
    """Return a league the user may see (public, or one of their clubs'); else
    League.DoesNotExist."""
    league = League.objects.select_related("club").get(club__slug=club_slug, slug=league_slug)
    membership = membership_get(club=league.club, user=user)
    if membership is None and not league.public:
        raise League.DoesNotExist
    return LeagueAccess(league=league, membership=membership)


def league_seasons(*, league: League) -> QuerySet[Season]:
    """Return a league's seasons, latest first, each with its number of tables."""
    return league.seasons.annotate(table_count=Count("tables")).order_by("-starts_on", "-pk")


def season_for_user(*, access: LeagueAccess, season_id: int) -> Season:
    """Return a season of a league the user may see; else Season.DoesNotExist."""
    return Season.objects.select_related("league__club").get(pk=season_id, league=access.league)


def season_by_id_for_user(*, season_id: int, user) -> tuple[Season, LeagueAccess]:
    """Return a season by id with the user's access to its league, for the API: members,
    or anyone for a public league; else Season.DoesNotExist."""
    season = Season.objects.select_related("league__club").get(pk=season_id)
    membership = membership_get(club=season.league.club, user=user)
    if membership is None and not season.league.public:
        raise Season.DoesNotExist
    return season, LeagueAccess(league=season.league, membership=membership)


def club_players(*, club: Club) -> QuerySet[Player]:
    """Return a club's roster by name."""
    return club.players.select_related("user").order_by("name")


def invite_get(*, token: str | None = None, digest: str | None = None) -> Invite:
    """Return the invite a link holds, by its token or its token's digest (what a session
    keeps), with its club; Invite.DoesNotExist if none."""
    digest = key_digest(str(token)) if token is not None else digest
    return Invite.objects.select_related("club").get(token_digest=digest or "")


def player_for_user(*, access: ClubAccess, player_id: int) -> Player:
    """Return a player of the club's roster to one of its members; else Player.DoesNotExist.

    Only members: a player's page gathers every league of the club, private ones too, so a
    visitor of a public club sees no player at all rather than part of one.
    """
    if not access.is_member:
        raise Player.DoesNotExist
    return Player.objects.select_related("user").get(pk=player_id, club=access.club)
