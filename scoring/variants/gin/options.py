"""Gin Rummy's options (docs/rules.md): the presets players know (Big Gin, Classic, American,
Oklahoma, Hollywood), the bonuses and switches a table may set, and the limits of a hand
(scoring/variants/gin/scores.py scores one hand under them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scoring.errors import RuleViolation, Violation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.options import bad_option, is_int, json_value, kind_violations, read_options

BIG_GIN_PRESET = "big_gin"
CLASSIC_PRESET = "classic"
AMERICAN_PRESET = "american"
OKLAHOMA_PRESET = "oklahoma"
HOLLYWOOD_PRESET = "hollywood"
# The two presets every table had before American scoring: their tables' options (and so their
# projections, cached or not) name only these keys unless a new option is moved off its
# default (GinOptions.to_dict), so a fresh replay of an older table equals its cached state.
LEGACY_PRESETS = (BIG_GIN_PRESET, CLASSIC_PRESET)
LEGACY_KEYS = ("undercut_bonus", "undercut_on_tie", "no_rediscard", "wall", "target")

# GIN-SHUTOUT: what a shutout doubles. The sources differ (Pagat the game bonus, Wikipedia
# every hand's points); doubling both is the house reading every table had before the choice.
SHUTOUT_BOTH = "both"
SHUTOUT_GAME_BONUS = "game_bonus"
SHUTOUT_HAND_POINTS = "hand_points"
SHUTOUT_DOUBLES = (SHUTOUT_BOTH, SHUTOUT_GAME_BONUS, SHUTOUT_HAND_POINTS)
# What every preset leaves as it was before American scoring (GIN-GIN, GIN-BIGGIN, and no
# bonus at the game's end).
_NO_AMERICAN: Mapping[str, Any] = MappingProxyType(
    {
        "gin_bonus": 25,
        "big_gin_bonus": 31,
        "box_bonus": 0,
        "game_bonus": 0,
        "shutout": False,
        "shutout_doubles": SHUTOUT_BOTH,
        "oklahoma": False,
        "spade_double": False,
        "hollywood": False,
    }
)
# American scoring as Pagat, Hoyle (the Bicycle rules) and Wikipedia give it: gin and undercut
# 25 (a tie undercuts), a box of 25 per hand won, 100 for the game, shutouts doubled; Big
# Gin is not part of it (a table may add it).
_AMERICAN: Mapping[str, Any] = MappingProxyType(
    {
        **_NO_AMERICAN,
        "undercut_bonus": 25,
        "undercut_on_tie": True,
        "no_rediscard": True,
        "wall": True,
        "target": 100,
        "big_gin": False,
        "box_bonus": 25,
        "game_bonus": 100,
        "shutout": True,
    }
)
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        BIG_GIN_PRESET: MappingProxyType(
            {
                "undercut_bonus": 25,
                "undercut_on_tie": False,
                "no_rediscard": True,
                "wall": True,
                "target": 100,
                "big_gin": True,
                **_NO_AMERICAN,
            }
        ),
        CLASSIC_PRESET: MappingProxyType(
            {
                "undercut_bonus": 0,
                "undercut_on_tie": False,
                "no_rediscard": True,
                "wall": True,
                "target": 100,
                "big_gin": False,
                **_NO_AMERICAN,
            }
        ),
        AMERICAN_PRESET: _AMERICAN,
        # GIN-OKLAHOMA, GIN-SPADES: Oklahoma is usually played to 150.
        OKLAHOMA_PRESET: MappingProxyType(
            {**_AMERICAN, "oklahoma": True, "spade_double": True, "target": 150}
        ),
        HOLLYWOOD_PRESET: MappingProxyType({**_AMERICAN, "hollywood": True}),
    }
)
# GIN-MATCH; a target of 1 is a single hand. American scoring is a race to a target, so its
# presets have no single hand.
_AMERICAN_TARGETS = (100, 125, 150, 200, 250)
TARGETS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        BIG_GIN_PRESET: (1, 100, 200, 500),
        CLASSIC_PRESET: (1, 50, 100, 200),
        AMERICAN_PRESET: _AMERICAN_TARGETS,
        OKLAHOMA_PRESET: _AMERICAN_TARGETS,
        HOLLYWOOD_PRESET: _AMERICAN_TARGETS,
    }
)

KNOCK = "knock"
GIN = "gin"
BIG_GIN = "big_gin"
ENDINGS: tuple[str, ...] = (KNOCK, GIN, BIG_GIN)
# Not a way to go out: the hand is void (GIN-WALL).
WALL = "wall"

HAND_SIZE = 10
BIG_GIN_SIZE = 11
KNOCK_LIMIT = 10
# The largest deadwood 10 cards can have. Only 10 J Q K are worth 10, and each of them may
# show in at most two suits (three would be a set), so at most eight such cards: 80. The two
# cards left are worth at most 9 each, and 9♣ J♣ K♣ 9♠ J♠ K♠ 10♥ Q♥ 10♦ Q♦ holds no meld:
# 98. A defender's count is never higher; a knocker's is at most KNOCK_LIMIT.
MAX_COUNT = 98
# Hollywood (GIN-HOLLYWOOD): three games on one sheet.
HOLLYWOOD_GAMES = 3

_BOOL_OPTIONS = (
    "undercut_on_tie",
    "no_rediscard",
    "wall",
    "big_gin",
    "shutout",
    "oklahoma",
    "spade_double",
    "hollywood",
)
# The bonuses a table may set, each with the most it may be (every input is bounded).
BONUS_LIMITS: Mapping[str, int] = MappingProxyType(
    {"gin_bonus": 100, "big_gin_bonus": 100, "box_bonus": 100, "game_bonus": 500}
)


def _preset_refused(preset: object) -> RuleViolation:
    return RuleViolation(bad_option("preset", preset, ", ".join(PRESETS)))


@dataclass(frozen=True, slots=True)
class GinOptions:
    """Hold a Gin table's options (docs/rules.md); undercut_bonus None takes the preset's.

    A ``GinOptions()`` made in code is the Big Gin preset; tables build theirs with
    ``from_dict``, which starts from the preset's own values.
    """

    preset: str = BIG_GIN_PRESET
    undercut_bonus: int | None = None
    undercut_on_tie: bool = False
    no_rediscard: bool = True
    wall: bool = True
    target: int = 100
    big_gin: bool = True
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    box_bonus: int = 0
    game_bonus: int = 0
    shutout: bool = False
    shutout_doubles: str = SHUTOUT_BOTH
    oklahoma: bool = False
    spade_double: bool = False
    hollywood: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str) or self.preset not in PRESETS:
            raise _preset_refused(self.preset)
        if self.undercut_bonus is None:
            object.__setattr__(self, "undercut_bonus", PRESETS[self.preset]["undercut_bonus"])
        violations = kind_violations(self, _BOOL_OPTIONS, {"undercut_bonus": 0})
        violations += [
            bad_option(name, getattr(self, name), f"a whole number from 0 to {high}")
            for name, high in BONUS_LIMITS.items()
            if not is_int(getattr(self, name)) or not 0 <= getattr(self, name) <= high
        ]
        if self.shutout_doubles not in SHUTOUT_DOUBLES:
            violations.append(
                bad_option("shutout_doubles", self.shutout_doubles, ", ".join(SHUTOUT_DOUBLES))
            )
        targets = TARGETS[self.preset]
        if not is_int(self.target) or self.target not in targets:
            violations.append(
                Violation(
                    rule="GIN-MATCH",
                    code="bad_target",
                    message=(
                        f"A {self.preset} match cannot be played to {self.target!r}; choose "
                        f"{', '.join(map(str, targets))} (1 is a single hand)."
                    ),
                    params={
                        "target": json_value(self.target),
                        "choices": list(targets),
                        "preset": self.preset,
                    },
                )
            )
        elif self.hollywood is True and self.target == 1:
            violations.append(
                Violation(
                    rule="GIN-HOLLYWOOD",
                    code="single_hand",
                    message="Hollywood plays three games to a target, not a single hand.",
                    params={"target": 1},
                )
            )
        if self.spade_double is True and self.oklahoma is not True:
            violations.append(
                Violation(
                    rule="GIN-SPADES",
                    code="needs_oklahoma",
                    message="Spades double only at an Oklahoma table, where the upcard counts.",
                    params={},
                )
            )
        if violations:
            raise RuleViolation(*violations)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GinOptions:
        """Build options from a JSON dict: the preset first, its defaults, then the overrides."""
        data = read_options(data, ("preset", *PRESETS[BIG_GIN_PRESET]), "Gin Rummy")
        preset = data.get("preset", BIG_GIN_PRESET)
        if not isinstance(preset, str) or preset not in PRESETS:
            raise _preset_refused(preset)
        overrides = {key: value for key, value in data.items() if key != "preset"}
        return cls(preset=preset, **{**PRESETS[preset], **overrides})

    def every_option(self) -> dict[str, Any]:
        """Return every option, each one named, ready for JSON."""
        return {"preset": self.preset, **{key: getattr(self, key) for key in PRESETS[self.preset]}}

    def to_dict(self) -> dict[str, Any]:
        """Return the options ready for JSON, explicitly enough to build them again.

        A Big Gin or Classic table names the options it always named, and a newer one only
        where the table moved it off the preset's value: the projections of the tables made
        before those options existed stay what a fresh replay makes (the audit compares
        them). The other presets name every option.
        """
        every = self.every_option()
        if self.preset not in LEGACY_PRESETS:
            return every
        defaults = PRESETS[self.preset]
        return {
            key: value
            for key, value in every.items()
            if key == "preset" or key in LEGACY_KEYS or value != defaults[key]
        }

    @property
    def match_bonuses(self) -> bool:
        """Tell whether a game's end adds bonuses or the sheet holds three games."""
        return bool(self.box_bonus or self.game_bonus or self.shutout or self.hollywood)
