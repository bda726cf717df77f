"""The checkpoints' copy outside the database: one signed line per checkpointing run.

The database's own checkpoints cannot show what the owner does with the triggers off:
checkpoints removed, events cut from a log's end, a table deleted whole (its events, its
checkpoints and its row). So each run that keeps checkpoints (the nightly audit,
``verify_tables --checkpoint``) also appends a line to ``CHECKPOINT_LOG``, a file the
operator keeps away from the database: every table's head (seq, hash) and how many
checkpoints it has, a digest of the list of table ids, all signed with an HMAC keyed with
LOG_CHAIN_KEY. Every verification compares the database with the newest line.

A table that fails its check keeps its entry of the line before (it is not anchored as it
is now), and so does a table gone from the database: it stays reported until it is back.
"""

import hashlib
import hmac
import json
import os
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count, Q

from games.tables.models import Checkpoint, Event, Table

# A line is read back from the end of the file in blocks of this many bytes.
READ_BLOCK = 1 << 16
# No line is read past this size (a file that is not ours, or a line never ended).
LINE_MAX = 1 << 28
# Tables whose head is compared with the line's in one query.
HEAD_BATCH = 500

# One entry of a line: the table's head seq and hash, and its count of checkpoints.
Entry = tuple[int, str, int]


def log_path() -> Path | None:
    """Return the file the lines go to, or None when the setting turns it off."""
    found = getattr(settings, "CHECKPOINT_LOG", "")
    return Path(found) if found else None


def ids_digest(table_ids: Iterable[str]) -> str:
    """Return the digest of a list of table ids, in any order."""
    return hashlib.sha256("\n".join(sorted(table_ids)).encode()).hexdigest()


def _signature(body: Mapping[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    key = settings.LOG_CHAIN_KEY.encode()
    return hmac.new(key, f"checkpoint-log:{text}".encode(), hashlib.sha256).hexdigest()


def _last_line(path: Path) -> bytes:
    """Return the file's last non-empty line, read from its end (the file only grows)."""
    with path.open("rb") as file:
        end = file.seek(0, os.SEEK_END)
        tail = b""
        while end > 0 and len(tail) <= LINE_MAX:
            start = max(0, end - READ_BLOCK)
            file.seek(start)
            tail = file.read(end - start) + tail
            end = start
            stripped = tail.rstrip(b"\n")
            if b"\n" in stripped:
                return stripped.rsplit(b"\n", 1)[1]
        return tail.rstrip(b"\n")


def newest_line() -> tuple[dict[str, Any] | None, str]:
    """Return the newest line's body if it is there and signed, and a sentence if not
    (no file yet is no sentence: the first run has not happened)."""
    path = log_path()
    if path is None or not path.exists():
        return None, ""
    try:
        raw = _last_line(path)
    except OSError as exc:
        return None, f"the checkpoint log {path} cannot be read: {exc.strerror or exc}"
    if not raw:
        return None, ""
    not_ours = f"the newest line of the checkpoint log {path} is not a checkpoint line"
    try:
        body = json.loads(raw)
        signature = str(body.pop("signature"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, not_ours
    if not hmac.compare_digest(signature, _signature(body)):
        return None, (
            f"the newest line of the checkpoint log {path} ({body.get('taken_at')}) is not "
            "signed with this server's key: forged"
        )
    try:
        body["taken_at"] = datetime.fromisoformat(body["taken_at"])
        body["tables"] = {
            str(table): (int(seq), str(head), int(kept))
            for table, (seq, head, kept) in body["tables"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, not_ours
    return body, ""


def line_append(taken_at: datetime, tables: Mapping[str, Entry]) -> None:
    """Append one signed line: each table's head and checkpoint count, and the ids' digest."""
    path = log_path()
    if path is None:
        return
    body: dict[str, Any] = {
        "taken_at": taken_at.astimezone(UTC).isoformat(),
        "count": len(tables),
        "digest": ids_digest(tables),
        "tables": {table: list(entry) for table, entry in sorted(tables.items())},
    }
    body["signature"] = _signature(body)
    line = json.dumps(body, sort_keys=True, separators=(",", ":")) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    # One write to a file opened to append: lines of two runs at once never interleave.
    with path.open("a", encoding="utf-8") as file:
        file.write(line)
        file.flush()
        os.fsync(file.fileno())


def checkpoint_counts(table_ids: Iterable[str] | None = None) -> dict[str, int]:
    """Return how many checkpoints each table has (of those given, or of all)."""
    rows = Checkpoint.objects.all()
    if table_ids is not None:
        rows = rows.filter(table_id__in=list(table_ids))
    counted = rows.values("table_id").annotate(kept=Count("pk")).values_list("table_id", "kept")
    return {str(table): kept for table, kept in counted}


def _hashes_at(wanted: Mapping[str, int]) -> dict[str, str]:
    """Return the hash of each table's event at the seq asked, where there is one."""
    found: dict[str, str] = {}
    items = list(wanted.items())
    for start in range(0, len(items), HEAD_BATCH):
        where = Q(pk__in=[])
        for table, seq in items[start : start + HEAD_BATCH]:
            where |= Q(table_id=table, seq=seq)
        for table, head in Event.objects.filter(where).order_by().values_list("table_id", "hash"):
            found[str(table)] = head
    return found


def findings(line: Mapping[str, Any]) -> dict[str, list[str]]:
    """Compare the database with a line: say, by table id, what is gone since it was
    written (the table itself, events from its log's end, its checkpoints)."""
    when = f"the checkpoint log's line of {line['taken_at'].astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    tables: dict[str, Entry] = line["tables"]
    heads = {
        str(pk): seq
        for pk, seq in Table.objects.filter(pk__in=list(tables)).values_list("pk", "head_seq")
    }
    found: dict[str, list[str]] = {}
    for table in tables.keys() - heads.keys():
        seq = tables[table][0]
        found[table] = [
            f"the table is gone from the database: its row, its log (seq {seq} at {when}) "
            "and its checkpoints were deleted"
        ]
    kept = checkpoint_counts(heads)
    hashes = _hashes_at({table: tables[table][0] for table in heads if tables[table][0]})
    for table, head_seq in heads.items():
        seq, head, checkpoints = tables[table]
        said = []
        if head_seq < seq:
            gone = f"event {seq} is" if head_seq + 1 == seq else f"events {head_seq + 1}-{seq} are"
            said.append(
                f"log cut short: its head is seq {head_seq}, {when} had seq {seq} ({gone} gone)"
            )
        elif seq and hashes.get(table) != head:
            said.append(f"log rewritten: its event {seq} is not the head {when} had")
        if kept.get(table, 0) < checkpoints:
            said.append(
                f"checkpoints removed: {kept.get(table, 0)} left of the {checkpoints} "
                f"{when} counted"
            )
        if said:
            found[table] = said
    return found
