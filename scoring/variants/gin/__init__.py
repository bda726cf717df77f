"""Gin Rummy (docs/rules.md) as the engine reads it: a hand entered by counts or cards, a hand
played move by move, the match, the standings' counts and the referee's answers.

The options and the scoring of one hand are in scoring/variants/gin/scores.py, the
referee's answers in scoring/variants/gin/referee.py; this module ties them into ``GAME``.

A hand is recorded (JSON) by the two counts the players announce::

    {"mode": "quick", "knocker": 0, "ending": "knock",     # "knock", "gin" or "big_gin"
     "knocker_count": 7, "defender_count": 23}
    {"mode": "quick", "ending": "wall"}                    # a void hand (GIN-WALL)

or by the cards both players show (the ending is read from them; when given, the cards must
bear it out)::

    {"mode": "cards", "knocker": 0, "knocker_cards": "<10 or 11 cards>",
     "defender_cards": "<10 cards>", "ending": "knock"}

At an Oklahoma table (GIN-OKLAHOMA) either entry also names the hand's first upcard,
``"upcard": "7S"``, which sets its knock limit (optional at a wall); no other table takes it.
A hand played move by move names it when it is dealt.

The match, with American scoring's bonuses and Hollywood's three games, is
scoring/variants/gin/match.py's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card
from scoring.game import (
    ALL_FORMS,
    BOOL,
    CHOICE,
    INT,
    KNOCKER_DEFENDER_ENTRY,
    NAMES_UPCARD,
    SEVERAL_GAMES,
    BookColumn,
    GameRules,
    OptionSpec,
    RefereeRules,
    ReviewRules,
    SeatFlag,
    StandingsReading,
)
from scoring.hands import HandEnd
from scoring.payloads import cards_field, check_fields, field_choice, field_int, field_seat
from scoring.payloads.fields import one_card
from scoring.play.rules import KNOCK_SHOWING, KnockLimitByDeal, OutWithoutDiscard, PlayRules
from scoring.variants.gin import referee as gin_referee
from scoring.variants.gin import samples
from scoring.variants.gin.cards import gin_value
from scoring.variants.gin.match import match_result
from scoring.variants.gin.options import (
    BIG_GIN,
    BIG_GIN_PRESET,
    BIG_GIN_SIZE,
    BONUS_LIMITS,
    CLASSIC_PRESET,
    ENDINGS,
    GIN,
    HAND_SIZE,
    KNOCK,
    KNOCK_LIMIT,
    MAX_COUNT,
    PRESETS,
    SHUTOUT_DOUBLES,
    TARGETS,
    WALL,
    GinOptions,
)
from scoring.variants.gin.scores import (
    GIN_DECK,
    GIN_MELDS,
    GinHandResult,
    match_winner,
    oklahoma_limit,
    score_cards,
    score_quick,
    score_wall,
)
from scoring.variants.gin.words import WORDS, hand_line

__all__ = [
    "BIG_GIN",
    "BIG_GIN_PRESET",
    "BIG_GIN_SIZE",
    "CLASSIC_PRESET",
    "ENDINGS",
    "GAME",
    "GIN",
    "GIN_DECK",
    "GIN_MELDS",
    "HAND_SIZE",
    "KNOCK",
    "KNOCK_LIMIT",
    "MAX_COUNT",
    "PRESETS",
    "TARGETS",
    "WALL",
    "GinCardsEntry",
    "GinEntry",
    "GinHandResult",
    "GinOptions",
    "GinQuickEntry",
    "GinWallEntry",
    "match_result",
    "match_winner",
    "score_cards",
    "score_quick",
    "score_wall",
]

QUICK_FIELDS = ("mode", "knocker", "ending", "knocker_count", "defender_count", "upcard")
CARDS_FIELDS = ("mode", "knocker", "knocker_cards", "defender_cards", "ending", "upcard")
# GIN-WALL: the hand is void when the stock is down to two cards (none with the option off).
WALL_STOCK = 2


def hand_endings(options: GinOptions) -> tuple[str, ...]:
    """Return the endings a hand entered by its result offers: a knock and gin, Big Gin where
    the options pay it (GIN-BIGGIN), the wall where it counts (GIN-WALL)."""
    return (
        KNOCK,
        GIN,
        *((BIG_GIN,) if options.big_gin else ()),
        *((WALL,) if options.wall else ()),
    )


def options_from_dict(data: Mapping[str, Any], players: int) -> GinOptions:
    """Build the table's options from its preset and overrides (always two seats)."""
    return GinOptions.from_dict(data)


