"""Scala 40 (docs/rules.md): options, deck, meld rules, penalty values, hand scoring, and a
match played by elimination.

Scores are penalty points: a hand adds to each player's score what they are left holding
(doubled when someone closes in hand). A player whose score reaches the table's limit is
out of the match (S40-MATCH), or comes back in at the highest score still in play where the
table allows re-entries (S40-REENTRY); the last player in wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
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
    TABLE_FORMS,
    BookColumn,
    GameRules,
    OptionSpec,
    RefereeRules,
    SeatFlag,
    StandingsReading,
    house_rule,
)
from scoring.hands import (
    OUT,
    STOCK,
    HandScore,
    ScoreItem,
    SeatEnd,
    hand_score,
    hand_value,
    shown_cards,
)
from scoring.melds import MeldRules
from scoring.options import is_int, json_value, kind_violations, read_options
from scoring.play.rules import PlayRules
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
from scoring.variants.scala40 import samples
from scoring.variants.scala40.match import (
    MIN_PLAYERS,
    SAT_OUT,
    declined_item,
    match_result,
    sat_out,
)

MAX_PLAYERS = 6
HAND_SIZE = 13
DECKS = 2
JOKERS = 4
OPENING_MINIMUM = 40
JOKER_VALUE = 25
ACE_VALUE = 11
# S40-MATCH: the limits the regulations name; 101 is the usual one.
TARGETS: tuple[int, ...] = (101, 151, 201, 301, 501)
MAX_REENTRIES = 3
MAX_OPENING_PENALTY = 100
# S40-JOKER: a set's joker takes the first missing suit of "Come Quando Fuori Piove".
JOKER_SUIT_ORDER = "HDCS"
OPTION_KEYS = (
    "target",
    "reentries",
    "failed_opening_penalty",
    "max_jokers_per_meld",
    "free_discard",
    "unopened_discard_check",
    "full_suit_run",
)
_USED_FLAGS = ("went_out", "hand_closed", "opening_penalty", "sitting_out", "declines_reentry")


@dataclass(frozen=True, slots=True)
class Scala40Options:
    """Hold a Scala 40 table's options (docs/rules.md, Table options); build them with
    from_dict. The defaults are the regulations' game: out at 101, no re-entry, one joker
    a meld, no discarding a card the table could take; a short opening costs 20 (house)."""

    target: int = 101
    reentries: int = 0
    failed_opening_penalty: int = 20
    max_jokers_per_meld: int = 1
    free_discard: bool = False
    # S40-DISCARD binds a player who has not opened too. Off when a table's options leave it
    # out: the tables made before it were played without it; a new table takes it on
    # (GAME.new_table_defaults), as the regulations have it.
    unopened_discard_check: bool = False
    # S40-MELDS: the whole suit with a joker as the second ace, a run of 14. Off when a
    # table's options leave it out (such a run could take a card an older log discarded);
    # a new table takes it on, as the federation's regulations allow it.
    full_suit_run: bool = False

    def __post_init__(self) -> None:
        violations = kind_violations(
            self,
            ("free_discard", "unopened_discard_check", "full_suit_run"),
            {"max_jokers_per_meld": 1},
        )
        if not is_int(self.target) or self.target not in TARGETS:
            violations.append(
                Violation(
                    rule="S40-MATCH",
                    code="bad_target",
                    message=(
                        f"A Scala 40 match cannot be played to {self.target!r}; choose "
                        f"{', '.join(map(str, TARGETS))}."
                    ),
                    params={"target": json_value(self.target), "choices": list(TARGETS)},
                )
            )
        if not is_int(self.reentries) or not 0 <= self.reentries <= MAX_REENTRIES:
            violations.append(
                Violation(
                    rule="S40-REENTRY",
                    code="bad_reentries",
                    message=(
                        f"A player re-enters 0 to {MAX_REENTRIES} times, not {self.reentries!r}."
                    ),
                    params={"value": json_value(self.reentries), "max": MAX_REENTRIES},
                )
            )
        penalty = self.failed_opening_penalty
        if not is_int(penalty) or not 0 <= penalty <= MAX_OPENING_PENALTY:
            violations.append(
                Violation(
                    rule="S40-OPEN-PENALTY",
                    code="bad_penalty",
                    message=(
                        f"A short opening costs 0 to {MAX_OPENING_PENALTY} points, not {penalty!r}."
                    ),
                    params={"value": json_value(penalty), "max": MAX_OPENING_PENALTY},
                )
            )
        if violations:
            raise RuleViolation(*violations)

    @property
    def opening_minimum(self) -> int:
        """Return the points a first meld needs (S40-OPEN): always 40."""
        return OPENING_MINIMUM

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> Scala40Options:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        check_players(players)
        return cls(**read_options(data, OPTION_KEYS, "Scala 40"))

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, ready for JSON."""
        return {key: getattr(self, key) for key in OPTION_KEYS}


