"""A hand in play: its state, and the helpers every kind of move shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.cards import Card, check_copies
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import KNOCK, OUT, WALL, HandEnd, SeatEnd
from scoring.melds import Meld
from scoring.payloads import payload_error, whole_number
from scoring.play.rules import (
    KNOCK_AT_TURN_END,
    PlayRules,
)

# Phases of a hand.
FIRST = "first"  # Gin's first turn: take the upcard or pass (GIN-FIRST)
DRAW = "draw"  # the seat to move has not drawn yet
PLAY = "play"  # the seat to move has drawn: meld, add, discard, knock
FINAL = "final"  # Knock Rummy, stock used up: one more melding turn each (KR-STOCK)
SHOW = "show"  # the hand is over: the hands left are to be shown
DONE = "done"  # scored (or void at Gin's wall)


@dataclass(frozen=True, slots=True)
class SeatHand:
    """Hold one seat's hand in play: how many cards, which are known, what it did."""

    count: int
    known: tuple[Card, ...] = ()
    opened: bool = False
    opened_turn: int | None = None  # the turn number of the seat's first meld
    melded: tuple[Card, ...] = ()  # every card this seat put on the table this hand
    penalties: int = 0  # failed openings (R40-OPEN-PENALTY)
    shown: tuple[Card, ...] | None = None  # the cards shown at the end
    points: int | None = None  # or their value, shown by points

    @property
    def unknown(self) -> int:
        """Return how many of the held cards the log does not name."""
        return self.count - len(self.known)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """Hold a meld on the table and the seat that laid it."""

    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Play:
    """Hold a hand in play after some prefix of its moves."""

    rules: PlayRules
    seats: tuple[str, ...]
    dealer: int
    turn: int
    phase: str
    hands: tuple[SeatHand, ...]
    stock: int
    discard: tuple[Card, ...] = ()
    table: tuple[TableMeld, ...] = ()
    turn_number: int = 1
    moves: int = 0
    passes: int = 0  # GIN-FIRST passes so far
    draws: int = 0  # draws this turn
    melded_now: bool = False  # this turn laid or moved cards on the table
    taken_from_discard: Card | None = None  # GIN-NOREDISCARD
    owed_jokers: int = 0  # jokers taken this turn that must still be used
    # An opening laid in several moves of one turn (R40-OPEN, RAM-OPEN: "several melds in the
    # same turn may be summed"): its value so far and how many melds it put on the table.
    opening_value: int = 0
    opening_melds: int = 0
    claimable: bool = False  # the last discard may be claimed (RAM-OPT-KNOCKCLAIM)
    owed_card: Card | None = None  # S40-PICKUP: the discard taken, not yet on the table
    out: tuple[int, ...] = ()  # seats out of the match, dealt nothing (S40-MATCH)
    final_turns: int = 0  # Knock Rummy turns left after the stock ran out
    ending: str | None = None
    ender: int | None = None
    end: HandEnd | None = None
    seq: int = 0  # the hand_started event's seq
    upcard: Card | None = None  # the card the deal turned up, to score the hand with
    # Which sides have taken their kitty (PlayRules.kitty_size), by side; empty: no kitties.
    kitties: tuple[bool, ...] = ()
    # Each seat's total before the hand (its match's running total), for a game whose
    # opening minimum turns on it (PlayRules.opening_by_total).
    totals: tuple[int, ...] = ()
    # The discard pile a draw took this turn, all of it, and the seat's hand before it: what
    # a game's check of the pile's top card reads (PlayRules.pile_top_check).
    pile_taken: tuple[Card, ...] = ()
    pile_hand: SeatHand | None = None
    # Stock cards the seat owes for bonus cards laid this turn (PlayRules.bonus_card), and
    # how many bonus cards the pile taken this turn brought, laid without a replacement.
    owed_draws: int = 0
    bonus_free: int = 0
    previous: Play | None = None  # the state before the last move, for move_undone

    @property
    def over(self) -> bool:
        """Tell whether every move of the hand has been recorded and it can be scored."""
        return self.phase == DONE

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready view of the hand in play (what a phone shows); the sides'
        kitties and the replacements owed only where the game has them, so the other games'
        views stay as they were."""
        view = self._view()
        if self.kitties:
            view["kitties"] = list(self.kitties)
        if self.rules.bonus_card is not None:
            # Stock cards owed for bonus cards laid (a red 3's replacement), where the game has
            # them.
            view["owed_draws"] = self.owed_draws
        return view

    def _view(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "dealer": self.dealer,
            "turn": self.turn if self.phase not in (SHOW, DONE) else None,
            "phase": self.phase,
            "stock": self.stock,
            "discard_top": str(self.discard[-1]) if self.discard else None,
            "discard_count": len(self.discard),
            "draws": self.draws,
            "owed_jokers": self.owed_jokers,
            "melded_now": self.melded_now,
            # An opening being laid over several moves of this turn: its points so far and
            # the minimum it must reach by the end of the turn (R40-OPEN, RAM-OPEN).
            "opening": (
                {"so_far": self.opening_value, "minimum": opening_minimum(self, self.turn)}
                if self.opening_melds
                else None
            ),
            "claimable": self.claimable and self.rules.claims_discards,
            "ending": self.ending,
            "ender": self.ender,
            "moves": self.moves,
            "table": [
                {
                    "number": number,
                    "owner": item.owner,
                    "kind": item.meld.kind,
                    "cards": [str(card) for card in item.meld.cards],
                    "meld": str(item.meld),
                }
                for number, item in enumerate(self.table, start=1)
            ],
            "hands": [
                {
                    "count": hand.count,
                    "known": [str(card) for card in hand.known],
                    "opened": hand.opened,
                    "penalties": hand.penalties,
                    "to_show": self.phase == SHOW and _must_show(self, seat),
                }
                for seat, hand in enumerate(self.hands)
            ],
        }


# Refusals -----------------------------------------------------------------------------------


def _name(play: Play, seat: int) -> str:
    return play.seats[seat]


def _next_seat(play: Play, seat: int) -> int:
    """Return the seat after ``seat`` in turn order, passing over the seats out of the match."""
    return next_in(seat, len(play.seats), play.out)


def next_in(seat: int, seats: int, out: Sequence[int] = ()) -> int:
    """Return the seat after ``seat`` of ``seats`` that is not ``out`` (one always is)."""
    for step in range(1, seats + 1):
        following = (seat + step) % seats
        if following not in out:
            return following
    raise ValueError("every seat is out")


def _not_your_turn(play: Play, seat: int) -> RuleViolation:
    return _refuse(
        play.rules.turn_rule,
        "not_your_turn",
        f"It is {_name(play, play.turn)}'s turn, not {_name(play, seat)}'s.",
        player=_name(play, seat),
        turn=_name(play, play.turn),
    )


def _phase_refusal(play: Play, code: str, message: str, **params: Any) -> RuleViolation:
    return _refuse(play.rules.turn_rule, code, message, player=_name(play, play.turn), **params)


def _hand_over(play: Play) -> RuleViolation:
    return _refuse(
        play.rules.turn_rule,
        "hand_over",
        "The hand is over: show the hands left (or take back the last move).",
    )


# Cards in hand ------------------------------------------------------------------------------


def _take(play: Play, seat: int, cards: Sequence[Card]) -> SeatHand:
    """Return the seat's hand without ``cards``, refusing cards it cannot hold."""
    hand = play.hands[seat]
    known = Counter(hand.known)
    unknown = hand.unknown
    for card in cards:
        if known[card]:
            known[card] -= 1
        elif unknown:
            unknown -= 1
        else:
            held = " ".join(c.label for c in hand.known) or "-"
            raise _refuse(
                play.rules.turn_rule,
                "not_in_hand",
                f"{_name(play, seat)} cannot play {card.label}: the hand's {hand.count} cards"
                f" are all known ({held}).",
                player=_name(play, seat),
                card=str(card),
                cards=[str(c) for c in hand.known],
            )
    kept = tuple(known.elements())
    return replace(hand, count=hand.count - len(cards), known=_in_order(hand.known, kept))


