"""Checking a table's file: each line of the right shape, in order and chained to the one
before it, the file closed by its closing line, and every event replayed through the
engine, as an append would."""

import json
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from django.utils.translation import gettext, ngettext

from games.rules.text import violation_text
from games.tables.exports import (
    EVENT_FIELDS,
    FORMAT_VERSION,
    HEADER_FIELDS,
    TABLE_FORMAT,
    TRAILER_FIELDS,
    line_hash,
)
from games.tables.imports.lines import Budget, ImportRefused, parse_line, read_lines
from games.tables.log import engine_payload
from games.tables.models import Event
from scoring.errors import RuleViolation
from scoring.events import SCHEMA_VERSION, LogEvent
from scoring.replay import TableState, apply

MAX_EVENTS = 20_000
# The bytes of files whose checked events are kept for the second pass (their objects take
# several times that); past it, files are read again.
KEEP_BYTES = 4 * 1024 * 1024
ENTERED_BY_MAX = Event._meta.get_field("entered_by").max_length
TYPE_MAX = Event._meta.get_field("type").max_length


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
        # Stored and hashed in UTC: a time that has none (year 1 ahead of UTC) is no time.
        moment.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return moment if moment.tzinfo is not None else None


def quoted(value: Any) -> str:
    """Return a value of the file as a message quotes it: short, whatever the file holds."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 24 else f"{text[:20]}…"


def as_uuid(value: Any) -> uuid.UUID | None:
    if not isinstance(value, str):
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class FileEvent:
    """One event of a file, checked: what the table here stores of it."""

    line: int
    seq: int
    event_type: str
    payload: dict[str, Any]
    entered_by: str
    created_at: datetime


@dataclass
class TableReader:
    """Read one table's log line by line, checking each line as it comes (``events``);
    the header, the count and the last hash are known once it has read to the end."""

    file: str | None
    header: dict[str, Any] = field(default_factory=dict)
    count: int = 0
    last_hash: str = ""
    size: int = 0  # the bytes of the lines read so far

    def refuse(self, reason: str, line: int) -> ImportRefused:
        return ImportRefused(reason, line=line, file=self.file)

    def events(self, lines: Iterator[tuple[int, bytes]]) -> Iterator[FileEvent]:
        prev, closed = "", False
        for number, raw in lines:
            self.size += len(raw) + 1
            if closed:
                raise self.refuse(gettext("there is more after the closing line."), number)
            value = parse_line(raw, line=number, file=self.file)
            if number == 1:
                self.header = self._header(value)
            elif "end" in value:
                self._trailer(value, number, prev)
                closed = True
            else:
                self._seq(value, number)
            given = value.pop("hash", None)
            if not isinstance(given, str) or given != line_hash(prev, value):
                raise self.refuse(
                    gettext(
                        "its hash does not match its contents and the line before it: "
                        "the file was changed after it was exported."
                    ),
                    number,
                )
            prev = given
            if number == 1 or closed:
                continue
            self.count += 1
            if self.count > MAX_EVENTS:
                reason = gettext("a table's log holds at most %(max)s events.")
                raise self.refuse(reason % {"max": f"{MAX_EVENTS:,}"}, number)
            self.last_hash = prev
            yield self._event(value, number)
        if not self.header:
            raise self.refuse(gettext("the file is empty."), 1)
        if not closed:
            raise self.refuse(
                gettext("the file stops without its closing line: it was cut short."),
                self.count + 2,
            )

    def _fields(self, value: dict[str, Any], names: tuple[str, ...], line: int) -> None:
        unknown = sorted(set(value) - {*names, "hash"})
        missing = [name for name in names if name not in value]
        if unknown:
            reason = gettext("it holds a field “%(name)s” that this line does not have.")
            raise self.refuse(reason % {"name": unknown[0][:40]}, line)
        if missing:
            reason = gettext("its field “%(name)s” is missing.")
            raise self.refuse(reason % {"name": missing[0]}, line)

    def _header(self, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("format") != TABLE_FORMAT:
            reason = gettext(
                "this is not a RummyRef table log (its first line names no format “%(format)s”)."
            )
            raise self.refuse(reason % {"format": TABLE_FORMAT}, 1)
        version = value.get("version")
        if not is_whole(version) or version != FORMAT_VERSION:
            reason = gettext(
                "version %(version)s of the format is not one this server reads "
                "(it reads version %(known)s)."
            )
            raise self.refuse(reason % {"version": quoted(version), "known": FORMAT_VERSION}, 1)
        self._fields(value, HEADER_FIELDS, 1)
        seats = value["seats"]
        checks = {
            "table": as_uuid(value["table"]) is not None,
            "variant": isinstance(value["variant"], str),
            "options": isinstance(value["options"], dict),
            "seats": isinstance(seats, list) and all(isinstance(s, str) for s in seats),
            "exported_at": _moment(value["exported_at"]) is not None,
        }
        self._all_right(checks, 1)
        return value

    def _all_right(self, checks: Mapping[str, bool], line: int) -> None:
        wrong = [name for name, right in checks.items() if not right]
        if wrong:
            reason = ngettext(
                "the field %(fields)s is not of the right type.",
                "the fields %(fields)s are not of the right type.",
                len(wrong),
            )
            raise self.refuse(reason % {"fields": ", ".join(wrong)}, line)

    def _seq(self, value: dict[str, Any], line: int) -> None:
        seq, expected = value.get("seq"), line - 1
        if is_whole(seq) and seq != expected:
            reason = gettext(
                "event %(expected)d belongs here, not event %(seq)d: a line is missing, "
                "repeated or out of order."
            )
            raise self.refuse(reason % {"expected": expected, "seq": seq}, line)

    def _event(self, value: dict[str, Any], line: int) -> FileEvent:
        self._fields(value, EVENT_FIELDS, line)
        version = value["schema_version"]
        self._all_right(
            {
                "seq": is_whole(value["seq"]),
                "event_id": as_uuid(value["event_id"]) is not None,
                "type": isinstance(value["type"], str) and len(value["type"]) <= TYPE_MAX,
                "payload": isinstance(value["payload"], dict),
                "schema_version": is_whole(version),
                "entered_by": isinstance(value["entered_by"], str)
                and len(value["entered_by"]) <= ENTERED_BY_MAX,
                "created_at": _moment(value["created_at"]) is not None,
            },
            line,
        )
        if version != SCHEMA_VERSION:
            reason = gettext(
                "events of schema version %(version)s are not ones this server reads "
                "(it reads version %(known)s)."
            )
            raise self.refuse(reason % {"version": version, "known": SCHEMA_VERSION}, line)
        return FileEvent(
            line=line,
            seq=value["seq"],
            event_type=value["type"],
            payload=value["payload"],
            entered_by=value["entered_by"],
            created_at=_moment(value["created_at"]),
        )

    def _trailer(self, value: dict[str, Any], line: int, prev: str) -> None:
        self._fields(value, TRAILER_FIELDS, line)
        if value["end"] != TABLE_FORMAT or value["last_hash"] != prev:
            raise self.refuse(gettext("the closing line does not close this log."), line)
        if value["events"] != self.count:
            reason = gettext(
                "the closing line counts %(said)s events, and the file holds %(count)d: "
                "lines are missing."
            )
            raise self.refuse(reason % {"said": quoted(value["events"]), "count": self.count}, line)


@dataclass
class CheckedTable:
    """A table's file that passed every check: what the store needs of it."""

    file: str | None
    open: Callable[[], IO[bytes]]
    kept: list[FileEvent] | None  # its events, if the check kept them; else read again
    source_id: uuid.UUID
    seats: list[str]  # the players' names, as the file calls them now
    events: int
    last_hash: str
    state: TableState


