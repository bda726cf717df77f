"""Tournament pairing, seating and brackets on fields small enough to work out by hand.

Every expected round below was worked out on paper from the rules in the modules'
docstrings (Danese pairing by standing, the fewest rematches, then the least sum of squared
distances in the standings; snake seating; seeded brackets), not read off the code.
"""

from fractions import Fraction

import pytest

from scoring.tournaments.bracket import advance, first_round, seed_positions
from scoring.tournaments.ranking import tournament_standings
from scoring.tournaments.results import (
    Bye,
    ByPlace,
    MarginBands,
    TableResult,
    WinDrawLoss,
    victory_points,
)
from scoring.tournaments.round_robin import round_robin
from scoring.tournaments.seating import met_counts, seat_round, table_sizes
from scoring.tournaments.swiss import swiss_round

WDL = WinDrawLoss()


def won(round_number, winner, loser, margin):
    return TableResult(
        round_number=round_number,
        players=(winner, loser),
        places=(1, 2),
        margins=(Fraction(margin), Fraction(-margin)),
    )


def tables(pairing):
    return {frozenset(table) for table in pairing.tables}


def pairs(*names):
    return {frozenset(name) for name in names}


class TestEightPlayersFourSwissRounds:
    """A beats B by 50, C beats D by 40, E beats F by 30, G beats H by 20 in round 1."""

    PLAYERS = list("ABCDEFGH")
    ROUND_1 = [
        won(1, "A", "B", 50),
        won(1, "C", "D", 40),
        won(1, "E", "F", 30),
        won(1, "G", "H", 20),
    ]
    # Round 2, as paired below: A beats C by 10, G beats E by 60, H beats F by 5, B beats D by 100.
    ROUND_2 = [
        won(2, "A", "C", 10),
        won(2, "G", "E", 60),
        won(2, "H", "F", 5),
        won(2, "B", "D", 100),
    ]
    # Round 3: G beats A by 25, C beats B by 15, E beats H by 35, D beats F by 45.
    ROUND_3 = [
        won(3, "G", "A", 25),
        won(3, "C", "B", 15),
        won(3, "E", "H", 35),
        won(3, "D", "F", 45),
    ]

    def test_round_2_pairs_the_winners_then_the_losers_by_points_difference(self):
        """NIGHT-SWISS: by the standings, the closest pairs."""
        # Winners on 3 VP, Buchholz 0 each, no meetings: by difference A 50, C 40, E 30,
        # G 20. Losers: H -20, F -30, D -40, B -50. So A C E G H F D B, paired 1-2, 3-4…
        pairing = swiss_round(self.PLAYERS, self.ROUND_1, [], WDL, round_number=2, seed=7)
        assert tables(pairing) == pairs("AC", "EG", "HF", "DB")
        assert pairing.bye is None

    def test_round_3_breaks_the_ties_by_buchholz_then_difference(self):
        """NIGHT-TIEBREAK, NIGHT-BUCHHOLZ."""
        # VP: A 6, G 6, B C E H 3, D F 0. A and G: Buchholz 6 each, never met, difference
        # G 80 > A 60. B C E H: Buchholz 6 each, none met; difference B 50, C 30, H -15,
        # E -30. F -35 before D -140. Order G A B C H E F D; no adjacent pair has met.
        played = self.ROUND_1 + self.ROUND_2
        pairing = swiss_round(self.PLAYERS, played, [], WDL, round_number=3, seed=7)
        assert tables(pairing) == pairs("GA", "BC", "HE", "FD")

    def test_round_4_avoids_every_rematch_at_the_least_distance(self):
        """NIGHT-SWISS: no rematch while one can be avoided."""
        # Order G A C E B H D F (A Buchholz 18 leads the 6s; C 12 and E 12 split by
        # difference 45 to 5; B 15 and H 15 by 35 to -50). G-A met: with no rematch, the
        # least sum of squared distances is G-C 4 + A-E 4 + B-F 9 + H-D 1 = 18, and only
        # that pairing reaches it (worked through every option of G and F).
        played = self.ROUND_1 + self.ROUND_2 + self.ROUND_3
        pairing = swiss_round(self.PLAYERS, played, [], WDL, round_number=4, seed=7)
        assert tables(pairing) == pairs("GC", "AE", "BF", "HD")

    def test_the_standings_after_three_rounds(self):
        played = self.ROUND_1 + self.ROUND_2 + self.ROUND_3
        rows = tournament_standings(self.PLAYERS, played, [], WDL)
        assert [row.player for row in rows] == list("GACEBHDF")
        assert [row.victory_points for row in rows] == [9, 6, 6, 6, 3, 3, 3, 0]
        assert [row.buchholz for row in rows] == [15, 18, 12, 12, 15, 15, 9, 12]
        # A over C on Buchholz; C over E on the points difference (45 to 5).
        assert rows[1].tiebreak == "buchholz"
        assert rows[2].tiebreak == "points_difference"
        assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 6, 7, 8]


