"""Where an import may go: a group its importer manages, or a club they administer."""

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from games.clubs.models import Club, ClubRole, Group, Player
from games.clubs.services import require_member
from games.shared.errors import ActionRefused
from games.tables.access import Role, group_manager


@dataclass(frozen=True)
class ImportTarget:
    """A group its importer manages, or a club they administer."""

    group: Group | None = None
    club: Club | None = None

    @property
    def key(self) -> str:
        """Return the target as a form's choice names it: "group:<id>" or "club:<id>"."""
        return f"group:{self.group.pk}" if self.group else f"club:{self.club.pk}"

    @property
    def name(self) -> str:
        return self.group.name if self.group else self.club.name

    def ids(self) -> dict[str, int]:
        """Return the target as ``log_import`` takes it: group_id= or club_id=."""
        return {"group_id": self.group.pk} if self.group else {"club_id": self.club.pk}

    def players(self) -> QuerySet[Player]:
        if self.group:
            return Player.objects.filter(group=self.group)
        return Player.objects.filter(club=self.club)


def import_targets(*, user) -> list[ImportTarget]:
    """Return where ``user`` may import: the groups they manage, then the clubs they
    administer, each by name."""
    if user is None or not user.is_authenticated:
        return []
    managed = Group.objects.filter(
        Q(created_by=user) | Q(claims__user=user, claims__role=Role.SCOREKEEPER)
    ).distinct()
    administered = Club.objects.filter(
        memberships__user=user, memberships__role__in=[ClubRole.OWNER, ClubRole.ADMIN]
    ).distinct()
    return [
        *(ImportTarget(group=g) for g in sorted(managed, key=lambda g: g.name.casefold())),
        *(ImportTarget(club=c) for c in sorted(administered, key=lambda c: c.name.casefold())),
    ]


def import_target(*, user, group_id: int | None = None, club_id: int | None = None):
    """Return the group or club named, if ``user`` may import into it; else ActionRefused
    (an unknown one looks the same as one of someone else's)."""
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to import a file."))
    if (group_id is None) == (club_id is None):
        raise ActionRefused(gettext("Choose one group or one club to import into."))
    if group_id is not None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None or not group_manager(user, group):
            raise ActionRefused(gettext("You can import only into a group you manage."))
        return ImportTarget(group=group)
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise ActionRefused(gettext("Only the club's owner and admins can do this."))
    require_member(club_id=club.pk, user=user, admin=True)
    return ImportTarget(club=club)
