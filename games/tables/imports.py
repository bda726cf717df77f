"""Import: a table's log exported by a RummyRef server, or an archive of a group's or a
club's tables, stored here as new tables of a group its importer manages or a club they
administer (docs/export.md describes the files).

Nothing is stored until everything is checked. A first pass reads every line of every
table: bounded in size, JSON of the expected shape, in order, each line chained to the one
before it and the file closed by its closing line; and it replays every event through the
engine, as an append would. Only then, in one transaction, a second pass reads the files
again and writes each table through ``table_create`` and the rows ``event_row`` makes,
chained with this server's key, new event ids, the files' times. A refusal names the file
and the line, and says why.
"""

import hashlib
import json
import re
import uuid
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext, ngettext

from games.clubs import groups as group_services
from games.clubs.models import Club, ClubRole, Group, Player
from games.clubs.services import clean_name, player_create, require_member
from games.rules.text import violation_text
from games.shared.errors import ActionRefused
from games.tables import keyring, services, snapshots
from games.tables.access import Role, group_manager
from games.tables.exports import (
    ARCHIVE_FORMAT,
    EVENT_FIELDS,
    FORMAT_VERSION,
    HEADER_FIELDS,
    MANIFEST,
    TABLE_FORMAT,
    TRAILER_FIELDS,
    line_hash,
)
from games.tables.log import engine_payload, event_row
from games.tables.models import Event, Table
from scoring.errors import RuleViolation
from scoring.events import SCHEMA_VERSION, LogEvent
from scoring.replay import TableState, apply

MAX_LINE = 64 * 1024
MAX_EVENTS = 20_000
MAX_TABLES = 500
# No line of ours nests deeper than a few levels (a hand's seats, a meld's cards).
MAX_DEPTH = 32
MAX_MANIFEST = 1024 * 1024
# Rows written at a time by the second pass.
ROW_BATCH = 500
# The bytes of files whose checked events are kept for the second pass (their objects take
# several times that); past it, files are read again.
KEEP_BYTES = 4 * 1024 * 1024
ZIP_MAGIC = b"PK\x03\x04"
UTF8_BOM = b"\xef\xbb\xbf"
# Text no database keeps (PostgreSQL refuses NUL in JSON) and no encoder writes: a lone
# surrogate is half a character.
BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
MEMBER_NAME = re.compile(r"tables/[0-9a-f-]{36}\.jsonl")
HASH = re.compile(r"[0-9a-f]{64}")
ENTERED_BY_MAX = Event._meta.get_field("entered_by").max_length
TYPE_MAX = Event._meta.get_field("type").max_length


class ImportRefused(Exception):
    """A file that cannot be imported; ``message`` says where (file, line) and why."""

    def __init__(self, reason: str, *, line: int | None = None, file: str | None = None):
        self.reason, self.line, self.file = reason, line, file
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = {"file": self.file, "line": self.line, "reason": self.reason}
        if self.file and self.line is not None:
            return gettext("%(file)s, line %(line)d: %(reason)s") % where
        if self.line is not None:
            return gettext("Line %(line)d: %(reason)s") % where
        if self.file:
            return gettext("%(file)s: %(reason)s") % where
        return self.reason


def megabytes(size: int) -> str:
    """Return a size in bytes as MB, for people."""
    return f"{size / (1024 * 1024):g}"


def too_large() -> str:
    """Say how large a file the import takes at most."""
    return gettext("The file is larger than %(size)s MB.") % {
        "size": megabytes(settings.IMPORT_MAX_BYTES)
    }


# Where an import may go -------------------------------------------------------------------


@dataclass(frozen=True)
class ImportTarget:
    """A group its importer manages, or a club they administer."""

    group: Group | None = None
    club: Club | None = None

    @property
    def key(self) -> str:
        """Return the target as a form's choice names it: "group:<id>" or "club:<id>"."""
        return f"group:{self.group.pk}" if self.group else f"club:{self.club.pk}"

    @property
    def name(self) -> str:
        return self.group.name if self.group else self.club.name

    def ids(self) -> dict[str, int]:
        """Return the target as ``log_import`` takes it: group_id= or club_id=."""
        return {"group_id": self.group.pk} if self.group else {"club_id": self.club.pk}

    def players(self) -> QuerySet[Player]:
        if self.group:
            return Player.objects.filter(group=self.group)
        return Player.objects.filter(club=self.club)


