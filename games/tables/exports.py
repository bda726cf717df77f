"""A table's log as a file any RummyRef server can check and import, its hands as CSV, and
a group's or a club's tables as one archive (docs/export.md describes the formats).

The server's own chain is an HMAC keyed with LOG_CHAIN_KEY: no other server can check it,
and the key never leaves. A file carries a chain of its own instead, plain SHA-256 over
each line and the hash of the line before it, so that a reader finds a line changed,
dropped, repeated or moved, and a file cut short (its closing line counts the events and
repeats the last hash). It proves the file is whole, not who wrote it: whoever edits a file
can hash it again. What an import trusts is the engine, which replays every event again.
"""

import csv
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import IO, Any

from django.db.models import Max, Min, Q, QuerySet
from django.utils import timezone

from games.clubs.models import Club, Group
from games.shared.csv_cells import number_cell, text_cell
from games.tables import selectors
from games.tables.models import Table

TABLE_FORMAT = "rummyref-table"
ARCHIVE_FORMAT = "rummyref-archive"
FORMAT_VERSION = 1
MEDIA_TYPE = "application/x-ndjson"
MANIFEST = "manifest.json"
MATCHES = "matches.csv"
HEADER_FIELDS = ("format", "version", "table", "variant", "options", "seats", "exported_at")
EVENT_FIELDS = ("seq", "event_id", "type", "payload", "schema_version", "entered_by", "created_at")
TRAILER_FIELDS = ("end", "events", "last_hash")
# Rows read from the log at a time: a long log is written without being held whole.
EVENT_BATCH = 500


def canonical(fields: Mapping[str, Any]) -> str:
    """Return the canonical JSON of a line: keys sorted, no spaces, text as it is."""
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def line_hash(prev_hash: str, fields: Mapping[str, Any]) -> str:
    """Return a line's hash: SHA-256 of the previous line's hash and the line's canonical
    JSON without its own "hash" (the first line follows "")."""
    return hashlib.sha256((prev_hash + canonical(fields)).encode()).hexdigest()


def instant(moment: datetime) -> str:
    """Return a time as the files write it: ISO 8601 in UTC, to the microsecond."""
    return moment.astimezone(UTC).isoformat()


def _chained(prev_hash: str, fields: dict[str, Any]) -> tuple[str, bytes]:
    """Return a line's hash and the line: its canonical JSON with "hash" added last."""
    body = canonical(fields)
    digest = hashlib.sha256((prev_hash + body).encode()).hexdigest()
    return digest, f'{body[:-1]},"hash":"{digest}"}}\n'.encode()


def table_file_name(table: Table) -> str:
    """Return the name a table's log is downloaded or archived under."""
    return f"rummyref-{table.variant}-{table.id}.jsonl"


def seat_names(table: Table) -> list[str]:
    """Return the names of the table's players in seat order, as they are called now (the
    log keeps the names typed when the table began)."""
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def table_log_lines(*, table: Table, exported_at: datetime | None = None) -> Iterator[bytes]:
    """Yield a table's log as JSON Lines: a header, one line per event up to the table's
    head as it was read, and a closing line; each line chained to the one before it."""
    header = {
        "format": TABLE_FORMAT,
        "version": FORMAT_VERSION,
        "table": str(table.id),
        "variant": table.variant,
        "options": table.options,
        "seats": seat_names(table),
        "exported_at": instant(exported_at or timezone.now()),
    }
    prev, line = _chained("", header)
    yield line
    count = 0
    # Up to the head read above: an event appended meanwhile is left for the next export.
    events = table.events.filter(seq__lte=table.head_seq).order_by("seq")
    for row in events.values_list(*EVENT_COLUMNS).iterator(chunk_size=EVENT_BATCH):
        prev, line = _chained(prev, _event_fields(*row))
        count += 1
        yield line
    _, line = _chained(prev, {"end": TABLE_FORMAT, "events": count, "last_hash": prev})
    yield line


# Never the stored HMAC values: the key must not leave, and no other server can use them.
EVENT_COLUMNS = ("seq", "event_id", "type", "payload", "schema_version", "entered_by", "created_at")


def _event_fields(seq, event_id, event_type, payload, schema_version, entered_by, created_at):
    return {
        "seq": seq,
        "event_id": str(event_id),
        "type": event_type,
        "payload": payload,
        "schema_version": schema_version,
        "entered_by": entered_by,
        "created_at": instant(created_at),
    }


# CSV -------------------------------------------------------------------------------------

HANDS_COLUMNS = (
    "row",
    "hand",
    "seq",
    "recorded_at",
    "status",
    "entry",
    "seat",
    "player",
    "points",
    "total",
    "won",
)


