"""Each turn of a hand weighed by the game's measure, and the chances it missed.

A turn is what one seat does in a row: a draw, melds, a discard or a knock (Gin's first
pass is a turn of its own; a Ramino knock claim, out of turn, is no turn). A turn is
weighed only where its seat's cards are known in hindsight all through it
(scoring/review/hindsight.py); otherwise it says how many were not, and guesses nothing.

What is weighed, by the play rules (no game is named here):

- a discard (games with a discard pile): the count of the cards kept after it against the
  least any discard the engine would have taken leaves (Judge.discards);
- a draw (after Gin's first turn): the card taken against the one the other source held,
  each by the least count after the best discard, where both cards are known;
- a turn without a discard (Knock Rummy): the points left in hand against the least the
  cards could leave, melding and laying off at the best moment of the turn;
- the chances: a knock, gin or Big Gin the engine would have taken (Gin: after the draw;
  Knock Rummy: at the end of the turn), going out, the opening minimum reached, cards kept
  that the table's melds would take, a table joker taken back and used, a discard the
  next player picked up and melded. Where a chance ends the hand, what it would have
  scored is worked out by the game's own scoring, with the other hands as the log shows
  them in hindsight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    DISCARD_CLAIMED,
    KNOCKED,
    TURN_PASSED,
)
from scoring.game import GameRules
from scoring.hands import KNOCK as KNOCK_ENDING
from scoring.melds import Meld
from scoring.play import DONE, DRAW, FINAL, PLAY, SHOW, Play, SeatHand, apply_move
from scoring.play.rules import JOKER_DISCARD_NEVER, JOKER_DISCARD_OPENED
from scoring.play.state import with_end
from scoring.review.chances import MissedChances, named_card
from scoring.review.hindsight import Hindsight, Move
from scoring.review.judge import Judge, without
from scoring.review.model import (
    KNOCK,
    Chance,
    DiscardReview,
    DrawReview,
    MeldingReview,
    TurnReview,
)


@dataclass(frozen=True, slots=True)
class Rules:
    """Hold the rule IDs the review cites for one game (GameRules.review, with fallbacks)."""

    count: str
    turn: str
    knock: str
    all_melded: str
    out_without_discard: str
    layoff: str

    @classmethod
    def of(cls, game: GameRules, play: Play) -> Rules:
        """Read them from the game's review, play and referee rules."""
        review, referee, rules = game.review, game.referee, play.rules
        return cls(
            count=review.count_rule or referee.value_rule,
            turn=rules.turn_rule,
            knock=review.knock_rule or rules.knock_rule,
            all_melded=review.all_melded_rule,
            out_without_discard=(
                rules.out_without_discard.rule if rules.out_without_discard is not None else ""
            ),
            layoff=review.layoff_rule or rules.add_rule or referee.layoff_rule,
        )


def segments(moves: Sequence[Move]) -> list[list[Move]]:
    """Return the hand's moves in turns: each run of moves by one seat (a claim, out of
    turn, alone; the hands shown in none)."""
    runs: list[list[Move]] = []
    for move in moves:
        if move.seat is None:
            continue
        claim = move.event.event_type == DISCARD_CLAIMED
        last = runs[-1][-1] if runs else None
        if (
            last is not None
            and last.seat == move.seat
            and not claim
            and last.event.event_type != DISCARD_CLAIMED
        ):
            runs[-1].append(move)
        else:
            runs.append([move])
    return runs


