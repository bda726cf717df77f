"""Storing checked tables: each file's players matched to the target's (or made), then each
table written through ``table_create`` and the rows ``event_row`` makes."""

import uuid
from contextlib import ExitStack
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.clubs import groups as group_services
from games.clubs.models import Player
from games.clubs.services import clean_name, player_create
from games.tables import keyring, services, snapshots
from games.tables.imports.checks import CheckedTable, TableReader
from games.tables.imports.lines import ImportRefused, read_lines
from games.tables.imports.targets import ImportTarget
from games.tables.log import event_row
from games.tables.models import Event, Table

# Rows written at a time by the second pass.
ROW_BATCH = 500


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


class Seating:
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


def store_table(checked: CheckedTable, *, seating: Seating, user) -> Table:
    """Write one checked table: its creation through ``table_create``, then the rest of its
    log as ``event_row`` chains it, and its head (the engine's state from the check)."""
    target = seating.target
    with ExitStack() as stack:
        if checked.kept is not None:
            events = iter(checked.kept)
        else:
            stream = stack.enter_context(checked.open())
            lines = read_lines(stream, file=checked.file, budgets=())
            events = TableReader(checked.file).events(lines)
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
            raise imported_already(checked) from None
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


def imported_already(checked: CheckedTable, table_id: uuid.UUID | None = None) -> ImportRefused:
    if table_id is None:
        table_id = (
            Table.objects.filter(imported_from=checked.source_id)
            .values_list("pk", flat=True)
            .first()
        )
    reason = gettext("this table was imported already; nothing was stored again.")
    return ImportRefused(reason, file=checked.file, existing=table_id)
