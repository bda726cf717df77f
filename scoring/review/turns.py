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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from scoring.cards import JOKER, Card, parse_cards
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    TABLE_REARRANGED,
    TURN_PASSED,
)
from scoring.game import GameRules
from scoring.hands import KNOCK as KNOCK_ENDING
from scoring.hands import OUT as OUT_ENDING
from scoring.melds import Meld, check_meld
from scoring.play import DONE, DRAW, FINAL, PLAY, SHOW, Play, SeatHand, TableMeld, apply_move
from scoring.play.rules import JOKER_DISCARD_NEVER, JOKER_DISCARD_OPENED, KNOCK_AT_TURN_END
from scoring.play.state import _ended
from scoring.review.hindsight import Hindsight, Move
from scoring.review.judge import Discards, Judge, without
from scoring.review.model import (
    BIG_GIN,
    FED,
    GIN,
    KNOCK,
    LAYOFF,
    OPEN,
    OUT,
    SWAP,
    Chance,
    DiscardReview,
    DrawReview,
    MeldingReview,
    TurnReview,
)

_MELDING_MOVES = (MELDS_LAID, CARDS_ADDED, TABLE_REARRANGED, JOKER_SWAPPED)


@dataclass(frozen=True, slots=True)
class Rules:
    """Hold the rule IDs the review cites for one game (GameRules.review, with fallbacks)."""

    count: str
    turn: str
    knock: str
    gin: str
    big_gin: str
    layoff: str

    @classmethod
    def of(cls, game: GameRules, play: Play) -> Rules:
        """Read them from the game's review, play and referee rules."""
        review, referee, rules = game.review, game.referee, play.rules
        return cls(
            count=review.count_rule or referee.value_rule,
            turn=rules.turn_rule,
            knock=review.knock_rule,
            gin=review.gin_rule,
            big_gin=review.big_gin_rule,
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


def _card(move: Move) -> Card | None:
    """Return the card a discard, or a Gin knock, names (None: a knock without one)."""
    text = move.event.payload.get("card")
    return parse_cards(str(text))[0] if text else None


class TurnReader:
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
        seat's hand ``mover``: the others' hands as the log shows them, None if one is not
        known. The end is built by the engine (scoring/play/) and scored by the game."""
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
            end = _ended(over).end
            if end is None:
                return None
            return tuple(self.game.score_play(self.options, end, self.seats).points)
        except RuleViolation:
            return None

    def _stake(self, scores: tuple[int, ...] | None, seat: int) -> int | None:
        """Return how much better the seat would have fared with ``scores`` than it did."""
        if scores is None:
            return None
        gain = scores[seat] - self.points[seat]
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
            if from_pile and self.rules.no_rediscard and option == card:
                return False
            return self._may_discard(option, opened=opened, last=len(hand) == 1)

        onto, _ = self._addable(play, seat)
        return self.judge.discards(hand, onto, allowed=allowed).best_left

    def _draw(self, seat: int, move: Move) -> DrawReview | None:
        before = self.plays[move.index - 1]
        held = self.sight.cards(move.index - 1, seat)
        taken = self.sight.drawn(move)
        source = str(move.event.payload.get("source"))
        if held is None or taken is None:
            return None
        if source == "stock":
            other = before.discard[-1] if before.discard else None
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
        card = _card(move)
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

    def _knocks(
        self, number: int, seat: int, move: Move, hand: tuple[Card, ...], weighed: Discards
    ) -> list[Chance]:
        """Return the knock, gin or Big Gin the seat could have made after its draw and did
        not (GIN-KNOCK, GIN-GIN, GIN-BIGGIN): the best of them, as the engine allows it."""
        judge = self.judge
        before = self.plays[move.index - 1]
        rules = before.rules
        knocked = move.event.event_type == KNOCKED
        card = _card(move)
        kept_left = weighed.left.get(card, 0) if card is not None else 0
        went_gin = knocked and (card is None or kept_left == 0)
        if rules.big_gin and judge.count(hand) == 0:
            if knocked and card is None:
                return []
            kind, rule, discard = BIG_GIN, self.cite.big_gin, None
        elif weighed.best_left == 0 and not went_gin:
            kind, rule, discard = GIN, self.cite.gin, weighed.best[0]
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
        scores = self._scores(move.index - 1, seat, mover, KNOCK_ENDING)
        return [
            Chance(
                kind,
                seat,
                number,
                move.index,
                rule,
                self._stake(scores, seat),
                cards=(discard,) if discard is not None else (),
                melds=judge.arrangement_melds(kept),
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
        onto, _ = self._addable(play, seat)
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
            card = _card(last)
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
