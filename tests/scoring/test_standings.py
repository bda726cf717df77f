"""League standings and ratings over finished matches (scoring/standings.py).

The seasons are real logs replayed by the engine; every expected number is worked by hand
from docs/rules.md in the comments beside it.
"""

import itertools
import json
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from scoring.ratings import ratings_over
from scoring.replay import replay
from scoring.standings import (
    COUNTS,
    LOWER_IS_BETTER,
    match_summary,
    standings,
)
from tests.payloads import quick
from tests.scoring.test_replay_games import amend, hand, log, rec, seat, void

H2H_PD_HW = ("head_to_head", "points_difference", "hands_won")


def table(variant, players, options, *entries):
    """Replay a table whose seats are named after the players."""
    return replay(log(variant, [player.title() for player in players], options, *entries))


def summary(variant, players, options, *entries, match_id=None):
    """Replay a finished table and summarise it."""
    return match_summary(table(variant, players, options, *entries), players, match_id=match_id)


def by_player(rows):
    return {row.player: row for row in rows}


def line(rows):
    """Return the standings as (rank, player, tiebreak) triples, best first."""
    return [(row.rank, row.player, row.tiebreak) for row in rows]


# A Ramino league: five players, single-hand tables but one of two hands (RAM-MATCH), values
# RAM-VALUE (2-9 face, 10 J Q K 10, ace 11, joker 20), RAM-SCORE: the one out gains what
# the others lose.
RAMINO_SEASON = (
    # M1: Ada out; Bea K 10 + 9 = 19.                             Ada +19, Bea -19
    ("ramino", ["ada", "bea"], {"hands": 1}, rec(hand(seat(went_out=True), seat("KS 9H")))),
    # M2, two hands: hand 1 (Ada out, Cal 7) is voided; hand 2 Cal out, Ada K Q = 20,
    # amended to K Q 3 = 23; hand 3 Ada out, Cal 5.
    # Cal +23 -5 = 18, Ada -23 +5 = -18: Cal wins; Ada won a hand.
    (
        "ramino",
        ["cal", "ada"],
        {"hands": 2},
        rec(hand(seat("7D"), seat(went_out=True))),
        rec(hand(seat(went_out=True), seat("KS QS"))),
        void(1),
        rec(hand(seat("5C"), seat(went_out=True))),
        amend(2, hand(seat(went_out=True), seat("KS QS 3H"))),
    ),
    # M3: Dan out; Eve 9 + 4 = 13.                                Dan +13, Eve -13
    ("ramino", ["dan", "eve"], {"hands": 1}, rec(hand(seat(went_out=True), seat("9C 4C")))),
    # M4: Eve out; Dan 8 + 4 = 12.                                Eve +12, Dan -12
    ("ramino", ["eve", "dan"], {"hands": 1}, rec(hand(seat(went_out=True), seat("8H 4H")))),
    # M5: Bea out; Cal K 10, Dan Q 10: Cal and Dan share 2nd.    Bea +20, Cal -10, Dan -10
    (
        "ramino",
        ["bea", "cal", "dan"],
        {"hands": 1},
        rec(hand(seat(went_out=True), seat("KH"), seat("QD"))),
    ),
    # M6: Bea closes in hand (RAM-HANDCLOSE); Eve 4, doubled.    Bea +8, Eve -8
    (
        "ramino",
        ["bea", "eve"],
        {"hands": 1},
        rec(hand(seat(went_out=True, hand_closed=True), seat("4D"))),
    ),
    # M7: Ada out; Cal 3.                                         Ada +3, Cal -3
    ("ramino", ["ada", "cal"], {"hands": 1}, rec(hand(seat(went_out=True), seat("3S")))),
)
# Records: Ada won M1 M7, lost M2: 2-1. Bea won M5 M6, lost M1: 2-1. Cal won M2, lost M5
# M7: 1-2. Dan won M3, lost M4 M5: 1-2. Eve won M4, lost M3 M6: 1-2.
# Points (gained for, lost against):
#   Ada 19 + 5 + 3 = 27 for, 23 against: +4.    Bea 20 + 8 = 28 for, 19 against: +9.
#   Cal 23 for, 5 + 10 + 3 = 18 against: +5.    Dan 13 for, 12 + 10 = 22 against: -9.
#   Eve 12 for, 13 + 8 = 21 against: -9.
# Head to head: Ada beat Bea (M1). Cal, Dan, Eve: Dan beat Eve (M3), Eve beat Dan (M4),
# Cal and Dan shared 2nd in M5: 0 each.
# Hands won: Ada 3 (M1, M2 hand 3, M7), Bea 2, Cal 1, Dan 1, Eve 1.


