"""Burraco pairs nights worked out on paper: Mitchell rotations, Danese rounds, standings.

Every expected round and standing below was worked out by hand from the rules in the
modules' docstrings (mitchell, danese, pairs_night) and the federation's 3-hand VP table,
with the arithmetic in the comments; none was read off the code.
"""

from fractions import Fraction

import pytest

from scoring.tournaments.danese import danese_round
from scoring.tournaments.mitchell import MitchellLines, TableAssignment, mitchell_tables
from scoring.tournaments.pairs_night import (
    DANESE,
    MITCHELL,
    PairsNight,
    match_result,
    next_round,
    night_plan,
    night_round,
    night_standings,
)
from scoring.tournaments.results import Bye
from scoring.tournaments.victory_points import FIBUR_3_HANDS

PLAN = night_plan("3 Mitchell + 1 Danese")


def seats(pairs_round):
    """Return a round's tables as (table, NS, EW) triples."""
    return [(table.table, table.ns, table.ew) for table in pairs_round.tables]


def play(pairs_round, margins):
    """Return the round's results: ``margins[table]`` is NS's points less EW's."""
    return [
        match_result(pairs_round.round_number, t.ns, t.ew, 1000 + margins[t.table], 1000)
        for t in pairs_round.tables
    ]


def summary(rows):
    """Return (rank, pair, VP, points difference) for each row."""
    return [(row.rank, row.player, row.victory_points, row.points_difference) for row in rows]


class TestThePlan:
    def test_a_plan_reads_as_its_rounds_in_order(self):
        assert PLAN == (MITCHELL, MITCHELL, MITCHELL, DANESE)
        assert night_plan("2 mitchell+2 DANESE") == (MITCHELL, MITCHELL, DANESE, DANESE)

    def test_a_plan_of_something_else_is_refused(self):
        with pytest.raises(ValueError, match="'3 Howell'"):
            night_plan("3 Howell + 1 Danese")

    def test_more_mitchell_rounds_than_tables_are_refused(self):
        # 4 pairs sit at 2 tables: 2 Mitchell rounds meet every EW pair once; a third repeats.
        with pytest.raises(ValueError, match="2 tables make at most 2 Mitchell rounds"):
            PairsNight(pairs=tuple("ABCD"), plan=PLAN, table=FIBUR_3_HANDS)

    def test_a_round_beyond_the_plan_is_refused(self):
        night = PairsNight(pairs=tuple("ABCDEFGH"), plan=PLAN, table=FIBUR_3_HANDS)
        with pytest.raises(ValueError, match="4 rounds, not a 5"):
            night_round(night, [], [], round_number=5)


class TestMitchellRotation:
    """BURRACO-MITCHELL."""

    # Lines: NS 1 3 5 7 at tables 1-4, EW 2 4 6 8 starting at tables 1-4.
    LINES = MitchellLines(ns=(1, 3, 5, 7), ew=(2, 4, 6, 8))

    def test_east_west_move_one_table_up_each_round(self):
        # Round 3: the EW pair that started at table s sits at s + 2 (mod 4): table 1 holds
        # the one from table 3 (6), table 2 from table 4 (8), table 3 from 1 (2), 4 from 2 (4).
        assert mitchell_tables(self.LINES, 3) == (
            TableAssignment(1, 1, 6),
            TableAssignment(2, 3, 8),
            TableAssignment(3, 5, 2),
            TableAssignment(4, 7, 4),
        )

    def test_a_fifth_round_at_four_tables_is_refused(self):
        with pytest.raises(ValueError, match="at most 4 Mitchell rounds"):
            mitchell_tables(self.LINES, 5)

    def test_lines_seating_a_pair_twice_are_refused(self):
        with pytest.raises(ValueError, match="one seat"):
            MitchellLines(ns=(1, 2), ew=(2, 3))


