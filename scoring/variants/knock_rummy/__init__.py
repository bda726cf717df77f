"""Knock Rummy (docs/rules.md): options, deck, meld rules, values, round and match scoring.

Scores are points won: the round's winner scores what the others hold more than they do
(KR-SCORE), and the game ends when someone reaches 150 (KR-MATCH).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from scoring.cards import Card, DeckSpec
from scoring.errors import RuleViolation, Violation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.game import (
    INT,
    BookColumn,
    GameRules,
    OptionSpec,
    RefereeRules,
    ReviewRules,
    SeatFlag,
    StandingsReading,
)
from scoring.hands import (
    KNOCK,
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
)
from scoring.melds import MeldRules
from scoring.options import is_int, json_value, read_options
from scoring.play.rules import KNOCK_AT_TURN_END, PlayRules
from scoring.questions import (
    hand_answer,
    layoff_answer,
    meld_answer,
    rearrangement_answer,
    score_answer,
    seated_table,
)
from scoring.rearrange import RearrangeRules
from scoring.scoresheet import (
    SeatBySeatScoring,
    all_violations,
    copies_refusals,
    end_state_problems,
    player_count,
)
from scoring.solver import Closing
from scoring.variants.knock_rummy import samples

MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_SIZE = 10
JOKER_VALUE = 25
KNOCK_LIMIT = 5
# The rules a turn on the shared table is judged by: its melds and cards (KR-MELDING), the
# table's cards (KR-MANIP) and its jokers' declarations (KR-JOKER).
REARRANGE = RearrangeRules(melding="KR-MELDING", table="KR-MANIP", joker="KR-JOKER")
MAX_DRAWS = 3  # KR-TURN: up to three draws a turn
UNDERCUT_BONUS = 10
OUT_BONUS = 25
TARGET = 150
MAX_TARGET = 1_000_000
TARGET_BONUS = 100
ROUND_BONUS = 25
OPTION_KEYS = ("target",)
_USED_FLAGS = ("knocked", "went_out")


@dataclass(frozen=True, slots=True)
class KnockRummyOptions:
    """Hold a Knock Rummy table's options (docs/rules.md, Table options).

    KR-MATCH ends the game at 150; the table may choose another target (any whole number
    from 1 to 1,000,000), the end-of-game bonuses staying 100 and 25 a round.
    """

    target: int = TARGET

    def __post_init__(self) -> None:
        if not is_int(self.target) or self.target < 1:
            raise RuleViolation(
                Violation(
                    rule="KR-MATCH",
                    code="bad_target",
                    message=f"A Knock Rummy game cannot end at {self.target!r}: choose 1 or more.",
                    params={"target": json_value(self.target), "min": 1},
                )
            )
        if self.target > MAX_TARGET:
            # A bound, so no target (or league holding one) reaches past an integer column.
            raise RuleViolation(
                Violation(
                    rule="KR-MATCH",
                    code="target_too_high",
                    message=f"A Knock Rummy game ends at {MAX_TARGET} at most, not {self.target}.",
                    params={"target": self.target, "max": MAX_TARGET},
                )
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int) -> KnockRummyOptions:
        """Build the options of a table of ``players`` from a JSON dict over the defaults."""
        check_players(players)
        return cls(**read_options(data, OPTION_KEYS, "Knock Rummy"))

    def to_dict(self) -> dict[str, Any]:
        """Return every option explicitly, ready for JSON."""
        return {"target": self.target}


def check_players(players: object) -> int:
    """Return the number of players if Knock Rummy is played by that many, else refuse it."""
    return player_count(
        players, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), rule="KR-SETUP", game="Knock Rummy"
    )


def deck(options: KnockRummyOptions, players: int) -> DeckSpec:
    """Return the cards of the table (KR-SETUP): one deck + 1 joker for 2, two such for 3+."""
    decks = 1 if check_players(players) == 2 else 2
    return DeckSpec(decks=decks, jokers=decks)


def hand_size(options: KnockRummyOptions, players: int) -> int:
    """Return how many cards each player is dealt: always 10 (KR-SETUP)."""
    check_players(players)
    return HAND_SIZE


def meld_rules(options: KnockRummyOptions) -> MeldRules:
    """Return the melds Knock Rummy allows (KR-MELDS): ace low or high, no wrap, any jokers."""
    return MeldRules(ace_low=True, ace_high=True, wrap=False, max_jokers=None)


def card_value(card: Card) -> int:
    """Return a card's value in hand (KR-VALUE): joker 25, J Q K 10, 2-10 face, ace 1."""
    return ace_one_value(card, joker=JOKER_VALUE)


