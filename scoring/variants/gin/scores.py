"""Gin Rummy (docs/rules.md): the scoring of one hand under the table's options (those are
scoring/variants/gin/options.py; the game itself, as the engine reads it, is
scoring/variants/gin/)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, DeckSpec, check_copies, parse_cards, sort_cards
from scoring.errors import RuleViolation, Violation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.hands import ScoreItem
from scoring.melds import Meld, MeldRules
from scoring.options import is_int, json_value
from scoring.solver import (
    Arrangement,
    LayoffResult,
    best_arrangement,
    best_layoff,
    min_arrangements,
    prepare,
)
from scoring.variants.gin.cards import gin_value
from scoring.variants.gin.options import (
    BIG_GIN,
    BIG_GIN_SIZE,
    ENDINGS,
    GIN,
    HAND_SIZE,
    KNOCK,
    KNOCK_LIMIT,
    MAX_COUNT,
    WALL,
    GinOptions,
)

# No jokers: entering one cites GIN-SETUP.
GIN_DECK = DeckSpec(decks=1, jokers=0, no_jokers_rule="GIN-SETUP")
GIN_MELDS = MeldRules(no_jokers_rule="GIN-SETUP")
# About a millisecond, spent at import so that no scored hand pays it.
prepare(GIN_MELDS, gin_value)


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


@dataclass(frozen=True, slots=True)
class GinHandResult:
    """Hold how one hand ended and what each seat scored, itemised by rule."""

    ending: str  # "knock", "gin", "big_gin" or "wall"
    knocker: int | None  # None only for a wall
    knocker_count: int
    defender_count: int
    points: tuple[int, int]
    winner: int | None
    undercut: bool
    items: tuple[ScoreItem, ...]
    # Filled when the hand was scored from the cards; empty in quick mode.
    knocker_melds: tuple[Meld, ...] = ()
    knocker_deadwood: tuple[Card, ...] = ()
    defender_melds: tuple[Meld, ...] = ()
    defender_layoffs: tuple[tuple[Card, int], ...] = ()
    defender_deadwood: tuple[Card, ...] = ()
    knocker_cards: tuple[Card, ...] = ()
    defender_cards: tuple[Card, ...] = ()
    # Oklahoma (GIN-OKLAHOMA): the hand's first upcard, which set its knock limit.
    upcard: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON: cards in notation, melds as lists of cards.

        The upcard only where the hand has one, so the hands scored before Oklahoma
        existed keep the shape their cached projections hold.
        """
        upcard = {} if self.upcard is None else {"upcard": str(self.upcard)}
        return {
            "ending": self.ending,
            "knocker": self.knocker,
            "knocker_count": self.knocker_count,
            "defender_count": self.defender_count,
            "points": list(self.points),
            "winner": self.winner,
            "undercut": self.undercut,
            "items": [item.to_dict() for item in self.items],
            "knocker_melds": [_names(meld.cards) for meld in self.knocker_melds],
            "knocker_deadwood": _names(self.knocker_deadwood),
            "defender_melds": [_names(meld.cards) for meld in self.defender_melds],
            "defender_layoffs": [[str(card), index] for card, index in self.defender_layoffs],
            "defender_deadwood": _names(self.defender_deadwood),
            "knocker_cards": _names(self.knocker_cards),
            "defender_cards": _names(self.defender_cards),
            **upcard,
        }


def _score(
    options: GinOptions,
    knocker: int,
    ending: str,
    knocker_count: int,
    defender_count: int,
    *,
    from_knock: bool = False,
    upcard: Card | None = None,
    **shown: Any,
) -> GinHandResult:
    """Score a validated hand (GIN-SCORE-KNOCK, GIN-UNDERCUT, GIN-SCORE-GIN), doubled by a
    spade upcard where spades double (GIN-SPADES)."""
    k, d = knocker_count, defender_count
    items, undercut = _hand_items(options, knocker, ending, k, d, from_knock=from_knock)
    points = [0, 0]
    for item in items:
        points[item.seat] += item.points
    winner = next((seat for seat in (0, 1) if points[seat] > 0), None)
    if winner is not None and upcard is not None and options.spade_double and upcard.suit == "S":
        # Everything the hand scored, bonuses included, once more: its own line on the sheet.
        items.append(
            ScoreItem("GIN-SPADES", winner, points[winner], {"upcard": str(upcard)}, code="double")
        )
        points[winner] *= 2
    return GinHandResult(
        ending=ending,
        knocker=knocker,
        knocker_count=k,
        defender_count=d,
        points=(points[0], points[1]),
        winner=winner,
        undercut=undercut,
        items=tuple(items),
        upcard=upcard,
        **shown,
    )


