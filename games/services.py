"""Every write to tables and their logs goes through here."""

import hashlib
import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from games.access import SEASON_CLOSED
from games.models import (
    Club,
    ClubRole,
    Event,
    Invite,
    League,
    MatchResult,
    Membership,
    Player,
    RecomputeJob,
    Season,
    SeasonStandings,
    Seat,
    Table,
    TableProjection,
    Tiebreaker,
)
from games.selectors import engine_events
from scoring.errors import RuleViolation, Violation
from scoring.events import APPENDABLE_TYPES, SCHEMA_VERSION, TABLE_CREATED, LogEvent
from scoring.ratings import RatingHistory, ratings_over
from scoring.replay import TableState, apply, replay
from scoring.standings import MatchSummary, match_summary, standings

logger = logging.getLogger(__name__)


class EventRejected(Exception):
    """The event breaks a rule or is malformed; nothing was stored."""

    def __init__(self, violations: Sequence[Violation]):
        super().__init__("; ".join(v.message for v in violations))
        self.violations = tuple(violations)


class AppendConflict(Exception):
    """The client's ``expected_seq`` is not the table's head: someone else wrote first."""

    def __init__(self, *, table: Table, state: dict[str, Any]):
        super().__init__(f"The table is at event {table.head_seq}.")
        self.head_seq = table.head_seq
        self.head_hash = table.head_hash
        self.state = state


class ActionRefused(PermissionDenied):
    """The user may not do this here (not a member, not an admin, closed); nothing changed."""


class SeasonClosed(ActionRefused):
    """The table's season is closed: its tables are archived read-only."""

    def __init__(self):
        super().__init__(str(SEASON_CLOSED))


@dataclass(frozen=True)
class AppendResult:
    event: Event
    created: bool
    state: dict[str, Any]