def check_players(players: object) -> int:
    """Return the number of players if Scala 40 is played by that many, else refuse it."""
    return player_count(
        players, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), rule="S40-SETUP", game="Scala 40"
    )


def deck(options: Scala40Options, players: int) -> DeckSpec:
    """Return the cards of the table (S40-SETUP): two decks and four jokers, 108 cards."""
    check_players(players)
    return DeckSpec(decks=DECKS, jokers=JOKERS)


def hand_size(options: Scala40Options, players: int) -> int:
    """Return how many cards each player is dealt: 13 (S40-SETUP)."""
    check_players(players)
    return HAND_SIZE


def meld_rules(options: Scala40Options) -> MeldRules:
    """Return the melds Scala 40 allows (S40-MELDS, S40-JOKER): ace low or high, no corner,
    jokers capped per meld, a set's joker in the first missing suit of hearts, diamonds,
    clubs, spades."""
    return MeldRules(
        ace_low=True,
        ace_high=True,
        wrap=False,
        max_jokers=options.max_jokers_per_meld,
        joker_limit_rule="S40-JOKER",
        set_joker_suits=JOKER_SUIT_ORDER,
        full_suit_run=options.full_suit_run,
    )


def card_value(card: Card) -> int:
    """Return a card's penalty value in hand (S40-VALUE): ace 11, 2-10 face, J Q K 10,
    joker 25."""
    if card.is_joker:
        return JOKER_VALUE
    if card.rank == 1:
        return ACE_VALUE
    return min(card.rank, 10)


# One hand --------------------------------------------------------------------------------


def _failed_openings(player: SeatEnd) -> int | RuleViolation:
    """Return how many short openings the player took back, or the refusal."""
    count = player.opening_penalty
    if isinstance(count, bool):
        count = int(count)
    if not is_int(count) or count < 0:
        return _refuse(
            "S40-OPEN-PENALTY",
            "bad_count",
            f"{player.name}'s failed openings must be a whole number, 0 or more.",
            player=player.name,
            count=json_value(count),
        )
    return count


def _seat_problems(player: SeatEnd) -> list[RuleViolation]:
    """Return the refusals of one seat's flags that only Scala 40 reads."""
    if player.sitting_out:
        if player.hand or player.melded or player.points or player.flags_set() != (SAT_OUT,):
            return [
                _refuse(
                    "S40-MATCH",
                    "sat_out_played",
                    f"{player.name} sat this hand out, so holds, melds and marks nothing.",
                    player=player.name,
                )
            ]
        return []
    if player.hand_closed and not player.went_out:
        return [
            _refuse(
                "S40-HANDCLOSE",
                "not_out",
                f"Only the player who closes can close in hand; {player.name} did not.",
                player=player.name,
            )
        ]
    return []


def _check_end(players: tuple[SeatEnd, ...], stock_exhausted: bool) -> list[int]:
    """Refuse an end state Scala 40 does not allow; return the seats that played the hand."""
    playing = [seat for seat, player in enumerate(players) if not player.sitting_out]
    problems = copies_refusals(players, DeckSpec(decks=DECKS, jokers=JOKERS))
    problems += [problem for player in players for problem in _seat_problems(player)]
    problems += end_state_problems(
        [players[seat] for seat in playing],
        game_name="a Scala 40 hand",
        flag_rule="S40-SCORE",
        used_flags=_USED_FLAGS,
        out_rule="S40-CLOSE",
        cards_left_message="{player} closed by discarding the last card, so holds none.",
        empty_hand_message="{player} holds no card but did not close: a player keeps one.",
    )
    problems += [
        count for count in map(_failed_openings, players) if isinstance(count, RuleViolation)
    ]
    if len(playing) < MIN_PLAYERS:
        problems.append(
            _refuse(
                "S40-MATCH",
                "too_few_in",
                "A hand is played by two players or more still in the match.",
                count=len(playing),
            )
        )
    out = [players[seat].name for seat in playing if players[seat].went_out]
    if len(out) > 1:
        problems.append(
            _refuse(
                "S40-CLOSE",
                "two_out",
                "Only one player can close: the hand ends when the first one does.",
                players=out,
            )
        )
    elif not out and not stock_exhausted:
        problems.append(
            _refuse(
                "S40-CLOSE",
                "not_ended",
                "The hand ends when a player closes, or the stock cannot be made again; "
                "neither happened.",
            )
        )
    all_violations(problems)
    return playing