def import_targets(*, user) -> list[ImportTarget]:
    """Return where ``user`` may import: the groups they manage, then the clubs they
    administer, each by name."""
    if user is None or not user.is_authenticated:
        return []
    managed = Group.objects.filter(
        Q(created_by=user) | Q(claims__user=user, claims__role=Role.SCOREKEEPER)
    ).distinct()
    administered = Club.objects.filter(
        memberships__user=user, memberships__role__in=[ClubRole.OWNER, ClubRole.ADMIN]
    ).distinct()
    return [
        *(ImportTarget(group=g) for g in sorted(managed, key=lambda g: g.name.casefold())),
        *(ImportTarget(club=c) for c in sorted(administered, key=lambda c: c.name.casefold())),
    ]


def import_target(*, user, group_id: int | None = None, club_id: int | None = None):
    """Return the group or club named, if ``user`` may import into it; else ActionRefused
    (an unknown one looks the same as one of someone else's)."""
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to import a file."))
    if (group_id is None) == (club_id is None):
        raise ActionRefused(gettext("Choose one group or one club to import into."))
    if group_id is not None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None or not group_manager(user, group):
            raise ActionRefused(gettext("You can import only into a group you manage."))
        return ImportTarget(group=group)
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise ActionRefused(gettext("Only the club's owner and admins can do this."))
    require_member(club_id=club.pk, user=user, admin=True)
    return ImportTarget(club=club)


# Reading lines ---------------------------------------------------------------------------


class _Budget:
    """Bytes an import may still read: a file's own limit, and an archive's unpacked one."""

    def __init__(self, limit: int, refusal: Callable[[], str]):
        self.left = limit
        self.refusal = refusal

    def spend(self, size: int, *, line: int, file: str | None) -> None:
        self.left -= size
        if self.left < 0:
            raise ImportRefused(self.refusal(), line=line, file=file)


def _lines(
    stream: IO[bytes], *, file: str | None, budgets: tuple[_Budget, ...], digest=None
) -> Iterator[tuple[int, bytes]]:
    """Yield each line of ``stream`` with its number, never reading more than MAX_LINE
    bytes of one line nor more than the budgets allow; ``digest`` sees every byte."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        for budget in budgets:
            budget.spend(len(raw), line=number, file=file)
        if digest is not None:
            digest.update(raw)
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            reason = gettext("the line is longer than %(size)d KB.") % {"size": MAX_LINE // 1024}
            raise ImportRefused(reason, line=number, file=file)
        yield number, raw.removesuffix(b"\n").removesuffix(b"\r")


class _Repeated(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        names = [name for name, _value in pairs]
        repeated = next(name for name in names if names.count(name) > 1)
        raise _Repeated(gettext("the field “%(name)s” appears twice.") % {"name": repeated})
    return found


def _no_constant(name: str) -> None:
    raise _Repeated(gettext("%(name)s is not a number JSON knows.") % {"name": name})


def _parsed(raw: bytes, *, line: int | None, file: str | None) -> dict[str, Any]:
    """Return a line's JSON object, refusing what is not one or holds text we cannot keep."""

    def refuse(reason: str) -> ImportRefused:
        return ImportRefused(reason, line=line, file=file)

    if line in (1, None):
        raw = raw.removeprefix(UTF8_BOM)
    if not raw.strip():
        raise refuse(gettext("the line is empty."))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse(gettext("the line is not UTF-8 text.")) from None
    try:
        value = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except RecursionError:
        raise refuse(gettext("the line nests too deep.")) from None
    except _Repeated as exc:
        raise refuse(str(exc)) from None
    except ValueError as exc:
        reason = gettext("the line is not valid JSON (%(error)s at character %(column)s).")
        error = getattr(exc, "msg", str(exc))
        raise refuse(reason % {"error": error, "column": getattr(exc, "colno", "?")}) from None
    if not isinstance(value, dict):
        raise refuse(gettext("the line is not a JSON object."))
    # A NUL or a lone surrogate can only come from a \u escape (the text is strict UTF-8 and
    # JSON takes no raw control character), and deep nesting needs as many brackets.
    if b"\\u" in raw or raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        _check_text(value, refuse)
    return value


def _check_text(value: Any, refuse: Callable[[str], ImportRefused]) -> None:
    """Refuse NUL characters and lone surrogates anywhere (names too), and deep nesting."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise refuse(gettext("the line nests too deep."))
        if isinstance(item, dict):
            stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and (bad := BAD_TEXT.search(item)):
            if bad.group() == "\x00":
                raise refuse(gettext("the line holds a NUL character."))
            raise refuse(gettext("the line holds a lone surrogate, which is not text."))


# Checking a table's lines ----------------------------------------------------------------


def _whole(value: Any) -> bool:
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


def _shown(value: Any) -> str:
    """Return a value of the file as a message quotes it: short, whatever the file holds."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 24 else f"{text[:20]}…"


