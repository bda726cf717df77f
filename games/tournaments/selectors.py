"""Reads of a tournament night: its rounds, the results its tables' logs give, standings."""

import hashlib
import random
import re
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.tables import snapshots
from games.tournaments import pairs_selectors
from games.tournaments.models import (
    Entrant,
    PairMember,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from scoring.tournaments import pairs_night
from scoring.tournaments.bracket import Match, advance, first_round, goes_through
from scoring.tournaments.ranking import TournamentRow, by_stage, tournament_standings
from scoring.tournaments.results import (
    Bye,
    ByPlace,
    MarginBands,
    TableResult,
    WinDrawLoss,
    victory_points,
)
from scoring.tournaments.tables import pairs_table_result, table_result
from scoring.tournaments.victory_points import VPTableScale


def scale(tournament: Tournament) -> WinDrawLoss | MarginBands | ByPlace | VPTableScale:
    """Return the night's victory points: by place at tables of 3 to 6, by the VP table at
    a pairs night, else for a win, a draw, a loss and a bye."""
    if tournament.format == Tournament.Format.TABLES:
        return ByPlace()
    if pairs_selectors.is_pairs(tournament):
        return pairs_selectors.pairs_scale(tournament=tournament)
    if tournament.scale == Tournament.Scale.BANDS:
        return MarginBands()
    return WinDrawLoss(
        win=Fraction(tournament.win_points),
        draw=Fraction(tournament.draw_points),
        loss=Fraction(tournament.loss_points),
        bye=Fraction(tournament.bye_points),
    )


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    """Return the rounds, each with its tables, their seats and entrants' players (a
    pair's two)."""
    seats = RoundSeat.objects.select_related("entrant__player").prefetch_related(
        "entrant__members__player"
    )
    tables = RoundTable.objects.select_related("table").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return tournament.round_set.select_related("bye__player").prefetch_related(
        Prefetch("tables", queryset=tables),
        "bye__members__player",
        "walkovers__player",
        "walkovers__members__player",
    )


PLAYING, TO_CONFIRM, DONE, DECIDED = "playing", "to_confirm", "done", "decided"


@dataclass(frozen=True)
class NightResults:
    """What the night's logs say so far: the results of the tables that have one, the byes,
    the tables still in play and those whose players have not all confirmed the result,
    and each table's status (by RoundTable id)."""

    results: list[TableResult]
    byes: list[Bye]
    playing: list[RoundTable]
    to_confirm: list[RoundTable]
    status: dict[int, str]
    numbered: list[tuple[TableResult, int]]  # each result with its table's number


def _read_table(
    pairing: RoundTable, round_number: int, *, state=None
) -> tuple[TableResult | None, str]:
    """Return the result a table's log gives the night (None while it plays) and its status:
    done once every seat has confirmed it (each partner of a pair too)."""
    entrants = [seat.entrant_id for seat in pairing.seats.all()]
    state = state or snapshots.head_state(pairing.table)
    read = pairs_table_result if state.variant.partners else table_result
    result = read(state, entrants, round_number=round_number)
    if result is None:
        return None, PLAYING
    if state.decision is not None:
        return result, DECIDED
    if len(state.confirmed) < len(state.seats):
        return result, TO_CONFIRM
    return result, DONE


def night_results(*, tournament: Tournament) -> NightResults:
    """Read every round's tables into results (keys: entrant ids)."""
    results, byes, playing, to_confirm, status, numbered = [], [], [], [], {}, []
    for round_ in tournament_rounds(tournament=tournament):
        if round_.bye_id is not None:
            byes.append(Bye(round_number=round_.number, player=round_.bye_id))
        for entrant in round_.walkovers.all():
            byes.append(Bye(round_number=round_.number, player=entrant.pk, walkover=True))
        for pairing in round_.tables.all():
            result, status[pairing.pk] = _read_table(pairing, round_.number)
            if result is not None:
                results.append(result)
                numbered.append((result, pairing.number))
            if status[pairing.pk] == PLAYING:
                playing.append(pairing)
            elif status[pairing.pk] == TO_CONFIRM:
                to_confirm.append(pairing)
    return NightResults(results, byes, playing, to_confirm, status, numbered)


@dataclass(frozen=True)
class TableProgress:
    """One table of the round as the director follows it."""

    pairing: RoundTable
    status: str  # PLAYING, TO_CONFIRM, DONE or DECIDED
    hands: int  # hands in force so far
    totals: tuple[tuple[str, int], ...]  # each entrant's name and running total
    idle_minutes: int  # since its log last moved (since the table was made, before a hand)
    called: datetime | None  # when a phone at the table called the director, until cleared
    # Each entrant's name and the VP its result gives, once it has one.
    victory_points: tuple[tuple[str, Fraction], ...] = ()


def entrant_totals(pairing: RoundTable, state) -> list[tuple[str, int]]:
    """Return each entrant's name and running total at the table: a pair's is its side's
    first seat's (partners carry the same score)."""
    sides = state.variant.teams(len(state.seats))
    totals = state.match.totals or state.totals
    return [(seat.entrant.name, totals[sides[seat.seat][0]]) for seat in pairing.seats.all()]


def seat_names(pairing: RoundTable, state) -> list[str]:
    """Return the entrant at each seat of the table, by name: a pair at both its seats."""
    side_of = {
        seat: side
        for side, seats in enumerate(state.variant.teams(len(state.seats)))
        for seat in seats
    }
    names = {seat.seat: seat.entrant.name for seat in pairing.seats.all()}
    return [names[side_of[seat]] for seat in range(len(state.seats))]


def table_victory_points(
    pairing: RoundTable, round_number: int, *, state, night_scale
) -> tuple[tuple[str, Fraction], ...]:
    """Return each entrant's name and the VP the table's result gives it (none while the
    table plays)."""
    result, _status = _read_table(pairing, round_number, state=state)
    if result is None:
        return ()
    names = [seat.entrant.name for seat in pairing.seats.all()]
    # The result names the entrants in seat order, as ``names`` does.
    return tuple(zip(names, victory_points(result, night_scale).values(), strict=True))


def round_statuses(*, round_: Round) -> list[TableProgress]:
    """Return the round's tables, each with where it stands (playing, to confirm, done or
    decided), its hands and totals so far, the VP of its result, when it last moved and
    whether it calls."""
    lines, now, night_scale = [], timezone.now(), scale(round_.tournament)
    for pairing in round_.tables.all():
        state = snapshots.head_state(pairing.table)
        result, status = _read_table(pairing, round_.number, state=state)
        names = [seat.entrant.name for seat in pairing.seats.all()]
        given = ()
        if result is not None:
            # The result names the entrants in seat order, as ``names`` does.
            given = tuple(zip(names, victory_points(result, night_scale).values(), strict=True))
        lines.append(
            TableProgress(
                pairing=pairing,
                status=status,
                hands=sum(1 for hand in state.hands if not hand.voided),
                totals=tuple(entrant_totals(pairing, state)),
                idle_minutes=max(0, int((now - pairing.table.updated_at).total_seconds() // 60)),
                called=pairing.director_called_at,
                victory_points=given,
            )
        )
    return lines


@dataclass(frozen=True)
class StandingLine:
    row: TournamentRow
    name: str
    withdrawn: bool


def night_standings(*, tournament: Tournament, found: NightResults | None = None) -> list:
    """Return the night's standings, best first, each row with its player's name.

    Every phone and screen following the night asks for them: they are kept in the cache
    under what they are worked out from (the entrants, the byes and every table's head),
    so they are worked out again only when one of those moves.
    """
    key = None if found is not None else _standings_key(tournament)
    if key is not None:
        kept = cache.get(key)
        if kept is not None:
            return kept
    found = found or night_results(tournament=tournament)
    entrants = {
        e.pk: e
        for e in tournament.entrants.select_related("player").prefetch_related("members__player")
    }
    rows = _standing_rows(tournament, list(entrants), found)
    lines = [
        StandingLine(row, entrants[row.player].name, entrants[row.player].withdrawn) for row in rows
    ]
    if key is not None:
        cache.set(key, lines, STANDINGS_SECONDS)
    return lines


def night_standings_kept(*, tournament: Tournament) -> object | None:
    """Return what the cache keeps as the night's standings as it is now (None: nothing),
    as it is: the audit compares it with night_standings worked out again."""
    return cache.get(_standings_key(tournament))


def night_standings_rebuilt(*, tournament: Tournament) -> list:
    """Work the night's standings out from its tables' logs again and keep them over what
    the cache held (the audit's repair)."""
    lines = night_standings(tournament=tournament, found=night_results(tournament=tournament))
    cache.set(_standings_key(tournament), lines, STANDINGS_SECONDS)
    return lines


def _standing_rows(tournament: Tournament, entrants: list[int], found: NightResults) -> list:
    """Rank the night's entrants by its format's reading: a pairs night by its VP, points
    difference, then head to head (``pairs_night.night_standings``); a knock-out by the
    stage reached."""
    night_scale = scale(tournament)
    if pairs_selectors.is_pairs(tournament):
        night = pairs_selectors.pairs_night(tournament=tournament)
        if night is not None:
            return pairs_night.night_standings(night, found.results, found.byes)
        # Before the first round draws the field: every registered pair, by the same rules.
        tiebreaks = pairs_night.STANDING_TIEBREAKS
        return tournament_standings(
            entrants, found.results, found.byes, night_scale, tiebreaks=tiebreaks
        )
    rows = tournament_standings(entrants, found.results, found.byes, night_scale)
    if tournament.format == Tournament.Format.KNOCKOUT:
        rows = by_stage(rows, _knockout_stages(tournament, found))
    return rows


STANDINGS_SECONDS = 6 * 60 * 60


def _standings_key(tournament: Tournament) -> str:
    """Name the night's standings by everything they are read from."""
    return _night_key(tournament, "standings")


def _night_key(tournament: Tournament, kind: str, *more) -> str:
    """Name what is kept of the night (``kind``) by everything it is read from: the
    night's scale, its entrants, its rounds' byes and every table's head, and ``more``."""
    heads = RoundTable.objects.filter(round__tournament=tournament).order_by("pk")
    parts = [
        3,  # how they are worked out: 3 since pairs nights
        tournament.pk,
        str(tournament.format),  # the choices' values, whether read back or just set
        str(tournament.scale),
        (tournament.win_points, tournament.draw_points, tournament.loss_points),
        tournament.bye_points,
        tournament.vp_table,
        list(tournament.field),
        list(tournament.entrants.order_by("pk").values_list("pk", "withdrawn", "player__name")),
        # A pair's players are set when it is registered and never change: its number and
        # its members' names stand for it.
        list(
            PairMember.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("pair_id", "player__name")
        ),
        # A round's walkovers are set with it, in its transaction, and never change: its
        # number stands for them.
        list(tournament.round_set.order_by("number").values_list("number", "bye_id")),
        list(heads.values_list("table_id", "table__head_seq", "table__head_hash")),
        *more,
    ]
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    return f"night-{kind}:{tournament.pk}:{digest}"


def current_round(*, tournament: Tournament) -> Round | None:
    """Return the latest round started, with its tables, or None before the first."""
    return tournament_rounds(tournament=tournament).order_by("-number").first()


def is_deputy(*, tournament: Tournament, user) -> bool:
    """Tell whether ``user`` deputises for this night's director."""
    return user.is_authenticated and tournament.deputies.filter(pk=user.pk).exists()


def apart_pairs(*, tournament: Tournament) -> set[frozenset]:
    """Return the pairs of entrants (ids) the director keeps apart (NIGHT-APART)."""
    return {frozenset(pair) for pair in tournament.kept_apart.values_list("first_id", "second_id")}


def paired_entrants(*, tournament: Tournament) -> list[Entrant]:
    """Return who the next round pairs: checked in, not withdrawn."""
    return list(
        tournament.entrants.filter(checked_in=True, withdrawn=False)
        .select_related("player")
        .order_by("pk")
    )


def club_tournaments(*, club) -> QuerySet[Tournament]:
    """Return the club's nights, newest first."""
    return Tournament.objects.filter(club=club).order_by("-created_at")


def table_pairing(*, table) -> RoundTable | None:
    """Return the night's pairing a table plays, with its round and tournament, if any:
    the one loaded with the table (``tables.selectors.table_for_digests``), or read now."""
    if type(table).tournament_pairing.is_cached(table):
        return getattr(table, "tournament_pairing", None)
    return (
        RoundTable.objects.select_related("round__tournament__club")
        .prefetch_related("seats")
        .filter(table=table)
        .first()
    )


# A room link's token: token_urlsafe's alphabet, at most the column's width. Anything else
# names no night and is refused before any query.
ROOM_TOKEN_SHAPE = re.compile(
    rf"[A-Za-z0-9_-]{{1,{Tournament._meta.get_field('room_token').max_length}}}"
)


def night_for_room(*, token: str) -> Tournament | None:
    """Return the night whose room screen ``token`` opens, or None."""
    if not ROOM_TOKEN_SHAPE.fullmatch(token):
        return None
    return Tournament.objects.select_related("club", "league").filter(room_token=token).first()


def night_version(*, tournament: Tournament) -> str:
    """Return a token that changes whenever what the night's screens show may have moved: a
    round started, a table's log moved (a hand, a confirmation, a decision), a player came,
    checked in or withdrew, the night ended. One query, so that a screen's poll that finds
    nothing new costs no more (it is answered 204)."""
    return _versions(Tournament.objects.filter(pk=tournament.pk))[1]


def night_version_by_id(tournament_id: int) -> str | None:
    """Return the version of the night ``tournament_id``, or None if there is none: one query."""
    found = _versions(Tournament.objects.filter(pk=tournament_id))
    return None if found is None else found[1]


def table_night_version(table_id) -> tuple[int, str] | None:
    """Return the night a table plays in and its version (``night_version``), or None for a
    table of no night: one query, which a save at any table asks after its commit."""
    return _versions(Tournament.objects.filter(round_set__tables__table_id=table_id))


def _versions(nights: QuerySet) -> tuple[int, str] | None:
    """The first of ``nights`` and its version, each part counted in a subquery of one
    statement (an empty part counts 0, as an aggregate over no rows would)."""
    tables = RoundTable.objects.filter(round__tournament=OuterRef("pk"))
    entrants = Entrant.objects.filter(tournament=OuterRef("pk"))

    def part(rows: QuerySet, group: str, value, empty=0):
        return Coalesce(Subquery(rows.values(group).annotate(v=value).values("v")), empty)

    row = (
        nights.annotate(
            v_rounds=part(tables, "round__tournament", Count("round", distinct=True)),
            v_count=part(tables, "round__tournament", Count("pk")),
            v_heads=part(tables, "round__tournament", Sum("table__head_seq")),
            v_calls=part(
                tables, "round__tournament", Count("pk", filter=Q(director_called_at__isnull=False))
            ),
            v_last_call=Subquery(
                tables.values("round__tournament").annotate(v=Max("director_called_at")).values("v")
            ),
            v_entrants_count=part(entrants, "tournament", Count("pk")),
            v_here=part(entrants, "tournament", Count("pk", filter=Q(checked_in=True))),
            v_gone=part(entrants, "tournament", Count("pk", filter=Q(withdrawn=True))),
        )
        .values_list(
            "pk",
            "status",
            "v_rounds",
            "v_count",
            "v_heads",
            "v_calls",
            "v_last_call",
            "v_entrants_count",
            "v_here",
            "v_gone",
        )
        .first()
    )
    if row is None:
        return None
    pk, status, rounds, count, heads, calls, last_call, *people = row
    parts = (status, rounds, count, heads, calls, last_call.timestamp() if last_call else 0)
    return pk, ".".join(str(part) for part in (*parts, *people))


def pairing_seat_names(*, tournament: Tournament, round_table_id: int) -> list[str] | None:
    """Return the players of one of the night's tables, seat by seat (None: no such table)."""
    pairing = RoundTable.objects.filter(pk=round_table_id, round__tournament=tournament).first()
    if pairing is None:
        return None
    seats = pairing.seats.select_related("entrant__player").prefetch_related(
        "entrant__members__player"
    )
    return [seat.entrant.name for seat in seats]


def night_for_visitor(*, club_slug: str, tournament_id: int, user) -> Tournament | None:
    """Return the night for its results page: a public club's to anyone once it is over, a
    private club's to its members only (its players who are not members see the night from
    their table's page, by their table key); members see it before it is over too. None
    otherwise, which the page answers as not found, as it does a night that is not there."""
    tournament = (
        Tournament.objects.select_related("club", "league")
        .filter(club__slug=club_slug, pk=tournament_id)
        .first()
    )
    if tournament is None:
        return None
    if user.is_authenticated and tournament.club.memberships.filter(user=user).exists():
        return tournament
    if tournament.status == Tournament.Status.FINISHED and tournament.club.public:
        return tournament
    return None


def drawn_field(*, tournament: Tournament) -> list[int]:
    """Return who the first round pairs (checked in, not withdrawn), in the order the
    night's seed draws them: a knock-out's seeding, a round robin's places."""
    field = sorted(e.pk for e in paired_entrants(tournament=tournament))
    random.Random(tournament.seed).shuffle(field)
    return field


def _round_winners(found: NightResults) -> dict[int, dict[int, object]]:
    """Return, by round number, each match's winner by match index (its table's number - 1)."""
    by_round: dict[int, dict[int, object]] = {}
    for result, number in found.numbered:
        winner = match_winner(result)
        if winner is not None:
            by_round.setdefault(result.round_number, {})[number - 1] = winner
    return by_round


def knockout_rounds(*, tournament: Tournament, found: NightResults) -> list[list[Match]]:
    """Return the bracket's rounds so far: the first drawn from the night's seed, each next
    one once every match of the one before has gone to a player (a match's table is
    numbered after its place in the round, so table 3 plays match 3): to its winner, or
    without one to the player still in when the other has left (a walkover)."""
    seeds = _seeds(tournament)
    return _drawn_rounds(tournament, seeds, found, _out(tournament, seeds, found))


def _knockout_stages(tournament: Tournament, found: NightResults) -> dict[int, int]:
    """Return the round of the bracket each player reached, one past the last for the
    knock-out's winner."""
    seeds = _seeds(tournament)
    out = _out(tournament, seeds, found)
    rounds = _drawn_rounds(tournament, seeds, found, out)
    stage = {
        player: number
        for number, matches in enumerate(rounds, start=1)
        for match in matches
        for player in match
        if player is not None
    }
    if len(rounds) >= 2 and rounds[-1] == []:
        won = _round_winners(found).get(len(rounds) - 1, {})
        champion = goes_through(rounds[-2][0], won.get(0), withdrawn=out)
        if champion is not None:
            stage[champion] = len(rounds)
    return stage


def knockout_blocking(*, tournament: Tournament, found: NightResults) -> list[int]:
    """Return the numbers of the tables of the bracket's last round drawn that hold the
    next round back: level (no winner, a void table too) with both players still in."""
    seeds = _seeds(tournament)
    out = _out(tournament, seeds, found)
    last = len(_drawn_rounds(tournament, seeds, found, out))
    return sorted(
        number
        for result, number in found.numbered
        if result.round_number == last
        and match_winner(result) is None
        and not out.intersection(result.players)
    )


def knockout_walkover_lost(*, tournament: Tournament, entrant_id: int) -> bool:
    """Say whether a player out of the knock-out has lost a match of a round already
    started by walkover: were they back, that match would have no winner, and nobody could
    score it."""
    seeds, found = _seeds(tournament), night_results(tournament=tournament)
    out = _out(tournament, seeds, found)
    if entrant_id not in out:
        return False
    drawn = len(_drawn_rounds(tournament, seeds, found, out))
    return len(_drawn_rounds(tournament, seeds, found, out - {entrant_id})) < drawn


def _seeds(tournament: Tournament) -> list[int]:
    return tournament.field or drawn_field(tournament=tournament)


def _out(tournament: Tournament, seeds: list[int], found: NightResults) -> frozenset[int]:
    """Return the players of the bracket paired no more (withdrawn, or checked out), but
    those whose table is still in play: its result comes first."""
    paired = {e.pk for e in paired_entrants(tournament=tournament)}
    playing = {seat.entrant_id for pairing in found.playing for seat in pairing.seats.all()}
    return frozenset(seeds) - paired - playing


def _drawn_rounds(
    tournament: Tournament, seeds: list[int], found: NightResults, out: frozenset[int]
) -> list[list[Match]]:
    if len(seeds) < 2:
        return []
    rounds = [first_round(seeds)]
    winners = _round_winners(found)
    for round_ in tournament.round_set.order_by("number"):
        following = advance(rounds[-1], winners.get(round_.number, {}), withdrawn=out)
        if following is None:
            break
        rounds.append(following)
    return rounds


@dataclass(frozen=True)
class BracketSlot:
    name: str  # "" while the player is not known yet
    won: bool = False
    bye: bool = False


@dataclass(frozen=True)
class BracketMatch:
    slots: tuple[BracketSlot, BracketSlot]


def bracket(*, tournament: Tournament) -> list[list[BracketMatch]]:
    """Return a knock-out's bracket (none for other formats), round by round up to the
    final: the matches drawn so far with their winners, and empty places for those still
    to come. Kept in the cache as the standings are, under what it is read from (and the
    field: before the first round it is drawn from who has checked in)."""
    if tournament.format != Tournament.Format.KNOCKOUT:
        return []
    checked_in = tournament.entrants.filter(checked_in=True).order_by("pk")
    key = _night_key(tournament, "bracket", tournament.field, list(checked_in.values("pk")))
    kept = cache.get(key)
    if kept is None:
        kept = _bracket_columns(tournament)
        cache.set(key, kept, STANDINGS_SECONDS)
    return kept


def _bracket_columns(tournament: Tournament) -> list[list[BracketMatch]]:
    found = night_results(tournament=tournament)
    seeds = _seeds(tournament)
    out = _out(tournament, seeds, found)
    drawn = _drawn_rounds(tournament, seeds, found, out)
    if not drawn:
        return []
    started = tournament.round_set.count()
    names = dict(tournament.entrants.values_list("pk", "player__name"))
    winners = _round_winners(found)
    columns = []
    size = len(drawn[0])
    while size:
        number = len(columns) + 1
        known = number <= len(drawn)
        won = winners.get(number, {})
        column = []
        for index, (a, b) in enumerate(drawn[number - 1] if known else [(None, None)] * size):
            # Against a bye, the player goes through without a table; against a player who
            # has left, once the round has started (a walkover).
            left = out if number <= started else ()
            through = goes_through((a, b), won.get(index), withdrawn=left)
            slots = tuple(
                BracketSlot(
                    name=names.get(player, "") if player is not None else "",
                    won=player is not None and through == player,
                    bye=known and player is None,
                )
                for player in (a, b)
            )
            column.append(BracketMatch(slots=slots))
        columns.append(column)
        size //= 2
    return columns


def match_winner(result: TableResult):
    """Return who won a two-player table: the director's higher score, else first place;
    None on a tie (the director then scores the table)."""
    if result.decided:
        best = max(result.decided)
        top = [p for p, vp in zip(result.players, result.decided, strict=True) if vp == best]
    else:
        top = [p for p, place in zip(result.players, result.places, strict=True) if place == 1]
    return top[0] if len(top) == 1 else None
