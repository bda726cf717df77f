"""Ramino (docs/rules.md): options and house rules, deck, meld rules, values, hand and match
scoring.

Scores are gains and losses: the player who goes out gains what the others lose (RAM-SCORE),
and after the chosen number of hands the highest total wins (RAM-MATCH).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from scoring.cards import Card, DeckSpec
from scoring.errors import RuleViolation

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.game import (
    OPENED,
    POINTS_LEFT,
    BookColumn,
    GameRules,
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
    best_seats,
    hand_score,
    hand_value,
    melded_value,
    running_totals,
    shown_cards,
)
from scoring.melds import MeldRules
from scoring.play.rules import JOKER_DISCARD_ANY, JOKER_DISCARD_NEVER, KnockClaim, PlayRules
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
)
from scoring.solver import Closing
from scoring.variants.ramino import samples
from scoring.variants.ramino.options import (
    _USED_FLAGS,
    ACE_VALUE,
    CASINO_ACE,
    CASINO_LOW,
    CASINO_QUEEN_OF_SPADES,
    JOKER_VALUE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    SHORT_HAND_SIZE,
    SHORT_HAND_SIZE_2,
    RaminoOptions,
    check_players,
)
from scoring.variants.ramino.options import (
    HAND_SIZE as HAND_SIZE,
)
from scoring.variants.ramino.options import (
    MAX_HANDS as MAX_HANDS,
)


def deck(options: RaminoOptions, players: int) -> DeckSpec:
    """Return the cards of the table (RAM-SETUP, RAM-OPT-SHORT, RAM-OPT-NOJOKER).

    Two decks and 6 jokers; the short deck is one deck and 3 jokers; no_jokers drops them.
    """
    check_players(players)
    decks = 1 if options.short_deck else 2
    return DeckSpec(
        decks=decks,
        jokers=0 if options.no_jokers else 3 * decks,
        no_jokers_rule="RAM-OPT-NOJOKER",
    )


def hand_size(options: RaminoOptions, players: int) -> int:
    """Return the cards dealt to each player: 13 (RAM-SETUP); short deck 10 for 2, else 7."""
    players = check_players(players)
    if not options.short_deck:
        return HAND_SIZE
    return SHORT_HAND_SIZE_2 if players == 2 else SHORT_HAND_SIZE


def meld_rules(options: RaminoOptions) -> MeldRules:
    """Return the melds Ramino allows (RAM-SET, RAM-RUN, RAM-JOKER and the house rules)."""
    return MeldRules(
        ace_low=True,
        ace_high=True,
        wrap=options.circular_runs,
        max_jokers=0 if options.no_jokers else None,
        no_jokers_rule="RAM-OPT-NOJOKER",
        jokers_within_naturals_rule="RAM-JOKER",
        apart_jokers_rule="RAM-OPT-FIXEDJOKER" if options.fixed_jokers else None,
        fixed_groups_rule="RAM-OPT-FIXEDGROUPS" if options.fixed_groups else None,
    )


def card_value(card: Card) -> int:
    """Return a card's value in hand (RAM-VALUE): 2-9 face, 10 J Q K 10, ace 11, joker 20."""
    if card.is_joker:
        return JOKER_VALUE
    if card.rank == 1:
        return ACE_VALUE
    return min(card.rank, 10)


def casino_value(card: Card) -> int:
    """Return a card's casino value (RAM-OPT-CASINO): Q♠ 40, ace 15, 10-K 10, 2-9 5, joker 0."""
    if card.is_joker:
        return 0
    if card == Card(12, "S"):
        return CASINO_QUEEN_OF_SPADES
    if card.rank == 1:
        return CASINO_ACE
    return 10 if card.rank >= 10 else CASINO_LOW


def card_values(options: RaminoOptions) -> Callable[[Card], int]:
    """Return the value function of the table: casino values with casino scoring."""
    return casino_value if options.casino_scoring else card_value


