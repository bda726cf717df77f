"""Where an import's tables come from: a lone table's file, or an archive whose manifest
lists its tables' files; each is checked whole before anything is stored."""

import hashlib
import re
import zipfile
import zlib
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext

from games.tables.exports import ARCHIVE_FORMAT, FORMAT_VERSION, MANIFEST
from games.tables.imports.checks import (
    CheckedTable,
    Keeping,
    as_uuid,
    is_whole,
    quoted,
    table_checked,
)
from games.tables.imports.lines import Budget, ImportRefused, megabytes, parse_line, too_large

MAX_TABLES = 500
MAX_MANIFEST = 1024 * 1024
MEMBER_NAME = re.compile(r"tables/[0-9a-f-]{36}\.jsonl")
HASH = re.compile(r"[0-9a-f]{64}")


class _Unclosed:
    """The upload itself, opened again for each pass and left open for its owner."""

    def __init__(self, data: IO[bytes]):
        self.data = data

    def __enter__(self) -> IO[bytes]:
        self.data.seek(0)
        return self.data

    def __exit__(self, *exc) -> None:
        return None


def _file_budget() -> Budget:
    return Budget(settings.IMPORT_MAX_BYTES, too_large)


def lone_table(data: IO[bytes]) -> list[CheckedTable]:
    return [table_checked(None, lambda: _Unclosed(data), (_file_budget(),), Keeping())]


ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError)


def archive_tables(data: IO[bytes]) -> list[CheckedTable]:
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
    unpacked = Budget(
        settings.IMPORT_MAX_UNPACKED,
        lambda: (
            gettext("the archive's tables unpack to more than %(size)s MB.")
            % {"size": megabytes(settings.IMPORT_MAX_UNPACKED)}
        ),
    )
    checked, keeping = [], Keeping()
    for entry in entries:
        name = entry["file"]
        digest = hashlib.sha256()
        try:
            table = table_checked(
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
    manifest = parse_line(raw.replace(b"\n", b" "), line=None, file=MANIFEST)
    if manifest.get("format") != ARCHIVE_FORMAT:
        reason = gettext(
            "this is not a RummyRef archive (its manifest names no format “%(format)s”)."
        )
        raise refuse(reason % {"format": ARCHIVE_FORMAT})
    version = manifest.get("version")
    if not is_whole(version) or version != FORMAT_VERSION:
        reason = gettext(
            "version %(version)s of the format is not one this server reads "
            "(it reads version %(known)s)."
        )
        raise refuse(reason % {"version": quoted(version), "known": FORMAT_VERSION})
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
            and as_uuid(entry.get("table")) is not None
            and is_whole(entry.get("events"))
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