def score_hand(
    options: Scala40Options, players: Sequence[SeatEnd], *, stock_exhausted: bool = False
) -> HandScore:
    """Score one hand's end state in penalty points (S40-SCORE, S40-HANDCLOSE, S40-STOCK,
    S40-OPEN-PENALTY).

    The player who closes adds nothing; every other player in the hand adds the value of
    the cards left (S40-VALUE), twice over when the closer closed in hand. When nobody
    closed because the stock could not be made again, every player adds their hand. Each
    short opening taken back adds the table's penalty, never doubled. A seat out of the
    match sat the hand out: it scores 0, shown by a zero item the match checks. A hand may
    be entered by its value (SeatEnd.points) instead of its cards.
    """
    players = tuple(players)
    check_players(len(players))
    playing = _check_end(players, stock_exhausted)
    values = [0 if player.sitting_out else hand_value(player, card_value) for player in players]
    out = [seat for seat in playing if players[seat].went_out]
    rule = "S40-SCORE" if out else "S40-STOCK"
    closed_in_hand = bool(out) and players[out[0]].hand_closed
    items: list[ScoreItem] = []
    for seat, player in enumerate(players):
        if player.sitting_out:
            items.append(ScoreItem("S40-MATCH", seat, 0, {}, code=SAT_OUT))
            continue
        if seat not in out:
            count = values[seat]
            params = {"count": count, **shown_cards(player, player.hand)}
            items.append(ScoreItem(rule, seat, count, params, code="hand"))
            if closed_in_hand and count:
                items.append(
                    ScoreItem("S40-HANDCLOSE", seat, count, {"count": count}, code="double")
                )
        if player.declines_reentry:
            items.append(declined_item(seat))
        failed = _failed_openings(player)
        if failed:
            penalty = options.failed_opening_penalty
            items.append(
                ScoreItem(
                    "S40-OPEN-PENALTY",
                    seat,
                    penalty * failed,
                    {"count": failed, "penalty": penalty},
                    code="penalty",
                )
            )
    return hand_score(players, OUT if out else STOCK, out, values, items)


# The game as the engine reads it ------------------------------------------------------------


def play_rules(options: Scala40Options, players: int) -> PlayRules:
    """Return what a Scala 40 table allows in play (S40-TURN, S40-OPEN, S40-PICKUP, ...)."""
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_value,
        turn_rule="S40-TURN",
        setup_rule="S40-SETUP",
        opening_rule="S40-OPEN",
        opening_minimum=OPENING_MINIMUM,
        opening_penalty=True,
        add_rule="S40-ADD",
        add_to_any=True,
        swap_rule="S40-JOKER-SWAP",
        joker_use_rule="S40-JOKER-SWAP",
        out_rule="S40-CLOSE",
        hand_closure=True,
        hand_closure_free=True,
        pickup_to_table=True,
        pickup_rule="S40-PICKUP",
        attachable_discard_rule=None if options.free_discard else "S40-DISCARD",
        attachable_check_unopened=options.unopened_discard_check,
        reshuffle=True,
    )


def hand_winners(result: HandScore) -> tuple[int, ...]:
    """Return the player who closed: a hand the stock ended has no winner."""
    return result.winners


def hand_counts(result: HandScore, seat: int) -> Counter[str]:
    """Count whether the seat closed, closed in hand, and its short openings."""
    closed = int(result.ending == OUT and seat in result.winners)
    in_hand = closed and any(item.rule == "S40-HANDCLOSE" for item in result.items)
    failed = sum(
        item.params["count"]
        for item in result.items
        if item.seat == seat and item.rule == "S40-OPEN-PENALTY"
    )
    return Counter(went_out=closed, hand_closures=int(in_hand), opening_penalties=failed)