def _closed_problems(player: SeatEnd) -> list[RuleViolation]:
    """Return the refusal of a player who closed in hand without going out (RAM-HANDCLOSE)."""
    if player.hand_closed and not player.went_out:
        return [
            _refuse(
                "RAM-HANDCLOSE",
                "not_out",
                f"Only the player who goes out can close in hand; {player.name} did not.",
                player=player.name,
            )
        ]
    return []


def _check_end(options: RaminoOptions, players: tuple[SeatEnd, ...], stock_exhausted: bool) -> None:
    problems = copies_refusals(players, deck(options, len(players)))
    problems += end_state_problems(
        players,
        game_name="a Ramino hand",
        flag_rule="RAM-OUT",
        used_flags=_USED_FLAGS,
        out_rule="RAM-OUT",
        cards_left_message="{player} went out, so holds no card.",
        empty_hand_message="{player} holds no card, so went out: mark it.",
        extra=_closed_problems,
        # Casino jokers are worth 0, so a hand entered as 0 points may hold some.
        worthless_cards=options.casino_scoring and not options.no_jokers,
    )
    out = [player.name for player in players if player.went_out]
    if len(out) > 1:
        problems.append(
            _refuse(
                "RAM-OUT",
                "two_out",
                "Only one player can go out: the hand ends when the first one does.",
                players=out,
            )
        )
    elif not out and not stock_exhausted:
        problems.append(
            _refuse(
                "RAM-OUT",
                "not_ended",
                "The hand ends when a player goes out or the stock runs out; neither happened.",
            )
        )
    all_violations(problems)


def score_hand(
    options: RaminoOptions, players: Sequence[SeatEnd], *, stock_exhausted: bool = False
) -> HandScore:
    """Score one hand's end state in points gained (+) and lost (-).

    RAM-SCORE: every other player loses their hand's value; the one who went out gains the
    sum. RAM-STOCK: nobody went out, every player loses their hand's value. RAM-OPT-CASINO:
    casino values; the winner also gains the value of every card they melded this hand, and
    the others lose that amount split evenly: each loses the same share, and when it does
    not divide, the remainder is lost a point each by the players next after the winner in
    turn order (seat order), so gains and losses still cancel. RAM-HANDCLOSE doubles every
    point of the hand, each seat's doubling shown as an item of its own. A player who goes
    out on the turn the stock runs out ends the hand by going out.

    A hand may be entered by its value (SeatEnd.points) instead of its cards; casino
    scoring then takes the winner's melded value from SeatEnd.melded_points (0 if left
    out), and items show the values without cards.
    """
    players = tuple(players)
    check_players(len(players))
    _check_end(options, players, stock_exhausted)
    value = card_values(options)
    values = [hand_value(player, value) for player in players]
    out = [seat for seat, player in enumerate(players) if player.went_out]
    if not out:
        # RAM-STOCK: nobody went out, every player loses their hand's value.
        return hand_score(players, STOCK, (), values, _hand_items("RAM-STOCK", players, values))

    winner = out[0]
    others = [(winner + step) % len(players) for step in range(1, len(players))]
    lost = sum(values[seat] for seat in others)
    items = [ScoreItem("RAM-SCORE", winner, lost, {"count": lost}, code="gained")]
    items += _hand_items("RAM-SCORE", players, values, sorted(others))
    if options.casino_scoring:
        items += _casino_items(players, winner, others)
    if players[winner].hand_closed:
        subtotals = [sum(i.points for i in items if i.seat == seat) for seat in range(len(players))]
        items += [
            ScoreItem("RAM-HANDCLOSE", seat, subtotal, {"count": subtotal}, code="double")
            for seat, subtotal in enumerate(subtotals)
            if subtotal
        ]
    return hand_score(players, OUT, (winner,), values, items)


