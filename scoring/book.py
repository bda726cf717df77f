"""The players' book: every player's record in every game a circle plays (a group of
friends, a club), their meetings with each opponent, and their wins over time.

A projection like the standings, over the same finished matches (``MatchSummary``, read
from the logs by scoring/standings.py), but for people who play week after week rather than
for a league's season: every game they play, every player who sat, no tie-breakers. The
caller passes the summaries in the order the matches finished; nothing here reads a clock
or a database. Practice tables are skipped, as the standings skip them.

What the figures mean (the stats page says it in its own words):

- **Won**: every seat the match result names a winner, a shared win a win for each (as in
  the standings). **Drawn**: the wins that were shared (several winners: a tie for the
  best total), so the record reads won alone, drawn and lost, adding up to the matches
  played. **Last played**: the number of the game's last match the player sat in.
  **Average for**: the points for per match played. Hands won, points for and against and
  the game's counts are the standings' (scoring/standings.py); the game's book figures are
  summed the same way.
- **Head to head**: in a match where two players sat, the one placed better beat the other
  and equal places are a draw, so a four-player table is six duels (as the league's
  head-to-head tie-breaker reads it). The **margin** is the difference of their final
  totals (end-of-match bonuses included) from the player's side: positive when ahead, in
  every game (Rummy40's penalty points count the other way round). The average margin is
  over the matches they met in, draws included.
- **Best match**: the player's won match with the largest margin over the best of the
  other seats (a shared win's margin is 0); on equal margins the earlier match, which set
  the mark.
- **Longest winning streak**: the most matches of the game the player won in a row, in
  the order they finished; matches the player did not sit in do not break it. ``streak``
  is the run still going after the last match (0 after a defeat).
- **Rival**: the opponent met in the most matches; on a tie the one met most recently,
  then the smallest player key (two opponents met last at the same table; the page reads
  it as the player added first, the keys being the players' ids).
- **Nemesis**: the opponent who beat the player most often, none if nobody ever did; on a
  tie the one the player beat least often, then the one who beat them most recently, then
  the smallest player key.
- **Series**: each player's matches won so far, after each match of the game.
- **Every game**: ``all_games`` adds a player's record up over the books of every game
  (points are left out: each game counts its own), and their meetings with each opponent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.standings import (
    MatchSummary,
    PlayerKey,
    SeatSummary,
    counts_of,
    figures_of,
    lower_is_better,
)
from scoring.variants import GAMES


class _Outcomes:
    """What a record's counts of matches played, won (a shared win too) and drawn (a
    shared win) say of the matches lost and won alone."""

    __slots__ = ()
    played: int
    won: int
    drawn: int

    @property
    def lost(self) -> int:
        """Return the matches the player did not win."""
        return self.played - self.won

    @property
    def won_alone(self) -> int:
        """Return the matches the player won with nobody sharing the win."""
        return self.won - self.drawn


@dataclass(frozen=True, slots=True)
class Meeting:
    """Hold a player's record against one opponent in one game.

    ``margin`` sums the player's margins over the opponent (``average_margin`` per match);
    ``last_met`` and ``last_lost`` are the numbers of the game's last match they met in and
    of the last one the opponent won between them (0: never).
    """

    player: PlayerKey
    opponent: PlayerKey
    matches: int
    won: int
    lost: int
    margin: Fraction
    last_met: int
    last_lost: int

    @property
    def drawn(self) -> int:
        """Return the matches they shared a place in."""
        return self.matches - self.won - self.lost

    @property
    def average_margin(self) -> Fraction:
        """Return the player's mean margin over the opponent per match they met in."""
        return self.margin / self.matches


@dataclass(frozen=True, slots=True)
class Partnership:
    """Hold a player's record beside one partner in a game played by sides (Burraco's pairs):
    the matches they played together and those their side won."""

    player: PlayerKey
    partner: PlayerKey
    matches: int
    won: int

    @property
    def lost(self) -> int:
        """Return the matches their side lost."""
        return self.matches - self.won


@dataclass(frozen=True, slots=True)
class BestMatch:
    """Hold a player's best won match: which one, its number in the game, the margin."""

    match_id: Hashable | None
    number: int
    margin: Fraction
    opponents: tuple[PlayerKey, ...]