def _uuid(value: Any) -> uuid.UUID | None:
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
class _Reader:
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
            value = _parsed(raw, line=number, file=self.file)
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
        if not _whole(version) or version != FORMAT_VERSION:
            reason = gettext(
                "version %(version)s of the format is not one this server reads "
                "(it reads version %(known)s)."
            )
            raise self.refuse(reason % {"version": _shown(version), "known": FORMAT_VERSION}, 1)
        self._fields(value, HEADER_FIELDS, 1)
        seats = value["seats"]
        checks = {
            "table": _uuid(value["table"]) is not None,
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
        if _whole(seq) and seq != expected:
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
                "seq": _whole(value["seq"]),
                "event_id": _uuid(value["event_id"]) is not None,
                "type": isinstance(value["type"], str) and len(value["type"]) <= TYPE_MAX,
                "payload": isinstance(value["payload"], dict),
                "schema_version": _whole(version),
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
            raise self.refuse(reason % {"said": _shown(value["events"]), "count": self.count}, line)


# One table: checked, then stored --------------------------------------------------------


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


class _Keeping:
    """The bytes of files whose events the first pass may keep for the second, which then
    need not read them again: a typical log's, not a 20 MB one's, nor 500 of them."""

    def __init__(self, limit: int = KEEP_BYTES):
        self.left = limit


def _checked(
    file: str | None,
    opener: Callable[[], IO[bytes]],
    budgets: tuple[_Budget, ...],
    keeping: _Keeping,
    digest=None,
) -> "CheckedTable":
    """Read one table's file to its end: every line checked, every event replayed."""
    reader = _Reader(file)
    state: TableState | None = None
    kept: list[FileEvent] | None = []
    with opener() as stream:
        for event in reader.events(_lines(stream, file=file, budgets=budgets, digest=digest)):
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
        source_id=_uuid(reader.header["table"]),
        seats=reader.header["seats"],
        events=reader.count,
        last_hash=reader.last_hash,
        state=state,
    )


def _check_header(reader: _Reader, state: TableState) -> None:
    header = reader.header
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


@dataclass(frozen=True)
class ImportedTable:
    """A table stored by an import; ``table`` carries its keys (``scorekeeper_key``,
    ``viewer_key``) for this answer only."""

    table: Table
    source_id: uuid.UUID
    events: int


@dataclass(frozen=True)
class ImportResult:
    target: ImportTarget
    tables: list[ImportedTable]
    players_created: list[str]


class _Seating:
    """Who sits where: each file's names matched to the target's players, whatever the
    capitals, and the names no player has yet (made when storing)."""

    def __init__(self, target: ImportTarget):
        self.target = target
        self.players = {p.name.casefold(): p for p in target.players()}
        self.new: dict[str, str] = {}

    def add(self, checked: CheckedTable) -> None:
        seen = set()
        for name in checked.seats:
            try:
                cleaned = clean_name(name, max_length=Player._meta.get_field("name").max_length)
            except ValidationError as exc:
                raise ImportRefused(exc.messages[0], line=1, file=checked.file) from None
            folded = cleaned.casefold()
            if folded in seen:
                reason = gettext("two seats have the same player, %(name)s.")
                raise ImportRefused(reason % {"name": cleaned}, line=1, file=checked.file)
            seen.add(folded)
            if folded not in self.players:
                self.new.setdefault(folded, cleaned)

    def check_room(self) -> None:
        if self.target.group is None:
            return
        have, most = len(self.players), group_services.MAX_GROUP_PLAYERS
        if have + len(self.new) > most:
            raise ImportRefused(
                gettext(
                    "The group has %(have)d players and this file would add %(new)d more: "
                    "a group holds at most %(max)d. Rename the group's players to match the "
                    "file's, or import into another group."
                )
                % {"have": have, "new": len(self.new), "max": most}
            )

    def make(self, *, user) -> list[str]:
        for folded, name in self.new.items():
            if self.target.group is not None:
                player = group_services.group_player_add(group_id=self.target.group.pk, name=name)
            else:
                player = player_create(actor=user, club_id=self.target.club.pk, name=name)
            self.players[folded] = player
        return list(self.new.values())

    def seated(self, checked: CheckedTable) -> list[Player]:
        names = [
            clean_name(n, max_length=Player._meta.get_field("name").max_length)
            for n in checked.seats
        ]
        return [self.players[name.casefold()] for name in names]


