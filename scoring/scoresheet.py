"""What Rummy40, Ramino and Knock Rummy share: a player's end of hand, scored hands and
matches, and reading a table's options (RULES.md §6).

Each variant module checks the end state against its own rules and cites them; this module
only holds the shapes and the arithmetic that carry no rule of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from scoring.cards import Card, DeckSpec, check_copies
from scoring.errors import RuleViolation, Violation
from scoring.errors import refusal as _refuse

if TYPE_CHECKING:
    # Only named in annotations: importing scoring.gin here would make a cycle, since gin
    # reads its options with this module's helpers.
    from scoring.gin import ScoreItem

# How a hand ended: a player went out, the stock ran out, or a player knocked (Knock Rummy).
OUT = "out"
STOCK = "stock"
KNOCK = "knock"

# The player flags a hand's end state may carry; each variant refuses the ones it lacks.
FLAGS = ("knocked", "went_out", "hand_closed", "opening_penalty")


@dataclass(frozen=True, slots=True)
class PlayerEnd:
    """Hold one player's end of a hand: cards left in hand, cards melded, and what they did.

    ``melded`` is every card the player put on the table this hand (melds and additions).
    ``opening_penalty`` counts the player's failed openings (R40-OPEN-PENALTY); True is 1.

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
    points: int | None = None
    melded_points: int | None = None

    def __post_init__(self) -> None:
        # Callers pass lists as often as tuples; a frozen result wants tuples.
        object.__setattr__(self, "hand", tuple(self.hand))
        object.__setattr__(self, "melded", tuple(self.melded))
        # A caller's bug rather than a table's: the payload readers bound these fields.
        for field in ("points", "melded_points"):
            value = getattr(self, field)
            if value is not None and (not is_int(value) or value < 0):
                raise ValueError(f"{field} must be a whole number, 0 or more, not {value!r}")
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


def hand_value(player: PlayerEnd, value: Callable[[Card], int]) -> int:
    """Return what the player's hand is worth: the points entered, or its cards' values.

    This is where the two ways of entering a hand meet: the scoring reads only values.
    """
    if player.points is not None:
        return player.points
    return sum(value(card) for card in player.hand)


def melded_value(player: PlayerEnd, value: Callable[[Card], int]) -> int:
    """Return what the player's melded cards are worth: the points entered, or their values."""
    if player.by_points:
        return player.melded_points or 0
    return sum(value(card) for card in player.melded)


def shown_cards(player: PlayerEnd, cards: Sequence[Card]) -> dict[str, list[str]]:
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
    players: Sequence[PlayerEnd],
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
class MatchResult:
    """Hold where a match stands after its hands: totals, end bonuses and the result."""

    finished: bool
    hands: int  # how many hands were played
    totals: tuple[int, ...]  # the hands' points plus the end-of-match items
    items: tuple[ScoreItem, ...] = ()  # end-of-match bonuses (KR-MATCH)
    winners: tuple[int, ...] = ()  # several on a tie; empty while the match goes on
    loser: int | None = None  # Rummy40 with two players: who reached the limit

    @property
    def winner(self) -> int | None:
        """Return the one winner's seat, or None while the match goes on or on a tie."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON."""
        return {
            "finished": self.finished,
            "hands": self.hands,
            "totals": list(self.totals),
            "items": [item.to_dict() for item in self.items],
            "winners": list(self.winners),
            "winner": self.winner,
            "loser": self.loser,
        }


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


def copies_refusals(players: Sequence[PlayerEnd], deck: DeckSpec) -> list[RuleViolation]:
    """Return the CARD-2 refusal for cards shown more often than the decks hold, if any."""
    try:
        check_copies((card for p in players for card in (*p.hand, *p.melded)), deck)
    except RuleViolation as exc:
        return [exc]
    return []


# The rule and the wording are the caller's, so the catalog test in tests/games, which finds
# verdicts by their literal _refuse("RULE", "code", ...) calls, cannot see the pairs these
# build: (R40-END, flag_not_used), (R40-HAND, cards_left), (R40-HAND, empty_hand),
# (RAM-OUT, flag_not_used), (RAM-OUT, cards_left), (RAM-OUT, empty_hand),
# (KR-SCORE, flag_not_used), (KR-OUT, cards_left), (KR-OUT, empty_hand). Each already has
# its sentence in games/rule_text.py MESSAGES; a new caller must add its own there.
# The quick entry by points adds (R40-HAND, points_left), (RAM-OUT, points_left) and
# (KR-OUT, points_left), params {player, count}: these still need their sentences there.
def player_count(players: object, choices: Sequence[int], *, rule: str, game: str) -> int:
    """Return the number of players if the game is played by that many, else refuse it.

    The rule is the game's setup rule (R40-SETUP, RAM-SETUP, KR-SETUP); its (rule, "players")
    sentences are in games/rule_text.py, which the catalog scan cannot see through ``rule``.
    """
    if is_int(players) and players in choices:
        return players
    low, high = choices[0], choices[-1]
    allowed = f"{low} or {high}" if len(choices) == 2 else f"{low} to {high}"
    raise _refuse(
        rule,
        "players",
        f"{game} is for {allowed} players, not {players!r}.",
        count=json_value(players),
        min=low,
        max=high,
        choices=list(choices),
    )


