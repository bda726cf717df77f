"""A hand rebuilt in hindsight: every state of the hand, and what each seat held at each.

The phone at the table names only some cards: the upcard, discards, melds, a card taken
from the pile, a stock card when the player says it, the hands shown at the end. The
engine (scoring/play/) counts each seat's cards and knows the named ones; the rest are
*unknown*. Read the other way, the whole log tells more: every unknown card a seat plays
later, or shows at the end, was held since the seat got it, from the deal or from a stock
draw nobody named. Which draw brought it is another matter: a card played at step ``x``
was held at step ``t < x`` for sure only if the seat drew no unknown card between ``t`` and
``x`` (otherwise that draw may have brought it). That is also enough: if it did draw one,
some reading of the log has the card come with that draw (the draws' cards can be swapped
among the cards they may have brought, the first draw after ``t`` taking it). So at each
step a seat's cards are the named ones, plus the cards it played or showed later with no
unknown draw in between; the rest it held are counted, not guessed (``SeatView.unknown``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, parse_cards, sort_cards
from scoring.events import (
    CARD_DRAWN,
    DISCARD_CLAIMED,
    HANDS_SHOWN,
    MOVE_UNDONE,
    LogEvent,
)
from scoring.play import Play, apply_move
from scoring.review.model import SeatView


@dataclass(frozen=True, slots=True)
class Move:
    """Hold one move of the hand as the review reads it.

    ``index`` is the state after it (plays[index]); ``seat`` who moved (None: the hands
    shown); ``gone`` the cards that left the mover's hand for the table, the pile or a knock
    shown; ``came`` those that came to it visibly (the pile's top, a named stock card, a
    joker taken back, a short opening given back); ``unknown_in`` the cards that came to
    it unnamed (a stock draw nobody named).
    """

    index: int
    event: LogEvent
    seat: int | None
    gone: tuple[Card, ...] = ()
    came: tuple[Card, ...] = ()
    unknown_in: int = 0


def standing_moves(events: Sequence[LogEvent]) -> list[LogEvent]:
    """Return the moves a hand's log leaves standing: each move_undone takes back the
    latest move not yet taken back."""
    standing: list[LogEvent] = []
    for event in events:
        if event.event_type == MOVE_UNDONE:
            if standing:
                standing.pop()
        else:
            standing.append(event)
    return standing


def _changed(before: Play, after: Play) -> tuple[Counter[Card], Counter[Card]]:
    """Return the cards a move put face up (on the pile, the table, a hand laid open) and
    those it took from there, from the states either side of it."""
    gone: Counter[Card] = Counter()
    came: Counter[Card] = Counter()
    was, now = before.discard, after.discard
    if after.stock > before.stock:
        # The pile but its top became the stock again (S40-STOCK): only the top, the card
        # just thrown, went there from a hand.
        gone.update(now[-1:])
    else:
        common = 0
        while common < len(was) and common < len(now) and was[common] == now[common]:
            common += 1
        gone.update(now[common:])
        came.update(was[common:])
    if after.table is not before.table:
        on_table = Counter(card for item in after.table for card in item.meld.cards)
        off_table = Counter(card for item in before.table for card in item.meld.cards)
        gone.update(on_table - off_table)
        came.update(off_table - on_table)
    for was_hand, now_hand in zip(before.hands, after.hands, strict=True):
        if now_hand.shown is not was_hand.shown:
            gone.update(now_hand.shown or ())
            came.update(was_hand.shown or ())
    # A card both thrown and taken back in one move (a short opening given back, then one of
    # its cards thrown) went nowhere.
    both = gone & came
    return gone - both, came - both


def _named_stock_card(event: LogEvent) -> Card | None:
    """Return the stock card a draw or a claim names, if it names one."""
    payload = event.payload
    named = event.event_type == DISCARD_CLAIMED or (
        event.event_type == CARD_DRAWN and payload.get("source") == "stock"
    )
    if named and payload.get("card"):
        return parse_cards(str(payload["card"]))[0]
    return None


def _move(index: int, event: LogEvent, before: Play, after: Play) -> Move:
    """Read what one move did to its mover's hand from the states either side of it."""
    if event.event_type == HANDS_SHOWN:
        return Move(index, event, None)
    seat = event.payload.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(after.hands):
        return Move(index, event, None)
    gone, came = _changed(before, after)
    named = _named_stock_card(event)
    if named is not None:
        came[named] += 1
    change = after.hands[seat].count - before.hands[seat].count
    unknown_in = change - (came.total() - gone.total())
    return Move(
        index,
        event,
        seat,
        tuple(gone.elements()),
        tuple(came.elements()),
        max(unknown_in, 0),
    )