def _match_totals(state: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Return the totals the scoreboard shows (end-of-match bonuses included) and the
    winning seats."""
    match = state.get("match")
    if match is None:  # Gin's projection has no match entry
        return state["totals"], [] if state["winner"] is None else [state["winner"]]
    return match["totals"] or state["totals"], match["winners"]


def hands_csv_write(writer, *, table: Table, state: dict[str, Any] | None = None) -> None:
    """Write a table's hands and totals as CSV rows, one per hand and seat, then one "match"
    row per seat with its total (end-of-match bonuses included).

    ``status`` is counted, amended (counted as last amended) or voided (no points); ``entry``
    says whether the hand was entered whole or played move by move; ``total`` is the seat's
    running total over the hands in force; ``won`` (match rows) is 1 or 0 once the match is
    over, empty while it goes on. Times are ISO 8601 UTC, as the log keeps them.
    """
    state = selectors.table_state(table=table) if state is None else state
    names = seat_names(table)
    recorded = dict(
        table.events.filter(seq__in=[hand["seq"] for hand in state["hands"]]).values_list(
            "seq", "created_at"
        )
    )
    writer.writerow(HANDS_COLUMNS)
    running = [0] * len(names)
    for hand in state["hands"]:
        result = hand["result"]
        status = "voided" if hand["voided"] else "amended" if hand["amended"] else "counted"
        for seat, name in enumerate(names):
            points = None if result is None else result["points"][seat]
            running[seat] += points or 0
            writer.writerow(
                [
                    "hand",
                    hand["number"],
                    hand["seq"],
                    instant(recorded[hand["seq"]]),
                    status,
                    "moves" if hand["played"] else "whole",
                    seat + 1,
                    text_cell(name),
                    "" if points is None else number_cell(points),
                    number_cell(running[seat]),
                    "",
                ]
            )
    totals, winners = _match_totals(state)
    for seat, name in enumerate(names):
        won = (1 if seat in winners else 0) if state["finished"] else ""
        row = ["match", "", "", "", "", "", seat + 1, text_cell(name), ""]
        writer.writerow([*row, number_cell(totals[seat]), won])


MATCHES_COLUMNS = (
    "table",
    "file",
    "variant",
    "started_at",
    "last_event_at",
    "finished",
    "hands",
    "seat",
    "player",
    "total",
    "won",
)


def _matches_write(writer, tables: Iterable[Table]) -> None:
    """Write every table's seats with their totals, one row per table and seat."""
    writer.writerow(MATCHES_COLUMNS)
    for table in tables:
        state = selectors.table_state(table=table)
        totals, winners = _match_totals(state)
        finished = state["finished"]
        hands = sum(1 for hand in state["hands"] if not hand["voided"])
        for seat, name in enumerate(seat_names(table)):
            writer.writerow(
                [
                    table.id,
                    _member_name(table),
                    table.variant,
                    instant(table.first_at),
                    instant(table.last_at),
                    1 if finished else 0,
                    hands,
                    seat + 1,
                    text_cell(name),
                    number_cell(totals[seat]),
                    (1 if seat in winners else 0) if finished else "",
                ]
            )


# Archives --------------------------------------------------------------------------------


def group_tables(*, group: Group) -> QuerySet[Table]:
    """Return a group's tables, oldest first."""
    return _dated(Table.objects.filter(group=group))


def club_tables(*, club: Club) -> QuerySet[Table]:
    """Return a club's tables, oldest first: its leagues' and those seated with its roster
    (a log imported into the club)."""
    ids = Table.objects.filter(Q(season__league__club=club) | Q(seats__player__club=club)).values(
        "pk"
    )
    return _dated(Table.objects.filter(pk__in=ids))


def _dated(tables: QuerySet[Table]) -> QuerySet[Table]:
    return tables.annotate(
        first_at=Min("events__created_at"), last_at=Max("events__created_at")
    ).order_by("first_at", "id")


def _member_name(table: Table) -> str:
    return f"tables/{table.id}.jsonl"


def archive_write(target: IO[bytes], *, tables: Iterable[Table], source: Mapping[str, Any]) -> int:
    """Write a zip of ``tables`` to ``target``: one log file each (``tables/<id>.jsonl``),
    ``matches.csv`` and ``manifest.json``, which lists each file with its event count, its
    last hash and the SHA-256 of its bytes. Return the number of tables written.

    ``tables`` come from ``group_tables`` or ``club_tables`` (their first and last event
    times annotated); ``source`` says whose they are (kind, id, name).
    """
    exported_at = timezone.now()
    entries = []
    written = []
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for table in tables:
            digest, last = hashlib.sha256(), b""
            with archive.open(_member_name(table), "w") as member:
                for line in table_log_lines(table=table, exported_at=exported_at):
                    digest.update(line)
                    member.write(line)
                    last = line
            trailer = json.loads(last)
            entries.append(
                {
                    "file": _member_name(table),
                    "table": str(table.id),
                    "variant": table.variant,
                    "events": trailer["events"],
                    "last_hash": trailer["last_hash"],
                    "sha256": digest.hexdigest(),
                }
            )
            written.append(table)
        matches = io.StringIO()
        _matches_write(csv.writer(matches), written)
        archive.writestr(MATCHES, matches.getvalue())
        manifest = {
            "format": ARCHIVE_FORMAT,
            "version": FORMAT_VERSION,
            "source": dict(source),
            "exported_at": instant(exported_at),
            "tables": entries,
            "matches": MATCHES,
        }
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return len(written)
