"""How the table simulator (play_simulator.py) plays a Burraco turn (the rulings of
scoring/variants/burraco/play.py): draw one card or take the whole pile, meld and add to
the pair's melds, take the pozzetto when the hand empties, close only when the pair may,
and let the stock run down to two cards."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.events import CARD_DISCARDED, CARD_DRAWN, CARDS_ADDED, MELDS_LAID
from scoring.melds import Meld
from scoring.variants.burraco.cards import PAIRS, POZZETTO_SIZE, is_wild
from scoring.variants.burraco.melds import NO_BURRACO, PULITO, check_meld
from scoring.variants.burraco.play import STOCK_END, table_meld
from scoring.variants.burraco.sheet import melds_sheet
from tests.scoring.play_sim_base import PLAY, TableMeld, _text, _without

ACE_HIGH = 14
INTERNATIONAL_RANKS = (1, 3)  # BUR-OPT-INTL: combinations of aces and 3s only


class BurracoMoves:
    """Burraco's moves, mixed into HandSimulator."""

    def _kitties(self) -> list[list[Card]]:
        """Set each pair's pozzetto of 11 aside from the stock (BUR-SETUP); none elsewhere."""
        self.kitty_taken = [False] * len(PAIRS)
        if self.game != "burraco":
            return []
        return [[self.stock.pop() for _ in range(POZZETTO_SIZE)] for _ in PAIRS]

    def _burraco_turn(self) -> None:
        seat = self.turn
        if self.discard and self.rng.random() < 0.3 and self._bur_pile_usable(seat):
            self._bur_take_pile(seat)
        else:
            self._draw_stock(seat)
        self._bur_melds(seat)
        self._bur_adds(seat)
        self._bur_discard(seat)

    def _bur_pile_usable(self, seat: int) -> bool:
        """BUR-OPT-INTL: the pile is taken only where a meld can follow it this turn."""
        if not self.options.international:
            return True
        return self._bur_new_meld(seat, [*self.hands[seat], *self.discard]) is not None

    def _bur_take_pile(self, seat: int) -> None:
        payload: dict[str, Any] = {"seat": seat, "source": "discard"}
        if self.rng.random() < 0.5:
            payload["card"] = str(self.discard[-1])
        self.move(CARD_DRAWN, payload)
        self.taken = self.discard[-1]
        self.hands[seat] += self.discard
        self.discard = []
        self.phase = PLAY
        self.draws += 1

    def _bur_melds(self, seat: int) -> None:
        """Lay new melds while one fits; one at least after the pile at international."""
        must = self.options.international and self.taken is not None
        while True:
            found = self._bur_new_meld(seat, self.hands[seat])
            if found is None or (not must and self.rng.random() < 0.15):
                return
            must = False
            meld = table_meld(self.options, found)
            self.move(MELDS_LAID, {"seat": seat, "melds": [_text(found)]})
            self.table_melds.append(TableMeld(seat, meld))
            self._bur_to_table(seat, found)

    def _bur_adds(self, seat: int) -> None:
        """Add single cards to the pair's melds while one fits."""
        while self.rng.random() < 0.9:
            place = self._bur_add_place(seat)
            if place is None:
                return
            index, card, grown = place
            self.move(CARDS_ADDED, {"seat": seat, "meld": index + 1, "cards": str(card)})
            self.table_melds[index] = TableMeld(self.table_melds[index].owner, grown)
            self._bur_to_table(seat, [card])

    def _bur_to_table(self, seat: int, cards: Sequence[Card]) -> None:
        """Move cards from hand to table; a hand emptied so takes the pozzetto at once."""
        self.hands[seat] = _without(self.hands[seat], cards)
        self.melded[seat] += cards
        self.melded_now = True
        self._opens(seat)
        if not self.hands[seat]:
            self._bur_take_pozzetto(seat)

    def _bur_take_pozzetto(self, seat: int) -> None:
        pair = seat % len(PAIRS)
        self.hands[seat] = list(self.kitties[pair])
        self.kitty_taken[pair] = True

    def _bur_discard(self, seat: int) -> None:
        """Discard: the last card closes (or takes the pozzetto); the stock ends at two."""
        hand = self.hands[seat]
        plain = [card for card in hand if not is_wild(card)]
        card = hand[0] if len(hand) == 1 else self.rng.choice(plain or hand)
        self.move(CARD_DISCARDED, {"seat": seat, "card": str(card)})
        hand.remove(card)
        self.discard.append(card)
        pair = seat % len(PAIRS)
        if not hand and self.kitty_taken[pair]:
            self.ending, self.ender = "out", seat
            return
        if not hand:
            self._bur_take_pozzetto(seat)
        if len(self.stock) <= STOCK_END:
            self.ending = "stock"
        else:
            self._next_turn()

    # Which moves are legal ---------------------------------------------------------------

    def _bur_left_ok(self, seat: int, left: Sequence[Card], ours: Sequence[Meld]) -> bool:
        """Tell whether a hand left with ``left`` can still end the turn, the pair's melds
        being ``ours`` (BUR-CLOSE)."""
        waiting = not self.kitty_taken[seat % len(PAIRS)]
        if len(left) == 0:
            return waiting
        if len(left) == 1 and not waiting:
            return self._bur_may_close(left[0], ours)
        return True

    def _bur_may_close(self, card: Card, ours: Sequence[Meld]) -> bool:
        kinds = [check_meld(meld.cards, **self._bur_meld_options()).burraco for meld in ours]
        if self.options.international and PULITO not in kinds:
            return False
        return any(kind != NO_BURRACO for kind in kinds) and not is_wild(card)

    def _bur_ours(self, seat: int) -> list[int]:
        """Return the indexes of the table melds of the seat's pair."""
        return [i for i, item in enumerate(self.table_melds) if item.owner in _pair_of(seat)]

    def _bur_new_meld(self, seat: int, hand: list[Card]) -> list[Card] | None:
        """Return cards of ``hand`` that make a legal new meld leaving a legal hand."""
        ours = [self.table_melds[i].meld for i in self._bur_ours(seat)]
        for cards in _candidates(hand, self.options.international, self.rng):
            try:
                meld = table_meld(self.options, cards)
            except RuleViolation:
                continue
            if self._bur_left_ok(seat, _without(hand, cards), [*ours, meld]):
                return cards
        return None

    def _bur_add_place(self, seat: int) -> tuple[int, Card, Meld] | None:
        hand = self.hands[seat]
        indexes = self._bur_ours(seat)
        for card in self.rng.sample(hand, len(hand)):
            for index in indexes:
                try:
                    grown = table_meld(self.options, [*self.table_melds[index].meld.cards, card])
                except RuleViolation:
                    continue
                ours = [grown if i == index else self.table_melds[i].meld for i in indexes]
                if self._bur_left_ok(seat, _without(hand, [card]), ours):
                    return index, card, grown
        return None

    # The hand as a pair's scorer enters it ------------------------------------------------

    def _burraco_entry(self, *, by_points: bool) -> dict[str, Any]:
        """Return the hand per pair: melds and cards left, or the sheet they make."""
        closer = self.ender % len(PAIRS) if self.ending == "out" else None
        pairs = []
        for pair, seats in enumerate(PAIRS):
            melds = [item.meld.cards for item in self.table_melds if item.owner in seats]
            if by_points:
                read = [check_meld(cards, **self._bur_meld_options()) for cards in melds]
                in_hand = sum(self.table.value(card) for s in seats for card in self.hands[s])
                sheet = melds_sheet(
                    read, closed=closer == pair, pozzetto=self.kitty_taken[pair], in_hand=in_hand
                )
                pairs.append(sheet.to_dict())
                continue
            pairs.append(
                {
                    "melds": [_text(cards) for cards in melds],
                    "hands": [_text(self.hands[s]) for s in seats],
                    "closed": closer == pair,
                    "pozzetto": self.kitty_taken[pair],
                }
            )
        return {"mode": "sheet" if by_points else "cards", "pairs": pairs}

    def _bur_meld_options(self) -> dict[str, bool]:
        return {"semipulito": self.options.semipulito, "international": self.options.international}


