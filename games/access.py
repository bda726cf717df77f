"""Who may do what at a table: the scorekeeper key records, the viewer key only reads."""

import secrets
from collections.abc import Iterable
from enum import StrEnum

from games.models import Table

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
