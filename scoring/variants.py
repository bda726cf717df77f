"""The games the replay knows, each behind one small interface.

A variant turns a table's options dict into its options object (for the table's number of
seats), scores a recorded hand from an event payload and the seats' names, and says where
the match stands. The replay does the rest.

Rummy40, Ramino and Knock Rummy record a hand by each seat's end of hand (JSON)::

    {"mode": "cards",
     "players": [                        # one entry per seat, in seat order
       {"hand": "KS 7D",                 # cards still in hand (required; "" when out)
        "melded": "7H 8H 9H",            # cards laid on the table this hand ("")
        "knocked": false,                # Knock Rummy (false)
        "went_out": false,               # (false)
        "hand_closed": false,            # Ramino, RAM-HANDCLOSE (false)
        "opening_penalty": 0},           # Rummy40, failed openings (0)
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
(scoresheet.hand_value). It cannot check what only cards show (copies, CARD-2); a seat out
holding points is refused as ``points_left``, and one not out holding 0 as ``empty_hand``
(except at a casino Ramino table with jokers, where jokers are worth 0). Items show the
values without their cards (no ``cards`` param).

Flags a game does not have are refused by the game's module (``flag_not_used``). A field
of a seat is named ``players[i].field`` in refusals; a seat left out is refused as its
missing hand (cards mode) or points (points mode), a seat too many as an unknown field.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from scoring import events as ev
from scoring import gin, knock_rummy, ramino, rummy40
from scoring.errors import RuleViolation, Violation
from scoring.hands import FLAGS, HandScore, MatchResult, PlayerEnd, running_totals
from scoring.play import STOCK, WALL, HandEnd


class HandResult(Protocol):
    """What every variant's hand result offers the replay."""

    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]: ...


class Variant(Protocol):
    """The interface of one game for the replay.

    ``match_entry`` says whether the table's projection carries the match result as its
    "match" entry; Gin's projection predates it and stays as cached tables hold it.
    """

    key: str
    players: tuple[int, int]
    setup_rule: str
    match_rule: str
    match_entry: bool

    def options_from_dict(self, data: Mapping[str, Any], players: int) -> Any: ...
    def options_to_dict(self, options: Any) -> dict[str, Any]: ...
    def score_hand(
        self, options: Any, payload: Mapping[str, Any], seats: tuple[str, ...]
    ) -> HandResult: ...
    def score_play(self, options: Any, end: HandEnd, seats: tuple[str, ...]) -> HandResult: ...
    def match_result(self, options: Any, results: Sequence[HandResult]) -> MatchResult: ...


QUICK_FIELDS = ("mode", "knocker", "ending", "knocker_count", "defender_count")
CARDS_FIELDS = ("mode", "knocker", "knocker_cards", "defender_cards", "ending")


