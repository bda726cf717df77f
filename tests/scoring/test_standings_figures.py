"""The players' book figures a finished match's summary carries beside the standings' counts
(``StandingsReading.figures``, scoring/standings.py), worked by hand from docs/rules.md.

The standings' counts and rows are unchanged by them (tests/scoring/test_standings.py).
"""

import copy

from scoring.scoresheet import opening_figures
from scoring.standings import MatchSummary, figures_of
from scoring.variants import GAMES
from tests.payloads import quick
from tests.scoring.play_helpers import discard, draw, lay, show
from tests.scoring.play_ramino_tables import (
    ANNA,
    BRUNO,
    CARLA,
    THREE,
    bruno_out_on_his_second_turn,
    dealt,
)
from tests.scoring.standings_seasons import summary
from tests.scoring.test_replay_games import amend, hand, rec, seat


def points(*players):
    """Return a hand entered by each seat's points (the scoresheet's quick entry)."""
    return {"mode": "points", "players": list(players)}


class TestGinFigures:
    def test_the_defender_count_is_summed_when_caught_and_undercuts_are_taken(self):
        # Classic to 50 (GIN-MATCH), no undercut bonus, gin 25 + the defender's count.
        # Hand 1: Ada knocks 5 v 20, amended to 5 v 25: Ada +20; Bea caught with 25.
        # Hand 2: Bea knocks 8, Ada holds 4: undercut (GIN-UNDERCUT), Ada +4; Ada caught
        #   with 4, Bea's knock undercut.
        # Hand 3: a wall (GIN-WALL): nobody caught.
        # Hand 4: Ada gin v 30: Ada +55, 79 in all, the match. Bea caught with 30.
        m = summary(
            "gin",
            ["ada", "bea"],
            {"preset": "classic", "target": 50},
            rec(quick(0, "knock", 5, 20)),
            rec(quick(1, "knock", 8, 4)),
            rec({"mode": "quick", "ending": "wall"}),
            amend(1, quick(0, "knock", 5, 25)),
            rec(quick(0, "gin", 0, 30)),
        )
        ada, bea = m.seats
        assert m.totals == (79, 0)
        assert dict(ada.figures) == {"undercuts_taken": 0, "caught": 1, "deadwood_caught": 4}
        assert dict(bea.figures) == {"undercuts_taken": 1, "caught": 2, "deadwood_caught": 55}
        # The standings' counts are as they were: Bea's undercut knock is a knock, Ada's
        # undercut of it an undercut.
        assert dict(ada.counts) == {"knocks": 1, "gins": 1, "big_gins": 0, "undercuts": 1}
        assert dict(bea.counts) == {"knocks": 1, "gins": 0, "big_gins": 0, "undercuts": 0}


