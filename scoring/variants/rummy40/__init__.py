"""Rummy40 (docs/rules.md): options, deck, meld rules, penalty values, hand and match scoring.

Scores are penalty points: a hand adds to each player's score what they are left holding,
and the match is decided by who stays lowest (R40-MATCH).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, DeckSpec
from scoring.errors import RuleViolation, Violation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.game import (
    ALL_FORMS,
    BOOL,
    CHOICE,
    INT,
    OPENED,
    POINTS_LEFT,
    REFEREE_FORM,
    BookColumn,
    GameRules,
    OptionSpec,
    RefereeRules,
    SeatFlag,
    StandingsReading,
)
from scoring.hands import (
    OUT,
    STOCK,
    HandScore,
    MatchOutcome,
    ScoreItem,
    SeatEnd,
    ace_one_value,
    best_seats,
    hand_score,
    hand_value,
    running_totals,
    shown_cards,
)
from scoring.melds import MeldRules
from scoring.options import is_int, json_value, kind_violations, read_options
from scoring.play.rules import JOKER_DISCARD_OPENED, PlayRules
from scoring.questions import (
    hand_answer,
    layoff_answer,
    meld_answer,
    opening_answer,
    score_answer,
    seated_table,
)
from scoring.scoresheet import (
    SeatBySeatScoring,
    all_violations,
    copies_refusals,
    end_state_problems,
    opening_figures,
    player_count,
)
from scoring.solver import Closing
from scoring.variants.rummy40 import samples

PLAYER_COUNTS: tuple[int, ...] = (2, 4)
HAND_SIZE = 10
OPENING_MINIMUMS: tuple[int, ...] = (0, 40, 50)
# R40-MATCH: a target of 1 is a single hand.
TARGETS: tuple[int, ...] = (1, 100, 200, 500)
SINGLE_HAND = 1
OPENING_PENALTY = 20
JOKER_VALUE = 25
OPTION_KEYS = ("opening_minimum", "add_to_any_meld", "max_jokers_per_meld", "target")
# What a Rummy40 end state may say of a player; knocking and closing in hand are other games'.
_USED_FLAGS = ("went_out", "opening_penalty")


@dataclass(frozen=True, slots=True)
class Rummy40Options:
    """Hold a Rummy40 table's options (docs/rules.md, Table options); build them with from_dict.

    The dataclass defaults are the 2-player table's; from_dict turns add_to_any_meld on for
    4 players (R40-ADD). The target defaults to 100, the shortest limit that is not a single
    hand, as Gin's Big Gin preset does.
    """

    opening_minimum: int = 40
    add_to_any_meld: bool = False
    max_jokers_per_meld: int = 1
    target: int = 100

    def __post_init__(self) -> None:
        violations = kind_violations(self, ("add_to_any_meld",), {"max_jokers_per_meld": 1})
        if not is_int(self.opening_minimum) or self.opening_minimum not in OPENING_MINIMUMS:
            violations.append(
                Violation(
                    rule="R40-OPEN",
                    code="bad_minimum",
                    message=(
                        f"Rummy40 cannot open with {self.opening_minimum!r}; choose 0, 40 or 50."
                    ),
                    params={
                        "value": json_value(self.opening_minimum),
                        "choices": list(OPENING_MINIMUMS),
                    },
                )
            )
        if not is_int(self.target) or self.target not in TARGETS:
            violations.append(
                Violation(
                    rule="R40-MATCH",
                    code="bad_target",
                    message=(
                        f"A Rummy40 match cannot be played to {self.target!r}; choose "
                        f"{', '.join(map(str, TARGETS))} (1 is a single hand)."
                    ),
                    params={"target": json_value(self.target), "choices": list(TARGETS)},
                )
            )
        if violations:
            raise RuleViolation(*violations)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> Rummy40Options:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        players = check_players(players)
        values = read_options(data, OPTION_KEYS, "Rummy40")
        values.setdefault("add_to_any_meld", players == 4)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, ready for JSON."""
        return {key: getattr(self, key) for key in OPTION_KEYS}


