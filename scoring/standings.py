"""League standings and ratings over finished matches: a projection of the tables' logs.

A finished table's replayed state becomes a ``MatchSummary`` (``match_summary``); a season's
summaries become standing rows (``standings``) and openskill ratings with their history
(``scoring.ratings.ratings_over``). Nothing here reads a clock or a database: the caller passes the
summaries, the league's tie-breakers and the order in which the matches were played.

Player keys are the caller's stable ids (ints or strings, not mixed, so that they sort);
the seats' names in a log are only what the table typed.

How each game is read (only the hands in force count: voided hands are skipped, amended
ones count as amended, and hands recorded after the one that ended the match are left out):

- Gin (GIN-*): a hand is won by the seat that scored in it (a wall or a tie without
  undercut scores nobody, and a wall is not a hand played: GIN-WALL voids it). Points for:
  what the seat scored; against: what its opponent scored. Counts: ``knocks`` (hands ended
  by the seat's knock, undercut or not), ``gins``, ``big_gins``, ``undercuts`` (knocks the
  seat undercut as the defender).
- Rummy40 (R40-*): penalty points, lower is better. A hand is won by the player who went
  out (a stock ending has no winner). Points for: the penalty points the seat took, end of
  hand and failed openings; against: what its opponents took, per opponent (their mean).
  Counts: ``went_out``, ``opening_penalties`` (failed openings, 20 points each).
- Ramino (RAM-*): a hand is won by the player who went out. Points for: the points the seat
  gained (hands it won, doubled by a closure, casino melds included); against: the points it
  lost (at a stock ending every seat loses and nobody gains). For minus against is the
  seat's total.
  Counts: ``went_out``, ``hand_closures`` (RAM-HANDCLOSE, read from the doubling items of
  the hand; a closure that doubled nothing leaves no trace and is not counted).
- Knock Rummy (KR-*): a round is won by each of its winners (KR-SCORE, KR-UNDERCUT,
  KR-STOCK). Points for: the seat's final total, the end-of-game bonuses (KR-MATCH)
  included; against: its opponents' final totals, per opponent (their mean). Counts:
  ``knocks``, ``undercut_bonuses``, ``out_bonuses``.

Each seat also carries the game's book figures (``StandingsReading.figures``, read by the
players' book, scoring/book.py, and not by the standings), summed over the same hands:
Gin ``undercuts_taken``, ``caught`` and ``deadwood_caught``; Rummy40 and Ramino
``opened`` of ``opened_known`` and ``points_left`` of ``hands_left``; Knock Rummy
``knocks_won`` and ``knocks_lost``. A summary stored before them reads back without any.

"Against" is the opponents' mean rather than their sum because a league mixes tables of
two, three and four players: summed, a four-player table would weigh three times on a
player's difference. With the mean, every table's points for and against balance (Gin,
Rummy40, Knock Rummy), so a season's differences sum to zero; they are exact fractions.
Ramino reads "against" as the points lost instead, its own terms: gains and losses.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from scoring.replay import TableState
from scoring.variants import GAMES

PlayerKey = Hashable

WON = "won"
LOST = "lost"

HEAD_TO_HEAD = "head_to_head"
POINTS_DIFFERENCE = "points_difference"
HANDS_WON = "hands_won"
RATING = "rating"
TIEBREAKERS: tuple[str, ...] = (HEAD_TO_HEAD, POINTS_DIFFERENCE, HANDS_WON, RATING)

# The registry is read on each call, never once at import: a game registered late (the tests'
# stub game) is read like the others.


def counts_of(variant: str) -> tuple[str, ...]:
    """Return the game's own counts, in the order the page shows them."""
    return GAMES[variant].standings.counts


def figures_of(variant: str) -> tuple[str, ...]:
    """Return the players' book's figures of the game (scoring/book.py), in page order."""
    return GAMES[variant].standings.figures


