"""The chances a turn missed (scoring/review/turns.py weighs the turns themselves).

A knock the engine would have taken (every card melded or not, with a discard or not);
going out; the opening minimum reached; cards kept that the table's melds would take; a
table joker taken back and used; a discard the next player picked up and melded ("fed").
Where a chance ends the hand, what it would have scored comes from the game's own scoring,
with the other hands as the log shows them in hindsight. ``MissedChances`` holds these
checks for ``TurnReader``, which gives them its rules, judge, hindsight and plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

from scoring.cards import JOKER, Card, parse_cards
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    TABLE_REARRANGED,
)
from scoring.hands import KNOCK as KNOCK_ENDING
from scoring.hands import OUT as OUT_ENDING
from scoring.melds import Meld, check_meld
from scoring.play import PLAY, Play, SeatHand, TableMeld
from scoring.play.rules import KNOCK_AT_TURN_END
from scoring.review.hindsight import Move
from scoring.review.judge import Discards, without
from scoring.review.model import (
    ALL_MELDED,
    ALL_MELDED_NO_DISCARD,
    FED,
    KNOCK,
    LAYOFF,
    OPEN,
    OUT,
    SWAP,
    Chance,
    DiscardReview,
    TurnReview,
)

_MELDING_MOVES = (MELDS_LAID, CARDS_ADDED, TABLE_REARRANGED, JOKER_SWAPPED)


def named_card(move: Move) -> Card | None:
    """Return the card a discard, or a showing knock, names (None: a knock without one)."""
    text = move.event.payload.get("card")
    return parse_cards(str(text))[0] if text else None


def _opened(hands: Sequence[SeatHand], seat: int) -> tuple[SeatHand, ...]:
    """Return the hands with the seat's opened."""
    return tuple(
        replace(hand, opened=True) if at == seat else hand for at, hand in enumerate(hands)
    )


