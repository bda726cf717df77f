"""Replay properties of hands played move by move (scoring/play/ through scoring/replay.py).

A simulated table (play_simulator.py) deals real cards and plays legal moves for Gin, Rummy40,
Ramino and Knock Rummy, writing the log a phone would send. Any such log must replay; the
totals must be the sum of the hands' scores, each hand scoring what the same hand entered by
hand scores; every card must be somewhere while a hand is played; a prefix must replay to
the state the events reach one by one; taking back a move must give back the state before
it. Moves that break a known rule, injected anywhere in a legal log, must be refused with
that rule's ID, leaving the state as it was.

The simulator's choices come from a seeded ``random.Random``: hypothesis draws the table,
its options and the seed, and shrinks those. With ``st.randoms(use_true_random=False)`` the
longest tables (a Ramino hand makes thousands of choices) overrun hypothesis's buffer and
are dropped as invalid, which would keep hands that run the stock out from being tested.
The tests at the end replay short hand-written logs of moves docs/rules.md allows that the
engine refused when the simulator first played them: the bugs it found, fixed since.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from scoring.events import HAND_STARTED, MOVE_TYPES, MOVE_UNDONE, LogEvent
from scoring.replay import apply, replay
from tests.scoring.play_sim_base import Point
from tests.scoring.play_simulator import simulate
from tests.scoring.play_strategies import (
    PROPERTY_SETTINGS,
    fold,
    melds_of,
    seeds,
    tables,
    without_head,
)


class TestLegalLogsReplay:
    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_a_legal_log_replays_without_a_refusal(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        assert states[-1].head_seq == len(sim.events)

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_the_totals_are_the_sum_of_the_hands_each_scored_as_entered_by_hand(self, table, seed):
        sim = simulate(table, random.Random(seed))
        state = fold(sim.events)[-1]
        # Each hand played move by move scores what the same hand entered with the real
        # cards scores (the hand_recorded path), and hands entered so score as entered.
        expected = [
            state.variant.score_entry(
                sim.options,
                state.variant.read_entry(sim.options, entry.payload, state.seats),
                state.seats,
            ).points
            if entry.payload is not None
            else (0,) * len(state.seats)  # void: Gin's stock ran out without the wall
            for entry in sim.entries
        ]
        assert [hand.current.points for hand in state.hands] == expected
        assert [hand.seq for hand in state.hands] == [entry.seq for entry in sim.entries]
        sums = [sum(points[seat] for points in expected) for seat in range(len(state.seats))]
        assert list(state.hand_totals) == sums
        assert state.to_dict().get("hand_totals", state.to_dict()["totals"]) == sums
        # The score the rules give is the match's: the hands with any re-entries and
        # end-of-match bonuses (S40-REENTRY, KR-MATCH).
        # Before any hand is scored (a Scala 40 hand the stock keeps going), every seat is at 0,
        # and a match of no hand knows no seats.
        assert state.totals == (state.match.totals or (0,) * len(state.seats))
        # The hands are the match's: once it is over, no hand starts (GIN-MATCH, R40-MATCH,
        # RAM-MATCH, KR-MATCH).
        if state.finished:
            start = LogEvent(state.head_seq + 1, HAND_STARTED, {})
            with pytest.raises(RuleViolation) as caught:
                apply(state, start)
            assert caught.value.rule == state.variant.match_rule

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_every_card_is_somewhere_while_a_hand_is_played(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        for state, point in zip(states, [*sim.points[1:], Point(None, None)], strict=True):
            play = state.play
            if play is None or play.phase in ("show", "done"):
                continue
            held = sum(hand.count for hand in play.hands)
            on_table = sum(len(item.meld.cards) for item in play.table)
            # Kitties not taken yet (Burraco's pozzetti) lie aside, face down.
            aside = play.kitties.count(False) * play.rules.kitty_size
            assert held + play.stock + len(play.discard) + on_table + aside == sim.deck.size
            if point.phase is None:
                continue  # the event after is a move_undone: the simulator kept no table
            # What the engine sees matches the real table.
            assert [hand.count for hand in play.hands] == [len(hand) for hand in point.hands]
            assert play.stock == point.stock
            assert list(play.discard) == list(point.discard)
            assert melds_of(play.table) == melds_of(point.table)
            for hand, real in zip(play.hands, point.hands, strict=True):
                assert not Counter(hand.known) - Counter(real), "a known card is not held"
            if play.phase == point.phase:
                assert play.turn == point.turn

    @PROPERTY_SETTINGS
    @given(tables(), seeds(), st.data())
    def test_replaying_a_prefix_gives_the_state_of_the_events_applied_one_by_one(
        self, table, seed, data
    ):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        lengths = data.draw(
            st.lists(st.integers(1, len(sim.events)), min_size=1, max_size=4), label="prefixes"
        )
        for length in lengths:
            assert replay(sim.events[:length]).to_dict() == states[length - 1].to_dict()

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_taking_back_any_move_gives_back_the_state_before_it(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        undoable = (HAND_STARTED, *MOVE_TYPES)
        for index, event in enumerate(sim.events[1:], start=1):
            if event.event_type not in undoable:
                continue
            before, after = states[index - 1], states[index]
            undo = LogEvent(after.head_seq + 1, MOVE_UNDONE, {"reason": "wrong card"})
            if after.play is None and event.event_type != HAND_STARTED:
                # The move ended and scored the hand: a later event voids or amends it.
                projection = after.to_dict()
                with pytest.raises(RuleViolation) as caught:
                    apply(after, undo)
                assert (caught.value.rule, caught.value.violations[0].code) == (
                    "EVENT",
                    "no_hand_in_play",
                )
                assert after.to_dict() == projection
                continue
            undone = apply(after, undo)
            assert without_head(undone.to_dict()) == without_head(before.to_dict())