def _hand_items(
    options: GinOptions, knocker: int, ending: str, k: int, d: int, *, from_knock: bool
) -> tuple[list[ScoreItem], bool]:
    """Return a hand's score lines before any doubling, and whether it was an undercut."""
    defender = 1 - knocker
    counts = {"knocker": k, "defender": d}
    undercut = False
    bonus_params: dict[str, Any]
    if ending in (GIN, BIG_GIN):
        rule, bonus = (
            ("GIN-GIN", options.gin_bonus)
            if ending == GIN
            else ("GIN-BIGGIN", options.big_gin_bonus)
        )
        bonus_params = {"bonus": bonus}
        if from_knock:
            # The seed page: knocking with no deadwood is gin.
            bonus_params["from_knock"] = True
        items = [
            ScoreItem(rule, knocker, bonus, bonus_params, code="bonus"),
            ScoreItem("GIN-SCORE-GIN", knocker, d, counts, code="defender_count"),
        ]
    elif k < d:
        items = [ScoreItem("GIN-SCORE-KNOCK", knocker, d - k, counts, code="difference")]
    elif d < k or options.undercut_on_tie:
        undercut = True
        items = [ScoreItem("GIN-UNDERCUT", defender, k - d, counts, code="difference")]
        if options.undercut_bonus:
            bonus_params = {"bonus": options.undercut_bonus}
            items.append(
                ScoreItem(
                    "GIN-UNDERCUT", defender, options.undercut_bonus, bonus_params, code="bonus"
                )
            )
    else:
        # A tie without undercut_on_tie: the knocker scores 0 and nobody gets a bonus.
        items = [ScoreItem("GIN-UNDERCUT", knocker, 0, counts, code="tie")]
    return items, undercut


def _check_seat(knocker: object) -> int:
    if isinstance(knocker, int) and not isinstance(knocker, bool) and knocker in (0, 1):
        return knocker
    raise _refuse(
        "GIN-SETUP",
        "bad_seat",
        f"Gin Rummy has seats 0 and 1, not {knocker!r}.",
        seat=json_value(knocker),
    )


def _check_ending(ending: object) -> str:
    if isinstance(ending, str) and ending in ENDINGS:
        return ending
    raise _refuse(
        "GIN-KNOCK",
        "unknown_ending",
        f"A hand ends by knock, gin or big_gin, not {ending!r}.",
        ending=json_value(ending),
        choices=list(ENDINGS),
    )


def _check_big_gin(options: GinOptions) -> None:
    if not options.big_gin:
        raise _refuse(
            "GIN-BIGGIN",
            "not_available",
            "This table does not play Big Gin.",
            preset=options.preset,
        )


def oklahoma_limit(upcard: Card) -> int:
    """Return the most deadwood a knock may keep under this first upcard (GIN-OKLAHOMA):
    its value, a picture 10; an ace lets nobody knock, so the hand ends only by gin."""
    value = gin_value(upcard)
    return 0 if value == 1 else value


def knock_limit(options: GinOptions, upcard: Card | None) -> tuple[int, Card | None]:
    """Return the hand's knock limit and its upcard as scored: Oklahoma needs the upcard
    (GIN-OKLAHOMA); elsewhere there is none to give."""
    if not options.oklahoma:
        if upcard is not None:
            raise _refuse(
                "GIN-OKLAHOMA",
                "not_played",
                "This table does not play Oklahoma: the upcard sets nothing here.",
                card=str(upcard),
            )
        return KNOCK_LIMIT, None
    if upcard is None:
        raise _refuse(
            "GIN-OKLAHOMA",
            "upcard_needed",
            "At an Oklahoma table the hand's first upcard sets the knock limit: give it.",
        )
    return oklahoma_limit(upcard), upcard


def _over_knock_limit(count: int, limit: int, upcard: Card | None) -> RuleViolation:
    if upcard is not None:
        return _refuse(
            "GIN-OKLAHOMA",
            "over_limit",
            f"The upcard {upcard} lets a knock keep {limit} or less; this hand counts {count}.",
            count=count,
            limit=limit,
            card=str(upcard),
        )
    return _refuse(
        "GIN-KNOCK",
        "over_limit",
        f"A knock needs a deadwood count of {KNOCK_LIMIT} or less; this hand counts {count}.",
        count=count,
        limit=KNOCK_LIMIT,
    )


