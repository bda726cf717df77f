"""Checks that a table's log is intact: its hash chain, its replay, its cached state, its
seating, and its head against the last signed checkpoint.

The chain proves that each event follows the one before; it cannot show events removed from
the end with the head moved back to match, nor a seat's player changed. So:

- a table's first event logs its seating (each seat's player id and name): a ``Seat`` row
  whose player is not the one logged is reported;
- the nightly audit keeps a ``Checkpoint`` of every table that verifies and changed since
  its last one: its head (seq and hash) and its seating, signed with an HMAC keyed with
  LOG_CHAIN_KEY (``log.checkpoint_signature``). Every check compares the table with its
  newest checkpoint: a log now shorter than, or different at, the checkpointed head is
  reported as truncated or rewritten, a seat whose player changed since is reported, and
  a checkpoint whose signature is not this server's key's is reported as forged.

Tables created before the seating was logged have a first event without it, and their
log cannot be rewritten to add it: their seating is anchored by their first checkpoint
(taken as the seats were then), so a change made after it is found. What changed between
the last checkpoint and the next (events removed from the end since, a seat of such a
table changed before its first) is beyond what a checkpoint can show. And the owner, with
the triggers off, can remove checkpoints too, or a table whole: what shows that is the
checkpoint log outside the database (``checkpoint_log``), which every run compares with.
A table whose log is empty is reported as emptied: a table is created with its first event.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.tables import checkpoint_log, snapshots
from games.tables.log import (
    SEATING,
    chain_broken_at,
    checkpoint_signature,
    engine_events,
    seating_players,
)
from games.tables.models import Checkpoint, Event, Table, TableProjection
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
    # What the seating and the checkpoints show was changed, one sentence each.
    findings: tuple[str, ...] = ()
    # The head verified: what the checkpoint log's line anchors.
    head_hash: str = ""

    @property
    def ok(self) -> bool:
        return (
            self.chain_ok
            and self.projection_ok
            and self.replay_failed_at is None
            and not self.findings
        )

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
            "findings": list(self.findings),
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


def tables_audit(*, checkpoint: bool = False) -> dict[str, Any]:
    """Verify every table's whole log (chain, replay, cached state, seating, checkpoints)
    and compare the database with the checkpoint log's newest line; return the count and
    the failures (and, under ``checkpoint_log``, what is wrong with that log itself).

    ``checkpoint`` (the nightly audit) also keeps a checkpoint of every table that verifies
    and changed since its last one, all with the same time, and appends the run's line to
    the checkpoint log; the report counts the checkpoints.
    """
    failures = []
    checked = kept = 0
    taken_at = checkpoint_time() if checkpoint else None
    line, log_problem = checkpoint_log.newest_line()
    # A newest line not ours is not written over: the run anchors nothing until it is seen to.
    line_bad = bool(log_problem)
    missing = line is None and not log_problem
    if missing:
        log_problem = _log_missing()
    outside = checkpoint_log.findings(line) if line is not None else {}
    before: dict[str, checkpoint_log.Entry] = line["tables"] if line is not None else {}
    anchored: dict[str, checkpoint_log.Entry] = {}
    for table_id in Table.objects.order_by("pk").values_list("pk", flat=True).iterator():
        said = tuple(outside.pop(str(table_id), ()))
        result, new = table_audit(table_id=table_id, checkpoint_at=taken_at, outside=said)
        checked += 1
        kept += new
        if result.ok:
            anchored[result.table_id] = (result.seq, result.head_hash, 0)
        else:
            failures.append(result.to_dict())
            if result.table_id in before:
                anchored[result.table_id] = before[result.table_id]
    # What is left was in the line and is no longer in the database.
    for table_id, said in sorted(outside.items()):
        failures.append(
            Verification(table_id, before[table_id][0], True, True, findings=tuple(said)).to_dict()
        )
        anchored[table_id] = before[table_id]
    report: dict[str, Any] = {"checked": checked, "failures": failures}
    if log_problem:
        report["checkpoint_log"] = log_problem
    if checkpoint:
        report["checkpointed"] = kept
        written = _line_keep(taken_at, anchored, forged=line_bad)
        if written:
            report["checkpoint_log"] = "; ".join(filter(None, (log_problem, written)))
        elif missing and log_problem:
            report["checkpoint_log"] = f"{log_problem} This run started it again."
    return report


def _log_missing() -> str:
    """Say, once for the whole run, that the checkpoint log is missing if the database shows
    checkpoints it should hold: after an upgrade that brought the log, or the setting newly
    set, that is expected until a run keeps checkpoints; otherwise the file was moved or
    deleted. Nothing tells the two apart (the database's owner could change any mark kept
    there), so the sentence says both and what to do."""
    path = checkpoint_log.log_path()
    newest = Checkpoint.objects.order_by("-taken_at").first() if path is not None else None
    if newest is None:
        return ""
    count = Checkpoint.objects.count()
    return (
        f"checkpoint log missing: there is no file at {path}, though the database holds "
        f"{count} checkpoint(s), the newest of {newest.taken_at.astimezone(UTC):%Y-%m-%d %H:%M} "
        "UTC. Just after an upgrade or after setting CHECKPOINT_LOG, this is expected: the "
        "next run that keeps checkpoints (the nightly audit, or verify_tables --checkpoint) "
        "starts the log. Otherwise the file was moved or deleted: restore it from the "
        "operator's copy."
    )


def _line_keep(taken_at, anchored: dict[str, checkpoint_log.Entry], *, forged: bool) -> str:
    """Append the run's line: the heads verified now (with their checkpoint counts), and
    the failing or gone tables as the line before had them. Return why it could not be
    written, if it could not (the run's report says so rather than stop)."""
    if forged:
        return ""
    counts = checkpoint_log.checkpoint_counts()
    for table_id, (seq, head, count) in list(anchored.items()):
        if not count:
            anchored[table_id] = (seq, head, counts.get(table_id, 0))
    try:
        checkpoint_log.line_append(taken_at, anchored)
    except OSError as exc:
        return f"the checkpoint log {checkpoint_log.log_path()} was not written: {exc}"
    return ""


def checkpoint_time() -> datetime:
    """Return now to the millisecond, the time a checkpoint run gives its checkpoints: a
    fixture (dumpdata, loaddata) keeps times to the millisecond, and the signature covers it."""
    now = timezone.now()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def table_audit(
    *,
    table_id: uuid.UUID | str,
    checkpoint_at: datetime | None = None,
    outside: tuple[str, ...] = (),
) -> tuple[Verification, bool]:
    """Check a table's whole log; with ``checkpoint_at``, keep a checkpoint of it if it
    verifies and changed since its last one (under the same lock, so the head checkpointed
    is the head verified). ``outside`` is what the checkpoint log found gone from it: a
    table with such findings fails, and is not anchored again as it is now. Return the
    verification and whether a checkpoint was kept."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        result = _verified(table, whole=True)
        if outside:
            result = replace(result, findings=result.findings + outside)
        kept = checkpoint_at is not None and result.ok and _checkpoint_keep(table, checkpoint_at)
    return result, kept


def _seat_rows(table: Table) -> list[tuple[int, str]]:
    """Return the table's seats as they are now: (player id, player name) in seat order."""
    return list(table.seats.order_by("position").values_list("player_id", "player__name"))


def _checkpoint_keep(table: Table, taken_at: datetime) -> bool:
    """Keep a signed checkpoint of the table's head and seating, unless its newest one
    already says the same (a finished table gets one, not one a night)."""
    seating = [player for player, _name in _seat_rows(table)]
    last = table.checkpoints.order_by("-taken_at").first()
    if last is not None and (last.seq, last.head_hash, last.seating) == (
        table.head_seq,
        table.head_hash,
        seating,
    ):
        return False
    Checkpoint.objects.create(
        table=table,
        taken_at=taken_at,
        seq=table.head_seq,
        head_hash=table.head_hash,
        seating=seating,
        signature=checkpoint_signature(
            table_id=table.id,
            taken_at=taken_at,
            seq=table.head_seq,
            head_hash=table.head_hash,
            seating=seating,
        ),
    )
    return True


def _signed(checkpoint: Checkpoint) -> bool:
    return checkpoint.signature == checkpoint_signature(
        table_id=checkpoint.table_id,
        taken_at=checkpoint.taken_at,
        seq=checkpoint.seq,
        head_hash=checkpoint.head_hash,
        seating=checkpoint.seating,
    )


def _when(checkpoint: Checkpoint) -> str:
    return f"the checkpoint of {checkpoint.taken_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _seats_changed(
    now: list[tuple[int, str]], then: list[int], *, since: str, names: dict[int, str]
) -> list[str]:
    """Say which seats hold another player than ``then`` (player ids in seat order)."""
    if len(now) != len(then):
        return [f"seats changed since {since}: {len(now)} seat(s) now, {len(then)} then"]
    found = []
    for position, ((player, name), was) in enumerate(zip(now, then, strict=True)):
        if player != was:
            had = f"player {was} ({names[was]})" if was in names else f"player {was}"
            found.append(
                f"seat {position + 1} changed since {since}: player {player} ({name}) sits "
                f"there now, {had} then"
            )
    return found


