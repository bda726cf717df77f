"""Checks that a table's log is intact: its hash chain, its replay, its cached state."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.tables import snapshots
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


def replay_checked(
    events: Sequence[LogEvent], state: TableState | None = None
) -> TableState | tuple[int, str]:
    """Replay a log (or fold the rest of one into ``state``); return the state, or the seq
    of the first event it no longer replays past and why."""
    for event in events:
        try:
            state = apply(state, event)
        except RuleViolation as exc:
            return event.seq, f"{exc.rule}: {exc}"
    if state is None:
        return 0, "EVENT: the log is empty"
    return state


def tables_audit() -> dict[str, Any]:
    """Verify every table's whole log (chain, replay, cached state); return the count and
    the failures."""
    failures = []
    checked = 0
    for table_id in Table.objects.order_by("pk").values_list("pk", flat=True).iterator():
        result = table_verify(table_id=table_id, whole=True)
        checked += 1
        if not result.ok:
            failures.append(result.to_dict())
    return {"checked": checked, "failures": failures}


def _since_verified(table: Table, projection: TableProjection | None):
    """Return the newest verified snapshot (at ``verified_seq`` or before) and the events
    from its seq on, if they still start with the event it was folded up to; else None
    (the whole log is checked)."""
    if projection is None or not projection.verified_seq:
        return None
    base = snapshots.latest("verified", table.id, at_most=projection.verified_seq)
    if base is None:
        return None
    events = list(table.events.filter(seq__gte=base.seq).order_by("seq"))
    if not events or events[0].seq != base.seq or events[0].hash != base.hash:
        return None
    return base, events


def table_verify(*, table_id: uuid.UUID | str, whole: bool = False) -> Verification:
    """Check a table's hash chain and cached state against its log; repair the cache if off.

    After an append only what is new is checked: the links since the last verified event,
    and the state folded on from the snapshot taken there (so the check costs the same at
    event 50 and at event 5,000). ``whole`` checks every link and replays the whole log: the
    nightly audit does, and so does any check that finds no usable snapshot.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        # The cached state itself is compared in the database (below), never read here: at a
        # long table it is the largest thing a check would otherwise parse.
        projection = TableProjection.objects.filter(table=table).defer("state").first()
        since = None if whole else _since_verified(table, projection)
        if since is None:
            events = list(table.events.order_by("seq"))
            chain_from, new, start = "", events, None
        else:
            base, events = since
            chain_from, new, start = base.hash, events[1:], base.state
        chain_ok = chain_broken_at(new, prev_hash=chain_from) is None and (
            not events or events[-1].hash == table.head_hash
        )
        replayed = replay_checked(engine_events(new), start)
        if isinstance(replayed, tuple):
            # Keep the cached state as it is: a fresh one cannot be made from this log.
            return Verification(
                str(table.id), table.head_seq, chain_ok, False, replayed[0], replayed[1]
            )
        state = replayed.to_dict()
        # Appends leave the projection's row behind for this check to write: behind is
        # expected; at the head and different from the log's state is what is wrong.
        behind = projection is None or projection.seq != table.head_seq
        projection_ok = behind or TableProjection.objects.filter(table=table, state=state).exists()
        if behind or not projection_ok:
            projection, _ = TableProjection.objects.update_or_create(
                table=table, defaults={"seq": table.head_seq, "state": state}
            )
        if chain_ok:
            if projection.verified_seq != table.head_seq:
                TableProjection.objects.filter(table=table).update(verified_seq=table.head_seq)
            snapshots.keep(
                "verified", table.id, seq=table.head_seq, hash=table.head_hash, state=replayed
            )
    return Verification(str(table.id), table.head_seq, chain_ok, projection_ok)
