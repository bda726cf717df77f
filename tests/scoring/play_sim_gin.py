"""How the table simulator (play_simulator.py) plays a Gin turn (docs/rules.md, Gin Rummy)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.cards import Card
from scoring.events import KNOCKED, TURN_PASSED
from scoring.solver import best_arrangement
from scoring.variants import gin
from scoring.variants.gin.cards import gin_value
from tests.scoring.play_sim_base import DRAW, GIN_KNOCK_LIMIT, _text, _without


class GinMoves:
    """Gin's moves, mixed into HandSimulator."""

    # Gin (docs/rules.md, Gin Rummy) ---------------------------------------------------------------

    def _gin_first_turn(self) -> None:
        """GIN-FIRST: the non-dealer takes the upcard or passes, then the dealer."""
        for _ in range(2):
            if self.rng.random() < 0.4:
                self._draw_discard(self.turn)
                self._gin_after_draw(self.turn)
                return
            self.move(TURN_PASSED, {"seat": self.turn})
            self.passes += 1
            self.turn = self.dealer if self.passes == 1 else (self.dealer + 1) % 2
        self.phase = DRAW
        self._draw_stock(self.turn)
        self._gin_after_draw(self.turn)

    def _gin_turn(self) -> None:
        seat = self.turn
        if self.discard and self.rng.random() < 0.3:
            self._draw_discard(seat)
        else:
            self._draw_stock(seat)
        self._gin_after_draw(seat)

    def _gin_count(self, cards: Sequence[Card]) -> int:
        return best_arrangement(cards, rules=self.rules, value=gin_value).count

    def _gin_after_draw(self, seat: int) -> None:
        """Knock or go gin when the count allows (GIN-KNOCK, GIN-BIGGIN), else discard."""
        hand = self.hands[seat]
        if self.options.preset == gin.BIG_GIN_PRESET and self._gin_count(hand) == 0:
            self._gin_knock(seat, None)
            return
        allowed = [
            card
            for card in hand
            if not (self.options.no_rediscard and card == self.taken)  # GIN-NOREDISCARD
        ]
        counts = {card: self._gin_count(_without(hand, [card])) for card in allowed}
        best = min(counts.values())
        if best <= GIN_KNOCK_LIMIT and self.rng.random() < 0.7:
            self._gin_knock(seat, self.rng.choice([c for c in allowed if counts[c] == best]))
            return
        if self.rng.random() < 0.8:
            card = self.rng.choice([c for c in allowed if counts[c] == best])
        else:
            card = self.rng.choice(allowed)
        self._discard_card(seat, card)

    def _gin_knock(self, seat: int, card: Card | None) -> None:
        hand = self.hands[seat]
        kept = _without(hand, [card]) if card else list(hand)
        payload: dict[str, Any] = {"seat": seat, "hand": _text(kept)}
        if card is not None:
            payload["card"] = str(card)
        self.move(KNOCKED, payload)
        if card is not None:
            self.discard.append(card)
        self.knocker_kept = kept
        self.hands[seat] = []
        self.ending, self.ender = "knock", seat