class Keeping:
    """The bytes of files whose events the first pass may keep for the second, which then
    need not read them again: a typical log's, not a 20 MB one's, nor 500 of them."""

    def __init__(self, limit: int = KEEP_BYTES):
        self.left = limit


def table_checked(
    file: str | None,
    opener: Callable[[], IO[bytes]],
    budgets: tuple[Budget, ...],
    keeping: Keeping,
    digest=None,
) -> "CheckedTable":
    """Read one table's file to its end: every line checked, every event replayed."""
    reader = TableReader(file)
    state: TableState | None = None
    kept: list[FileEvent] | None = []
    with opener() as stream:
        for event in reader.events(read_lines(stream, file=file, budgets=budgets, digest=digest)):
            if kept is not None:
                kept = kept if reader.size <= keeping.left else None
                if kept is not None:
                    kept.append(event)
            try:
                # A file's creation may log its seating (another server's player ids): the
                # engine never sees it, and the stored table logs its own (``table_create``).
                payload = engine_payload(event.event_type, event.payload)
                state = apply(state, LogEvent(event.seq, event.event_type, payload))
            except RuleViolation as exc:
                violation = exc.violations[0]
                reason = gettext("event %(seq)d is refused by the rules: %(text)s [%(rule)s]")
                text = violation_text(violation)
                raise reader.refuse(
                    reason % {"seq": event.seq, "text": text, "rule": violation.rule},
                    event.line,
                ) from None
            if event.seq == 1:
                _check_header(reader, state)
    if state is None:
        raise reader.refuse(gettext("the log holds no event."), 2)
    if kept is not None:
        keeping.left -= reader.size
    return CheckedTable(
        file=file,
        open=opener,
        kept=kept,
        source_id=as_uuid(reader.header["table"]),
        seats=reader.header["seats"],
        events=reader.count,
        last_hash=reader.last_hash,
        state=state,
    )


def _same_options(options: Any, state: TableState) -> bool:
    """Tell whether a header's options are the table's: the same rules once read, whether or
    not they name the options left at their defaults (a file from an older release)."""
    if not isinstance(options, dict):
        return False
    try:
        return state.variant.options_from_dict(options, len(state.seats)) == state.options
    except RuleViolation:
        return False


def _check_header(reader: TableReader, state: TableState) -> None:
    header = reader.header
    if not _same_options(header.get("options"), state):
        raise reader.refuse(
            gettext(
                "the first line's options are not the ones the table's creation (line 2) "
                "logged: the file was changed."
            ),
            1,
        )
    if header["variant"] != state.variant.key or len(header["seats"]) != len(state.seats):
        reason = gettext(
            "the first line says %(variant)s for %(seats)d players, and the table's "
            "creation (line 2) says %(logged)s for %(logged_seats)d."
        )
        raise reader.refuse(
            reason
            % {
                "variant": header["variant"],
                "seats": len(header["seats"]),
                "logged": state.variant.key,
                "logged_seats": len(state.seats),
            },
            1,
        )
