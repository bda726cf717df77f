"""The "Club nights" rules (docs/rules.md, NIGHT-*) on cases small enough to work by hand.

Every expected value below is worked out from the rule's text, as its comment shows, not
read off the code.
"""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from scoring.events import POINTS_ADJUSTED, RESULT_CONFIRMED, TABLE_DECIDED, LogEvent
from scoring.ratings import ratings_over
from scoring.tournaments.bracket import advance, first_round
from scoring.tournaments.ranking import by_stage, tournament_standings
from scoring.tournaments.results import (
    Bye,
    ByPlace,
    MarginBands,
    TableResult,
    WinDrawLoss,
    victory_points,
)
from scoring.tournaments.round_robin import round_among, round_robin
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import swiss_round
from scoring.tournaments.tables import table_result
from tests.payloads import quick
from tests.scoring.standings_seasons import summary, table
from tests.scoring.test_replay_games import hand, log, rec, refused, seat

WDL = WinDrawLoss()


def result(round_number, players, places, margins=None, decided=()):
    margins = margins or [0] * len(players)
    return TableResult(
        round_number,
        tuple(players),
        tuple(places),
        tuple(Fraction(m) for m in margins),
        tuple(Fraction(d) for d in decided),
    )


def won(round_number, winner, loser, margin=10):
    return result(round_number, (winner, loser), (1, 2), (margin, -margin))


def rows_by_player(rows):
    return {row.player: row for row in rows}


class TestBands:
    @pytest.mark.parametrize(
        ("margin", "points"),
        [
            (0, (10, 10)),
            (1, (12, 8)),
            (49, (12, 8)),
            (50, (14, 6)),
            (77, (14, 6)),  # 137 to 60
            (199, (16, 4)),
            (200, (18, 2)),
            (299, (18, 2)),
            (300, (20, 0)),
            (950, (20, 0)),
        ],
    )
    def test_the_banded_scale_runs_from_10_10_to_20_0(self, margin, points):
        """NIGHT-BANDS: 0 gives 10-10, 1-49 12-8, 50-99 14-6, 100-199 16-4, 200-299 18-2,
        300 and more 20-0; each pair adds up to 20."""
        places = (1, 1) if margin == 0 else (1, 2)
        table_ = result(1, "AB", places, (margin, -margin))
        assert victory_points(table_, MarginBands()) == {"A": points[0], "B": points[1]}
        assert MarginBands().bye == 14


class TestSharedPlace:
    def test_two_share_second_and_three_share_a_table_of_three(self):
        """NIGHT-SHARED-PLACE: 310, 250, 250, 120 give 4, 3/2, 3/2, 0; three level at a
        table of three share 4 + 2 + 1."""
        four = result(1, "ABCD", (1, 2, 2, 4))
        assert victory_points(four, ByPlace()) == {
            "A": 4,
            "B": Fraction(3, 2),
            "C": Fraction(3, 2),
            "D": 0,
        }
        three = result(1, "ABC", (1, 1, 1))
        assert set(victory_points(three, ByPlace()).values()) == {Fraction(7, 3)}


class TestByeAndBuchholz:
    def test_a_bye_adds_nobody_to_its_player_s_buchholz_but_counts_in_the_opponents(self):
        """NIGHT-BYE: I has the bye in round 1 (3 VP), then loses to A (A on 3 + 3 = 6)."""
        rows = rows_by_player(
            tournament_standings(
                ["A", "B", "I"],
                [won(1, "A", "B"), won(2, "A", "I")],
                [Bye(1, "I")],
                WDL,
            )
        )
        # I: 3 VP from the bye, met only A (6 VP): Buchholz 6. A met B (0) and I (3): 3.
        assert (rows["I"].victory_points, rows["I"].buchholz) == (3, 6)
        assert (rows["I"].played, rows["I"].byes) == (1, 1)
        assert rows["A"].buchholz == 3

    def test_every_table_mate_counts_once_a_table_shared(self):
        """NIGHT-BUCHHOLZ: P sat with A, B, C then with A, D, E; A 6, B 4, C 1, D 5, E 0:
        6 + 4 + 1 + 6 + 5 + 0 = 22."""
        # ByPlace 4-2-1-0. A 4 + 2 = 6, B 2 + 2 = 4, C 0 + 1 = 1, D 4 + 1 = 5, E 0 + 0 = 0.
        results = [
            result(1, "ABPC", (1, 2, 3, 4)),  # A 4, B 2, P 1, C 0
            result(2, "DAPE", (1, 2, 3, 4)),  # D 4, A 2, P 1, E 0
            result(3, "XBCY", (1, 2, 3, 4)),  # X 4, B 2, C 1, Y 0
            result(3, "ZWDE", (1, 2, 3, 4)),  # Z 4, W 2, D 1, E 0
        ]
        players = list("ABCDEPWXYZ")
        rows = rows_by_player(tournament_standings(players, results, [], ByPlace()))
        assert [rows[p].victory_points for p in "ABCDE"] == [6, 4, 1, 5, 0]
        assert rows["P"].buchholz == 22


