"""Every write to a tournament night goes through here: the director's actions."""

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.clubs.models import League, Membership, Player, Season
from games.clubs.services import player_create, require_member
from games.shared.errors import ActionRefused, EventRejected
from games.tables.models import Table
from games.tables.services import event_append, table_create
from games.tournaments import pairs_selectors, selectors
from games.tournaments.models import (
    MAX_POINTS,
    Entrant,
    KeptApart,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from games.tournaments.pairing import draw_schedule, next_pairing
from games.tournaments.push import night_push_on_commit
from scoring.events import POINTS_ADJUSTED, TABLE_DECIDED
from scoring.variants import game_get


def _night_format(league: League, format: str) -> str:
    """Return the format a night of ``league`` plays: its tables' when more than two sit at
    one, else ``format`` if it is one of the two-player formats. A game of partners plays
    pairs nights (``pairs_services.pairs_night_create``)."""
    if game_get(league.variant).partners:
        raise ValidationError(
            gettext("A game of pairs plays a pairs night: create it as one."), code="league"
        )
    if league.players > 2:
        return Tournament.Format.TABLES
    if format not in (
        Tournament.Format.SWISS,
        Tournament.Format.ROUND_ROBIN,
        Tournament.Format.KNOCKOUT,
    ):
        raise ValidationError(
            gettext("Two at a table, a night is Swiss, a round robin or a knock-out."),
            code="format",
        )
    return format


def night_season(league: League, season_id: int | None) -> Season | None:
    """Return the open season of ``league`` named by ``season_id`` (None for none)."""
    if season_id is None:
        return None
    season = Season.objects.filter(pk=season_id, league=league).first()
    if season is None or not season.is_open:
        raise ValidationError(
            gettext("Count the night in an open season of the league it plays."),
            code="season",
        )
    return season


def _check_victory_points(scale: str, points: tuple[int, int, int, int]) -> None:
    if scale not in Tournament.Scale.values:
        raise ValidationError(gettext("Choose how results become victory points."), code="scale")
    if len(points) != 4 or not all(0 <= p <= MAX_POINTS for p in points):
        raise ValidationError(
            gettext("Victory points are whole numbers from 0 to %(most)d.") % {"most": MAX_POINTS},
            code="points",
        )


@transaction.atomic
def tournament_create(
    *,
    actor,
    club_id: int,
    league_id: int,
    name: str,
    rounds: int,
    round_minutes: int,
    format: str = Tournament.Format.SWISS,
    scale: str = Tournament.Scale.WIN_DRAW_LOSS,
    points: tuple[int, int, int, int] = (3, 1, 0, 3),
    seed: int | None = None,
    season_id: int | None = None,
    late_penalty: int = 0,
) -> Tournament:
    """Create a night in the club, playing a league's game and options (pinned now).

    ``season_id``: an open season of that league the night counts in; its tables are then
    the season's league tables, whose keys (on the table cards) record.

    Two-player leagues pair Swiss, round robin or knock-out; a league of 3 to 6 a table
    seats its players at tables by the standings, whatever ``format`` says. ``scale``: how a
    two-player result becomes victory points; ``points``: for a win, a draw, a loss, a bye.
    """
    require_member(club_id=club_id, user=actor, admin=True)
    league = League.objects.filter(pk=league_id, club_id=club_id).first()
    if league is None:
        raise ValidationError(gettext("Choose one of the club's leagues."), code="league")
    format = _night_format(league, format)
    season = night_season(league, season_id)
    _check_victory_points(scale, points)
    try:
        with transaction.atomic():
            return Tournament.objects.create(
                club_id=club_id,
                league=league,
                season=season,
                name=name.strip(),
                format=format,
                scale=scale,
                win_points=points[0],
                draw_points=points[1],
                loss_points=points[2],
                bye_points=points[3],
                variant=league.variant,
                options=dict(league.options),
                rounds=rounds,
                round_minutes=round_minutes,
                late_penalty=late_penalty,
                seed=secrets.randbelow(2**31) if seed is None else seed,
                created_by=actor,
            )
    except IntegrityError:
        raise ValidationError(
            gettext("The club already has a tournament of that name."), code="name"
        ) from None


def require_director(tournament: Tournament, actor) -> None:
    """Refuse anyone but the club's owner and admins and the night's deputies."""
    membership = require_member(club_id=tournament.club_id, user=actor)
    if not membership.is_admin and not tournament.deputies.filter(pk=actor.pk).exists():
        raise ActionRefused(gettext("Only the night's director can do this."))


def night_for_director(tournament_id: int, actor) -> Tournament:
    """Return the night, its row locked, for its director to change; refuse anyone else, and
    a night that is over. Every change a director makes passes here: the night's screens are
    pushed its version once it commits."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_director(tournament, actor)
    if tournament.status == Tournament.Status.FINISHED:
        raise ActionRefused(gettext("This tournament is over."))
    night_push_on_commit(tournament.pk)
    return tournament


# 24 random bytes: 32 URL-safe characters, as a shared result's address.
ROOM_TOKEN_BYTES = 24


@transaction.atomic
def room_link_make(*, actor, tournament_id: int) -> str:
    """Give the night a new room screen address (the old one, if any, stops working)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_director(tournament, actor)
    tournament.room_token = secrets.token_urlsafe(ROOM_TOKEN_BYTES)
    tournament.save(update_fields=["room_token"])
    return tournament.room_token


@transaction.atomic
def room_link_revoke(*, actor, tournament_id: int) -> None:
    """Stop the night's room screen address: it answers 404 from now on."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_director(tournament, actor)
    tournament.room_token = None
    tournament.save(update_fields=["room_token"])


@transaction.atomic
def apart_keep(*, actor, tournament_id: int, entrant_ids: Sequence[int]) -> KeptApart:
    """Keep two of the night's players apart from the next round on (NIGHT-APART)."""
    tournament = night_for_director(tournament_id, actor)
    ids = sorted(set(entrant_ids))
    if len(ids) != 2 or tournament.entrants.filter(pk__in=ids).count() != 2:
        raise ValidationError(gettext("Choose two of the night's players."))
    kept, _created = KeptApart.objects.get_or_create(
        tournament=tournament, first_id=ids[0], second_id=ids[1]
    )
    return kept


@transaction.atomic
def apart_drop(*, actor, tournament_id: int, kept_id: int) -> None:
    """Let two players kept apart be seated together again."""
    tournament = night_for_director(tournament_id, actor)
    tournament.kept_apart.filter(pk=kept_id).delete()


@transaction.atomic
def deputy_grant(*, actor, tournament_id: int, user_id: int) -> None:
    """Let a member run this night as its director (the club's admins only)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_member(club_id=tournament.club_id, user=actor, admin=True)
    if not Membership.objects.filter(club_id=tournament.club_id, user_id=user_id).exists():
        raise ValidationError(gettext("Only a member of the club can direct its night."))
    tournament.deputies.add(user_id)


@transaction.atomic
def deputy_revoke(*, actor, tournament_id: int, user_id: int) -> None:
    """Take a deputy's direction of the night back (the club's admins only)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_member(club_id=tournament.club_id, user=actor, admin=True)
    tournament.deputies.remove(user_id)