def lower_is_better(variant: str) -> bool:
    """Tell whether the game scores penalties: the lowest total wins, a lower difference is
    better."""
    return GAMES[variant].standings.lower_is_better


def _number(value: Fraction) -> int | float:
    """Return a JSON number: exact when whole, else rounded to two decimals for the page."""
    return value.numerator if value.denominator == 1 else round(float(value), 2)


# Match summaries -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """Hold one seat's part of a finished match: who sat there and how they fared.

    ``place`` is 1 for the best total, shared on equal totals (1, 1, 3); ``outcome`` is
    "won" for every seat the match result names a winner (a shared win is a win for each)
    and "lost" for the others. ``figures`` are the game's book figures (empty in a summary
    stored before they were).
    """

    seat: int
    player: PlayerKey
    place: int
    outcome: str
    hands_won: int
    points_for: Fraction
    points_against: Fraction
    counts: tuple[tuple[str, int], ...]
    figures: tuple[tuple[str, int], ...] = ()

    @property
    def won(self) -> bool:
        """Tell whether the seat won (or shared the win of) the match."""
        return self.outcome == WON

    def count(self, name: str) -> int:
        """Return one game-specific count by name."""
        return dict(self.counts)[name]

    def to_dict(self) -> dict[str, Any]:
        """Return the seat ready for JSON."""
        return {
            "seat": self.seat,
            "player": self.player,
            "place": self.place,
            "outcome": self.outcome,
            "hands_won": self.hands_won,
            "points_for": _number(self.points_for),
            "points_against": _number(self.points_against),
            "counts": dict(self.counts),
            "figures": dict(self.figures),
        }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """Hold what standings and ratings need of one finished match, seats in seat order.

    ``hands`` counts the hands played and in force (a Gin wall is not a hand played).
    ``practice`` marks a practice table (RAM-OPT-PRACTICE): standings and ratings skip it.
    """

    variant: str
    seats: tuple[SeatSummary, ...]
    hands: int
    totals: tuple[int, ...]
    match_id: Hashable | None = None
    practice: bool = False

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        """Return the players in seat order."""
        return tuple(seat.player for seat in self.seats)

    @property
    def winners(self) -> tuple[PlayerKey, ...]:
        """Return the players who won the match, several on a shared win."""
        return tuple(seat.player for seat in self.seats if seat.won)

    def to_record(self) -> dict[str, Any]:
        """Return the summary as exact JSON for storage: fractions as "n/d" strings.

        ``to_dict`` rounds for the page; a stored summary must read back unchanged, so a
        season recomputed from stored summaries equals one recomputed from the logs.
        """
        return {
            **self._match_fields(),
            "seats": [
                {
                    "seat": seat.seat,
                    "player": seat.player,
                    "place": seat.place,
                    "outcome": seat.outcome,
                    "hands_won": seat.hands_won,
                    "points_for": str(seat.points_for),
                    "points_against": str(seat.points_against),
                    "counts": [list(pair) for pair in seat.counts],
                    "figures": [list(pair) for pair in seat.figures],
                }
                for seat in self.seats
            ],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> MatchSummary:
        """Return the summary ``to_record`` stored."""
        return cls(
            variant=record["variant"],
            match_id=record["match_id"],
            practice=record["practice"],
            hands=record["hands"],
            totals=tuple(record["totals"]),
            seats=tuple(
                SeatSummary(
                    seat=seat["seat"],
                    player=seat["player"],
                    place=seat["place"],
                    outcome=seat["outcome"],
                    hands_won=seat["hands_won"],
                    points_for=_fraction(seat["points_for"]),
                    points_against=_fraction(seat["points_against"]),
                    counts=tuple(map(tuple, seat["counts"])),
                    figures=tuple(map(tuple, seat.get("figures", ()))),
                )
                for seat in record["seats"]
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the summary ready for JSON."""
        return {
            **self._match_fields(),
            "winners": list(self.winners),
            "seats": [seat.to_dict() for seat in self.seats],
        }

    def _match_fields(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "match_id": self.match_id,
            "practice": self.practice,
            "hands": self.hands,
            "totals": list(self.totals),
        }


