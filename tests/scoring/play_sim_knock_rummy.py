"""How the table simulator (play_simulator.py) plays a Knock Rummy turn (docs/rules.md)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.cards import JOKER, Card
from scoring.errors import RuleViolation
from scoring.events import KNOCKED, MELDS_LAID, TABLE_REARRANGED, TURN_PASSED
from scoring.melds import Meld, check_meld
from scoring.solver import best_arrangement
from tests.scoring.play_sim_base import (
    FINAL,
    KR_DRAWS,
    KR_KNOCK_LIMIT,
    TableMeld,
    _jokers,
    _without,
    extension,
)


class KnockRummyMoves:
    """Knock Rummy's moves, mixed into HandSimulator."""

    # Knock Rummy (docs/rules.md) ------------------------------------------------------------------

    def _kr_turn(self) -> None:
        """KR-TURN: draw up to three cards, melding after the first or second; KR-STOCK."""
        seat = self.turn
        melded = False
        while self.draws < KR_DRAWS and self.stock and not melded:
            self._draw_stock(seat)
            if self.draws < KR_DRAWS:
                melded = self._kr_meld(seat)
        if self.ending is None:
            self._kr_end_turn(seat, last=not self.stock)

    def _kr_end_turn(self, seat: int, *, last: bool) -> None:
        """Knock (KR-KNOCK) or pass; the turn that took the last card starts KR-STOCK."""
        if self._kr_knocks(seat):
            return
        if last or self.rng.random() < 0.6:
            self.move(TURN_PASSED, {"seat": seat})
        # Otherwise the next seat's draw ends the turn.
        if not last:
            self._next_turn()
            return
        for _ in range(self.n):
            self.turn = (self.turn + 1) % self.n
            self.turn_number += 1
            self.phase, self.draws, self.melded_now = FINAL, 0, False
            self._kr_meld(self.turn)
            if self.ending is not None or self._kr_knocks(self.turn):
                return
            self.move(TURN_PASSED, {"seat": self.turn})
        self.ending = "stock"

    def _kr_knocks(self, seat: int) -> bool:
        hand = self.hands[seat]
        if sum(map(self.table.value, hand)) > KR_KNOCK_LIMIT or self.rng.random() < 0.3:
            return False
        self.move(KNOCKED, {"seat": seat})
        self.ending, self.ender = "knock", seat
        return True

    def _kr_meld(self, seat: int) -> bool:
        """Meld on the shared table: new melds, cards added to table melds, a long run split.

        KR-MELDING asks every table meld to be legal after the turn and the first meld to
        hold a set or run; KR-MANIP asks for a card from the hand. A move that only lays new
        melds goes in as melds_laid or as the whole table after it, the others as the table.
        """
        if self.rng.random() < 0.15:
            return False
        hand = self.hands[seat]
        before = [item.meld for item in self.table_melds]
        table = list(before)
        added = []
        released = self._kr_release_joker(table, hand) if self.rng.random() < 0.7 else None
        if released is not None:
            table, card = released
            added.append(card)
        arrangement = best_arrangement(
            _without(hand, added), rules=self.rules, value=self.table.value, deck=self.deck
        )
        new = list(arrangement.melds)
        loose = list(arrangement.deadwood)
        for card in self.rng.sample(loose, len(loose)):
            for index in self.rng.sample(range(len(table)), len(table)):
                grown = extension(table[index], [card], self.rules)
                if grown is not None:
                    table[index] = grown
                    added.append(card)
                    break
        if added or new:
            table = self._split_long_run(table)
        if not new and not added:
            return False
        after = table + new
        if added or table != before or self.rng.random() < 0.3:
            self.rng.shuffle(after)
            self.move(TABLE_REARRANGED, {"seat": seat, "melds": [str(m) for m in after]})
        else:
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(m) for m in new]})
        self.table_melds = [TableMeld(seat, meld) for meld in after]
        self._to_table(seat, [*(card for meld in new for card in meld.cards), *added])
        return True

    def _kr_release_joker(
        self, table: list[Meld], hand: Sequence[Card]
    ) -> tuple[list[Meld], Card] | None:
        """KR-JOKER: put a held card in place of the table joker standing for it, and use
        the joker again at once with a new card, at an end of a meld that takes it."""
        for index, meld in enumerate(table):
            declared = meld.declared()
            for position, (card, stands) in enumerate(declared):
                if not card.is_joker or stands not in hand:
                    continue
                cards = [stands if p == position else c for p, (c, _) in enumerate(declared)]
                kept = [None if p == position else s for p, (_, s) in enumerate(declared)]
                try:
                    replaced = check_meld(cards, self.rules, kept)
                except RuleViolation:
                    continue
                for target in range(len(table)):
                    base = replaced if target == index else table[target]
                    grown = extension(base, [JOKER], self.rules)
                    # The joker is used again with a new card, not the one it stood for.
                    if grown is None or stands in _jokers(grown) - _jokers(base):
                        continue
                    after = list(table)
                    after[index] = replaced
                    after[target] = grown
                    return after, stands
        return None

    def _split_long_run(self, table: list[Meld]) -> list[Meld]:
        """Sometimes split a run of six cards or more into two runs (KR-MELDING)."""
        runs = [i for i, meld in enumerate(table) if meld.kind == "run" and len(meld.cards) >= 6]
        if not runs or self.rng.random() < 0.5:
            return table
        index = self.rng.choice(runs)
        declared = table[index].declared()
        cut = self.rng.randrange(3, len(declared) - 2)
        parts = []
        for piece in (declared[:cut], declared[cut:]):
            cards = [card for card, _ in piece]
            try:
                parts.append(check_meld(cards, self.rules, [stands for _, stands in piece]))
            except RuleViolation:
                return table
        return [*table[:index], *parts, *table[index + 1 :]]
