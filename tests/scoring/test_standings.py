"""League standings and ratings over finished matches (scoring/standings.py).

The seasons are real logs replayed by the engine; every expected number is worked by hand
from docs/rules.md in the comments beside it.
"""

import itertools
import json
from fractions import Fraction as F

import pytest

from scoring.errors import RuleViolation
from scoring.ratings import ratings_over
from scoring.standings import lower_is_better, match_summary, standings
from tests.payloads import quick
from tests.scoring.standings_seasons import (
    KNOCK_RUMMY_SEASON,
    RAMINO_SEASON,
    RUMMY40_SEASON,
    by_player,
    line,
    ramino_season,
    season_of,
    summary,
    table,
)
from tests.scoring.test_replay_games import amend, hand, rec, seat, void

H2H_PD_HW = ("head_to_head", "points_difference", "hands_won")


class TestMatchSummaries:
    def test_a_ramino_match_counts_only_hands_in_force_as_amended(self):
        m2 = ramino_season()[1]
        cal, ada = m2.seats
        assert (m2.match_id, m2.variant, m2.hands, m2.totals) == ("M2", "ramino", 2, (18, -18))
        assert m2.winners == ("cal",)
        # Cal gained 23 (hand 2 as amended), lost 5; Ada gained 5, lost 23.
        assert (cal.place, cal.outcome, cal.hands_won) == (1, "won", 1)
        assert (cal.points_for, cal.points_against) == (23, 5)
        assert (ada.place, ada.outcome, ada.hands_won) == (2, "lost", 1)
        assert (ada.points_for, ada.points_against) == (5, 23)
        assert dict(ada.counts) == {"went_out": 1, "hand_closures": 0}

    def test_a_closed_hand_and_a_shared_place_are_read_from_the_result(self):
        season = ramino_season()
        m5, m6 = season[4], season[5]
        assert [(s.player, s.place, s.outcome) for s in m5.seats] == [
            ("bea", 1, "won"),
            ("cal", 2, "lost"),
            ("dan", 2, "lost"),
        ]
        assert m6.seats[0].count("hand_closures") == 1
        assert m6.seats[0].points_for == 8 and m6.seats[1].points_against == 8

    def test_a_gin_match_counts_knocks_gins_big_gins_and_undercuts(self):
        m = summary(
            "gin",
            ["ada", "bea"],
            {"target": 100},
            rec(quick(0, "knock", 5, 30)),  # 1: Ada 30 - 5 = 25              [25, 0]
            rec(quick(1, "gin", 0, 30)),  # 2: Bea 25 + 30 = 55, amended below
            rec(quick(0, "knock", 8, 3)),  # 3: undercut, Bea (8-3) + 25 = 30
            rec({"mode": "quick", "ending": "wall"}),  # 4: void by GIN-WALL, no hand played
            rec(quick(1, "knock", 4, 9)),  # 5: Bea 5, voided below
            void(5),
            rec(quick(0, "big_gin", 0, 20)),  # 6: Ada 31 + 20 = 51           [76, 30]
            amend(2, quick(1, "gin", 0, 40)),  # 2 as amended: 25 + 40 = 65   [76, 95]
            rec(quick(1, "knock", 2, 10)),  # 7: Bea 10 - 2 = 8: 103 reaches 100
        )
        ada, bea = m.seats
        assert (m.hands, m.totals, m.winners) == (5, (76, 103), ("bea",))
        assert (ada.place, ada.outcome, ada.hands_won) == (2, "lost", 2)
        assert (ada.points_for, ada.points_against) == (76, 103)
        assert dict(ada.counts) == {"knocks": 2, "gins": 0, "big_gins": 1, "undercuts": 0}
        assert (bea.place, bea.outcome, bea.hands_won) == (1, "won", 3)
        assert dict(bea.counts) == {"knocks": 1, "gins": 1, "big_gins": 0, "undercuts": 1}

    def test_a_gin_amendment_that_would_end_the_match_before_later_hands_is_refused(self):
        # Hand 1 amended to gin against 90: 25 + 90 = 115 reaches 100 after hand 1, so hand 2
        # would have been played after the match ended (GIN-MATCH), as Rummy40 refuses too.
        with pytest.raises(RuleViolation) as refused:
            summary(
                "gin",
                ["ada", "bea"],
                {"target": 100},
                rec(quick(0, "knock", 5, 30)),
                rec(quick(0, "knock", 5, 30)),
                amend(1, quick(0, "gin", 0, 90)),
            )
        assert (refused.value.rule, refused.value.violations[0].code) == (
            "GIN-MATCH",
            "match_over",
        )

    def test_rummy40_reads_penalties_with_the_opponents_mean_against(self):
        r1 = summary(*RUMMY40_SEASON[0])
        wes, _, _, zoe = r1.seats
        assert [s.place for s in r1.seats] == [1, 2, 3, 4]
        assert [s.outcome for s in r1.seats] == ["won", "lost", "lost", "lost"]
        # Against: the mean of the three others' penalties.
        assert (wes.points_for, wes.points_against) == (0, F(2 + 5 + 45, 3))
        assert (zoe.points_for, zoe.points_against) == (45, F(0 + 2 + 5, 3))
        assert dict(zoe.counts) == {"went_out": 0, "opening_penalties": 1}
        assert dict(wes.counts) == {"went_out": 1, "opening_penalties": 0}
        assert sum(s.points_for for s in r1.seats) == sum(s.points_against for s in r1.seats)

    def test_a_two_player_rummy40_tie_is_a_win_for_both(self):
        # Stock out: 5 each; R40-MATCH: equal lowest scores share the win, nobody loses.
        m = summary(
            "rummy40",
            ["wes", "xia"],
            {"target": 1},
            rec(hand(seat("5C"), seat("3D 2D"), stock_exhausted=True)),
        )
        assert [(s.place, s.outcome, s.hands_won) for s in m.seats] == [(1, "won", 0)] * 2

    def test_knock_rummy_counts_bonuses_and_every_round_winner(self):
        k1 = summary(*KNOCK_RUMMY_SEASON[0])
        ann, ben, cat = k1.seats
        assert k1.totals == (0, 39, 160)
        assert [s.place for s in k1.seats] == [3, 2, 1]
        assert (ann.hands_won, ben.hands_won, cat.hands_won) == (0, 1, 2)
        assert dict(ann.counts) == {"knocks": 1, "undercut_bonuses": 0, "out_bonuses": 0}
        assert dict(cat.counts) == {"knocks": 1, "undercut_bonuses": 1, "out_bonuses": 1}
        # For: the final total with the KR-MATCH bonuses; against: the opponents' mean.
        assert (ben.points_for, ben.points_against) == (39, F(0 + 160, 2))

    def test_a_practice_table_is_marked_and_never_counted(self):
        practice = summary(
            "ramino",
            ["ada", "bea"],
            {"hands": 1, "practice": True},
            rec(hand(seat("2S"), seat(went_out=True))),
        )
        assert practice.practice
        season = ramino_season()
        assert standings([*season, practice]) == standings(season)
        assert ratings_over([practice, *season]) == ratings_over(season)

    def test_an_unfinished_table_or_wrong_players_are_a_callers_bug(self):
        going_on = table("ramino", ["ada", "bea"], {"hands": 2}, *RAMINO_SEASON[0][3:])
        with pytest.raises(ValueError, match="not finished"):
            match_summary(going_on, ["ada", "bea"])
        finished = table(*RAMINO_SEASON[0])
        for players in (["ada"], ["ada", "ada"], ["ada", "bea", "cal"]):
            with pytest.raises(ValueError, match="players"):
                match_summary(finished, players)

    def test_a_summary_is_ready_for_json(self):
        k1 = summary(*KNOCK_RUMMY_SEASON[0], match_id=7)
        data = json.loads(json.dumps(k1.to_dict()))
        assert data["match_id"] == 7 and data["winners"] == ["cat"]
        assert data["seats"][0]["points_against"] == 99.5  # (39 + 160) / 2