def _logged(table: Table, seq: int, field: str) -> Any:
    """Return one field of the table's event at ``seq``, or None: a point read, unordered
    (the model's ordering would join the tables to order one row)."""
    found = table.events.filter(seq=seq).order_by().values_list(field, flat=True)[:1]
    return found[0] if found else None


def _head_findings(table: Table, events: list[Event] | None, checkpoint: Checkpoint) -> list[str]:
    """Say whether the log still holds the checkpointed head: not cut short, not rewritten."""
    if events is not None:
        last = events[-1].seq if events else 0
        at = events[checkpoint.seq - 1] if len(events) >= checkpoint.seq else None
        there = at.hash if at is not None and at.seq == checkpoint.seq else None
    else:
        # Events removed from the end with the head left where it was break the chain's
        # check at the head: here the head says how long the log is.
        last = table.head_seq
        there = _logged(table, checkpoint.seq, "hash")
    last = min(last, table.head_seq)
    if last < checkpoint.seq:
        return [f"log truncated after seq {last} ({_when(checkpoint)} had seq {checkpoint.seq})"]
    if there != checkpoint.head_hash:
        return [
            f"log rewritten: its event {checkpoint.seq} is not the head {_when(checkpoint)} signed"
        ]
    return []


def _findings(table: Table, events: list[Event] | None, *, whole: bool) -> tuple[str, ...]:
    """Compare the table's seats with its logged seating, and the table with its newest
    checkpoint (every checkpoint's signature is checked when ``whole``). ``events`` is the
    whole log when it was read, else None (what is needed is read here)."""
    found: list[str] = []
    seats = _seat_rows(table)
    if events is not None:
        first = events[0].payload if events and events[0].seq == 1 else {}
    else:
        first = _logged(table, 1, "payload") or {}
    logged = seating_players(first)
    if logged is not None:
        names = {
            seat.get("player"): str(seat.get("name", ""))
            for seat in first[SEATING]
            if isinstance(seat, dict)
        }
        found += _seats_changed(seats, logged, since="the table was created", names=names)
    checkpoints = table.checkpoints.order_by("-taken_at")
    anchor = None
    for checkpoint in checkpoints if whole else checkpoints[:1]:
        if not _signed(checkpoint):
            found.append(f"{_when(checkpoint)} is not signed with this server's key: forged")
        elif anchor is None:
            anchor = checkpoint
    if anchor is not None:
        found += _head_findings(table, events, anchor)
        if logged is None:
            # A table whose first event logs no seating: the checkpoint is what anchors it.
            found += _seats_changed(seats, anchor.seating, since=_when(anchor), names={})
    return tuple(found)


