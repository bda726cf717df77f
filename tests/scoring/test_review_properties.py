"""Hand review properties over simulated legal tables of every game (play_simulator.py).

Each table's every hand is reviewed twice: from the log as the simulator wrote it (about
half its stock draws name their card), and from the same log with every stock card named
(taken from the simulator's real hands), where most turns are known and so weighed. The
properties: a review never raises and never changes the log; at every step each seat's
rebuilt hand holds the count the log says, names only cards it really held, and every
card is in one place; the best discard is never worse than the one played, and is the
least any discard the engine takes leaves, searched in full; "could knock" is flagged
exactly when the engine's own knock check (the move, and the scoring of the hand it ends)
would have taken a knock.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import check_copies, parse_cards
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    DISCARD_CLAIMED,
    HAND_STARTED,
    HANDS_SHOWN,
    KNOCKED,
    MOVE_TYPES,
    MOVE_UNDONE,
    TURN_PASSED,
    LogEvent,
)
from scoring.play import apply_move
from scoring.replay import apply, replay
from scoring.review import (
    ALL_MELDED,
    ALL_MELDED_NO_DISCARD,
    KNOCK,
    HandReview,
    review_hand,
    with_changes,
)
from scoring.review.hindsight import Hindsight
from scoring.solver import best_arrangement, best_layoff, min_arrangements
from tests.scoring.play_sim_base import Simulation
from tests.scoring.play_simulator import simulate
from tests.scoring.play_strategies import PROPERTY_SETTINGS, seeds, tables

KNOCKS = (KNOCK, ALL_MELDED, ALL_MELDED_NO_DISCARD)


def _named(sim: Simulation) -> tuple[LogEvent, ...]:
    """Return the log with every stock card named, read off the simulator's real hands."""
    events = list(sim.events)
    for index, event in enumerate(events):
        payload = event.payload
        stock_draw = event.event_type == CARD_DRAWN and payload.get("source") == "stock"
        if not (stock_draw or event.event_type == DISCARD_CLAIMED) or "card" in payload:
            continue
        after = index + 1
        while after < len(sim.points) and sim.points[after].phase is None:
            after += 2  # a take-back, then the same move again: the state after that one
        if after >= len(sim.points):
            continue
        before, then = sim.points[index], sim.points[after]
        seat = payload["seat"]
        new = Counter(then.hands[seat]) - Counter(before.hands[seat])
        if event.event_type == DISCARD_CLAIMED:
            new -= Counter(before.discard[-1:])
        cards = list(new.elements())
        if len(cards) == 1:
            events[index] = replace(event, payload={**payload, "card": str(cards[0])})
    return tuple(events)


def _hands(events) -> list[tuple[int, object, object, Hindsight | None]]:
    """Return, per hand recorded, its number, the game, the options and (played ones) its
    hindsight."""
    found = []
    state = None
    started = None
    standing: list[LogEvent] = []
    for event in events:
        before = state
        state = apply(state, event)
        if event.event_type == HAND_STARTED:
            started, standing = state.play, []
        elif event.event_type in (*MOVE_TYPES, MOVE_UNDONE):
            standing.append(event)
        if before is not None and len(state.hands) > len(before.hands):
            hand = state.hands[-1]
            sight = Hindsight.of(started, standing) if hand.started is not None else None
            found.append((hand.number, state.variant, state.options, sight))
    return found


def _reviews(events) -> list[tuple[HandReview, tuple, Hindsight | None]]:
    return [
        (review_hand(events, number), (game, options), sight)
        for number, game, options, sight in _hands(events)
    ]


def _logs(table, seed, named):
    sim = simulate(table, random.Random(seed))
    return sim, (_named(sim) if named else sim.events)