def _store(checked: CheckedTable, *, seating: _Seating, user) -> Table:
    """Write one checked table: its creation through ``table_create``, then the rest of its
    log as ``event_row`` chains it, and its head (the engine's state from the check)."""
    target = seating.target
    with ExitStack() as stack:
        if checked.kept is not None:
            events = iter(checked.kept)
        else:
            stream = stack.enter_context(checked.open())
            lines = _lines(stream, file=checked.file, budgets=())
            events = _Reader(checked.file).events(lines)
        first = next(events)
        table = services.table_create(
            variant=first.payload["variant"],
            options=first.payload.get("options") or {},
            players=first.payload["seats"],
            entered_by=first.entered_by,
            user=user,
            seat_players=seating.seated(checked),
            group=target.group,
            created_at=first.created_at,
        )
        try:
            with transaction.atomic():
                Table.objects.filter(pk=table.pk).update(imported_from=checked.source_id)
        except IntegrityError:
            raise _imported_already(checked) from None
        table.imported_from = checked.source_id
        prev, rows, last = table.head_hash, [], None
        for event in events:
            row = event_row(
                table=table,
                seq=event.seq,
                prev_hash=prev,
                event_id=uuid.uuid4(),
                event_type=event.event_type,
                payload=event.payload,
                entered_by=event.entered_by,
                created_at=event.created_at,
                user=user,
            )
            rows.append(row)
            prev, last = row.hash, row
            if len(rows) >= ROW_BATCH:
                Event.objects.bulk_create(rows)
                rows = []
        Event.objects.bulk_create(rows)
    if last is not None:
        # The head moves as an append moves it (signals, cached head), then the state the
        # check replayed is kept for the head, as an append keeps it.
        services._store_head(table=table, event=last, state=checked.state)
        snapshots.keep("head", table.id, seq=last.seq, hash=last.hash, state=checked.state)
    if target.club is not None:
        # A club's imported table is a casual table seated with its roster: its keys are its
        # only way in, so the importer's account holds the scorekeeper's.
        keyring.keys_claim(
            user=user, grants=keyring.Grants(tables={str(table.pk): table.scorekeeper_digest})
        )
    return table


def _imported_already(checked: CheckedTable, table_id: uuid.UUID | None = None) -> ImportRefused:
    if table_id is None:
        table_id = (
            Table.objects.filter(imported_from=checked.source_id)
            .values_list("pk", flat=True)
            .first()
        )
    reason = gettext("this table was imported already: it is table %(table)s here.")
    return ImportRefused(reason % {"table": table_id}, file=checked.file)


# Sources: a lone table's file, or an archive ---------------------------------------------


def _size(data: IO[bytes]) -> int:
    data.seek(0, 2)
    size = data.tell()
    data.seek(0)
    return size


class _Unclosed:
    """The upload itself, opened again for each pass and left open for its owner."""

    def __init__(self, data: IO[bytes]):
        self.data = data

    def __enter__(self) -> IO[bytes]:
        self.data.seek(0)
        return self.data

    def __exit__(self, *exc) -> None:
        return None


def _file_budget() -> _Budget:
    return _Budget(settings.IMPORT_MAX_BYTES, too_large)


def _lone_table(data: IO[bytes]) -> list[CheckedTable]:
    return [_checked(None, lambda: _Unclosed(data), (_file_budget(),), _Keeping())]


ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError)


def _archive(data: IO[bytes]) -> list[CheckedTable]:
    """Check an archive: its manifest, then each table's file it lists, whole and as the
    manifest describes it (events, last hash, SHA-256 of its bytes)."""
    try:
        archive = zipfile.ZipFile(data)
        infos = archive.infolist()
    except ZIP_ERRORS as exc:
        reason = gettext("the archive cannot be read (%(error)s).") % {"error": exc}
        raise ImportRefused(reason) from None
    names = [info.filename for info in infos]
    if len(names) != len(set(names)):
        raise ImportRefused(gettext("the archive holds two files of the same name."))
    if len(infos) > MAX_TABLES + 2:
        raise ImportRefused(_too_many_tables())
    entries = _manifest(archive, set(names))
    unpacked = _Budget(
        settings.IMPORT_MAX_UNPACKED,
        lambda: (
            gettext("the archive's tables unpack to more than %(size)s MB.")
            % {"size": megabytes(settings.IMPORT_MAX_UNPACKED)}
        ),
    )
    checked, keeping = [], _Keeping()
    for entry in entries:
        name = entry["file"]
        digest = hashlib.sha256()
        try:
            table = _checked(
                name,
                lambda name=name: archive.open(name),
                (_file_budget(), unpacked),
                keeping,
                digest,
            )
        except ZIP_ERRORS as exc:
            reason = gettext("the archive cannot be read (%(error)s).") % {"error": exc}
            raise ImportRefused(reason, file=name) from None
        said = (entry["table"], entry["events"], entry["last_hash"], entry["sha256"])
        found = (str(table.source_id), table.events, table.last_hash, digest.hexdigest())
        if said != found:
            raise ImportRefused(
                gettext("the file is not the one the manifest describes."), file=name
            )
        checked.append(table)
    return checked


