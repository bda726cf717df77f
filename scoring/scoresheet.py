"""What Rummy40, Ramino and Knock Rummy share: reading a hand entered on the scoresheet, and
the checks of every seat's end of hand.

Each game module checks the end state against its own rules and cites them; this module
only holds the reading and the checks whose rule and wording the caller gives.

Rummy40, Ramino and Knock Rummy record a hand by each seat's end of hand (JSON)::

    {"mode": "cards",
     "players": [                        # one entry per seat, in seat order
       {"hand": "KS 7D",                 # cards still in hand (required; "" when out)
        "melded": "7H 8H 9H",            # cards laid on the table this hand ("")
        "knocked": false,                # Knock Rummy (false)
        "went_out": false,               # (false)
        "hand_closed": false,            # Ramino, Scala 40: closing in hand (false)
        "opening_penalty": 0,            # Rummy40, Scala 40: failed openings (0)
        "sitting_out": false,            # Scala 40: out of the match, dealt nothing
                                         #   (false; its hand "")
        "declines_reentry": false},      # Scala 40: reaching the limit in this hand, goes
                                         #   out rather than re-enter (false)
       ...],
     "stock_exhausted": false}           # the stock ran out (false)

or, for a noisy table, by each seat's hand value instead of its cards::

    {"mode": "points",
     "players": [                        # one entry per seat, in seat order
       {"points": 25,                    # what the hand is worth (required, 0 to 500;
                                         #   0 when out)
        "melded_points": 0,              # Ramino with casino scoring only: the casino
                                         #   value of the cards melded this hand (0 to 500,
                                         #   0 if left out); only the winner's counts
        "knocked": false, ...},          # the flags, as in cards mode
       ...],
     "stock_exhausted": false}

Points mode scores exactly as the cards would: the modules read hand values in both modes
(scoring.hands.hand_value). It cannot check what only cards show (copies, CARD-2); a seat out
holding points is refused as ``points_left``, and one not out holding 0 as ``empty_hand``
(except at a casino Ramino table with jokers, where jokers are worth 0). Items show the
values without their cards (no ``cards`` param).

Flags a game does not have are refused by the game's module (``flag_not_used``). A field
of a seat is named ``players[i].field`` in refusals; a seat left out is refused as its
missing hand (cards mode) or points (points mode), a seat too many as an unknown field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.cards import DeckSpec, check_copies
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import FLAGS, OUT, STOCK, HandEnd, HandScore, SeatEnd, names
from scoring.options import is_int, json_value
from scoring.payloads import cards_field, check_fields, field_bool, field_choice, field_int


def copies_refusals(players: Sequence[SeatEnd], deck: DeckSpec) -> list[RuleViolation]:
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
# its sentence in games/rules/text.py MESSAGES; a new caller must add its own there.
# The quick entry by points adds (R40-HAND, points_left), (RAM-OUT, points_left) and
# (KR-OUT, points_left), params {player, count}: these still need their sentences there.
def player_count(players: object, choices: Sequence[int], *, rule: str, game: str) -> int:
    """Return the number of players if the game is played by that many, else refuse it.

    The rule is the game's setup rule (R40-SETUP, RAM-SETUP, KR-SETUP); its (rule, "players")
    sentences are in games/rules/text.py, which the catalog scan cannot see through ``rule``.
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
    players: Sequence[SeatEnd],
    *,
    game_name: str,
    flag_rule: str,
    used_flags: Iterable[str],
    out_rule: str,
    cards_left_message: str,
    empty_hand_message: str,
    extra: Callable[[SeatEnd], Iterable[RuleViolation]] | None = None,
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
        problems += _out_problems(
            player, out_rule, cards_left_message, empty_hand_message, worthless_cards
        )
        if extra is not None:
            problems += extra(player)
    return problems


def _out_problems(
    player: SeatEnd,
    out_rule: str,
    cards_left_message: str,
    empty_hand_message: str,
    worthless_cards: bool,
) -> list[RuleViolation]:
    """Return the refusals of a player's hand against going out (see end_state_problems)."""
    problems = []
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
    return problems


