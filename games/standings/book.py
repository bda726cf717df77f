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

from games.clubs.models import Player
from games.rules.game_words import BOOK_COLUMN_LABELS, BOOK_NOTES, game_name, points_labels
from games.standings.charts import Chart, wins_chart
from scoring.book import BestMatch, BookLine, GameBook, Meeting
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
        Column(BOOK_COLUMN_LABELS[column.name], column) for column in game.standings.book_columns
    )


def notes(game: GameRules) -> tuple[Any, ...]:
    """Return what the page says of the game's columns."""
    return tuple(BOOK_NOTES[note] for note in game.standings.book_notes)


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
class CircleStats:
    """A circle's stats page: its name, a tab per game it plays and the game shown (None
    before its first finished match)."""

    name: str
    tabs: tuple[GameTab, ...]
    game: GameStats | None

    @property
    def matches(self) -> int:
        return sum(tab.matches for tab in self.tabs)


def _name(players: Mapping[int, Player], key: Any) -> str:
    player = players.get(key)
    return player.name if player is not None else "?"


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


def game_stats(book: GameBook, players: Mapping[int, Player]) -> GameStats:
    """Return one game's section of the page from its book, players named from ``players``."""
    game = GAMES[book.variant]
    shown = columns(game)
    lines = []
    for line in book.lines:
        player = players.get(line.player)
        meetings = book.meetings_of(line.player)
        lines.append(
            StatsLine(
                line=line,
                name=_name(players, line.player),
                retired=player is not None and player.retired_at is not None,
                cells=tuple(column.cell(line) for column in shown),
                rival=_name(players, line.rival) if line.rival is not None else "",
                rival_meeting=meetings.get(line.rival),
                nemesis=_name(players, line.nemesis) if line.nemesis is not None else "",
                nemesis_meeting=meetings.get(line.nemesis),
                best=line.best,
                best_against=", ".join(
                    _name(players, key) for key in (line.best.opponents if line.best else ())
                ),
            )
        )
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
        points_labels=points_labels(game),
        columns=tuple(column.label for column in shown),
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