def director_call(*, table) -> RoundTable:
    """A phone at one of the night's tables calls the director (again: nothing changes);
    the call shows on the director's page and the room screen until cleared."""
    pairing = RoundTable.objects.select_related("round__tournament").filter(table=table).first()
    if pairing is None:
        raise ActionRefused(gettext("This table is not part of a club night."))
    if pairing.round.tournament.status == Tournament.Status.FINISHED:
        raise ActionRefused(gettext("This tournament is over."))
    # One UPDATE, only if no call is pending: two phones tapping at once make one call.
    RoundTable.objects.filter(pk=pairing.pk, director_called_at__isnull=True).update(
        director_called_at=timezone.now()
    )
    pairing.refresh_from_db(fields=["director_called_at"])
    night_push_on_commit(pairing.round.tournament_id)
    return pairing


def director_call_clear(*, actor, tournament_id: int, round_table_id: int) -> None:
    """The director answers a table's call: it no longer shows."""
    tournament = Tournament.objects.get(pk=tournament_id)
    require_director(tournament, actor)
    RoundTable.objects.filter(pk=round_table_id, round__tournament=tournament).update(
        director_called_at=None
    )
    night_push_on_commit(tournament.pk)


LATE = "late"


def _seat(tournament: Tournament, seat: int) -> int:
    """Return the table seat an entrant's number at its table names: a pair's, its side's
    first seat, where its score is kept."""
    if not pairs_selectors.is_pairs(tournament):
        return seat
    try:
        return pairs_selectors.seat_of_side(tournament=tournament, side=seat)
    except ValueError:
        raise ValidationError(gettext("No such pair at this table.")) from None