def _not_all_melded(ending: str, count: int) -> RuleViolation:
    if ending == GIN:
        return _refuse(
            "GIN-GIN",
            "deadwood",
            f"Gin needs every card in a meld; this hand has {count} points of deadwood.",
            count=count,
        )
    return _refuse(
        "GIN-BIGGIN",
        "deadwood",
        f"Big Gin needs all 11 cards in melds; this hand has {count} points of deadwood.",
        count=count,
    )


def score_quick(
    options: GinOptions,
    *,
    knocker: int,
    ending: str,
    knocker_count: int,
    defender_count: int,
    upcard: Card | None = None,
) -> GinHandResult:
    """Score a hand from the two counts the players announce (and, at an Oklahoma table,
    the hand's first upcard)."""
    knocker = _check_seat(knocker)
    ending = _check_ending(ending)
    limit, upcard = knock_limit(options, upcard)
    bad_counts = [
        Violation(
            rule="GIN-DEADWOOD",
            code="bad_count",
            message=f"The {player}'s count must be a whole number from 0 to {MAX_COUNT}.",
            params={"player": player, "count": json_value(count), "limit": MAX_COUNT},
        )
        for player, count in (("knocker", knocker_count), ("defender", defender_count))
        if not is_int(count) or not 0 <= count <= MAX_COUNT
    ]
    if bad_counts:
        raise RuleViolation(*bad_counts)
    if ending == BIG_GIN:
        _check_big_gin(options)
    if ending == KNOCK and knocker_count > limit:
        raise _over_knock_limit(knocker_count, limit, upcard)
    if ending != KNOCK and knocker_count:
        raise _not_all_melded(ending, knocker_count)
    from_knock = ending == KNOCK and knocker_count == 0
    return _score(
        options,
        knocker,
        GIN if from_knock else ending,
        knocker_count,
        defender_count,
        from_knock=from_knock,
        upcard=upcard,
    )


def _wrong_count(player: str, count: int, expected: int) -> Violation:
    return Violation(
        rule="GIN-SETUP",
        code="wrong_count",
        message=f"The {player} shows {count} cards; {expected} are needed.",
        params={"player": player, "count": count, "expected": expected},
    )


def _shown_cards(
    options: GinOptions,
    knocker_cards: str | Iterable[str | Card],
    defender_cards: str | Iterable[str | Card],
    ending: str | None,
) -> tuple[tuple[Card, ...], tuple[Card, ...], bool]:
    """Return the knocker's and the defender's cards and whether the hand is a Big Gin,
    refusing cards the deck cannot hold or counts the ending does not allow."""
    kept = parse_cards(knocker_cards)
    held = parse_cards(defender_cards)
    violations: list[Violation] = []
    try:
        check_copies([*kept, *held], GIN_DECK)
    except RuleViolation as exc:
        violations.extend(exc.violations)
    big_gin = ending == BIG_GIN or (ending is None and len(kept) == BIG_GIN_SIZE)
    if big_gin:
        _check_big_gin(options)
    expected = BIG_GIN_SIZE if big_gin else HAND_SIZE
    if len(kept) != expected:
        violations.append(_wrong_count("knocker", len(kept), expected))
    if len(held) != HAND_SIZE:
        violations.append(_wrong_count("defender", len(held), HAND_SIZE))
    if violations:
        raise RuleViolation(*violations)
    return kept, held, big_gin


