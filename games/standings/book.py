"""The players' book as the stats page shows it: the read models of a circle's stats (a
group's or a club's) and what each game's columns are.

``scoring.book`` works the numbers out from the match results; this module puts names on
them and writes them as the page prints them. ``games.standings.selectors.group_stats`` and
``club_stats`` read the results and build the page's ``CircleStats`` with it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.clubs.models import Player
from games.rules.game_words import book_column_label, book_note, game_name, points_labels
from games.standings.charts import Chart, wins_chart
from scoring.book import (
    BestMatch,
    BookLine,
    GameBook,
    Meeting,
    Partnership,
    Record,
    all_games,
    meetings_over,
)
from scoring.game import BookColumn, GameRules
from scoring.variants import GAMES


def decimal(value: Fraction, *, signed: bool = False) -> str:
    """Return a number as the page writes it: one decimal at most, a point for the comma
    (the Italian locale would write 7,5 in one place and 7.5 in another)."""
    text = f"{round(float(value), 1):g}"
    if text == "-0":
        text = "0"
    return f"+{text}" if signed and value > 0 else text


@dataclass(frozen=True)
class Column:
    """One of a game's own columns (scoring.game.BookColumn) with its label: a count or
    figure, or that figure over the hands it is known for, a share of them or an average."""

    label: Any
    column: BookColumn

    def cell(self, line: BookLine) -> tuple[str, str]:
        """Return the line's value and, for a share or an average, the hands it is over."""
        values = {**dict(line.counts), **dict(line.figures)}
        value = values[self.column.name]
        if not self.column.of:
            return str(value), ""
        known = values[self.column.of]
        if not known:
            return "–", ""
        share = self.column.share
        shown = f"{round(100 * value / known)}%" if share else decimal(Fraction(value, known))
        return shown, f"{value}/{known}" if share else str(known)


def columns(game: GameRules) -> tuple[Column, ...]:
    """Return the game's columns beyond the record, labelled (GameRules' book_columns)."""
    return tuple(
        Column(book_column_label(game, column.name), column)
        for column in game.standings.book_columns
    )


# What the book's "against" column is, by the game's points terms (StandingsReading
# .points_terms): where it is the opponents' points, each match gives their mean (as the
# standings do, so a table of four weighs no more than a table of two), and the label and
# its note say so rather than reading as a sum. Ramino's "points lost" are the seat's own.
AGAINST: Mapping[str, tuple[Any, Any]] = {
    "for_against": (
        _("Points against (opponents' mean)"),
        _(
            "Points against: in each match, the mean of the opponents' final totals (at a "
            "table of two, the opponent's total), added up over the matches, so that a "
            "table of four weighs no more than a table of two."
        ),
    ),
    "penalty": (
        _("Opponents' penalty points (their mean)"),
        _(
            "Opponents' penalty points: in each match, the mean of what the opponents took "
            "(at a table of two, the opponent's), added up over the matches, so that a "
            "table of four weighs no more than a table of two."
        ),
    ),
}


def against(game: GameRules) -> tuple[Any, Any]:
    """Return the book's label of points against and its note ("" where the label says it)."""
    return AGAINST.get(game.standings.points_terms, (points_labels(game)[1], ""))


def notes(game: GameRules) -> tuple[Any, ...]:
    """Return what the page says of the game's columns."""
    return tuple(book_note(game, note) for note in game.standings.book_notes)


@dataclass(frozen=True)
class StatsLine:
    """One player's line of a game: the book's line, their name, and the cells printed."""

    line: BookLine
    name: str
    retired: bool
    cells: tuple[tuple[str, str], ...]
    rival: str
    rival_meeting: Meeting | None
    nemesis: str
    nemesis_meeting: Meeting | None
    best: BestMatch | None
    best_against: str
    last_played: Any = None
    # A link to the player's page: a group's own player, on the group's stats.
    linked: bool = False

    @property
    def player_id(self) -> Any:
        return self.line.player

    @property
    def average_for(self) -> str:
        return decimal(self.line.average_for)

    @property
    def win_percent(self) -> int:
        return round(100 * self.line.won / self.line.played)

    @property
    def points_for(self) -> str:
        return decimal(self.line.points_for)

    @property
    def points_against(self) -> str:
        return decimal(self.line.points_against)

    @property
    def best_margin(self) -> str:
        return decimal(self.best.margin) if self.best is not None else ""


@dataclass(frozen=True)
class PairCell:
    """A head-to-head cell: the row's player's record against the column's."""

    won: int
    lost: int
    drawn: int
    matches: int
    average_margin: str

    @property
    def text(self) -> str:
        """Return the cell as printed: won–lost, and the draws if there were any."""
        drawn = f"–{self.drawn}" if self.drawn else ""
        return f"{self.won}–{self.lost}{drawn}"


@dataclass(frozen=True)
class GridRow:
    """A row of the head-to-head grid: the player, and a cell per opponent (None on the
    diagonal and for players who never met)."""

    name: str
    cells: tuple[PairCell | None, ...]