def _fraction(text: str) -> Fraction:
    """Read back a stored "n/d" or "n": as Fraction(text), without its regular expression
    (a circle's stats read hundreds of summaries at once)."""
    numerator, _, denominator = text.partition("/")
    return Fraction(int(numerator), int(denominator) if denominator else 1)


def places_of(totals: Sequence[int], *, lower_is_better: bool) -> list[int]:
    """Return each seat's place: 1 plus the number of seats with a strictly better total."""
    sign = -1 if lower_is_better else 1
    return [1 + sum(sign * other > sign * mine for other in totals) for mine in totals]


def match_summary(
    state: TableState, players: Sequence[PlayerKey], *, match_id: Hashable | None = None
) -> MatchSummary:
    """Return the summary of a finished table, ``players`` naming each seat's player.

    ``match_id`` (the table's id) travels with the summary so that a rating's history can
    say which match moved it. An unfinished table, or players that do not match the seats
    one for one, are a caller's bug: ValueError.
    """
    game = state.variant
    variant = game.key
    reading = game.standings
    if len(players) != len(state.seats) or len(set(players)) != len(players):
        raise ValueError(f"{len(state.seats)} different players are needed, one a seat")
    match = state.match
    if not match.finished:
        raise ValueError("the match is not finished")
    # Gin lets an amendment end the match at an earlier hand than the last one recorded;
    # the match result then stops there, and so do the hands read here.
    results = [result for result in state.counted[: match.hands] if reading.hand_played(result)]
    # A game whose places do not follow its totals gives them (S40-MATCH: who went out last).
    places = list(match.places) or places_of(match.totals, lower_is_better=reading.lower_is_better)
    hand_winners = [reading.hand_winners(result) for result in results]
    seats = []
    for seat, player in enumerate(players):
        counts: Counter[str] = Counter()
        figures: Counter[str] = Counter()
        for result in results:
            counts.update(reading.hand_counts(result, seat))
            figures.update(reading.hand_figures(state.options, result, seat))
        points_for, points_against = reading.points(match.totals, results, seat)
        seats.append(
            SeatSummary(
                seat=seat,
                player=player,
                place=places[seat],
                outcome=WON if seat in match.winners else LOST,
                hands_won=sum(seat in winners for winners in hand_winners),
                points_for=points_for,
                points_against=points_against,
                counts=tuple((name, counts[name]) for name in reading.counts),
                figures=tuple((name, figures[name]) for name in reading.figures),
            )
        )
    return MatchSummary(
        variant=variant,
        seats=tuple(seats),
        hands=len(results),
        totals=tuple(match.totals),
        match_id=match_id,
        practice=not getattr(state.options, "counts_in_standings", True),
    )


def counted_matches(summaries: Iterable[MatchSummary]) -> list[MatchSummary]:
    """Return the summaries that count for a league, refusing a mix of games or repeats."""
    counted = [summary for summary in summaries if not summary.practice]
    variants = {summary.variant for summary in counted}
    if len(variants) > 1:
        raise ValueError(f"a league plays one game, not {sorted(variants)}")
    ids = [summary.match_id for summary in counted if summary.match_id is not None]
    if len(set(ids)) != len(ids):
        raise ValueError("a match is counted twice")
    return counted


