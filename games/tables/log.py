"""The log: each event hash-chained to the one before it, and read back as the engine reads it."""

import hashlib
import hmac
import json
import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from games.tables.models import Event, Table
from scoring.events import SCHEMA_VERSION, TABLE_CREATED, LogEvent

# The part of a table's first event that says who sits where: each seat's player id and
# the name the table began with. The engine plays names, not players: it never sees this.
SEATING = "seating"


def canonical_event(
    *,
    table_id: uuid.UUID,
    seq: int,
    event_id: uuid.UUID,
    event_type: str,
    payload: dict[str, Any],
    schema_version: int,
    entered_by: str,
    created_at: datetime,
) -> str:
    """Return the canonical JSON form of an event that its hash covers."""
    return json.dumps(
        {
            "table": str(table_id),
            "seq": seq,
            "event_id": str(event_id),
            "type": event_type,
            "payload": payload,
            "schema_version": schema_version,
            "entered_by": entered_by,
            "created_at": created_at.astimezone(UTC).isoformat(),
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def event_hash(*, prev_hash: str, **event: Any) -> str:
    """Hash an event (canonical_event's fields) together with its predecessor's hash.

    The hash is an HMAC keyed with LOG_CHAIN_KEY, a secret kept outside the database: who
    can rewrite the rows cannot compute a chain that verifies without it.
    """
    body = canonical_event(**event)
    key = settings.LOG_CHAIN_KEY.encode()
    return hmac.new(key, (prev_hash + body).encode(), hashlib.sha256).hexdigest()


def event_row(
    *,
    table: Table,
    seq: int,
    prev_hash: str,
    event_id: uuid.UUID,
    event_type: str,
    payload: dict[str, Any],
    entered_by: str,
    created_at: datetime,
    user=None,
) -> Event:
    """Return an unsaved event chained to ``prev_hash``; it is not replayed here.

    ``event_append`` saves it after the replay; loaders of stored logs (the bench) and tests
    that store what an old engine could have written use it directly.
    """
    event = Event(
        table=table,
        seq=seq,
        event_id=event_id,
        type=event_type,
        payload=payload,
        schema_version=SCHEMA_VERSION,
        entered_by=entered_by,
        user=user if user is not None and user.is_authenticated else None,
        created_at=created_at,
        prev_hash=prev_hash,
    )
    event.hash = event_hash(prev_hash=prev_hash, **hashed_fields(event))
    return event


def hashed_fields(event: Event) -> dict[str, Any]:
    """Return the fields of a stored event that its hash covers (canonical_event's arguments)."""
    return {
        "table_id": event.table_id,
        "seq": event.seq,
        "event_id": event.event_id,
        "event_type": event.type,
        "payload": event.payload,
        "schema_version": event.schema_version,
        "entered_by": event.entered_by,
        "created_at": event.created_at,
    }


def chain_broken_at(events: Sequence[Event], *, prev_hash: str = "") -> int | None:
    """Return the seq of the first event whose hash does not chain, or None if all do.

    ``prev_hash`` is the hash the first event must follow: "" for a whole log, the last
    checked event's hash for the rest of one.
    """
    prev = prev_hash
    for event in events:
        expected = event_hash(prev_hash=prev, **hashed_fields(event))
        if event.prev_hash != prev or event.hash != expected:
            return event.seq
        prev = event.hash
    return None


def seating_logged(players: Iterable[Any]) -> list[dict[str, Any]]:
    """Return the seating a table's first event logs: per seat, in order, its player's id
    and name."""
    return [{"player": player.pk, "name": player.name} for player in players]


def seating_players(payload: dict[str, Any]) -> list[int] | None:
    """Return the player ids a table's first event seats, in seat order, or None if it logs
    no seating (a table created before the seating was logged: its checkpoints cover it)."""
    seating = payload.get(SEATING)
    if not isinstance(seating, list):
        return None
    return [seat.get("player") if isinstance(seat, dict) else None for seat in seating]


def engine_payload(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Return an event's payload as the engine reads it: the creation without its seating."""
    if event_type == TABLE_CREATED and SEATING in payload:
        return {name: value for name, value in payload.items() if name != SEATING}
    return payload


def engine_events(events: Iterable[Event]) -> list[LogEvent]:
    """Return logged events as the engine reads them."""
    return [
        LogEvent(seq=e.seq, event_type=e.type, payload=engine_payload(e.type, e.payload))
        for e in events
    ]


def checkpoint_signature(
    *, table_id: uuid.UUID | str, taken_at: datetime, seq: int, head_hash: str, seating: list[int]
) -> str:
    """Sign a table's checkpoint: an HMAC keyed with LOG_CHAIN_KEY, as the chain is, so who
    can write the rows cannot write a checkpoint that verifies. The prefix keeps a
    checkpoint's signature apart from any event's hash."""
    body = json.dumps(
        {
            "table": str(table_id),
            "taken_at": taken_at.astimezone(UTC).isoformat(),
            "seq": seq,
            "head_hash": head_hash,
            "seating": seating,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    key = settings.LOG_CHAIN_KEY.encode()
    return hmac.new(key, f"checkpoint:{body}".encode(), hashlib.sha256).hexdigest()
