"""Who may do what at a table: the scorekeeper key records, the viewer key only reads.

A league table (one in a club's season) is the club's: signed-in members of the club record
at it while its season is open, and read it once the season is closed. A key still opens
it, but only to watch, so spectators with a link can follow a match and nobody outside the
club can ever record at it.
"""

import secrets
from collections.abc import Iterable
from enum import StrEnum

from django.utils.translation import gettext, gettext_lazy

from games.clubs.models import Membership
from games.tables.models import Table

SEASON_CLOSED = gettext_lazy("This season is closed: its tables are archived and read-only.")
MEMBERS_RECORD = gettext_lazy("Only signed-in members of the club can record at its league tables.")

KEY_HEADER = "X-Table-Key"
SESSION_KEYS = "table_keys"


class Role(StrEnum):
    SCOREKEEPER = "scorekeeper"
    VIEWER = "viewer"


def role_for_keys(table: Table, keys: Iterable[str]) -> Role | None:
    """Return the strongest role any of ``keys`` grants on ``table``, or None."""
    role = None
    for key in keys:
        # compare_digest keeps the check's timing independent of how much of a key matches.
        if secrets.compare_digest(key.encode(), table.scorekeeper_key.encode()):
            return Role.SCOREKEEPER
        if secrets.compare_digest(key.encode(), table.viewer_key.encode()):
            role = Role.VIEWER
    return role


def is_club_member(user, club_id: int) -> bool:
    """Tell whether ``user`` is signed in and a member (any role) of the club."""
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(club_id=club_id, user=user).exists()


def table_role(table: Table, *, keys: Iterable[str], user=None) -> Role | None:
    """Return the role a request has at ``table``: its keys' for a casual table; for a league
    table, members record (read once the season is closed) and keys only watch."""
    role = role_for_keys(table, keys)
    if table.season_id is None:
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


def request_keys(request, table_id: str | None = None) -> list[str]:
    """Collect the keys a request presents: the header, then the browser session's."""
    keys = [k.strip() for k in request.headers.get(KEY_HEADER, "").split(",") if k.strip()]
    stored = request.session.get(SESSION_KEYS, {}) if hasattr(request, "session") else {}
    if table_id is None:
        keys.extend(stored.values())
    elif str(table_id) in stored:
        keys.append(stored[str(table_id)])
    return keys


def session_remember(request, table: Table, key: str) -> None:
    """Keep a table's key in this browser's session, the strongest one winning."""
    stored = dict(request.session.get(SESSION_KEYS, {}))
    current = stored.get(str(table.id))
    if current and role_for_keys(table, [current]) == Role.SCOREKEEPER:
        return
    stored[str(table.id)] = key
    request.session[SESSION_KEYS] = stored
