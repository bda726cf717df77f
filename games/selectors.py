"""Every read of tables and their logs, and of clubs, leagues and seasons, goes through here."""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Case, Count, Exists, F, OuterRef, Q, QuerySet, Subquery, When
from django.utils import timezone

from games.access import Role, table_role
from games.models import (
    Club,
    ClubRole,
    Event,
    Invite,
    League,
    MatchResult,
    Membership,
    Player,
    Season,
    SeasonStandings,
    Table,
    TableProjection,
    Tiebreaker,
)
from scoring.events import HAND_RECORDED, LogEvent
from scoring.replay import apply, replay
from scoring.standings import COUNTS, LOWER_IS_BETTER


def table_for_keys(
    *, table_id: uuid.UUID | str, keys: Iterable[str], user=None
) -> tuple[Table, Role]:
    """Return a table and the role the keys (and, at a league table, the signed-in user's
    club membership) grant; unknown ids and bad keys look the same."""
    keys = list(keys)
    try:
        table = Table.objects.select_related("season__league__club").get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError) as exc:
        raise Table.DoesNotExist from exc
    role = table_role(table, keys=keys, user=user)
    if role is None:
        # Answer as for a table that does not exist, so ids cannot be probed.
        raise Table.DoesNotExist
    return table, role


def tables_for_keys(*, keys: Iterable[str]) -> QuerySet[Table]:
    """Return the tables any of ``keys`` opens, most recently played first."""
    keys = [k for k in keys if k]
    if not keys:
        return Table.objects.none()
    return (
        Table.objects.filter(Q(scorekeeper_key__in=keys) | Q(viewer_key__in=keys))
        .select_related("season__league")
        .prefetch_related("seats__player")
    )


def table_state(*, table: Table) -> dict[str, Any]:
    """Return the replayed state: the cached projection, or a fresh replay if it was dropped."""
    projection = TableProjection.objects.filter(table=table, seq=table.head_seq).first()
    if projection is not None:
        return projection.state
    return replay(_engine_log(table)).to_dict()


def hand_preview(*, table: Table, payload: dict[str, Any]) -> dict[str, Any]:
    """Score a hand as if it were recorded now, storing nothing; RuleViolation if refused."""
    hand = LogEvent(seq=table.head_seq + 1, event_type=HAND_RECORDED, payload=payload)
    return apply(replay(_engine_log(table)), hand).to_dict()["hands"][-1]["result"]


def engine_events(events: Iterable[Event]) -> list[LogEvent]:
    """Return logged events as the engine reads them."""
    return [LogEvent(seq=e.seq, event_type=e.type, payload=e.payload) for e in events]


def _engine_log(table: Table) -> list[LogEvent]:
    return engine_events(table_events(table=table))


def table_events(*, table: Table) -> QuerySet[Event]:
    """Return a table's log in order."""
    return table.events.order_by("seq")


@dataclass(frozen=True)
class HistoryEntry:
    """One hand of the history with who recorded and corrected it, and when."""

    hand: dict[str, Any]
    recorded: Event
    corrections: list[tuple[dict[str, Any], Event]]

    def latest_entry(self) -> Event:
        """Return the event whose entry is in force: the last amendment, or the original."""
        amendments = [e for c, e in self.corrections if c["kind"] == "amended"]
        return amendments[-1] if amendments else self.recorded


def table_history(*, table: Table, state: dict[str, Any]) -> list[HistoryEntry]:
    """Join the state's hands with the events that recorded and corrected them, newest first."""
    seqs = {h["seq"] for h in state["hands"]}
    seqs.update(c["seq"] for h in state["hands"] for c in h["corrections"])
    by_seq = {e.seq: e for e in table.events.filter(seq__in=seqs)}
    entries = [
        HistoryEntry(
            hand=h,
            recorded=by_seq[h["seq"]],
            corrections=[(c, by_seq[c["seq"]]) for c in h["corrections"]],
        )
        for h in state["hands"]
    ]
    return entries[::-1]


def hand_moves(*, table: Table, state: dict[str, Any]) -> list[Event]:
    """Return the events of the hand being played move by move, deal first (none between
    hands)."""
    play = state.get("play")
    if not play:
        return []
    return list(table.events.filter(seq__gte=play["seq"]).order_by("seq"))


def demo_tables() -> list[Table]:
    """Return the demo tables that ``load_demo`` made, if any."""
    from games.demo import DEMO_IDS

    return list(Table.objects.filter(pk__in=DEMO_IDS).prefetch_related("seats__player"))