class TestSixteenPairs:
    """16 pairs, "3 Mitchell + 1 Danese", at 3 hands. Lines from the entry order 1-16:
    NS 1 3 5 … 15 at tables 1-8, EW 2 4 6 … 16 starting at tables 1-8.

    Results, the same at a table every Mitchell round (NS's points less EW's): table 1 by
    1600 (20-0), 2 by 1300 (19-1), 3 by 1100 (18-2), 4 by 900 (17-3), 5 by 700 (16-4), 6 by
    600 (15-5), 7 by 400 (14-6), and at table 8 EW win by 300 (13-7 to EW)."""

    NIGHT = PairsNight(pairs=tuple(range(1, 17)), plan=PLAN, table=FIBUR_3_HANDS)
    MARGINS = {1: 1600, 2: 1300, 3: 1100, 4: 900, 5: 700, 6: 600, 7: 400, 8: -300}

    def rounds(self):
        results, byes, played = [], [], []
        for _ in range(4):
            pairs_round = next_round(self.NIGHT, results, byes)
            played.append(pairs_round)
            if pairs_round.kind == MITCHELL:
                results += play(pairs_round, self.MARGINS)
        return played, results

    def test_round_1_seats_each_pair_at_its_starting_table(self):
        played, _ = self.rounds()
        assert seats(played[0]) == [(t, 2 * t - 1, 2 * t) for t in range(1, 9)]

    def test_round_2_moves_every_east_west_pair_one_table_up(self):
        # Table t holds the EW pair that started at t - 1; table 1 the one from table 8 (16).
        played, _ = self.rounds()
        assert seats(played[1]) == [
            (1, 1, 16),
            (2, 3, 2),
            (3, 5, 4),
            (4, 7, 6),
            (5, 9, 8),
            (6, 11, 10),
            (7, 13, 12),
            (8, 15, 14),
        ]

    def test_round_3_moves_them_one_more(self):
        # Table t holds the pair from t - 2: table 1 from 7 (14), table 2 from 8 (16).
        played, _ = self.rounds()
        assert seats(played[2]) == [
            (1, 1, 14),
            (2, 3, 16),
            (3, 5, 2),
            (4, 7, 4),
            (5, 9, 6),
            (6, 11, 8),
            (7, 13, 10),
            (8, 15, 12),
        ]

    def test_the_danese_pairs_by_standing_and_steps_round_a_repeat(self):
        # NS pairs score their table's VP three times: 1: 60, 3: 57, 5: 54, 7: 51, 9: 48,
        # 11: 45, 13: 42, 15: 7 + 7 + 7 = 21.
        # EW pairs visit tables s, s+1, s+2 (losers' VP 0 1 2 3 4 5 6 and 13 at table 8):
        # 2: 0+1+2 = 3, 4: 1+2+3 = 6, 6: 2+3+4 = 9, 8: 3+4+5 = 12, 10: 4+5+6 = 15,
        # 12: 5+6+13 = 24, 14: 6+13+0 = 19, 16: 13+0+1 = 14.
        # Standing: 1 3 5 7 9 11 13 12 15 14 10 16 8 6 4 2 (no ties).
        # 1-3, 5-7, 9-11; then 13 has met 12 (round 2, table 7), so 13 meets the next one
        # down, 15 (NS, never met); 12-14, 10-16, 8-6, 4-2 (EW pairs never met).
        played, _ = self.rounds()
        danese = played[3]
        assert danese.kind == DANESE
        assert seats(danese) == [
            (1, 1, 3),
            (2, 5, 7),
            (3, 9, 11),
            (4, 13, 15),
            (5, 12, 14),
            (6, 10, 16),
            (7, 8, 6),
            (8, 4, 2),
        ]
        assert danese.bye is None


