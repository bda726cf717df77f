"""The game's own measure of a hand, as the review weighs decisions by it.

A hand's *count* is what the cards would still cost once every meld they hold is laid:
Gin's deadwood (GIN-DEADWOOD); in the games that lay melds in play, the points in hand that
no meld of the player's own takes nor, once they have opened and may add to the table's
melds, any table meld (R40-VALUE, RAM-VALUE, KR-VALUE). Every figure comes from the solver
(scoring/solver/), and a discard's weighing uses one fact that spares most searches: if a
card is deadwood in a least arrangement of a hand, the hand without it counts exactly its
value less, and no hand without a card counts less than the hand less that card's value.
Results are kept per judge (one hand's review), as turns ask the same hands again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from scoring.cards import Card, sort_cards
from scoring.errors import RuleViolation
from scoring.melds import Meld, opening_value
from scoring.play import PlayRules
from scoring.solver import (
    Closing,
    GoOut,
    Opening,
    best_arrangement,
    best_layoff,
    best_opening,
    can_go_out,
    deadwood_count,
)

Key = tuple[Card, ...]


def key_of(cards: Iterable[Card]) -> Key:
    """Return the cards in display order: one key for every order of the same cards."""
    return sort_cards(cards)


def without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """Return the cards less one copy of ``card``."""
    left = list(cards)
    left.remove(card)
    return tuple(left)


@dataclass(frozen=True, slots=True)
class Weight:
    """Hold a hand's count, its own melds, the cards no meld nor layoff takes, and the
    layoffs it uses (card, index into the melds it was weighed against)."""

    count: int
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    layoffs: tuple[tuple[Card, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Discards:
    """Hold a weighing of discards: the count each weighed one leaves, the least, the best."""

    left: dict[Card, int]
    best_left: int
    best: tuple[Card, ...]


def _may_reach(meld: Meld, cards: Sequence[Card]) -> bool:
    """Tell whether any of the cards might go on the meld: a run only a card of its suit next
    to one of its ends, a set only its rank in a suit it lacks, anything a joker. A loose
    test (a run's ends are read round the corner): it only spares the layoff search the
    melds no card could reach, which is most of a crowded table."""
    stands = meld.stands_for
    if any(card.is_joker for card in cards):
        return True
    if meld.kind == "set":
        rank = stands[0].rank
        suits = {card.suit for card in stands}
        return any(card.rank == rank and card.suit not in suits for card in cards)
    suit = stands[0].suit
    low, high = stands[0].rank, stands[-1].rank
    ends = {(low - 2) % 13 + 1, high % 13 + 1}
    return any(card.suit == suit and card.rank in ends for card in cards)


class Judge:
    """Weigh the hands of one hand's review by its table's play rules."""

    def __init__(self, rules: PlayRules, closing: Closing | None) -> None:
        self.rules = rules
        self.closing = closing
        self.value: Callable[[Card], int] = rules.value
        self._weights: dict[tuple[Key, tuple[Meld, ...]], Weight] = {}
        self._counts: dict[Key, int] = {}
        # The count of a hand less one card, per (hand, melds weighed against): exact ones.
        self._exact: dict[tuple[Key, tuple[Meld, ...]], dict[Card, int]] = {}

    def held(self, cards: Iterable[Card]) -> int:
        """Return what the cards are worth in hand, each at its value."""
        return sum(self.value(card) for card in cards)

    # Counts ---------------------------------------------------------------------------

    def weigh(self, cards: Sequence[Card], onto: Sequence[Meld] = ()) -> Weight:
        """Return the hand's count: its least deadwood with its own melds and layoffs onto
        ``onto`` (the table melds the player may add to; none before opening)."""
        hand = key_of(cards)
        reached = [(index, meld) for index, meld in enumerate(onto) if _may_reach(meld, hand)]
        melds = tuple(meld for _, meld in reached)
        key = (hand, melds)
        weight = self._weights.get(key)
        if weight is not None:
            return weight
        if not hand:
            return Weight(0, (), ())
        rules = self.rules
        if melds:
            laid = best_layoff(hand, melds, rules=rules.melds, value=self.value, deck=rules.deck)
            layoffs = tuple((card, reached[index][0]) for card, index in laid.layoffs)
            weight = Weight(laid.count, laid.melds, laid.deadwood, layoffs)
        else:
            arranged = best_arrangement(hand, rules=rules.melds, value=self.value, deck=rules.deck)
            weight = Weight(arranged.count, arranged.melds, arranged.deadwood)
            self._counts[hand] = weight.count
        self._weights[key] = weight
        return weight

    def count(self, cards: Sequence[Card], onto: Sequence[Meld] = ()) -> int:
        """Return the hand's count alone (weigh's, cheaper for a plain hand)."""
        hand = key_of(cards)
        if onto and any(_may_reach(meld, hand) for meld in onto):
            return self.weigh(hand, onto).count
        count = self._counts.get(hand)
        if count is None and not hand:
            return 0
        if count is None:
            rules = self.rules
            count = deadwood_count(hand, rules=rules.melds, value=self.value, deck=rules.deck)
            self._counts[hand] = count
        return count

    def arrangement_melds(self, cards: Sequence[Card]) -> tuple[Meld, ...]:
        """Return the melds of the cards' least arrangement (their own melds only)."""
        return self.weigh(cards).melds

    def discards(
        self,
        cards: Sequence[Card],
        onto: Sequence[Meld] = (),
        *,
        played: Card | None = None,
        allowed: Callable[[Card], bool] | None = None,
    ) -> Discards:
        """Weigh the discards of the hand: the count of the cards each keeps.

        Every discard that leaves the least is weighed, and ``played``; the others only as
        far as shows they leave more (deadwood cards exactly, the rest bounded below).
        ``allowed`` says which discards may be made (``played`` always may); it is asked
        only of those that might leave the least, as asking may cost (an engine's move).
        """
        hand = key_of(cards)
        whole = self.weigh(hand, onto)
        exact = self._exact.setdefault((hand, tuple(onto)), {})
        for card in whole.deadwood:
            exact.setdefault(card, whole.count - self.value(card))

        def estimate(card: Card) -> int:
            return exact.get(card, whole.count - self.value(card))

        order = sorted(dict.fromkeys(hand), key=lambda card: (estimate(card), card != played))
        left: dict[Card, int] = {}
        best: int | None = None
        for card in order:
            if best is not None and estimate(card) > best and card != played:
                continue
            if card != played and allowed is not None and not allowed(card):
                continue
            if card not in exact:
                exact[card] = self.count(without(hand, card), onto)
            left[card] = exact[card]
            best = left[card] if best is None else min(best, left[card])
        if best is None:
            return Discards({}, 0, ())
        return Discards(left, best, tuple(card for card in order if left.get(card) == best))

    # Questions ------------------------------------------------------------------------

    def opening(self, cards: Sequence[Card], *, keep: int) -> Opening:
        """Return the most valuable opening the cards hold, keeping ``keep`` in hand (VALUE)."""
        rules = self.rules
        return best_opening(
            key_of(cards),
            rules=rules.melds,
            opening_value=opening_value,
            keep=keep,
            deck=rules.deck,
        )

    def going_out(
        self, cards: Sequence[Card], *, opened: bool, onto: Sequence[Meld] = ()
    ) -> GoOut | None:
        """Return how the cards go out, or None where they cannot (or the game goes out
        another way: Gin's knock). ``onto`` are the table melds the seat may add to once
        opened: a seat that has not opened may still open, add to them and discard in one
        turn (RAM-ADD, R40-ADD: adding is allowed from the turn one opens)."""
        closing = self.closing
        if closing is None:
            return None
        hand = key_of(cards)
        # Going out melds all but (at most) one card: the hand counts no more than its most
        # valuable card, or nothing where no discard is made. Most hands are ruled out so.
        most = 0 if closing.discard == "none" else max(map(self.value, hand), default=0)
        if self.count(hand, onto) > most:
            return None
        out = self._go_out(hand, opened=opened, onto=onto if opened else ())
        if out is None and not opened and onto:
            out = self._open_and_add(hand, onto)
        return out

    def _go_out(self, hand: Key, *, opened: bool, onto: Sequence[Meld]) -> GoOut | None:
        assert self.closing is not None
        try:
            out = can_go_out(
                hand,
                rules=self.rules.melds,
                closing=self.closing,
                opened=opened,
                onto=tuple(onto),
                opening_value=opening_value,
                deck=self.rules.deck,
            )
        except RuleViolation:
            return None
        return out if out.possible else None

    def _open_and_add(self, hand: Key, onto: Sequence[Meld]) -> GoOut | None:
        """Return a way out for a seat not yet opened that opens, adds the rest to the
        table's melds and discards: tried as the whole hand laid as if opened (its own
        melds then worth the minimum), or the most valuable opening first, the rest laid
        after it. Either is a way out the engine takes; a hand they both miss is not
        flagged (the review never claims a way out it cannot show)."""
        assert self.closing is not None
        minimum = self.closing.opening_minimum
        whole = self._go_out(hand, opened=True, onto=onto)
        if whole is not None and self._opens(whole.melds, minimum):
            return whole
        first = self.opening(hand, keep=1)
        if not first.melds or first.value < minimum:
            return None
        rest = self._go_out(key_of(first.kept), opened=True, onto=onto)
        if rest is None:
            return None
        return replace(rest, melds=(*first.melds, *rest.melds))

    @staticmethod
    def _opens(melds: Sequence[Meld], minimum: int) -> bool:
        laid = sum(len(meld.cards) for meld in melds)
        return laid >= 3 and sum(opening_value(meld) for meld in melds) >= minimum