def event_hash(
    *,
    prev_hash: str,
    table_id: uuid.UUID,
    seq: int,
    event_id: uuid.UUID,
    type: str,
    payload: dict[str, Any],
    schema_version: int,
    entered_by: str,
    created_at: datetime,
) -> str:
    """Hash an event together with its predecessor's hash, over a canonical JSON form."""
    body = json.dumps(
        {
            "table": str(table_id),
            "seq": seq,
            "event_id": str(event_id),
            "type": type,
            "payload": payload,
            "schema_version": schema_version,
            "entered_by": entered_by,
            "created_at": created_at.astimezone(UTC).isoformat(),
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def event_row(
    *,
    table: Table,
    seq: int,
    prev_hash: str,
    event_id: uuid.UUID,
    type: str,
    payload: dict[str, Any],
    entered_by: str,
    created_at: datetime,
    user=None,
) -> Event:
    """Return an unsaved event chained to ``prev_hash``; it is not replayed here.

    ``event_append`` saves it after the replay; loaders of stored logs (the bench) and tests
    that store what an old engine could have written use it directly.
    """
    return Event(
        table=table,
        seq=seq,
        event_id=event_id,
        type=type,
        payload=payload,
        schema_version=SCHEMA_VERSION,
        entered_by=entered_by,
        user=user if user is not None and user.is_authenticated else None,
        created_at=created_at,
        prev_hash=prev_hash,
        hash=event_hash(
            prev_hash=prev_hash,
            table_id=table.id,
            seq=seq,
            event_id=event_id,
            type=type,
            payload=payload,
            schema_version=SCHEMA_VERSION,
            entered_by=entered_by,
            created_at=created_at,
        ),
    )


def _insert_event(
    *,
    table: Table,
    seq: int,
    event_id: uuid.UUID,
    type: str,
    payload: dict[str, Any],
    entered_by: str,
    user,
) -> Event:
    event = event_row(
        table=table,
        seq=seq,
        prev_hash=table.head_hash,
        event_id=event_id,
        type=type,
        payload=payload,
        entered_by=entered_by,
        created_at=timezone.now(),
        user=user,
    )
    event.save()
    return event


def _store_head(*, table: Table, event: Event, state: TableState) -> dict[str, Any]:
    """Move the table's head to ``event`` and cache the replayed state."""
    projected = state.to_dict()
    # A league match that ends, or that was over and is corrected, moves its season's
    # standings; moves within a match still in play do not.
    counted = table.season_id is not None and not table.practice
    if counted and (state.finished or table.status == Table.Status.FINISHED):
        _queue_standings(table.season_id)
    table.head_seq = event.seq
    table.head_hash = event.hash
    table.status = Table.Status.FINISHED if state.finished else Table.Status.OPEN
    table.save(update_fields=["head_seq", "head_hash", "status", "updated_at"])
    TableProjection.objects.update_or_create(
        table=table, defaults={"seq": event.seq, "state": projected}
    )
    return projected


def _queue_verify(table_id: uuid.UUID) -> None:
    from games.tasks import table_verify

    # Robust: the event is stored and acknowledged by then; a broker that is down must not
    # turn that into an error (the nightly audit checks every table anyway).
    transaction.on_commit(lambda: table_verify.delay(str(table_id)), robust=True)


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
) -> Table:
    """Create a table, its seats and the first event of its log; refuse bad settings.

    ``seat_players`` seats a club's players (their names are ``players``) instead of making
    new ones; ``practice`` marks a table that never counts, as options with "practice" do.
    """
    payload = {"variant": variant, "options": dict(options), "seats": [p.strip() for p in players]}
    try:
        state = apply(None, LogEvent(seq=1, event_type=TABLE_CREATED, payload=payload))
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    full_options = state.variant.options_to_dict(state.options)
    # The log keeps the options in full, so a later change of defaults never changes a table.
    payload["options"] = full_options
    table = Table.objects.create(
        id=table_id or uuid.uuid4(),
        variant=variant,
        preset=full_options.get("preset", ""),
        options=full_options,
        # The match's length: points to reach (Gin, Rummy40, Knock Rummy) or hands (Ramino).
        target=full_options.get("target", full_options.get("hands", 1)),
        created_by=user if user is not None and user.is_authenticated else None,
        season=season,
        practice=practice or full_options.get("practice") is True,
    )
    for position, name in enumerate(state.seats):
        player = seat_players[position] if seat_players else Player.objects.create(name=name)
        Seat.objects.create(table=table, position=position, player=player)
    event = _insert_event(
        table=table,
        seq=1,
        event_id=uuid.uuid4(),
        type=TABLE_CREATED,
        payload=payload,
        entered_by=entered_by,
        user=user,
    )
    _store_head(table=table, event=event, state=state)
    _queue_verify(table.id)
    return table


def event_append(
    *,
    table_id: uuid.UUID | str,
    event_id: uuid.UUID,
    expected_seq: int,
    type: str,
    payload: dict[str, Any],
    entered_by: str = "",
    user=None,
) -> AppendResult:
    """Append one event to a table's log after replaying it on the current state.

    A retry with a stored ``event_id`` returns the stored event; a stale ``expected_seq``
    raises AppendConflict; a rule violation raises EventRejected. Nothing is stored then.
    """
    try:
        with transaction.atomic():
            return _append_locked(
                table_id=table_id,
                event_id=event_id,
                expected_seq=expected_seq,
                type=type,
                payload=payload,
                entered_by=entered_by,
                user=user,
            )
    except IntegrityError:
        # Only a concurrent insert of the same event_id on another table gets here: the
        # table lock serialises everything else. Answer as a retry would.
        existing = Event.objects.filter(event_id=event_id).select_related("table").first()
        if existing is None:
            raise
        return _existing_result(existing, table_id=table_id, type=type, payload=payload)


def _existing_result(
    existing: Event, *, table_id, type: str, payload: dict[str, Any]
) -> AppendResult:
    if (
        str(existing.table_id) != str(table_id)
        or existing.type != type
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
    projection = TableProjection.objects.get(table_id=existing.table_id)
    return AppendResult(event=existing, created=False, state=projection.state)


def _append_locked(
    *, table_id, event_id, expected_seq, type, payload, entered_by, user
) -> AppendResult:
    table = Table.objects.select_for_update().get(pk=table_id)
    existing = Event.objects.filter(event_id=event_id).first()
    if existing is not None:
        return _existing_result(existing, table_id=table.id, type=type, payload=payload)
    # Read under the table's lock: season_close locks the season's tables before closing it.
    if table.season_id is not None and not Season.objects.get(pk=table.season_id).is_open:
        raise SeasonClosed()
    if expected_seq != table.head_seq:
        raise AppendConflict(table=table, state=TableProjection.objects.get(table=table).state)
    if type not in APPENDABLE_TYPES:
        raise EventRejected(
            [
                Violation(
                    rule="EVENT",
                    code="unknown_type",
                    message=f"Unknown event type '{type}'.",
                    params={"type": type, "choices": list(APPENDABLE_TYPES)},
                )
            ]
        )
    new = LogEvent(seq=table.head_seq + 1, event_type=type, payload=payload)
    try:
        state = apply(replay(engine_events(table.events.order_by("seq"))), new)
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    event = _insert_event(
        table=table,
        seq=new.seq,
        event_id=event_id,
        type=type,
        payload=payload,
        entered_by=entered_by,
        user=user,
    )
    projected = _store_head(table=table, event=event, state=state)
    _queue_verify(table.id)
    return AppendResult(event=event, created=True, state=projected)


@transaction.atomic
def projection_rebuild(*, table_id: uuid.UUID | str) -> TableProjection:
    """Throw away a table's cached state and replay it from the log."""
    table = Table.objects.select_for_update().get(pk=table_id)
    TableProjection.objects.filter(table=table).delete()
    state = replay(engine_events(table.events.order_by("seq")))
    return TableProjection.objects.create(table=table, seq=state.head_seq, state=state.to_dict())


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


def replay_checked(events: Sequence[LogEvent]) -> TableState | tuple[int, str]:
    """Replay a log; return its state, or the seq of the first event it no longer replays
    past and why."""
    state = None
    for event in events:
        try:
            state = apply(state, event)
        except RuleViolation as exc:
            return event.seq, f"{exc.rule}: {exc}"
    if state is None:
        return 0, "EVENT: the log is empty"
    return state


def tables_audit() -> dict[str, Any]:
    """Verify every table (chain, replay, cached state); return the count and the failures."""
    failures = []
    checked = 0
    for table_id in Table.objects.order_by("pk").values_list("pk", flat=True).iterator():
        result = table_verify(table_id=table_id)
        checked += 1
        if not result.ok:
            failures.append(result.to_dict())
    return {"checked": checked, "failures": failures}


def chain_broken_at(events: Sequence[Event]) -> int | None:
    """Return the seq of the first event whose hash does not chain, or None if all do."""
    prev = ""
    for event in events:
        expected = event_hash(
            prev_hash=prev,
            table_id=event.table_id,
            seq=event.seq,
            event_id=event.event_id,
            type=event.type,
            payload=event.payload,
            schema_version=event.schema_version,
            entered_by=event.entered_by,
            created_at=event.created_at,
        )
        if event.prev_hash != prev or event.hash != expected:
            return event.seq
        prev = event.hash
    return None


def table_verify(*, table_id: uuid.UUID | str) -> Verification:
    """Check a table's hash chain and cached state against its log; repair the cache if off."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        events = list(table.events.order_by("seq"))
        chain_ok = chain_broken_at(events) is None and (
            not events or events[-1].hash == table.head_hash
        )
        replayed = replay_checked(engine_events(events))
        if isinstance(replayed, tuple):
            # Keep the cached state as it is: a fresh one cannot be made from this log.
            return Verification(
                str(table.id), table.head_seq, chain_ok, False, replayed[0], replayed[1]
            )
        state = replayed.to_dict()
        projection = TableProjection.objects.filter(table=table).first()
        projection_ok = projection is not None and projection.state == state
        if not projection_ok:
            projection, _ = TableProjection.objects.update_or_create(
                table=table, defaults={"seq": table.head_seq, "state": state}
            )
        if chain_ok and projection.verified_seq != table.head_seq:
            TableProjection.objects.filter(table=table).update(verified_seq=table.head_seq)
    return Verification(str(table.id), table.head_seq, chain_ok, projection_ok)


# Clubs, leagues and seasons. Every write names its actor and checks the actor's role here,
# whatever the page or API in front of it already checked.

INVITE_DAYS = 7
MAX_INVITE_USES = 100
MAX_INVITE_DAYS = 90


def _membership(*, club_id: int, user) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club_id=club_id, user=user).first()


def _require(*, club_id: int, user, admin: bool = False) -> Membership:
    """Return the user's membership of the club, or refuse a non-member (a non-admin)."""
    membership = _membership(club_id=club_id, user=user)
    if membership is None:
        raise ActionRefused(gettext("Only members of the club can do this."))
    if admin and not membership.is_admin:
        raise ActionRefused(gettext("Only the club's owner and admins can do this."))
    return membership


def _clean_name(name: str, *, max_length: int) -> str:
    name = " ".join(str(name).split())
    if not name:
        raise ValidationError(gettext("Enter a name."), code="name_missing")
    if len(name) > max_length:
        raise ValidationError(
            gettext("A name has at most %(max)d characters.") % {"max": max_length},
            code="name_too_long",
        )
    return name


def _create_with_slug(model, *, taken, name: str, fallback: str, **fields):
    """Create a ``model`` named ``name`` whose slug, made from it, is not among ``taken`` yet."""
    base = slugify(name)[:50] or fallback
    for _attempt in range(3):
        used = set(taken.filter(slug__startswith=base).values_list("slug", flat=True))
        slug = next(
            candidate
            for candidate in (base, *(f"{base}-{n}" for n in range(2, len(used) + 2)))
            if candidate not in used
        )
        try:
            with transaction.atomic():
                return model.objects.create(name=name, slug=slug, **fields)
        except IntegrityError:
            # Someone took the same slug a moment ago: look again.
            continue
    raise ValidationError(gettext("That name is taken; choose another."), code="slug_taken")


@transaction.atomic
def club_create(*, user, name: str, public: bool = False) -> Club:
    """Create a club; its creator becomes the owner."""
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to create a club."))
    name = _clean_name(name, max_length=Club._meta.get_field("name").max_length)
    club = _create_with_slug(
        Club, taken=Club.objects.all(), name=name, fallback="club", public=public, created_by=user
    )
    Membership.objects.create(club=club, user=user, role=ClubRole.OWNER)
    return club


def invite_create(
    *,
    actor,
    club_id: int,
    role: str = ClubRole.MEMBER,
    max_uses: int = 1,
    days: int = INVITE_DAYS,
) -> Invite:
    """Make an invite link to the club, for admins: it grants ``role`` ``max_uses`` times."""
    _require(club_id=club_id, user=actor, admin=True)
    if role not in (ClubRole.ADMIN, ClubRole.MEMBER):
        raise ValidationError(gettext("An invite makes members or admins."), code="role")
    if not 1 <= max_uses <= MAX_INVITE_USES:
        raise ValidationError(
            gettext("An invite is used 1 to %(max)d times.") % {"max": MAX_INVITE_USES},
            code="max_uses",
        )
    if not 1 <= days <= MAX_INVITE_DAYS:
        raise ValidationError(
            gettext("An invite lasts 1 to %(max)d days.") % {"max": MAX_INVITE_DAYS},
            code="days",
        )
    return Invite.objects.create(
        club_id=club_id,
        role=role,
        max_uses=max_uses,
        created_by=actor,
        expires_at=timezone.now() + timedelta(days=days),
    )


@transaction.atomic
def invite_accept(*, token: str, user) -> Membership:
    """Make the signed-in user a member through an invite; a member already stays as is.

    Raises Invite.DoesNotExist for an unknown token, ValidationError for one expired or used up.
    """
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to accept the invite."))
    # Locked, so two people taking the last use at once cannot both get it.
    invite = Invite.objects.select_for_update().get(token=str(token))
    existing = Membership.objects.filter(club_id=invite.club_id, user=user).first()
    if existing is not None:
        return existing
    if invite.expires_at <= timezone.now():
        raise ValidationError(
            gettext("This invite has expired; ask the club for a new one."), code="expired"
        )
    if invite.uses >= invite.max_uses:
        raise ValidationError(
            gettext("This invite has been used already; ask the club for a new one."),
            code="used",
        )
    invite.uses += 1
    invite.save(update_fields=["uses"])
    return Membership.objects.create(club_id=invite.club_id, user=user, role=invite.role)


@transaction.atomic
def membership_set_role(*, actor, membership_id: int, role: str) -> Membership:
    """Change a member's role; only the owner hands ownership over (and becomes an admin)."""
    target = Membership.objects.get(pk=membership_id)
    # One club row lock serialises every role change of the club, ownership included.
    Club.objects.select_for_update().get(pk=target.club_id)
    target.refresh_from_db()
    acting = _require(club_id=target.club_id, user=actor, admin=True)
    if role not in ClubRole.values:
        raise ValidationError(gettext("Choose owner, admin or member."), code="role")
    if target.role == role:
        return target
    if target.role == ClubRole.OWNER:
        raise ActionRefused(
            gettext("The owner stays owner until they hand the club over to another member.")
        )
    if role == ClubRole.OWNER:
        if acting.role != ClubRole.OWNER:
            raise ActionRefused(gettext("Only the owner can hand the club over."))
        # Step down first: the database holds at most one owner per club at any moment.
        acting.role = ClubRole.ADMIN
        acting.save(update_fields=["role"])
    target.role = role
    target.save(update_fields=["role"])
    return target


def player_create(*, actor, club_id: int, name: str) -> Player:
    """Add a guest player (a name, no account yet) to a club's roster, for admins."""
    _require(club_id=club_id, user=actor, admin=True)
    name = _clean_name(name, max_length=Player._meta.get_field("name").max_length)
    taken = ValidationError(
        gettext("The club already has a player called %(name)s.") % {"name": name},
        code="name_taken",
    )
    if Player.objects.filter(club_id=club_id, name__iexact=name).exists():
        raise taken
    try:
        with transaction.atomic():
            return Player.objects.create(club_id=club_id, name=name)
    except IntegrityError:
        raise taken from None


@transaction.atomic
def player_link(*, actor, player_id: int, user_id: int) -> Player:
    """Link a club's guest player to a member's account, for admins; their tables follow."""
    player = Player.objects.select_for_update().get(pk=player_id, club__isnull=False)
    _require(club_id=player.club_id, user=actor, admin=True)
    if not Membership.objects.filter(club_id=player.club_id, user_id=user_id).exists():
        raise ValidationError(
            gettext("Only a member of the club can be linked to one of its players."),
            code="not_member",
        )
    if player.user_id == user_id:
        return player
    if player.user_id is not None:
        raise ValidationError(
            gettext("This player is already linked to another account."), code="linked"
        )
    has_player = ValidationError(
        gettext("This member already has a player in the club."), code="member_has_player"
    )
    if Player.objects.filter(club_id=player.club_id, user_id=user_id).exists():
        raise has_player
    player.user_id = user_id
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:
        raise has_player from None
    return player


def league_options(
    *, variant: str, players: int, options: dict[str, Any], preset: str = ""
) -> dict[str, Any]:
    """Return the full options of a league's tables, or raise EventRejected naming the rule.

    The engine checks them as it checks a new table of ``players`` seats, so a league never
    holds options its tables would refuse.
    """
    if not isinstance(options, dict):
        raise ValidationError(gettext("The options must be a JSON object."), code="options")
    data = {**options, **({"preset": preset} if preset else {})}
    seats = [str(n) for n in range(1, players + 1)]
    payload = {"variant": variant, "options": data, "seats": seats}
    try:
        state = apply(None, LogEvent(seq=1, event_type=TABLE_CREATED, payload=payload))
    except RuleViolation as exc:
        raise EventRejected(exc.violations) from None
    full = state.variant.options_to_dict(state.options)
    if full.get("practice") is True:
        raise ValidationError(
            gettext(
                "A league's tables count in its standings: mark single tables as practice "
                "instead (RAM-OPT-PRACTICE)."
            ),
            code="practice_league",
        )
    return full


def _tiebreakers(values: Sequence[str]) -> list[str]:
    values = list(values)
    if any(v not in Tiebreaker.values for v in values) or len(set(values)) != len(values):
        raise ValidationError(
            gettext("Tiebreakers are a list without repeats from: %(choices)s.")
            % {"choices": ", ".join(Tiebreaker.values)},
            code="tiebreakers",
        )
    return values


def league_create(
    *,
    actor,
    club_id: int,
    name: str,
    variant: str,
    players: int,
    options: dict[str, Any],
    preset: str = "",
    tiebreakers: Sequence[str] = (),
    public: bool = False,
) -> League:
    """Create a club's league, for admins: one game, its options, tables of ``players`` seats."""
    _require(club_id=club_id, user=actor, admin=True)
    name = _clean_name(name, max_length=League._meta.get_field("name").max_length)
    order = _tiebreakers(tiebreakers)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValidationError(gettext("A table has 2 to 6 players."), code="players")
    full = league_options(variant=variant, players=players, options=options, preset=preset)
    return _create_with_slug(
        League,
        taken=League.objects.filter(club_id=club_id),
        name=name,
        fallback="league",
        club_id=club_id,
        variant=variant,
        players=players,
        preset=full.get("preset", ""),
        options=full,
        tiebreakers=order,
        public=public,
        created_by=actor,
    )


def league_set_public(*, actor, league_id: int, public: bool) -> League:
    """Show a league (seasons, standings) to everyone, or to the club's members only."""
    league = League.objects.get(pk=league_id)
    _require(club_id=league.club_id, user=actor, admin=True)
    if league.public != public:
        league.public = public
        league.save(update_fields=["public"])
    return league


def season_create(*, actor, league_id: int, name: str, starts_on: date, ends_on: date) -> Season:
    """Open a season of a league, for admins."""
    league = League.objects.get(pk=league_id)
    _require(club_id=league.club_id, user=actor, admin=True)
    name = _clean_name(name, max_length=Season._meta.get_field("name").max_length)
    if ends_on < starts_on:
        raise ValidationError(gettext("A season ends on or after the day it starts."), code="dates")
    taken = ValidationError(
        gettext("The league already has a season called %(name)s.") % {"name": name},
        code="name_taken",
    )
    if Season.objects.filter(league=league, name=name).exists():
        raise taken
    try:
        with transaction.atomic():
            return Season.objects.create(
                league=league, name=name, starts_on=starts_on, ends_on=ends_on, created_by=actor
            )
    except IntegrityError:
        raise taken from None


@transaction.atomic
def season_close(*, actor, season_id: int) -> Season:
    """Close a season, for admins: its tables become read-only; closing twice changes nothing."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
    _require(club_id=season.league.club_id, user=actor, admin=True)
    if not season.is_open:
        return season
    # Wait for appends in flight: each holds its table's lock and reads the season under it,
    # so none lands after the season is closed.
    list(
        Table.objects.select_for_update()
        .filter(season=season)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    season.status = Season.Status.CLOSED
    season.closed_at = timezone.now()
    season.closed_by = actor
    season.save(update_fields=["status", "closed_at", "closed_by"])
    return season


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
    _require(club_id=league.club_id, user=actor)
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


# Standings: projections of the league tables' logs, rebuilt by workers (games.tasks).
# Nothing here is the truth: every row can be thrown away and computed again from the logs.

RESULT_BATCH = 200


def _match_read(
    table_id: uuid.UUID, rows: Sequence[Event], players: Sequence[int]
) -> tuple[dict[str, Any] | None, datetime | None]:
    """Replay one log; return its match summary record and when it finished, or Nones."""
    state = None
    finished_at = None
    for row, event in zip(rows, engine_events(rows), strict=True):
        state = apply(state, event)
        # The match finished at the last event that took it from unfinished to finished.
        if not state.finished:
            finished_at = None
        elif finished_at is None:
            finished_at = row.created_at
    if state is None or not state.finished:
        return None, None
    summary = match_summary(state, players, match_id=str(table_id))
    return summary.to_record(), finished_at


def match_results_refresh(table_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, MatchResult]:
    """Replay the tables' logs and store what standings read of each (``MatchResult``).

    Each result records the head it reflects; a log that no longer replays (an engine
    change the nightly audit reports) is logged and left without a result.
    """
    results: dict[uuid.UUID, MatchResult] = {}
    for start in range(0, len(table_ids), RESULT_BATCH):
        batch = list(table_ids[start : start + RESULT_BATCH])
        heads = dict(Table.objects.filter(pk__in=batch).values_list("pk", "head_seq"))
        rows: dict[uuid.UUID, list[Event]] = {pk: [] for pk in heads}
        # Only up to the head read: an append committed meanwhile is left for its own recompute.
        for event in Event.objects.filter(table_id__in=heads).order_by("table_id", "seq"):
            if event.seq <= heads[event.table_id]:
                rows[event.table_id].append(event)
        seats: dict[uuid.UUID, list[int]] = {pk: [] for pk in heads}
        for table_id, player_id in (
            Seat.objects.filter(table_id__in=heads)
            .order_by("table_id", "position")
            .values_list("table_id", "player_id")
        ):
            seats[table_id].append(player_id)
        fresh = []
        for table_id, events in rows.items():
            try:
                summary, finished_at = _match_read(table_id, events, seats[table_id])
            except RuleViolation as exc:
                logger.error("table %s no longer replays: %s: %s", table_id, exc.rule, exc)
                continue
            fresh.append(
                MatchResult(
                    table_id=table_id,
                    seq=events[-1].seq,
                    head_hash=events[-1].hash,
                    finished_at=finished_at,
                    summary=summary,
                )
            )
        MatchResult.objects.bulk_create(
            fresh,
            update_conflicts=True,
            unique_fields=["table"],
            update_fields=["seq", "head_hash", "finished_at", "summary", "updated_at"],
        )
        results.update((result.table_id, result) for result in fresh)
    return results


def _season_ratings(history: RatingHistory, start: int, end: int) -> dict[str, Any]:
    """Return each player's rating at the end of a season (matches ``start``..``end``-1 of
    the league, in rating order) and their points in it."""
    ratings = {}
    for entry in history.players:
        before = [point for point in entry.history if point.index < end]
        if not before:
            continue
        ratings[str(entry.player)] = {
            **before[-1].rating.to_dict(),
            "history": [point.to_dict() for point in before if point.index >= start],
        }
    return ratings


@transaction.atomic
def league_standings_recompute(
    *, league_id: int, from_season_id: int | None = None, fresh: bool = False
) -> list[SeasonStandings]:
    """Recompute the standings of a league's seasons from ``from_season_id`` on (all when
    None); ``fresh`` reads every log again instead of the results still at their head.

    Ratings run on across the league's seasons (by start date), each season's matches in
    the order they finished (then table id), so a season's change moves the ratings of the
    seasons after it, which are recomputed with it. The league row is locked: recomputes of
    one league run one at a time, each reading what the one before it committed. Running
    it twice changes nothing but ``computed_at``.
    """
    league = League.objects.select_for_update().get(pk=league_id)
    seasons = list(league.seasons.order_by("starts_on", "pk"))
    heads = {
        pk: (season_id, seq, head_hash)
        for pk, season_id, seq, head_hash in Table.objects.filter(
            season__league=league, practice=False
        ).values_list("pk", "season_id", "head_seq", "head_hash")
    }
    results = {} if fresh else MatchResult.objects.in_bulk(list(heads))
    stale = [
        pk
        for pk, (_, seq, head_hash) in heads.items()
        if pk not in results or (results[pk].seq, results[pk].head_hash) != (seq, head_hash)
    ]
    results.update(match_results_refresh(stale))
    finished: dict[int, list[MatchResult]] = {season.pk: [] for season in seasons}
    for pk, (season_id, _, _) in heads.items():
        result = results.get(pk)
        if result is not None and result.summary is not None:
            finished[season_id].append(result)
    ordered: list[MatchSummary] = []
    spans: dict[int, tuple[int, int]] = {}
    for season in seasons:
        matches = sorted(finished[season.pk], key=lambda r: (r.finished_at, str(r.table_id)))
        spans[season.pk] = (len(ordered), len(ordered) + len(matches))
        ordered += [MatchSummary.from_record(result.summary) for result in matches]
    history = ratings_over(ordered)
    start_at = 0
    if from_season_id is not None:
        start_at = next(i for i, season in enumerate(seasons) if season.pk == from_season_id)
    written = []
    for season in seasons[start_at:]:
        start, end = spans[season.pk]
        ratings = _season_ratings(history, start, end)
        conservative = {int(player): rating["conservative"] for player, rating in ratings.items()}
        rows = standings(ordered[start:end], league.tiebreakers, conservative)
        standing, _ = SeasonStandings.objects.update_or_create(
            season=season,
            defaults={
                "rows": [row.to_dict() for row in rows],
                "ratings": ratings,
                "reflects": {str(r.table_id): r.seq for r in finished[season.pk]},
                "matches": end - start,
                "computed_at": timezone.now(),
            },
        )
        written.append(standing)
    return written


def season_standings_recompute(*, season_id: int) -> list[SeasonStandings]:
    """Recompute a season's standings, and the later seasons of its league (ratings)."""
    league_id = Season.objects.values_list("league_id", flat=True).get(pk=season_id)
    return league_standings_recompute(league_id=league_id, from_season_id=season_id)