def _hand_items(
    rule: str, players: Sequence[SeatEnd], values: Sequence[int], seats: Iterable[int] | None = None
) -> list[ScoreItem]:
    """Return the items of the seats (every seat when None) losing their hand's value."""
    return [
        ScoreItem(
            rule,
            seat,
            -values[seat],
            {"count": values[seat], **shown_cards(players[seat], players[seat].hand)},
            code="hand",
        )
        for seat in (range(len(players)) if seats is None else seats)
    ]


def _casino_items(
    players: Sequence[SeatEnd], winner: int, others: Sequence[int]
) -> list[ScoreItem]:
    """Return RAM-OPT-CASINO's items: the winner gains the value melded, the others share it.

    ``others`` are the other seats in turn order after the winner: the remainder of a share
    that does not divide is lost a point each by the first of them.
    """
    melded = melded_value(players[winner], casino_value)
    items = [
        ScoreItem(
            "RAM-OPT-CASINO",
            winner,
            melded,
            {"count": melded, **shown_cards(players[winner], players[winner].melded)},
            code="melded",
        )
    ]
    share, remainder = divmod(melded, len(others))
    shares = {seat: share + (1 if i < remainder else 0) for i, seat in enumerate(others)}
    items += [
        ScoreItem(
            "RAM-OPT-CASINO",
            seat,
            -shares[seat],
            {"count": melded, "share": shares[seat]},
            code="share",
        )
        for seat in sorted(others)
    ]
    return items


def match_result(options: RaminoOptions, hand_results: Sequence[HandScore]) -> MatchOutcome:
    """Say whether the chosen number of hands is played and who has the highest total.

    RAM-MATCH: every hand counts, a stock ending included; equal highest totals share the
    win.
    """
    if len(hand_results) > options.hands:
        raise _refuse(
            "RAM-MATCH",
            "match_over",
            f"The table plays {options.hands} hands; no more hands can be recorded.",
            hands=options.hands,
        )
    totals_after = running_totals(hand_results)
    totals = totals_after[-1] if totals_after else ()
    if len(hand_results) < options.hands:
        return MatchOutcome(finished=False, hands=len(hand_results), totals=totals)
    return MatchOutcome(
        finished=True,
        hands=len(hand_results),
        totals=totals,
        winners=best_seats(totals, lowest=False),
    )


# The game as the engine reads it ------------------------------------------------------------


def play_rules(options: RaminoOptions, players: int) -> PlayRules:
    """Return what a Ramino table allows in play (RAM-TURN, RAM-OPEN and the house rules)."""
    fixed = options.fixed_jokers
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_values(options),
        turn_rule="RAM-TURN",
        setup_rule="RAM-SETUP",
        opening_rule="RAM-OPEN",
        opening_minimum=options.opening_minimum,
        add_rule="RAM-ADD",
        swap_rule="RAM-JOKER-SWAP",
        joker_use_rule="RAM-OPT-FIXEDJOKER" if fixed else "RAM-JOKER-SWAP",
        joker_out_discard=not fixed,
        joker_discard_rule="RAM-OPT-FIXEDJOKER" if fixed else None,
        joker_discard=JOKER_DISCARD_NEVER if fixed else JOKER_DISCARD_ANY,
        swap_from_four_rule="RAM-OPT-FIXEDJOKER" if fixed else None,
        out_rule="RAM-OUT",
        meld_out=options.no_discard_win,
        knock_claim=KnockClaim("RAM-OPT-KNOCKCLAIM", allowed=options.knock_claim),
        hand_closure=True,
    )


def hand_winners(result: HandScore) -> tuple[int, ...]:
    """Return the player who went out: a stock ending has no winner."""
    return result.winners


def hand_counts(result: HandScore, seat: int) -> Counter[str]:
    """Count whether the seat went out, and closed in hand doing so (RAM-HANDCLOSE).

    The closure is read from the hand's doubling items: one that doubled nothing leaves no
    trace and is not counted.
    """
    out = int(result.ending == OUT and seat in result.winners)
    closed = out and any(item.rule == "RAM-HANDCLOSE" for item in result.items)
    return Counter(went_out=out, hand_closures=int(closed))