class TestReviewProperties:
    @PROPERTY_SETTINGS
    @given(tables(), seeds(), st.booleans())
    def test_a_review_never_raises_nor_changes_the_log_and_scores_as_the_hand(
        self, table, seed, named
    ):
        _, events = _logs(table, seed, named)
        kept = copy.deepcopy(list(events))
        state = replay(events)
        for review, _, _ in _reviews(events):
            hand = state.hands[review.number - 1]
            assert review.points == tuple(hand.original.points)
            answer = review.to_dict()
            assert answer["number"] == review.number
            # The steps as answered (each but the deal with only what changed) put back
            # together are the whole steps.
            whole = None
            for step, changes in zip(review.steps, answer["steps"], strict=True):
                whole = with_changes(whole, changes)
                assert whole == step.to_dict(), step.index
        assert list(events) == kept
        assert replay(events).to_dict() == state.to_dict()

    @PROPERTY_SETTINGS
    @given(tables(), seeds(), st.booleans())
    def test_every_step_holds_the_logs_count_and_every_card_is_in_one_place(
        self, table, seed, named
    ):
        sim, events = _logs(table, seed, named)
        seqs = {event.seq: index for index, event in enumerate(events)}
        for review, _, sight in _reviews(events):
            if sight is None:
                continue
            deck = sight.plays[0].rules.deck
            for step in review.steps:
                play = sight.plays[step.index]
                held = 0
                certain: list = []
                for seat, (view, hand) in enumerate(zip(step.hands, play.hands, strict=True)):
                    count = len(hand.shown) if hand.shown is not None else hand.count
                    assert view.count == count, (step.index, seat)
                    assert len(view.cards) + view.unknown == view.count
                    held += view.count
                    certain += view.cards
                table_cards = [card for item in play.table for card in item.meld.cards]
                # Every card once: the hands, the table, the pile, the stock and the kitties
                # still aside (Burraco's pozzetti) hold the deck.
                aside = play.kitties.count(False) * play.rules.kitty_size
                on_table = len(table_cards) + len(play.discard)
                assert held + on_table + play.stock + aside == deck.size
                check_copies([*certain, *table_cards, *play.discard], deck)
                # Each card named was really held then (the simulator's table after the move).
                following = seqs.get(step.seq, len(events)) + 1
                if step.index == 0 or following >= len(events):
                    continue
                if events[following].event_type not in MOVE_TYPES or step.move == HANDS_SHOWN:
                    continue
                real = sim.points[following]
                if real.phase is None or play.phase in ("show", "done"):
                    continue
                for view, cards in zip(step.hands, real.hands, strict=True):
                    assert not Counter(view.cards) - Counter(cards), (step.index, view.cards)

    @PROPERTY_SETTINGS
    @given(tables(), seeds(), st.booleans())
    def test_the_best_discard_is_never_worse_than_the_one_played(self, table, seed, named):
        _, events = _logs(table, seed, named)
        for review, _, sight in _reviews(events):
            for turn in review.turns:
                discard = turn.discard
                if discard is None:
                    continue
                assert discard.best_left <= discard.left
                assert discard.lost == discard.left - discard.best_left
                assert discard.card not in discard.best or discard.lost == 0
                assert discard.best_left == _least_left(sight, turn.seat, turn.last_step)

    @PROPERTY_SETTINGS
    @given(tables(("gin", "knock_rummy")), seeds(), st.booleans())
    def test_could_knock_is_flagged_exactly_when_the_engine_would_take_the_knock(
        self, table, seed, named
    ):
        _, events = _logs(table, seed, named)
        for review, (game, options), sight in _reviews(events):
            for turn in review.turns:
                if not turn.known:
                    continue
                kinds = {chance.kind for chance in turn.chances}
                moves = sight.moves[turn.first_step - 1 : turn.last_step]
                if any(move.event.event_type == KNOCKED for move in moves):
                    # It knocked: no knock missed (a gin or Big Gin passed up may be).
                    assert KNOCK not in kinds
                    continue
                if sight.plays[0].rules.melds_at_knock:
                    allowed = _gin_knock(sight, turn)
                else:
                    allowed = _turn_end_knock(sight, game, options, turn)
                if allowed is not None:
                    assert bool(kinds & set(KNOCKS)) == allowed, (turn.number, turn.seat)

    @PROPERTY_SETTINGS
    @given(tables(("gin",)), seeds(), st.booleans())
    def test_a_knock_missed_shows_a_least_arrangement_and_a_forced_draw_is_not_weighed(
        self, table, seed, named
    ):
        _, events = _logs(table, seed, named)
        for review, _, sight in _reviews(events):
            if sight is None:  # a hand entered whole
                continue
            rules = sight.plays[0].rules
            for turn in review.turns:
                before = sight.plays[turn.first_step - 1]
                if before.phase == "draw" and before.passes == 2:
                    # GIN-FIRST: both passed the upcard; the stock was the only source.
                    assert turn.draw is None, turn.number
                for chance in turn.chances:
                    if chance.kind != KNOCK:
                        continue
                    hand, _ = _kept_and_discard(sight, turn.seat, chance.step)
                    kept = list(hand)
                    kept.remove(chance.cards[0])
                    laid = Counter(card for meld in chance.melds for card in meld.cards)
                    assert not laid - Counter(kept)  # the melds are the cards kept
                    loose = Counter(kept) - laid
                    least = best_arrangement(kept, rules=rules.melds, value=rules.value).count
                    assert sum(rules.value(card) * n for card, n in loose.items()) == least
                    # Of the least arrangements, the one shown leaves the defender the most
                    # after laying off (GIN-LAYOFF), as the knock's score lays it out.
                    defender = sight.cards(chance.step - 1, 1 - turn.seat)
                    if defender is None or least == 0:
                        continue
                    left = [
                        best_layoff(defender, melds, rules=rules.melds, value=rules.value).count
                        for melds in [
                            a.melds
                            for a in min_arrangements(kept, rules=rules.melds, value=rules.value)
                        ]
                    ]
                    shown = best_layoff(
                        defender, chance.melds, rules=rules.melds, value=rules.value
                    ).count
                    assert shown == max(left), (turn.number, chance.melds)