def ramino_season():
    return [
        summary(variant, players, options, *entries, match_id=f"M{number}")
        for number, (variant, players, options, *entries) in enumerate(RAMINO_SEASON, start=1)
    ]


# A Knock Rummy league: KR-SCORE, KR-UNDERCUT, KR-OUT, KR-MATCH (target lowered per table).
KNOCK_RUMMY_SEASON = (
    # K1, target 20. Round 1: Ann knocks with 5, Ben and Cat hold an ace each: both undercut,
    # each (5-1) + 0 + (1-1) = 4, + 10 = 14.                                [0, 14, 14]
    # Round 2: Cat plays every card and knocks: (10-0) + (11-0) = 21, + 25 out = 46.
    # Cat 60 reached 20: +100 = 160; Ben won round 1: +25 = 39; Ann 0.  Final [0, 39, 160]
    (
        "knock_rummy",
        ["ann", "ben", "cat"],
        {"target": 20},
        rec(hand(seat("5S", knocked=True), seat("AH"), seat("AD"))),
        rec(hand(seat("KS"), seat("9H 2H"), seat(knocked=True, went_out=True))),
    ),
    # K2, target 10. Ann knocks 2 vs Q 10: Ann 8. Ben knocks 1 vs 3: Ben 2. Ann knocks 1 vs
    # 5: Ann 4, 12 reached 10: +100 = 112; Ben won a round: 2 + 25 = 27.   Final [112, 27]
    (
        "knock_rummy",
        ["ann", "ben"],
        {"target": 10},
        rec(hand(seat("2C", knocked=True), seat("QS"))),
        rec(hand(seat("3H"), seat("AC", knocked=True))),
        rec(hand(seat("AS", knocked=True), seat("5D"))),
    ),
)

# A Rummy40 league: penalty points (R40-VALUE: ace 1, face value, J Q K 10, joker 25).
RUMMY40_SEASON = (
    # R1, single hand, four players: Wes out; Xia 2; Yan 5; Zoe joker 25 + one failed
    # opening 20 = 45 (R40-OPEN-PENALTY). Lowest wins: Wes; places Wes, Xia, Yan, Zoe.
    (
        "rummy40",
        ["wes", "xia", "yan", "zoe"],
        {"target": 1},
        rec(hand(seat(went_out=True), seat("2D"), seat("5C"), seat("JK", opening_penalty=1))),
    ),
    # R2, single hand: a hand of another table is voided; then Xia out, Wes 7. Xia wins.
    (
        "rummy40",
        ["xia", "wes"],
        {"target": 1},
        rec(hand(seat("2C"), seat(went_out=True))),
        void(1),
        rec(hand(seat(went_out=True), seat("7H"))),
    ),
)


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


def season_of(matches):
    return [
        summary(variant, players, options, *entries, match_id=f"{variant}-{number}")
        for number, (variant, players, options, *entries) in enumerate(matches, start=1)
    ]


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
        assert "rummy40" in LOWER_IS_BETTER

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
    @settings(max_examples=80, deadline=None)
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
        assert all(tuple(dict(row.counts)) == COUNTS[variant] for row in rows)
        difference = sum(row.points_difference for row in rows)
        if variant == "ramino":
            # Gained minus lost is each seat's total.
            assert difference == sum(sum(match.totals) for match in season)
        else:
            # Against is the opponents' mean, so every table's book balances.
            assert difference == 0

    @settings(max_examples=80, deadline=None)
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

    @settings(max_examples=40, deadline=None)
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