def end_state_problems(
    players: Sequence[PlayerEnd],
    *,
    game_name: str,
    flag_rule: str,
    used_flags: Iterable[str],
    out_rule: str,
    cards_left_message: str,
    empty_hand_message: str,
    extra: Callable[[PlayerEnd], Iterable[RuleViolation]] | None = None,
    worthless_cards: bool = False,
) -> list[RuleViolation]:
    """Return the refusals of each player's end state, player by player, in seat order.

    A player may carry only the flags in ``used_flags`` (``flag_rule``), holds no card after
    going out and goes out on holding none (``out_rule``). ``game_name`` ends the flag
    sentence ("a Rummy40 hand"); the two messages take ``{player}``. ``extra`` gives a
    variant's own refusals of a player, listed after that player's shared ones.

    A hand entered by points is empty when worth 0: a player out holding more is refused
    as ``points_left``, and one not out holding 0 as ``empty_hand``, unless
    ``worthless_cards`` says some card is worth 0 (Ramino casino jokers), when 0 may be a
    hand of them.
    """
    used_flags = tuple(used_flags)
    problems: list[RuleViolation] = []
    for player in players:
        problems += [
            _refuse(
                flag_rule,
                "flag_not_used",
                f"{player.name} is marked {flag!r}, which {game_name} does not have.",
                player=player.name,
                flag=flag,
            )
            for flag in player.flags_set()
            if flag not in used_flags
        ]
        if player.by_points and player.went_out and player.points:
            problems.append(
                _refuse(
                    out_rule,
                    "points_left",
                    f"{player.name} went out, so their hand is worth 0, not {player.points}.",
                    player=player.name,
                    count=player.points,
                )
            )
        if player.went_out and player.hand:
            problems.append(
                _refuse(
                    out_rule,
                    "cards_left",
                    cards_left_message.format(player=player.name),
                    player=player.name,
                    cards=names(player.hand),
                )
            )
        # By points, 0 is an empty hand unless some card is worth 0.
        empty = player.points == 0 and not worthless_cards if player.by_points else not player.hand
        if not player.went_out and empty:
            problems.append(
                _refuse(
                    out_rule,
                    "empty_hand",
                    empty_hand_message.format(player=player.name),
                    player=player.name,
                )
            )
        if extra is not None:
            problems += extra(player)
    return problems


def all_violations(refusals: Iterable[RuleViolation]) -> None:
    """Raise one RuleViolation holding every violation of the refusals, if there are any."""
    violations = [violation for refusal in refusals for violation in refusal.violations]
    if violations:
        raise RuleViolation(*violations)


def best_seats(totals: Sequence[int], *, lowest: bool) -> tuple[int, ...]:
    """Return the seats sharing the lowest (or highest) total."""
    best = min(totals) if lowest else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


# Options ------------------------------------------------------------------------------


def json_value(value: object) -> object:
    """Return the value if JSON holds it as it is, else its repr (for violation params)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def is_int(value: object) -> bool:
    """Tell whether the value is a whole number (True is not a number of points)."""
    return isinstance(value, int) and not isinstance(value, bool)


def bad_option(option: str, value: object, expected: str) -> Violation:
    """Return the violation for an option value of the wrong kind or range."""
    return Violation(
        rule="OPTIONS",
        code="bad_value",
        message=f"Option {option!r} cannot be {value!r}: it takes {expected}.",
        params={"option": option, "value": json_value(value), "expected": expected},
    )


def read_options(data: object, known: Iterable[str], game: str) -> dict[str, Any]:
    """Return the options dict, refusing a non-mapping and every key the game lacks."""
    if not isinstance(data, Mapping):
        raise RuleViolation(bad_option("options", data, "a JSON object"))
    known = set(known)
    unknown = [
        Violation(
            rule="OPTIONS",
            code="unknown_option",
            message=f"{game} has no option {key!r}.",
            params={"option": json_value(key), "value": json_value(value)},
        )
        for key, value in data.items()
        if key not in known
    ]
    if unknown:
        raise RuleViolation(*unknown)
    return dict(data)


def kind_violations(
    options: object, bools: Iterable[str] = (), ints: Mapping[str, int] | None = None
) -> list[Violation]:
    """Return a violation for each option not true/false, or not a whole number >= its minimum."""
    violations = [
        bad_option(name, getattr(options, name), "true or false")
        for name in bools
        if not isinstance(getattr(options, name), bool)
    ]
    violations += [
        bad_option(name, getattr(options, name), f"a whole number, {low} or more")
        for name, low in (ints or {}).items()
        if not is_int(getattr(options, name)) or getattr(options, name) < low
    ]
    return violations
