"""Properties of league standings and ratings over seasons of drawn single-hand tables
(scoring/standings.py, scoring/ratings.py).
"""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ratings import ratings_over
from scoring.standings import counts_of, standings
from tests.hypothesis_profiles import examples
from tests.payloads import quick
from tests.scoring.standings_seasons import summary
from tests.scoring.test_replay_games import rec

# Properties ---------------------------------------------------------------------------

POOL = ("p0", "p1", "p2", "p3", "p4", "p5")
SIZES = {"gin": (2,), "rummy40": (2, 4), "ramino": (2, 3, 4), "knock_rummy": (2, 3, 5)}
# Every table is a single hand, so every drawn table finishes.
SINGLE = {
    "gin": {"target": 1},
    "rummy40": {"target": 1},
    "ramino": {"hands": 1},
    "knock_rummy": {"target": 1},
}


@st.composite
def single_hands(draw, variant, size):
    """Draw one legal single-hand ending by points: quick Gin, or each seat's hand value."""
    if variant == "gin":
        ending = draw(st.sampled_from(["knock", "gin", "big_gin"]))
        knocker_count = draw(st.integers(1, 10)) if ending == "knock" else 0
        # Equal counts at a knock score nobody (GIN-UNDERCUT), and the match would go on.
        defender = draw(
            st.integers(0, 60).filter(lambda d: ending != "knock" or d != knocker_count)
        )
        return quick(draw(st.integers(0, 1)), ending, knocker_count, defender)
    values = draw(st.lists(st.integers(1, 40), min_size=size, max_size=size))
    ender = draw(st.integers(0, size - 1))
    players = [{"points": value} for value in values]
    if variant == "knock_rummy":
        # A knock always ends the round with points scored, so the game (target 1) ends.
        players[ender] = {"points": draw(st.integers(1, 5)), "knocked": True}
        return {"mode": "points", "players": players}
    if variant == "rummy40":
        for entry in players:
            entry["opening_penalty"] = draw(st.integers(0, 1))
    if draw(st.booleans()):
        return {"mode": "points", "players": players, "stock_exhausted": True}
    players[ender] = {**players[ender], "points": 0, "went_out": True}
    if variant == "ramino":
        players[ender]["hand_closed"] = draw(st.booleans())
    return {"mode": "points", "players": players}


@st.composite
def seasons(draw):
    """Draw a league's season: one game, one to eight single-hand tables of the pool."""
    variant = draw(st.sampled_from(sorted(SIZES)))
    matches = []
    for number in range(draw(st.integers(1, 8))):
        size = draw(st.sampled_from(SIZES[variant]))
        players = draw(st.permutations(POOL))[:size]
        payload = draw(single_hands(variant, size))
        entries = [rec(payload)]
        matches.append(summary(variant, list(players), SINGLE[variant], *entries, match_id=number))
    return matches


class TestStandingsProperties:
    @settings(max_examples=examples(80), deadline=None)
    @given(seasons(), st.permutations(["head_to_head", "points_difference", "hands_won"]))
    def test_standings_account_for_every_seat_of_every_match(self, season, tiebreakers):
        rows = standings(season, tiebreakers)
        seats = [seat for match in season for seat in match.seats]
        assert sum(row.won for row in rows) == sum(len(match.winners) for match in season)
        assert sum(row.lost for row in rows) == len(seats) - sum(row.won for row in rows)
        assert all(row.played == row.won + row.lost for row in rows)
        assert sum(row.hands_won for row in rows) == sum(seat.hands_won for seat in seats)
        assert all(row.hands_won <= row.hands_played for row in rows)
        # A seat wins exactly when it placed first.
        assert all(seat.won == (seat.place == 1) for seat in seats)
        variant = season[0].variant
        assert all(tuple(dict(row.counts)) == counts_of(variant) for row in rows)
        difference = sum(row.points_difference for row in rows)
        if variant == "ramino":
            # Gained minus lost is each seat's total.
            assert difference == sum(sum(match.totals) for match in season)
        else:
            # Against is the opponents' mean, so every table's book balances.
            assert difference == 0

    @settings(max_examples=examples(80), deadline=None)
    @given(seasons(), st.permutations(["head_to_head", "points_difference", "hands_won"]))
    def test_ranks_follow_the_record_and_ties_share_them(self, season, tiebreakers):
        rows = standings(season, tiebreakers)
        assert sorted(row.player for row in rows) == sorted(
            {seat.player for match in season for seat in match.seats}
        )
        assert rows[0].rank == 1
        for index, (row, below) in enumerate(itertools.pairwise(rows), start=1):
            assert (-row.won, row.lost) <= (-below.won, below.lost)
            if (row.won, row.lost) != (below.won, below.lost):
                assert below.rank == index + 1 and row.tiebreak is None
            elif below.rank == row.rank:
                assert row.tiebreak is None and row.player < below.player
            else:
                assert below.rank == index + 1 and row.tiebreak in tiebreakers
        assert rows[-1].tiebreak is None

    @settings(max_examples=examples(40), deadline=None)
    @given(seasons(), st.randoms(use_true_random=False))
    def test_standings_ignore_the_order_of_the_matches_and_ratings_do_not(self, season, rnd):
        shuffled = list(season)
        rnd.shuffle(shuffled)
        assert standings(shuffled, ["head_to_head"]) == standings(season, ["head_to_head"])
        ratings = ratings_over(season)
        assert ratings == ratings_over(season)
        assert {entry.player for entry in ratings.players} == {
            row.player for row in standings(season)
        }