def _kept_and_discard(sight: Hindsight, seat: int, step: int):
    """Return the cards held before the move at ``step`` and the card it discards."""
    move = sight.moves[step - 1]
    card = move.event.payload.get("card")
    discard = parse_cards(str(card))[0] if card else None
    kept = sight.cards(step, seat) or ()
    return (*kept, discard) if discard is not None else kept, discard


def _least_left(sight: Hindsight, seat: int, step: int) -> int:
    """Return, searched in full, the least count any discard the engine takes leaves."""
    before, after = sight.plays[step - 1], sight.plays[step]
    rules = after.rules
    hand, played = _kept_and_discard(sight, seat, step)
    onto = []
    if rules.add_rule and after.hands[seat].opened and not rules.melds_at_knock:
        onto = [item.meld for item in after.table if rules.add_to_any or item.owner == seat]
    counts = []
    for card in dict.fromkeys(hand):
        if card != played:
            try:
                apply_move(before, CARD_DISCARDED, {"seat": seat, "card": str(card)})
            except RuleViolation:
                continue
        kept = list(hand)
        kept.remove(card)
        if not kept:
            counts.append(0)
        elif onto:
            laid = best_layoff(kept, onto, rules=rules.melds, value=rules.value, deck=rules.deck)
            counts.append(laid.count)
        else:
            arranged = best_arrangement(kept, rules=rules.melds, value=rules.value, deck=rules.deck)
            counts.append(arranged.count)
    return min(counts)


def _gin_knock(sight: Hindsight, turn) -> bool | None:
    """Tell whether the engine takes a knock after the turn's draw (GIN-KNOCK, GIN-BIGGIN):
    with any discard, or none, and the cards kept shown; None for a turn without a discard."""
    move = sight.moves[turn.last_step - 1]
    if move.event.event_type != CARD_DISCARDED:
        return None
    before = sight.plays[turn.last_step - 1]
    hand, _ = _kept_and_discard(sight, turn.seat, turn.last_step)
    for card in [None, *dict.fromkeys(hand)]:
        kept = list(hand)
        if card is not None:
            kept.remove(card)
        payload = {"seat": turn.seat, "hand": " ".join(map(str, kept))}
        if card is not None:
            payload["card"] = str(card)
        try:
            apply_move(before, KNOCKED, payload)
        except RuleViolation:
            continue
        return True
    return False


def _turn_end_knock(sight: Hindsight, game, options, turn) -> bool | None:
    """Tell whether the engine takes a knock at the end of the turn (KR-KNOCK): the move,
    then the hand it ends scored, the knocker's cards shown by their value and every other
    hand by a point (the limit is the knocker's); None where the turn ended the hand."""
    moves = sight.moves[turn.first_step - 1 : turn.last_step]
    played = [move for move in moves if move.event.event_type != TURN_PASSED]
    index = played[-1].index if played else turn.first_step - 1
    play = sight.plays[index]
    if play.phase in ("show", "done"):
        return None
    cards = sight.cards(index, turn.seat)
    try:
        knocked = apply_move(play, KNOCKED, {"seat": turn.seat})
        value = sum(map(play.rules.value, cards))
        players = [
            None if not hand.count else {"points": value if seat == turn.seat else 1}
            for seat, hand in enumerate(knocked.hands)
        ]
        shown = apply_move(knocked, HANDS_SHOWN, {"mode": "points", "players": players})
        game.score_play(options, shown.end, play.seats)
    except RuleViolation:
        return False
    return True