def options_to_dict(options: GinOptions) -> dict[str, Any]:
    """Return the options as an explicit JSON dict."""
    return options.to_dict()


@dataclass(frozen=True, slots=True)
class GinWallEntry:
    """Hold a hand entered as void at the wall (GIN-WALL)."""

    upcard: Card | None = None


@dataclass(frozen=True, slots=True)
class GinQuickEntry:
    """Hold a hand entered by the two counts the players announce."""

    knocker: int
    ending: str
    knocker_count: int
    defender_count: int
    upcard: Card | None = None


@dataclass(frozen=True, slots=True)
class GinCardsEntry:
    """Hold a hand entered by the cards both players show; the ending, if given, is checked."""

    knocker: int
    knocker_cards: tuple[Card, ...]
    defender_cards: tuple[Card, ...]
    ending: str | None
    upcard: Card | None = None


GinEntry = GinWallEntry | GinQuickEntry | GinCardsEntry


def _upcard(payload: Mapping[str, Any]) -> Card | None:
    """Read the hand's first upcard where the entry names one (GIN-OKLAHOMA)."""
    return one_card(payload, "upcard") if payload.get("upcard") is not None else None


def read_entry(options: GinOptions, payload: Mapping[str, Any], seats: tuple[str, ...]) -> GinEntry:
    """Read a hand entered quickly (counts) or by the cards each player held."""
    mode = field_choice(payload, "mode", ("quick", "cards"))
    if mode == "quick":
        ending = field_choice(payload, "ending", (*ENDINGS, WALL))
        if ending == WALL:
            check_fields(payload, ("mode", "ending", "upcard"))
            return GinWallEntry(upcard=_upcard(payload))
        check_fields(payload, QUICK_FIELDS)
        return GinQuickEntry(
            knocker=field_seat(payload, "knocker", seats=len(seats)),
            ending=ending,
            knocker_count=field_int(payload, "knocker_count", low=0, high=MAX_COUNT),
            defender_count=field_int(payload, "defender_count", low=0, high=MAX_COUNT),
            upcard=_upcard(payload),
        )
    check_fields(payload, CARDS_FIELDS)
    ending = payload.get("ending")
    if ending is not None:
        ending = field_choice(payload, "ending", ENDINGS)
    return GinCardsEntry(
        knocker=field_seat(payload, "knocker", seats=len(seats)),
        knocker_cards=cards_field(payload, "knocker_cards"),
        defender_cards=cards_field(payload, "defender_cards"),
        ending=ending,
        upcard=_upcard(payload),
    )


def score_entry(options: GinOptions, entry: GinEntry, seats: tuple[str, ...]) -> GinHandResult:
    """Score a hand entered quickly (counts), by the cards each player held, or as void."""
    if isinstance(entry, GinWallEntry):
        return score_wall(options, upcard=entry.upcard)
    if isinstance(entry, GinQuickEntry):
        return score_quick(
            options,
            knocker=entry.knocker,
            ending=entry.ending,
            knocker_count=entry.knocker_count,
            defender_count=entry.defender_count,
            upcard=entry.upcard,
        )
    return score_cards(
        options,
        knocker=entry.knocker,
        knocker_cards=entry.knocker_cards,
        defender_cards=entry.defender_cards,
        ending=entry.ending,
        upcard=entry.upcard,
    )


def score_play(options: GinOptions, end: HandEnd, seats: tuple[str, ...]) -> GinHandResult:
    """Score a hand played move by move: void at the wall, else from the cards shown; at an
    Oklahoma table with the upcard it was dealt with (GIN-OKLAHOMA)."""
    upcard = end.upcard if options.oklahoma else None
    if end.ending == WALL:
        return score_wall(options, stock_empty=not options.wall, upcard=upcard)
    knocker = end.seat
    return score_cards(
        options,
        knocker=knocker,
        knocker_cards=end.players[knocker].hand,
        defender_cards=end.players[1 - knocker].hand,
        upcard=upcard,
    )


