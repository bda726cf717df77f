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
from scoring.variants.canasta.match import first_meld_minimum
from scoring.variants.canasta.melds import NO_CANASTA, check_meld
from scoring.variants.canasta.play import table_meld
from scoring.variants.canasta.sheet import melds_sheet
from tests.scoring.play_sim_base import PLAY, TableMeld, _Stop, _text, _without


class CanastaMoves:
    """Canasta's moves, mixed into HandSimulator."""

    def _canasta_turn(self) -> None:
        seat = self.turn
        self.pile_reds = 0
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

    def _can_side_opened(self, seat: int) -> bool:
        return any(self.opened[s] for s in _side_of(seat))

    def _can_minimum(self, seat: int) -> int:
        """Return the side's first meld's minimum by its total before the hand (CAN-OPEN-1)."""
        totals = self.table.totals
        return first_meld_minimum(totals[seat] if totals else 0)

    def _can_pile_top(self, seat: int, top: Card) -> bool:
        """Tell whether the seat may take the pile, and will place its top card at once."""
        if is_wild(top) or top.rank == THREE_RANK:
            return False
        hand = self.hands[seat]
        pair = sum(1 for card in hand if card.rank == top.rank) >= 2
        wild = any(is_wild(card) for card in hand)
        one = any(card.rank == top.rank for card in hand)
        # Two cards at least left after the top goes down: a discard, and no going out here.
        after = len(hand) + len(self.discard)
        if not self._can_side_opened(seat):
            # Frozen for a side that has not melded: a natural pair, and the three cards
            # alone make the first meld's minimum.
            worth = 3 * self.table.value(top) >= self._can_minimum(seat)
            return pair and worth and after - 3 >= 2
        if any(is_wild(card) or is_red_three(card) for card in self.discard):
            # Frozen for everyone: a natural pair, and a rank the side has not melded.
            return pair and self._can_meld_of(seat, top.rank) is None and after - 3 >= 2
        if self._can_meld_of(seat, top.rank) is not None:
            return after - 1 >= 2
        return (pair or (one and wild)) and after - 3 >= 2

    def _can_take_pile(self, seat: int, top: Card) -> None:
        before = list(self.hands[seat])
        payload: dict[str, Any] = {"seat": seat, "source": "discard"}
        if self.rng.random() < 0.5:
            payload["card"] = str(top)
        self.move(CARD_DRAWN, payload)
        self.taken = top
        self.pile_reds = sum(1 for card in self.discard if is_red_three(card))
        self.hands[seat] += self.discard
        self.discard = []
        self.phase = PLAY
        self.draws += 1
        index = self._can_meld_of(seat, top.rank)
        if index is not None:
            self._can_add(seat, index, top)
            return
        # The cards that go down with the top come from the hand before the pile.
        naturals = [card for card in before if card.rank == top.rank][:2]
        if len(naturals) < 2:
            naturals += [card for card in before if is_wild(card)][:1]
        self._can_lay(seat, [top, *naturals])

    # Melds ------------------------------------------------------------------------------

    def _can_red_threes(self, seat: int) -> None:
        """Lay down every red 3 held and draw a card for each but those the pile brought,
        again while the stock gives red 3s (CAN-RED3-1)."""
        while True:
            reds = [card for card in self.hands[seat] if is_red_three(card)]
            if not reds or len(self.hands[seat]) - len(reds) < 1:
                return
            self._can_lay(seat, reds, opens=False)
            free = min(len(reds), self.pile_reds)
            self.pile_reds -= free
            for _ in range(min(len(reds) - free, len(self.stock))):
                self._can_replacement(seat)

    def _can_replacement(self, seat: int) -> None:
        card = self.stock[-1]
        payload: dict[str, Any] = {"seat": seat, "source": "stock"}
        if self.rng.random() < 0.5:
            payload["card"] = str(card)
        self.move(CARD_DRAWN, payload)
        self.hands[seat].append(self.stock.pop())

    def _can_melds(self, seat: int) -> None:
        """Lay a new meld of each rank the side has none of, while the turn can still end;
        a side's first melds only all at once, worth the minimum (CAN-OPEN-1)."""
        by_rank: dict[int, list[Card]] = defaultdict(list)
        for card in self.hands[seat]:
            if not is_wild(card) and card.rank != THREE_RANK:
                by_rank[card.rank].append(card)
        groups = []
        wilds = [card for card in self.hands[seat] if is_wild(card)]
        for rank, cards in by_rank.items():
            if self._can_meld_of(seat, rank) is not None or self.rng.random() < 0.1:
                continue
            group = cards if len(cards) >= 3 else cards + wilds[:1] if len(cards) == 2 else []
            if len(group) >= 3:
                wilds = [card for card in wilds if card not in group]
                groups.append(group)
        if self._can_side_opened(seat):
            for group in groups:
                if self._can_left_ok(seat, group, extra=[group]):
                    self._can_lay(seat, group)
            return
        cards = [card for group in groups for card in group]
        worth = sum(self.table.value(card) for card in cards)
        if (
            groups
            and worth >= self._can_minimum(seat)
            and self._can_left_ok(seat, cards, extra=groups)
        ):
            self._can_lay_all(seat, groups)

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

    def _can_lay(self, seat: int, cards: Sequence[Card], *, opens: bool = True) -> None:
        self._can_lay_all(seat, [cards], opens=opens)

    def _can_lay_all(self, seat: int, groups, *, opens: bool = True) -> None:
        self.move(MELDS_LAID, {"seat": seat, "melds": [_text(cards) for cards in groups]})
        for cards in groups:
            self.table_melds.append(TableMeld(seat, table_meld(cards)))
            self._can_to_table(seat, cards, opens=opens)

    def _can_add(self, seat: int, index: int, card: Card) -> None:
        self.move(CARDS_ADDED, {"seat": seat, "meld": index + 1, "cards": str(card)})
        grown = table_meld([*self.table_melds[index].meld.cards, card])
        self.table_melds[index] = TableMeld(self.table_melds[index].owner, grown)
        self._can_to_table(seat, [card])

    def _can_to_table(self, seat: int, cards: Sequence[Card], *, opens: bool = True) -> None:
        self.hands[seat] = _without(self.hands[seat], cards)
        self.melded[seat] += cards
        self.melded_now = True
        if opens and not self.opened[seat]:
            self.opened[seat], self.opened_turn[seat] = True, self.turn_number

    def _can_discard(self, seat: int) -> None:
        """Discard: the last card goes out; the hand ends once the stock is spent."""
        hand = self.hands[seat]
        if len(hand) == 1 and not self._can_left_ok(seat, []):
            # One card left (a red 3 laid down, say) and too few canastas to go out by it
            # (CAN-OUT-1): no legal discard, so the simulated table stops here.
            raise _Stop
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

    def _can_concealed(self) -> bool:
        """Tell whether the player who went out did so concealed (CAN-OUT-2): first melds in
        the turn they went out, a canasta among their own melds."""
        seat = self.ender
        if self.opened_turn[seat] != self.turn_number:
            return False
        return any(
            item.owner == seat
            and not is_red_three(item.meld.cards[0])
            and check_meld(item.meld.cards).canasta != NO_CANASTA
            for item in self.table_melds
        )

    # The hand as a side's scorer enters it ------------------------------------------------

    def _canasta_entry(self, *, by_points: bool) -> dict[str, Any]:
        """Return the hand per side: melds and cards left, or the sheet they make; a red 3
        still held (dealt to a seat that had no turn) counts as laid down."""
        out = self.ender % len(PAIRS) if self.ending == "out" else None
        concealed = out is not None and self._can_concealed()
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
                    concealed=concealed and out == side,
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
                    "concealed": concealed and out == side,
                }
            )
        return {"mode": "sheet" if by_points else "cards", "pairs": sides}


def _side_of(seat: int) -> tuple[int, ...]:
    return PAIRS[seat % len(PAIRS)]