# Clubs, leagues and seasons. Private data is read only through these, and each one decides
# who may see it: an object the user may not see answers DoesNotExist, as an unknown one does.


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def membership_get(*, club: Club, user) -> Membership | None:
    """Return the user's membership of the club, or None."""
    if not _signed_in(user):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def clubs_for_user(*, user) -> QuerySet[Club]:
    """Return the clubs the user belongs to, each with the user's role as ``my_role``."""
    if not _signed_in(user):
        return Club.objects.none()
    role = Membership.objects.filter(club=OuterRef("pk"), user=user).values("role")[:1]
    return Club.objects.annotate(my_role=Subquery(role)).filter(my_role__isnull=False)


@dataclass(frozen=True)
class MemberAccess:
    """What one user is in a club: their membership, or None for a visitor."""

    membership: Membership | None

    @property
    def is_member(self) -> bool:
        return self.membership is not None

    @property
    def is_admin(self) -> bool:
        return self.membership is not None and self.membership.is_admin

    @property
    def is_owner(self) -> bool:
        return self.membership is not None and self.membership.role == ClubRole.OWNER


@dataclass(frozen=True)
class ClubAccess(MemberAccess):
    """A club as one user sees it."""

    club: Club


def club_for_user(*, slug: str, user) -> ClubAccess:
    """Return a club its members see, or any signed-in user if it is public; else
    Club.DoesNotExist."""
    club = Club.objects.get(slug=slug)
    membership = membership_get(club=club, user=user)
    if membership is None and not (club.public and _signed_in(user)):
        raise Club.DoesNotExist
    return ClubAccess(club=club, membership=membership)


@dataclass(frozen=True)
class ClubDetail:
    """What a club's page shows; members, players and invites only to those who may see them."""

    members: list[Membership]
    players: list[Player]
    leagues: list[League]
    invites: list[Invite]


def club_detail(*, access: ClubAccess, user) -> ClubDetail:
    """Return the club page's contents for the user behind ``access``."""
    club = access.club
    members = players = invites = []
    if access.is_member:
        members = list(club.memberships.select_related("user").order_by("user__username"))
        players = list(club.players.select_related("user").order_by("name"))
    if access.is_admin:
        usable = club.invites.filter(expires_at__gt=timezone.now(), uses__lt=F("max_uses"))
        invites = list(usable.order_by("-created_at"))
    leagues = list(leagues_visible(user=user).filter(club=club).order_by("name"))
    return ClubDetail(members=members, players=players, leagues=leagues, invites=invites)


def leagues_visible(*, user) -> QuerySet[League]:
    """Return the leagues the user may see: public ones, and every league of their clubs."""
    if not _signed_in(user):
        return League.objects.filter(public=True).select_related("club")
    member = Membership.objects.filter(club=OuterRef("club"), user=user)
    return League.objects.filter(Q(public=True) | Exists(member)).select_related("club")


@dataclass(frozen=True)
class LeagueAccess(MemberAccess):
    """A league as one user sees it, with their membership of its club."""

    league: League


def league_for_user(*, club_slug: str, league_slug: str, user) -> LeagueAccess:
    """Return a league the user may see (public, or one of their clubs'); else
    League.DoesNotExist."""
    league = League.objects.select_related("club").get(club__slug=club_slug, slug=league_slug)
    membership = membership_get(club=league.club, user=user)
    if membership is None and not league.public:
        raise League.DoesNotExist
    return LeagueAccess(league=league, membership=membership)


def league_seasons(*, league: League) -> QuerySet[Season]:
    """Return a league's seasons, latest first, each with its number of tables."""
    return league.seasons.annotate(table_count=Count("tables")).order_by("-starts_on", "-pk")


def season_for_user(*, access: LeagueAccess, season_id: int) -> Season:
    """Return a season of a league the user may see; else Season.DoesNotExist."""
    return Season.objects.select_related("league__club").get(pk=season_id, league=access.league)


def season_by_id_for_user(*, season_id: int, user) -> tuple[Season, LeagueAccess]:
    """Return a season by id with the user's access to its league, for the API: members,
    or anyone for a public league; else Season.DoesNotExist."""
    season = Season.objects.select_related("league__club").get(pk=season_id)
    membership = membership_get(club=season.league.club, user=user)
    if membership is None and not season.league.public:
        raise Season.DoesNotExist
    return season, LeagueAccess(league=season.league, membership=membership)