@dataclass(frozen=True, slots=True)
class _Ledger:
    """One seat's unknown cards: the steps at which one came (sorted) and, for each card
    seen later, the step it left the unknown ones (played, laid open or shown)."""

    entries: tuple[int, ...]
    exits: tuple[tuple[Card, int], ...]


class Hindsight:
    """Hold every state of a hand, its moves, and each seat's cards at each state."""

    def __init__(self, plays: Sequence[Play], moves: Sequence[Move]) -> None:
        self.plays = tuple(plays)
        self.moves = tuple(moves)
        self._ledgers = self._read_ledgers()
        self._views: dict[tuple[int, int], SeatView] = {}

    @classmethod
    def of(cls, started: Play, events: Sequence[LogEvent]) -> Hindsight:
        """Replay a hand's standing moves from its deal (events after hand_started)."""
        standing = []
        play = started
        for event in standing_moves(events):
            play = apply_move(play, event.event_type, event.payload)
            standing.append((event, play))
        return cls.played(started, standing)

    @classmethod
    def played(cls, started: Play, standing: Sequence[tuple[LogEvent, Play]]) -> Hindsight:
        """Read a hand from its deal and each standing move with the state after it."""
        plays = [started]
        moves = []
        for event, after in standing:
            moves.append(_move(len(plays), event, plays[-1], after))
            plays.append(after)
        return cls(plays, moves)

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        return len(self.plays[0].hands)

    def _read_ledgers(self) -> tuple[_Ledger, ...]:
        entries: list[list[int]] = [[] for _ in range(self.seats)]
        exits: list[list[tuple[Card, int]]] = [[] for _ in range(self.seats)]
        for move in self.moves:
            before, after = self.plays[move.index - 1], self.plays[move.index]
            if move.seat is None:
                # The hands shown: each seat's unknown cards, seen at last.
                for seat, (was, now) in enumerate(zip(before.hands, after.hands, strict=True)):
                    if was.shown is None and now.shown is not None:
                        seen = Counter(now.shown) - Counter(was.known)
                        exits[seat] += [(card, move.index) for card in seen.elements()]
                continue
            seat = move.seat
            entries[seat] += [move.index] * move.unknown_in
            available = Counter(before.hands[seat].known) + Counter(move.came)
            from_unknown = Counter(move.gone) - available
            exits[seat] += [(card, move.index) for card in from_unknown.elements()]
        return tuple(
            _Ledger(tuple(sorted(entry)), tuple(exit_))
            for entry, exit_ in zip(entries, exits, strict=True)
        )

    def view(self, index: int, seat: int) -> SeatView:
        """Return what the seat held after state ``index``, as the whole log shows it."""
        key = (index, seat)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = self._view(index, seat)
        return view

    def _view(self, index: int, seat: int) -> SeatView:
        hand = self.plays[index].hands[seat]
        if hand.shown is not None:
            return SeatView(len(hand.shown), sort_cards(hand.shown), 0, hand.opened, True)
        ledger = self._ledgers[seat]
        at = bisect_right(ledger.entries, index)
        following = ledger.entries[at] if at < len(ledger.entries) else None
        certain = [
            card
            for card, gone in ledger.exits
            if index < gone and (following is None or gone < following)
        ]
        unknown = hand.unknown - len(certain)
        if unknown < 0:  # a log the engine read otherwise: name no card rather than guess
            certain, unknown = [], hand.unknown
        cards = sort_cards([*hand.known, *certain])
        return SeatView(hand.count, cards, unknown, hand.opened)

    def cards(self, index: int, seat: int) -> tuple[Card, ...] | None:
        """Return the seat's whole hand after state ``index``, or None if a card is unknown."""
        view = self.view(index, seat)
        return view.cards if view.unknown == 0 else None

    def drawn(self, move: Move) -> Card | None:
        """Return the card a draw (or a claim's stock card) brought, if it can be told."""
        if move.seat is None:
            return None
        named = _named_stock_card(move.event)
        if named is not None:
            return named
        if move.event.event_type == CARD_DRAWN and move.event.payload.get("source") != "stock":
            return move.came[0] if move.came else None
        before = self.cards(move.index - 1, move.seat)
        after = self.cards(move.index, move.seat)
        if before is None or after is None:
            return None
        new = Counter(after) - Counter(before) - Counter(move.came)
        cards = list(new.elements())
        return cards[0] if len(cards) == 1 else None

    def moved_cards(self, move: Move) -> tuple[Card, ...]:
        """Return the cards a move put in play or took, in hindsight (for the stepper)."""
        if move.seat is None:
            return ()
        event = move.event
        if event.event_type == CARD_DRAWN:
            card = self.drawn(move)
            return (card,) if card is not None else ()
        shown = self.plays[move.index].hands[move.seat].shown or ()
        gone = Counter(move.gone) - Counter(shown)
        return (*move.came, *gone.elements())