class TestNinePlayersWithByes:
    PLAYERS = list("ABCDEFGHI")
    ROUND_1 = [
        won(1, "A", "B", 10),
        won(1, "C", "D", 20),
        won(1, "E", "F", 30),
        won(1, "G", "H", 40),
    ]
    BYES = [Bye(round_number=1, player="I")]

    def test_the_bye_goes_to_the_lowest_player_who_has_not_had_one(self):
        """NIGHT-BYE."""
        # 3 VP: G 40, E 30, C 20, A 10, then I (a bye: 3 VP, difference 0). 0 VP: B -10,
        # D -20, F -30, H -40. H is last and has had no bye; the rest pair 1-2, 3-4…
        pairing = swiss_round(self.PLAYERS, self.ROUND_1, self.BYES, WDL, round_number=2, seed=1)
        assert pairing.bye == "H"
        assert tables(pairing) == pairs("GE", "CA", "IB", "DF")

    def test_a_player_who_had_the_bye_is_passed_over_for_it(self):
        # Everyone but I lost round 1 by a forfeit-like margin except I's bye: I is last
        # on VP yet has had the bye, so the next lowest takes it.
        round_1 = [
            won(1, "A", "B", 1),
            won(1, "C", "D", 1),
            won(1, "E", "F", 1),
            won(1, "G", "H", 1),
        ]
        scale = WinDrawLoss(bye=Fraction(0))  # a bye worth nothing leaves I at the bottom
        pairing = swiss_round(self.PLAYERS, round_1, self.BYES, scale, round_number=2, seed=1)
        assert pairing.bye != "I"
        assert pairing.bye in {"B", "D", "F", "H"}

    def test_a_bye_scores_its_victory_points_and_no_buchholz(self):
        """NIGHT-BYE."""
        rows = {
            row.player: row
            for row in tournament_standings(self.PLAYERS, self.ROUND_1, self.BYES, WDL)
        }
        assert rows["I"].victory_points == 3
        assert rows["I"].byes == 1 and rows["I"].played == 0
        assert rows["I"].buchholz == 0


class TestTwelvePlayersAtRaminoTablesOfFour:
    ORDER = [f"P{n}" for n in range(1, 13)]

    def test_round_1_deals_the_standings_down_and_back_up(self):
        """NIGHT-SEATING: the first round."""
        # Three tables: P1 P2 P3 to tables 1 2 3, P4 P5 P6 back to 3 2 1, P7 P8 P9 to
        # 1 2 3, P10 P11 P12 to 3 2 1. Each table's places add up to 26.
        pairing = seat_round(
            self.ORDER, met_counts([]), round_number=1, size=4, smallest=2, largest=6
        )
        assert pairing.tables == (
            ("P1", "P6", "P7", "P12"),
            ("P2", "P5", "P8", "P11"),
            ("P3", "P4", "P9", "P10"),
        )

    def test_rounds_2_and_3_repeat_table_mates_only_as_often_as_they_must(self):
        # Three tables of four: any new table draws four players from three old tables, so
        # at least one pair of them sat together before. Round 2 thus has at least 3
        # repeats; round 3 at least 6 (a pair from a round-1 table and one from a round-2
        # table at each table, or one pair from both, counted twice).
        results, order = [], list(self.ORDER)
        least = {1: 0, 2: 3, 3: 6}
        for number in (1, 2, 3):
            met = met_counts(results)
            pairing = seat_round(order, met, round_number=number, size=4, smallest=2, largest=6)
            repeats = sum(
                met[frozenset((a, b))]
                for table in pairing.tables
                for a in table
                for b in table
                if a < b
            )
            assert repeats == least[number]
            assert sorted(p for table in pairing.tables for p in table) == sorted(self.ORDER)
            for table in pairing.tables:
                results.append(
                    TableResult(
                        round_number=number,
                        players=table,
                        places=(1, 2, 3, 4),
                        margins=(Fraction(30), Fraction(10), Fraction(-10), Fraction(-30)),
                    )
                )
            order = order[1:] + order[:1]
        assert max(met_counts(results).values()) <= 2

    @pytest.mark.parametrize(
        ("players", "size", "smallest", "largest", "sizes"),
        [
            (13, 4, 3, 5, [5, 4, 4]),  # one table of five beats three of three
            (13, 4, 3, 4, [4, 3, 3, 3]),  # Rummy40 style: no fifth seat
            (12, 4, 2, 6, [4, 4, 4]),
            (9, 4, 2, 6, [5, 4]),
            (7, 6, 3, 6, [4, 3]),
        ],
    )
    def test_table_sizes(self, players, size, smallest, largest, sizes):
        """NIGHT-SEATING: the tables' sizes."""
        assert table_sizes(players, size, smallest=smallest, largest=largest) == sizes

    def test_too_few_players_for_a_table(self):
        with pytest.raises(ValueError, match="cannot fill a table of 3"):
            table_sizes(2, 4, smallest=3, largest=6)