def _queue_standings(season_id: int) -> None:
    from games.tasks import season_standings_recompute as task

    # Robust, as for the verification: a recompute that cannot be queued or fails is logged,
    # the page shows the standings behind, and the nightly audit queues it again.
    transaction.on_commit(lambda: task.delay(season_id), robust=True)


def recompute_job_start(*, user) -> RecomputeJob:
    """Queue a recompute of every league's standings from the logs (staff only)."""
    if not (user.is_authenticated and user.is_staff):
        raise ActionRefused(gettext("Only staff can recompute everything."))
    from games.tasks import standings_recompute_all

    with transaction.atomic():
        job = RecomputeJob.objects.create(created_by=user)
        transaction.on_commit(lambda: standings_recompute_all.delay(job.pk))
    return job


def standings_recompute_all(*, job_id: int) -> RecomputeJob:
    """Read every league table's log again and rebuild every season's standings.

    Progress is committed batch by batch so the page can poll it; a redelivered job starts
    again from the first table, which changes nothing already right.
    """
    job = RecomputeJob.objects.get(pk=job_id)
    if job.status == RecomputeJob.Status.DONE:
        return job
    ids = list(
        Table.objects.filter(season__isnull=False, practice=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    jobs = RecomputeJob.objects.filter(pk=job_id)
    jobs.update(status=RecomputeJob.Status.RUNNING, total=len(ids), done=0, seasons=0, error="")
    for start in range(0, len(ids), RESULT_BATCH):
        batch = ids[start : start + RESULT_BATCH]
        with transaction.atomic():
            match_results_refresh(batch)
        jobs.update(done=start + len(batch))
    seasons = 0
    for league_id in (
        League.objects.filter(seasons__isnull=False).distinct().values_list("pk", flat=True)
    ):
        seasons += len(league_standings_recompute(league_id=league_id))
        jobs.update(seasons=seasons)
    jobs.update(status=RecomputeJob.Status.DONE, finished_at=timezone.now())
    return RecomputeJob.objects.get(pk=job_id)
