"""Every write to tables and their logs goes through here."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.clubs.models import Group, Player, Season
from games.clubs.services import require_member
from games.shared.errors import ActionRefused, AppendConflict, EventRejected
from games.shared.task_outbox import send_on_commit
from games.tables import heads, push, selectors, snapshots
from games.tables.access import SEASON_CLOSED
from games.tables.log import SEATING, engine_events, event_row, seating_logged
from games.tables.models import Event, Seat, Table, TableProjection
from games.tables.signals import (
    league_match_changed,
    table_head_moved,
    table_settled_changed,
)
from games.tables.tasks import table_verify
from scoring.errors import RuleViolation, Violation
from scoring.events import (
    APPENDABLE_TYPES,
    DIRECTOR_TYPES,
    HAND_RECORDED,
    TABLE_CREATED,
    LogEvent,
)
from scoring.replay import TableState, apply, replay
from scoring.variants import new_table_options


class SeasonClosed(ActionRefused):
    """The table's season is closed: its tables are archived read-only."""

    def __init__(self):
        super().__init__(str(SEASON_CLOSED))


@dataclass(frozen=True)
class AppendResult:
    """An append's outcome: the stored event, the table's head after it and its totals (all
    small at any length), and the whole state on demand (``state``, as large as the log)."""

    event: Event
    created: bool
    head_seq: int
    head_hash: str
    totals: list[int]
    winner: int | None
    finished: bool
    engine_state: TableState = field(repr=False, compare=False)

    @property
    def state(self) -> dict[str, Any]:
        """Return the whole state at the head as JSON-ready data (its hands' entries are
        kept from append to append, so this costs a list of the hands, no more)."""
        return self.engine_state.to_dict()


def _append_result(table: Table, event: Event, *, created: bool, state: TableState):
    return AppendResult(
        event=event,
        created=created,
        head_seq=table.head_seq,
        head_hash=table.head_hash,
        totals=list(state.totals),
        winner=state.match.winner,
        finished=state.match.finished,
        engine_state=state,
    )


def _insert_event(
    *,
    table: Table,
    seq: int,
    event_id: uuid.UUID,
    event_type: str,
    payload: dict[str, Any],
    entered_by: str,
    user,
    created_at: datetime | None = None,
) -> Event:
    event = event_row(
        table=table,
        seq=seq,
        prev_hash=table.head_hash,
        event_id=event_id,
        event_type=event_type,
        payload=payload,
        entered_by=entered_by,
        created_at=created_at or timezone.now(),
        user=user,
    )
    event.save()
    return event


def _store_head(*, table: Table, event: Event, state: TableState) -> None:
    """Move the table's head to ``event``.

    Nothing here grows with the log: the projection's row (the state as JSON, for readers
    with no snapshot at hand) is written by ``table_verify``, after the commit and only now
    and then (``audit.PROJECTION_EVERY``): at a long table it is the largest write there is.
    Meanwhile readers take the snapshot this append keeps (``selectors.table_state``).
    """
    # A league match that ends, or that was over and is corrected, moves its season's
    # standings; moves within a match still in play do not.
    counted = table.season_id is not None and not table.practice
    if counted and (state.finished or table.status == Table.Status.FINISHED):
        league_match_changed.send(sender=Table, table=table)
    if state.closed or table.status == Table.Status.FINISHED:
        table_settled_changed.send(sender=Table, table=table)
    table.head_seq = event.seq
    table.head_hash = event.hash
    status = Table.Status.FINISHED if state.closed else Table.Status.OPEN
    if table.group_id is not None and (event.seq == 1 or status != table.status):
        # The group's page lists its tables with their state: one started, finished or
        # reopened.
        push.group_push_on_commit(table.group_id)
    table.status = status
    table.save(update_fields=["head_seq", "head_hash", "status", "updated_at"])
    heads.head_publish(table.id, event.seq)
    table_head_moved.send(sender=Table, table=table)


def _queue_verify(table_id: uuid.UUID) -> None:
    # Not kept in the outbox: the nightly audit checks every table anyway, and a save should
    # not store a row for it.
    send_on_commit(table_verify, str(table_id), kept=False)


def _creation(
    variant: str, options: dict[str, Any], players: Sequence[str], *, logged: bool = False
) -> tuple[TableState, dict[str, Any]]:
    """Return the engine's state once a table is created, and the creation's payload with
    the options in full; refuse bad settings (EventRejected). A new table takes today's
    defaults where its options say nothing; a ``logged`` one (an imported log) the rules
    its creation was played by."""
    if not logged:
        options = new_table_options(variant, options)
    payload = {"variant": variant, "options": dict(options), "seats": [p.strip() for p in players]}
    try:
        state = apply(None, LogEvent(seq=1, event_type=TABLE_CREATED, payload=payload))
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    # The log keeps the options in full, so a later change of defaults never changes a table.
    payload["options"] = state.variant.options_to_dict(state.options)
    return state, payload


