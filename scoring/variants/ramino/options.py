"""Ramino's table options (docs/rules.md, Table options): the bounds, the house rules as
the pages offer them, and the options class that refuses what a table may not hold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleViolation, Violation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.game import (
    INT,
    MELDED_POINTS,
    TABLE_FORM,
    TABLE_FORMS,
    OptionSpec,
    house_rule,
)
from scoring.options import bad_option, is_int, json_value, kind_violations, read_options
from scoring.scoresheet import player_count

MIN_PLAYERS = 2
# RAM-SETUP: the standard table seats 2-4; the classic game allows up to 6.
MAX_PLAYERS = 6
HAND_SIZE = 13
SHORT_HAND_SIZE_2 = 10
SHORT_HAND_SIZE = 7
KNOCK_CLAIM_PLAYERS = 3
# RAM-MATCH: an evening's table; the page lets the table choose, so any count in range.
MIN_HANDS = 1
MAX_HANDS = 20
DEFAULT_HANDS = 5
OPENING_MINIMUM = 30
SCALA40_MINIMUM = 40
JOKER_VALUE = 20
ACE_VALUE = 11
CASINO_QUEEN_OF_SPADES = 40
CASINO_ACE = 15
CASINO_LOW = 5

# The options as the pages offer them, the house rules in the order of docs/rules.md.
OPTIONS = (
    OptionSpec("hands", INT, "RAM-MATCH", DEFAULT_HANDS, (), MIN_HANDS, MAX_HANDS, summary="hands"),
    # Follows the house rules (RAM-OPEN): shown, never chosen.
    OptionSpec("opening_minimum", INT, "RAM-OPEN", forms=()),
    house_rule("short_deck", "RAM-OPT-SHORT"),
    house_rule("scala40", "RAM-OPT-SCALA40"),
    house_rule("no_opening", "RAM-OPT-NOOPEN"),
    house_rule("circular_runs", "RAM-OPT-CIRCULAR"),
    house_rule("no_jokers", "RAM-OPT-NOJOKER"),
    house_rule("fixed_jokers", "RAM-OPT-FIXEDJOKER"),
    house_rule("fixed_groups", "RAM-OPT-FIXEDGROUPS"),
    # A claim out of turn changes nothing the referee answers.
    house_rule("knock_claim", "RAM-OPT-KNOCKCLAIM", forms=TABLE_FORMS),
    house_rule("no_discard_win", "RAM-OPT-NODISCARDWIN"),
    # Named on the board: it changes what an entry by points asks.
    house_rule("casino_scoring", "RAM-OPT-CASINO", summary="named", means=MELDED_POINTS),
    # A league's tables always count; a practice table changes no answer of the referee.
    house_rule("practice", "RAM-OPT-PRACTICE", forms=(TABLE_FORM,)),
)
_BOOL_OPTIONS = tuple(spec.key for spec in OPTIONS if spec.house)
# opening_minimum follows from scala40 / no_opening / short_deck; to_dict shows it and
# from_dict accepts it back when it agrees.
OPTION_KEYS = ("hands", *_BOOL_OPTIONS, "opening_minimum")
_USED_FLAGS = ("went_out", "hand_closed")


@dataclass(frozen=True, slots=True)
class RaminoOptions:
    """Hold a Ramino table's options and house rules (docs/rules.md, Table options).

    no_opening None follows short_deck, which turns it on (RAM-OPT-SHORT); switching it off
    by hand with the short deck is refused. scala40 asks for a 40-point opening and
    no_opening for none, so the two together (short_deck included) are refused rather than
    one silently winning. House rules with nothing to act on (fixed_jokers without jokers,
    knock_claim with 2 players) are refused too, so the table never shows a dead rule.
    """

    hands: int = DEFAULT_HANDS
    short_deck: bool = False
    scala40: bool = False
    no_opening: bool | None = None
    circular_runs: bool = False
    no_jokers: bool = False
    fixed_jokers: bool = False
    fixed_groups: bool = False
    knock_claim: bool = False
    no_discard_win: bool = False
    casino_scoring: bool = False
    practice: bool = False

    def __post_init__(self) -> None:
        if self.no_opening is None:
            object.__setattr__(self, "no_opening", self.short_deck is True)
        violations = kind_violations(self, _BOOL_OPTIONS)
        if not is_int(self.hands) or not MIN_HANDS <= self.hands <= MAX_HANDS:
            violations.append(
                Violation(
                    rule="RAM-MATCH",
                    code="bad_hands",
                    message=(
                        f"A Ramino table plays {MIN_HANDS} to {MAX_HANDS} hands, "
                        f"not {self.hands!r}."
                    ),
                    params={"hands": json_value(self.hands), "min": MIN_HANDS, "max": MAX_HANDS},
                )
            )
        if violations:
            raise RuleViolation(*violations)
        if self.short_deck and not self.no_opening:
            violations.append(
                Violation(
                    rule="RAM-OPT-SHORT",
                    code="opening",
                    message="The short deck turns on 'no opening': it cannot be switched off.",
                    params={},
                )
            )
        elif self.scala40 and self.no_opening:
            conflict = "short_deck" if self.short_deck else "no_opening"
            violations.append(
                Violation(
                    rule="RAM-OPT-SCALA40",
                    code="conflict",
                    message=f"Scala 40 asks for a 40-point opening, {conflict} for none.",
                    params={"option": conflict},
                )
            )
        if self.fixed_jokers and self.no_jokers:
            violations.append(
                Violation(
                    rule="RAM-OPT-FIXEDJOKER",
                    code="no_jokers",
                    message="Fixed jokers needs jokers, but this table plays without them.",
                    params={},
                )
            )
        if violations:
            raise RuleViolation(*violations)

    @property
    def opening_minimum(self) -> int:
        """Return the points a first meld needs (RAM-OPEN, RAM-OPT-SCALA40, RAM-OPT-NOOPEN)."""
        if self.no_opening:
            return 0
        return SCALA40_MINIMUM if self.scala40 else OPENING_MINIMUM

    @property
    def counts_in_standings(self) -> bool:
        """Tell whether the table's results count for leagues and ratings (RAM-OPT-PRACTICE)."""
        return not self.practice

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> RaminoOptions:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        players = check_players(players)
        values = read_options(data, OPTION_KEYS, "Ramino")
        claimed = values.pop("opening_minimum", None)
        options = cls(**values)
        if claimed is not None and claimed != options.opening_minimum:
            raise RuleViolation(
                bad_option(
                    "opening_minimum",
                    claimed,
                    f"{options.opening_minimum} (set by scala40, no_opening and short_deck)",
                )
            )
        if options.knock_claim and players < KNOCK_CLAIM_PLAYERS:
            raise _refuse(
                "RAM-OPT-KNOCKCLAIM",
                "players",
                f"Knocking for the last discard needs 3 or more players, not {players}.",
                count=players,
                min=KNOCK_CLAIM_PLAYERS,
            )
        return options

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, opening_minimum included, ready for JSON."""
        return {key: getattr(self, key) for key in OPTION_KEYS}


def check_players(players: object) -> int:
    """Return the number of players if Ramino is played by that many, else refuse it."""
    return player_count(
        players, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), rule="RAM-SETUP", game="Ramino"
    )