def _too_many_tables() -> str:
    return gettext("an archive holds at most %(max)d tables.") % {"max": MAX_TABLES}


def _manifest(archive: zipfile.ZipFile, names: set[str]) -> list[dict[str, Any]]:
    def refuse(reason: str) -> ImportRefused:
        return ImportRefused(reason, file=MANIFEST)

    if MANIFEST not in names:
        raise ImportRefused(gettext("the archive has no manifest.json."))
    try:
        with archive.open(MANIFEST) as stream:
            raw = stream.read(MAX_MANIFEST + 1)
    except ZIP_ERRORS as exc:
        raise refuse(gettext("it cannot be read (%(error)s).") % {"error": exc}) from None
    if len(raw) > MAX_MANIFEST:
        raise refuse(gettext("it is larger than 1 MB."))
    manifest = _parsed(raw.replace(b"\n", b" "), line=None, file=MANIFEST)
    if manifest.get("format") != ARCHIVE_FORMAT:
        reason = gettext(
            "this is not a RummyRef archive (its manifest names no format “%(format)s”)."
        )
        raise refuse(reason % {"format": ARCHIVE_FORMAT})
    version = manifest.get("version")
    if not _whole(version) or version != FORMAT_VERSION:
        reason = gettext(
            "version %(version)s of the format is not one this server reads "
            "(it reads version %(known)s)."
        )
        raise refuse(reason % {"version": _shown(version), "known": FORMAT_VERSION})
    entries = manifest.get("tables")
    if not isinstance(entries, list):
        raise refuse(gettext("its list of tables is missing."))
    if len(entries) > MAX_TABLES:
        raise refuse(_too_many_tables())
    seen: set[str] = set()
    for entry in entries:
        right = (
            isinstance(entry, dict)
            and isinstance(entry.get("file"), str)
            and MEMBER_NAME.fullmatch(entry["file"])
            and _uuid(entry.get("table")) is not None
            and _whole(entry.get("events"))
            and all(
                isinstance(entry.get(k), str) and HASH.fullmatch(entry[k])
                for k in ("last_hash", "sha256")
            )
        )
        if not right:
            raise refuse(gettext("an entry of its list of tables is not of the right shape."))
        if entry["file"] not in names:
            reason = gettext("it lists %(file)s, which the archive does not hold.")
            raise refuse(reason % {"file": entry["file"]})
        if entry["table"] in seen:
            reason = gettext("it lists table %(table)s twice.")
            raise refuse(reason % {"table": entry["table"]})
        seen.add(entry["table"])
    return entries


# The service -----------------------------------------------------------------------------


def log_import(
    *, user, data: IO[bytes], group_id: int | None = None, club_id: int | None = None
) -> ImportResult:
    """Import a table's log (JSON Lines) or an archive of tables (zip) into a group
    ``user`` manages or a club they administer (else ActionRefused).

    ``data`` is a seekable binary file, read at most twice and never past the limits
    (IMPORT_MAX_BYTES a file, MAX_LINE a line, MAX_EVENTS a table, MAX_TABLES an archive).
    Every line is checked and every event replayed before anything is stored; then all of
    it is stored in one transaction, or nothing (ImportRefused says where and why).
    """
    target = import_target(user=user, group_id=group_id, club_id=club_id)
    if _size(data) > settings.IMPORT_MAX_BYTES:
        raise ImportRefused(too_large())
    magic = data.read(len(ZIP_MAGIC))
    data.seek(0)
    tables = _archive(data) if magic == ZIP_MAGIC else _lone_table(data)
    seating = _Seating(target)
    for checked in tables:
        seating.add(checked)
    seating.check_room()
    found = dict(
        Table.objects.filter(imported_from__in=[t.source_id for t in tables]).values_list(
            "imported_from", "pk"
        )
    )
    for checked in tables:
        if checked.source_id in found:
            raise _imported_already(checked, found[checked.source_id])
    with transaction.atomic():
        try:
            created = seating.make(user=user)
        except ValidationError as exc:
            raise ImportRefused(exc.messages[0]) from None
        stored = [
            ImportedTable(
                table=_store(checked, seating=seating, user=user),
                source_id=checked.source_id,
                events=checked.events,
            )
            for checked in tables
        ]
    return ImportResult(target=target, tables=stored, players_created=created)
