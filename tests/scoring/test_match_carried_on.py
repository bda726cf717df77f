"""The replay carries a match in play on hand by hand (adding each hand's points while the
game says the match cannot be over); it must always equal the game's own reading of every
result from the first, at every point of every log."""

import pytest

from bench.logs import bench_log
from scoring.replay import apply


@pytest.mark.parametrize(
    ("variant", "seats", "seed"),
    [
        (variant, seats, seed)
        for seed in range(5)
        for variant, seats in (("gin", 2), ("rummy40", 2), ("ramino", 4), ("knock_rummy", 5))
    ],
)
def test_the_match_carried_on_is_the_game_s_reading_of_all_results(variant, seats, seed):
    state = None
    for event in bench_log(variant, 120, seats=seats, seed=seed):
        state = apply(state, event)
        if state.standing is None:
            continue
        counted = tuple(h.current for h in state.hands if h.current is not None)
        assert state.standing_results == counted
        assert state.standing == state.variant.match_result(state.options, counted), event.seq
