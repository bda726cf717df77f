"""Who may do what at a table: the scorekeeper key records, the viewer key only reads.

A league table (one in a club's season) is the club's: signed-in members of the club record
at it while its season is open, and read it once the season is closed. A key still opens
it, but only to watch, so spectators with a link can follow a match and nobody outside the
club can ever record at it.

The database keeps only the keys' SHA-256 digests, so everything here works on digests: a
key from a request is hashed at once, and a browser's session holds digests, never keys.
"""

import secrets
from collections.abc import Iterable
from enum import StrEnum

from django.utils.translation import gettext, gettext_lazy

from games.clubs.models import Group, Membership
from games.shared.models import key_digest
from games.tables.models import KeyClaim, Table

SEASON_CLOSED = gettext_lazy("This season is closed: its tables are archived and read-only.")
MEMBERS_RECORD = gettext_lazy("Only signed-in members of the club can record at its league tables.")

KEY_HEADER = "X-Table-Key"
# What this browser holds, per table: the digest of the key whose role it was given (by the
# table's creation, a key link or a join token). A digest opens nothing when presented as a
# key, so even a leaked session row gives no key to use elsewhere (the API, another browser).
SESSION_GRANTS = "table_grants"
# The same for groups: group id -> the digest of its member or viewer key.
SESSION_GROUP_GRANTS = "group_grants"
# Sessions from before keys were hashed held the keys themselves; read once, then replaced.
LEGACY_SESSION_KEYS = "table_keys"


class Role(StrEnum):
    SCOREKEEPER = "scorekeeper"
    VIEWER = "viewer"


def role_for_digests(table: Table, digests: Iterable[str]) -> Role | None:
    """Return the strongest role any of the key ``digests`` grants on ``table``, or None."""
    role = None
    for digest in digests:
        # compare_digest keeps the check's timing independent of how much of a digest matches.
        if secrets.compare_digest(digest.encode(), table.scorekeeper_digest.encode()):
            return Role.SCOREKEEPER
        if secrets.compare_digest(digest.encode(), table.viewer_digest.encode()):
            role = Role.VIEWER
    return role


def role_digest(table: Table, role: Role) -> str:
    """Return the digest of the key that gives ``role`` at ``table``."""
    return table.scorekeeper_digest if role == Role.SCOREKEEPER else table.viewer_digest


def group_role_for_digests(group: Group, digests: Iterable[str]) -> Role | None:
    """Return the strongest role the key ``digests`` grant in ``group``: its member key's
    is the scorekeeper's (start tables, record at them), its viewer key's only watches."""
    role = None
    for digest in digests:
        if secrets.compare_digest(digest.encode(), group.member_digest.encode()):
            return Role.SCOREKEEPER
        if secrets.compare_digest(digest.encode(), group.viewer_digest.encode()):
            role = Role.VIEWER
    return role


def group_role_digest(group: Group, role: Role) -> str:
    """Return the digest of the key that gives ``role`` in ``group``."""
    return group.member_digest if role == Role.SCOREKEEPER else group.viewer_digest


def group_role(group: Group, *, digests: Iterable[str]) -> Role | None:
    """Return the role a request has in ``group``, from the keys it presents."""
    return group_role_for_digests(group, digests)


def group_manager(user, group: Group) -> bool:
    """Tell whether a signed-in ``user`` manages ``group``: made it, or claimed its member
    key (importing into it, for one, needs an account that does)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        group.created_by_id == user.pk
        or KeyClaim.objects.filter(user=user, group=group, role=Role.SCOREKEEPER).exists()
    )


def is_club_member(user, club_id: int) -> bool:
    """Tell whether ``user`` is signed in and a member (any role) of the club."""
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(club_id=club_id, user=user).exists()


def table_role(table: Table, *, digests: Iterable[str], user=None) -> Role | None:
    """Return the role a request has at ``table``: its keys' for a casual table; for a league
    table, members record (read once the season is closed) and keys only watch, but at a
    tournament night's table (``keys_record``), where keys record too while it is open."""
    digests = list(digests)
    role = role_for_digests(table, digests)
    if table.group_id is not None and role != Role.SCOREKEEPER:
        # A group's member key records at every table of the group, its viewer key watches.
        role = group_role_for_digests(table.group, digests) or role
    if table.season_id is None or (table.keys_write and role == Role.SCOREKEEPER):
        return role
    season = table.season
    if is_club_member(user, season.league.club_id):
        return Role.SCOREKEEPER if season.is_open else Role.VIEWER
    return None if role is None else Role.VIEWER