@transaction.atomic
def points_adjust(
    *,
    actor,
    tournament_id: int,
    round_table_id: int,
    seat: int,
    points: int | None = None,
    reason: str = "",
    preset: str | None = None,
):
    """Adjust one player's total at a table of the night, in that table's log (a
    ``points_adjusted`` event, NIGHT-ADJUST); ``preset`` "late" takes the night's lateness
    penalty from a game scored in points, or adds it in one scored in penalties."""
    tournament = night_for_director(tournament_id, actor)
    pairing = (
        RoundTable.objects.select_related("table")
        .filter(pk=round_table_id, round__tournament=tournament)
        .first()
    )
    if pairing is None:
        raise ValidationError(gettext("No such table in this tournament."))
    seat = _seat(tournament, seat)
    if preset == LATE:
        if not tournament.late_penalty:
            raise ValidationError(gettext("This night has no penalty for lateness."))
        lower_is_better = game_get(tournament.variant).standings.lower_is_better
        points = tournament.late_penalty if lower_is_better else -tournament.late_penalty
        reason = gettext("late")
    return event_append(
        table_id=pairing.table_id,
        event_id=uuid.uuid4(),
        expected_seq=pairing.table.head_seq,
        event_type=POINTS_ADJUSTED,
        payload={"seat": seat, "points": points, "reason": reason},
        entered_by=actor.get_username()[:40],
        user=actor,
        by_director=True,
    )


def late_refusal() -> ActionRefused:
    """Refuse a new player once a round robin's schedule or a knock-out's bracket is drawn
    from the first round's field (``Tournament.field``): they would never be paired
    (NIGHT-LATE)."""
    return ActionRefused(
        gettext(
            "The schedule was drawn at the first round: a round robin or a knock-out takes "
            "no new players after it."
        )
    )


def _players_night(tournament_id: int, actor) -> Tournament:
    """Return the night for its director to register players: refused at a pairs night,
    whose entrants are pairs (``pairs_services.pair_register``)."""
    tournament = night_for_director(tournament_id, actor)
    if pairs_selectors.is_pairs(tournament):
        raise ValidationError(gettext("This night's entrants are pairs: add two players at once."))
    return tournament


@transaction.atomic
def entrants_register(*, actor, tournament_id: int, player_ids: Sequence[int]) -> int:
    """Register club players (checked in at once: they are at the door); return how many
    were new."""
    tournament = _players_night(tournament_id, actor)
    players = Player.objects.filter(club_id=tournament.club_id, pk__in=list(player_ids))
    if len(players) != len(set(player_ids)):
        raise ValidationError(gettext("Choose the entrants from the club's players."))
    known = set(tournament.entrants.values_list("player_id", flat=True))
    new = [
        Entrant(tournament=tournament, player=p, checked_in=True)
        for p in players
        if p.pk not in known
    ]
    if new and tournament.field:
        raise late_refusal()
    Entrant.objects.bulk_create(new)
    return len(new)