def _pair_of(seat: int) -> tuple[int, ...]:
    return PAIRS[seat % len(PAIRS)]


def _candidates(hand: Sequence[Card], international: bool, rng: random.Random):
    """Yield card groups that may make a meld: combinations, runs, and pairs with a wild."""
    naturals = [card for card in hand if not is_wild(card)]
    wilds = [card for card in hand if is_wild(card)]
    groups: list[list[Card]] = []
    by_rank: dict[int, list[Card]] = defaultdict(list)
    by_suit: dict[str, dict[int, Card]] = defaultdict(dict)
    for card in naturals:
        by_rank[card.rank].append(card)
        by_suit[card.suit][card.rank] = card
        if card.rank == 1:
            by_suit[card.suit][ACE_HIGH] = card
    for rank, cards in by_rank.items():
        if len(cards) >= 3 and (not international or rank in INTERNATIONAL_RANKS):
            groups.append(cards[:8])
    for cards in by_suit.values():
        groups += _runs(cards)
    if wilds:
        for first, second in combinations(naturals, 2):
            groups.append([first, second, wilds[0]])
    rng.shuffle(groups)
    return groups


def _runs(cards: dict[int, Card]) -> list[list[Card]]:
    """Return the longest unbroken runs of three or more of one suit's ranks."""
    runs, run = [], []
    for rank in range(1, ACE_HIGH + 2):
        if rank in cards and not (rank == ACE_HIGH and run and run[0].rank == 1):
            run.append(cards[rank])
            continue
        if len(run) >= 3:
            runs.append(run)
        run = []
    return runs
