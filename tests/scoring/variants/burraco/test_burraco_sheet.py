"""Refusals of a Burraco hand's sheet: each names its rule and the field at fault."""

import pytest

from scoring.variants.burraco import GAME
from tests.scoring.variants.burraco.helpers import SEATS, options, pair, refused, refused_entry


def one(violations):
    [violation] = violations
    return violation.rule, violation.code, violation.params["field"]


class TestClosings:
    def test_two_closings_are_refused_bur_close(self):
        violations = refused_entry(
            pair(300, pulito=1, closed=True), pair(300, pulito=1, closed=True)
        )
        assert one(violations) == ("BUR-CLOSE", "two_closings", "pairs[1].closed")
        assert "pairs[1].closed" in violations[0].message

    def test_closing_without_a_burraco_is_refused_bur_close(self):
        violations = refused_entry(pair(300, closed=True), pair(100))
        assert one(violations) == ("BUR-CLOSE", "closed_without_burraco", "pairs[0].closed")

    def test_closing_without_the_pozzetto_is_refused_bur_close(self):
        violations = refused_entry(pair(300, pulito=1, closed=True, pozzetto=False), pair(100))
        assert one(violations) == ("BUR-CLOSE", "closed_without_pozzetto", "pairs[0].closed")
        assert "pozzetto" in violations[0].message


class TestPoints:
    def test_points_not_a_multiple_of_5_are_refused_bur_score(self):
        violations = refused_entry(pair(37), pair(100))
        assert one(violations) == ("BUR-SCORE", "not_multiple_of_5", "pairs[0].melded")
        assert "pairs[0].melded" in violations[0].message

    def test_more_than_the_deck_in_one_field_is_refused_bur_score(self):
        # The deck is worth 1080 (4 x 30 + 8 x 20 + 8 x 15 + 48 x 10 + 40 x 5).
        violations = refused_entry(pair(100), pair(100, in_hand=1085))
        assert one(violations) == ("BUR-SCORE", "too_many_points", "pairs[1].in_hand")

    def test_more_than_the_deck_over_both_pairs_is_refused_bur_values(self):
        # 600 + 100 + 300 + 100 = 1100 > 1080
        violations = refused_entry(pair(600, in_hand=100), pair(300, in_hand=100))
        assert one(violations) == ("BUR-VALUES", "over_deck", "pairs")

    def test_negative_points_are_refused_bur_score(self):
        violations = refused_entry(pair(100), pair(-5))
        assert one(violations) == ("BUR-SCORE", "bad_points", "pairs[1].melded")

    @pytest.mark.parametrize("value", ["400", 400.0, True, [400]])
    def test_points_of_the_wrong_type_are_refused_bur_score(self, value):
        violations = refused_entry(pair(value), pair(100))
        assert one(violations) == ("BUR-SCORE", "bad_points", "pairs[0].melded")

    def test_melded_points_left_out_are_refused_bur_score(self):
        first = pair(100)
        del first["melded"]
        violations = refused_entry(first, pair(100))
        assert one(violations) == ("BUR-SCORE", "missing", "pairs[0].melded")


class TestBurracoCounts:
    def test_a_burraco_needs_seven_cards_worth_of_points_bur_burraco(self):
        # One pulito is 7 natural cards, 7 x 5 = 35 at least; one sporco 6 x 5 + 20 = 50.
        violations = refused_entry(pair(80, pulito=1, sporco=1), pair(100))
        # 35 + 50 = 85 > 80
        assert one(violations) == ("BUR-BURRACO", "burraco_points", "pairs[0].melded")

    def test_the_least_points_a_pulito_and_a_sporco_can_hold_are_accepted(self):
        result = GAME.score_entry(
            options(),
            GAME.read_entry(
                options(),
                {"pairs": [pair(85, pulito=1, sporco=1), pair(100)]},
                SEATS,
            ),
            SEATS,
        )
        # 85 + 200 + 100 = 385
        assert result.points[0] == 385

    @pytest.mark.parametrize("count", [-1, 16, "1", 1.0, None])
    def test_a_count_off_its_bounds_or_type_is_refused_bur_burraco(self, count):
        first = pair(600)
        first["sporco"] = count
        violations = refused_entry(first, pair(100))
        assert one(violations) == ("BUR-BURRACO", "bad_count", "pairs[0].sporco")

    def test_more_burracos_than_108_cards_make_are_refused_bur_burraco(self):
        # 16 pulito x 7 cards = 112 > 108; 8 x 35 = 280 melded each is enough for the points.
        violations = refused_entry(pair(300, pulito=8), pair(300, pulito=8))
        assert one(violations) == ("BUR-BURRACO", "too_many_burracos", "pairs")

    def test_more_dirty_burracos_than_wilds_are_refused_bur_wild(self):
        # 7 + 6 = 13 sporco, but 4 jollies + 8 pinelle = 12 wilds; 13 x 7 = 91 cards fit.
        violations = refused_entry(pair(350, sporco=7), pair(300, sporco=6))
        assert one(violations) == ("BUR-WILD", "too_many_wilds", "pairs")

    def test_a_semipulito_without_the_option_is_refused_bur_opt_semipulito(self):
        violations = refused_entry(pair(300, semipulito=1), pair(100))
        assert one(violations) == ("BUR-OPT-SEMIPULITO", "semipulito_off", "pairs[0].semipulito")


class TestShape:
    def test_a_missing_pair_is_refused(self):
        violations = refused(GAME.read_entry, options(), {"mode": "sheet", "pairs": [pair(1)]})
        assert one(violations) == ("BUR-SETUP", "two_pairs", "pairs")

    def test_a_pair_that_is_no_object_is_refused(self):
        violations = refused(GAME.read_entry, options(), {"pairs": [pair(100), 100]})
        assert one(violations) == ("BUR-SCORE", "bad_entry", "pairs[1]")

    def test_an_unknown_field_is_refused(self):
        first = {**pair(100), "bonus": 50}
        violations = refused_entry(first, pair(100))
        assert one(violations) == ("BUR-SCORE", "unknown_field", "pairs[0]")

    def test_an_unknown_mode_is_refused(self):
        violations = refused(GAME.read_entry, options(), {"mode": "guess", "pairs": []})
        assert one(violations) == ("BUR-SCORE", "bad_mode", "mode")

    @pytest.mark.parametrize("value", [1, "yes", None])
    def test_a_flag_not_true_or_false_is_refused_bur_pozzetto(self, value):
        first = pair(100)
        first["pozzetto"] = value
        violations = refused_entry(first, pair(100))
        assert one(violations) == ("BUR-POZZETTO", "bad_flag", "pairs[0].pozzetto")

    def test_the_pozzetto_must_be_said_bur_pozzetto(self):
        first = pair(100)
        del first["pozzetto"]
        violations = refused_entry(first, pair(100))
        assert one(violations) == ("BUR-POZZETTO", "missing", "pairs[0].pozzetto")
