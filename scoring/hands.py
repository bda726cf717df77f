"""The shapes every game's hands share: score items, a seat's end of hand, a scored hand,
where a match stands, and the arithmetic that carries no rule of its own."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from scoring.cards import Card
from scoring.options import is_int

# How a hand ended: a player went out, the stock ran out, or a player knocked (Knock Rummy).
OUT = "out"
STOCK = "stock"
KNOCK = "knock"
# Gin only: the stock ran down with nobody out, and the hand is void (GIN-WALL).
WALL = "wall"

# The player flags a hand's end state may carry; each variant refuses the ones it lacks.
FLAGS = (
    "knocked",
    "went_out",
    "hand_closed",
    "opening_penalty",
    "sitting_out",
    "declines_reentry",
)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """Hold one part of a hand's score: the rule that gives it, to whom, and how much."""

    rule: str
    seat: int | None  # None: the item is about no seat (a void hand)
    points: int
    params: Mapping[str, Any] = field(default_factory=dict)
    code: str = ""  # which part, where one rule gives several: "difference", "bonus", ...

    def to_dict(self) -> dict[str, Any]:
        """Return the item ready for JSON."""
        return {
            "rule": self.rule,
            "code": self.code,
            "seat": self.seat,
            "points": self.points,
            "params": dict(self.params),
        }


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """Hold one player's end of a hand: cards left in hand, cards melded, and what they did.

    ``melded`` is every card the player put on the table this hand (melds and additions).
    ``opening_penalty`` counts the player's failed openings (R40-OPEN-PENALTY); True is 1.
    ``sitting_out`` marks a seat that took no part in the hand: out of the match
    (S40-MATCH), it was dealt no cards and scores nothing.

    Quick entry by hand values: ``points`` gives the value of the hand directly (a whole
    number, 0 or more), and the player then carries no cards, so the copies check (CARD-2)
    skips them and items show the value without cards. ``melded_points`` is the value, in
    the table's values, of the cards melded this hand; only Ramino casino scoring reads it,
    for the player who went out, and it is 0 when left out. It needs ``points``.
    """

    name: str
    hand: tuple[Card, ...] = ()
    melded: tuple[Card, ...] = ()
    knocked: bool = False
    went_out: bool = False
    hand_closed: bool = False
    opening_penalty: int | bool = 0
    sitting_out: bool = False
    # S40-REENTRY: a player who reaches the limit in this hand goes out rather than re-enter.
    declines_reentry: bool = False
    points: int | None = None
    melded_points: int | None = None

    def __post_init__(self) -> None:
        # Callers pass lists as often as tuples; a frozen result wants tuples.
        object.__setattr__(self, "hand", tuple(self.hand))
        object.__setattr__(self, "melded", tuple(self.melded))
        # A caller's bug rather than a table's: the payload readers bound these fields.
        for name in ("points", "melded_points"):
            value = getattr(self, name)
            if value is not None and (not is_int(value) or value < 0):
                raise ValueError(f"{name} must be a whole number, 0 or more, not {value!r}")
        if self.points is not None and (self.hand or self.melded):
            raise ValueError("a hand given by points carries no cards")
        if self.melded_points is not None and self.points is None:
            raise ValueError("melded_points needs the hand given by points")

    @property
    def by_points(self) -> bool:
        """Tell whether the hand was entered by its value rather than by its cards."""
        return self.points is not None

    def flags_set(self) -> tuple[str, ...]:
        """Return the names of the flags this player carries, in FLAGS order."""
        return tuple(flag for flag in FLAGS if getattr(self, flag) not in (False, 0))


def names(cards: Iterable[Card]) -> list[str]:
    """Return the cards in notation, ready for JSON."""
    return [str(card) for card in cards]


def hand_value(player: SeatEnd, value: Callable[[Card], int]) -> int:
    """Return what the player's hand is worth: the points entered, or its cards' values.

    This is where the two ways of entering a hand meet: the scoring reads only values.
    """
    if player.points is not None:
        return player.points
    return sum(value(card) for card in player.hand)


def melded_value(player: SeatEnd, value: Callable[[Card], int]) -> int:
    """Return what the player's melded cards are worth: the points entered, or their values."""
    if player.by_points:
        return player.melded_points or 0
    return sum(value(card) for card in player.melded)


def shown_cards(player: SeatEnd, cards: Sequence[Card]) -> dict[str, list[str]]:
    """Return an item's ``cards`` param, or nothing when the hand was entered by points."""
    return {} if player.by_points else {"cards": names(cards)}


def ace_one_value(card: Card, *, joker: int) -> int:
    """Return ace 1, 2-10 face value, J Q K 10, and ``joker`` for a joker."""
    return joker if card.is_joker else min(card.rank, 10)