class TestEightPairsWorkedToTheEnd:
    """8 pairs A-H, "3 Mitchell + 1 Danese", 3 hands. NS A C E G at tables 1-4, EW B D F H.

    Round 1: A-B, C-D, E-F, G-H. Round 2 (EW from table t - 1): A-H, C-B, E-D, G-F.
    Round 3 (from t - 2): A-F, C-H, E-B, G-D."""

    NIGHT = PairsNight(pairs=tuple("ABCDEFGH"), plan=PLAN, table=FIBUR_3_HANDS)
    # NS's points less EW's, table by table.
    MARGINS = (
        {1: 300, 2: 0, 3: -600, 4: 40},  # A 13-7 B; C 10-10 D; F 15-5 E; G 10-10 H
        {1: -800, 2: 300, 3: 55, 4: -200},  # H 16-4 A; C 13-7 B; E 11-9 D; F 12-8 G
        {1: 150, 2: -500, 3: 400, 4: 500},  # A 11-9 F; H 14-6 C; E 14-6 B; G 14-6 D
    )

    def mitchell(self):
        results = []
        for margins in self.MARGINS:
            results += play(next_round(self.NIGHT, results, []), margins)
        return results

    def test_the_mitchell_rounds(self):
        results = self.mitchell()
        assert [r.players for r in results] == [
            ("A", "B"),
            ("C", "D"),
            ("E", "F"),
            ("G", "H"),
            ("A", "H"),
            ("C", "B"),
            ("E", "D"),
            ("G", "F"),
            ("A", "F"),
            ("C", "H"),
            ("E", "B"),
            ("G", "D"),
        ]

    def test_standings_after_the_mitchell(self):
        # A 13+4+11 = 28, +300-800+150 = -350; B 7+7+6 = 20, -300-300-400 = -1000;
        # C 10+13+6 = 29, 0+300-500 = -200; D 10+9+6 = 25, 0-55-500 = -555;
        # E 5+11+14 = 30, -600+55+400 = -145; F 15+12+9 = 36, 600+200-150 = 650;
        # G 10+8+14 = 32, 40-200+500 = 340; H 10+16+14 = 40, -40+800+500 = 1260.
        rows = night_standings(self.NIGHT, self.mitchell(), [])
        assert summary(rows) == [
            (1, "H", 40, 1260),
            (2, "F", 36, 650),
            (3, "G", 32, 340),
            (4, "E", 30, -145),
            (5, "C", 29, -200),
            (6, "A", 28, -350),
            (7, "D", 25, -555),
            (8, "B", 20, -1000),
        ]

    def test_the_danese_and_the_final_standings(self):
        results = self.mitchell()
        danese = next_round(self.NIGHT, results, [])
        # H-F (EW, never met), G-E and C-A (NS), D-B (EW).
        assert seats(danese) == [(1, "H", "F"), (2, "G", "E"), (3, "C", "A"), (4, "D", "B")]
        # F beats H by 400 (14-6), E beats G by 100 (11-9), A beats C by 700 (16-4),
        # B beats D by 1100 (18-2).
        results += play(danese, {1: -400, 2: -100, 3: -700, 4: -1100})
        # F 36+14 = 50, 650+400 = 1050; H 40+6 = 46, 1260-400 = 860;
        # A 28+16 = 44, -350+700 = 350; G 32+9 = 41, 340-100 = 240;
        # E 30+11 = 41, -145+100 = -45; B 20+18 = 38, -1000+1100 = 100;
        # C 29+4 = 33, -200-700 = -900; D 25+2 = 27, -555-1100 = -1655.
        # G and E tie on 41 VP: the points difference (240 against -45) puts G above,
        # though E beat G: head to head comes only after the difference.
        rows = night_standings(self.NIGHT, results, [])
        assert summary(rows) == [
            (1, "F", 50, 1050),
            (2, "H", 46, 860),
            (3, "A", 44, 350),
            (4, "G", 41, 240),
            (5, "E", 41, -45),
            (6, "B", 38, 100),
            (7, "C", 33, -900),
            (8, "D", 27, -1655),
        ]
        assert rows[3].tiebreak == "points_difference"
        # Every match gives 20 VP: 16 matches, 320 in all; the differences cancel out.
        assert sum(row.victory_points for row in rows) == 320
        assert sum(row.points_difference for row in rows) == 0