class TestPointsDifference:
    def test_rummy40_turns_the_sign_so_that_better_is_positive(self):
        """NIGHT-DIFFERENCE: Wes out (0), Xia 2, Yan 5, Zoe joker 25 + a failed opening 20
        = 45. Wes: for 0, against (2 + 5 + 45) / 3 = 52/3, so +52/3; Zoe: 45 against 7/3,
        so -(45 - 7/3) = -128/3."""
        state = table(
            "rummy40",
            ["wes", "xia", "yan", "zoe"],
            {"target": 1},
            rec(hand(seat(went_out=True), seat("2D"), seat("5C"), seat("JK", opening_penalty=1))),
        )
        read = table_result(state, ["wes", "xia", "yan", "zoe"], round_number=1)
        assert read.places == (1, 2, 3, 4)
        assert read.margins[0] == Fraction(52, 3)
        assert read.margins[3] == -Fraction(128, 3)

    def test_a_void_table_counts_no_points_difference(self):
        """NIGHT-DIFFERENCE, NIGHT-LOCK: a Gin hand of 25 + 30 = 55, then the director
        voids the table: 0 VP and 0 difference each. Locked instead, +55 and -55."""
        entries = [rec(quick(0, "gin", 0, 30))]
        voided = table("gin", ["ann", "bob"], {"target": 100}, *entries, _decided("void"))
        read = table_result(voided, ["ann", "bob"], round_number=1)
        assert read.decided == (0, 0) and read.margins == (0, 0)
        locked = table("gin", ["ann", "bob"], {"target": 100}, *entries, _decided("lock"))
        read = table_result(locked, ["ann", "bob"], round_number=1)
        assert (read.places, read.margins, read.decided) == ((1, 2), (55, -55), ())
        assert victory_points(read, MarginBands()) == {"ann": 14, "bob": 6}


def _decided(decision, **more):
    return (TABLE_DECIDED, {"decision": decision, "reason": "time", **more})


class TestLock:
    def test_a_table_locked_at_0_0_before_any_hand_is_a_draw(self):
        """NIGHT-LOCK: equal totals share the place: a draw, 1 VP each on 3-1-0, 10-10 on
        the bands; at a table of three, 7/3 each."""
        locked = table("gin", ["ann", "bob"], {"target": 100}, _decided("lock"))
        read = table_result(locked, ["ann", "bob"], round_number=1)
        assert read.places == (1, 1)
        assert victory_points(read, WDL) == {"ann": 1, "bob": 1}
        assert victory_points(read, MarginBands()) == {"ann": 10, "bob": 10}
        three = table("ramino", ["ann", "bob", "cat"], {"hands": 1}, _decided("lock"))
        read = table_result(three, ["ann", "bob", "cat"], round_number=1)
        assert set(victory_points(read, ByPlace()).values()) == {Fraction(7, 3)}
        rows = tournament_standings(["ann", "bob", "cat"], [read], [], ByPlace())
        assert all(row.played == 1 and len(row.opponents) == 2 for row in rows)


