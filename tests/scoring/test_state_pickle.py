"""A table's state survives pickling (the form its snapshot is kept in): same figures, and
its game is the very game object, taken back by name."""

import pickle

import pytest

from bench.logs import bench_log, moves_build
from scoring.replay import apply, replay
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


@pytest.mark.parametrize(
    ("variant", "seats", "seed"),
    [
        (variant, seats, seed)
        for seed in range(4)
        for variant, seats in (("gin", 2), ("rummy40", 4), ("ramino", 5), ("knock_rummy", 3))
    ],
)
def test_a_snapshot_taken_anywhere_and_folded_on_gives_the_replay(variant, seats, seed):
    # What appends do: keep the state (pickled, as the shared cache keeps it), later fold the
    # events since into it. Wherever the snapshot was taken, the result is the replay's.
    log = bench_log(variant, 60, seats=seats, seed=seed)
    whole = replay(log).to_dict()
    for cut in range(1, len(log), 7):
        state = pickle.loads(pickle.dumps(replay(log[:cut])))
        for event in log[cut:]:
            state = apply(state, event)
        assert state.to_dict() == whole, f"snapshot after event {cut}"
