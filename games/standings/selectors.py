"""Standings: read from the projections the workers keep (games.standings.services)."""

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import QuerySet

from games.clubs.models import League, Player, Season, Tiebreaker
from games.standings.models import MatchResult, SeasonStandings
from games.tables.models import Table
from scoring.standings import COUNTS, LOWER_IS_BETTER


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