@dataclass(frozen=True, slots=True)
class BookLine(_Outcomes):
    """Hold one player's line of a game's book.

    ``figured`` counts the matches whose summary carries the game's figures (a summary
    stored before figures existed carries none, so its hands are in no figure).
    """

    player: PlayerKey
    played: int
    won: int
    drawn: int
    last_played: int
    hands_played: int
    hands_won: int
    points_for: Fraction
    points_against: Fraction
    counts: tuple[tuple[str, int], ...]
    figures: tuple[tuple[str, int], ...]
    figured: int
    longest_streak: int
    streak: int
    best: BestMatch | None
    rival: PlayerKey | None
    nemesis: PlayerKey | None

    @property
    def win_rate(self) -> Fraction:
        """Return the share of matches won."""
        return Fraction(self.won, self.played)

    @property
    def average_for(self) -> Fraction:
        """Return the points for per match played."""
        return self.points_for / self.played

    def count(self, name: str) -> int:
        """Return one of the standings' counts by name."""
        return dict(self.counts)[name]

    def figure(self, name: str) -> int:
        """Return one of the game's book figures by name."""
        return dict(self.figures)[name]


@dataclass(frozen=True, slots=True)
class GameBook:
    """Hold one game's book: its lines, best record first, and every meeting.

    Lines are ordered as the standings' record is: more matches won, then fewer lost, then
    by player key. ``meetings`` holds both sides of every pair that met, by player then
    opponent. ``series`` has one entry per match, in the order they finished: each line's
    player's matches won so far, in the order of ``lines``.
    """

    variant: str
    matches: int
    lines: tuple[BookLine, ...]
    meetings: tuple[Meeting, ...]
    series: tuple[tuple[int, ...], ...]
    # A game played by sides: every player's record with each partner, by player then
    # partner (none where every seat plays alone).
    partnerships: tuple[Partnership, ...] = ()

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        """Return the players in the order of the lines."""
        return tuple(line.player for line in self.lines)

    @property
    def lower_is_better(self) -> bool:
        """Tell whether the game is scored in penalty points."""
        return lower_is_better(self.variant)

    def line(self, player: PlayerKey) -> BookLine:
        """Return one player's line; KeyError if they never played the game."""
        for line in self.lines:
            if line.player == player:
                return line
        raise KeyError(player)

    def meetings_of(self, player: PlayerKey) -> dict[PlayerKey, Meeting]:
        """Return the player's meetings by opponent."""
        return {m.opponent: m for m in self.meetings if m.player == player}

    def partners_of(self, player: PlayerKey) -> dict[PlayerKey, Partnership]:
        """Return the player's records beside each partner, by partner."""
        return {p.partner: p for p in self.partnerships if p.player == player}


# The tallies are filled match by match, then frozen into the lines above. Points are summed
# as ints while they are whole (nearly always: only a table of three seats makes a third), as
# a page reads hundreds of matches and a Fraction's sum costs ten times an int's.


def _plus(total: int | Fraction, value: Fraction) -> int | Fraction:
    return total + (value.numerator if value.denominator == 1 else value)


@dataclass(slots=True)
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    last_played: int = 0
    hands_played: int = 0
    hands_won: int = 0
    points_for: int | Fraction = 0
    points_against: int | Fraction = 0
    counts: Counter[str] = field(default_factory=Counter)
    figures: Counter[str] = field(default_factory=Counter)
    figured: int = 0
    longest_streak: int = 0
    streak: int = 0
    best: BestMatch | None = None


@dataclass(slots=True)
class _Pair:
    matches: int = 0
    won: int = 0
    lost: int = 0
    margin: int = 0
    last_met: int = 0
    last_lost: int = 0


def _margin(sign: int, summary: MatchSummary, mine: SeatSummary, other: SeatSummary) -> int:
    return sign * (summary.totals[mine.seat] - summary.totals[other.seat])


