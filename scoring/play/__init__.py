"""A hand recorded play by play: draws, discards, melds, adds, joker swaps, knocks.

``start`` deals a hand (``hand_started``) and ``apply_move`` folds one move into the hand's
state, refusing a move that breaks a rule with the rule's ID. When the hand ends, the
state carries a ``HandEnd`` with every seat's end state, which the table's game scores
exactly as a hand recorded by hand (scoring/variants/), so both paths share one scoring.

A phone at a real table does not see the players' cards. The state therefore keeps, per
seat, how many cards are held and which of them are known (taken from the discard pile,
drawn and named, given back by a failed opening, a joker taken from the table). A card a
player lays down that is not known to be in their hand comes out of the unknown ones,
as long as there are any. Everything face up in the hand — discards, melds, known cards,
the hands shown at the end — is counted against the decks after every move (CARD-2).

Payloads (JSON; ``seat`` is the seat's index, cards in the card notation of rule CARD-3)::

    hand_started     {"dealer": 0, "upcard": "7S"}   dealer optional (the table's next
                                                     dealer); upcard: the card that starts
                                                     the discard pile (none in Knock Rummy)
    card_drawn       {"seat": 1, "source": "stock", "card": "QH"}
                     source "stock" (card optional: unknown) or "discard" (the top card;
                     the whole pile where the game takes it whole, card naming its top)
    card_discarded   {"seat": 1, "card": "QH"}
    turn_passed      {"seat": 1}      Gin's first turn (GIN-FIRST); in Knock Rummy the end
                                      of a turn (the next seat's draw also ends it)
    melds_laid       {"seat": 1, "melds": ["7H 8H 9H", "QS QD JK=QC"]}   new melds; a
                                      player's first are their opening
    cards_added      {"seat": 1, "meld": 2, "cards": "10H"}   onto table meld 2 (1-based)
    joker_swapped    {"seat": 1, "meld": 2, "card": "QC"}   the card the joker stands for
                                      goes in, the joker comes to the hand
    table_rearranged {"seat": 1, "melds": ["...", "..."]}   Knock Rummy: the whole table
                                      after the move
    discard_claimed  {"seat": 2, "card": "5D"}   Ramino knock claim (RAM-OPT-KNOCKCLAIM):
                                      the last discard, then a stock card (optional)
    knocked          {"seat": 0, "card": "9C", "hand": "<10 cards>"}   Gin: the discard
                                      (none for Big Gin) and the cards kept, shown;
                                      Knock Rummy: {"seat": 0}
    hands_shown      {"mode": "cards", "players": [{"hand": "KS 7D"}, null, ...]}
                     or {"mode": "points", "players": [{"points": 17}, null, ...]}: every
                     seat's cards left at the end; null for a seat whose cards the log
                     already shows (the one who went out, the Gin knocker)
    move_undone      {"reason": "wrong card"}   takes back the hand's last move

The hand ends when a player goes out (the last card discarded, or melded where the game
allows it), knocks, or the stock runs out (after the turn that took its last card, or left
it at the game's ``stock_end``, Burraco's two; in Knock Rummy after one more melding turn
each, KR-STOCK); Gin's hand is void at the wall (GIN-WALL: two stock cards left, or none
with the option off). Then ``hands_shown``.

Partners (``PlayRules.sides``) share their melds; where each side has a kitty (Burraco's
pozzetto, ``PlayRules.kitty_size``), the first of its seats to empty the hand takes it
instead of going out: at once after melding (the turn goes on), after the discard else
(the turn passes). The kitties are set aside at the deal, neither in hand nor in the stock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from scoring.errors import refusal as _refuse
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    TABLE_REARRANGED,
    TURN_PASSED,
)
from scoring.hands import HandEnd
from scoring.payloads import HandContext, HandStarted, read_payload
from scoring.play.ending import _claim, _knock, _show
from scoring.play.melding import _add, _melds, _rearrange, _swap
from scoring.play.rules import (
    KNOCK_SHOWING,
    PlayRules,
)
from scoring.play.state import (
    DONE,
    DRAW,
    FINAL,
    FIRST,
    PLAY,
    SHOW,
    Play,
    SeatHand,
    TableMeld,
    _check_visible,
    _hand_over,
    _must_show,
    _phase_refusal,
    next_in,
    sides_count,
)
from scoring.play.turns import _discard, _draw, _pass

__all__ = [
    "DONE",
    "DRAW",
    "FINAL",
    "FIRST",
    "PLAY",
    "SHOW",
    "HandEnd",
    "Play",
    "PlayRules",
    "SeatHand",
    "TableMeld",
    "apply_move",
    "start",
]


def start(
    rules: PlayRules,
    seats: tuple[str, ...],
    deal: HandStarted,
    *,
    dealer: int,
    seq: int,
    out: tuple[int, ...] = (),
    totals: tuple[int, ...] = (),
) -> Play:
    """Deal a hand under the table's play rules: everybody holds the game's hand, the upcard
    starts the pile; ``dealer`` is the table's next dealer, unless the deal names one.
    ``totals``: each seat's total before the hand, where the rules read it
    (PlayRules.opening_by_total).

    Seats ``out`` of the match (S40-MATCH) are dealt nothing, neither deal nor play; the
    caller has refused a deal by one of them, citing its game's match rule.
    """
    dealer = deal.dealer if deal.dealer is not None else dealer
    upcard = (deal.upcard,) if deal.upcard is not None else ()
    dealt = rules.hand_size * (len(seats) - len(out))
    # Each side's kitty is set aside at the deal, face down (PlayRules.kitty_size).
    kitties = sides_count(rules, len(seats)) if rules.kitty_size else 0
    play = Play(
        rules=rules,
        seats=seats,
        dealer=dealer,
        turn=next_in(dealer, len(seats), out),
        phase=FIRST if rules.first_turn_rule is not None else DRAW,
        hands=tuple(SeatHand(count=0 if s in out else rules.hand_size) for s in range(len(seats))),
        stock=rules.deck.size - dealt - len(upcard) - kitties * rules.kitty_size,
        discard=upcard,
        seq=seq,
        out=out,
        upcard=deal.upcard,
        kitties=(False,) * kitties,
        totals=tuple(totals),
    )
    _check_visible(play)
    by_deal = rules.knock_limit_by_deal
    if by_deal is not None and deal.upcard is not None:
        # This deal's upcard sets how much a knock may keep, for this hand only.
        play = replace(play, rules=replace(rules, knock_limit=by_deal.limit(deal.upcard)))
    return play


# Moves --------------------------------------------------------------------------------------


def _context(play: Play) -> HandContext:
    """Return what the move readers need of the hand."""
    rules = play.rules
    return HandContext(
        seats=len(play.seats),
        discard_pile=rules.discard_pile,
        knock_showing=rules.knock == KNOCK_SHOWING,
        show_by_points=rules.show_by_points,
        to_show=tuple(_must_show(play, seat) for seat in range(len(play.seats))),
    )


def _check_before_reading(play: Play, event_type: str) -> None:
    """Refuse a move the hand's phase or game rules out before its payload is read."""
    if event_type == MOVE_UNDONE:
        return
    if event_type == HANDS_SHOWN:
        if play.phase != SHOW:
            raise _phase_refusal(
                play, "hand_not_over", "The hands are shown when the hand is over."
            )
        return
    if play.phase in (SHOW, DONE):
        raise _hand_over(play)
    if event_type == CARD_DISCARDED and not play.rules.discard_pile:
        raise _phase_refusal(play, "no_discard_pile", "This game has no discard pile.")
    if event_type == KNOCKED and play.rules.knock is None:
        raise _phase_refusal(play, "no_knock", "This game does not end by knocking.")


def apply_move(play: Play, event_type: str, payload: Mapping[str, Any]) -> Play:
    """Return the hand after one move, or refuse the move citing the rule it breaks."""
    _check_before_reading(play, event_type)
    move = read_payload(event_type, payload, hand=_context(play))
    if event_type == MOVE_UNDONE:
        if play.previous is None:
            raise _refuse("EVENT", "nothing_to_undo", "No move of this hand is left to undo.")
        return play.previous
    after = _HANDLERS[event_type](play, move)
    _check_visible(after)
    return replace(after, moves=play.moves + 1, previous=play)


_HANDLERS: dict[str, Callable[[Play, Any], Play]] = {
    CARD_DRAWN: _draw,
    CARD_DISCARDED: _discard,
    TURN_PASSED: _pass,
    MELDS_LAID: _melds,
    CARDS_ADDED: _add,
    JOKER_SWAPPED: _swap,
    TABLE_REARRANGED: _rearrange,
    DISCARD_CLAIMED: _claim,
    KNOCKED: _knock,
    HANDS_SHOWN: _show,
}