def check_players(players: object) -> int:
    """Return the number of players if Rummy40 is played by that many, else refuse it."""
    return player_count(players, tuple(PLAYER_COUNTS), rule="R40-SETUP", game="Rummy40")


def deck(options: Rummy40Options, players: int) -> DeckSpec:
    """Return the cards of the table (R40-SETUP): 1 deck + 2 jokers, or 2 decks + 4 for 4.

    The page says "+ jokers" for two players; a 52-card deck comes with 2.
    """
    decks = 1 if check_players(players) == 2 else 2
    return DeckSpec(decks=decks, jokers=2 * decks)


def hand_size(options: Rummy40Options, players: int) -> int:
    """Return how many cards each player is dealt: always 10 (R40-SETUP)."""
    check_players(players)
    return HAND_SIZE


def meld_rules(options: Rummy40Options) -> MeldRules:
    """Return the melds Rummy40 allows (R40-RUNS): ace low or high, no wrap, jokers capped."""
    return MeldRules(
        ace_low=True,
        ace_high=True,
        wrap=False,
        max_jokers=options.max_jokers_per_meld,
        joker_limit_rule="R40-RUNS",
    )


def card_value(card: Card) -> int:
    """Return a card's penalty value (R40-VALUE): ace 1, 2-10 face, J Q K 10, joker 25."""
    return ace_one_value(card, joker=JOKER_VALUE)


def _failed_openings(options: Rummy40Options, player: SeatEnd) -> int | RuleViolation:
    """Return how many openings below the minimum the player made, or the refusal."""
    count = player.opening_penalty
    if isinstance(count, bool):
        count = int(count)
    if not is_int(count) or count < 0:
        return _refuse(
            "R40-OPEN-PENALTY",
            "bad_count",
            f"{player.name}'s failed openings must be a whole number, 0 or more.",
            player=player.name,
            count=json_value(count),
        )
    if count and not options.opening_minimum:
        # R40-OPEN-PENALTY punishes an opening below 40 or 50; with 0 none can fall short.
        return _refuse(
            "R40-OPEN-PENALTY",
            "no_minimum",
            f"This table opens with any melds, so {player.name} cannot have opened too low.",
            player=player.name,
            count=count,
        )
    return count


def score_hand(
    options: Rummy40Options, players: Sequence[SeatEnd], *, stock_exhausted: bool = False
) -> HandScore:
    """Score one hand's end state in penalty points (R40-END, R40-OPEN-PENALTY, R40-VALUE).

    A player who goes out adds nothing; every other player adds the value of the cards left
    in hand. When the stock runs out every player adds their hand. Each failed opening adds
    20. A player who goes out on the turn the stock runs out ends the hand by going out.
    A hand may be entered by its value (SeatEnd.points) instead of its cards.
    """
    players = tuple(players)
    check_players(len(players))
    problems = copies_refusals(players, deck(options, len(players)))
    problems += end_state_problems(
        players,
        game_name="a Rummy40 hand",
        flag_rule="R40-END",
        used_flags=_USED_FLAGS,
        out_rule="R40-HAND",
        cards_left_message="{player} went out by discarding the last card, so holds none.",
        empty_hand_message="{player} holds no card but did not go out: a player keeps one.",
    )
    openings = [_failed_openings(options, player) for player in players]
    problems += [count for count in openings if isinstance(count, RuleViolation)]
    out = [seat for seat, player in enumerate(players) if player.went_out]
    problems += _ending_problems(players, out, stock_exhausted)
    all_violations(problems)

    values = [hand_value(player, card_value) for player in players]
    items: list[ScoreItem] = []
    for seat, player in enumerate(players):
        if seat not in out:
            items.append(
                ScoreItem(
                    "R40-END",
                    seat,
                    values[seat],
                    {"count": values[seat], **shown_cards(player, player.hand)},
                    code="hand",
                )
            )
        failed = openings[seat]
        if failed:
            items.append(
                ScoreItem(
                    "R40-OPEN-PENALTY",
                    seat,
                    OPENING_PENALTY * failed,
                    {"count": failed, "penalty": OPENING_PENALTY},
                    code="penalty",
                )
            )
    return hand_score(players, OUT if out else STOCK, out, values, items)


