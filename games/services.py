"""Every write to tables and their logs goes through here."""

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Event, Player, Seat, Table, TableProjection
from games.selectors import engine_events
from scoring import events as ev
from scoring.errors import RuleViolation, Violation
from scoring.replay import TableState, apply, replay


class EventRejected(Exception):
    """The event breaks a rule or is malformed; nothing was stored."""

    def __init__(self, violations: Sequence[Violation]):
        super().__init__("; ".join(v.message for v in violations))
        self.violations = tuple(violations)


class AppendConflict(Exception):
    """The client's ``expected_seq`` is not the table's head: someone else wrote first."""

    def __init__(self, *, table: Table, state: dict[str, Any]):
        super().__init__(f"The table is at event {table.head_seq}.")
        self.head_seq = table.head_seq
        self.head_hash = table.head_hash
        self.state = state


@dataclass(frozen=True)
class AppendResult:
    event: Event
    created: bool
    state: dict[str, Any]


def event_hash(
    *,
    prev_hash: str,
    table_id: uuid.UUID,
    seq: int,
    event_id: uuid.UUID,
    type: str,
    payload: dict[str, Any],
    schema_version: int,
    entered_by: str,
    created_at: datetime,
) -> str:
    """Hash an event together with its predecessor's hash, over a canonical JSON form."""
    body = json.dumps(
        {
            "table": str(table_id),
            "seq": seq,
            "event_id": str(event_id),
            "type": type,
            "payload": payload,
            "schema_version": schema_version,
            "entered_by": entered_by,
            "created_at": created_at.astimezone(UTC).isoformat(),
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _insert_event(
    *,
    table: Table,
    seq: int,
    event_id: uuid.UUID,
    type: str,
    payload: dict[str, Any],
    entered_by: str,
    user,
) -> Event:
    created_at = timezone.now()
    digest = event_hash(
        prev_hash=table.head_hash,
        table_id=table.id,
        seq=seq,
        event_id=event_id,
        type=type,
        payload=payload,
        schema_version=ev.SCHEMA_VERSION,
        entered_by=entered_by,
        created_at=created_at,
    )
    return Event.objects.create(
        table=table,
        seq=seq,
        event_id=event_id,
        type=type,
        payload=payload,
        schema_version=ev.SCHEMA_VERSION,
        entered_by=entered_by,
        user=user if user is not None and user.is_authenticated else None,
        created_at=created_at,
        prev_hash=table.head_hash,
        hash=digest,
    )


def _store_head(*, table: Table, event: Event, state: TableState) -> dict[str, Any]:
    """Move the table's head to ``event`` and cache the replayed state."""
    projected = state.to_dict()
    table.head_seq = event.seq
    table.head_hash = event.hash
    table.status = Table.Status.FINISHED if state.finished else Table.Status.OPEN
    table.save(update_fields=["head_seq", "head_hash", "status", "updated_at"])
    TableProjection.objects.update_or_create(
        table=table, defaults={"seq": event.seq, "state": projected}
    )
    return projected


def _queue_verify(table_id: uuid.UUID) -> None:
    from games.tasks import table_verify

    transaction.on_commit(lambda: table_verify.delay(str(table_id)))


@transaction.atomic
def table_create(
    *,
    variant: str,
    options: dict[str, Any],
    players: Sequence[str],
    entered_by: str = "",
    user=None,
    table_id: uuid.UUID | None = None,
) -> Table:
    """Create a table, its seats and the first event of its log; refuse bad settings."""
    payload = {"variant": variant, "options": dict(options), "seats": [p.strip() for p in players]}
    try:
        state = apply(None, ev.Event(seq=1, type=ev.TABLE_CREATED, payload=payload))
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    full_options = state.variant.options_to_dict(state.options)
    # The log keeps the options in full, so a later change of defaults never changes a table.
    payload["options"] = full_options
    table = Table.objects.create(
        id=table_id or uuid.uuid4(),
        variant=variant,
        preset=full_options.get("preset", ""),
        options=full_options,
        # The match's length: points to reach (Gin, Rummy40, Knock Rummy) or hands (Ramino).
        target=full_options.get("target", full_options.get("hands", 1)),
        created_by=user if user is not None and user.is_authenticated else None,
    )
    for position, name in enumerate(state.seats):
        Seat.objects.create(table=table, position=position, player=Player.objects.create(name=name))
    event = _insert_event(
        table=table,
        seq=1,
        event_id=uuid.uuid4(),
        type=ev.TABLE_CREATED,
        payload=payload,
        entered_by=entered_by,
        user=user,
    )
    _store_head(table=table, event=event, state=state)
    _queue_verify(table.id)
    return table


def event_append(
    *,
    table_id: uuid.UUID | str,
    event_id: uuid.UUID,
    expected_seq: int,
    type: str,
    payload: dict[str, Any],
    entered_by: str = "",
    user=None,
) -> AppendResult:
    """Append one event to a table's log after replaying it on the current state.

    A retry with a stored ``event_id`` returns the stored event; a stale ``expected_seq``
    raises AppendConflict; a rule violation raises EventRejected. Nothing is stored then.
    """
    try:
        with transaction.atomic():
            return _append_locked(
                table_id=table_id,
                event_id=event_id,
                expected_seq=expected_seq,
                type=type,
                payload=payload,
                entered_by=entered_by,
                user=user,
            )
    except IntegrityError:
        # Only a concurrent insert of the same event_id on another table gets here: the
        # table lock serialises everything else. Answer as a retry would.
        existing = Event.objects.filter(event_id=event_id).select_related("table").first()
        if existing is None:
            raise
        return _existing_result(existing, table_id=table_id, type=type, payload=payload)


def _existing_result(
    existing: Event, *, table_id, type: str, payload: dict[str, Any]
) -> AppendResult:
    if (
        str(existing.table_id) != str(table_id)
        or existing.type != type
        or existing.payload != payload
    ):
        raise EventRejected(
            [
                Violation(
                    rule="EVENT",
                    code="event_id_reused",
                    message="This event_id was already used for a different event.",
                    params={"event_id": str(existing.event_id)},
                )
            ]
        )
    projection = TableProjection.objects.get(table_id=existing.table_id)
    return AppendResult(event=existing, created=False, state=projection.state)


def _append_locked(
    *, table_id, event_id, expected_seq, type, payload, entered_by, user
) -> AppendResult:
    table = Table.objects.select_for_update().get(pk=table_id)
    existing = Event.objects.filter(event_id=event_id).first()
    if existing is not None:
        return _existing_result(existing, table_id=table.id, type=type, payload=payload)
    if expected_seq != table.head_seq:
        raise AppendConflict(table=table, state=TableProjection.objects.get(table=table).state)
    if type not in ev.APPENDABLE_TYPES:
        raise EventRejected(
            [
                Violation(
                    rule="EVENT",
                    code="unknown_type",
                    message=f"Unknown event type '{type}'.",
                    params={"type": type, "choices": list(ev.APPENDABLE_TYPES)},
                )
            ]
        )
    new = ev.Event(seq=table.head_seq + 1, type=type, payload=payload)
    try:
        state = apply(replay(engine_events(table.events.order_by("seq"))), new)
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    event = _insert_event(
        table=table,
        seq=new.seq,
        event_id=event_id,
        type=type,
        payload=payload,
        entered_by=entered_by,
        user=user,
    )
    projected = _store_head(table=table, event=event, state=state)
    _queue_verify(table.id)
    return AppendResult(event=event, created=True, state=projected)


@transaction.atomic
def projection_rebuild(*, table_id: uuid.UUID | str) -> TableProjection:
    """Throw away a table's cached state and replay it from the log."""
    table = Table.objects.select_for_update().get(pk=table_id)
    TableProjection.objects.filter(table=table).delete()
    state = replay(engine_events(table.events.order_by("seq")))
    return TableProjection.objects.create(table=table, seq=state.head_seq, state=state.to_dict())


@dataclass(frozen=True)
class Verification:
    table_id: str
    seq: int
    chain_ok: bool
    projection_ok: bool
    # Where the log stopped replaying (the event's seq and the rule it broke), if it did:
    # e.g. after a change of the engine's rules, a stored event the new rules refuse.
    replay_failed_at: int | None = None
    replay_error: str = ""

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.projection_ok and self.replay_failed_at is None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form tasks return and logs show."""
        return {
            "table": self.table_id,
            "seq": self.seq,
            "ok": self.ok,
            "chain_ok": self.chain_ok,
            "projection_ok": self.projection_ok,
            "replay_failed_at": self.replay_failed_at,
            "replay_error": self.replay_error,
        }


def replay_checked(events: Sequence[ev.Event]) -> TableState | tuple[int, str]:
    """Replay a log; return its state, or the seq of the first event it no longer replays
    past and why."""
    state = None
    for event in events:
        try:
            state = apply(state, event)
        except RuleViolation as exc:
            return event.seq, f"{exc.rule}: {exc}"
    if state is None:
        return 0, "EVENT: the log is empty"
    return state


def tables_audit() -> dict[str, Any]:
    """Verify every table (chain, replay, cached state); return the count and the failures."""
    failures = []
    checked = 0
    for table_id in Table.objects.order_by("pk").values_list("pk", flat=True).iterator():
        result = table_verify(table_id=table_id)
        checked += 1
        if not result.ok:
            failures.append(result.to_dict())
    return {"checked": checked, "failures": failures}


def chain_broken_at(events: Sequence[Event]) -> int | None:
    """Return the seq of the first event whose hash does not chain, or None if all do."""
    prev = ""
    for event in events:
        expected = event_hash(
            prev_hash=prev,
            table_id=event.table_id,
            seq=event.seq,
            event_id=event.event_id,
            type=event.type,
            payload=event.payload,
            schema_version=event.schema_version,
            entered_by=event.entered_by,
            created_at=event.created_at,
        )
        if event.prev_hash != prev or event.hash != expected:
            return event.seq
        prev = event.hash
    return None


def table_verify(*, table_id: uuid.UUID | str) -> Verification:
    """Check a table's hash chain and cached state against its log; repair the cache if off."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        events = list(table.events.order_by("seq"))
        chain_ok = chain_broken_at(events) is None and (
            not events or events[-1].hash == table.head_hash
        )
        replayed = replay_checked(engine_events(events))
        if isinstance(replayed, tuple):
            # Keep the cached state as it is: a fresh one cannot be made from this log.
            return Verification(
                str(table.id), table.head_seq, chain_ok, False, replayed[0], replayed[1]
            )
        state = replayed.to_dict()
        projection = TableProjection.objects.filter(table=table).first()
        projection_ok = projection is not None and projection.state == state
        if not projection_ok:
            projection, _ = TableProjection.objects.update_or_create(
                table=table, defaults={"seq": table.head_seq, "state": state}
            )
        if chain_ok and projection.verified_seq != table.head_seq:
            TableProjection.objects.filter(table=table).update(verified_seq=table.head_seq)
    return Verification(str(table.id), table.head_seq, chain_ok, projection_ok)