# Standings -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingRow:
    """Hold one player's line of the standings.

    ``rank`` is shared by players still tied after every tie-breaker (1, 2, 2, 4).
    ``tiebreak`` names the tie-breaker that placed this row above the next one; None when
    the record did (or nothing did: a shared rank, or the last row). ``rating`` is the
    conservative rating given to ``standings``, None without one. ``points_difference`` is
    for minus against: higher is better, except in games scored in penalties
    (``lower_is_better``).
    """

    rank: int
    player: PlayerKey
    played: int
    won: int
    lost: int
    hands_played: int
    hands_won: int
    points_for: Fraction
    points_against: Fraction
    counts: tuple[tuple[str, int], ...]
    rating: float | None = None
    tiebreak: str | None = None

    @property
    def points_difference(self) -> Fraction:
        """Return points for minus points against."""
        return self.points_for - self.points_against

    @property
    def average_for(self) -> Fraction:
        """Return the points for per match played."""
        return self.points_for / self.played

    @property
    def average_against(self) -> Fraction:
        """Return the points against per match played."""
        return self.points_against / self.played

    @property
    def win_rate(self) -> Fraction:
        """Return the share of matches won."""
        return Fraction(self.won, self.played)

    def count(self, name: str) -> int:
        """Return one game-specific count by name."""
        return dict(self.counts)[name]

    def to_dict(self) -> dict[str, Any]:
        """Return the row ready for JSON."""
        return {
            "rank": self.rank,
            "player": self.player,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "hands_played": self.hands_played,
            "hands_won": self.hands_won,
            "points_for": _number(self.points_for),
            "points_against": _number(self.points_against),
            "points_difference": _number(self.points_difference),
            "average_for": _number(self.average_for),
            "average_against": _number(self.average_against),
            "win_rate": _number(self.win_rate),
            "counts": dict(self.counts),
            "rating": self.rating,
            "tiebreak": self.tiebreak,
        }


def _tally(summaries: Sequence[MatchSummary]) -> dict[PlayerKey, StandingRow]:
    """Return each player's row with every sum filled in and no rank yet."""
    played: dict[PlayerKey, list[tuple[MatchSummary, SeatSummary]]] = defaultdict(list)
    for summary in summaries:
        for seat in summary.seats:
            played[seat.player].append((summary, seat))
    rows = {}
    for player, matches in played.items():
        seats = [seat for _, seat in matches]
        counts: Counter[str] = Counter()
        for seat in seats:
            counts.update(dict(seat.counts))
        rows[player] = StandingRow(
            rank=0,
            player=player,
            played=len(seats),
            won=sum(seat.won for seat in seats),
            lost=sum(not seat.won for seat in seats),
            hands_played=sum(summary.hands for summary, _ in matches),
            hands_won=sum(seat.hands_won for seat in seats),
            points_for=sum((seat.points_for for seat in seats), Fraction(0)),
            points_against=sum((seat.points_against for seat in seats), Fraction(0)),
            counts=tuple((name, counts[name]) for name in counts_of(matches[0][0].variant)),
        )
    return rows


def _head_to_head(
    group: Sequence[PlayerKey], summaries: Sequence[MatchSummary]
) -> Counter[PlayerKey]:
    """Return each tied player's wins minus losses against the other tied players.

    Only the matches where two or more of them sat count, and in each only their places
    among themselves: every pair of them placed apart gives the better one +1 and the
    other -1. A four-player table thus counts as the three duels it holds.
    """
    tied = set(group)
    net: Counter[PlayerKey] = Counter()
    for summary in summaries:
        present = [seat for seat in summary.seats if seat.player in tied]
        for a, b in itertools.combinations(present, 2):
            if a.place != b.place:
                better, worse = (a, b) if a.place < b.place else (b, a)
                net[better.player] += 1
                net[worse.player] -= 1
    return net


def _tiebreak_keys(
    name: str,
    group: Sequence[PlayerKey],
    rows: Mapping[PlayerKey, StandingRow],
    summaries: Sequence[MatchSummary],
    lower_is_better: bool,
) -> dict[PlayerKey, Any]:
    """Return each tied player's value under one tie-breaker, higher placing first."""
    if name == HEAD_TO_HEAD:
        net = _head_to_head(group, summaries)
        return {player: net[player] for player in group}
    if name == POINTS_DIFFERENCE:
        sign = -1 if lower_is_better else 1
        return {player: sign * rows[player].points_difference for player in group}
    if name == HANDS_WON:
        return {player: rows[player].hands_won for player in group}
    # A player without a rating places below every rated one.
    return {
        player: -math.inf if rows[player].rating is None else rows[player].rating
        for player in group
    }