@dataclass(frozen=True, slots=True)
class HandScore:
    """Hold how one hand ended and what each seat scored, itemised by rule.

    ``points`` are in the game's own terms (Rummy40 penalty points, Ramino gains and losses,
    Knock Rummy points won) and always equal the sum of each seat's items.
    """

    players: tuple[str, ...]
    ending: str  # OUT, STOCK or KNOCK
    points: tuple[int, ...]
    winners: tuple[int, ...]  # empty when the hand has no winner (a stock ending)
    hand_values: tuple[int, ...]  # what the cards left in each hand are worth
    items: tuple[ScoreItem, ...]
    hands: tuple[tuple[Card, ...], ...] = ()
    knocker: int | None = None
    # Who laid cards on the table, by seat, where the hand was played move by move (the
    # moves say it, however the hands left were shown); empty for a hand entered whole.
    opened: tuple[bool, ...] = ()

    @property
    def winner(self) -> int | None:
        """Return the one winner's seat, or None when nobody or several won."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON."""
        return {
            "players": list(self.players),
            "ending": self.ending,
            "points": list(self.points),
            "winners": list(self.winners),
            "winner": self.winner,
            "knocker": self.knocker,
            "hand_values": list(self.hand_values),
            "hands": [names(hand) for hand in self.hands],
            "items": [item.to_dict() for item in self.items],
        }


def hand_score(
    players: Sequence[SeatEnd],
    ending: str,
    winners: Iterable[int],
    hand_values: Sequence[int],
    items: Sequence[ScoreItem],
    knocker: int | None = None,
) -> HandScore:
    """Return the hand's result, each seat's points summed from its items."""
    points = [0] * len(players)
    for item in items:
        if item.seat is not None:
            points[item.seat] += item.points
    return HandScore(
        players=tuple(player.name for player in players),
        ending=ending,
        points=tuple(points),
        winners=tuple(sorted(winners)),
        hand_values=tuple(hand_values),
        items=tuple(items),
        hands=tuple(player.hand for player in players),
        knocker=knocker,
    )


@dataclass(frozen=True, slots=True)
class GameScore:
    """Hold one of the games a match scores on one sheet (Gin's Hollywood, GIN-HOLLYWOOD):
    each seat's points in it, with its end bonuses once it is over, and who won it."""

    number: int  # 1, 2, 3: its column on the sheet
    totals: tuple[int, ...]
    finished: bool = False
    winner: int | None = None
    hands: int = 0  # the hand after which it ended; 0 while it goes on

    def to_dict(self) -> dict[str, Any]:
        """Return the game ready for JSON."""
        return {
            "number": self.number,
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner,
            "hands": self.hands,
        }


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Hold where a match stands after its hands: totals, end bonuses and the result."""

    finished: bool
    hands: int  # how many hands were played
    totals: tuple[int, ...]  # the hands' points plus the end-of-match items
    items: tuple[ScoreItem, ...] = ()  # end-of-match bonuses (KR-MATCH), re-entries
    winners: tuple[int, ...] = ()  # several on a tie; empty while the match goes on
    loser: int | None = None  # Rummy40 with two players: who reached the limit
    # Seats out of the match, dealt no more cards (S40-MATCH); empty in games without.
    out: tuple[int, ...] = ()
    # Each seat's place (1 is best) where it does not follow the totals (S40-MATCH: the
    # order of elimination); empty where the places are the totals'.
    places: tuple[int, ...] = ()
    # The games of a match scored as several at once (GIN-HOLLYWOOD); none otherwise.
    games: tuple[GameScore, ...] = ()

    @property
    def winner(self) -> int | None:
        """Return the one winner's seat, or None while the match goes on or on a tie."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON; "out" and "places" only where a game has them,
        so the projections of the other games stay as cached tables hold them."""
        result = {
            "finished": self.finished,
            "hands": self.hands,
            "totals": list(self.totals),
            "items": [item.to_dict() for item in self.items],
            "winners": list(self.winners),
            "winner": self.winner,
            "loser": self.loser,
        }
        if self.out:
            result["out"] = list(self.out)
        if self.places:
            result["places"] = list(self.places)
        if self.games:
            result["games"] = [game.to_dict() for game in self.games]
        return result


def running_totals(results: Sequence[HandScore]) -> list[tuple[int, ...]]:
    """Return each seat's total after each hand, in order."""
    if len({len(result.points) for result in results}) > 1:
        # Results come from one table's hands: a mix of table sizes is a caller's bug.
        raise ValueError("hand results of different numbers of players")
    if not results:
        return []
    # Seat by seat with accumulate: a long log asks for this after every hand.
    columns = zip(*(result.points for result in results), strict=True)
    return list(zip(*(accumulate(column) for column in columns), strict=True))


def best_seats(totals: Sequence[int], *, lowest: bool) -> tuple[int, ...]:
    """Return the seats sharing the lowest (or highest) total."""
    best = min(totals) if lowest else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


@dataclass(frozen=True, slots=True)
class HandEnd:
    """Hold how a hand played by play ended, ready for its game to score."""

    ending: str  # OUT, KNOCK, STOCK or WALL
    players: tuple[SeatEnd, ...]
    seat: int | None = None  # who went out or knocked
    upcard: Card | None = None  # the card that started the discard pile, where one did
    opened: tuple[bool, ...] = ()  # who laid cards on the table this hand, by seat
    # The melds on the table at the end: the seat that laid each, and its cards.
    melds: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    # Which sides took their kitty (a game's pozzetto), by side; empty where there are none.
    kitties: tuple[bool, ...] = ()
