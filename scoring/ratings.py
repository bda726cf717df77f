"""League ratings over finished matches: openskill (PlackettLuce), one team per player.

A projection of the tables' logs like the standings (scoring/standings.py reads the matches);
nothing here reads a clock or a database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from scoring.standings import MatchSummary, PlayerKey, counted_matches


@dataclass(frozen=True, slots=True)
class Rating:
    """Hold an openskill rating: mean, deviation, and the conservative value to show."""

    mu: float
    sigma: float
    conservative: float

    def to_dict(self) -> dict[str, float]:
        """Return the rating ready for JSON."""
        return {"mu": self.mu, "sigma": self.sigma, "conservative": self.conservative}


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """Hold a player's rating after one match: the chart's point."""

    index: int  # the match's position in the order the ratings were computed, from 0
    match_id: Hashable | None
    place: int
    rating: Rating

    def to_dict(self) -> dict[str, Any]:
        """Return the point ready for JSON."""
        return {
            "index": self.index,
            "match_id": self.match_id,
            "place": self.place,
            **self.rating.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class PlayerRatings:
    """Hold a player's current rating and its value after each match they played."""

    player: PlayerKey
    current: Rating
    history: tuple[RatingPoint, ...]

    def to_dict(self) -> dict[str, Any]:
        """Return the player's ratings ready for JSON."""
        return {
            "player": self.player,
            **self.current.to_dict(),
            "history": [point.to_dict() for point in self.history],
        }


@dataclass(frozen=True, slots=True)
class RatingHistory:
    """Hold a league's ratings: every player's, listed by player key, and the prior."""

    initial: Rating
    players: tuple[PlayerRatings, ...]

    def get(self, player: PlayerKey) -> PlayerRatings | None:
        """Return one player's ratings, or None if they played no rated match."""
        return next((entry for entry in self.players if entry.player == player), None)

    def conservative(self) -> dict[PlayerKey, float]:
        """Return each player's conservative rating, as ``standings`` takes them."""
        return {entry.player: entry.current.conservative for entry in self.players}

    def to_dict(self) -> dict[str, Any]:
        """Return the ratings ready for JSON."""
        return {
            "initial": self.initial.to_dict(),
            "players": [entry.to_dict() for entry in self.players],
        }


def _rating(openskill_rating: Any) -> Rating:
    # ordinal() is the package's conservative value: mu - 3 sigma with its defaults.
    return Rating(
        mu=openskill_rating.mu,
        sigma=openskill_rating.sigma,
        conservative=openskill_rating.ordinal(),
    )


def ratings_over(summaries: Iterable[MatchSummary]) -> RatingHistory:
    """Return the ratings after the matches, rated one by one in the order given.

    The order is the caller's (finish time, then table id): no clock here, and the order
    changes the result, as it should. Each match is one openskill PlackettLuce game (the
    package's default model and parameters) with every player a team of one, ranked by
    their place in the match, so equal places share a rank. The first match of a player
    starts from the model's prior (mu 25, sigma 25/3). openskill stamps each rating object
    with a random id; it is never read, so the result is a function of the inputs alone.
    Practice tables are skipped; the summaries must be of one game (NIGHT-RATING states
    the parameters for the players).
    """
    model = PlackettLuce()
    current: dict[PlayerKey, Any] = {}
    history: dict[PlayerKey, list[RatingPoint]] = defaultdict(list)
    for index, summary in enumerate(counted_matches(summaries)):
        teams = [
            [current[player] if player in current else model.rating()] for player in summary.players
        ]
        places = [seat.place for seat in summary.seats]
        rated = model.rate(teams, ranks=places)
        for seat, (after,) in zip(summary.seats, rated, strict=True):
            current[seat.player] = after
            history[seat.player].append(
                RatingPoint(index, summary.match_id, seat.place, _rating(after))
            )
    return RatingHistory(
        initial=_rating(model.rating()),
        players=tuple(
            PlayerRatings(player, _rating(current[player]), tuple(history[player]))
            for player in sorted(current)
        ),
    )