@dataclass(frozen=True)
class Pair:
    """Two players who met, the first the one ahead on wins, as the list of pairs says it."""

    first: str
    second: str
    meeting: Meeting

    @property
    def average_margin(self) -> str:
        return decimal(self.meeting.average_margin, signed=True)

    @property
    def record(self) -> str:
        """Return the first player's wins and defeats against the second, as printed."""
        return f"{self.meeting.won}–{self.meeting.lost}"


@dataclass(frozen=True)
class GameStats:
    """One game's section of the stats page."""

    variant: str
    label: Any
    matches: int
    lower_is_better: bool
    points_labels: tuple[Any, Any]
    against_note: Any
    columns: tuple[Any, ...]
    notes: tuple[Any, ...]
    # Some matches were recorded before the figures were kept: they are in none.
    figures_partial: bool
    lines: tuple[StatsLine, ...]
    grid: tuple[GridRow, ...]
    pairs: tuple[Pair, ...]
    chart: Chart | None


@dataclass(frozen=True)
class GameTab:
    """A game the circle has finished matches of: a tab of the page."""

    variant: str
    label: Any
    matches: int


@dataclass(frozen=True)
class RecordLine:
    """A player's record over every game of the circle, as the summary prints it."""

    record: Record
    name: str
    games: tuple[Any, ...]
    last_played: Any
    linked: bool

    @property
    def player_id(self) -> Any:
        return self.record.player

    @property
    def win_percent(self) -> int:
        return round(100 * self.record.won / self.record.played)


@dataclass(frozen=True)
class CircleStats:
    """A circle's stats page: its name, a tab per game it plays, the game shown (None
    before its first finished match) and every player's record over all its games;
    ``group_id`` for a group's (its players' pages are linked from it)."""

    name: str
    tabs: tuple[GameTab, ...]
    game: GameStats | None
    every_game: tuple[RecordLine, ...] = ()
    group_id: int | None = None

    @property
    def matches(self) -> int:
        return sum(tab.matches for tab in self.tabs)


def _name(players: Mapping[int, Player], key: Any) -> str:
    player = players.get(key)
    return player.name if player is not None else "?"


def _linked(players: Mapping[int, Player], key: Any, group_id: int | None) -> bool:
    player = players.get(key)
    return group_id is not None and player is not None and player.group_id == group_id


def record_lines(
    records: Sequence[Record],
    players: Mapping[int, Player],
    last: Mapping[Any, Any],
    group_id: int | None,
) -> tuple[RecordLine, ...]:
    """Return the every-game summary's lines, ``last`` giving each player's last match date."""
    return tuple(
        RecordLine(
            record=record,
            name=_name(players, record.player),
            games=tuple(game_name(GAMES[variant]) for variant in record.games),
            last_played=last.get(record.player),
            linked=_linked(players, record.player, group_id),
        )
        for record in records
    )


def _pairs(book: GameBook, players: Mapping[int, Player]) -> tuple[Pair, ...]:
    """Return each pair that met once, the one with more wins over the other first, most
    matches together first."""
    pairs = []
    for meeting in book.meetings:
        other_side = (meeting.lost, -meeting.margin, meeting.opponent)
        if (meeting.won, meeting.margin, meeting.player) > other_side:
            pairs.append(
                Pair(_name(players, meeting.player), _name(players, meeting.opponent), meeting)
            )
    return tuple(sorted(pairs, key=lambda pair: (-pair.meeting.matches, pair.first, pair.second)))


def _stats_line(
    book: GameBook,
    line: BookLine,
    players: Mapping[int, Player],
    dates: Sequence[Any],
    group_id: int | None,
) -> StatsLine:
    """Return a player's line of the game, named and with its cells printed."""
    player = players.get(line.player)
    meetings = book.meetings_of(line.player)
    return StatsLine(
        line=line,
        name=_name(players, line.player),
        retired=player is not None and player.retired_at is not None,
        cells=tuple(column.cell(line) for column in columns(GAMES[book.variant])),
        rival=_name(players, line.rival) if line.rival is not None else "",
        rival_meeting=meetings.get(line.rival),
        nemesis=_name(players, line.nemesis) if line.nemesis is not None else "",
        nemesis_meeting=meetings.get(line.nemesis),
        best=line.best,
        best_against=", ".join(
            _name(players, key) for key in (line.best.opponents if line.best else ())
        ),
        last_played=dates[line.last_played - 1] if dates else None,
        linked=_linked(players, line.player, group_id),
    )