class TestStandings:
    def test_the_ramino_season_ranks_by_record_then_the_leagues_tiebreakers(self):
        # Ada and Bea 2-1: head to head, Ada beat Bea. Cal, Dan, Eve 1-2: head to head 0
        # each; points difference Cal +5 over Dan and Eve -9; hands won 1 each: shared.
        assert line(standings(ramino_season(), H2H_PD_HW)) == [
            (1, "ada", "head_to_head"),
            (2, "bea", None),
            (3, "cal", "points_difference"),
            (4, "dan", None),
            (4, "eve", None),
        ]

    def test_every_number_of_the_ramino_season_is_the_sum_of_its_matches(self):
        rows = by_player(standings(ramino_season(), H2H_PD_HW))
        # played, won, lost, hands played (M2 had two in force), hands won, for, against,
        # difference, went out, hand closures: the season's comment above.
        expected = {
            "ada": (3, 2, 1, 1 + 2 + 1, 3, 27, 23, 4, 3, 0),
            "bea": (3, 2, 1, 1 + 1 + 1, 2, 28, 19, 9, 2, 1),
            "cal": (3, 1, 2, 2 + 1 + 1, 1, 23, 18, 5, 1, 0),
            "dan": (3, 1, 2, 1 + 1 + 1, 1, 13, 22, -9, 1, 0),
            "eve": (3, 1, 2, 1 + 1 + 1, 1, 12, 21, -9, 1, 0),
        }
        for player, numbers in expected.items():
            row = rows[player]
            assert (
                row.played,
                row.won,
                row.lost,
                row.hands_played,
                row.hands_won,
                row.points_for,
                row.points_against,
                row.points_difference,
                row.count("went_out"),
                row.count("hand_closures"),
            ) == numbers, player
        ada = rows["ada"]
        assert (ada.average_for, ada.average_against, ada.win_rate) == (9, F(23, 3), F(2, 3))
        assert ada.to_dict()["average_against"] == 7.67 and ada.rating is None

    def test_the_order_of_the_tiebreakers_is_the_leagues(self):
        season = ramino_season()
        # Points difference first: Bea +9 over Ada +4; Cal +5 over Dan and Eve -9.
        assert line(standings(season, ["points_difference", "head_to_head"])) == [
            (1, "bea", "points_difference"),
            (2, "ada", None),
            (3, "cal", "points_difference"),
            (4, "dan", None),
            (4, "eve", None),
        ]
        # Hands won only: Ada 3 over Bea 2; Cal, Dan and Eve won one hand each.
        assert line(standings(season, ["hands_won"])) == [
            (1, "ada", "hands_won"),
            (2, "bea", None),
            (3, "cal", None),
            (3, "dan", None),
            (3, "eve", None),
        ]
        assert [row.rank for row in standings(season)] == [1, 1, 3, 3, 3]

    def test_rummy40_prefers_the_lower_penalty_difference(self):
        rows = standings(season_of(RUMMY40_SEASON), ["head_to_head", "points_difference"])
        # Wes and Xia 1-1, head to head 1-1 (R1 Wes above Xia, R2 Xia beat Wes).
        # Wes: for 0 + 7 = 7, against (2+5+45)/3 + 0 = 52/3: 7 - 52/3 = -31/3.
        # Xia: for 2 + 0 = 2, against (0+5+45)/3 + 7 = 71/3: 2 - 71/3 = -65/3, lower: above.
        # Yan and Zoe 0-1: Yan placed above Zoe in R1.
        assert line(rows) == [
            (1, "xia", "points_difference"),
            (2, "wes", None),
            (3, "yan", "head_to_head"),
            (4, "zoe", None),
        ]
        by = by_player(rows)
        assert (by["wes"].points_for, by["wes"].points_against) == (7, F(52, 3))
        assert (by["xia"].points_for, by["xia"].points_against) == (2, F(71, 3))
        # Yan 5 against (0+2+45)/3; Zoe 45 against (0+2+5)/3, one failed opening.
        assert (by["yan"].points_for, by["yan"].points_against) == (5, F(47, 3))
        assert (by["zoe"].points_for, by["zoe"].points_against) == (45, F(7, 3))
        assert by["zoe"].count("opening_penalties") == 1
        # The voided hand of R2 is no hand played: Wes played one hand at each table.
        assert (by["wes"].hands_played, by["wes"].count("went_out")) == (2, 1)
        assert sum(row.points_difference for row in rows) == 0
        assert lower_is_better("rummy40")

    def test_the_knock_rummy_season_counts_its_bonuses(self):
        rows = standings(season_of(KNOCK_RUMMY_SEASON), H2H_PD_HW)
        # Cat 1-0 above Ann 1-1 (as many wins, fewer lost), above Ben 0-2.
        assert line(rows) == [(1, "cat", None), (2, "ann", None), (3, "ben", None)]
        cat, ann, ben = rows
        # Cat: K1 only: 160 for, (0 + 39)/2 against; knock, undercut and out bonuses.
        assert (cat.played, cat.hands_played, cat.hands_won) == (1, 2, 2)
        assert (cat.points_for, cat.points_against) == (160, F(39, 2))
        assert dict(cat.counts) == {"knocks": 1, "undercut_bonuses": 1, "out_bonuses": 1}
        # Ann: 0 + 112 for; (39 + 160)/2 + 27 = 253/2 against; knocked in K1 and twice in K2.
        assert (ann.won, ann.lost, ann.hands_played, ann.hands_won) == (1, 1, 5, 2)
        assert (ann.points_for, ann.points_against) == (112, F(253, 2))
        assert dict(ann.counts) == {"knocks": 3, "undercut_bonuses": 0, "out_bonuses": 0}
        # Ben: 39 + 27 = 66 for; (0 + 160)/2 + 112 = 192 against; K1 round 1, K2 round 2.
        assert (ben.won, ben.lost, ben.hands_won) == (0, 2, 2)
        assert (ben.points_for, ben.points_against) == (66, 192)
        assert dict(ben.counts) == {"knocks": 1, "undercut_bonuses": 1, "out_bonuses": 0}
        data = json.loads(json.dumps([row.to_dict() for row in rows]))
        assert data[1]["points_against"] == 126.5 and data[1]["points_difference"] == -14.5

    def test_the_rating_tiebreaker_and_column_come_from_the_ratings(self):
        season = ramino_season()
        ratings = ratings_over(season).conservative()
        rows = standings(season, ["rating"], ratings)
        assert all(row.rating == ratings[row.player] for row in rows)
        top = sorted(["ada", "bea"], key=ratings.__getitem__, reverse=True)
        assert [(row.player, row.tiebreak) for row in rows[:2]] == [
            (top[0], "rating"),
            (top[1], None),
        ]

    def test_the_order_of_the_summaries_does_not_matter(self):
        season = ramino_season()
        assert standings(season[::-1], H2H_PD_HW) == standings(season, H2H_PD_HW)

    def test_bad_tiebreakers_mixed_games_and_repeats_are_refused(self):
        season = ramino_season()
        for tiebreakers in (["coin_toss"], ["hands_won", "hands_won"]):
            with pytest.raises(ValueError, match="tie-breakers"):
                standings(season, tiebreakers)
        with pytest.raises(ValueError, match="needs the ratings"):
            standings(season, ["rating"])
        with pytest.raises(ValueError, match="one game"):
            standings([*season, *season_of(KNOCK_RUMMY_SEASON)])
        with pytest.raises(ValueError, match="twice"):
            ratings_over([*season, season[0]])
        assert standings([]) == ()


class TestFiftyMatchSeason:
    def test_a_fifty_match_season_is_summarised_rated_and_ranked_from_its_logs(self):
        # Five players, every pair five times (10 pairs x 5 = 50 single-hand Gin tables);
        # the knocker (seat 0 on even matches, 1 on odd) knocks 2 against 10: 8 points.
        pairs = list(itertools.combinations(["p0", "p1", "p2", "p3", "p4"], 2)) * 5
        season = [
            summary(
                "gin",
                list(pair),
                {"target": 1},
                rec(quick(number % 2, "knock", 2, 10)),
                match_id=number,
            )
            for number, pair in enumerate(pairs)
        ]
        ratings = ratings_over(season)
        rows = standings(season, H2H_PD_HW, ratings.conservative())
        # Each player sits in 4 pairs x 5 = 20 matches; 50 wins, 50 losses, 8 points each.
        assert [row.played for row in rows] == [20] * 5
        assert sum(row.won for row in rows) == sum(row.lost for row in rows) == 50
        assert all(row.points_for == 8 * row.won and row.count("knocks") == row.won for row in rows)
        assert all(len(ratings.get(row.player).history) == 20 for row in rows)