def _in_order(before: Sequence[Card], kept: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``kept`` in the order the cards first became known."""
    left = Counter(kept)
    ordered = []
    for card in before:
        if left[card]:
            left[card] -= 1
            ordered.append(card)
    return tuple(ordered)


def _give(hand: SeatHand, cards: Sequence[Card], unknown: int = 0) -> SeatHand:
    return replace(hand, count=hand.count + len(cards) + unknown, known=(*hand.known, *cards))


def _with_hand(play: Play, seat: int, hand: SeatHand) -> tuple[SeatHand, ...]:
    return (*play.hands[:seat], hand, *play.hands[seat + 1 :])


# Sides and kitties --------------------------------------------------------------------------


def side_of(rules: PlayRules, seat: int) -> int:
    """Return the side a seat plays for: its partnership's index, or the seat itself."""
    if not rules.sides:
        return seat
    return next(index for index, side in enumerate(rules.sides) if seat in side)


def side_seats(rules: PlayRules, seat: int) -> tuple[int, ...]:
    """Return the seats of the seat's side (the seat alone where the game has no sides)."""
    return rules.sides[side_of(rules, seat)] if rules.sides else (seat,)


def sides_count(rules: PlayRules, seats: int) -> int:
    """Return how many sides a table of ``seats`` has."""
    return len(rules.sides) if rules.sides else seats


def side_opened(play: Play, seat: int) -> bool:
    """Tell whether the seat's side (the seat alone where the game has no sides) has opened."""
    return any(play.hands[s].opened for s in side_seats(play.rules, seat))


def opening_minimum(play: Play, seat: int) -> int:
    """Return the least the seat's opening must be worth: by its total before the hand where
    the game says so (PlayRules.opening_by_total), else the table's one minimum."""
    by_total = play.rules.opening_by_total
    if by_total is None:
        return play.rules.opening_minimum
    return by_total(play.totals[seat] if play.totals else 0)


def kitty_waiting(play: Play, seat: int) -> bool:
    """Tell whether the seat's side still has its kitty to take (PlayRules.kitty_size)."""
    return bool(play.kitties) and not play.kitties[side_of(play.rules, seat)]


def _take_kitty(play: Play, seat: int) -> Play:
    """Return the play with the seat, its hand empty, holding its side's kitty (unseen)."""
    side = side_of(play.rules, seat)
    hand = _give(play.hands[seat], (), unknown=play.rules.kitty_size)
    kitties = (*play.kitties[:side], True, *play.kitties[side + 1 :])
    return replace(play, hands=_with_hand(play, seat, hand), kitties=kitties)


def _check_visible(play: Play) -> None:
    """Refuse a state that shows more copies of a card than the decks hold (CARD-2)."""
    shown: list[Card] = [*play.discard]
    for item in play.table:
        shown += item.meld.cards
    for hand in play.hands:
        shown += hand.shown if hand.shown is not None else hand.known
    check_copies(shown, play.rules.deck)


def _turn_complete(play: Play) -> bool:
    """Tell whether a Knock Rummy turn may end: it melded, drew three, or the stock is out."""
    return play.melded_now or play.draws >= play.rules.max_draws or play.stock == 0


def _draw_again(play: Play) -> RuleViolation:
    return _phase_refusal(
        play,
        "draw_again",
        f"{_name(play, play.turn)} drew {play.draws} and did not meld: draw another card.",
        draws=play.draws,
    )


def _check_rediscard(play: Play, card: Card) -> None:
    """Refuse throwing back the card just taken from the discard pile, where a rule says so
    (PlayRules.no_rediscard_rule)."""
    rule = play.rules.no_rediscard_rule
    if rule is not None and card == play.taken_from_discard:
        raise _refuse(
            rule,
            "rediscard",
            f"{card.label} was just taken from the discard pile: it cannot go back this turn.",
            card=str(card),
        )


def _joker_unused(play: Play, seat: int, count: int) -> RuleViolation:
    """Refuse ending a turn (discard, going out) with a joker taken this turn still unused."""
    rules = play.rules
    return _refuse(
        rules.joker_use_rule or rules.turn_rule,
        "joker_unused",
        f"{_name(play, seat)} took a joker this turn and must use it in a meld first.",
        player=_name(play, seat),
        count=count,
    )


def _table_meld(play: Play, meld: object) -> tuple[int, TableMeld]:
    """Return the index and the table meld a move's "meld" field numbers (1-based)."""
    if not play.table:
        raise payload_error("meld", "the number of a meld on the table", "no_melds")
    number = whole_number("meld", meld, low=1, high=len(play.table))
    return number - 1, play.table[number - 1]


def _must_have_opened(play: Play, seat: int, rule: str) -> None:
    if not side_opened(play, seat):
        raise _refuse(
            rule,
            "not_opened",
            f"{_name(play, seat)} has not opened yet: first lay an opening.",
            player=_name(play, seat),
        )


def _placed(play: Play, cards: Sequence[Card]) -> Play:
    """Return the play with the discard taken this turn settled if it is among ``cards``,
    gone to the table (S40-PICKUP)."""
    if play.owed_card is not None and play.owed_card in cards:
        return replace(play, owed_card=None)
    return play


def _pickup_unused(play: Play, seat: int) -> RuleViolation:
    """Refuse ending a turn with the discard taken still off the table (S40-PICKUP)."""
    card = play.owed_card
    label = card.label if card is not None else ""
    name = _name(play, seat)
    if play.hands[seat].opened:
        return _refuse(
            play.rules.pickup_rule,
            "pickup_unused",
            f"{name} took {label} from the discard pile: it must go on the table this turn.",
            player=name,
            card=str(card),
        )
    return _refuse(
        play.rules.pickup_rule,
        "pickup_not_opened",
        f"{name} took {label} from the discard pile: it must go on the table this turn, in "
        "the melds that open.",
        player=name,
        card=str(card),
    )


def _finish(play: Play, ending: str, seat: int | None) -> Play:
    play = replace(play, ending=ending, ender=seat, phase=SHOW)
    if ending == WALL:
        return replace(play, phase=DONE, end=HandEnd(WALL, (), None, play.upcard))
    if not any(_must_show(play, s) for s in range(len(play.seats))):
        return with_end(play)
    return play


def _must_show(play: Play, seat: int) -> bool:
    hand = play.hands[seat]
    return hand.shown is None and hand.points is None and hand.count > 0


def with_end(play: Play) -> Play:
    """Build the hand's end state for the variant to score."""
    ending = play.ending
    players = []
    for seat, hand in enumerate(play.hands):
        out = ending in (OUT, KNOCK) and seat == play.ender and hand.count == 0
        closed = (
            play.rules.hand_closure
            and out
            and hand.opened_turn == play.turn_number
            and ending == OUT
        )
        by_points = hand.points is not None
        players.append(
            SeatEnd(
                name=play.seats[seat],
                sitting_out=seat in play.out,
                hand=() if by_points else (hand.shown or ()),
                melded=() if by_points else hand.melded,
                knocked=ending == KNOCK
                and seat == play.ender
                and play.rules.knock == KNOCK_AT_TURN_END,
                went_out=out,
                hand_closed=closed,
                opening_penalty=hand.penalties,
                points=hand.points,
            )
        )
    opened = tuple(hand.opened for hand in play.hands)
    melds = tuple((item.owner, item.meld.cards) for item in play.table)
    end = HandEnd(ending, tuple(players), play.ender, play.upcard, opened, melds, play.kitties)
    return replace(play, phase=DONE, end=end)
