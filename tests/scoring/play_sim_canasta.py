"""How the table simulator (play_simulator.py) plays a Canasta turn (the rulings of
scoring/variants/canasta/play.py): draw one card, or take the whole pile where its top card
can go to the table at once, lay red 3s down, meld and add to the side's melds of one rank,
go out only with the side's canastas, and let the stock run out."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.events import CARD_DISCARDED, CARD_DRAWN, CARDS_ADDED, MELDS_LAID
from scoring.variants.canasta.cards import PAIRS, THREE_RANK, is_red_three, is_wild
from scoring.variants.canasta.melds import NO_CANASTA, check_meld
from scoring.variants.canasta.play import table_meld
from scoring.variants.canasta.sheet import melds_sheet
from tests.scoring.play_sim_base import PLAY, TableMeld, _text, _without


class CanastaMoves:
    """Canasta's moves, mixed into HandSimulator."""

    def _canasta_turn(self) -> None:
        seat = self.turn
        top = self.discard[-1] if self.discard else None
        if top is not None and self.rng.random() < 0.5 and self._can_pile_top(seat, top):
            self._can_take_pile(seat, top)
        else:
            self._draw_stock(seat)
        self._can_red_threes(seat)
        self._can_melds(seat)
        self._can_adds(seat)
        self._can_discard(seat)

    # The pile: all of it, its top card to the table this turn (CAN-PILE-1) ----------------

    def _can_pile_top(self, seat: int, top: Card) -> bool:
        if is_wild(top) or top.rank == THREE_RANK:
            return False
        # Two cards at least left after the top goes down: a discard, and no going out here.
        after = len(self.hands[seat]) + len(self.discard)
        if self._can_meld_of(seat, top.rank) is not None:
            return after - 1 >= 2
        pair = sum(1 for card in self.hands[seat] if card.rank == top.rank) >= 2
        return pair and after - 3 >= 2

    def _can_take_pile(self, seat: int, top: Card) -> None:
        payload: dict[str, Any] = {"seat": seat, "source": "discard"}
        if self.rng.random() < 0.5:
            payload["card"] = str(top)
        self.move(CARD_DRAWN, payload)
        self.taken = top
        self.hands[seat] += self.discard
        self.discard = []
        self.phase = PLAY
        self.draws += 1
        index = self._can_meld_of(seat, top.rank)
        if index is not None:
            self._can_add(seat, index, top)
            return
        rest = _without(self.hands[seat], [top])
        pair = [card for card in rest if card.rank == top.rank][:2]
        self._can_lay(seat, [top, *pair])

    # Melds ------------------------------------------------------------------------------

    def _can_red_threes(self, seat: int) -> None:
        """Lay down every red 3 held (CAN-RED3-1), keeping a card to discard."""
        reds = [card for card in self.hands[seat] if is_red_three(card)]
        if reds and self._can_left_ok(seat, reds):
            self._can_lay(seat, reds)

    def _can_melds(self, seat: int) -> None:
        """Lay a new meld of each rank the side has none of, while the turn can still end."""
        by_rank: dict[int, list[Card]] = defaultdict(list)
        for card in self.hands[seat]:
            if not is_wild(card) and card.rank != THREE_RANK:
                by_rank[card.rank].append(card)
        for rank, cards in by_rank.items():
            if self._can_meld_of(seat, rank) is not None or self.rng.random() < 0.1:
                continue
            wilds = [card for card in self.hands[seat] if is_wild(card)]
            group = cards if len(cards) >= 3 else cards + wilds[:1] if len(cards) == 2 else []
            if len(group) >= 3 and self._can_left_ok(seat, group, extra=[group]):
                self._can_lay(seat, group)

    def _can_adds(self, seat: int) -> None:
        """Add single cards to the side's melds while one fits and the turn can still end."""
        while self.rng.random() < 0.9:
            place = self._can_add_place(seat)
            if place is None:
                return
            self._can_add(seat, *place)

    def _can_add_place(self, seat: int) -> tuple[int, Card] | None:
        hand = self.hands[seat]
        for card in self.rng.sample(hand, len(hand)):
            for index in self._can_ours(seat):
                cards = [*self.table_melds[index].meld.cards, card]
                try:
                    table_meld(cards)
                except RuleViolation:
                    continue
                if self._can_left_ok(seat, [card], grown=(index, cards)):
                    return index, card
        return None

    def _can_lay(self, seat: int, cards: Sequence[Card]) -> None:
        self.move(MELDS_LAID, {"seat": seat, "melds": [_text(cards)]})
        self.table_melds.append(TableMeld(seat, table_meld(cards)))
        self._can_to_table(seat, cards)

    def _can_add(self, seat: int, index: int, card: Card) -> None:
        self.move(CARDS_ADDED, {"seat": seat, "meld": index + 1, "cards": str(card)})
        grown = table_meld([*self.table_melds[index].meld.cards, card])
        self.table_melds[index] = TableMeld(self.table_melds[index].owner, grown)
        self._can_to_table(seat, [card])

    def _can_to_table(self, seat: int, cards: Sequence[Card]) -> None:
        self.hands[seat] = _without(self.hands[seat], cards)
        self.melded[seat] += cards
        self.melded_now = True
        if not self.opened[seat]:
            self.opened[seat], self.opened_turn[seat] = True, self.turn_number

    def _can_discard(self, seat: int) -> None:
        """Discard: the last card goes out; the hand ends once the stock is spent."""
        hand = self.hands[seat]
        plain = [card for card in hand if not is_wild(card)]
        card = hand[0] if len(hand) == 1 else self.rng.choice(plain or hand)
        self.move(CARD_DISCARDED, {"seat": seat, "card": str(card)})
        hand.remove(card)
        self.discard.append(card)
        if not hand:
            self.ending, self.ender = "out", seat
        elif not self.stock:
            self.ending = "stock"
        else:
            self._next_turn()

    # Which moves are legal ---------------------------------------------------------------

    def _can_ours(self, seat: int) -> list[int]:
        """Return the indexes of the side's melds (red 3s laid down apart)."""
        return [
            index
            for index, item in enumerate(self.table_melds)
            if item.owner in _side_of(seat) and not is_red_three(item.meld.cards[0])
        ]

    def _can_meld_of(self, seat: int, rank: int) -> int | None:
        return next(
            (
                index
                for index in self._can_ours(seat)
                if check_meld(self.table_melds[index].meld.cards).rank == rank
            ),
            None,
        )

    def _can_left_ok(self, seat: int, cards, *, extra=(), grown=None) -> bool:
        """Tell whether the turn can still end with ``cards`` gone from the hand: a card to
        discard, and the last one only with the side's canastas (CAN-OUT-1)."""
        left = len(self.hands[seat]) - len(cards)
        if left >= 2:
            return True
        if left < 1:
            return False
        melds = [self.table_melds[index].meld.cards for index in self._can_ours(seat)]
        if grown is not None:
            ours = self._can_ours(seat)
            melds[ours.index(grown[0])] = grown[1]
        melds += list(extra)
        canastas = sum(1 for cards in melds if check_meld(cards).canasta != NO_CANASTA)
        return canastas >= self.options.canastas_to_go_out

    # The hand as a side's scorer enters it ------------------------------------------------

    def _canasta_entry(self, *, by_points: bool) -> dict[str, Any]:
        """Return the hand per side: melds and cards left, or the sheet they make; a red 3
        still held (dealt to a seat that had no turn) counts as laid down."""
        out = self.ender % len(PAIRS) if self.ending == "out" else None
        sides = []
        for side, seats in enumerate(PAIRS):
            groups = [item.meld.cards for item in self.table_melds if item.owner in seats]
            melds = [cards for cards in groups if not is_red_three(cards[0])]
            held = [[card for card in self.hands[s] if not is_red_three(card)] for s in seats]
            reds = sum(len(cards) for cards in groups if is_red_three(cards[0])) + sum(
                len(self.hands[s]) - len(hand) for s, hand in zip(seats, held, strict=True)
            )
            if by_points:
                sheet = melds_sheet(
                    [check_meld(cards, going_out=False) for cards in melds],
                    red_threes=reds,
                    went_out=out == side,
                    concealed=False,
                    in_hand=sum(self.table.value(card) for hand in held for card in hand),
                )
                sides.append(sheet.to_dict())
                continue
            sides.append(
                {
                    "melds": [_text(cards) for cards in melds],
                    "hands": [_text(hand) for hand in held],
                    "red_threes": reds,
                    "went_out": out == side,
                }
            )
        return {"mode": "sheet" if by_points else "cards", "pairs": sides}


def _side_of(seat: int) -> tuple[int, ...]:
    return PAIRS[seat % len(PAIRS)]