def hand_figures(options: Scala40Options, result: HandScore, seat: int) -> Counter[str]:
    """Give the seat's book figures: whether it opened and the points left in its hand, in
    the hands it played (a seat out of the match sat the others out)."""
    return opening_figures(result, seat, dealt=HAND_SIZE, absent=sat_out(result))


def closing(options: Scala40Options) -> Closing:
    """Say how a Scala 40 player closes: a discard, once opened or in hand (S40-CLOSE)."""
    return Closing(
        discard="required",
        rule="S40-CLOSE",
        opening_minimum=OPENING_MINIMUM,
        opening_rule="S40-OPEN",
        hand_closure_free=True,
    )


SCORING = SeatBySeatScoring(score_hand)

OPTIONS = (
    OptionSpec("target", CHOICE, "S40-MATCH", default=101, choices=TARGETS, summary="limit"),
    OptionSpec("reentries", INT, "S40-REENTRY", default=0, high=MAX_REENTRIES, summary="reentries"),
    OptionSpec(
        "failed_opening_penalty",
        INT,
        "S40-OPEN-PENALTY",
        default=20,
        high=MAX_OPENING_PENALTY,
        house=True,
    ),
    OptionSpec(
        "max_jokers_per_meld",
        INT,
        "S40-JOKER",
        default=1,
        low=1,
        house=True,
        forms=ALL_FORMS,
    ),
    house_rule("free_discard", "S40-DISCARD", forms=TABLE_FORMS),
    OptionSpec(
        "unopened_discard_check",
        BOOL,
        "S40-DISCARD",
        default=True,
        house=True,
        forms=TABLE_FORMS,
        line_when="unopened_discard_check",
    ),
    OptionSpec(
        "full_suit_run",
        BOOL,
        "S40-MELDS",
        default=True,
        house=True,
        forms=ALL_FORMS,
        line_when="full_suit_run",
    ),
)

GAME = GameRules(
    key="scala40",
    examples=samples.EXAMPLES,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    setup_rule="S40-SETUP",
    match_rule="S40-MATCH",
    # 13 dealt, one drawn before the discard.
    most_in_hand=HAND_SIZE + 1,
    options_from_dict=Scala40Options.from_dict,
    options_to_dict=Scala40Options.to_dict,
    deck=deck,
    hand_size=hand_size,
    meld_rules=meld_rules,
    card_value=lambda options: card_value,
    play_rules=play_rules,
    read_entry=SCORING.read_entry,
    score_entry=SCORING.score_entry,
    score_play=SCORING.score_play,
    match_result=match_result,
    # No may_end: who is in play decides both the end and which seats a hand may seat, so
    # every hand is read against the match (a match is a few dozen hands at most).
    standings=StandingsReading(
        counts=("went_out", "hand_closures", "opening_penalties"),
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        lower_is_better=True,
        figures=("opened", "opened_known", "points_left", "hands_left"),
        hand_figures=hand_figures,
        points_terms="penalty",
        book_columns=(
            OPENED,
            BookColumn("went_out"),
            BookColumn("hand_closures"),
            BookColumn("opening_penalties"),
            POINTS_LEFT,
        ),
        book_notes=("opened", "points_left", "S40-HANDCLOSE"),
    ),
    referee=RefereeRules(
        table=seated_table(check_players, Scala40Options.from_dict),
        questions={
            "meld": meld_answer,
            "hand": hand_answer,
            "opening": opening_answer,
            "layoff": layoff_answer,
            "score": score_answer,
        },
        meld_rules=("S40-MELDS", "S40-JOKER", "ACE-LOW", "ACE-HIGH"),
        value_rule="S40-VALUE",
        layoff_rule="S40-ADD",
        opening_rule="S40-OPEN",
        closing=closing,
        score_ends=score_hand,
    ),
    name="Scala 40",
    rule_prefix="S40-",
    options=OPTIONS,
    seat_flags=(
        SeatFlag("went_out"),
        SeatFlag("hand_closed", "S40-HANDCLOSE"),
        SeatFlag("opening_penalty", "S40-OPEN-PENALTY", most=20),
        SeatFlag(SAT_OUT, "S40-MATCH", from_match=True),
        SeatFlag("declines_reentry", "S40-REENTRY", when_option="reentries"),
    ),
    provisional="penalty",
    new_table_defaults=MappingProxyType({"unopened_discard_check": True, "full_suit_run": True}),
)
