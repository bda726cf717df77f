"""Every registered game brings its worked examples and its test data, so the property,
round-trip, review and API tests that read them from the registry run for it: a game
registered without them fails here, naming what it lacks (docs/design.md, "Adding a game").
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.events import CARD_DRAWN, TABLE_CREATED, LogEvent
from scoring.replay import replay
from scoring.samples import SampleHand, examples_of
from scoring.variants import GAMES
from tests.hypothesis_profiles import examples
from tests.scoring.play_sim_base import Config
from tests.scoring.play_simulator import simulate
from tests.scoring.play_strategies import OPTIONS_DRAWN, fold

every_game = pytest.mark.parametrize("key", list(GAMES))


def _log(sample: SampleHand) -> list[LogEvent]:
    created = {"variant": sample.variant, "options": sample.options, "seats": list(sample.players)}
    events = [LogEvent(1, TABLE_CREATED, created)]
    return events + [
        LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(sample.events, 2)
    ]


@every_game
def test_every_game_gives_a_hand_played_move_by_move_that_scores_as_worked(key):
    sample = examples_of(key).played
    assert sample.variant == key
    state = replay(_log(sample))
    # The points are those the sample's comments work out by hand from the rules.
    assert state.hands[-1].current.points == sample.points


@every_game
def test_every_game_gives_a_reviewed_hand_whose_draws_name_their_cards(key):
    sample = examples_of(key).reviewed
    assert sample is not None, f"{key} gives no reviewed hand"
    assert sample.variant == key
    draws = [payload for kind, payload in sample.events if kind == CARD_DRAWN]
    assert draws and all(payload.get("card") for payload in draws)
    assert replay(_log(sample)).hands[-1].current.points == sample.points


@every_game
def test_every_game_gives_a_short_match_the_simulator_plays_to_its_end(key):
    players, options = examples_of(key).short_match
    assert players in GAMES[key].seatings
    config = Config(key, players, dict(options), hands=6)
    finished = [fold(simulate(config, random.Random(seed)).events)[-1].finished for seed in (3, 5)]
    assert any(finished), f"{key}'s short match did not end within 6 hands"


@every_game
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_game_has_its_options_drawn_and_is_simulated(key, data):
    assert key in OPTIONS_DRAWN, f"tests/scoring/play_strategies.py draws no options for {key}"
    players = GAMES[key].seatings[0]
    config = Config(key, players, dict(OPTIONS_DRAWN[key](data.draw, players, False)), hands=1)
    states = fold(simulate(config, random.Random(1)).events)
    assert states[-1].hands, f"the simulator played no hand of {key}"