def _check_end(
    options: KnockRummyOptions,
    players: tuple[SeatEnd, ...],
    values: list[int],
    stock_exhausted: bool,
) -> None:
    problems = copies_refusals(players, deck(options, len(players)))
    problems += end_state_problems(
        players,
        game_name="a Knock Rummy round",
        flag_rule="KR-SCORE",
        used_flags=_USED_FLAGS,
        out_rule="KR-OUT",
        cards_left_message="{player} played all their cards, so holds none.",
        empty_hand_message="{player} holds no card, so played them all: mark it.",
    )
    knockers = [seat for seat, player in enumerate(players) if player.knocked]
    if len(knockers) > 1:
        problems.append(
            _refuse(
                "KR-KNOCK",
                "two_knockers",
                "Only one player can knock: the round ends at the first knock.",
                players=[players[seat].name for seat in knockers],
            )
        )
    elif not knockers and not stock_exhausted:
        problems.append(
            _refuse(
                "KR-KNOCK",
                "not_ended",
                "A round ends with a knock or when the stock is used up; neither happened.",
            )
        )
    for seat in knockers:
        if values[seat] > KNOCK_LIMIT:
            problems.append(
                _refuse(
                    "KR-KNOCK",
                    "over_limit",
                    f"A knock needs {KNOCK_LIMIT} points or fewer in hand; "
                    f"{players[seat].name} holds {values[seat]}.",
                    player=players[seat].name,
                    count=values[seat],
                    limit=KNOCK_LIMIT,
                )
            )
    all_violations(problems)


def score_hand(
    options: KnockRummyOptions, players: Sequence[SeatEnd], *, stock_exhausted: bool = False
) -> HandScore:
    """Score one round's end state in points won.

    KR-SCORE: the fewest points in hand wins; a winner scores the sum of the differences to
    every other player (with 2 players, the difference). Several winners each score their
    own sum; the differences to a co-winner or a tied knocker are 0. KR-UNDERCUT: a winner
    who did not knock gets 10. KR-OUT: a winner with no cards left gets 25. KR-STOCK: nobody
    knocked, so the lowest hands win without the undercut bonus, which is the bonus for
    beating a knocker. A knock made in the last turns after the stock is used up is a knock.

    A hand may be entered by its value (SeatEnd.points) instead of its cards; the KR-OUT
    bonus then goes to a winner marked as having played all their cards (``went_out``),
    who is the winner holding none on the card path.

    Worked examples, hands in points, A knocking:

    - A 3, B 7, C 12: A wins alone, (7-3) + (12-3) = 13, no bonus.
    - A 4, B 2, C 9: B undercuts, (4-2) + (9-2) = 9, + 10 = 19.
    - A 3, B 3, C 10: A ties with B, so B wins: 0 + (10-3) = 7, + 10 = 17.
    - A 2, B 2, C 2, D 8: A ties with two others; B and C each score 0 + 0 + 6 + 10 = 16.
    - A 5, B 1, C 1, D 6 (choice): B and C tie below A and both win, each
      (5-1) + 0 + (6-1) = 9, + 10 = 19.
    - Stock used up, A 6, B 6, C 9: A and B win 3 each, no bonus.
    """
    players = tuple(players)
    check_players(len(players))
    values = [hand_value(player, card_value) for player in players]
    _check_end(options, players, values, stock_exhausted)
    knocker = next((seat for seat, player in enumerate(players) if player.knocked), None)
    lowest = min(values)
    tied = [seat for seat, value in enumerate(values) if value == lowest]
    undercut = knocker is not None and tied != [knocker]
    winners = [seat for seat in tied if seat != knocker] if undercut else tied
    items = [
        item
        for seat in winners
        for item in _winner_items(seat, values, knocker if undercut else None, players[seat])
    ]
    ending = STOCK if knocker is None else KNOCK
    return hand_score(players, ending, winners, values, items, knocker=knocker)