def play_rules(options: GinOptions, players: int) -> PlayRules:
    """Return what a Gin table allows in play (GIN-TURN, GIN-FIRST, GIN-KNOCK, GIN-WALL; at
    an Oklahoma table each deal's upcard sets the knock limit, GIN-OKLAHOMA)."""
    return PlayRules(
        deck=GIN_DECK,
        hand_size=HAND_SIZE,
        melds=GIN_MELDS,
        value=gin_value,
        turn_rule="GIN-TURN",
        setup_rule="GIN-SETUP",
        first_turn_rule="GIN-FIRST",
        no_rediscard_rule="GIN-NOREDISCARD" if options.no_rediscard else None,
        wall=WALL_STOCK if options.wall else 0,
        knock=KNOCK_SHOWING,
        knock_rule="GIN-KNOCK",
        knock_limit=KNOCK_LIMIT,
        melds_at_knock=True,
        melds_in_play_code="gin_melds",
        show_by_points=False,
        # Big Gin: all 11 cards melded, no discard (GIN-BIGGIN), cited where not played too.
        out_without_discard=OutWithoutDiscard("GIN-BIGGIN", allowed=options.big_gin),
        knock_limit_by_deal=(
            KnockLimitByDeal("GIN-OKLAHOMA", oklahoma_limit) if options.oklahoma else None
        ),
    )


def hand_winners(result: GinHandResult) -> tuple[int, ...]:
    """Return the seat that scored in the hand: none at a wall or a tie without undercut."""
    return () if result.winner is None else (result.winner,)


def hand_counts(result: GinHandResult, seat: int) -> Counter[str]:
    """Count the seat's knocks, gins and big gins, and the knocks it undercut as defender."""
    counts: Counter[str] = Counter()
    if result.knocker == seat:
        names = {KNOCK: "knocks", GIN: "gins", BIG_GIN: "big_gins"}
        counts[names[result.ending]] += 1
    elif result.undercut and result.knocker is not None:
        counts["undercuts"] += 1
    return counts


def hand_figures(options: GinOptions, result: GinHandResult, seat: int) -> Counter[str]:
    """Give the seat's book figures: knocks of its own undercut, and as the defender of a
    knock, gin or Big Gin, its count (``caught``, ``deadwood_caught``).

    The defender's count is the one the hand was scored with (after layoffs on a knock),
    known whether the hand was entered by counts or by cards; a wall catches nobody.
    """
    figures: Counter[str] = Counter()
    if result.knocker is None:
        return figures
    if result.knocker == seat:
        figures["undercuts_taken"] += int(result.undercut)
    else:
        figures["caught"] += 1
        figures["deadwood_caught"] += result.defender_count
    return figures


def hand_played(result: GinHandResult) -> bool:
    """Tell whether the hand was played: a wall is not (GIN-WALL voids it)."""
    return result.ending != WALL


def referee_table(data: Mapping[str, Any]) -> tuple[GinOptions, int]:
    """Read a referee request's options, its preset given apart or among them; two seats."""
    options = dict(data.get("options") or {})
    if data.get("preset"):
        options["preset"] = data["preset"]
    return GinOptions.from_dict(options), 2


def _set_or_preset(key: str, rule: str, kind: str = BOOL, high: int = 0, **more: Any) -> OptionSpec:
    """Return the spec of an option the preset gives unless the table sets it (GIN-*)."""
    return OptionSpec(key, kind, rule, high=high, from_preset=True, house=True, **more)


def _bonus(key: str, rule: str, **more: Any) -> OptionSpec:
    """Return the spec of a bonus the preset gives unless the table sets it: 0 to its most,
    or any from 0 (the undercut bonus)."""
    return _set_or_preset(key, rule, INT, BONUS_LIMITS.get(key, 0), **more)