def _dated(table: Table, created_at: datetime | None) -> None:
    """Date a table brought with its log's times (an import) by its log, not by the day it
    was imported."""
    if created_at is not None:
        Table.objects.filter(pk=table.pk).update(created_at=created_at)
        table.created_at = created_at


def _seats_create(
    table: Table, names: Sequence[str], seat_players: Sequence[Player] | None
) -> list[Player]:
    """Seat the table: ``seat_players`` in order, else a new player for each name."""
    seated = []
    for position, name in enumerate(names):
        player = seat_players[position] if seat_players else Player.objects.create(name=name)
        Seat.objects.create(table=table, position=position, player=player)
        seated.append(player)
    return seated


@transaction.atomic
def table_create(
    *,
    variant: str,
    options: dict[str, Any],
    players: Sequence[str],
    entered_by: str = "",
    user=None,
    table_id: uuid.UUID | None = None,
    season: Season | None = None,
    seat_players: Sequence[Player] | None = None,
    practice: bool = False,
    keys_record: bool = False,
    group: Group | None = None,
    created_at: datetime | None = None,
) -> Table:
    """Create a table, its seats and the first event of its log; refuse bad settings.

    ``seat_players`` seats a club's players (their names are ``players``) instead of making
    new ones; ``practice`` marks a table that never counts, as options with "practice" do;
    ``keys_record``, with a season, lets its keys record (a tournament night's table);
    ``group`` makes a group's table, seated with its players (``seat_players``);
    ``created_at`` dates the table and its first event (an imported log keeps its times,
    and the options its creation logged: no new table's defaults).

    The first event logs the seating too (each seat's player id and name), so the audit
    finds a seat whose player was changed afterwards."""
    state, payload = _creation(variant, options, players, logged=created_at is not None)
    full_options = payload["options"]
    table = Table.objects.create(
        id=table_id or uuid.uuid4(),
        variant=variant,
        preset=full_options.get("preset", ""),
        options=full_options,
        # The match's length: points to reach (Gin, Rummy40, Knock Rummy) or hands (Ramino).
        target=full_options.get("target", full_options.get("hands", 1)),
        created_by=user if user is not None and user.is_authenticated else None,
        season=season,
        group=group,
        keys_record=keys_record,
        practice=practice or full_options.get("practice") is True,
    )
    _dated(table, created_at)
    seated = _seats_create(table, state.seats, seat_players)
    # Who sits where is part of the chained log, so a seat whose player is changed later is
    # found by the audit (the engine never sees it: ``log.engine_payload``).
    payload[SEATING] = seating_logged(seated)
    event = _insert_event(
        table=table,
        seq=1,
        event_id=uuid.uuid4(),
        event_type=TABLE_CREATED,
        payload=payload,
        entered_by=entered_by,
        user=user,
        created_at=created_at,
    )
    _store_head(table=table, event=event, state=state)
    _queue_verify(table.id)
    return table


def event_append(
    *,
    table_id: uuid.UUID | str,
    event_id: uuid.UUID,
    expected_seq: int,
    event_type: str,
    payload: dict[str, Any],
    entered_by: str = "",
    user=None,
    by_director: bool = False,
) -> AppendResult:
    """Append one event to a table's log after replaying it on the current state.

    ``by_director`` lets a tournament's director's decision in (its service checks who).

    A retry with a stored ``event_id`` returns the stored event; a stale ``expected_seq``
    raises AppendConflict; a rule violation raises EventRejected. Nothing is stored then.
    """
    try:
        with transaction.atomic():
            return _append_locked(
                table_id=table_id,
                event_id=event_id,
                expected_seq=expected_seq,
                event_type=event_type,
                payload=payload,
                entered_by=entered_by,
                user=user,
                allowed=APPENDABLE_TYPES + DIRECTOR_TYPES if by_director else APPENDABLE_TYPES,
            )
    except IntegrityError:
        # A stored event_id the head did not give away gets here, refused by its unique
        # key: one sent on at the new head, one of another table, or one stored at the same
        # moment at another table (the lock serialises this table's). Answer as a retry.
        existing = Event.objects.filter(event_id=event_id).select_related("table").first()
        if existing is None:
            raise
        return _existing_result(existing, table_id=table_id, event_type=event_type, payload=payload)


# Attempts to re-base one whole-hand entry while other phones keep appending corrections.
REBASE_ATTEMPTS = 3


