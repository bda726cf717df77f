"""Burraco's options, match, standings reading, referee and GAME as the engine reads it
(BUR-MATCH, BUR-OPT-SEMIPULITO, BUR-OPT-INTL, BUR-SETUP), worked by hand."""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.questions import referee_table
from scoring.variants.burraco import GAME, PAIRS_SHEET_ENTRY
from scoring.variants.burraco.options import BurracoOptions
from tests.hypothesis_profiles import examples
from tests.scoring.variants.burraco.helpers import SEATS, options, pair, refused, scored

# Hands whose pair scores are worked by hand once, for the matches below.
# A: 600 + 200 pulito + 100 closing = 900 against B: 200 - 100 in hand = 100.
A_AGAINST_B = (pair(600, pulito=1, closed=True), pair(200, in_hand=100))
# C: 400 + 200 + 100 sporco + 100 closing = 800 against D: 300 + 100 - 100 = 300.
C_AGAINST_D = (pair(400, pulito=1, sporco=1, closed=True), pair(300, sporco=1, in_hand=100))
# E: 100 + 200 + 100 = 400 against F: 250 - 50 = 200.
E_AGAINST_F = (pair(100, pulito=1, closed=True), pair(250, in_hand=50))
# G: 700 + 200 + 100 = 1000 against H: 300 + 3 x 200 + 100 = 1000.
G_AGAINST_H = (pair(700, pulito=1, closed=True), pair(300, pulito=3, sporco=1))


def hands(*pairs_of_sheets, table=None):
    return [scored(*sheets, table=table) for sheets in pairs_of_sheets]


class TestOptions:
    def test_the_defaults_play_to_2005_bur_match(self):
        table = GAME.options_from_dict({}, 4)
        assert GAME.options_to_dict(table) == {
            "target": 2005,
            "hands": 0,
            "semipulito": False,
            "international": False,
        }

    def test_options_round_trip(self):
        chosen = {"target": 1505, "hands": 0, "semipulito": True, "international": False}
        table = GAME.options_from_dict(chosen, 4)
        assert GAME.options_to_dict(table) == chosen
        assert GAME.options_from_dict(GAME.options_to_dict(table), 4) == table

    @pytest.mark.parametrize(
        ("chosen", "rule", "option"),
        [
            ({"target": 0}, "BUR-MATCH", "target"),
            ({"target": 1_000_001}, "BUR-MATCH", "target"),
            ({"hands": 101}, "BUR-MATCH", "hands"),
            ({"hands": -1}, "BUR-MATCH", "hands"),
            ({"target": "2005"}, "OPTIONS", "target"),
            ({"hands": True}, "OPTIONS", "hands"),
            ({"semipulito": "yes"}, "OPTIONS", "semipulito"),
            ({"international": 1}, "OPTIONS", "international"),
            ({"semipulito": True, "international": True}, "BUR-OPT-INTL", "semipulito"),
            ({"opening": 50}, "OPTIONS", "opening"),
        ],
    )
    def test_a_bad_option_is_refused_naming_it(self, chosen, rule, option):
        [violation] = refused(GAME.options_from_dict, chosen, 4)
        assert (violation.rule, violation.params["option"]) == (rule, option)

    def test_the_options_are_offered_with_their_rules(self):
        assert [(spec.key, spec.rule, spec.default) for spec in GAME.options] == [
            ("target", "BUR-MATCH", 2005),
            ("hands", "BUR-MATCH", 0),
            ("semipulito", "BUR-OPT-SEMIPULITO", False),
            ("international", "BUR-OPT-INTL", False),
        ]


class TestMatchToTarget:
    def test_the_match_ends_after_the_hand_a_pair_reaches_2005_bur_match(self):
        results = hands(A_AGAINST_B, C_AGAINST_D, E_AGAINST_F)
        # North-South: 900, 900 + 800 = 1700, 1700 + 400 = 2100 >= 2005.
        # East-West: 100, 100 + 300 = 400, 400 + 200 = 600.
        assert not GAME.match_result(options(), results[:2]).finished
        outcome = GAME.match_result(options(), results)
        assert outcome.finished
        assert outcome.hands == 3
        assert outcome.totals == (2100, 600, 2100, 600)
        assert outcome.winners == (0, 2)

    def test_no_hand_is_recorded_after_the_end_bur_match(self):
        results = hands(A_AGAINST_B, C_AGAINST_D, E_AGAINST_F, A_AGAINST_B)
        [violation] = refused(GAME.match_result, options(), results)
        assert (violation.rule, violation.code) == ("BUR-MATCH", "match_over")

    def test_level_totals_at_the_target_play_on_bur_match(self):
        table = options(target=2000)
        results = hands(G_AGAINST_H, G_AGAINST_H, table=table)
        # Both pairs: 1000 + 1000 = 2000, the target: level, so the match goes on.
        outcome = GAME.match_result(table, results)
        assert (outcome.finished, outcome.totals) == (False, (2000, 2000, 2000, 2000))
        assert not GAME.may_end(table, outcome.totals, 2)
        results += hands(A_AGAINST_B, table=table)
        # North-South 2000 + 900 = 2900, East-West 2000 + 100 = 2100.
        outcome = GAME.match_result(table, results)
        assert (outcome.finished, outcome.totals) == (True, (2900, 2100, 2900, 2100))
        assert outcome.winners == (0, 2)

    def test_may_end_only_once_a_pair_is_at_the_target_and_ahead_bur_match(self):
        table = options()
        assert GAME.may_end(table, (2005, 1990, 2005, 1990), 5)
        assert not GAME.may_end(table, (2000, 1990, 2000, 1990), 5)