class TestHeadToHead:
    PLAYERS = list("ABCDEF")

    def test_three_tied_players_go_by_their_net_of_meetings(self):
        """NIGHT-TIEBREAK: A beat B and C, B beat C: nets +2, 0, -2."""
        # VP: A 6, B 3, C 0 from the meetings; to level them, B and C win elsewhere:
        # B beats D; C beats D and E. A 6, B 6, C 6 with two wins each.
        meetings = [won(1, "A", "B"), won(2, "A", "C"), won(3, "B", "C")]
        others = [won(4, "B", "D"), won(4, "C", "E"), won(5, "C", "F")]
        rows = tournament_standings(self.PLAYERS, meetings + others, [], WDL)
        top = [row for row in rows if row.victory_points == 6]
        assert [row.player for row in top] == ["A", "B", "C"]
        # Buchholz: A met B, C (6 + 6) = 12; B met A, C, D (6 + 6 + 0) = 12; C met A, B, E,
        # F = 12: level, so head to head placed them.
        assert {row.buchholz for row in top} == {12}
        assert [row.tiebreak for row in top] == ["head_to_head", "head_to_head", None]

    def test_a_cycle_leaves_them_level_for_the_points_difference(self):
        """NIGHT-TIEBREAK: A beat B by 50, B beat C by 30, C beat A by 20: nets all 0, so
        the points difference decides: A +30, C -10, B -20."""
        meetings = [won(1, "A", "B", 50), won(2, "B", "C", 30), won(3, "C", "A", 20)]
        rows = tournament_standings(["A", "B", "C"], meetings, [], WDL)
        # 3 VP and Buchholz 6 each. Differences: A +50 - 20, B -50 + 30, C -30 + 20.
        assert {row.buchholz for row in rows} == {6}
        assert [(row.player, row.points_difference) for row in rows] == [
            ("A", 30),
            ("C", -10),
            ("B", -20),
        ]
        assert [row.tiebreak for row in rows] == ["points_difference", "points_difference", None]

    def test_at_a_decided_table_the_points_given_place_them(self):
        """NIGHT-TIEBREAK: B was first on the totals, but the director gave A the win (3-0);
        B then beat C. A and B: 3 VP, Buchholz 3 each; head to head A. A void table (0-0)
        places neither."""
        decided = result(1, "AB", (2, 1), (-10, 10), decided=(3, 0))
        rows = tournament_standings(list("ABC"), [decided, won(2, "B", "C")], [], WDL)
        assert [(row.player, row.victory_points, row.buchholz) for row in rows[:2]] == [
            ("A", 3, 3),
            ("B", 3, 3),
        ]
        assert rows[0].tiebreak == "head_to_head"
        void = result(1, "AB", (2, 1), (0, 0), decided=(0, 0))
        rows = tournament_standings(list("AB"), [void], [], WDL)
        assert [row.rank for row in rows] == [1, 1]


class TestSeating:
    """NIGHT-SEATING: among the seatings with the fewest repeats, the most even by points."""

    ROUND_1 = [("P1", "P6", "P7", "P12"), ("P2", "P5", "P8", "P11"), ("P3", "P4", "P9", "P10")]

    @pytest.mark.parametrize(
        "places",
        [
            ((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)),
            ((1, 2, 3, 4), (1, 2, 3, 4), (1, 3, 2, 4)),
        ],
    )
    def test_twelve_players_after_round_1_sit_at_tables_of_7_points_each(self, places):
        # Every round-1 table gives 4, 2, 1 and 0. A new table of four draws on three old
        # tables, so holds at least one pair who met: 3 repeats at least, and exactly 3
        # when each table takes one pair. Tables {4a, 0a, 2b, 1c}, {4b, 0b, 2c, 1a} and
        # {4c, 0c, 2a, 1b} have one pair each and 7 points each: that is the seating.
        results = [
            result(1, players, order) for players, order in zip(self.ROUND_1, places, strict=True)
        ]
        points = {}
        for table_ in results:
            points.update(victory_points(table_, ByPlace()))
        order = sorted(points, key=lambda p: (-points[p], int(p[1:])))
        met = met_counts(results)
        pairing = seat_round(
            order, met, round_number=2, size=4, smallest=3, largest=6, points=points
        )
        repeats = sum(
            met[frozenset(pair)] for t in pairing.tables for pair in itertools.combinations(t, 2)
        )
        assert repeats == 3
        assert [sum(points[p] for p in t) for t in pairing.tables] == [7, 7, 7]

    @pytest.mark.parametrize("night", range(8))
    def test_nine_players_sit_as_evenly_as_any_seating_with_as_few_repeats(self, night):
        """NIGHT-SEATING against every seating of nine players at three tables of three (280
        of them): none has fewer repeats, nor as few and a smaller imbalance (the sum of the
        squared distances between the tables' mean VP and the field's)."""
        draw = random.Random(night)
        players, results = [f"P{n}" for n in range(1, 10)], []
        points = dict.fromkeys(players, Fraction(0))
        for number in range(1, 5):
            order = sorted(players, key=lambda p: (-points[p], int(p[1:])))
            met = met_counts(results)
            pairing = seat_round(
                order, met, round_number=number, size=3, smallest=3, largest=6, points=points
            )
            if number > 1:
                best = min(_seating_cost(t, met, points) for t in _seatings(players, 3))
                assert _seating_cost(pairing.tables, met, points) == best
            for table_ in pairing.tables:
                places = [1, 2, 3]
                draw.shuffle(places)
                played = result(number, table_, places)
                results.append(played)
                for player, vp in victory_points(played, ByPlace()).items():
                    points[player] += vp


