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

The modules: ``lines`` reads a file's lines (and says why one is refused), ``checks`` checks
a table's file and replays it, ``sources`` finds the tables of a lone file or an archive,
``targets`` says where an import may go, ``store`` writes the checked tables; this one runs
the import and names what the rest of the app uses.
"""

from typing import IO

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from games.tables.imports.checks import MAX_EVENTS, CheckedTable, FileEvent
from games.tables.imports.lines import MAX_LINE, ImportRefused, megabytes, too_large
from games.tables.imports.sources import MAX_TABLES, archive_tables, lone_table
from games.tables.imports.store import (
    ImportedTable,
    ImportResult,
    Seating,
    imported_already,
    store_table,
)
from games.tables.imports.targets import ImportTarget, import_target, import_targets
from games.tables.models import Table

__all__ = [
    "MAX_EVENTS",
    "MAX_LINE",
    "MAX_TABLES",
    "CheckedTable",
    "FileEvent",
    "ImportRefused",
    "ImportResult",
    "ImportTarget",
    "ImportedTable",
    "import_target",
    "import_targets",
    "log_import",
    "megabytes",
    "too_large",
]

ZIP_MAGIC = b"PK\x03\x04"


def _size(data: IO[bytes]) -> int:
    data.seek(0, 2)
    size = data.tell()
    data.seek(0)
    return size


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
    tables = archive_tables(data) if magic == ZIP_MAGIC else lone_table(data)
    seating = Seating(target)
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
            raise imported_already(checked, found[checked.source_id])
    with transaction.atomic():
        try:
            created = seating.make(user=user)
        except ValidationError as exc:
            raise ImportRefused(exc.messages[0]) from None
        stored = [
            ImportedTable(
                table=store_table(checked, seating=seating, user=user),
                source_id=checked.source_id,
                events=checked.events,
            )
            for checked in tables
        ]
    return ImportResult(target=target, tables=stored, players_created=created)