class TestEightPlayerBracket:
    def test_seeds_1_and_2_can_meet_only_in_the_final(self):
        """NIGHT-KO-SEEDS."""
        assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
        assert first_round(list("ABCDEFGH")) == [("A", "H"), ("D", "E"), ("B", "G"), ("C", "F")]

    def test_winners_go_through_to_the_final(self):
        matches = first_round(list("ABCDEFGH"))
        # Seeds 1, 5, 2 and 6 win: the semi-finals are A-E and B-F.
        semis = advance(matches, {0: "A", 1: "E", 2: "B", 3: "F"})
        assert semis == [("A", "E"), ("B", "F")]
        assert advance(semis, {0: "E"}) is None  # one semi-final still to play
        final = advance(semis, {0: "E", 1: "B"})
        assert final == [("E", "B")]
        assert advance(final, {0: "B"}) == []

    def test_six_players_give_the_byes_to_the_top_seeds(self):
        """NIGHT-KO-SEEDS."""
        assert first_round(list("ABCDEF")) == [("A", None), ("D", "E"), ("B", None), ("C", "F")]
        assert advance(first_round(list("ABCDEF")), {1: "D", 3: "F"}) == [("A", "D"), ("B", "F")]

    def test_a_winner_who_did_not_play_the_match_is_refused(self):
        with pytest.raises(ValueError, match="match 1 was between A and H"):
            advance(first_round(list("ABCDEFGH")), {0: "B"})


class TestRoundRobin:
    def test_four_players_meet_each_other_once_in_three_rounds(self):
        rounds = round_robin(list("ABCD"))
        assert len(rounds) == 3
        met = [frozenset(table) for pairing in rounds for table in pairing.tables]
        assert sorted(met, key=sorted) == sorted(
            pairs("AB", "AC", "AD", "BC", "BD", "CD"), key=sorted
        )

    def test_five_players_each_sit_out_once(self):
        """NIGHT-BYE: the round robin's empty seat."""
        rounds = round_robin(list("ABCDE"))
        assert len(rounds) == 5
        assert sorted(pairing.bye for pairing in rounds) == list("ABCDE")


class TestVictoryPoints:
    def test_win_draw_loss(self):
        """NIGHT-VP."""
        assert victory_points(won(1, "A", "B", 12), WDL) == {"A": 3, "B": 0}
        draw = TableResult(round_number=1, players=("A", "B"), places=(1, 1), margins=(0, 0))
        assert victory_points(draw, WDL) == {"A": 1, "B": 1}

    def test_margin_bands(self):
        """NIGHT-BANDS."""
        # The default scale: a 120-point win falls in the band from 100: 16 to 4.
        assert victory_points(won(1, "A", "B", 120), MarginBands()) == {"A": 16, "B": 4}
        assert victory_points(won(1, "A", "B", 1), MarginBands()) == {"A": 12, "B": 8}

    def test_shared_places_split_the_points_of_the_places_they_cover(self):
        """NIGHT-SHARED-PLACE."""
        # 4-2-1-0 at a table of four; two players sharing 2nd split 2 + 1.
        result = TableResult(
            round_number=1,
            players=("A", "B", "C", "D"),
            places=(1, 2, 2, 4),
            margins=(Fraction(40), Fraction(0), Fraction(0), Fraction(-40)),
        )
        assert victory_points(result, ByPlace()) == {
            "A": 4,
            "B": Fraction(3, 2),
            "C": Fraction(3, 2),
            "D": 0,
        }

    def test_a_director_decision_overrides_the_log(self):
        """NIGHT-VP: a table the director scored."""
        decided = TableResult(
            round_number=1,
            players=("A", "B"),
            places=(1, 2),
            margins=(Fraction(10), Fraction(-10)),
            decided=(Fraction(0), Fraction(0)),
        )
        assert victory_points(decided, WDL) == {"A": 0, "B": 0}