def write_refusal(table: Table) -> str:
    """Say why a request that may read ``table`` may not record at it."""
    if table.season_id is None:
        return gettext("Only scorekeepers can record.")
    if not table.season.is_open:
        return str(SEASON_CLOSED)
    return str(MEMBERS_RECORD)


# A client holds one key per table it asks about; the header is read no further than this,
# so a long header costs no more hashing than a short one.
MOST_HEADER_KEYS = 8


def header_digests(request) -> list[str]:
    """Return the digests of the first keys sent in the X-Table-Key header (comma-separated)."""
    keys = request.headers.get(KEY_HEADER, "").split(",", MOST_HEADER_KEYS)[:MOST_HEADER_KEYS]
    return [key_digest(key.strip()) for key in keys if key.strip()]


def _session_grants(request) -> dict[str, str]:
    if not hasattr(request, "session"):
        return {}
    grants = request.session.get(SESSION_GRANTS, {})
    legacy = request.session.get(LEGACY_SESSION_KEYS)
    if legacy:
        # Keys kept before they were hashed: keep their digests in their place.
        grants = {**{t: key_digest(k) for t, k in legacy.items()}, **grants}
        request.session[SESSION_GRANTS] = grants
        del request.session[LEGACY_SESSION_KEYS]
    return grants


def session_table_grants(request) -> dict[str, str]:
    """Return the table grants this browser's session holds (table id -> key digest)."""
    return dict(_session_grants(request))


def session_group_grants(request) -> dict[str, str]:
    """Return the group grants this browser's session holds (group id -> key digest)."""
    if not hasattr(request, "session"):
        return {}
    return request.session.get(SESSION_GROUP_GRANTS, {})


def request_digests(request, table_id: str | None = None) -> list[str]:
    """Collect the key digests a request presents: the header's, then the browser session's
    (for ``table_id`` only, when given), then the groups' the session holds (a group's key
    opens its tables)."""
    digests = header_digests(request)
    grants = _session_grants(request)
    if table_id is None:
        digests.extend(grants.values())
    elif str(table_id) in grants:
        digests.append(grants[str(table_id)])
    digests.extend(session_group_grants(request).values())
    return digests


def session_remember_group(request, group: Group, role: Role) -> None:
    """Give this browser ``role`` in ``group``, the stronger role it holds already winning."""
    grants = dict(session_group_grants(request))
    current = grants.get(str(group.pk))
    if current and group_role_for_digests(group, [current]) == Role.SCOREKEEPER:
        return
    grants[str(group.pk)] = group_role_digest(group, role)
    request.session[SESSION_GROUP_GRANTS] = grants


def session_remember(request, table: Table, role: Role) -> None:
    """Give this browser ``role`` at ``table``, the stronger role it holds already winning."""
    grants = dict(_session_grants(request))
    current = grants.get(str(table.id))
    if current and role_for_digests(table, [current]) == Role.SCOREKEEPER:
        return
    grants[str(table.id)] = role_digest(table, role)
    request.session[SESSION_GRANTS] = grants


def session_follow(request, table: Table, rematch: Table) -> Role | None:
    """Give this browser at ``rematch`` (a table continuing ``table``) the role its own grant
    holds at ``table``, and return it: a scorekeeper stays one, a viewer stays one.

    Nothing else is given: a group's key and a club's membership open the rematch as they
    opened ``table``, and a browser with no grant of its own here gets none there."""
    digest = _session_grants(request).get(str(table.id))
    role = role_for_digests(table, [digest]) if digest else None
    if role is not None:
        session_remember(request, rematch, role)
    return role