@dataclass(frozen=True, slots=True)
class GinVariant:
    """Gin Rummy (RULES.md §2), both presets."""

    key: str = "gin"
    players: tuple[int, int] = (2, 2)
    setup_rule: str = "GIN-SETUP"
    match_rule: str = "GIN-MATCH"
    match_entry: bool = False

    def options_from_dict(self, data: Mapping[str, Any], players: int) -> gin.GinOptions:
        """Build the table's options from its preset and overrides (always two seats)."""
        return gin.GinOptions.from_dict(data)

    def options_to_dict(self, options: gin.GinOptions) -> dict[str, Any]:
        """Return the options as an explicit JSON dict."""
        return options.to_dict()

    def score_hand(
        self, options: gin.GinOptions, payload: Mapping[str, Any], seats: tuple[str, ...]
    ) -> gin.GinHandResult:
        """Score a hand entered quickly (counts) or by the cards each player held."""
        last_seat = len(seats) - 1
        mode = ev.field_choice(payload, "mode", ("quick", "cards"))
        if mode == "quick":
            ending = ev.field_choice(payload, "ending", (*gin.ENDINGS, gin.WALL))
            if ending == gin.WALL:
                ev.check_fields(payload, ("mode", "ending"))
                return gin.score_wall(options)
            ev.check_fields(payload, QUICK_FIELDS)
            return gin.score_quick(
                options,
                knocker=ev.field_int(payload, "knocker", low=0, high=last_seat),
                ending=ending,
                knocker_count=ev.field_int(payload, "knocker_count", low=0, high=gin.MAX_COUNT),
                defender_count=ev.field_int(payload, "defender_count", low=0, high=gin.MAX_COUNT),
            )
        ev.check_fields(payload, CARDS_FIELDS)
        ending = payload.get("ending")
        if ending is not None:
            ending = ev.field_choice(payload, "ending", gin.ENDINGS)
        return gin.score_cards(
            options,
            knocker=ev.field_int(payload, "knocker", low=0, high=last_seat),
            knocker_cards=ev.cards_field(payload, "knocker_cards"),
            defender_cards=ev.cards_field(payload, "defender_cards"),
            ending=ending,
        )

    def score_play(
        self, options: gin.GinOptions, end: HandEnd, seats: tuple[str, ...]
    ) -> gin.GinHandResult:
        """Score a hand played move by move: void at the wall, else from the cards shown."""
        if end.ending == WALL:
            return gin.score_wall(options, stock_empty=not options.wall)
        knocker = end.seat
        return gin.score_cards(
            options,
            knocker=knocker,
            knocker_cards=end.players[knocker].hand,
            defender_cards=end.players[1 - knocker].hand,
        )

    def match_result(
        self, options: gin.GinOptions, results: Sequence[gin.GinHandResult]
    ) -> MatchResult:
        """Stop at the first hand after which a total reached the target (GIN-MATCH)."""
        totals_after = running_totals(results)
        for index, totals in enumerate(totals_after):
            winner = gin.match_winner(options, totals)
            if winner is not None:
                if index + 1 < len(results):
                    # An amendment made an earlier hand reach the target: the hands after it
                    # were never part of the match, so the amendment is refused.
                    raise RuleViolation(
                        Violation(
                            rule="GIN-MATCH",
                            code="match_over",
                            message="The match is over; no more hands can be recorded.",
                            params={"hand": index + 1},
                        )
                    )
                return MatchResult(finished=True, hands=index + 1, totals=totals, winners=(winner,))
        totals = totals_after[-1] if totals_after else (0, 0)
        return MatchResult(finished=False, hands=len(results), totals=totals)


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
    ev.check_fields(
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
) -> PlayerEnd:
    """Read one seat's end of hand; a seat without an entry is refused as its missing hand
    (cards mode) or points (points mode). ``melded_points`` says the table takes that field.
    """
    key = f"players[{seat}]."
    if mode == "cards":
        allowed = PLAYER_FIELDS
    else:
        allowed = (*POINTS_FIELDS, "melded_points") if melded_points else POINTS_FIELDS
    ev.check_fields(fields, tuple(key + field for field in allowed))
    penalty = key + "opening_penalty"
    flags = {
        "knocked": ev.field_bool(fields, key + "knocked"),
        "went_out": ev.field_bool(fields, key + "went_out"),
        "hand_closed": ev.field_bool(fields, key + "hand_closed"),
        "opening_penalty": (
            ev.field_int(fields, penalty, low=0, high=MAX_FAILED_OPENINGS)
            if penalty in fields
            else 0
        ),
    }
    if mode == "points":
        melded = key + "melded_points"
        return PlayerEnd(
            name=name,
            points=ev.field_int(fields, key + "points", low=0, high=MAX_POINTS),
            melded_points=(
                ev.field_int(fields, melded, low=0, high=MAX_POINTS) if melded in fields else None
            ),
            **flags,
        )
    return PlayerEnd(
        name=name,
        hand=ev.cards_field(fields, key + "hand"),
        melded=ev.cards_field(fields, key + "melded") if key + "melded" in fields else (),
        **flags,
    )


