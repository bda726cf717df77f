"""Checks that a table's log is intact: its hash chain, its replay, its cached state."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.tables.log import chain_broken_at, engine_events
from games.tables.models import Table, TableProjection
from scoring.errors import RuleViolation
from scoring.events import LogEvent
from scoring.replay import TableState, apply


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


def replay_checked(events: Sequence[LogEvent]) -> TableState | tuple[int, str]:
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
