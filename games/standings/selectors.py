"""Standings: read from the projections the workers keep (games.standings.services)."""

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet

from games.clubs.models import Club, Group, League, Player, Season, Tiebreaker
from games.standings.book import (
    CircleStats,
    GameTab,
    PlayerPage,
    game_shown,
    game_stats,
    game_tabs,
    player_page,
    record_lines,
)
from games.standings.models import MatchResult, SeasonStandings
from games.tables.models import Seat, Table
from scoring.book import GameBook, all_games, game_book
from scoring.standings import MatchSummary, counts_of, lower_is_better


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
            StandingLine(players.get(row["player"]), row, counts_of(league.variant)) for row in rows
        ],
        counts=counts_of(league.variant),
        tiebreakers=list(league.tiebreakers),
        lower_is_better=lower_is_better(league.variant),
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
            table__seats__player=player,
            table__practice=False,
            # League matches only: a club's casual tables (a night without a season) have
            # results too, for the club's stats.
            table__season__isnull=False,
            summary__isnull=False,
        )
        .select_related("table__season__league")
        .order_by("-finished_at", "table_id")
    )
    matches = _player_matches(player, results)
    games: dict[str, list[int]] = {}
    for match in matches:
        record = games.setdefault(match.league.variant, [0, 0])
        record[0] += 1
        record[1] += match.seat["outcome"] == "won"
    labels = dict(Table._meta.get_field("variant").choices)
    finished = {str(result.table_id): result.finished_at for result in results}
    series = _rating_series(player, finished)
    return PlayerRecord(
        matches=matches,
        games=[
            GameRecord(variant, str(labels[variant]), played, won)
            for variant, (played, won) in sorted(games.items())
        ],
        ratings=sorted(series, key=lambda entry: (entry.league.name, entry.league.pk)),
    )


def _player_matches(player: Player, results: list[MatchResult]) -> list[PlayerMatch]:
    """Return the player's seat and opponents in each of ``results``, in their order."""
    others = {s["player"] for r in results for s in r.summary["seats"]}
    players = Player.objects.in_bulk(list(others))
    matches = []
    for result in results:
        seat = next(s for s in result.summary["seats"] if s["player"] == player.pk)
        matches.append(
            PlayerMatch(
                table=result.table,
                league=result.table.season.league,
                finished_at=result.finished_at,
                seat=seat,
                opponents=[
                    players[s["player"]]
                    for s in result.summary["seats"]
                    if s["player"] != player.pk
                ],
            )
        )
    return matches


def _rating_series(player: Player, finished: dict[str, Any]) -> list[RatingSeries]:
    """Return the player's rating over time in each league of their club; ``finished`` dates
    each point by its match (table id as text)."""
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
    return list(series.values())


# The players' book ---------------------------------------------------------------------

# A circle's book of one game, kept while no result of its tables in that game changes: a
# repeat view reads it from the cache, its key moving with the game's newest result.
BOOK_SECONDS = 24 * 60 * 60


def _seated(players: Q) -> Exists:
    return Exists(Seat.objects.filter(players, table=OuterRef("pk")))


def book_tables() -> QuerySet[Table]:
    """Return the tables whose results the book keeps beyond the leagues' (whose recompute
    keeps theirs): casual tables of a group, or seated with players of a circle (a club's
    roster or a group: a club's tournament night without a season), practice ones aside."""
    circle = Q(player__club__isnull=False) | Q(player__group__isnull=False)
    return Table.objects.filter(season__isnull=True, practice=False).filter(
        Q(group__isnull=False) | _seated(circle)
    )


def is_book_table(table: Table) -> bool:
    """Tell whether the book keeps the table's result (``book_tables``)."""
    if table.season_id is not None or table.practice:
        return False
    return table.group_id is not None or book_tables().filter(pk=table.pk).exists()


def book_tables_behind() -> list[Any]:
    """Return the book's tables whose result does not reflect their log (a refresh lost or
    failed): settled ones with no result or one read at another head, and open ones still
    holding a finished match's summary (reopened by a correction)."""
    behind = (
        Q(status=Table.Status.FINISHED, result__isnull=True)
        | (Q(status=Table.Status.FINISHED) & ~Q(result__seq=F("head_seq")))
        | Q(status=Table.Status.OPEN, result__summary__isnull=False)
    )
    return list(book_tables().filter(behind).order_by("pk").values_list("pk", flat=True))


def _game_found(results: QuerySet[MatchResult]) -> dict[str, dict[str, Any]]:
    """Return, by game, how many finished matches its results hold, its rows and newest."""
    return {
        row["table__variant"]: row
        for row in results.order_by()
        .values("table__variant")
        .annotate(
            matches=Count("pk", filter=Q(summary__isnull=False)),
            rows=Count("pk"),
            newest=Max("updated_at"),
        )
    }


