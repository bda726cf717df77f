"""Every write to clubs, their members and roster, leagues and seasons goes through here."""

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from games.clubs.models import (
    Club,
    ClubRole,
    Invite,
    League,
    Membership,
    Player,
    Season,
    Tiebreaker,
)
from games.shared.errors import ActionRefused, EventRejected
from games.shared.models import key_digest
from scoring.errors import RuleViolation
from scoring.events import TABLE_CREATED, LogEvent
from scoring.replay import apply
from scoring.variants import new_table_options

# Clubs, leagues and seasons. Every write names its actor and checks the actor's role here,
# whatever the page or API in front of it already checked.

INVITE_DAYS = 7
MAX_INVITE_USES = 100
MAX_INVITE_DAYS = 90


def _membership(*, club_id: int, user) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club_id=club_id, user=user).first()


def require_member(*, club_id: int, user, admin: bool = False) -> Membership:
    """Return the user's membership of the club, or refuse a non-member (a non-admin)."""
    membership = _membership(club_id=club_id, user=user)
    if membership is None:
        raise ActionRefused(gettext("Only members of the club can do this."))
    if admin and not membership.is_admin:
        raise ActionRefused(gettext("Only the club's owner and admins can do this."))
    return membership


def clean_name(name: str, *, max_length: int) -> str:
    """Return a name with its spaces folded; refuse a blank, a long or an unprintable one."""
    name = " ".join(str(name).split())
    if any(not ch.isprintable() or "\ud800" <= ch <= "\udfff" for ch in name):
        raise ValidationError(
            gettext("A name holds only letters, digits, spaces and punctuation."),
            code="name_unprintable",
        )
    if not name:
        raise ValidationError(gettext("Enter a name."), code="name_missing")
    if len(name) > max_length:
        raise ValidationError(
            gettext("A name has at most %(max)d characters.") % {"max": max_length},
            code="name_too_long",
        )
    return name


def _name_clashes(rivals, name: str) -> bool:
    # Folded in Python: SQLite's LOWER knows only ASCII, and "GIOVEDÌ" is "giovedì".
    folded = name.casefold()
    return any(other.casefold() == folded for other in rivals.values_list("name", flat=True))


def _create_with_slug(model, *, taken, rivals, name: str, fallback: str, name_taken: str, **fields):
    """Create a ``model`` named ``name`` whose slug, made from it, is not among ``taken`` yet.

    A name among ``rivals`` (the same whatever the capitals) is refused with ``name_taken``,
    by the field, whether found first or lost in a race (the database's constraint).
    """
    if _name_clashes(rivals, name):
        raise ValidationError({"name": name_taken}, code="name_taken")
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
            if _name_clashes(rivals, name):
                raise ValidationError({"name": name_taken}, code="name_taken") from None
            # Someone took the same slug a moment ago: look again.
            continue
    raise ValidationError(gettext("That name is taken; choose another."), code="slug_taken")