# Each length a preset plays, in order (GIN-MATCH): the forms offer those of the preset chosen.
_ALL_TARGETS = tuple(sorted({target for targets in TARGETS.values() for target in targets}))
OPTIONS = (
    OptionSpec(
        "preset",
        CHOICE,
        "GIN-BIGGIN",
        BIG_GIN_PRESET,
        tuple(PRESETS),
        forms=ALL_FORMS,
        summary="choice",
    ),
    OptionSpec(
        "target",
        CHOICE,
        "GIN-MATCH",
        100,
        _ALL_TARGETS,
        choices_by="preset",
        choices_for=tuple(TARGETS.items()),
        summary="playing_to",
    ),
    OptionSpec("no_rediscard", BOOL, "GIN-NOREDISCARD", True, house=True),
    OptionSpec("wall", BOOL, "GIN-WALL", True, house=True),
    _set_or_preset("undercut_on_tie", "GIN-UNDERCUT", forms=ALL_FORMS),
    _set_or_preset("big_gin", "GIN-BIGGIN"),
    _set_or_preset("shutout", "GIN-SHUTOUT", line_when="shutout"),
    _set_or_preset(
        "shutout_doubles", "GIN-SHUTOUT", CHOICE, choices=SHUTOUT_DOUBLES, line_when="shutout"
    ),
    _set_or_preset("oklahoma", "GIN-OKLAHOMA", line_when="oklahoma", means=NAMES_UPCARD),
    _set_or_preset("spade_double", "GIN-SPADES", line_when="spade_double"),
    _set_or_preset("hollywood", "GIN-HOLLYWOOD", line_when="hollywood", means=SEVERAL_GAMES),
    _bonus("gin_bonus", "GIN-GIN"),
    _bonus("undercut_bonus", "GIN-UNDERCUT"),
    _bonus("big_gin_bonus", "GIN-BIGGIN", line_when="big_gin"),
    _bonus("box_bonus", "GIN-BOX", line_when="box_bonus"),
    _bonus("game_bonus", "GIN-GAME", line_when="game_bonus"),
)

GAME = GameRules(
    key="gin",
    examples=samples.EXAMPLES,
    players=(2, 2),
    setup_rule="GIN-SETUP",
    match_rule="GIN-MATCH",
    # 10 dealt, 11 after the draw (Big Gin is declared with all 11).
    most_in_hand=HAND_SIZE + 1,
    # The match entry only where a game's end adds bonuses or the sheet holds three games:
    # the other tables' cached projections predate it.
    match_entry=lambda options: options.match_bonuses,
    options_from_dict=options_from_dict,
    options_to_dict=options_to_dict,
    deck=lambda options, players: GIN_DECK,
    hand_size=lambda options, players: HAND_SIZE,
    hand_endings=hand_endings,
    endings_without_discard=frozenset({BIG_GIN}),
    meld_rules=lambda options: GIN_MELDS,
    card_value=lambda options: gin_value,
    play_rules=play_rules,
    read_entry=read_entry,
    score_entry=score_entry,
    score_play=score_play,
    match_result=match_result,
    # GIN-MATCH: over once a total reaches the target (a single hand: once someone scored).
    # Hollywood's three games are worked out after every hand (GIN-HOLLYWOOD).
    may_end=lambda options, totals, hands: options.hollywood or max(totals) >= options.target,
    standings=StandingsReading(
        counts=("knocks", "gins", "big_gins", "undercuts"),
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        hand_played=hand_played,
        figures=("undercuts_taken", "caught", "deadwood_caught"),
        hand_figures=hand_figures,
        book_columns=(
            BookColumn("gins"),
            BookColumn("big_gins"),
            BookColumn("undercuts"),
            BookColumn("undercuts_taken"),
            BookColumn("deadwood_caught", of="caught"),
        ),
        book_notes=("GIN-DEADWOOD",),
    ),
    referee=RefereeRules(
        input_rules=frozenset({"GIN-SETUP"}),
        table=referee_table,
        questions={
            "meld": gin_referee.meld_answer,
            "hand": gin_referee.hand_answer,
            "layoff": gin_referee.layoff_answer,
            "score": gin_referee.score_answer,
        },
    ),
    review=ReviewRules(
        count_rule="GIN-DEADWOOD",
        knock_rule="GIN-KNOCK",
        all_melded_rule="GIN-GIN",
        layoff_rule="GIN-LAYOFF",
    ),
    name="Gin Rummy",
    rule_prefix="GIN-",
    options=OPTIONS,
    presets=PRESETS,
    hand_entry=KNOCKER_DEFENDER_ENTRY,
    # Only the referee asks who knocked by a flag: a hand is entered by knocker and defender.
    seat_flags=(SeatFlag("knocked", "GIN-KNOCK"),),
    table_melds=False,
    provisional="knock_difference",
    words=WORDS,
    hand_line=hand_line,
)