def _add_seat(
    tally: _Tally,
    summary: MatchSummary,
    seat: SeatSummary,
    number: int,
    sign: int,
    side: Mapping[int, int],
) -> None:
    tally.played += 1
    tally.last_played = number
    tally.hands_played += summary.hands
    tally.hands_won += seat.hands_won
    tally.points_for = _plus(tally.points_for, seat.points_for)
    tally.points_against = _plus(tally.points_against, seat.points_against)
    for name, value in seat.counts:
        tally.counts[name] += value
    if seat.figures:
        tally.figured += 1
        for name, value in seat.figures:
            tally.figures[name] += value
    if not seat.won:
        tally.streak = 0
        return
    tally.won += 1
    # A win shared by several sides is drawn; partners winning together is one side's win.
    tally.drawn += len({side[other.seat] for other in summary.seats if other.won}) > 1
    tally.streak += 1
    tally.longest_streak = max(tally.longest_streak, tally.streak)
    others = [other for other in summary.seats if side[other.seat] != side[seat.seat]]
    margin = Fraction(min(_margin(sign, summary, seat, other) for other in others))
    if tally.best is None or margin > tally.best.margin:
        opponents = tuple(other.player for other in others)
        tally.best = BestMatch(summary.match_id, number, margin, opponents)


def _add_pair(
    pair: _Pair,
    summary: MatchSummary,
    mine: SeatSummary,
    other: SeatSummary,
    number: int,
    sign: int,
) -> None:
    pair.matches += 1
    pair.last_met = number
    pair.margin += _margin(sign, summary, mine, other)
    if mine.place < other.place:
        pair.won += 1
    elif other.place < mine.place:
        pair.lost += 1
        pair.last_lost = number


def _rival(meetings: Sequence[Meeting]) -> PlayerKey | None:
    if not meetings:
        return None
    most = max(m.matches for m in meetings)
    tied = [m for m in meetings if m.matches == most]
    latest = max(m.last_met for m in tied)
    return min(m.opponent for m in tied if m.last_met == latest)


def _nemesis(meetings: Sequence[Meeting]) -> PlayerKey | None:
    beaten_by = [m for m in meetings if m.lost]
    if not beaten_by:
        return None
    most = max(m.lost for m in beaten_by)
    tied = [m for m in beaten_by if m.lost == most]
    least_won = min(m.won for m in tied)
    tied = [m for m in tied if m.won == least_won]
    latest = max(m.last_lost for m in tied)
    return min(m.opponent for m in tied if m.last_lost == latest)


def _book_line(
    player: PlayerKey,
    t: _Tally,
    counts: Sequence[str],
    figures: Sequence[str],
    meetings: list[Meeting],
) -> BookLine:
    """Return a player's line of the book from their tally and their meetings."""
    return BookLine(
        player=player,
        played=t.played,
        won=t.won,
        drawn=t.drawn,
        last_played=t.last_played,
        hands_played=t.hands_played,
        hands_won=t.hands_won,
        points_for=Fraction(t.points_for),
        points_against=Fraction(t.points_against),
        counts=tuple((name, t.counts[name]) for name in counts),
        figures=tuple((name, t.figures[name]) for name in figures),
        figured=t.figured,
        longest_streak=t.longest_streak,
        streak=t.streak,
        best=t.best,
        rival=_rival(meetings),
        nemesis=_nemesis(meetings),
    )


def game_book(variant: str, summaries: Iterable[MatchSummary]) -> GameBook:
    """Return one game's book from its finished matches, in the order they finished.

    Summaries of another game are a caller's bug (ValueError); practice ones are skipped.
    """
    sign = -1 if lower_is_better(variant) else 1
    tallies: dict[PlayerKey, _Tally] = {}
    pairs: dict[tuple[PlayerKey, PlayerKey], _Pair] = {}
    wins_after: list[Mapping[PlayerKey, int]] = []
    wins: Counter[PlayerKey] = Counter()
    partners: dict[tuple[PlayerKey, PlayerKey], list[int]] = {}
    number = 0
    for summary in summaries:
        if summary.variant != variant:
            raise ValueError(f"a {summary.variant} match in the {variant} book")
        if summary.practice:
            continue
        number += 1
        side = _sides(variant, len(summary.seats))
        for seat in summary.seats:
            tally = tallies.setdefault(seat.player, _Tally())
            _add_seat(tally, summary, seat, number, sign, side)
            wins[seat.player] += seat.won
            _add_others(pairs, partners, summary, seat, number, sign, side)
        wins_after.append(dict(wins))
    meetings = tuple(
        Meeting(
            player, opponent, p.matches, p.won, p.lost, Fraction(p.margin), p.last_met, p.last_lost
        )
        for (player, opponent), p in sorted(pairs.items())
    )
    by_player: dict[PlayerKey, list[Meeting]] = {}
    for meeting in meetings:
        by_player.setdefault(meeting.player, []).append(meeting)
    counts, figures = counts_of(variant), figures_of(variant)
    lines = sorted(
        (
            _book_line(player, t, counts, figures, by_player.get(player, []))
            for player, t in tallies.items()
        ),
        key=lambda line: (-line.won, line.lost, line.player),
    )
    order = [line.player for line in lines]
    return GameBook(
        variant=variant,
        matches=number,
        lines=tuple(lines),
        meetings=meetings,
        series=tuple(tuple(after.get(player, 0) for player in order) for after in wins_after),
        partnerships=tuple(
            Partnership(player, partner, matches, won)
            for (player, partner), (matches, won) in sorted(partners.items())
        ),
    )