class TestMatchByHands:
    def test_a_fixed_number_of_hands_ends_the_match_bur_match(self):
        table = options(hands=2)
        results = hands(A_AGAINST_B, tuple(reversed(C_AGAINST_D)), table=table)
        # North-South: 900 + 300 = 1200; East-West: 100 + 800 = 900.
        outcome = GAME.match_result(table, results)
        assert (outcome.finished, outcome.hands) == (True, 2)
        assert outcome.totals == (1200, 900, 1200, 900)
        assert outcome.winners == (0, 2)
        assert GAME.may_end(table, outcome.totals, 2)
        assert not GAME.may_end(table, outcome.totals, 1)

    def test_level_after_the_last_hand_both_pairs_share_it_bur_match(self):
        table = options(hands=1)
        outcome = GAME.match_result(table, hands(G_AGAINST_H, table=table))
        # 1000 each after the one hand played.
        assert outcome.finished
        assert outcome.winners == (0, 1, 2, 3)


class TestStandings:
    def test_points_for_and_against_are_the_pairs_totals(self):
        results = hands(A_AGAINST_B, C_AGAINST_D)
        totals = GAME.match_result(options(), results).totals
        # North-South 900 + 800 = 1700, East-West 100 + 300 = 400.
        assert GAME.standings.points(totals, results, 2) == (Fraction(1700), Fraction(400))
        assert GAME.standings.points(totals, results, 1) == (Fraction(400), Fraction(1700))

    def test_a_hand_counts_for_both_partners(self):
        [result] = hands((pair(300, pulito=1, closed=True), pair(100, sporco=1, pozzetto=False)))
        assert GAME.standings.hand_winners(result) == (0, 2)
        for seat in (0, 2):
            assert GAME.standings.hand_counts(result, seat) == Counter(closings=1, burraco_pulito=1)
        for seat in (1, 3):
            assert GAME.standings.hand_counts(result, seat) == Counter(
                burraco_sporco=1, pozzetti_missed=1
            )
        assert set(GAME.standings.counts) >= {"closings", "burraco_pulito", "pozzetti_missed"}


class TestGame:
    def test_the_game_is_described_for_the_engine_bur_setup(self):
        assert (GAME.key, GAME.name, GAME.rule_prefix) == ("burraco", "Burraco", "BUR-")
        assert GAME.players == (4, 4)
        assert GAME.hand_entry == PAIRS_SHEET_ENTRY == "pairs_sheet"
        assert GAME.partners == ((0, 2), (1, 3))

    def test_options_entry_score_and_match_work_together(self):
        table = GAME.options_from_dict(GAME.options_to_dict(options(target=1000)), 4)
        sheet = GAME.read_entry(table, {"mode": "sheet", "pairs": list(A_AGAINST_B)}, SEATS)
        result = GAME.score_entry(table, sheet, SEATS)
        assert result.points == (900, 100, 900, 100)
        outcome = GAME.match_result(table, [result, result])
        # After hand 1: 900 < 1000, on; after hand 2: 900 + 900 = 1800 >= 1000, over.
        assert (outcome.finished, outcome.hands, outcome.winners) == (True, 2, (0, 2))

    def test_play_rules_can_be_built_bur_turn(self):
        """BUR-TURN: the play engine can read the table, though a hand is entered by sheet."""
        rules = GAME.play_rules(options(), 4)
        assert (rules.hand_size, rules.deck.size, rules.turn_rule) == (11, 108, "BUR-TURN")

    def test_a_closing_ends_with_a_discard_that_is_no_wild_bur_close(self):
        closing = GAME.referee.closing(options())
        assert (closing.discard, closing.rule, closing.joker_discard_rule) == (
            "required",
            "BUR-CLOSE",
            "BUR-CLOSE",
        )

    def test_play_rules_take_the_pile_whole_and_set_two_pozzetti_aside_bur_pozzetto(self):
        """BUR-SETUP, BUR-POZZETTO: partners across, two pozzetti of 11, the pile whole."""
        rules = GAME.play_rules(options(), 4)
        assert (rules.sides, rules.kitty_size, rules.take_whole_pile) == (
            ((0, 2), (1, 3)),
            11,
            True,
        )
        # BUR-STOCK: the hand ends when two cards are left; only the international code
        # obliges a meld after taking the pile (BUR-OPT-INTL).
        assert (rules.stock_end, rules.pile_meld_rule) == (2, None)
        assert GAME.play_rules(options(international=True), 4).pile_meld_rule == "BUR-OPT-INTL"

    def test_two_reads_of_one_tables_play_rules_are_equal(self):
        """The meld check and the closing check are values, as the rest of the rules are."""
        assert GAME.play_rules(options(), 4) == GAME.play_rules(options(), 4)
        assert GAME.play_rules(options(), 4) != GAME.play_rules(options(international=True), 4)


