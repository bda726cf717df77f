"""Players who leave the night between rounds: paired no more, still in the standings.

The results of the rounds played so far still name them: their points count, and so do
their opponents' Buchholz. Every expected round was worked out on paper from the rules in
the modules' docstrings (as in test_worked_examples), not read off the code.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.tournaments.bracket import advance, first_round, goes_through
from scoring.tournaments.ranking import tournament_standings
from scoring.tournaments.results import Bye, ByPlace, TableResult, WinDrawLoss
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import standing_order, swiss_round
from tests.hypothesis_profiles import examples

WDL = WinDrawLoss()


def won(round_number, winner, loser, margin):
    return TableResult(
        round_number=round_number,
        players=(winner, loser),
        places=(1, 2),
        margins=(Fraction(margin), Fraction(-margin)),
    )


class TestSwiss:
    """A beats B by 50, C beats D by 40, E beats F by 30, G beats H by 20 in round 1."""

    ROUND_1 = [
        won(1, "A", "B", 50),
        won(1, "C", "D", 40),
        won(1, "E", "F", 30),
        won(1, "G", "H", 20),
    ]
    # Round 2 of the eight (test_worked_examples): A-C, E-G, H-F, D-B.
    ROUND_2 = [
        won(2, "A", "C", 10),
        won(2, "G", "E", 60),
        won(2, "H", "F", 5),
        won(2, "B", "D", 100),
    ]

    def test_a_winner_withdrawn_after_round_1_is_left_out_of_round_2(self):
        # Standings over all eight: A 50, C 40, E 30, G 20 on 3 VP (Buchholz 0); H -20,
        # F -30, D -40, B -50 on 0 VP, each with Buchholz 3 (H's from G, who has left).
        # The seven still in: A C E H F D B. The bye to the last, B; then A-C, E-H, F-D
        # (adjacent, none met: the least distance, 3, and the only pairing reaching it).
        active = list("ABCDEFH")
        pairing = swiss_round(active, self.ROUND_1, [], WDL, round_number=2, seed=7)
        assert pairing.tables == (("A", "C"), ("E", "H"), ("F", "D"))
        assert pairing.bye == "B"

    def test_the_order_counts_the_withdrawn_player_s_results(self):
        # Without G's table H would have no Buchholz and fall below B, and take the bye.
        order = standing_order(list("ABCDEFH"), self.ROUND_1, [], WDL, seed=7)
        assert order == list("ACEHFDB")

    def test_a_leader_withdrawn_after_round_2_is_left_out_of_round_3(self):
        # Order of the eight after round 2: G A B C H E F D (test_worked_examples). A has
        # left: G B C H E F D, the bye to D. Met among the six: G-H, G-E, E-F, H-F. With no
        # rematch the least distance is G-B 1 + C-F 9 + H-E 1 = 11, and only that reaches it
        # (G-B with C-H leaves E-F, met; G with C or further costs 4 + 17 at least).
        active = list("BCDEFGH")
        played = self.ROUND_1 + self.ROUND_2
        pairing = swiss_round(active, played, [], WDL, round_number=3, seed=7)
        assert pairing.tables == (("G", "B"), ("C", "F"), ("H", "E"))
        assert pairing.bye == "D"

    def test_a_player_who_had_the_bye_and_left_is_no_trouble(self):
        # E had round 1's bye and leaves. A 50 and C 40 on 3 VP; D -40, B -50 on 0 VP.
        round_1 = [won(1, "A", "B", 50), won(1, "C", "D", 40)]
        byes = [Bye(round_number=1, player="E")]
        pairing = swiss_round(list("ABCD"), round_1, byes, WDL, round_number=2, seed=1)
        assert pairing.tables == (("A", "C"), ("D", "B"))
        assert pairing.bye is None


class TestStandings:
    def test_results_naming_a_player_outside_the_field_are_refused_by_name(self):
        with pytest.raises(ValueError, match=r"outside the standings: \['G'\]"):
            tournament_standings(list("ABCDEFH"), TestSwiss.ROUND_1, [], WDL)


class TestTables:
    def test_a_withdrawn_player_s_table_mates_are_seated_with_the_fewest_repeats(self):
        # Round 1: P1 P2 P3 P4 at one table, P5 P6 P7 P8 at the other, places in seat
        # order (4, 2, 1, 0 VP). P1 leaves: seven sit at a table of 4 and one of 3. With x
        # of P2-P4 at the table of four, the repeats are C(x,2) + C(4-x,2) + C(3-x,2) +
        # C(x,2): 9, 4, 3, 6 for x = 0..3, so the least is 3, with two of them at the four.
        first, second = ("P1", "P2", "P3", "P4"), ("P5", "P6", "P7", "P8")
        margins = tuple(Fraction(m) for m in (30, 10, -10, -30))
        results = [TableResult(1, table, (1, 2, 3, 4), margins) for table in (first, second)]
        active = [f"P{n}" for n in range(2, 9)]
        order = standing_order(active, results, [], ByPlace(), seed=3)
        pairing = seat_round(
            order, met_counts(results), round_number=2, size=4, smallest=3, largest=6, seed=3
        )
        assert sorted(len(table) for table in pairing.tables) == [3, 4]
        assert sorted(pairing.players) == sorted(active)
        four = next(set(table) for table in pairing.tables if len(table) == 4)
        assert len(four & set(first)) == 2


class TestBracket:
    def test_the_opponent_of_a_withdrawn_player_goes_through(self):
        # Seeds 1, 4, 2 and 3 win round 1 (A, D, B, C); D leaves: A has a walkover to the
        # final, and B-C is still to play.
        semis = advance(first_round(list("ABCDEFGH")), {0: "A", 1: "D", 2: "B", 3: "C"})
        assert semis == [("A", "D"), ("B", "C")]
        assert advance(semis, {}, withdrawn={"D"}) is None
        assert advance(semis, {1: "C"}, withdrawn={"D"}) == [("A", "C")]

    def test_a_played_match_stands_whoever_has_left_since(self):
        assert goes_through(("A", "D"), "D", withdrawn={"D"}) == "D"
        # Neither player is left: nobody goes through, the next opponent has a walkover.
        assert goes_through(("A", "D"), None, withdrawn={"A", "D"}) is None
        assert advance([("A", "D"), ("B", "C")], {1: "C"}, withdrawn={"A", "D"}) == [(None, "C")]


PROPERTIES = settings(max_examples=examples(30), deadline=None)


@PROPERTIES
@given(size=st.integers(4, 40), seed=st.integers(0, 10_000), data=st.data())
def test_swiss_pairs_everyone_still_in_once_and_nobody_who_has_left(size, seed, data):
    players, results, byes = list(range(size)), [], []
    for number in range(1, 5):
        leaving = data.draw(st.sets(st.sampled_from(players), max_size=max(0, len(players) - 3)))
        players = [p for p in players if p not in leaving]
        pairing = swiss_round(players, results, byes, WDL, round_number=number, seed=seed)
        assert sorted(pairing.players) == players
        for index, table in enumerate(pairing.tables):
            results.append(won(number, *table, margin=data.draw(st.integers(1, 99)) + index))
        if pairing.bye is not None:
            byes.append(Bye(round_number=number, player=pairing.bye))
    everyone = sorted({p for r in results for p in r.players} | {b.player for b in byes})
    rows = tournament_standings(everyone, results, byes, WDL)
    assert sum(row.victory_points for row in rows) == 3 * (len(results) + len(byes))