def season_tables(*, season: Season) -> QuerySet[Table]:
    """Return a season's tables, those in play first, then newest first, with their seats."""
    in_play_first = Case(When(status=Table.Status.OPEN, then=0), default=1)
    return season.tables.prefetch_related("seats__player").order_by(in_play_first, "-created_at")


def club_players(*, club: Club) -> QuerySet[Player]:
    """Return a club's roster by name."""
    return club.players.select_related("user").order_by("name")


def invite_get(*, token: str) -> Invite:
    """Return the invite a link holds (its club too); Invite.DoesNotExist if none."""
    return Invite.objects.select_related("club").get(token=str(token))


# Standings: read from the projections the workers keep (games.services, games.tasks).


@dataclass(frozen=True)
class StandingLine:
    """One row of a season's standings, with its player."""

    player: Player | None
    row: dict[str, Any]
    count_names: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.player.name if self.player is not None else "?"

    @property
    def counts(self) -> list[int]:
        """Return the game-specific counts in the order ``StandingsView.counts`` names them
        (not the stored dict's: PostgreSQL's jsonb keeps keys in an order of its own)."""
        return [self.row["counts"][name] for name in self.count_names]

    @property
    def tiebreak_label(self) -> str:
        """Return the tie-breaker that placed the row above the next one, by its name."""
        tiebreak = self.row["tiebreak"]
        return str(Tiebreaker(tiebreak).label) if tiebreak else ""


@dataclass(frozen=True)
class StandingsView:
    """A season's standings as the page, the CSV and the API show them."""

    season: Season
    lines: list[StandingLine]
    counts: tuple[str, ...]
    tiebreakers: list[str]
    lower_is_better: bool
    matches: int
    computed_at: Any
    # False while a finished, counted table of the season moved since the last recompute:
    # a worker is on it (or the page says the standings are catching up).
    up_to_date: bool


def _counted_heads(tables: QuerySet[Table]) -> dict[int, dict[str, int]]:
    """Return, by season, the head seq of each finished, counted table by table id: what a
    season's standings must reflect (``SeasonStandings.reflects``) to be up to date."""
    heads: dict[int, dict[str, int]] = {}
    finished = tables.filter(status=Table.Status.FINISHED, practice=False)
    for season_id, pk, seq in finished.values_list("season_id", "pk", "head_seq"):
        heads.setdefault(season_id, {})[str(pk)] = seq
    return heads


def seasons_behind() -> list[int]:
    """Return the seasons whose stored standings do not reflect their tables' logs (a
    recompute lost or failed), so they can be queued again; two queries for all of them."""
    heads = _counted_heads(Table.objects.filter(season__isnull=False))
    stored = dict(SeasonStandings.objects.values_list("season_id", "reflects"))
    return sorted(
        pk for pk in heads.keys() | stored.keys() if stored.get(pk, {}) != heads.get(pk, {})
    )


def season_standings(*, season: Season) -> StandingsView:
    """Return a season's standings as last computed, and whether they are up to date."""
    league = season.league
    stored = SeasonStandings.objects.filter(season=season).defer("ratings").first()
    rows = stored.rows if stored is not None else []
    players = Player.objects.in_bulk([row["player"] for row in rows])
    heads = _counted_heads(season.tables.all()).get(season.pk, {})
    return StandingsView(
        season=season,
        lines=[
            StandingLine(players.get(row["player"]), row, COUNTS[league.variant]) for row in rows
        ],
        counts=COUNTS[league.variant],
        tiebreakers=list(league.tiebreakers),
        lower_is_better=league.variant in LOWER_IS_BETTER,
        matches=stored.matches if stored is not None else 0,
        computed_at=stored.computed_at if stored is not None else None,
        up_to_date=(stored.reflects if stored is not None else {}) == heads,
    )


def season_ratings(*, season: Season) -> dict[str, dict[str, Any]]:
    """Return the ratings stored with a season's standings (by player id as text), or none."""
    stored = SeasonStandings.objects.filter(season=season).values_list("ratings", flat=True)
    return stored.first() or {}


@dataclass(frozen=True)
class MatchLine:
    """One finished, counted match of a season: its table, when it ended, each seat."""

    table: Table
    finished_at: Any
    summary: dict[str, Any]
    players: list[Player]


def season_results(*, season: Season) -> list[MatchLine]:
    """Return a season's counted matches as the standings read them, in the order played."""
    results = (
        MatchResult.objects.filter(
            table__season=season, table__practice=False, summary__isnull=False
        )
        .select_related("table")
        .order_by("finished_at", "table_id")
    )
    results = list(results)
    ids = {seat["player"] for r in results for seat in r.summary["seats"]}
    players = Player.objects.in_bulk(list(ids))
    return [
        MatchLine(
            table=r.table,
            finished_at=r.finished_at,
            summary=r.summary,
            players=[players[seat["player"]] for seat in r.summary["seats"]],
        )
        for r in results
    ]