@transaction.atomic
def club_create(*, user, name: str, public: bool = False) -> Club:
    """Create a club; its creator becomes the owner."""
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to create a club."))
    name = clean_name(name, max_length=Club._meta.get_field("name").max_length)
    club = _create_with_slug(
        Club,
        taken=Club.objects.all(),
        rivals=Club.objects.filter(created_by=user),
        name=name,
        fallback="club",
        name_taken=gettext("You already have a club called “%(name)s”.") % {"name": name},
        public=public,
        created_by=user,
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
    """Make an invite link to the club, for admins: it grants ``role`` ``max_uses`` times.

    The returned invite carries its ``token``, which is kept nowhere else: show it now."""
    require_member(club_id=club_id, user=actor, admin=True)
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
def invite_accept(*, token: str | None = None, digest: str | None = None, user) -> Membership:
    """Make the signed-in user a member through an invite, named by its token or by the
    token's digest (what a session keeps); a member already stays as is.

    Raises Invite.DoesNotExist for an unknown token, ValidationError for one expired or used up.
    """
    if user is None or not user.is_authenticated:
        raise ActionRefused(gettext("Sign in to accept the invite."))
    # Locked, so two people taking the last use at once cannot both get it.
    digest = key_digest(str(token)) if token is not None else digest
    invite = Invite.objects.select_for_update().get(token_digest=digest or "")
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
    acting = require_member(club_id=target.club_id, user=actor, admin=True)
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
    require_member(club_id=club_id, user=actor, admin=True)
    name = clean_name(name, max_length=Player._meta.get_field("name").max_length)
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


# The most names one paste adds to a roster: a big club's evening, with room to spare.
MAX_PLAYERS_AT_ONCE = 60


def _roster_line_errors(club_id: int, lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """Return the names of a pasted list (blank lines skipped) and what is wrong, each
    sentence naming its line as the user counts them (from 1)."""
    max_length = Player._meta.get_field("name").max_length
    roster = {
        n.casefold() for n in Player.objects.filter(club_id=club_id).values_list("name", flat=True)
    }
    names, errors, seen = [], [], {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            name = clean_name(line, max_length=max_length)
        except ValidationError as exc:
            errors.append(
                gettext("Line %(line)d: %(error)s") % {"line": number, "error": exc.messages[0]}
            )
            continue
        key = name.casefold()
        if key in seen:
            error = gettext("%(name)s is already on line %(first)d.") % {
                "name": name,
                "first": seen[key],
            }
        elif key in roster:
            error = gettext("The club already has a player called %(name)s.") % {"name": name}
        else:
            seen[key] = number
            names.append(name)
            continue
        errors.append(gettext("Line %(line)d: %(error)s") % {"line": number, "error": error})
    return names, errors


@transaction.atomic
def players_create(*, actor, club_id: int, lines: Sequence[str]) -> list[Player]:
    """Add guest players to a club's roster from a pasted list, one name a line (admins):
    all of them, or none if any line is wrong (each wrong line is named)."""
    require_member(club_id=club_id, user=actor, admin=True)
    names, errors = _roster_line_errors(club_id, lines)
    if not errors and not names:
        errors = [gettext("Enter at least one name.")]
    if len(names) > MAX_PLAYERS_AT_ONCE:
        errors.append(gettext("At most %(count)d names at once.") % {"count": MAX_PLAYERS_AT_ONCE})
    if errors:
        raise ValidationError(errors, code="names")
    return [player_create(actor=actor, club_id=club_id, name=name) for name in names]


@transaction.atomic
def player_link(*, actor, player_id: int, user_id: int) -> Player:
    """Link a club's guest player to a member's account, for admins; their tables follow."""
    player = Player.objects.select_for_update().get(pk=player_id, club__isnull=False)
    require_member(club_id=player.club_id, user=actor, admin=True)
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
    data = new_table_options(variant, {**options, **({"preset": preset} if preset else {})})
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
    require_member(club_id=club_id, user=actor, admin=True)
    name = clean_name(name, max_length=League._meta.get_field("name").max_length)
    order = _tiebreakers(tiebreakers)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValidationError(gettext("A table has 2 to 6 players."), code="players")
    full = league_options(variant=variant, players=players, options=options, preset=preset)
    return _create_with_slug(
        League,
        taken=League.objects.filter(club_id=club_id),
        rivals=League.objects.filter(club_id=club_id),
        name=name,
        fallback="league",
        name_taken=gettext("A league called “%(name)s” already exists in this club.")
        % {"name": name},
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
    require_member(club_id=league.club_id, user=actor, admin=True)
    if league.public != public:
        league.public = public
        league.save(update_fields=["public"])
    return league


def season_create(*, actor, league_id: int, name: str, starts_on: date, ends_on: date) -> Season:
    """Open a season of a league, for admins."""
    league = League.objects.get(pk=league_id)
    require_member(club_id=league.club_id, user=actor, admin=True)
    name = clean_name(name, max_length=Season._meta.get_field("name").max_length)
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
    require_member(club_id=season.league.club_id, user=actor, admin=True)
    if not season.is_open:
        return season
    # Wait for appends in flight: each holds its table's lock and reads the season under it,
    # so none lands after the season is closed.
    # (Through the season's reverse relation: the clubs part does not import the tables part.)
    list(season.tables.select_for_update().order_by("pk").values_list("pk", flat=True))
    season.status = Season.Status.CLOSED
    season.closed_at = timezone.now()
    season.closed_by = actor
    season.save(update_fields=["status", "closed_at", "closed_by"])
    return season