# The most names one paste registers: a big club's night, with room to spare.
MAX_NAMES_AT_ONCE = 120


@transaction.atomic
def entrants_register_names(*, actor, tournament_id: int, names: Sequence[str]) -> int:
    """Register players by name, as the director pastes a list (one a line): a roster
    player whose name matches, whatever the capitals, is that player; any other name joins
    the club's roster first. They are not checked in: the director taps each one in at
    the door. Return how many were new to the night."""
    tournament = _players_night(tournament_id, actor)
    wanted: dict[str, str] = {}  # by casefolded name, each name once
    for line in names:
        name = " ".join(line.split())
        if name:
            wanted.setdefault(name.casefold(), name)
    if len(wanted) > MAX_NAMES_AT_ONCE:
        raise ValidationError(
            gettext("At most %(count)d names at once.") % {"count": MAX_NAMES_AT_ONCE}
        )
    roster = {p.name.casefold(): p for p in Player.objects.filter(club_id=tournament.club_id)}
    players = [
        roster.get(key) or player_create(actor=actor, club_id=tournament.club_id, name=name)
        for key, name in wanted.items()
    ]
    known = set(tournament.entrants.values_list("player_id", flat=True))
    new = [Entrant(tournament=tournament, player=p) for p in players if p.pk not in known]
    if new and tournament.field:
        raise late_refusal()
    Entrant.objects.bulk_create(new)
    return len(new)


@transaction.atomic
def entrant_set(*, actor, tournament_id: int, entrant_id: int, checked_in: bool, withdrawn: bool):
    """Check an entrant in or out, or withdraw them (kept in the standings, paired no more).

    A knock-out player who has lost a match by walkover stays out: back, they would leave
    that match with no winner.
    """
    tournament = night_for_director(tournament_id, actor)
    entrant = tournament.entrants.select_related("player").filter(pk=entrant_id).first()
    if entrant is None:
        raise ValidationError(gettext("No such entrant."))
    if checked_in and not withdrawn and tournament.field and entrant.pk not in tournament.field:
        raise late_refusal()
    if (
        checked_in
        and not withdrawn
        and tournament.format == Tournament.Format.KNOCKOUT
        and selectors.knockout_walkover_lost(tournament=tournament, entrant_id=entrant.pk)
    ):
        raise ActionRefused(
            gettext("%(name)s lost their match by walkover: they cannot come back.")
            % {"name": entrant.name}
        )
    entrant.checked_in, entrant.withdrawn = checked_in, withdrawn
    entrant.save(update_fields=["checked_in", "withdrawn"])
    if withdrawn and tournament.format == Tournament.Format.KNOCKOUT:
        _void_open_match(tournament, entrant, actor)


def _void_open_match(tournament: Tournament, entrant: Entrant, actor) -> None:
    """Void the table a knock-out player leaves in play: level, the match goes to the
    opponent by walkover, with no decision left for the director to take by hand
    (NIGHT-WITHDRAW)."""
    found = selectors.night_results(tournament=tournament)
    for pairing in found.playing:
        if not any(seat.entrant_id == entrant.pk for seat in pairing.seats.all()):
            continue
        # Refused, naming the table, while a hand is played there move by move: it is
        # finished or taken back first, and the withdrawal is not stored either.
        table_decide(
            actor=actor,
            tournament_id=tournament.pk,
            round_table_id=pairing.pk,
            decision="void",
            reason=gettext("%(name)s withdrew") % {"name": entrant.name},
        )


def _check_round_over(found: selectors.NightResults) -> None:
    """Refuse while a table plays or its players have not all confirmed its result."""
    if found.playing:
        raise ActionRefused(
            gettext("Tables of this round are still playing: %(tables)s.")
            % {"tables": ", ".join(str(t.number) for t in found.playing)}
        )
    if found.to_confirm:
        raise ActionRefused(
            gettext("Results still to be confirmed by their players: tables %(tables)s.")
            % {"tables": ", ".join(str(t.number) for t in found.to_confirm)}
        )