def all_violations(refusals: Iterable[RuleViolation]) -> None:
    """Raise one RuleViolation holding every violation of the refusals, if there are any."""
    violations = [violation for refusal in refusals for violation in refusal.violations]
    if violations:
        raise RuleViolation(*violations)


# Reading a scoresheet entry ----------------------------------------------------------------

PLAYER_FIELDS = ("hand", "melded", *FLAGS)
POINTS_FIELDS = ("points", *FLAGS)
SCORESHEET_FIELDS = ("mode", "players", "stock_exhausted")
MODES = ("cards", "points")
# Failed openings in one hand (R40-OPEN-PENALTY): one a turn at most, as a hand played move by
# move counts them; this bounds typos.
MAX_FAILED_OPENINGS = 99
# A hand's value entered by points (and a casino winner's melded value): this bounds typos.
MAX_POINTS = 500


def _seat_fields(payload: Mapping[str, Any], seats: tuple[str, ...]) -> list[dict[str, Any]]:
    """Return each seat's entry with its fields named ``players[i].field`` for refusals."""
    raw = payload.get("players")
    entries = raw if isinstance(raw, list) else []
    check_fields(
        {f"players[{i}]": None for i in range(len(entries))},
        tuple(f"players[{i}]" for i in range(len(seats))),
    )
    return [
        {
            f"players[{i}].{name}": value
            for name, value in (entry.items() if isinstance(entry, Mapping) else ())
        }
        for i, entry in enumerate([*entries, *[{}] * (len(seats) - len(entries))])
    ]


def _player_end(
    fields: Mapping[str, Any], seat: int, name: str, mode: str, melded_points: bool
) -> SeatEnd:
    """Read one seat's end of hand; a seat without an entry is refused as its missing hand
    (cards mode) or points (points mode). ``melded_points`` says the table takes that field.
    """
    key = f"players[{seat}]."
    if mode == "cards":
        allowed = PLAYER_FIELDS
    else:
        allowed = (*POINTS_FIELDS, "melded_points") if melded_points else POINTS_FIELDS
    check_fields(fields, tuple(key + field for field in allowed))
    penalty = key + "opening_penalty"
    flags = {
        "knocked": field_bool(fields, key + "knocked"),
        "went_out": field_bool(fields, key + "went_out"),
        "hand_closed": field_bool(fields, key + "hand_closed"),
        "sitting_out": field_bool(fields, key + "sitting_out"),
        "declines_reentry": field_bool(fields, key + "declines_reentry"),
        "opening_penalty": (
            field_int(fields, penalty, low=0, high=MAX_FAILED_OPENINGS) if penalty in fields else 0
        ),
    }
    if mode == "points":
        melded = key + "melded_points"
        return SeatEnd(
            name=name,
            points=field_int(fields, key + "points", low=0, high=MAX_POINTS),
            melded_points=(
                field_int(fields, melded, low=0, high=MAX_POINTS) if melded in fields else None
            ),
            **flags,
        )
    return SeatEnd(
        name=name,
        hand=cards_field(fields, key + "hand"),
        melded=cards_field(fields, key + "melded") if key + "melded" in fields else (),
        **flags,
    )


@dataclass(frozen=True, slots=True)
class ScoresheetEntry:
    """Hold a hand entered on the scoresheet: each seat's end of hand, by cards or points."""

    mode: str
    players: tuple[SeatEnd, ...]
    stock_exhausted: bool


def read_scoresheet_entry(
    payload: Mapping[str, Any], seats: tuple[str, ...], *, melded_points: bool = False
) -> ScoresheetEntry:
    """Read a hand entered by every seat's cards or points (the module docstring's payloads).

    ``melded_points`` says the table takes that field (Ramino casino scoring).
    """
    check_fields(payload, SCORESHEET_FIELDS)
    mode = field_choice(payload, "mode", MODES)
    stock_exhausted = field_bool(payload, "stock_exhausted")
    ends = tuple(
        _player_end(fields, seat, seats[seat], mode, melded_points)
        for seat, fields in enumerate(_seat_fields(payload, seats))
    )
    return ScoresheetEntry(mode=mode, players=ends, stock_exhausted=stock_exhausted)