def _winner_items(
    seat: int, values: Sequence[int], undercut: int | None, player: SeatEnd
) -> list[ScoreItem]:
    """Return a winner's items: the differences (KR-SCORE), the bonus for undercutting the
    knocker ``undercut`` (KR-UNDERCUT, when set) and for going out (KR-OUT)."""
    lowest = min(values)
    items = [
        ScoreItem(
            "KR-SCORE",
            seat,
            sum(value - lowest for value in values),
            {"count": lowest, "counts": list(values)},
            code="difference",
        )
    ]
    if undercut is not None:
        items.append(
            ScoreItem(
                "KR-UNDERCUT",
                seat,
                UNDERCUT_BONUS,
                {"bonus": UNDERCUT_BONUS, "knocker": undercut},
                code="bonus",
            )
        )
    if player.went_out:
        items.append(ScoreItem("KR-OUT", seat, OUT_BONUS, {"bonus": OUT_BONUS}, code="bonus"))
    return items


def match_result(options: KnockRummyOptions, hand_results: Sequence[HandScore]) -> MatchOutcome:
    """Walk the rounds in order and say whether the game is over and who won (KR-MATCH).

    After the round in which one or more totals reach the target (150): each of them gets
    100; every other player gets 25 for each round they won, a shared win counting as won.
    The highest total after the bonuses wins; equal highest totals share the win.
    """
    totals_after = running_totals(hand_results)
    for index, totals in enumerate(totals_after):
        if max(totals) < options.target:
            continue
        if index + 1 < len(hand_results):
            raise _refuse(
                "KR-MATCH",
                "match_over",
                f"The game ended after round {index + 1}; no more rounds can be recorded.",
                hands=index + 1,
            )
        items: list[ScoreItem] = []
        for seat, total in enumerate(totals):
            if total >= options.target:
                items.append(
                    ScoreItem(
                        "KR-MATCH",
                        seat,
                        TARGET_BONUS,
                        {"total": total, "target": options.target, "bonus": TARGET_BONUS},
                        code="target",
                    )
                )
                continue
            won = sum(1 for result in hand_results if seat in result.winners)
            if won:
                items.append(
                    ScoreItem(
                        "KR-MATCH",
                        seat,
                        ROUND_BONUS * won,
                        {"rounds": won, "bonus": ROUND_BONUS},
                        code="rounds_won",
                    )
                )
        final = list(totals)
        for item in items:
            final[item.seat] += item.points
        return MatchOutcome(
            finished=True,
            hands=index + 1,
            totals=tuple(final),
            items=tuple(items),
            winners=best_seats(final, lowest=False),
        )
    return MatchOutcome(
        finished=False,
        hands=len(hand_results),
        totals=totals_after[-1] if totals_after else (),
    )


# The game as the engine reads it ------------------------------------------------------------


def play_rules(options: KnockRummyOptions, players: int) -> PlayRules:
    """Return what a Knock Rummy table allows in play: no discard pile, up to three draws,
    a shared table to rearrange, and a knock at the end of a turn (KR-TURN, KR-MELDING)."""
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_value,
        turn_rule="KR-TURN",
        setup_rule="KR-SETUP",
        discard_pile=False,
        out_rule="KR-OUT",
        meld_out=True,
        max_draws=MAX_DRAWS,
        rearrange=REARRANGE,
        knock=KNOCK_AT_TURN_END,
        knock_rule="KR-KNOCK",
        # KR-KNOCK: the most a knocker may hold, in card values (the knock is scored with
        # the hands shown; the hand review flags a turn that could have knocked by it).
        knock_limit=KNOCK_LIMIT,
    )