def _ending_problems(
    players: Sequence[SeatEnd], out: Sequence[int], stock_exhausted: bool
) -> list[RuleViolation]:
    """Return the refusals of how the hand ended: one player out, or the stock run out."""
    if len(out) > 1:
        return [
            _refuse(
                "R40-END",
                "two_out",
                "Only one player can go out: the hand ends when the first one does.",
                players=[players[seat].name for seat in out],
            )
        ]
    if not out and not stock_exhausted:
        return [
            _refuse(
                "R40-END",
                "not_ended",
                "The hand ends when a player goes out or the stock runs out; neither happened.",
            )
        ]
    return []


def _is_over(options: Rummy40Options, totals: Sequence[int]) -> bool:
    if options.target == SINGLE_HAND:
        return True
    return any(total >= options.target for total in totals)


def match_result(options: Rummy40Options, hand_results: Sequence[HandScore]) -> MatchOutcome:
    """Walk the hands in order and say whether the match is over and who won (R40-MATCH).

    The match ends after the single hand (target 1) or after the hand in which a score
    reaches the limit; the lowest score wins. With two players the other one, the higher
    score, loses: the one who reached the limit, or the one further past it when both did in
    the same hand. Equal lowest scores share the win (with two players nobody loses).
    """
    totals_after = running_totals(hand_results)
    for index, totals in enumerate(totals_after):
        if not _is_over(options, totals):
            continue
        if index + 1 < len(hand_results):
            raise _refuse(
                "R40-MATCH",
                "match_over",
                f"The match ended after hand {index + 1}; no more hands can be recorded.",
                hands=index + 1,
            )
        winners = best_seats(totals, lowest=True)
        loser = None
        if len(totals) == 2 and len(winners) == 1:
            loser = 1 - winners[0]
        return MatchOutcome(
            finished=True, hands=index + 1, totals=totals, winners=winners, loser=loser
        )
    return MatchOutcome(
        finished=False,
        hands=len(hand_results),
        totals=totals_after[-1] if totals_after else (),
    )


# The game as the engine reads it ------------------------------------------------------------


def play_rules(options: Rummy40Options, players: int) -> PlayRules:
    """Return what a Rummy40 table allows in play (R40-TURN, R40-OPEN, R40-JOKER-*)."""
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_value,
        turn_rule="R40-TURN",
        setup_rule="R40-SETUP",
        opening_rule="R40-OPEN",
        opening_minimum=options.opening_minimum,
        opening_penalty=bool(options.opening_minimum),
        add_rule="R40-ADD",
        add_to_any=options.add_to_any_meld,
        swap_rule="R40-JOKER-STEAL",
        joker_use_rule="R40-JOKER-STEAL",
        joker_from_discard_owed=True,
        joker_discard_rule="R40-JOKER-DISCARD",
        joker_discard=JOKER_DISCARD_OPENED,
        out_rule="R40-HAND",
    )


def hand_winners(result: HandScore) -> tuple[int, ...]:
    """Return the player who went out: a stock ending has no winner."""
    return result.winners


def hand_counts(result: HandScore, seat: int) -> Counter[str]:
    """Count whether the seat went out and its failed openings (R40-OPEN-PENALTY)."""
    failed = sum(
        item.params["count"]
        for item in result.items
        if item.seat == seat and item.rule == "R40-OPEN-PENALTY"
    )
    went_out = int(result.ending == OUT and seat in result.winners)
    return Counter(went_out=went_out, opening_penalties=failed)


