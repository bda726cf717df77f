"""A table's state survives pickling (the form its snapshot is kept in): same figures, and
its game is the very game object, taken back by name."""

import pickle

import pytest

from bench.logs import bench_log, moves_build
from scoring.replay import replay
from scoring.variants import game_get


@pytest.mark.parametrize(
    ("variant", "seats"), [("gin", 2), ("rummy40", 2), ("ramino", 4), ("knock_rummy", 3)]
)
def test_a_state_of_hands_comes_back_the_same(variant, seats):
    state = replay(bench_log(variant, 40, seats=seats, seed=7))
    back = pickle.loads(pickle.dumps(state))
    assert back.variant is game_get(variant)
    assert back.to_dict() == state.to_dict()


def test_a_state_in_the_middle_of_a_hand_played_move_by_move_comes_back_the_same():
    state = moves_build(300).state
    assert state.play is not None
    back = pickle.loads(pickle.dumps(state))
    assert back.to_dict() == state.to_dict()