def score_cards(
    options: GinOptions,
    *,
    knocker: int,
    knocker_cards: str | Iterable[str | Card],
    defender_cards: str | Iterable[str | Card],
    ending: str | None = None,
    upcard: Card | None = None,
) -> GinHandResult:
    """Score a hand from the cards both players show, arranging and laying off for them.

    The knocker shows the 10 cards kept after the discard, or all 11 for Big Gin. The ending
    is read from the cards; when one is given, the cards must bear it out. An Oklahoma
    table gives the hand's first upcard too (GIN-OKLAHOMA).
    """
    knocker = _check_seat(knocker)
    limit, upcard = knock_limit(options, upcard)
    if ending is not None:
        ending = _check_ending(ending)
        if ending == BIG_GIN:
            _check_big_gin(options)
    kept, held, big_gin = _shown_cards(options, knocker_cards, defender_cards, ending)
    # The knocker's count is the minimum over every arrangement (GIN-DEADWOOD). The knocker
    # shows the melds, so among the arrangements reaching that minimum they show the one
    # that leaves the defender the highest count after layoffs; ties go to the first.
    arrangements = min_arrangements(kept, rules=GIN_MELDS, value=gin_value, deck=GIN_DECK)
    count = arrangements[0].count
    claimed = ending
    if big_gin:
        ending = BIG_GIN
    elif count == 0:
        ending = GIN
    elif claimed is None:
        ending = KNOCK
    if count and ending != KNOCK:
        raise _not_all_melded(ending, count)
    if count > limit:
        raise _over_knock_limit(count, limit, upcard)
    shown_arrangement, defender = _defender_outcome(held, arrangements, ending)
    return _score(
        options,
        knocker,
        ending,
        count,
        defender.count,
        from_knock=claimed == KNOCK and ending == GIN,
        upcard=upcard,
        knocker_melds=shown_arrangement.melds,
        knocker_deadwood=shown_arrangement.deadwood,
        defender_melds=defender.melds,
        defender_layoffs=defender.layoffs,
        defender_deadwood=defender.deadwood,
        knocker_cards=sort_cards(kept),
        defender_cards=sort_cards(held),
    )


def _defender_outcome(
    held: Sequence[Card], arrangements: Sequence[Arrangement], ending: str
) -> tuple[Arrangement, LayoffResult]:
    """Return the knocker's arrangement shown and the defender's melds, layoffs and deadwood.

    After a knock the knocker shows, of the arrangements reaching the minimum, the one that
    leaves the defender the highest count after layoffs (the first of equals).
    """
    if ending == KNOCK:
        outcomes = [
            best_layoff(held, arrangement.melds, rules=GIN_MELDS, value=gin_value, deck=GIN_DECK)
            for arrangement in arrangements
        ]
        shown = max(range(len(outcomes)), key=lambda i: outcomes[i].count)
        return arrangements[shown], outcomes[shown]
    # Gin and Big Gin: the defender may not lay off (GIN-GIN, GIN-BIGGIN).
    own = best_arrangement(held, rules=GIN_MELDS, value=gin_value, deck=GIN_DECK)
    return arrangements[0], LayoffResult(own.melds, (), own.deadwood, own.count)


def score_wall(
    options: GinOptions, *, stock_empty: bool = False, upcard: Card | None = None
) -> GinHandResult:
    """Record a void hand: the stock ran down to two cards with nobody out (GIN-WALL).

    Without the wall rule a hand entered as a wall is refused, as play goes on; a hand played
    move by move whose stock ran out entirely (``stock_empty``) is void all the same.
    """
    if not options.wall and not stock_empty:
        raise _refuse(
            "GIN-WALL",
            "not_enabled",
            "This table plays without the wall rule: the hand goes on.",
        )
    return GinHandResult(
        ending=WALL,
        knocker=None,
        knocker_count=0,
        defender_count=0,
        points=(0, 0),
        winner=None,
        undercut=False,
        items=(ScoreItem("GIN-WALL", None, 0, {}, code="void"),),
        upcard=upcard if options.oklahoma else None,
    )


def match_winner(options: GinOptions, totals: Sequence[int]) -> int | None:
    """Return the seat whose total reached the target, or None while the match goes on.

    Only a hand's winner scores, so replaying hand by hand at most one seat crosses the
    target at a time (GIN-MATCH). A single-hand match (target 1) is won by whoever scored;
    a hand where nobody scores (a tie without undercut_on_tie, a wall) decides nothing, so
    the table plays another hand.
    """
    if len(totals) != 2 or not all(is_int(total) and total >= 0 for total in totals):
        raise _refuse(
            "GIN-MATCH",
            "bad_totals",
            "A Gin match has two totals of 0 points or more.",
            totals=[json_value(total) for total in totals],
        )
    reached = [seat for seat, total in enumerate(totals) if total >= options.target]
    if len(reached) > 1:
        raise _refuse(
            "GIN-MATCH",
            "both_reached",
            f"Both totals reached {options.target}: the match ended before the last hand.",
            totals=list(totals),
            target=options.target,
        )
    return reached[0] if reached else None