def _game_book(
    results: QuerySet[MatchResult], key: str, variant: str, state: Mapping[str, Any]
) -> tuple[GameBook, tuple[Any, ...]]:
    """Return a circle's book of one game and when each of its matches finished (in the
    book's order), from the cache while none of the game's results has changed."""
    # "dated": the entry holds the book with its dates (a bare book, as kept before, is
    # under the old "book:" keys and is never read as one).
    cache_key = f"book-dated:{key}:{variant}:{state['rows']}:{state['newest'].isoformat()}"
    cached = cache.get(cache_key)
    if cached is not None:
        return cached
    rows = list(
        results.filter(table__variant=variant, summary__isnull=False)
        .order_by("finished_at", "table_id")
        .values_list("summary", "finished_at")
    )
    book = game_book(variant, (MatchSummary.from_record(summary) for summary, _ in rows))
    # The book numbers the matches it counts: a practice one (RAM-OPT-PRACTICE) is skipped.
    dates = tuple(finished for summary, finished in rows if not summary["practice"])
    cache.set(cache_key, (book, dates), BOOK_SECONDS)
    return book, dates


@dataclass(frozen=True)
class _Books:
    """A circle's books: its games' tabs, and each game's book with its matches' dates."""

    tabs: tuple[GameTab, ...]
    books: dict[str, tuple[GameBook, tuple[Any, ...]]]

    def last_played(self) -> dict[Any, Any]:
        """Return when each player last sat in a finished match, in any game."""
        last: dict[Any, Any] = {}
        for book, dates in self.books.values():
            for line in book.lines:
                when = dates[line.last_played - 1]
                if line.player not in last or when > last[line.player]:
                    last[line.player] = when
        return last


def _circle_books(key: str, tables: QuerySet[Table]) -> _Books:
    """Return a circle's books of every game it finished matches of.

    One query counts each game's results and finds its newest; each game's book is kept in
    the cache under those, so it is worked out again (its results read, in the order the
    matches finished) only once a result of that game has changed: a result moves its
    updated_at whenever it is written (a correction that reopens a match too), and a new
    one is the newest.
    """
    results = MatchResult.objects.filter(table__in=tables)
    found = _game_found(results)
    tabs = game_tabs({variant: row["matches"] for variant, row in found.items()})
    books = {tab.variant: _game_book(results, key, tab.variant, found[tab.variant]) for tab in tabs}
    return _Books(tabs, books)


def _circle_stats(
    name: str, books: _Books, *, asked: str, usual: str, group_id: int | None = None
) -> CircleStats:
    """Return a circle's stats page from its books: a tab per game it finished matches of,
    the book of the game shown and every player's record over all the games."""
    variant = game_shown(books.tabs, asked=asked, usual=usual)
    if variant is None:
        return CircleStats(name=name, tabs=books.tabs, game=None, group_id=group_id)
    records = all_games(book for book, _ in books.books.values())
    players = Player.objects.in_bulk([record.player for record in records])
    book, dates = books.books[variant]
    return CircleStats(
        name=name,
        tabs=books.tabs,
        game=game_stats(book, players, dates, group_id),
        every_game=record_lines(records, players, books.last_played(), group_id),
        group_id=group_id,
    )


def _group_tables(group: Group) -> QuerySet[Table]:
    return Table.objects.filter(practice=False).filter(
        Q(group=group) | _seated(Q(player__group=group))
    )


def group_stats(*, group: Group, variant: str = "") -> CircleStats:
    """Return a group's stats, ``variant``'s in full (else its usual game's, else its most
    played): every finished match of its tables (and of tables seated with its players),
    practice aside, read from the stored results."""
    books = _circle_books(f"group:{group.pk}", _group_tables(group))
    return _circle_stats(group.name, books, asked=variant, usual=group.variant, group_id=group.pk)


def club_stats(*, club: Club, variant: str = "") -> CircleStats:
    """Return a club's stats, ``variant``'s in full (else its most played game's): every
    finished match of its leagues and of the tables seated with its roster (a tournament
    night's), practice aside, read from the stored results."""
    tables = Table.objects.filter(practice=False).filter(
        Q(season__league__club=club) | _seated(Q(player__club=club))
    )
    return _circle_stats(
        club.name, _circle_books(f"club:{club.pk}", tables), asked=variant, usual=""
    )


def group_player(*, group: Group, player_id: int) -> PlayerPage | None:
    """Return the page of one of a group's players: their record over every finished match
    of the group's tables and games, with each other player and game by game; None for a
    player not of the group."""
    player = Player.objects.filter(pk=player_id, group=group).first()
    if player is None:
        return None
    books = _circle_books(f"group:{group.pk}", _group_tables(group))
    keys = {key for book, _ in books.books.values() for key in book.players}
    players = Player.objects.in_bulk(list(keys | {player.pk}))
    return player_page(group.name, player, list(books.books.values()), players, books.last_played())
