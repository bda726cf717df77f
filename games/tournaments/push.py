"""A night's version, pushed to its screens (the director's page, the players' night page,
the members' and the room's screens) through the push engine, after the commit that moved
it (docs/live.md).

The night's version (``selectors.night_version``) is what its screens' polls compare: it
moves with a round's start, a check-in or a withdrawal, a director's call or decision, the
night's end, and every head of its tables. Each of those commits asks for a push here; the
version is read once the commit is done, so the event says what a poll would now find. A
commit that asks twice (a director's decision also appends to its table) sends the same
version twice; a screen that shows it already ignores the second. No version is skipped as
"sent already": a night can come back to an earlier version (a call cleared), and a screen
that saw the one between must hear it.
"""

from games.tables import push
from games.tournaments import selectors


def night_channel(tournament_id) -> str:
    """Return the channel that a night's screens stream."""
    return f"night-{tournament_id}"


def night_message(version: str) -> str:
    """Return the event that says the night is now at ``version``; its id is the version,
    which a browser sends back as Last-Event-ID when it opens the stream again."""
    return f"id: {version}\nevent: night\ndata: {version}\n\n"


def night_push_on_commit(tournament_id: int) -> None:
    """Push the night's version to its screens once the transaction commits."""
    push.push_made_on_commit(lambda: _night_push(tournament_id))


def table_night_push_on_commit(table_id) -> None:
    """Push the version of the night a table is part of (if any), once its append commits."""
    push.push_made_on_commit(lambda: _table_night_push(table_id))


def _table_night_push(table_id) -> push.Push | None:
    found = selectors.table_night_version(table_id)
    return None if found is None else _version_push(*found)


def _night_push(tournament_id: int) -> push.Push | None:
    version = selectors.night_version_by_id(tournament_id)
    return None if version is None else _version_push(tournament_id, version)


def _version_push(tournament_id: int, version: str) -> push.Push:
    return push.Push(night_channel(tournament_id), version, night_message(version))