@dataclass(frozen=True)
class StartedRound:
    round: Round
    tables: list[Table]  # with their keys, for the director's phone to hold


@transaction.atomic
def round_start(*, actor, tournament_id: int, now: datetime | None = None) -> StartedRound:
    """Pair the next round by the standings so far and open a table for each pairing."""
    tournament = night_for_director(tournament_id, actor)
    now = now or timezone.now()
    found = selectors.night_results(tournament=tournament)
    _check_round_over(found)
    number = tournament.round_set.count() + 1
    if number > tournament.rounds:
        raise ActionRefused(gettext("Every round has been played."))
    if tournament.season is not None and not tournament.season.is_open:
        raise ActionRefused(gettext("The season this night counts in is closed."))
    entrants = {e.pk: e for e in selectors.paired_entrants(tournament=tournament)}
    if len(entrants) < 2:
        raise ActionRefused(gettext("Check in at least two players to start a round."))
    pairing, numbers = next_pairing(tournament, number, entrants, found)
    if number == 1:
        draw_schedule(tournament)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        ends_at=now + timedelta(minutes=tournament.round_minutes),
        bye=entrants[pairing.bye] if pairing.bye is not None else None,
    )
    round_.walkovers.set([entrants[key] for key in pairing.walkovers])
    tables = []
    for table_number, seated in zip(numbers, pairing.tables, strict=True):
        players = [entrants[key].player for key in seated]
        if pairs_selectors.is_pairs(tournament):
            players = pairs_selectors.table_players(
                tournament=tournament, seated=[entrants[key] for key in seated]
            )
        table = table_create(
            variant=tournament.variant,
            options=tournament.options,
            players=[p.name for p in players],
            entered_by=gettext("director"),
            user=actor,
            seat_players=players,
            season=tournament.season,
            keys_record=tournament.season_id is not None,
        )
        pair = RoundTable.objects.create(round=round_, number=table_number, table=table)
        RoundSeat.objects.bulk_create(
            RoundSeat(round_table=pair, entrant=entrants[key], seat=seat)
            for seat, key in enumerate(seated)
        )
        tables.append(table)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status", "rounds", "field"])
    return StartedRound(round_, tables)


@transaction.atomic
def tournament_finish(*, actor, tournament_id: int) -> Tournament:
    """Close the night once its last round's tables have all finished."""
    tournament = night_for_director(tournament_id, actor)
    if tournament.round_set.count() < tournament.rounds:
        raise ActionRefused(gettext("Rounds are still to be played."))
    _check_round_over(selectors.night_results(tournament=tournament))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def table_decide(
    *,
    actor,
    tournament_id: int,
    round_table_id: int,
    decision: str,
    reason: str,
    points: Sequence[int] | None = None,
):
    """Record the director's decision on a table of the night, in the table's own log."""
    tournament = night_for_director(tournament_id, actor)
    pairing = (
        RoundTable.objects.select_related("table")
        .filter(pk=round_table_id, round__tournament=tournament)
        .first()
    )
    if pairing is None:
        raise ValidationError(gettext("No such table in this tournament."))
    payload = {"decision": decision, "reason": reason}
    if points is not None and pairs_selectors.is_pairs(tournament):
        # One value a pair, as the director gives them: each partner carries it.
        points = pairs_selectors.by_seat(tournament=tournament, values=points)
    if points is not None:
        payload["points"] = list(points)
    try:
        return event_append(
            table_id=pairing.table_id,
            event_id=uuid.uuid4(),
            expected_seq=pairing.table.head_seq,
            event_type=TABLE_DECIDED,
            payload=payload,
            entered_by=actor.get_username()[:40],
            user=actor,
            by_director=True,
        )
    except EventRejected as exc:
        # Said on the night's page, which lists every table: the refusal names this one.
        raise ActionRefused(
            gettext("Table %(table)s cannot be decided yet: %(why)s")
            % {"table": pairing.number, "why": exc}
        ) from None