# The projection's row is the whole state as JSON (a megabyte at 1,500 hands of four
# players): rewritten at every append it would make each cost more than the one before. The
# check after an append rewrites it once it is this many events behind the head, or when the
# match is over (the table changes no more, so its row is read from then on); in between,
# readers take the head's snapshot (``selectors.table_state``). So an append's share of the
# rewrite is a hundredth, and an append that does not rewrite costs the same at any length.
PROJECTION_EVERY = 100


def _projection_due(
    projection: TableProjection | None, table: Table, state: TableState, *, whole: bool
) -> bool:
    """Tell whether the projection's row, behind the head, is to be written now."""
    if projection is None:
        return True
    if projection.seq == table.head_seq:
        return False
    return whole or state.closed or table.head_seq - projection.seq >= PROJECTION_EVERY


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
    Check its seats against its logged seating and it against its newest checkpoint too.

    After an append only what is new is checked: the links since the last verified event,
    and the state folded on from the snapshot taken there (so the check costs the same at
    event 50 and at event 5,000). ``whole`` checks every link and replays the whole log: the
    nightly audit does, and so does any check that finds no usable snapshot.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        return _verified(table, whole=whole)


def _verified(table: Table, *, whole: bool) -> Verification:
    """``table_verify`` of a table locked by the caller's transaction."""
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
    findings = _findings(table, events if since is None else None, whole=whole)
    if not events:
        # A table is created with its first event: a row without any had its log deleted.
        # The cached state, the last copy of it, is left as it is.
        emptied = f"no events: its log was emptied (its head says seq {table.head_seq})"
        return Verification(
            str(table.id), table.head_seq, True, True, findings=(emptied, *findings)
        )
    replayed = replay_checked(engine_events(new), start)
    if isinstance(replayed, tuple):
        # Keep the cached state as it is: a fresh one cannot be made from this log.
        return Verification(
            str(table.id), table.head_seq, chain_ok, False, replayed[0], replayed[1], findings
        )
    # Appends leave the projection's row behind for this check to write: behind is
    # expected; at the head and different from the log's state is what is wrong.
    behind = projection is None or projection.seq != table.head_seq
    projection_ok = (
        behind or TableProjection.objects.filter(table=table, state=replayed.to_dict()).exists()
    )
    if not projection_ok or _projection_due(projection, table, replayed, whole=whole):
        projection, _ = TableProjection.objects.update_or_create(
            table=table, defaults={"seq": table.head_seq, "state": replayed.to_dict()}
        )
    if chain_ok and projection.verified_seq != table.head_seq:
        TableProjection.objects.filter(table=table).update(verified_seq=table.head_seq)
    if chain_ok:
        snapshots.keep(
            "verified", table.id, seq=table.head_seq, hash=table.head_hash, state=replayed
        )
    return Verification(
        str(table.id),
        table.head_seq,
        chain_ok,
        projection_ok,
        findings=findings,
        head_hash=table.head_hash,
    )