def hand_winners(result: HandScore) -> tuple[int, ...]:
    """Return every winner of the round (KR-SCORE, KR-UNDERCUT, KR-STOCK)."""
    return result.winners


def hand_counts(result: HandScore, seat: int) -> Counter[str]:
    """Count the seat's knocks and the undercut and out bonuses it earned."""
    mine = [item.rule for item in result.items if item.seat == seat]
    return Counter(
        knocks=int(result.knocker == seat),
        undercut_bonuses=mine.count("KR-UNDERCUT"),
        out_bonuses=mine.count("KR-OUT"),
    )


def hand_figures(options: KnockRummyOptions, result: HandScore, seat: int) -> Counter[str]:
    """Give the seat's book figures: its knocks that won the round, and those that did not
    (undercut or tied, KR-UNDERCUT)."""
    if result.knocker != seat:
        return Counter()
    won = seat in result.winners
    return Counter(knocks_won=int(won), knocks_lost=int(not won))


def closing(options: KnockRummyOptions) -> Closing:
    """Say how a Knock Rummy player goes out: by melding every card, no discard (KR-OUT)."""
    return Closing(discard="none", rule="KR-OUT")


SCORING = SeatBySeatScoring(score_hand)

GAME = GameRules(
    key="knock_rummy",
    examples=samples.EXAMPLES,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    setup_rule="KR-SETUP",
    match_rule="KR-MATCH",
    # 10 dealt; turns that draw 2 or 3 (KR-TURN) grow a hand, rarely past 16.
    most_in_hand=HAND_SIZE + 6,
    options_from_dict=KnockRummyOptions.from_dict,
    options_to_dict=KnockRummyOptions.to_dict,
    deck=deck,
    hand_size=hand_size,
    meld_rules=meld_rules,
    card_value=lambda options: card_value,
    play_rules=play_rules,
    read_entry=SCORING.read_entry,
    score_entry=SCORING.score_entry,
    score_play=SCORING.score_play,
    match_result=match_result,
    # KR-MATCH: over after the round in which a total reaches the target.
    may_end=lambda options, totals, hands: max(totals) >= options.target,
    standings=StandingsReading(
        counts=("knocks", "undercut_bonuses", "out_bonuses"),
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        figures=("knocks_won", "knocks_lost"),
        hand_figures=hand_figures,
        book_columns=(
            BookColumn("knocks_won"),
            BookColumn("knocks_lost"),
            BookColumn("undercut_bonuses"),
            BookColumn("out_bonuses"),
        ),
        book_notes=("KR-KNOCK",),
    ),
    referee=RefereeRules(
        input_rules=frozenset({"KR-SETUP"}),
        table=seated_table(check_players, KnockRummyOptions.from_dict),
        questions={
            "meld": meld_answer,
            "hand": hand_answer,
            "layoff": layoff_answer,
            "rearrangement": partial(rearrangement_answer, cites=REARRANGE),
            "score": score_answer,
        },
        meld_rules=("KR-MELDS",),
        value_rule="KR-VALUE",
        layoff_rule="KR-MELDING",
        knock_limit=KNOCK_LIMIT,
        knock_rule="KR-KNOCK",
        closing=closing,
        score_ends=score_hand,
    ),
    review=ReviewRules(knock_rule="KR-KNOCK"),
    name="Knock Rummy",
    rule_prefix="KR-",
    options=(
        OptionSpec(
            "target", INT, "KR-MATCH", default=TARGET, low=1, high=MAX_TARGET, summary="playing_to"
        ),
    ),
    seat_flags=(SeatFlag("knocked", "KR-KNOCK"), SeatFlag("went_out")),
    provisional="lowest_wins",
)