def _no_melded_points(options: Any) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class SeatBySeatScoring:
    """The ways into the hand scoring of a game scored seat by seat (Rummy40, Ramino, Knock
    Rummy): a scoresheet entry read and scored, or a hand played move by move scored.

    ``score_hand(options, players, stock_exhausted=...)`` is the game's own scoring;
    ``melded_points(options)`` says whether its points entries carry melded_points.
    """

    score_hand: Callable[..., HandScore]
    melded_points: Callable[[Any], bool] = _no_melded_points

    def read_entry(
        self, options: Any, payload: Mapping[str, Any], seats: tuple[str, ...]
    ) -> ScoresheetEntry:
        """Read a hand entered on the scoresheet by every seat's cards or points."""
        return read_scoresheet_entry(payload, seats, melded_points=self.melded_points(options))

    def score_entry(
        self, options: Any, entry: ScoresheetEntry, seats: tuple[str, ...]
    ) -> HandScore:
        """Score a hand entered on the scoresheet by every seat's cards or points."""
        return self.score_hand(options, entry.players, stock_exhausted=entry.stock_exhausted)

    def score_play(self, options: Any, end: HandEnd, seats: tuple[str, ...]) -> HandScore:
        """Score a hand played move by move from the end state the play built; the result
        keeps who opened, for the players' book (``opening_figures``)."""
        result = self.score_hand(options, end.players, stock_exhausted=end.ending == STOCK)
        return replace(result, opened=end.opened)


# The players' book ---------------------------------------------------------------------


def opening_figures(
    result: HandScore, seat: int, *, dealt: int | None, absent: Collection[int] = ()
) -> Counter[str]:
    """Give a seat's book figures in a game of openings (Rummy40, Ramino): whether it opened,
    where the hand tells, and the points it was left holding.

    ``opened`` of ``opened_known``: a hand played move by move says it in its moves (the
    result's ``opened``), whether the hands left were then shown by cards or by points, and
    whatever the house rules. A hand entered whole by cards shows what every seat kept: the
    seat that went out opened, and so did one that kept fewer cards than the ``dealt`` (a
    turn draws one and discards one: only melding lays cards down). A hand entered by
    points shows no cards and says nothing of who opened (a non-out seat holds cards in any
    other hand), so it is left out of both; so is every hand entered by cards when
    ``dealt`` is None, at a table whose house rules let a hand grow past the deal
    (RAM-OPT-KNOCKCLAIM). ``points_left`` of ``hands_left``: what the seat's hand was worth
    in each hand it did not go out, known by cards and by points alike. Seats ``absent``
    took no part in the hand (S40-MATCH: out of the match): they get no figure and say
    nothing of the others.
    """
    went_out = {other for other in result.winners if result.ending == OUT}
    figures: Counter[str] = Counter()
    if seat in absent:
        return figures
    if seat not in went_out:
        figures["hands_left"] += 1
        figures["points_left"] += result.hand_values[seat]
    # A result pickled before it kept ``opened`` (a snapshot kept in the shared cache across
    # a deploy) has no such slot: read it as a hand entered whole.
    opened = getattr(result, "opened", ())
    if opened:
        figures["opened_known"] += 1
        figures["opened"] += int(opened[seat])
        return figures
    seats = range(len(result.points))
    by_cards = len(result.hands) == len(seats) and all(
        result.hands[other] for other in seats if other not in went_out and other not in absent
    )
    if by_cards and dealt is not None:
        figures["opened_known"] += 1
        figures["opened"] += int(seat in went_out or len(result.hands[seat]) < dealt)
    return figures