def hand_append(
    *,
    table_id: uuid.UUID | str,
    event_id: uuid.UUID,
    expected_seq: int,
    payload: dict[str, Any],
    entered_by: str = "",
    user=None,
) -> AppendResult:
    """Append a whole hand; a stale ``expected_seq`` is re-based when the intent still holds.

    The phone's form was for "the next hand". If nothing since the head it saw recorded a
    hand (only corrections of older hands, or nothing at all) and no hand is being played
    move by move, that hand is still the next one: the entry goes on at the current head.
    If another phone recorded a hand meanwhile, it was most likely this very hand: that is
    a real conflict, raised for the user to choose.
    """
    last: AppendConflict | None = None
    for _attempt in range(REBASE_ATTEMPTS):
        try:
            return event_append(
                table_id=table_id,
                event_id=event_id,
                expected_seq=expected_seq,
                event_type=HAND_RECORDED,
                payload=payload,
                entered_by=entered_by,
                user=user,
            )
        except AppendConflict as conflict:
            recorded_since = [h for h in conflict.state["hands"] if h["seq"] > expected_seq]
            if recorded_since or conflict.state.get("play") or expected_seq > conflict.head_seq:
                raise
            expected_seq, last = conflict.head_seq, conflict
    raise last


def _existing_result(
    existing: Event, *, table_id, event_type: str, payload: dict[str, Any]
) -> AppendResult:
    if (
        str(existing.table_id) != str(table_id)
        or existing.type != event_type
        or existing.payload != payload
    ):
        raise EventRejected(
            [
                Violation(
                    rule="EVENT",
                    code="event_id_reused",
                    message="This event_id was already used for a different event.",
                    params={"event_id": str(existing.event_id)},
                )
            ]
        )
    table = Table.objects.get(pk=existing.table_id)
    # The table's head now, which may be past the stored event.
    return _append_result(table, existing, created=False, state=snapshots.head_state(table))


def _append_locked(
    *, table_id, event_id, expected_seq, event_type, payload, entered_by, user, allowed
) -> AppendResult:
    table = Table.objects.select_for_update().get(pk=table_id)
    # A retry's event was stored past the head it was sent against, so the log is asked for
    # it only when the head has moved. The same id at another table is refused by the
    # insert's unique key (``event_append``). Asked after the lock, not with it: a query
    # that waited on the lock sees nothing committed while it waited.
    if expected_seq != table.head_seq:
        existing = Event.objects.filter(event_id=event_id).first()
        if existing is not None:
            return _existing_result(
                existing, table_id=table.id, event_type=event_type, payload=payload
            )
    # Read under the table's lock: season_close locks the season's tables before closing it.
    if table.season_id is not None and not Season.objects.get(pk=table.season_id).is_open:
        raise SeasonClosed()
    if expected_seq != table.head_seq:
        raise AppendConflict(
            head_seq=table.head_seq,
            head_hash=table.head_hash,
            state=selectors.table_state(table=table),
        )
    if table.season_id is not None and user is not None and user.is_authenticated:
        # A league table's record names the signed-in member, never what the client typed.
        entered_by = user.get_username()[: Event._meta.get_field("entered_by").max_length]
    if event_type not in allowed:
        raise EventRejected(
            [
                Violation(
                    rule="EVENT",
                    code="unknown_type",
                    message=f"Unknown event type '{event_type}'.",
                    params={"type": event_type, "choices": list(APPENDABLE_TYPES)},
                )
            ]
        )
    new = LogEvent(seq=table.head_seq + 1, event_type=event_type, payload=payload)
    try:
        # Only the new event is folded in: the state at the head is kept from the last append.
        state = apply(snapshots.head_state(table), new)
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    event = _insert_event(
        table=table,
        seq=new.seq,
        event_id=event_id,
        event_type=event_type,
        payload=payload,
        entered_by=entered_by,
        user=user,
    )
    _store_head(table=table, event=event, state=state)
    # Kept before the commit, under the table's lock, so the next append (waiting on that
    # lock) finds it; were this transaction rolled back, no head would ever carry its hash.
    snapshots.keep("head", table.id, seq=event.seq, hash=event.hash, state=state)
    _queue_verify(table.id)
    return _append_result(table, event, created=True, state=state)


@transaction.atomic
def projection_rebuild(*, table_id: uuid.UUID | str) -> TableProjection:
    """Throw away a table's cached state and replay it from the log."""
    table = Table.objects.select_for_update().get(pk=table_id)
    TableProjection.objects.filter(table=table).delete()
    state = replay(engine_events(table.events.order_by("seq")))
    snapshots.keep("head", table.id, seq=table.head_seq, hash=table.head_hash, state=state)
    return TableProjection.objects.create(table=table, seq=state.head_seq, state=state.to_dict())