def hand_figures(options: Rummy40Options, result: HandScore, seat: int) -> Counter[str]:
    """Give the seat's book figures: whether it opened, and the points left in its hand.

    Going out in one go is not among them: a Rummy40 hand's result keeps no trace of when
    the player who went out laid their melds, whether entered by cards, by points or played
    move by move (Ramino's RAM-HANDCLOSE is a scored rule and so shows).
    """
    return opening_figures(result, seat, dealt=HAND_SIZE)


def closing(options: Rummy40Options) -> Closing:
    """Say how a Rummy40 player goes out: by a discard, once opened (R40-HAND)."""
    return Closing(
        discard="required",
        rule="R40-HAND",
        opening_minimum=options.opening_minimum,
        opening_rule="R40-OPEN",
        joker_discard_rule="R40-JOKER-DISCARD",
    )


SCORING = SeatBySeatScoring(score_hand)

OPTIONS = (
    OptionSpec(
        "opening_minimum",
        CHOICE,
        "R40-OPEN",
        default=40,
        choices=OPENING_MINIMUMS,
        forms=ALL_FORMS,
        summary="opening",
    ),
    OptionSpec("target", CHOICE, "R40-MATCH", default=100, choices=TARGETS, summary="limit"),
    # Left unset it follows the number of players (R40-ADD): asked of the referee only.
    OptionSpec("add_to_any_meld", BOOL, "R40-ADD", house=True, forms=(REFEREE_FORM,)),
    OptionSpec("max_jokers_per_meld", INT, "R40-RUNS", default=1, low=1, forms=()),
)

GAME = GameRules(
    key="rummy40",
    examples=samples.EXAMPLES,
    # Three seats are within the range but refused by R40-SETUP when the options are read.
    players=(2, 4),
    setup_rule="R40-SETUP",
    match_rule="R40-MATCH",
    # 10 dealt, one drawn before the discard.
    most_in_hand=HAND_SIZE + 1,
    options_from_dict=Rummy40Options.from_dict,
    options_to_dict=Rummy40Options.to_dict,
    deck=deck,
    hand_size=hand_size,
    meld_rules=meld_rules,
    card_value=lambda options: card_value,
    play_rules=play_rules,
    read_entry=SCORING.read_entry,
    score_entry=SCORING.score_entry,
    score_play=SCORING.score_play,
    match_result=match_result,
    # R40-MATCH: over after the single hand, or once a score reaches the limit.
    may_end=lambda options, totals, hands: _is_over(options, totals),
    standings=StandingsReading(
        counts=("went_out", "opening_penalties"),
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        lower_is_better=True,
        figures=("opened", "opened_known", "points_left", "hands_left"),
        hand_figures=hand_figures,
        points_terms="penalty",
        book_columns=(OPENED, BookColumn("went_out"), BookColumn("opening_penalties"), POINTS_LEFT),
        book_notes=("opened", "points_left", "R40-HAND"),
    ),
    referee=RefereeRules(
        input_rules=frozenset({"R40-SETUP"}),
        table=seated_table(check_players, Rummy40Options.from_dict),
        questions={
            "meld": meld_answer,
            "hand": hand_answer,
            "opening": opening_answer,
            "layoff": layoff_answer,
            "score": score_answer,
        },
        meld_rules=("R40-RUNS", "ACE-LOW", "ACE-HIGH"),
        value_rule="R40-VALUE",
        layoff_rule="R40-ADD",
        opening_rule="R40-OPEN",
        closing=closing,
        score_ends=score_hand,
    ),
    name="Rummy40",
    rule_prefix="R40-",
    seat_counts=(2, 4),
    options=OPTIONS,
    seat_flags=(SeatFlag("went_out"), SeatFlag("opening_penalty", "R40-OPEN-PENALTY", most=20)),
    provisional="penalty",
)
