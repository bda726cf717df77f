"""How the table simulator (play_simulator.py) plays a Rummy40, Ramino or Scala 40 turn
(docs/rules.md, Rummy40 and Ramino; docs/rules.md S40-*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.cards import JOKER, Card
from scoring.errors import RuleViolation
from scoring.events import CARDS_ADDED, DISCARD_CLAIMED, JOKER_SWAPPED, MELDS_LAID
from scoring.melds import Meld, check_meld, opening_value
from scoring.solver import best_arrangement, best_opening
from tests.scoring.play_sim_base import TableMeld, _Stop, _without, extension


class RummyMoves:
    """Rummy40's and Ramino's moves, mixed into HandSimulator."""

    # Rummy40 and Ramino (docs/rules.md) -----------------------------------------------------------

    def _meld_out(self) -> bool:
        # RAM-OPT-NODISCARDWIN: going out by melding the last card.
        return self.game == "ramino" and self.options.no_discard_win

    def _discards(self, hand: Sequence[Card], opened: bool) -> list[Card]:
        """Return the cards the seat may discard (R40-JOKER-DISCARD, RAM-OPT-FIXEDJOKER,
        S40-DISCARD)."""
        if self.game == "rummy40":
            joker_ok = opened and len(hand) > 1
        elif self.game == "ramino":
            joker_ok = not self.options.fixed_jokers
        else:
            joker_ok = True
        allowed = [card for card in hand if joker_ok or not card.is_joker]
        bound = opened or getattr(self.options, "unopened_discard_check", False)
        if self.game == "scala40" and bound and len(hand) > 1 and not self.options.free_discard:
            # S40-DISCARD: an open player (any player, where the table says so) keeps back a
            # card the table takes, but the last.
            allowed = [card for card in allowed if not self._fits_table(card)]
        return allowed

    def _fits_table(self, card: Card) -> bool:
        return any(
            extension(item.meld, [card], self.rules) is not None for item in self.table_melds
        )

    def _can_finish(self, hand: Sequence[Card], opened: bool) -> bool:
        """Tell whether a hand left after melding still ends the turn legally."""
        if not hand:
            return self._meld_out()
        return bool(self._discards(hand, opened))

    def _rummy_turn(self) -> None:
        seat = self.turn
        top = self.discard[-1] if self.discard else None
        # R40-JOKER-STEAL: a joker from the pile is melded in the same turn; the simulator
        # takes one only where it adds it to a table meld at once.
        steal = top is not None and top.is_joker and self.game == "rummy40"
        joker_at = self._joker_place(seat) if steal else None
        pickup = self._pickup_place(seat, top) if self.game == "scala40" else None
        if joker_at is not None and self.rng.random() < 0.7:
            self._draw_discard(seat)
            self._add(seat, *joker_at)
        elif pickup is not None and self.rng.random() < 0.5:
            # S40-PICKUP: the discard taken goes on the table at once.
            self._draw_discard(seat)
            self._add(seat, *pickup)
        elif top is not None and not steal and self.game != "scala40" and self.rng.random() < 0.3:
            self._draw_discard(seat)
        else:
            self._draw_stock(seat)
        self._rummy_melds(seat)
        if self.ending is None:
            self._rummy_discard(seat)

    def _joker_place(self, seat: int) -> tuple[int, Card, Meld] | None:
        """Return where an opened seat can add a joker, if one takes it."""
        if not self.opened[seat]:
            return None
        for index in self._addable(seat):
            grown = extension(self.table_melds[index].meld, [JOKER], self.rules)
            if grown is not None:
                return index, JOKER, grown
        return None

    def _pickup_place(self, seat: int, top: Card | None) -> tuple[int, Card, Meld] | None:
        """Return where an opened Scala 40 seat can add the top discard, if one takes it."""
        if top is None or not self.opened[seat]:
            return None
        for index in self._addable(seat):
            grown = extension(self.table_melds[index].meld, [top], self.rules)
            if grown is not None:
                return index, top, grown
        return None

    def _rummy_melds(self, seat: int) -> None:
        """Open (or fail to, R40-OPEN-PENALTY), lay more melds, swap a joker, add cards."""
        hand = self.hands[seat]
        keep = 0 if self._meld_out() else 1
        opening = best_opening(hand, rules=self.rules, keep=keep, deck=self.deck)
        # S40-HANDCLOSE: melding all but the last card closes in hand, worth what it may.
        in_hand = self.game == "scala40" and len(hand) - len(opening.cards) == 1
        if opening.melds and (self.opened[seat] or opening.value >= self.minimum or in_hand):
            left = _without(hand, opening.cards)
            if self.rng.random() < 0.85 and self._can_finish(left, True):
                self._lay(seat, opening.melds)
        elif opening.melds and self.game in ("rummy40", "scala40") and self.rng.random() < 0.2:
            # R40-OPEN-PENALTY, S40-OPEN-PENALTY: an opening still short when the turn ends
            # costs a penalty, and its melds go back to the hand then.
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(m) for m in opening.melds]})
            self.hands[seat] = _without(hand, opening.cards)
            self.table_melds += [TableMeld(seat, meld) for meld in opening.melds]
            self.short_opening = len(opening.melds)
            self.melded_now = True
        if self.ending is None and self.opened[seat]:
            if self.game != "rummy40" or self.rng.random() < 0.5:
                self._swap(seat)
            self._adds(seat)

    def _take_back_short_opening(self, seat: int) -> None:
        """R40-OPEN-PENALTY at the end of the turn: the short opening's melds come back."""
        if not self.short_opening:
            return
        laid = self.table_melds[-self.short_opening :]
        del self.table_melds[-self.short_opening :]
        self.hands[seat] += [card for item in laid for card in item.meld.cards]
        self.penalties[seat] += 1
        self.short_opening = 0

    def _lay(self, seat: int, melds: Sequence[Meld]) -> None:
        """Lay melds in one move, or sometimes one by one: an opening may take several moves
        of a turn, its value summed (RAM-OPEN, R40-OPEN)."""
        moves = [melds] if len(melds) < 2 or self.rng.random() < 0.6 else [[m] for m in melds]
        value = 0
        for laid in moves:
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(meld) for meld in laid]})
            self.table_melds += [TableMeld(seat, meld) for meld in laid]
            value += sum(map(opening_value, laid))
            cards = [card for meld in laid for card in meld.cards]
            # S40-HANDCLOSE: the last melds leaving one card close in hand at any value.
            in_hand = self.game == "scala40" and len(self.hands[seat]) - len(cards) == 1
            self._to_table(seat, cards, opens=value >= self.minimum or in_hand)

    def _to_table(
        self, seat: int, cards: Sequence[Card], *, reused: bool = False, opens: bool = True
    ) -> None:
        """Move cards from the hand to the table; a hand emptied so goes out.

        A joker taken from a table meld and melded again (``reused``) was laid by the seat
        that first melded it: counting it again would show one joker twice.
        """
        self.hands[seat] = _without(self.hands[seat], cards)
        self.melded_now = True
        if not reused:
            self.melded[seat] += cards
        if opens:
            self._opens(seat)
        if not self.hands[seat]:
            self.ending, self.ender = ("knock" if self.game == "knock_rummy" else "out"), seat

    def _opens(self, seat: int) -> None:
        if not self.opened[seat]:
            self.opened[seat], self.opened_turn[seat] = True, self.turn_number

    def _addable(self, seat: int) -> list[int]:
        """Return the table melds the seat may add to (R40-ADD, RAM-ADD)."""
        any_meld = self.game in ("ramino", "scala40") or self.options.add_to_any_meld
        return [
            index for index, item in enumerate(self.table_melds) if any_meld or item.owner == seat
        ]

    def _adds(self, seat: int) -> None:
        """Add single cards to table melds while one fits and the turn can still end."""
        added = True
        while added and self.ending is None:
            added = False
            hand = self.hands[seat]
            for card in self.rng.sample(hand, len(hand)):
                if not self._can_finish(_without(hand, [card]), True):
                    continue
                for index in self._addable(seat):
                    grown = extension(self.table_melds[index].meld, [card], self.rules)
                    if grown is None or self.rng.random() < 0.2:
                        continue
                    self._add(seat, index, card, grown)
                    added = True
                    break
                if added:
                    break

    def _add(self, seat: int, index: int, card: Card, grown: Meld, *, reused: bool = False) -> None:
        payload = {"seat": seat, "meld": index + 1, "cards": str(card)}
        self.move(CARDS_ADDED, payload)
        owner = self.table_melds[index].owner
        self.table_melds[index] = TableMeld(owner, grown)
        self._to_table(seat, [card], reused=reused)

    def _swap(self, seat: int) -> None:
        """Put a held card in place of the table joker standing for it, then use the joker.

        R40-JOKER-STEAL and RAM-OPT-FIXEDJOKER want the joker melded in the same turn: the
        simulator adds it to a table meld at once, so it swaps only when one takes it.
        RAM-JOKER-SWAP also lets the joker go as the last discard.
        """
        hand = self.hands[seat]
        for index, item in enumerate(self.table_melds):
            meld = item.meld
            fixed = self.game == "ramino" and self.options.fixed_jokers
            if fixed and meld.kind == "set" and len(meld.cards) < 4:
                continue
            for position, (card, stands) in enumerate(meld.declared()):
                if not card.is_joker or stands not in hand:
                    continue
                declarations = [
                    s if p != position else None for p, (_, s) in enumerate(meld.declared())
                ]
                cards = (*meld.cards[:position], stands, *meld.cards[position + 1 :])
                try:
                    swapped = check_meld(cards, self.rules, declarations)
                except RuleViolation:
                    continue
                if self._swap_and_use(seat, index, stands, swapped):
                    return

    def _swap_and_use(self, seat: int, index: int, card: Card, swapped: Meld) -> bool:
        left = _without(self.hands[seat], [card])
        payload = {"seat": seat, "meld": index + 1, "card": str(card)}
        if not left and self.game == "ramino" and not self.options.fixed_jokers:
            self.move(JOKER_SWAPPED, payload)
            self._swapped(seat, index, card, swapped)
            self._discard_card(seat, JOKER)
            return True
        if not self._can_finish(left, True):
            return False
        melds = [item.meld for item in self.table_melds]
        melds[index] = swapped
        for target in self._addable(seat):
            grown = extension(melds[target], [JOKER], self.rules)
            if grown is None:
                continue
            self.move(JOKER_SWAPPED, payload)
            self._swapped(seat, index, card, swapped)
            self._add(seat, target, JOKER, grown, reused=True)
            return True
        return False

    def _swapped(self, seat: int, index: int, card: Card, swapped: Meld) -> None:
        self.table_melds[index] = TableMeld(self.table_melds[index].owner, swapped)
        self.hands[seat] = [*_without(self.hands[seat], [card]), JOKER]
        self.melded[seat].append(card)

    def _rummy_discard(self, seat: int) -> None:
        # A short opening's cards come back before the discard, which may be one of them.
        back = [
            c
            for item in self.table_melds[len(self.table_melds) - self.short_opening :]
            for c in item.meld.cards
        ]
        hand = [*self.hands[seat], *back] if self.short_opening else self.hands[seat]
        allowed = self._discards(hand, self.opened[seat])
        if not allowed:
            raise _Stop  # e.g. only jokers left at a fixed-jokers table: docs/rules.md is silent
        deadwood = best_arrangement(
            hand, rules=self.rules, value=self.table.value, deck=self.deck
        ).deadwood
        loose = [card for card in allowed if card in deadwood]
        if loose and self.rng.random() < 0.8:
            card = max(loose, key=self.table.value)
        else:
            card = self.rng.choice(allowed)
        self._discard_card(seat, card)

    def _maybe_claim(self, discarder: int) -> None:
        """RAM-OPT-KNOCKCLAIM: a seat other than the discarder and the next claims the card."""
        if not (self.game == "ramino" and self.options.knock_claim):
            return
        # Two stock cards at least, so the next seat can still draw after the claim.
        if len(self.stock) < 2 or self.rng.random() > 0.15:
            return
        seat = self.rng.choice([s for s in range(self.n) if s not in (discarder, self.turn)])
        card = self.stock[-1]
        payload: dict[str, Any] = {"seat": seat}
        if self.rng.random() < 0.5:
            payload["card"] = str(card)
        self.move(DISCARD_CLAIMED, payload)
        self.hands[seat] += [self.discard.pop(), self.stock.pop()]