class MissedChances:
    """What a turn could have done and did not: the checks ``TurnReader`` inherits."""

    def _knocks(
        self, number: int, seat: int, move: Move, hand: tuple[Card, ...], weighed: Discards
    ) -> list[Chance]:
        """Return the knock the seat could have made after its draw and did not, every card
        melded without a discard, or with one, or not: the best of them, as the engine allows
        it (GIN-KNOCK, GIN-GIN, GIN-BIGGIN)."""
        judge = self.judge
        before = self.plays[move.index - 1]
        rules = before.rules
        knocked = move.event.event_type == KNOCKED
        card = named_card(move)
        kept_left = weighed.left.get(card, 0) if card is not None else 0
        all_melded = knocked and (card is None or kept_left == 0)
        if rules.goes_out_without_discard and judge.count(hand) == 0:
            if knocked and card is None:
                return []
            kind, rule, discard = ALL_MELDED_NO_DISCARD, self.cite.out_without_discard, None
        elif weighed.best_left == 0 and not all_melded:
            kind, rule, discard = ALL_MELDED, self.cite.all_melded, weighed.best[0]
        elif weighed.best_left <= rules.knock_limit and not knocked:
            kind, rule, discard = KNOCK, self.cite.knock, weighed.best[0]
        else:
            return []
        kept = without(hand, discard) if discard is not None else hand
        payload: dict[str, Any] = {"seat": seat, "hand": " ".join(map(str, kept))}
        if discard is not None:
            payload["card"] = str(discard)
        if self._legal(before, KNOCKED, payload) is None:
            return []
        mover = replace(before.hands[seat], count=0, known=(), shown=kept)
        result = self._scored(move.index - 1, seat, mover, KNOCK_ENDING)
        scores = tuple(result.points) if result is not None else None
        # The melds shown are those the score lays out (a knocker's arrangement is chosen
        # against the defender's layoffs, GIN-LAYOFF), not any least arrangement.
        melds = getattr(result, "knocker_melds", None) or judge.arrangement_melds(kept)
        return [
            Chance(
                kind,
                seat,
                number,
                move.index,
                rule,
                self._stake(scores, seat),
                cards=(discard,) if discard is not None else (),
                melds=tuple(melds),
                scores=scores,
            )
        ]

    # Melding games: after the draw, and with the cards kept -----------------------------

    def _after_draw(
        self, number: int, seat: int, drawn: Move, moves: Sequence[Move]
    ) -> list[Chance]:
        """Return going out or the opening missed after the draw (R40-HAND, RAM-OUT, R40-OPEN,
        RAM-OPEN)."""
        index = drawn.index
        play = self.plays[index]
        cards = self.sight.cards(index, seat)
        if cards is None or play.phase != PLAY:
            return []
        hand = play.hands[seat]
        # The melds it may add to once opened: opening in this turn opens them too.
        onto, _ = self._addable(replace(play, hands=_opened(play.hands, seat)), seat)
        out = self.judge.going_out(cards, opened=hand.opened, onto=onto)
        if out is not None and not self._ended_here(moves, seat):
            return [self._out_chance(number, seat, index, cards, out.melds, out.discard)]
        rules = play.rules
        finished = self.plays[moves[-1].index].hands[seat]
        if hand.opened or finished.opened or not rules.opening_rule or not rules.opening_minimum:
            return []
        opening = self.judge.opening(cards, keep=0 if rules.meld_out else 1)
        if not opening.melds or opening.value < rules.opening_minimum:
            return []
        return [
            Chance(
                OPEN,
                seat,
                number,
                index,
                rules.opening_rule,
                self.judge.held(opening.cards),
                cards=opening.cards,
                melds=opening.melds,
            )
        ]

    def _out_chance(
        self,
        number: int,
        seat: int,
        index: int,
        cards: tuple[Card, ...],
        melds: tuple[Meld, ...],
        discard: Card | None,
    ) -> Chance:
        play = self.plays[index]
        hand = play.hands[seat]
        laid = without(cards, discard) if discard is not None else cards
        mover = replace(
            hand,
            count=0,
            known=(),
            melded=(*hand.melded, *laid),
            opened=True,
            opened_turn=hand.opened_turn if hand.opened else play.turn_number,
        )
        ending = KNOCK_ENDING if play.rules.knock == KNOCK_AT_TURN_END else OUT_ENDING
        scores = self._scores(index, seat, mover, ending)
        return Chance(
            OUT,
            seat,
            number,
            index,
            play.rules.out_rule,
            self._stake(scores, seat),
            cards=(discard,) if discard is not None else (),
            melds=melds,
            scores=scores,
        )

    def _kept(self, number: int, seat: int, move: Move, discard: DiscardReview) -> list[Chance]:
        """Return the layoffs and joker swaps the cards kept passed up (R40-ADD, RAM-ADD,
        R40-JOKER-STEAL, RAM-JOKER-SWAP)."""
        after = self.plays[move.index]
        kept = self.sight.cards(move.index, seat)
        onto, _ = self._addable(after, seat)
        if kept is None or not onto:
            return []
        chances = []
        plain = self.judge.count(kept)
        if plain > discard.left:
            weight = self.judge.weigh(kept, onto)
            chances.append(
                Chance(
                    LAYOFF,
                    seat,
                    number,
                    move.index,
                    self.cite.layoff,
                    plain - discard.left,
                    cards=tuple(card for card, _ in weight.layoffs),
                )
            )
        swap = self._swap(number, seat, move, discard)
        if swap is not None:
            chances.append(swap)
        return chances

    def _swap(self, number: int, seat: int, move: Move, discard: DiscardReview) -> Chance | None:
        """Return the table joker the seat could have taken back for a card it kept loose and
        then used (R40-JOKER-STEAL, RAM-JOKER-SWAP), if the cards kept would count less.

        Only a card left loose in the cards kept is worth swapping (one in a meld gives a
        joker the same meld holds as well). The swap is asked of the engine last, for the
        best one: its own checks (opened, a set of four under fixed jokers) decide.
        """
        rules = self.rules
        before, after = self.plays[move.index - 1], self.plays[move.index]
        held = self.sight.cards(move.index - 1, seat)
        kept = self.sight.cards(move.index, seat)
        if rules.swap_rule is None or held is None or kept is None or discard.card is None:
            return None
        if not before.hands[seat].opened:
            return None
        onto, _ = self._addable(after, seat)
        loose = set(self.judge.weigh(kept, onto).deadwood)
        found: list[tuple[int, int, Card]] = []
        for meld_number, item in enumerate(before.table, start=1):
            for position, (card, stands) in enumerate(item.meld.declared()):
                if not card.is_joker or stands not in loose or stands == discard.card:
                    continue
                table = self._swapped_table(before, meld_number - 1, position, stands)
                if table is None:
                    continue
                swapped = replace(before, table=table)
                weight = self.judge.weigh(
                    (*without(kept, stands), JOKER), self._addable(swapped, seat)[0]
                )
                if JOKER not in weight.deadwood and weight.count < discard.left:
                    found.append((discard.left - weight.count, meld_number, stands))
        for gain, meld_number, stands in sorted(found, key=lambda f: -f[0]):
            payload = {"seat": seat, "meld": meld_number, "card": str(stands)}
            if self._legal(before, JOKER_SWAPPED, payload) is not None:
                return Chance(
                    SWAP, seat, number, move.index, rules.swap_rule, gain, cards=(stands,)
                )
        return None

    def _swapped_table(
        self, play: Play, index: int, position: int, card: Card
    ) -> tuple[TableMeld, ...] | None:
        """Return the table with ``card`` in place of the joker at ``position`` of meld
        ``index``, or None where the meld would not stand (as the engine checks it)."""
        item = play.table[index]
        declared = item.meld.declared()
        cards = [card if p == position else c for p, (c, _) in enumerate(declared)]
        declarations = [None if p == position else s for p, (_, s) in enumerate(declared)]
        try:
            meld = check_meld(cards, play.rules.melds, declarations)
        except RuleViolation:
            return None
        return (*play.table[:index], TableMeld(item.owner, meld), *play.table[index + 1 :])

    # Fed discards -----------------------------------------------------------------------

    def fed(self, turns: Sequence[tuple[TurnReview, Sequence[Move]]]) -> list[Chance]:
        """Return the discards the next player picked up and melded, each on the turn of the
        player who discarded it."""
        found = []
        for (feeder, feeder_moves), (taker, taker_moves) in pairwise(turns):
            last, first = feeder_moves[-1], taker_moves[0]
            if (
                last.event.event_type != CARD_DISCARDED
                or first.event.event_type != CARD_DRAWN
                or first.event.payload.get("source") != "discard"
                or first.index != last.index + 1
            ):
                continue
            card = named_card(last)
            try:
                if card is None or not self._melded(taker.seat, card, taker_moves):
                    continue
            except RuleViolation:  # a hand past the solver's limits (LIMITS)
                continue
            points = None
            if taker.draw is not None:
                points = max(0, taker.draw.other_left - taker.draw.left)
            found.append(
                Chance(
                    FED,
                    feeder.seat,
                    feeder.number,
                    last.index,
                    self.cite.turn,
                    points,
                    cards=(card,),
                    by=taker.seat,
                )
            )
        return found

    def _melded(self, seat: int, card: Card, moves: Sequence[Move]) -> bool:
        """Tell whether the seat melded the card it took: laid it on the table later in the
        hand, or (Gin) held it in a meld after its turn or at the end."""
        if not self.rules.melds_at_knock:
            start = moves[0].index
            return any(
                move.seat == seat
                and move.index >= start
                and move.event.event_type in _MELDING_MOVES
                and card in Counter(move.gone)
                for move in self.sight.moves
            )
        for index in (moves[-1].index, len(self.plays) - 1):
            cards = self.sight.cards(index, seat)
            if cards is not None and card in cards:
                return card not in self.judge.weigh(cards).deadwood
        return False