class TestTiesAtFourPairs:
    """4 pairs, "2 Mitchell": NS A C, EW B D. Round 1 A-B, C-D; round 2 A-D, C-B.
    BURRACO-STANDINGS: VP, then points difference, then head to head."""

    NIGHT = PairsNight(pairs=tuple("ABCD"), plan=night_plan("2 Mitchell"), table=FIBUR_3_HANDS)

    def night(self, first, second):
        round_1 = next_round(self.NIGHT, [], [])
        results = play(round_1, first)
        return results + play(next_round(self.NIGHT, results, []), second)

    def test_head_to_head_parts_pairs_level_on_vp_and_difference(self):
        # A beats B by 30, C-D 0: all 10-10 (0-50). Round 2: D beats A by 30, B beats C by
        # 30: 10-10 again. All on 20 VP; differences A +30-30 = 0, B -30+30 = 0, C 0-30 = -30,
        # D 0+30 = +30. D first, C last; A and B level: A beat B, so A is 2nd.
        rows = night_standings(self.NIGHT, self.night({1: 30, 2: 0}, {1: -30, 2: -30}), [])
        assert summary(rows) == [
            (1, "D", 20, 30),
            (2, "A", 20, 0),
            (3, "B", 20, 0),
            (4, "C", 20, -30),
        ]
        assert rows[1].tiebreak == "head_to_head"

    def test_pairs_level_on_everything_share_the_place(self):
        # A beats B by 30, C-D 0; round 2: A-D 0, C-B 0. A +30, B -30, C and D 0 on 20 VP:
        # C and D drew their match, so nothing parts them: both 2nd, B 4th.
        rows = night_standings(self.NIGHT, self.night({1: 30, 2: 0}, {1: 0, 2: 0}), [])
        assert summary(rows) == [
            (1, "A", 20, 30),
            (2, "C", 20, 0),
            (2, "D", 20, 0),
            (4, "B", 20, -30),
        ]


class TestSevenPairs:
    """7 pairs A-G, "3 Mitchell + 1 Danese": NS A C E and the phantom at table 4 (the rest
    table), EW B D F G; G starts at table 4. Every match NS by 100 (11-9); a bye 12 VP
    (BURRACO-BYE)."""

    NIGHT = PairsNight(pairs=tuple("ABCDEFG"), plan=PLAN, table=FIBUR_3_HANDS)

    def test_the_pair_reaching_the_rest_table_sits_out(self):
        results, byes, rounds = [], [], []
        for _ in range(3):
            pairs_round = next_round(self.NIGHT, results, byes)
            rounds.append(pairs_round)
            results += play(pairs_round, dict.fromkeys(range(1, 5), 100))
            byes += pairs_round.byes()
        # Round 1: G at table 4. Round 2: table 4 takes the pair from table 3, F; table 1 G.
        # Round 3: table 4 takes the pair from table 2, D; table 1 F, 2 G, 3 B.
        assert [(seats(r), r.bye) for r in rounds] == [
            ([(1, "A", "B"), (2, "C", "D"), (3, "E", "F")], "G"),
            ([(1, "A", "G"), (2, "C", "B"), (3, "E", "D")], "F"),
            ([(1, "A", "F"), (2, "C", "G"), (3, "E", "B")], "D"),
        ]
        # A, C, E 33 VP (+300) never met: they share 1st. D 9+9+12, F 9+12+9, G 12+9+9: 30
        # (-200), never met: they share 4th. B 27 (-300).
        rows = night_standings(self.NIGHT, results, byes)
        assert [(row.rank, row.player, row.victory_points) for row in rows] == [
            (1, "A", 33),
            (1, "C", 33),
            (1, "E", 33),
            (4, "D", 30),
            (4, "F", 30),
            (4, "G", 30),
            (7, "B", 27),
        ]
        # Danese: ranked A C E D F G B (ties in entry order); the bye to the lowest without
        # one: B. A-C; E has met D (round 2) and F (round 1), so E-G; D-F.
        danese = next_round(self.NIGHT, results, byes)
        assert (seats(danese), danese.bye) == ([(1, "A", "C"), (2, "E", "G"), (3, "D", "F")], "B")