def _add_others(
    pairs: dict[tuple[PlayerKey, PlayerKey], _Pair],
    partners: dict[tuple[PlayerKey, PlayerKey], list[int]],
    summary: MatchSummary,
    seat: SeatSummary,
    number: int,
    sign: int,
    side: Mapping[int, int],
) -> None:
    """Count the seat's match against each opponent, and beside each partner."""
    for other in summary.seats:
        if other is seat:
            continue
        if side[other.seat] == side[seat.seat]:
            record = partners.setdefault((seat.player, other.player), [0, 0])
            record[0], record[1] = record[0] + 1, record[1] + seat.won
            continue
        pair = pairs.setdefault((seat.player, other.player), _Pair())
        _add_pair(pair, summary, seat, other, number, sign)


def _sides(variant: str, seats: int) -> dict[int, int]:
    """Return each seat's side: its own where every seat plays alone, else its partners'."""
    return {seat: side for side, team in enumerate(GAMES[variant].teams(seats)) for seat in team}


def book(summaries: Iterable[MatchSummary]) -> tuple[GameBook, ...]:
    """Return the book of every game among the finished matches (in the order they
    finished), one per game played, in the order the engine lists the games."""
    by_game: dict[str, list[MatchSummary]] = {}
    for summary in summaries:
        if not summary.practice:
            by_game.setdefault(summary.variant, []).append(summary)
    return tuple(game_book(variant, by_game[variant]) for variant in GAMES if variant in by_game)


@dataclass(frozen=True, slots=True)
class Record(_Outcomes):
    """Hold a player's record over every game of a circle: the games they played (in the
    engine's order), the matches played, won (a shared win too) and drawn (shared)."""

    player: PlayerKey
    games: tuple[str, ...]
    played: int
    won: int
    drawn: int


def all_games(books: Iterable[GameBook]) -> tuple[Record, ...]:
    """Return each player's record over the books of every game, ordered as a book's lines
    (more matches won, then fewer lost, then by player key)."""
    records: dict[PlayerKey, Record] = {}
    for game in books:
        for line in game.lines:
            was = records.get(line.player, Record(line.player, (), 0, 0, 0))
            records[line.player] = Record(
                line.player,
                (*was.games, game.variant),
                was.played + line.played,
                was.won + line.won,
                was.drawn + line.drawn,
            )
    return tuple(sorted(records.values(), key=lambda r: (-r.won, r.lost, r.player)))


def meetings_over(books: Iterable[GameBook], player: PlayerKey) -> tuple[Meeting, ...]:
    """Return the player's meetings with each opponent over every game, most matches
    together first, then by opponent key; margins are left at 0 (each game counts its own
    points) and the numbers of matches at 0 (each game numbers its own)."""
    pairs: dict[PlayerKey, _Pair] = {}
    for game in books:
        for opponent, meeting in game.meetings_of(player).items():
            pair = pairs.setdefault(opponent, _Pair())
            pair.matches += meeting.matches
            pair.won += meeting.won
            pair.lost += meeting.lost
    ordered = sorted(pairs.items(), key=lambda item: (-item[1].matches, item[0]))
    return tuple(
        Meeting(player, opponent, p.matches, p.won, p.lost, Fraction(0), 0, 0)
        for opponent, p in ordered
    )