class TestReferee:
    def ask(self, question, **data):
        table = referee_table(GAME, {"variant": "burraco", **data})
        return GAME.referee.questions[question](table, data)

    def test_a_legal_meld_says_its_burraco_bur_burraco(self):
        answer = self.ask("meld", cards="AH 2H 3H 4H 5H 6H 7H")
        assert answer["valid"]
        assert (answer["kind"], answer["burraco"], answer["bonus"]) == ("sequence", "pulito", 200)
        assert answer["value"] == 15 + 20 + 5 * 5  # = 60
        assert "BUR-BURRACO" in answer["rules"]

    def test_a_semipulito_is_answered_under_the_tables_option(self):
        answer = self.ask("meld", cards="3H 4H 5H 6H 7H 8H 9H JK", options={"semipulito": True})
        assert (answer["burraco"], answer["wild"], answer["stands_for"]) == (
            "semipulito",
            "JK",
            "10H",
        )

    def test_an_illegal_meld_cites_its_rule_bur_melds(self):
        answer = self.ask("meld", cards="2H 2S 2C")
        assert not answer["valid"]
        assert [v.rule for v in answer["violations"]] == ["BUR-MELDS"]

    def test_a_sheet_is_scored_pair_by_pair(self):
        answer = self.ask("score", pairs=list(C_AGAINST_D))
        assert answer["valid"]
        assert answer["points"] == [800, 300, 800, 300]
        assert {"BUR-SCORE", "BUR-CLOSE", "BUR-BURRACO"} <= set(answer["rules"])

    def test_a_bad_sheet_is_answered_with_its_violations(self):
        answer = self.ask("score", pairs=[pair(300, closed=True), pair(100)])
        assert not answer["valid"]
        assert [v.code for v in answer["violations"]] == ["closed_without_burraco"]

    def test_a_table_of_three_is_refused_bur_setup(self):
        [violation] = refused(self.ask, "meld", cards="3H 4H 5H", players=3)
        assert violation.rule == "BUR-SETUP"


@st.composite
def valid_pair(draw, closes):
    pulito = draw(st.integers(0, 2)) or (1 if closes else 0)
    sporco = draw(st.integers(0, 2))
    semipulito = draw(st.integers(0, 1))
    least = 35 * pulito + 50 * sporco + 55 * semipulito
    # Per pair at most 225 + 200 + 100 = 525, both pairs 1050: within the deck's 1080.
    melded = least + 5 * draw(st.integers(0, 40))
    return pair(
        melded,
        pulito=pulito,
        sporco=sporco,
        semipulito=semipulito,
        closed=closes,
        pozzetto=closes or draw(st.booleans()),
        in_hand=5 * draw(st.integers(0, 20)),
    )


@st.composite
def valid_entry(draw):
    closer = draw(st.sampled_from([None, 0, 1]))
    return [draw(valid_pair(closer == index)) for index in range(2)]


class TestProperties:
    @settings(max_examples=examples(200), deadline=None)
    @given(valid_entry())
    def test_partners_score_alike_and_the_breakdown_adds_up_bur_score(self, sheets):
        table = BurracoOptions(semipulito=True)
        result = GAME.score_entry(table, GAME.read_entry(table, {"pairs": sheets}, SEATS), SEATS)
        assert result.points[0] == result.points[2]
        assert result.points[1] == result.points[3]
        for index, breakdown in enumerate(result.to_dict()["pairs"]):
            sheet = sheets[index]
            expected = (
                sheet["melded"]
                + 200 * sheet["pulito"]
                + 100 * sheet["sporco"]
                + 150 * sheet["semipulito"]
                + (100 if sheet["closed"] else 0)
                - sheet["in_hand"]
                - (0 if sheet["pozzetto"] else 100)
            )
            parts = (
                breakdown["melded"]
                + sum(breakdown["burraco_bonuses"].values())
                + breakdown["closing_bonus"]
                - breakdown["in_hand"]
                - breakdown["pozzetto_penalty"]
            )
            assert breakdown["total"] == parts == expected == result.points[index]
            items = [item for item in result.items if item.params["pair"] == index]
            assert sum(item.points for item in items) == expected