class TestAPairWithdraws:
    """8 pairs A-H as TestEightPairsWorkedToTheEnd; D leaves after round 1. Every match NS
    by 100 (11-9); a walkover scores a bye's 12 VP but is no bye."""

    NIGHT = PairsNight(pairs=tuple("ABCDEFGH"), plan=PLAN, table=FIBUR_3_HANDS)

    def test_the_pair_that_left_is_paired_no_more_and_the_rest_still_pair(self):
        results, byes, rounds = [], [], []
        for number in range(1, 5):
            withdrawn = {"D"} if number > 1 else set()
            pairs_round = next_round(self.NIGHT, results, byes, withdrawn=withdrawn)
            rounds.append(pairs_round)
            results += play(pairs_round, dict.fromkeys(range(1, 5), 100))
            byes += pairs_round.byes()
        # Round 2 would seat E-D at table 3: E has a walkover; round 3 G-D: G has one.
        assert (seats(rounds[1]), rounds[1].walkovers) == (
            [(1, "A", "H"), (2, "C", "B"), (4, "G", "F")],
            ("E",),
        )
        assert (seats(rounds[2]), rounds[2].walkovers) == (
            [(1, "A", "F"), (2, "C", "H"), (3, "E", "B")],
            ("G",),
        )
        # After round 3: E 11+12+11 = 34 and G 11+11+12 = 34 (+200, never met: share 1st);
        # A, C 33 (+300); B, F, H 27 (-300); D 9. Present, ranked: E G A C B F H; 7 pairs:
        # the bye to the lowest that has had none (walkovers are none): H. E-G, A-C, B-F.
        assert (seats(rounds[3]), rounds[3].bye) == (
            [(1, "E", "G"), (2, "A", "C"), (3, "B", "F")],
            "H",
        )
        rows = night_standings(self.NIGHT, results, byes)
        assert rows[-1].player == "D"
        assert rows[-1].played == 1


class TestADaneseBetweenMitchellRounds:
    """8 pairs A-H, "1 Mitchell + 1 Danese + 1 Mitchell": round 1 A-B, C-D, E-F, G-H;
    round 3 is the second rotation, A-H, C-B, E-D, G-F, fixed from the start."""

    NIGHT = PairsNight(
        pairs=tuple("ABCDEFGH"),
        plan=night_plan("1 Mitchell + 1 Danese + 1 Mitchell"),
        table=FIBUR_3_HANDS,
    )

    def test_the_danese_keeps_apart_pairs_the_next_mitchell_brings_together(self):
        # Round 1: A by 1600 (20-0), C by 1300 (19-1), E by 1100 (18-2), H beats G by 900
        # (17-3). Ranked A 20, C 19, E 18, H 17, G 3, F 2, D 1, B 0. A-C, E-H; G has met H
        # and meets F in round 3, so G-D; then F-B.
        results = play(next_round(self.NIGHT, [], []), {1: 1600, 2: 1300, 3: 1100, 4: -900})
        danese = next_round(self.NIGHT, results, [])
        assert seats(danese) == [(1, "A", "C"), (2, "E", "H"), (3, "G", "D"), (4, "F", "B")]
        third = night_round(self.NIGHT, results, [], round_number=3)
        assert seats(third) == [(1, "A", "H"), (2, "C", "B"), (3, "E", "D"), (4, "G", "F")]


class TestDaneseRule:
    """BURRACO-DANESE."""

    def test_a_repeat_at_the_bottom_sends_the_search_back_a_step(self):
        # Ranked 1 2 3 4 5 6; 5 and 6 have met. 1-2 and 3-4 would leave 5-6, a repeat, so
        # 3 meets the next one down instead, 5; then 4-6. 1-2 stands.
        pairing = danese_round([1, 2, 3, 4, 5, 6], {frozenset((5, 6))}, {}, round_number=4)
        assert pairing.tables == ((1, 2), (3, 5), (4, 6))

    def test_the_bye_goes_up_past_pairs_that_have_had_one(self):
        # 5 pairs, the last two have had a bye: 3 takes it; 1-2, 4-5.
        pairing = danese_round([1, 2, 3, 4, 5], set(), {4: 1, 5: 1}, round_number=2)
        assert (pairing.tables, pairing.bye) == (((1, 2), (4, 5)), 3)

    def test_a_field_that_has_met_everyone_plays_the_fewest_repeats(self):
        # 4 pairs who have all met: any pairing repeats twice; the closest is 1-2, 3-4.
        met = {frozenset(p) for p in ((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))}
        pairing = danese_round([1, 2, 3, 4], met, {}, round_number=4)
        assert pairing.tables == ((1, 2), (3, 4))


def test_the_byes_of_a_round_are_what_the_night_records():
    night = PairsNight(pairs=tuple("ABCDEFG"), plan=PLAN, table=FIBUR_3_HANDS)
    assert next_round(night, [], []).byes() == [Bye(1, "G")]
    assert night.scale.bye == Fraction(12)