class TestOpeningFigures:
    def test_rummy40_openings_are_read_from_cards_and_points_left_either_way(self):
        # Two players to 100, penalty points (R40-VALUE: ace 1, J Q K 10).
        # Hand 1, by cards: Ada out; Bea kept K Q 3, fewer than the 10 dealt, so she
        #   opened: 23 left.
        # Hand 2, by cards: Bea out; Ada kept 10 cards, never opened: 2+3+5+7+9+10+10+4+6+8
        #   = 64 left.
        # Hand 3, by points: Ada out, Bea 80 left: 103, past the limit, Bea loses
        #   (R40-MATCH). A hand by points says nothing of who opened.
        m = summary(
            "rummy40",
            ["ada", "bea"],
            {"target": 100},
            rec(hand(seat(went_out=True), seat("KS QS 3H"))),
            rec(hand(seat("2C 3D 5H 7S 9C JD KH 4S 6D 8H"), seat(went_out=True))),
            rec(points({"points": 0, "went_out": True}, {"points": 80})),
        )
        ada, bea = m.seats
        assert m.totals == (64, 103) and m.winners == ("ada",)
        # Ada opened in hand 1 (out), not in hand 2; hand 3 is not known.
        assert dict(ada.figures) == {
            "opened": 1,
            "opened_known": 2,
            "points_left": 64,
            "hands_left": 1,
        }
        # Bea opened in hands 1 and 2; 23 and 80 left in the two hands she did not go out.
        assert dict(bea.figures) == {
            "opened": 2,
            "opened_known": 2,
            "points_left": 103,
            "hands_left": 2,
        }

    def test_ramino_reads_openings_against_its_deal(self):
        # One hand (RAM-MATCH), two players, 13 dealt (RAM-SETUP): Ada out; Bea kept all 13,
        # 2+3+5+7+9+10+10+4+6+8+10+10+11 = 95 (RAM-VALUE: ace 11).
        m = summary(
            "ramino",
            ["ada", "bea"],
            {"hands": 1},
            rec(hand(seat(went_out=True), seat("2C 3C 5D 7H 9S JC KD 4H 6S 8D 10C QH AS"))),
        )
        ada, bea = m.seats
        assert dict(ada.figures) == {
            "opened": 1,
            "opened_known": 1,
            "points_left": 0,
            "hands_left": 0,
        }
        assert dict(bea.figures) == {
            "opened": 0,
            "opened_known": 1,
            "points_left": 95,
            "hands_left": 1,
        }

    def test_ramino_with_knock_claims_reads_no_openings(self):
        # RAM-OPT-KNOCKCLAIM: a claim adds cards, so a short hand says nothing. K and Q: 10
        # each left (RAM-VALUE).
        m = summary(
            "ramino",
            ["ada", "bea", "cal"],
            {"hands": 1, "knock_claim": True},
            rec(hand(seat(went_out=True), seat("KS"), seat("QD"))),
        )
        assert [dict(s.figures) for s in m.seats] == [
            {"opened": 0, "opened_known": 0, "points_left": 0, "hands_left": 0},
            {"opened": 0, "opened_known": 0, "points_left": 10, "hands_left": 1},
            {"opened": 0, "opened_known": 0, "points_left": 10, "hands_left": 1},
        ]


class TestKnockRummyFigures:
    def test_knocks_are_won_or_lost(self):
        # Target 30 (KR-MATCH), three players, values KR-VALUE.
        # Round 1: Ada knocks on 3, Bea 3, Cal 10: Bea ties the knocker and wins
        #   (KR-UNDERCUT), 0 + 7 + 10 = 17. Ada's knock is lost.
        # Round 2: Ada knocks on 2, Bea 7, Cal 12: Ada wins 5 + 10 = 15.
        # Round 3, by points: Ada knocks on 1, Bea 20, Cal 30: Ada wins 19 + 29 = 48, 63 in
        #   all, past 30: the game ends.
        m = summary(
            "knock_rummy",
            ["ada", "bea", "cal"],
            {"target": 30},
            rec(hand(seat("2C AD", knocked=True), seat("3H"), seat("10S"))),
            rec(hand(seat("2D", knocked=True), seat("7C"), seat("10H 2S"))),
            rec(points({"points": 1, "knocked": True}, {"points": 20}, {"points": 30})),
        )
        ada, bea, cal = m.seats
        assert dict(ada.figures) == {"knocks_won": 2, "knocks_lost": 1}
        assert dict(bea.figures) == dict(cal.figures) == {"knocks_won": 0, "knocks_lost": 0}