@dataclass(frozen=True, slots=True)
class ScoresheetVariant:
    """A game scored by a scoresheet module (rummy40, ramino, knock_rummy) from each seat's
    end of hand; the module checks the end state and cites its rules.

    A hand comes by cards or by points (the module docstring's payloads); either way the
    module scores it, from hand values, so no arithmetic of the rules lives here.
    """

    key: str
    players: tuple[int, int]
    setup_rule: str
    match_rule: str
    module: ModuleType
    options_type: type
    match_entry: bool = True

    def options_from_dict(self, data: Mapping[str, Any], players: int) -> Any:
        """Build the options of a table of ``players`` seats; the module refuses bad counts."""
        return self.options_type.from_dict(data, players)

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        """Return the options as an explicit JSON dict."""
        return options.to_dict()

    def score_hand(
        self, options: Any, payload: Mapping[str, Any], seats: tuple[str, ...]
    ) -> HandScore:
        """Score a hand from every seat's cards or points, and flags (the module docstring's
        payloads)."""
        ev.check_fields(payload, SCORESHEET_FIELDS)
        mode = ev.field_choice(payload, "mode", MODES)
        stock_exhausted = ev.field_bool(payload, "stock_exhausted")
        melded_points = self.takes_melded_points(options)
        ends = [
            _player_end(fields, seat, seats[seat], mode, melded_points)
            for seat, fields in enumerate(_seat_fields(payload, seats))
        ]
        return self.module.score_hand(options, ends, stock_exhausted=stock_exhausted)

    def score_play(self, options: Any, end: HandEnd, seats: tuple[str, ...]) -> HandScore:
        """Score a hand played move by move from the end state the play built."""
        return self.module.score_hand(options, end.players, stock_exhausted=end.ending == STOCK)

    def takes_melded_points(self, options: Any) -> bool:
        """Tell whether a seat entered by points may give ``melded_points``: only when the
        table scores melded cards (Ramino casino scoring)."""
        return False

    def match_result(self, options: Any, results: Sequence[HandScore]) -> MatchResult:
        """Return the module's match result: totals with end bonuses, winners, loser."""
        return self.module.match_result(options, results)


@dataclass(frozen=True, slots=True)
class Rummy40Variant(ScoresheetVariant):
    """Rummy40 (RULES.md §3): 2 or 4 players (3 is refused by R40-SETUP)."""

    key: str = "rummy40"
    players: tuple[int, int] = (2, 4)
    setup_rule: str = "R40-SETUP"
    match_rule: str = "R40-MATCH"
    module: ModuleType = rummy40
    options_type: type = rummy40.Rummy40Options


@dataclass(frozen=True, slots=True)
class RaminoVariant(ScoresheetVariant):
    """Ramino (RULES.md §4) with every house rule: 2 to 6 players."""

    key: str = "ramino"
    players: tuple[int, int] = (2, 6)
    setup_rule: str = "RAM-SETUP"
    match_rule: str = "RAM-MATCH"
    module: ModuleType = ramino
    options_type: type = ramino.RaminoOptions

    def takes_melded_points(self, options: ramino.RaminoOptions) -> bool:
        """Casino scoring pays the winner's melded cards (RAM-OPT-CASINO)."""
        return options.casino_scoring


@dataclass(frozen=True, slots=True)
class KnockRummyVariant(ScoresheetVariant):
    """Knock Rummy (RULES.md §5): 2 to 5 players."""

    key: str = "knock_rummy"
    players: tuple[int, int] = (2, 5)
    setup_rule: str = "KR-SETUP"
    match_rule: str = "KR-MATCH"
    module: ModuleType = knock_rummy
    options_type: type = knock_rummy.KnockRummyOptions


VARIANTS: dict[str, Variant] = {
    variant.key: variant
    for variant in (GinVariant(), Rummy40Variant(), RaminoVariant(), KnockRummyVariant())
}


def variant_get(key: object) -> Variant:
    """Return the variant named ``key`` or refuse it."""
    if not isinstance(key, str) or key not in VARIANTS:
        raise RuleViolation(
            Violation(
                rule="EVENT",
                code="unknown_variant",
                message="Unknown game; choose one of: " + ", ".join(VARIANTS) + ".",
                params={"variant": str(key), "choices": list(VARIANTS)},
            )
        )
    return VARIANTS[key]