def _seatings(players, size):
    """Every way to split ``players`` into tables of ``size`` (tables unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for more in _seatings(left, size):
            yield [(first, *mates), *more]


def _seating_cost(tables, met, points):
    """(repeats, each pair's meetings squared; imbalance), exact."""
    pairs = [frozenset(pair) for t in tables for pair in itertools.combinations(t, 2)]
    repeats = sum(met[pair] ** 2 for pair in pairs)
    mean = Fraction(sum(points.values()), len(points))
    imbalance = sum((Fraction(sum(points[p] for p in t), len(t)) - mean) ** 2 for t in tables)
    return repeats, imbalance


class TestKnockOut:
    def test_a_level_match_holds_the_bracket_until_the_director_scores_it(self):
        """NIGHT-KO-DRAW: seeds 1-4 of four: A-D and B-C. A-D ends level (no winner):
        no next round; the walkover of a player who left decides it."""
        matches = first_round(list("ABCD"))
        assert matches == [("A", "D"), ("B", "C")]
        assert advance(matches, {1: "B"}) is None
        assert advance(matches, {1: "B"}, withdrawn={"D"}) == [("A", "B")]
        assert advance(matches, {1: "B"}, withdrawn={"A", "D"}) == [(None, "B")]


class TestWithdrawnInARoundRobin:
    def test_the_scheduled_opponent_of_a_withdrawn_player_scores_a_bye(self):
        """NIGHT-WITHDRAW: four players, D leaves after round 1; in round 2 D was to meet
        B, so B has a walkover worth the bye's 3 VP while A and C play."""
        schedule = round_robin(list("ABCD"))
        planned = schedule[1]
        assert {frozenset(t) for t in planned.tables} == {frozenset("BD"), frozenset("AC")}
        played = round_among(planned, {"A", "B", "C"})
        assert [set(t) for t in played.tables] == [{"A", "C"}]
        assert played.walkovers == ("B",) and played.bye is None
        # Round 1: A-D and C-B as the circle pairs them; A and B win.
        round_1 = [won(1, "A", "D"), won(1, "B", "C")]
        round_2 = [won(2, "A", "C")]
        byes = [Bye(2, player) for player in played.walkovers]
        rows = rows_by_player(tournament_standings(list("ABCD"), round_1 + round_2, byes, WDL))
        assert (rows["B"].victory_points, rows["B"].played, rows["B"].byes) == (6, 1, 1)
        assert (rows["D"].victory_points, rows["D"].played) == (0, 1)
        # D's points stand in A's Buchholz: A met D (0) and C (0).
        assert rows["A"].buchholz == 0

    def test_when_both_have_left_nobody_scores(self):
        """NIGHT-WITHDRAW: B and D both gone: no table, no walkover for that pair."""
        played = round_among(round_robin(list("ABCD"))[1], {"A", "C"})
        assert played.walkovers == ()


class TestRatings:
    def test_two_new_players_start_at_25_and_move_by_the_model_s_step(self):
        """NIGHT-RATING: prior mean 25, deviation 25/3, shown 25 - 3 x 25/3 = 0. Before the
        match each variance widens by tau^2: v = (25/3)^2 + (25/300)^2; with
        c = sqrt(2 (v + (25/6)^2)), the winner's mean rises by v / c x 1/2 (each had an
        even chance) and the loser's falls as much."""
        win = summary(
            "rummy40", ["wes", "xia"], {"target": 1}, rec(hand(seat(went_out=True), seat("7H")))
        )
        history = ratings_over([win])
        assert history.initial.mu == 25
        assert history.initial.sigma == pytest.approx(25 / 3)
        assert history.initial.conservative == pytest.approx(0)
        v = (25 / 3) ** 2 + (25 / 300) ** 2
        c = (2 * (v + (25 / 6) ** 2)) ** 0.5
        step = v / c / 2  # about 2.64
        assert history.get("wes").current.mu == pytest.approx(25 + step)
        assert history.get("xia").current.mu == pytest.approx(25 - step)


class TestGameQuestions:
    def test_a_rummy40_hand_is_won_by_who_went_out_though_they_score_more(self):
        """R40-END: Wes goes out with a failed opening (20), Xia is caught holding 7: Wes
        wins the hand, Xia (7 against 20) the one-hand match."""
        m = summary(
            "rummy40",
            ["wes", "xia"],
            {"target": 1},
            rec(hand(seat(went_out=True, opening_penalty=1), seat("7H"))),
        )
        assert m.totals == (20, 7)
        wes, xia = m.seats
        assert (wes.hands_won, xia.hands_won) == (1, 0)
        assert (wes.place, xia.place) == (2, 1)

    def test_a_gin_wall_is_not_a_hand_played(self):
        """GIN-WALL: a wall, then a gin 25 + 30 in a one-hand match: one hand played."""
        m = summary(
            "gin",
            ["ann", "bob"],
            {"target": 1},
            rec({"mode": "quick", "ending": "wall"}),
            rec(quick(0, "gin", 0, 30)),
        )
        assert m.hands == 1
        assert m.totals == (55, 0)
        assert [s.hands_won for s in m.seats] == [1, 0]


class TestPlayersKeptApart:
    """NIGHT-APART: pairs the director keeps apart, worked by hand."""

    def test_a_swiss_first_round_pairs_the_closest_pairing_that_keeps_them_apart(self):
        # Drawn order Anna, Bruno, Carla, Dario (the seed): 1st-2nd and 3rd-4th cost
        # 1 + 1 = 2, 1st-3rd and 2nd-4th 4 + 4 = 8, 1st-4th and 2nd-3rd 9 + 1 = 10. With
        # Anna and Bruno apart, the first is out: Anna-Carla and Bruno-Dario.
        players = ["Anna", "Bruno", "Carla", "Dario"]
        plain = swiss_round(players, [], [], WDL, round_number=1, seed=0)
        order = [p for table_ in plain.tables for p in table_]
        first, second, third, fourth = order
        apart = {frozenset((first, second))}
        kept = swiss_round(players, [], [], WDL, round_number=1, seed=0, apart=apart)
        assert {frozenset(t) for t in kept.tables} == {
            frozenset((first, third)),
            frozenset((second, fourth)),
        }

    def test_a_pair_kept_apart_outweighs_a_rematch(self):
        # Four players after two rounds: A-C, B-D, then A-D, B-C. Round 3's only pairing
        # with no rematch is A-B with C-D, but A and B are kept apart: two rematches are
        # the lesser evil.
        results = [
            result(1, ("A", "C"), (1, 2)),
            result(1, ("B", "D"), (1, 2)),
            result(2, ("A", "D"), (1, 2)),
            result(2, ("B", "C"), (1, 2)),
        ]
        plain = swiss_round(["A", "B", "C", "D"], results, [], WDL, round_number=3, seed=1)
        assert {frozenset(t) for t in plain.tables} == {frozenset("AB"), frozenset("CD")}
        apart = {frozenset(("A", "B"))}
        kept = swiss_round(
            ["A", "B", "C", "D"], results, [], WDL, round_number=3, seed=1, apart=apart
        )
        assert frozenset("AB") not in {frozenset(t) for t in kept.tables}

    def test_at_tables_of_three_they_sit_at_different_tables_from_the_first_round(self):
        # Six players dealt down and back up two tables: 1st, 4th, 5th at table 1 and 2nd,
        # 3rd, 6th at table 2. P1 and P4 kept apart must part.
        order = [f"P{n}" for n in range(1, 7)]
        plain = seat_round(order, Counter(), round_number=1, size=3, smallest=3, largest=6)
        assert ("P1", "P4", "P5") in plain.tables
        apart = {frozenset(("P1", "P4"))}
        kept = seat_round(
            order, Counter(), round_number=1, size=3, smallest=3, largest=6, apart=apart
        )
        assert not any({"P1", "P4"} <= set(t) for t in kept.tables)
        assert sorted(len(t) for t in kept.tables) == [3, 3]

    def test_when_no_seating_can_part_them_they_sit_together(self):
        # Three players at one table of three: there is no other seating.
        apart = {frozenset(("P1", "P2"))}
        kept = seat_round(
            ["P1", "P2", "P3"],
            Counter(),
            round_number=1,
            size=3,
            smallest=3,
            largest=6,
            apart=apart,
        )
        assert kept.tables == (("P1", "P2", "P3"),)


def _adjusted(seat, points, reason="late"):
    return (POINTS_ADJUSTED, {"seat": seat, "points": points, "reason": reason})


class TestAdjustments:
    """NIGHT-ADJUST, worked by hand."""

    def test_a_latecomer_s_penalty_moves_the_total_not_the_winner(self):
        # GIN-SCORE-GIN: Ann goes gin against Bob's 30: 25 + 30 = 55, past the target of 50.
        # Late, she loses 25: 30 to 0. Still first; her margin is 30 - 0 = 30.
        state = table(
            "gin",
            ["ann", "bob"],
            {"preset": "classic", "target": 50},
            rec(quick(0, "gin", 0, 30)),
            _adjusted(0, -25),
        )
        assert state.totals == (30, 0) and state.finished and state.match.winner == 0
        assert len(state.counted) == 1  # no hand was added
        read = table_result(state, ["ann", "bob"], round_number=1)
        assert read.places == (1, 2) and read.margins == (30, -30)

    def test_at_a_ramino_table_of_four_the_points_difference_follows_the_adjusted_totals(self):
        """RAM-SCORE: Ann goes out; Bob holds 10, Cid 20, Dan 30: Ann collects 60, the others
        lose theirs (60, -10, -20, -30; Ramino's difference is gained less lost, the same).
        Late, Ann loses 25: 35, -10, -20, -30, still first. NIGHT-ADJUST: each difference
        moves as the adjustment moves that total against the others' average. Ann: 35 + 20 =
        55 against 60 + 20 = 80 before, -25: 60 - 25 = 35. Bob: -10 + 5 = -5 against
        -10 - 10/3 = -40/3 before, +25/3: -10 + 25/3 = -5/3; Cid -20 + 25/3 = -35/3; Dan
        -30 + 25/3 = -65/3. The differences still add up to 0."""
        players = ["ann", "bob", "cid", "dan"]
        entry = {
            "mode": "points",
            "players": [
                {"points": 0, "went_out": True},
                {"points": 10},
                {"points": 20},
                {"points": 30},
            ],
        }
        state = table("ramino", players, {"hands": 1}, rec(entry), _adjusted(0, -25))
        assert state.totals == (35, -10, -20, -30) and state.finished
        read = table_result(state, players, round_number=1)
        assert read.places == (1, 2, 3, 4)
        assert read.margins == (35, Fraction(-5, 3), Fraction(-35, 3), Fraction(-65, 3))
        unadjusted = table("ramino", players, {"hands": 1}, rec(entry))
        assert table_result(unadjusted, players, round_number=1).margins == (60, -10, -20, -30)

    def test_at_a_locked_table_the_places_follow_the_adjusted_totals(self):
        # GIN-SCORE-KNOCK: Ann knocks with 2 against 12: 10 to 0. Locked when time is up,
        # then Ann loses 15 for lateness: -5 to 0, Bob first by 5.
        state = table(
            "gin",
            ["ann", "bob"],
            {"preset": "classic", "target": 100},
            rec(quick(0, "knock", 2, 12)),
            _decided("lock"),
            _adjusted(0, -15),
        )
        read = table_result(state, ["ann", "bob"], round_number=1)
        assert state.totals == (-5, 0)
        assert read.places == (2, 1) and read.margins == (-5, 5)
        assert victory_points(read, WDL) == {"ann": 0, "bob": 3}

    def test_an_adjustment_counts_no_hand_of_a_match_of_so_many_hands(self):
        # Ramino of one hand: a penalty before it is no hand, so the match is still to play.
        state = table("ramino", ["ann", "bob"], {"hands": 1}, _adjusted(1, 20, "abuse"))
        assert not state.finished and state.totals == (0, 20) and state.hands == ()

    def test_the_players_confirm_again_after_an_adjustment(self):
        state = table(
            "gin",
            ["ann", "bob"],
            {"preset": "classic", "target": 50},
            rec(quick(0, "gin", 0, 30)),
            (RESULT_CONFIRMED, {"seat": 0}),
            _adjusted(1, 5, "slow play"),
        )
        assert state.confirmed == ()
        assert state.to_dict()["adjustments"] == [
            {"seq": 4, "seat": 1, "points": 5, "reason": "slow play"}
        ]

    @pytest.mark.parametrize(
        ("payload", "field"),
        [
            ({"seat": 0, "points": 0, "reason": "late"}, "points"),
            ({"seat": 0, "points": 1001, "reason": "late"}, "points"),
            ({"seat": 2, "points": -5, "reason": "late"}, "seat"),
            ({"seat": 0, "points": -5, "reason": ""}, "reason"),
            ({"seat": 0, "points": -5, "reason": "late", "extra": 1}, "extra"),
        ],
    )
    def test_a_bad_adjustment_is_refused_naming_its_field(self, payload, field):
        events = log("gin", ["Ann", "Bob"], {"preset": "classic", "target": 50})
        violations = refused(events, LogEvent(2, POINTS_ADJUSTED, payload))
        assert violations[0].params.get("field") == field


class TestRaminoLateness:
    """NIGHT-ADJUST at a Ramino table of four: the points difference follows the adjusted
    totals, as the places and VP do."""

    def test_a_lateness_penalty_moves_places_vp_and_the_points_difference(self):
        # One hand: seat 0 goes out, the others hold 10, 20 and 30 (RAM-SCORE: +60, -10,
        # -20, -30). Ann (seat 0) came late: a penalty of 75 leaves her on -15, so the
        # places are bob 1st (-10), ann 2nd (-15), cat 3rd (-20), dan 4th (-30), worth
        # 4, 2, 1 and 0 VP. Points differences (gained less lost: 60, -10, -20, -30 before
        # the penalty) move as the penalty moves each total against the others' average:
        # ann's by -75, each other's by +75/3 = 25: ann -15, bob 15, cat 5, dan -5.
        hand = [{"points": 0, "went_out": True}, *({"points": p} for p in (10, 20, 30))]
        state = table(
            "ramino",
            ["ann", "bob", "cat", "dan"],
            {"hands": 1},
            rec({"mode": "points", "players": hand}),
            _adjusted(0, -75),
        )
        read = table_result(state, ["ann", "bob", "cat", "dan"], round_number=1)
        assert state.finished and state.totals == (-15, -10, -20, -30)
        assert read.places == (2, 1, 3, 4)
        assert read.margins == (-15, 15, 5, -5)
        assert victory_points(read, ByPlace()) == {"ann": 2, "bob": 4, "cat": 1, "dan": 0}

    def test_a_gin_adjustment_is_counted_once(self):
        # Gin, 50 up: ann goes gin against 30 (GIN-SCORE-GIN: 25 + 30 = 55), then both get
        # a penalty of 10: 45 to -10, a margin of 55 still for ann, -55 for bob.
        state = table(
            "gin",
            ["ann", "bob"],
            {"preset": "classic", "target": 50},
            rec(quick(0, "gin", 0, 30)),
            _adjusted(0, -10),
            _adjusted(1, -10),
        )
        read = table_result(state, ["ann", "bob"], round_number=1)
        assert state.totals == (45, -10)
        assert read.margins == (55, -55)


class TestLatecomerAndWalkover:
    def test_the_bye_skips_a_player_joining_this_round(self):
        """NIGHT-LATE: round 1 A beat B by 10, C beat D by 40; E joins for round 2. On 0 VP
        B, D and E are lowest, E last (no table); the bye skips E, who joins now, and goes
        to the lowest of the others: D (Buchholz 3 like B, points difference -40 against
        -10). Left C, A, B, E by the standings (C's difference 40 above A's 10): C-A and
        B-E, no rematch and a sum of 1 + 1."""
        results = [won(1, "A", "B", 10), won(1, "C", "D", 40)]
        pairing = swiss_round("ABCDE", results, [], WDL, round_number=2, seed=3)
        assert pairing.bye == "D"
        assert {frozenset(t) for t in pairing.tables} == {frozenset("CA"), frozenset("BE")}

    def test_a_round_robin_walkover_scores_a_bye_but_is_no_bye(self):
        """NIGHT-WITHDRAW: B's scheduled opponent left; B scores the bye's 3 VP that round,
        and has had no bye (A had the real one)."""
        byes = [Bye(1, "A"), Bye(2, "B", walkover=True)]
        rows = rows_by_player(tournament_standings("AB", [], byes, WDL))
        assert (rows["A"].victory_points, rows["A"].byes) == (3, 1)
        assert (rows["B"].victory_points, rows["B"].byes) == (3, 0)


class TestKnockOutRanking:
    def test_whoever_went_further_ranks_above_whatever_their_points(self):
        """NIGHT-KO-RANK on the banded scale. Six players: W and Z have first-round byes
        (no VP in a knock-out), L beats Y by 10 (12-8), F beats X by 400 (20-0); semi-finals
        W beats L by 10 (12-8), F beats Z by 400 (20-0); the final W beats F by 10 (12-8).
        VP: F 48, W 24, L 20, Y 8, X and Z 0 (level on everything: rank 5 shared). By the
        round reached (W 4 as the winner, F 3, L and Z 2, Y and X 1): W, F, L, Z, Y, X."""
        results = [
            won(1, "L", "Y", 10),
            won(1, "F", "X", 400),
            won(2, "W", "L", 10),
            won(2, "F", "Z", 400),
            won(3, "W", "F", 10),
        ]
        rows = tournament_standings("FLWXYZ", results, [], MarginBands())
        assert [(row.player, row.rank, row.victory_points) for row in rows] == [
            ("F", 1, 48),
            ("W", 2, 24),
            ("L", 3, 20),
            ("Y", 4, 8),
            ("X", 5, 0),
            ("Z", 5, 0),
        ]
        stage = {"W": 4, "F": 3, "L": 2, "Z": 2, "Y": 1, "X": 1}
        ranked = by_stage(rows, stage)
        assert [(row.player, row.rank) for row in ranked] == [
            ("W", 1),
            ("F", 2),
            ("L", 3),
            ("Z", 4),
            ("Y", 5),
            ("X", 6),
        ]


class TestTablesThatCount:
    def test_a_void_table_is_played_and_its_players_have_met(self):
        """NIGHT-PLAYED: A and B's table is voided in round 1 (0 VP each, no difference);
        C beats D. Each of A and B has 1 table played and has met the other; A's Buchholz
        is B's 0. In round 2 the Swiss avoids the rematch A-B (and C-D): by the standings
        C, then A, B, D (level on 0; D's difference -10 below A's and B's 0, A and B by
        the seed), so the pairs are C with A or B and the other with D."""
        void = result(1, "AB", (1, 1), (0, 0), decided=(0, 0))
        results = [void, won(1, "C", "D")]
        rows = rows_by_player(tournament_standings("ABCD", results, [], WDL))
        assert (rows["A"].played, rows["A"].opponents, rows["A"].victory_points) == (
            1,
            frozenset("B"),
            0,
        )
        assert rows["A"].points_difference == 0 and rows["A"].buchholz == 0
        pairing = swiss_round("ABCD", results, [], WDL, round_number=2, seed=5)
        pairs = {frozenset(t) for t in pairing.tables}
        assert frozenset("AB") not in pairs and frozenset("CD") not in pairs


class TestScala40Places:
    def test_players_out_in_the_same_hand_are_parted_by_their_adjusted_totals(self):
        """S40-MATCH, NIGHT-ADJUST: limit 101; in hand 1 cat goes out and ann (110) and bob
        (120) pass the limit together: cat 1st, then the lower of the two, ann 2nd, bob
        3rd. Ann came late: a penalty of 25 (added, Scala 40 being scored in penalties)
        leaves her on 135, so bob is 2nd and ann 3rd (VP 2 and 1 by place at a table of
        three, cat 4). Points difference: the others' mean minus one's own, ann
        (120 + 0) / 2 - 135 = -75, bob 135 / 2 - 120 = -52.5, cat 255 / 2."""
        hand = {
            "mode": "points",
            "players": [{"points": 110}, {"points": 120}, {"points": 0, "went_out": True}],
            "stock_exhausted": False,
        }
        state = table("scala40", ["ann", "bob", "cat"], {}, rec(hand), _adjusted(0, 25))
        read = table_result(state, ["ann", "bob", "cat"], round_number=1)
        assert state.finished and state.totals == (135, 120, 0)
        assert read.places == (3, 2, 1)
        assert read.margins == (-75, Fraction(-105, 2), Fraction(255, 2))
        assert victory_points(read, ByPlace()) == {"ann": 1, "bob": 2, "cat": 4}

    def test_a_player_still_in_places_first_however_late_the_others_went_out(self):
        """S40-MATCH with NIGHT-ADJUST, past the seat count: three players, cat out after
        hand 5, bob after hand 8, ann never (tests/scoring/test_scala40_places.py's match of
        three). A penalty of 5 on cat changes nothing of the order of going out: ann 1st,
        bob 2nd, cat 3rd."""
        rows = [
            (0, 20, 30, 0),
            (10, 0, 30, 1),
            (0, 10, 20, 0),
            (15, 10, 0, 2),
            (0, 5, 25, 0),
            (30, 0, None, 1),
            (0, 40, None, 0),
            (0, 20, None, 0),
        ]
        entries = []
        for *points, closer in rows:
            players = [
                {"points": 0, "sitting_out": True}
                if held is None
                else {"points": held, **({"went_out": True} if seat == closer else {})}
                for seat, held in enumerate(points)
            ]
            entries.append(rec({"mode": "points", "players": players, "stock_exhausted": False}))
        state = table("scala40", ["ann", "bob", "cat"], {}, *entries, _adjusted(2, 5))
        read = table_result(state, ["ann", "bob", "cat"], round_number=1)
        assert state.finished and state.totals == (55, 105, 110)
        assert read.places == (1, 2, 3)