class TestStoredSummaries:
    def test_figures_survive_the_record_and_an_old_record_reads_back_without_them(self):
        m = summary(
            "gin", ["ada", "bea"], {"preset": "classic", "target": 1}, rec(quick(0, "gin", 0, 7))
        )
        back = MatchSummary.from_record(m.to_record())
        assert back == m
        assert dict(back.seats[1].figures) == {
            "undercuts_taken": 0,
            "caught": 1,
            "deadwood_caught": 7,
        }
        old = m.to_record()
        for stored in old["seats"]:
            del stored["figures"]
        assert [s.figures for s in MatchSummary.from_record(old).seats] == [(), ()]

    def test_every_game_names_its_figures(self):
        assert {key: figures_of(key) for key in GAMES} == {
            "gin": ("undercuts_taken", "caught", "deadwood_caught"),
            "rummy40": ("opened", "opened_known", "points_left", "hands_left"),
            "ramino": ("opened", "opened_known", "points_left", "hands_left"),
            "knock_rummy": ("knocks_won", "knocks_lost"),
            "scala40": ("opened", "opened_known", "points_left", "hands_left"),
            "burraco": (),
            "canasta": (),
        }


class TestOpeningsFromTheMoves:
    """A hand played move by move says who opened in its moves, however the hands left are
    shown (RAM-SCORE lets them be shown by points)."""

    def figures(self, table, seat):
        state = table.state
        return dict(state.variant.standings.hand_figures(state.options, state.counted[-1], seat))

    def test_a_hand_shown_by_points_counts_who_melded(self):
        # Anna never melded and shows 94 by points; Bruno went out: both hands are known.
        table = bruno_out_on_his_second_turn().play(show(94, None))
        assert self.figures(table, ANNA) == {
            "opened": 0,
            "opened_known": 1,
            "points_left": 94,
            "hands_left": 1,
        }
        assert self.figures(table, BRUNO) == {"opened": 1, "opened_known": 1}

    def test_a_player_who_opened_and_did_not_go_out_opened(self):
        table = dealt().play(
            draw(BRUNO),
            lay(BRUNO, "KS KH KD"),
            discard(BRUNO, "2S"),
            draw(ANNA),
            lay(ANNA, "QS QH QC"),
            discard(ANNA, "3H"),
            draw(BRUNO),
            lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D"),
            lay(BRUNO, "9H 10H JH"),
            discard(BRUNO, "4H"),
        )
        # Anna's ten cards left are shown as worth 50: she opened all the same.
        table.play(show(50, None))
        assert self.figures(table, ANNA) == {
            "opened": 1,
            "opened_known": 1,
            "points_left": 50,
            "hands_left": 1,
        }

    def test_a_knock_claim_table_reads_openings_from_the_moves(self):
        # RAM-OPT-KNOCKCLAIM: entered whole, no hand says who opened; played, the moves do.
        # Bruno opens with the kings; Carla and Anna draw and throw; Bruno goes out. Anna's
        # 13 cards are shown as 40, Carla's as 30.
        table = dealt(seats=THREE, knock_claim=True).play(
            draw(BRUNO),
            lay(BRUNO, "KS KH KD"),
            discard(BRUNO, "2S"),
            draw(CARLA),
            discard(CARLA, "3H"),
            draw(ANNA),
            discard(ANNA, "5S"),
            draw(BRUNO),
            lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D"),
            lay(BRUNO, "9H 10H JH"),
            discard(BRUNO, "4H"),
            show(40, None, 30),
        )
        assert [self.figures(table, seat) for seat in (ANNA, BRUNO, CARLA)] == [
            {"opened": 0, "opened_known": 1, "points_left": 40, "hands_left": 1},
            {"opened": 1, "opened_known": 1},
            {"opened": 0, "opened_known": 1, "points_left": 30, "hands_left": 1},
        ]

    def test_a_result_pickled_before_it_kept_the_openings_reads_as_entered_whole(self):
        # A snapshot kept across a deploy: its results lack the ``opened`` slot. Bruno went
        # out and Anna's 94 were shown by points: nothing says who opened.
        table = bruno_out_on_his_second_turn().play(show(94, None))
        result = table.state.counted[-1]
        old = copy.copy(result)
        object.__delattr__(old, "opened")
        assert opening_figures(old, ANNA, dealt=13) == {"points_left": 94, "hands_left": 1}