_Block = tuple[list[PlayerKey], str | None]


def _break_ties(
    group: list[PlayerKey],
    breakers: Sequence[str],
    rows: Mapping[PlayerKey, StandingRow],
    summaries: Sequence[MatchSummary],
    lower_is_better: bool,
) -> list[_Block]:
    """Split players of equal record into blocks of players still tied, best first.

    Each block comes with the tie-breaker that placed it above the next block (None for
    the last one, which the caller's next record or the end of the table follows).

    Tie-breakers apply in the league's order; each one is applied once, to exactly the
    players still tied when their turn comes (so head to head looks only at their own
    meetings), and the players it leaves tied go on to the next one.
    """
    if len(group) == 1 or not breakers:
        return [(sorted(group), None)]
    name, rest = breakers[0], breakers[1:]
    keys = _tiebreak_keys(name, group, rows, summaries, lower_is_better)
    values = sorted(set(keys.values()), reverse=True)
    if len(values) == 1:
        return _break_ties(group, rest, rows, summaries, lower_is_better)
    blocks: list[_Block] = []
    for value in values:
        part = [player for player in group if keys[player] == value]
        sub = _break_ties(part, rest, rows, summaries, lower_is_better)
        sub[-1] = (sub[-1][0], name)
        blocks += sub
    blocks[-1] = (blocks[-1][0], None)
    return blocks


def _check_tiebreakers(tiebreakers: Sequence[str], ratings: object) -> None:
    unknown = [name for name in tiebreakers if name not in TIEBREAKERS]
    if unknown or len(set(tiebreakers)) != len(tiebreakers):
        raise ValueError(
            f"tie-breakers are distinct names among {', '.join(TIEBREAKERS)}, "
            f"not {list(tiebreakers)}"
        )
    if RATING in tiebreakers and ratings is None:
        raise ValueError("the rating tie-breaker needs the ratings")


def standings(
    summaries: Iterable[MatchSummary],
    tiebreakers: Sequence[str] = (),
    ratings: Mapping[PlayerKey, float] | None = None,
) -> tuple[StandingRow, ...]:
    """Return the league's standings, best first.

    The order is the record: more matches won first, and with as many wins, fewer lost
    (the same wins from fewer matches). A win count alone would rank 3 wins in 3 matches
    level with 3 in 8; a win rate would put one lucky match on top. Players of equal
    record are ordered by ``tiebreakers`` (names from TIEBREAKERS) in order, each applied
    to the players still tied when its turn comes; players still tied after the last
    share the rank and are listed by player key. ``ratings`` maps players to
    their conservative rating (``RatingHistory.conservative()``), shown in the rows and
    used by the "rating" tie-breaker. Practice tables are skipped; the summaries must be
    of one game. Their order does not matter.
    """
    _check_tiebreakers(tiebreakers, ratings)
    counted = counted_matches(summaries)
    if not counted:
        return ()
    lower = lower_is_better(counted[0].variant)
    rows = {
        player: replace(row, rating=None if ratings is None else ratings.get(player))
        for player, row in _tally(counted).items()
    }

    def record(player: PlayerKey) -> tuple[int, int]:
        return -rows[player].won, rows[player].lost

    ordered: list[StandingRow] = []
    for _, same in itertools.groupby(sorted(rows, key=record), key=record):
        blocks = _break_ties(list(same), tiebreakers, rows, counted, lower)
        for players, tiebreak in blocks:
            rank = len(ordered) + 1
            for index, player in enumerate(players):
                last = index == len(players) - 1
                ordered.append(
                    replace(rows[player], rank=rank, tiebreak=tiebreak if last else None)
                )
    return tuple(ordered)
