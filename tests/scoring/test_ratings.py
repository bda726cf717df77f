"""League ratings over finished matches (scoring/ratings.py).

The seasons are real logs replayed by the engine (standings_seasons.py); every expected
number is worked by hand from docs/rules.md in the comments beside it.
"""

import json
import math

import pytest

from scoring.ratings import ratings_over
from tests.scoring.standings_seasons import ramino_season, summary
from tests.scoring.test_replay_games import hand, rec, seat

# PlackettLuce as openskill ships it (Weng & Lin 2011, Algorithm 4): prior mu 25, sigma
# 25/3, performance deviation beta 25/6, and tau 25/300 added to sigma before each game.
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300


class TestRatings:
    def test_a_first_two_player_match_moves_the_ratings_as_plackett_luce_says(self):
        m1 = ramino_season()[0]  # Ada beat Bea, both new
        s2 = SIGMA**2 + TAU**2  # the deviation widened by tau
        c = math.sqrt(2 * (s2 + BETA**2))  # both players' variance plus beta squared
        p = math.exp(MU / c) / (2 * math.exp(MU / c))  # equal skills: 1/2 to come first
        # Winner: omega = s2/c (1 - p); loser: omega = -s2/c p (its own term is 1 - 1 = 0).
        # Both: delta = gamma s2/c^2 p(1-p) with gamma = sqrt(s2)/c; sigma' = sqrt(s2 (1-delta)).
        omega = s2 / c * (1 - p)
        delta = math.sqrt(s2) / c * s2 / c**2 * p * (1 - p)
        sigma = math.sqrt(s2 * (1 - delta))
        ratings = ratings_over([m1])
        ada, bea = ratings.get("ada").current, ratings.get("bea").current
        assert ada.mu == pytest.approx(MU + omega) == pytest.approx(27.6354, abs=1e-4)
        assert bea.mu == pytest.approx(MU - omega)
        assert ada.sigma == pytest.approx(sigma) == pytest.approx(8.0659, abs=1e-4)
        assert bea.sigma == pytest.approx(sigma)
        assert ada.conservative == pytest.approx(MU + omega - 3 * sigma)
        assert ratings.initial.mu == MU and ratings.initial.sigma == pytest.approx(SIGMA)

    def test_the_winner_rises_and_the_loser_falls(self):
        m5 = ramino_season()[4]  # Bea first, Cal and Dan second
        ratings = ratings_over([m5])
        start = ratings.initial
        bea, cal, dan = (ratings.get(p).current for p in ("bea", "cal", "dan"))
        assert bea.mu > start.mu and bea.conservative > start.conservative
        for loser in (cal, dan):
            assert loser.mu < start.mu and loser.conservative < start.conservative

    def test_the_conservative_value_is_mu_minus_three_sigma(self):
        ratings = ratings_over(ramino_season())
        for entry in ratings.players:
            for rating in (entry.current, *(point.rating for point in entry.history)):
                assert rating.conservative == pytest.approx(rating.mu - 3 * rating.sigma)

    def test_equal_places_share_a_rank(self):
        # Cal and Dan share second place at M5: from the same prior, they move alike.
        ratings = ratings_over([ramino_season()[4]])
        assert ratings.get("cal").current == ratings.get("dan").current
        # A two-player tie: openskill moves both by the mean of their changes, so from
        # equal ratings neither mean moves; only the uncertainty shrinks.
        tie = summary(
            "rummy40",
            ["wes", "xia"],
            {"target": 1},
            rec(hand(seat("5C"), seat("3D 2D"), stock_exhausted=True)),
        )
        after = ratings_over([tie])
        wes, xia = after.get("wes").current, after.get("xia").current
        assert wes == xia and wes.mu == MU and wes.sigma < after.initial.sigma

    def test_the_order_of_processing_is_the_callers(self):
        season = ramino_season()
        forward, backward = ratings_over(season), ratings_over(season[::-1])
        assert forward.get("ada").current != backward.get("ada").current
        assert forward.get("ada").history[-1].match_id == "M7"
        assert backward.get("ada").history[-1].match_id == "M1"

    def test_two_identical_runs_give_identical_results(self):
        first, second = ratings_over(ramino_season()), ratings_over(ramino_season())
        assert first == second
        assert json.dumps(first.to_dict()) == json.dumps(second.to_dict())

    def test_the_history_holds_a_point_after_each_match_played(self):
        ada = ratings_over(ramino_season()).get("ada")
        assert [(p.index, p.match_id, p.place) for p in ada.history] == [
            (0, "M1", 1),
            (1, "M2", 2),
            (6, "M7", 1),
        ]
        assert ada.history[-1].rating == ada.current
        assert ratings_over(ramino_season()).get("nobody") is None