def game_stats(
    book: GameBook,
    players: Mapping[int, Player],
    dates: Sequence[Any] = (),
    group_id: int | None = None,
) -> GameStats:
    """Return one game's section of the page from its book, players named from ``players``,
    ``dates`` the book's matches' (when each finished, in its order)."""
    game = GAMES[book.variant]
    lines = [_stats_line(book, line, players, dates, group_id) for line in book.lines]
    grid = []
    for line in book.lines:
        meetings = book.meetings_of(line.player)
        cells: list[PairCell | None] = []
        for opponent in book.players:
            meeting = meetings.get(opponent)
            cells.append(
                None
                if meeting is None
                else PairCell(
                    meeting.won,
                    meeting.lost,
                    meeting.drawn,
                    meeting.matches,
                    decimal(meeting.average_margin, signed=True),
                )
            )
        grid.append(GridRow(_name(players, line.player), tuple(cells)))
    names: Sequence[str] = [stats.name for stats in lines]
    return GameStats(
        variant=book.variant,
        label=game_name(game),
        matches=book.matches,
        lower_is_better=book.lower_is_better,
        points_labels=(points_labels(game)[0], against(game)[0]),
        against_note=against(game)[1],
        columns=tuple(column.label for column in columns(game)),
        notes=notes(game),
        figures_partial=any(line.figured < line.played for line in book.lines),
        lines=tuple(lines),
        grid=tuple(grid),
        pairs=_pairs(book, players),
        chart=wins_chart(names, book.series),
    )


def game_tabs(matches: Mapping[str, int]) -> tuple[GameTab, ...]:
    """Return a tab per game the circle finished matches of, in the engine's order."""
    return tuple(
        GameTab(variant, game_name(game), matches[variant])
        for variant, game in GAMES.items()
        if matches.get(variant)
    )


def game_shown(tabs: Sequence[GameTab], *, asked: str, usual: str) -> str | None:
    """Return the game asked for, else the circle's usual game, else the one it played most
    (the first of them in the engine's order), among those it finished matches of."""
    played = [tab.variant for tab in tabs]
    for variant in (asked, usual):
        if variant in played:
            return variant
    most = max((tab.matches for tab in tabs), default=0)
    return next((tab.variant for tab in tabs if tab.matches == most), None)


@dataclass(frozen=True)
class Opponent:
    """A player's record with one opponent: the matches together, those they placed above
    and below the opponent and level with them, and the average margin (in one game)."""

    name: str
    meeting: Meeting
    average_margin: str = ""


@dataclass(frozen=True)
class PlayerGame:
    """One game of a player's page: their line of the game's book and their opponents."""

    variant: str
    label: Any
    lower_is_better: bool
    points_labels: tuple[Any, Any]
    line: StatsLine
    opponents: tuple[Opponent, ...]
    # A game played by sides: the player's record beside each partner, most matches first.
    partners: tuple[tuple[str, Partnership], ...] = ()


@dataclass(frozen=True)
class PlayerPage:
    """A group's player's page: their record over every game of the group, with each other
    player, and game by game."""

    group_id: int
    group_name: str
    name: str
    record: RecordLine | None
    opponents: tuple[Opponent, ...]
    games: tuple[PlayerGame, ...]


def _opponents(meetings: Sequence[Meeting], players: Mapping[int, Player], *, margin: bool):
    shown = [
        Opponent(
            _name(players, meeting.opponent),
            meeting,
            decimal(meeting.average_margin, signed=True) if margin else "",
        )
        for meeting in meetings
    ]
    return tuple(sorted(shown, key=lambda row: (-row.meeting.matches, row.name)))


def player_game(
    book: GameBook, dates: Sequence[Any], player: Player, players: Mapping[int, Player]
) -> PlayerGame:
    """Return one game's part of a player's page from the game's book."""
    game = GAMES[book.variant]
    line = _stats_line(book, book.line(player.pk), players, dates, player.group_id)
    return PlayerGame(
        variant=book.variant,
        label=game_name(game),
        lower_is_better=book.lower_is_better,
        points_labels=(points_labels(game)[0], against(game)[0]),
        line=line,
        opponents=_opponents(list(book.meetings_of(player.pk).values()), players, margin=True),
        partners=tuple(
            sorted(
                (
                    (_name(players, partner), record)
                    for partner, record in book.partners_of(player.pk).items()
                ),
                key=lambda row: (-row[1].matches, row[0]),
            )
        ),
    )


def player_page(
    group_name: str,
    player: Player,
    books: Sequence[tuple[GameBook, Sequence[Any]]],
    players: Mapping[int, Player],
    last: Mapping[Any, Any],
) -> PlayerPage:
    """Return a group's player's page from the group's books of every game it plays."""
    played = [(book, dates) for book, dates in books if player.pk in book.players]
    games = [book for book, _ in played]
    records = [r for r in all_games(games) if r.player == player.pk]
    record = record_lines(records, players, last, player.group_id)
    return PlayerPage(
        group_id=player.group_id,
        group_name=group_name,
        name=player.name,
        record=record[0] if record else None,
        opponents=_opponents(meetings_over(games, player.pk), players, margin=False),
        games=tuple(player_game(book, dates, player, players) for book, dates in played),
    )