class TurnReader(MissedChances):
    """Weigh the turns of one hand played move by move."""

    def __init__(
        self,
        game: GameRules,
        options: Any,
        sight: Hindsight,
        judge: Judge,
        points: tuple[int, ...],
    ) -> None:
        self.game = game
        self.options = options
        self.sight = sight
        self.plays = sight.plays
        self.judge = judge
        self.rules = sight.plays[0].rules
        self.cite = Rules.of(game, sight.plays[0])
        self.points = points
        self.lower_is_better = game.standings.lower_is_better
        self.seats = sight.plays[0].seats

    # Shared helpers ---------------------------------------------------------------------

    def _addable(self, play: Play, seat: int) -> tuple[tuple[Meld, ...], tuple[int, ...]]:
        """Return the table melds the seat may lay cards on, and their numbers (from 1)."""
        rules = play.rules
        if rules.melds_at_knock:
            return (), ()
        if not rules.rearrange and not (rules.add_rule and play.hands[seat].opened):
            return (), ()
        chosen = [
            (number, item.meld)
            for number, item in enumerate(play.table, start=1)
            if rules.rearrange or rules.add_to_any or item.owner == seat
        ]
        return tuple(meld for _, meld in chosen), tuple(number for number, _ in chosen)

    def _legal(self, play: Play, event_type: str, payload: dict[str, Any]) -> Play | None:
        """Return the state after a move the engine takes there, or None if it refuses it."""
        try:
            return apply_move(play, event_type, payload)
        except RuleViolation:
            return None

    def _scores(
        self, index: int, seat: int, mover: SeatHand, ending: str
    ) -> tuple[int, ...] | None:
        """Return what the hand would have scored had it ended at state ``index`` with the
        seat's hand ``mover`` (``_scored``'s points)."""
        result = self._scored(index, seat, mover, ending)
        return tuple(result.points) if result is not None else None

    def _scored(self, index: int, seat: int, mover: SeatHand, ending: str) -> Any:
        """Return the game's result had the hand ended at state ``index`` with the seat's
        hand ``mover``: the others' hands as the log shows them, None if one is not known.
        The end is built by the engine (scoring/play/) and scored by the game."""
        play = self.plays[index]
        hands = list(play.hands)
        for other, hand in enumerate(hands):
            if other == seat:
                hands[other] = mover
            elif hand.shown is None and hand.points is None and hand.count:
                cards = self.sight.cards(index, other)
                if cards is None:
                    return None
                hands[other] = replace(hand, shown=cards, known=())
        over = replace(play, hands=tuple(hands), ending=ending, ender=seat, phase=SHOW)
        try:
            end = with_end(over).end
            if end is None:
                return None
            return self.game.score_play(self.options, end, self.seats)
        except RuleViolation:
            return None

    def _stake(self, scores: tuple[int, ...] | None, seat: int) -> int | None:
        """Return the swing the chance was worth to the seat: how much its score less the
        opponents' (all of them, added up) would have gained with ``scores`` over the hand
        as scored, turned round where lower is better. Two players: the change in the gap
        between them; a point the seat gains and one an opponent loses count alike."""
        if scores is None:
            return None
        gain = sum(
            (new - old) if other == seat else (old - new)
            for other, (new, old) in enumerate(zip(scores, self.points, strict=True))
        )
        return -gain if self.lower_is_better else gain

    def _may_discard(self, card: Card, *, opened: bool, last: bool) -> bool:
        """Tell whether a hand weighed apart from the table's state may discard the card
        (a draw's weighing): jokers as the table's rules say."""
        rules = self.rules
        if not card.is_joker or rules.joker_discard_rule is None:
            return True
        if rules.joker_discard == JOKER_DISCARD_NEVER:
            return False
        return not (rules.joker_discard == JOKER_DISCARD_OPENED and (not opened or last))

    def _ended_here(self, moves: Sequence[Move], seat: int) -> bool:
        """Tell whether the turn ended the hand with the seat out or knocking."""
        last = self.plays[moves[-1].index]
        return last.phase in (SHOW, DONE) and last.ender == seat

    # A turn -----------------------------------------------------------------------------

    def turn(self, number: int, moves: Sequence[Move]) -> TurnReview:
        """Weigh one turn."""
        seat = moves[0].seat
        assert seat is not None
        first, end = moves[0].index, moves[-1].index
        # The turn decides after its draw (the draw itself is weighed apart, where the cards
        # before it are known); a turn that draws nothing decides from the state before it.
        since = first if moves[0].event.event_type == CARD_DRAWN else first - 1
        unknown = max(self.sight.view(index, seat).unknown for index in range(since, end + 1))
        if unknown:
            return TurnReview(number, seat, first, end, known=False, unknown=unknown)
        if not self.rules.solver_weighs:
            return TurnReview(
                number, seat, first, end, known=True, unknown=0, held=self._held_after(end, seat)
            )
        try:
            if self.rules.discard_pile:
                return self._pile_turn(number, seat, moves)
            return self._melding_turn(number, seat, moves)
        except RuleViolation:
            # The solver refuses a hand past any a game deals (LIMITS): the turn is known
            # but left unweighed rather than the review refused.
            return TurnReview(
                number, seat, first, end, known=True, unknown=0, held=self._held_after(end, seat)
            )

    def _held_after(self, end: int, seat: int) -> int:
        cards = self.sight.cards(end, seat) or ()
        return self.judge.held(cards)

    def _pile_turn(self, number: int, seat: int, moves: Sequence[Move]) -> TurnReview:
        first, end = moves[0].index, moves[-1].index
        plays = self.plays
        drawn = moves[0] if moves[0].event.event_type == CARD_DRAWN else None
        closing = moves[-1] if moves[-1].event.event_type in (CARD_DISCARDED, KNOCKED) else None
        chances: list[Chance] = []
        draw = None
        if drawn is not None and plays[first - 1].phase == DRAW:
            draw = self._draw(seat, drawn)
        discard = None
        left: int | None = 0 if self._ended_here(moves, seat) else None
        if closing is not None:
            discard, chances_at_discard = self._discard(number, seat, closing)
            chances += chances_at_discard
            if discard is not None:
                left = discard.left
        if drawn is not None and self.rules.knock is None:
            chances += self._after_draw(number, seat, drawn, moves)
        if closing is not None and discard is not None and not self._ended_here(moves, seat):
            chances += self._kept(number, seat, closing, discard)
        return TurnReview(
            number,
            seat,
            first,
            end,
            known=True,
            unknown=0,
            held=self._held_after(end, seat),
            left=left,
            draw=draw,
            discard=discard,
            chances=tuple(chances),
        )

    # Draws ------------------------------------------------------------------------------

    def _next_stock_card(self, index: int) -> Card | None:
        """Return the stock's top card after state ``index``: the card of the next move that
        takes one (a draw or a claim), if known in hindsight."""
        for move in self.sight.moves[index:]:
            event = move.event
            if event.event_type == DISCARD_CLAIMED or (
                event.event_type == CARD_DRAWN and event.payload.get("source") == "stock"
            ):
                return self.sight.drawn(move)
        return None

    def _best_after(
        self, held: Sequence[Card], card: Card, *, from_pile: bool, play: Play, seat: int
    ) -> int:
        """Return the least count the cards leave after taking ``card`` and the best discard."""
        hand = (*held, card)
        opened = play.hands[seat].opened

        def allowed(option: Card) -> bool:
            if from_pile and self.rules.no_rediscard_rule is not None and option == card:
                return False
            return self._may_discard(option, opened=opened, last=len(hand) == 1)

        onto, _ = self._addable(play, seat)
        return self.judge.discards(hand, onto, allowed=allowed).best_left

    def _may_draw(self, play: Play, seat: int, source: str) -> bool:
        """Tell whether the engine would let the seat draw from ``source`` there."""
        payload: dict[str, Any] = {"seat": seat, "source": source}
        if source == "discard" and play.discard:
            payload["card"] = str(play.discard[-1])
        return self._legal(play, CARD_DRAWN, payload) is not None

    def _draw(self, seat: int, move: Move) -> DrawReview | None:
        before = self.plays[move.index - 1]
        held = self.sight.cards(move.index - 1, seat)
        taken = self.sight.drawn(move)
        source = str(move.event.payload.get("source"))
        if held is None or taken is None:
            return None
        if source == "stock":
            other = before.discard[-1] if before.discard else None
            # A draw the pile could not have served (GIN-FIRST: both passed the upcard, the
            # stock is the only source) had no choice to weigh.
            if other is not None and not self._may_draw(before, seat, "discard"):
                return None
        else:
            other = self._next_stock_card(move.index - 1) if before.stock else None
        if other is None:
            return None
        from_pile = source != "stock"
        left = self._best_after(held, taken, from_pile=from_pile, play=before, seat=seat)
        other_left = self._best_after(held, other, from_pile=not from_pile, play=before, seat=seat)
        return DrawReview(
            source, taken, other, left, other_left, max(0, left - other_left), self.cite.turn
        )

    # Discards ---------------------------------------------------------------------------

    def _discard(
        self, number: int, seat: int, move: Move
    ) -> tuple[DiscardReview | None, list[Chance]]:
        """Weigh the turn's discard (or the knock's) and the knocks it passed up."""
        judge, plays, sight = self.judge, self.plays, self.sight
        card = named_card(move)
        before, after = plays[move.index - 1], plays[move.index]
        kept = sight.cards(move.index, seat)
        if kept is None:
            return None, []
        hand = (*kept, card) if card is not None else kept
        onto, _ = self._addable(after, seat)
        legal: dict[Card, bool] = {}

        def allowed(option: Card) -> bool:
            if option not in legal:
                payload = {"seat": seat, "card": str(option)}
                legal[option] = self._legal(before, CARD_DISCARDED, payload) is not None
            return legal[option]

        weighed = judge.discards(hand, onto, played=card, allowed=allowed)
        chances = []
        if self.rules.knock is not None and self.rules.melds_at_knock:
            chances = self._knocks(number, seat, move, hand, weighed)
        if card is None:
            return None, chances
        left = weighed.left[card]
        best = weighed.best
        kept_best = without(hand, best[0])
        review = DiscardReview(
            card=card,
            left=left,
            best=best,
            best_left=weighed.best_left,
            lost=left - weighed.best_left,
            rule=self.cite.count,
            unmelded=len(judge.weigh(kept, onto).deadwood),
            best_unmelded=len(judge.weigh(kept_best, onto).deadwood),
        )
        rules = after.rules
        if rules.opening_rule and rules.opening_minimum and not after.hands[seat].opened:
            review = replace(
                review,
                opening=judge.opening(kept, keep=0).value,
                best_opening=judge.opening(kept_best, keep=0).value,
            )
        return review, chances

    # Turns without a discard (Knock Rummy) ----------------------------------------------

    def _melding_turn(self, number: int, seat: int, moves: Sequence[Move]) -> TurnReview:
        plays, sight, judge = self.plays, self.sight, self.judge
        first, end = moves[0].index, moves[-1].index
        moments = [
            move.index
            for move in moves
            if move.event.event_type == CARD_DRAWN
            and plays[move.index].phase == PLAY
            and plays[move.index].draws < plays[move.index].rules.max_draws
            and not plays[move.index].melded_now
        ]
        if plays[first - 1].phase == FINAL and plays[first - 1].turn == seat:
            moments.insert(0, first - 1)
        chances: list[Chance] = []
        over = self._ended_here(moves, seat)
        held = self._held_after(end, seat)
        best: tuple[int, int] | None = None
        for index in moments:
            cards = sight.cards(index, seat) or ()
            onto = tuple(item.meld for item in plays[index].table)
            count = judge.weigh(cards, onto).count
            if best is None or count < best[0]:
                best = (count, index)
            out = judge.going_out(cards, opened=True, onto=onto)
            if out is not None and not over and not chances:
                chances.append(self._out_chance(number, seat, index, cards, out.melds, None))
        melding = None
        if best is not None:
            least = min(best[0], held)
            melding = MeldingReview(held, least, held - least, best[1], self.cite.count)
        if not over and not any(m.event.event_type == KNOCKED for m in moves):
            knock = self._turn_end_knock(number, seat, moves)
            if knock is not None:
                chances.append(knock)
        return TurnReview(
            number,
            seat,
            first,
            end,
            known=True,
            unknown=0,
            held=held,
            left=held,
            melding=melding,
            chances=tuple(chances),
        )

    def _turn_end_knock(self, number: int, seat: int, moves: Sequence[Move]) -> Chance | None:
        """Return the knock the seat could have made at the end of its turn (KR-KNOCK)."""
        played = [move for move in moves if move.event.event_type != TURN_PASSED]
        index = played[-1].index if played else moves[0].index - 1
        play = self.plays[index]
        cards = self.sight.cards(index, seat)
        if cards is None or self.judge.held(cards) > play.rules.knock_limit:
            return None
        if self._legal(play, KNOCKED, {"seat": seat}) is None:
            return None
        mover = replace(play.hands[seat], shown=cards, known=())
        scores = self._scores(index, seat, mover, KNOCK_ENDING)
        return Chance(
            KNOCK, seat, number, index, self.cite.knock, self._stake(scores, seat), scores=scores
        )