@transaction.atomic
def season_table_create(
    *,
    actor,
    season_id: int,
    player_ids: Sequence[int],
    practice: bool = False,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    entered_by: str = "",
    table_id: uuid.UUID | None = None,
) -> Table:
    """Create a table in an open season, for members: the league's game and options, the
    club's players in the seats. A ``variant`` or ``options`` other than the league's is
    refused, never applied."""
    # Locked, so a season being closed cannot get a new table at the same moment.
    season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
    league = season.league
    require_member(club_id=league.club_id, user=actor)
    if not season.is_open:
        raise SeasonClosed()
    if (variant is not None and variant != league.variant) or (
        options is not None and options != league.options
    ):
        raise ActionRefused(
            gettext("A league's tables play the league's game and options; they cannot change.")
        )
    ids = list(player_ids)
    if len(ids) != league.players:
        raise ValidationError(
            gettext("This league's tables have %(count)d players.") % {"count": league.players},
            code="seats",
        )
    if len(set(ids)) != len(ids):
        raise ValidationError(gettext("Choose a different player for every seat."), code="seats")
    found = Player.objects.filter(club_id=league.club_id).in_bulk(ids)
    if len(found) != len(ids):
        raise ValidationError(gettext("Choose the seats from the club's players."), code="seats")
    seat_players = [found[pk] for pk in ids]
    return table_create(
        variant=league.variant,
        options=league.options,
        players=[p.name for p in seat_players],
        entered_by=entered_by,
        user=actor,
        table_id=table_id,
        season=season,
        seat_players=seat_players,
        practice=practice,
    )


@transaction.atomic
def table_rematch(*, table_id: uuid.UUID | str, actor=None, entered_by: str = "") -> Table:
    """Start the next match of a finished table, or return the one already started.

    One rematch per finished table, whichever phone asks and however often: the finished
    table's row stays locked while its rematch is looked for and made, and the rematch's
    one-to-one link to it (``Table.rematch_of``) has the database refuse a second one. Its
    head leaves the idle polls' cache, so each phone still on it moves on at its next poll.
    """
    # A league table's season is locked before the table, as closing a season locks the
    # season and then its tables: taken in the same order, the two never wait on each other.
    season_id = Table.objects.filter(pk=table_id).values_list("season_id", flat=True).first()
    if season_id is not None:
        list(Season.objects.select_for_update().filter(pk=season_id).values_list("pk"))
    table = Table.objects.select_for_update().get(pk=table_id)
    started = Table.objects.filter(rematch_of=table).first()
    if started is not None:
        return started
    if table.status != Table.Status.FINISHED:
        raise ActionRefused(gettext("A rematch starts once this match is over."))
    try:
        with transaction.atomic():
            rematch = _rematch_create(table, actor=actor, entered_by=entered_by)
            rematch.rematch_of = table
            rematch.save(update_fields=["rematch_of"])
    except IntegrityError:
        # Made at the same moment by a request no row lock held back (SQLite has none).
        started = Table.objects.filter(rematch_of=table).first()
        if started is None:
            raise
        return started
    heads.head_retire(table.id)
    push.moved_push_on_commit(table.id)  # the old table's streaming phones poll, and move on
    return rematch


def _rematch_create(table: Table, *, actor, entered_by: str) -> Table:
    """Make ``table``'s rematch: the same players and options, each seat moved one place
    on, so the player after this match's first dealer deals first.

    A league table's rematch is a new table of the same season, for its members, while the
    season is open (``season_table_create`` checks both); a group's is the group's.
    """
    seats = list(table.seats.select_related("player").order_by("position"))
    seats = seats[1:] + seats[:1]
    if table.season_id is not None:
        return season_table_create(
            actor=actor,
            season_id=table.season_id,
            player_ids=[seat.player_id for seat in seats],
            practice=table.practice,
            entered_by=entered_by,
        )
    # A group's or a club's players stay the same people at the rematch (their stats follow
    # them); a casual table's one-off names are typed anew, as a new table's would be.
    known = all(seat.player.group_id or seat.player.club_id for seat in seats)
    return table_create(
        variant=table.variant,
        options=dict(table.options),
        players=[seat.player.name for seat in seats],
        entered_by=entered_by,
        user=actor,
        seat_players=[seat.player for seat in seats] if known else None,
        group=table.group,
    )


@transaction.atomic
def group_table_create(
    *,
    group: Group,
    seat_players: Sequence[Player],
    variant: str,
    options: dict[str, Any],
    entered_by: str = "",
    user=None,
) -> Table:
    """Start a group's table seated with its players; the game and options chosen become the
    ones the group's next table offers first."""
    if any(player.group_id != group.pk or player.retired_at for player in seat_players):
        raise ActionRefused(gettext("Only the group's players can sit at its tables."))
    table = table_create(
        variant=variant,
        options=options,
        players=[player.name for player in seat_players],
        entered_by=entered_by,
        user=user,
        seat_players=seat_players,
        group=group,
    )
    group.variant, group.options = variant, dict(options)
    group.save(update_fields=["variant", "options"])
    return table