def hand_figures(options: RaminoOptions, result: HandScore, seat: int) -> Counter[str]:
    """Give the seat's book figures: whether it opened, and the points left in its hand.

    With RAM-OPT-KNOCKCLAIM a claim adds cards to a hand, so a hand kept short of the deal
    no longer says its player melded: at those tables openings are read only from hands
    played move by move. Going out in one go is the count ``hand_closures`` (RAM-HANDCLOSE).
    """
    dealt = None if options.knock_claim else hand_size(options, len(result.points))
    return opening_figures(result, seat, dealt=dealt)


def gained_and_lost(
    totals: Sequence[int], results: Sequence[HandScore], seat: int
) -> tuple[Fraction, Fraction]:
    """Return the points the seat gained and lost: Ramino's own terms for and against."""
    gained = sum(max(result.points[seat], 0) for result in results)
    lost = sum(max(-result.points[seat], 0) for result in results)
    return Fraction(gained), Fraction(lost)


def closing(options: RaminoOptions) -> Closing:
    """Say how a Ramino player goes out: a discard, optional with RAM-OPT-NODISCARDWIN."""
    return Closing(
        discard="optional" if options.no_discard_win else "required",
        rule="RAM-OUT",
        opening_minimum=options.opening_minimum,
        opening_rule="RAM-OPEN",
        joker_discard_rule="RAM-OPT-FIXEDJOKER" if options.fixed_jokers else None,
    )


SCORING = SeatBySeatScoring(score_hand, melded_points=lambda options: options.casino_scoring)

GAME = GameRules(
    key="ramino",
    examples=samples.EXAMPLES,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    setup_rule="RAM-SETUP",
    match_rule="RAM-MATCH",
    # 13 dealt, one drawn and one discard claimed out of turn (RAM-OPT-KNOCKCLAIM).
    most_in_hand=HAND_SIZE + 2,
    options_from_dict=RaminoOptions.from_dict,
    options_to_dict=RaminoOptions.to_dict,
    deck=deck,
    hand_size=hand_size,
    meld_rules=meld_rules,
    # Ramino's values follow its options (casino scoring).
    card_value=card_values,
    play_rules=play_rules,
    read_entry=SCORING.read_entry,
    score_entry=SCORING.score_entry,
    score_play=SCORING.score_play,
    match_result=match_result,
    # RAM-MATCH: over after the table's number of hands.
    may_end=lambda options, totals, hands: hands >= options.hands,
    standings=StandingsReading(
        counts=("went_out", "hand_closures"),
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        points=gained_and_lost,
        figures=("opened", "opened_known", "points_left", "hands_left"),
        hand_figures=hand_figures,
        points_terms="gained_lost",
        book_columns=(OPENED, BookColumn("went_out"), BookColumn("hand_closures"), POINTS_LEFT),
        book_notes=("opened", "RAM-OPT-KNOCKCLAIM", "points_left", "RAM-HANDCLOSE"),
    ),
    referee=RefereeRules(
        input_rules=frozenset({"RAM-SETUP"}),
        table=seated_table(check_players, RaminoOptions.from_dict),
        questions={
            "meld": meld_answer,
            "hand": hand_answer,
            "opening": opening_answer,
            "layoff": layoff_answer,
            "score": score_answer,
        },
        meld_rules=("RAM-JOKER", "ACE-WRAP"),
        value_rule="RAM-VALUE",
        layoff_rule="RAM-ADD",
        opening_rule="RAM-OPEN",
        closing=closing,
        score_ends=score_hand,
    ),
    name="Ramino",
    rule_prefix="RAM-",
    options=OPTIONS,
    seat_flags=(SeatFlag("went_out"), SeatFlag("hand_closed", "RAM-HANDCLOSE")),
    provisional="gain_loss",
)