def player_for_user(*, access: ClubAccess, player_id: int) -> Player:
    """Return a player of the club's roster to one of its members; else Player.DoesNotExist.

    Only members: a player's page gathers every league of the club, private ones too, so a
    visitor of a public club sees no player at all rather than part of one.
    """
    if not access.is_member:
        raise Player.DoesNotExist
    return Player.objects.select_related("user").get(pk=player_id, club=access.club)


def _shown(points: str) -> int | float:
    # A stored summary's exact fraction ("71/2") as the standings page shows it.
    value = Fraction(points)
    return value.numerator if value.denominator == 1 else round(float(value), 2)


@dataclass(frozen=True)
class PlayerMatch:
    """One finished, counted match of a player, as their page lists it."""

    table: Table
    league: League
    finished_at: Any
    seat: dict[str, Any]
    opponents: list[Player]

    @property
    def points_for(self) -> int | float:
        return _shown(self.seat["points_for"])

    @property
    def points_against(self) -> int | float:
        return _shown(self.seat["points_against"])

    @property
    def won(self) -> bool:
        return self.seat["outcome"] == "won"

    @property
    def seats(self) -> int:
        return len(self.opponents) + 1


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game: matches played, won, and the win rate."""

    variant: str
    label: str
    played: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played)


@dataclass(frozen=True)
class RatingSeries:
    """A player's rating in one league: after each of their matches, in the order rated
    (``RatingPoint.to_dict`` with the match's ``finished_at``), and now (mu, sigma and the
    conservative value as the league's latest season stores them)."""

    league: League
    points: list[dict[str, Any]]
    current: dict[str, float]


@dataclass(frozen=True)
class PlayerRecord:
    """A player's counted league matches, win rate per game and ratings per league."""

    matches: list[PlayerMatch]
    games: list[GameRecord]
    ratings: list[RatingSeries]


def player_record(*, player: Player) -> PlayerRecord:
    """Return a player's counted league matches (latest first), their win rate per game
    and their rating over time in each league, all from the standings projections."""
    results = list(
        MatchResult.objects.filter(
            table__seats__player=player, table__practice=False, summary__isnull=False
        )
        .select_related("table__season__league")
        .order_by("-finished_at", "table_id")
    )
    others = {s["player"] for r in results for s in r.summary["seats"]}
    players = Player.objects.in_bulk(list(others))
    matches = []
    games: dict[str, list[int]] = {}
    for result in results:
        seat = next(s for s in result.summary["seats"] if s["player"] == player.pk)
        league = result.table.season.league
        matches.append(
            PlayerMatch(
                table=result.table,
                league=league,
                finished_at=result.finished_at,
                seat=seat,
                opponents=[
                    players[s["player"]]
                    for s in result.summary["seats"]
                    if s["player"] != player.pk
                ],
            )
        )
        record = games.setdefault(league.variant, [0, 0])
        record[0] += 1
        record[1] += seat["outcome"] == "won"
    labels = dict(Table._meta.get_field("variant").choices)
    finished = {str(result.table_id): result.finished_at for result in results}
    series: dict[int, RatingSeries] = {}
    # Seasons in the order the league's ratings run on through them (by start date), so the
    # points follow each other and the last season read holds the current rating.
    standings = (
        SeasonStandings.objects.filter(season__league__club_id=player.club_id)
        .select_related("season__league")
        .order_by("season__league_id", "season__starts_on", "season_id")
    )
    for stored in standings:
        rating = stored.ratings.get(str(player.pk))
        if rating is None:
            continue
        entry = series.setdefault(
            stored.season.league_id, RatingSeries(stored.season.league, [], {})
        )
        entry.points.extend(
            {**point, "finished_at": finished.get(point["match_id"])} for point in rating["history"]
        )
        # A later season carries the rating on, moved or not: its value is the current one.
        entry.current.update({key: rating[key] for key in ("mu", "sigma", "conservative")})
    return PlayerRecord(
        matches=matches,
        games=[
            GameRecord(variant, str(labels[variant]), played, won)
            for variant, (played, won) in sorted(games.items())
        ],
        ratings=sorted(series.values(), key=lambda entry: (entry.league.name, entry.league.pk)),
    )
