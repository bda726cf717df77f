"""Canasta's rules as the engine applies them (CAN-SETUP, CAN-VALUES, CAN-MELD-1,
CAN-MELD-2, CAN-MELD-3, CAN-CANASTA-1, CAN-RED3-1, CAN-OUT-1, CAN-OUT-2, CAN-OPEN-1,
CAN-SCORE-1, CAN-MATCH-1, CAN-OPT-CONCEALED, CAN-OPT-CANASTAS), every value worked by hand
from docs/rules.md in the comment beside it."""

import pytest

from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.variants.canasta import GAME
from scoring.variants.canasta.cards import DECK_VALUE, card_value
from scoring.variants.canasta.match import first_meld_minimum
from scoring.variants.canasta.melds import MIXED, NATURAL, NO_CANASTA, check_meld

SEATS = ("North", "East", "South", "West")


def options(**chosen):
    return GAME.options_from_dict(chosen, 4)


def side(melded=0, **figures):
    return {"melded": melded, "in_hand": figures.pop("in_hand", 0), **figures}


def scored(first, second, table=None):
    table = table or options()
    entry = GAME.read_entry(table, {"mode": "sheet", "pairs": [first, second]}, SEATS)
    return GAME.score_entry(table, entry, SEATS)


def refusal(first, second, table=None) -> set[tuple[str, str]]:
    with pytest.raises(RuleViolation) as caught:
        scored(first, second, table)
    return {(v.rule, v.code) for v in caught.value.violations}


def meld_refusal(text, **kwargs) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as caught:
        check_meld(parse_cards(text), **kwargs)
    (violation,) = caught.value.violations
    return violation.rule, violation.code


class TestValues:
    def test_card_values_can_values(self):
        # Joker 50, 2 and ace 20, K to 8 10, 7 to 4 5, black 3 5.
        values = [card_value(card) for card in parse_cards("JK 2H AS KD 8C 7H 4S 3C")]
        assert values == [50, 20, 20, 10, 10, 5, 5, 5]

    def test_the_deck_without_red_threes_is_worth_1180_can_values(self):
        # 4 jokers 200 + 8 twos 160 + 8 aces 160 + 48 eights to kings 480 + 32 fours to
        # sevens 160 + 4 black 3s 20 = 1180.
        assert DECK_VALUE == 1180

    def test_four_players_only_can_setup(self):
        with pytest.raises(RuleViolation) as caught:
            GAME.options_from_dict({}, 3)
        assert caught.value.violations[0].rule == "CAN-SETUP"


class TestMelds:
    def test_a_set_of_one_rank_can_meld_1(self):
        meld = check_meld(parse_cards("8S 8H 8D"))
        # 3 x 10 = 30, no canasta.
        assert (meld.value, meld.canasta) == (30, NO_CANASTA)

    def test_no_sequences_can_meld_1(self):
        assert meld_refusal("6H 7H 8H") == ("CAN-MELD-1", "mixed_ranks")

    def test_two_cards_are_no_meld_can_meld_1(self):
        assert meld_refusal("8S 8H") == ("CAN-MELD-1", "too_short")

    def test_two_naturals_at_least_can_meld_2(self):
        assert meld_refusal("9C JK 2D") == ("CAN-MELD-2", "too_few_naturals")

    def test_three_wilds_at_most_even_in_a_canasta_can_meld_2(self):
        assert meld_refusal("9C 9D 9S JK 2D 2H 2C") == ("CAN-MELD-2", "too_many_wilds")
        # 9C 9D JK: 10 + 10 + 50 = 70.
        assert check_meld(parse_cards("9C 9D JK")).value == 70

    def test_black_threes_only_going_out_and_without_wilds_can_meld_3(self):
        # Three black 3s going out: 3 x 5 = 15.
        assert check_meld(parse_cards("3S 3C 3S"), going_out=True).value == 15
        assert meld_refusal("3S 3C 3S", going_out=False) == ("CAN-MELD-3", "black_threes_not_out")
        assert meld_refusal("3S 3C JK") == ("CAN-MELD-3", "black_threes_wild")

    def test_a_red_three_is_never_melded_can_red3_1(self):
        assert meld_refusal("3H 3S 3C") == ("CAN-RED3-1", "red_three_melded")


class TestCanastas:
    def test_seven_naturals_are_a_natural_canasta_can_canasta_1(self):
        meld = check_meld(parse_cards("QS QS QH QH QD QD QC"))
        # Seven queens 7 x 10 = 70, natural, 500.
        assert (meld.canasta, meld.bonus, meld.value) == (NATURAL, 500, 70)

    def test_seven_with_wilds_are_a_mixed_canasta_can_canasta_1(self):
        meld = check_meld(parse_cards("QS QS QH QH QD JK 2C"))
        # Five queens 50, a joker 50, a 2 20 = 120; mixed, 300.
        assert (meld.canasta, meld.bonus, meld.value) == (MIXED, 300, 120)


class TestRedThrees:
    def test_a_side_that_melded_gains_100_each_can_red3_1(self):
        result = scored(side(120, red_threes=2), side(50))
        # 120 + 2 x 100 = 320.
        assert result.points[0] == 320

    def test_all_four_to_a_side_that_melded_are_800_can_red3_1(self):
        result = scored(side(100, red_threes=4), side(50))
        # 100 + 800 = 900.
        assert result.points[0] == 900

    def test_a_side_that_melded_nothing_loses_them_can_red3_1(self):
        result = scored(side(0, red_threes=2, in_hand=40), side(50))
        # 0 - 200 - 40 = -240.
        assert result.points[0] == -240
        result = scored(side(0, red_threes=4), side(50))
        # All four, nothing melded: -800.
        assert result.points[0] == -800

    def test_more_than_four_red_threes_are_refused_can_red3_1(self):
        problems = refusal(side(100, red_threes=3), side(100, red_threes=2))
        assert ("CAN-RED3-1", "too_many_red_threes") in problems


class TestGoingOut:
    def test_going_out_with_a_canasta_earns_100_can_out_1(self):
        result = scored(side(240, mixed=1, went_out=True), side(90))
        # 240 + 300 + 100 = 640.
        assert result.points == (640, 90, 640, 90)

    def test_going_out_without_a_canasta_is_refused_can_out_1(self):
        problems = refusal(side(240, went_out=True), side(90))
        assert ("CAN-OUT-1", "out_without_canasta") in problems

    def test_two_sides_cannot_both_go_out_can_out_1(self):
        problems = refusal(side(240, mixed=1, went_out=True), side(240, mixed=1, went_out=True))
        assert ("CAN-OUT-1", "two_outs") in problems

    def test_going_out_concealed_earns_200_can_out_2(self):
        result = scored(side(130, natural=1, went_out=True, concealed=True), side(90))
        # 130 + 500 + 200 = 830.
        assert result.points[0] == 830

    def test_concealed_is_for_the_side_that_went_out_can_out_2(self):
        problems = refusal(side(130, natural=1, concealed=True), side(90))
        assert ("CAN-OUT-2", "concealed_not_out") in problems

    def test_concealed_bonus_off_pays_100_can_opt_concealed(self):
        table = options(concealed_bonus=False)
        result = scored(side(130, natural=1, went_out=True, concealed=True), side(90), table)
        # 130 + 500 + 100 = 730.
        assert result.points[0] == 730

    def test_two_canastas_to_go_out_can_opt_canastas(self):
        table = options(canastas_to_go_out=2)
        problems = refusal(side(240, natural=1, went_out=True), side(90), table)
        assert ("CAN-OUT-1", "out_without_canasta") in problems
        result = scored(side(240, natural=1, mixed=1, went_out=True), side(90), table)
        # 240 + 500 + 300 + 100 = 1140.
        assert result.points[0] == 1140

    def test_three_canastas_to_go_out_is_no_choice_can_opt_canastas(self):
        with pytest.raises(RuleViolation) as caught:
            options(canastas_to_go_out=3)
        assert caught.value.violations[0].rule == "CAN-OPT-CANASTAS"


class TestSheetBounds:
    def test_canastas_need_their_cards_worth_can_canasta_1(self):
        # Two natural canastas are 14 cards of 5 at least: 70 melded, not 60.
        problems = refusal(side(60, natural=2), side(0))
        assert ("CAN-CANASTA-1", "canasta_points") in problems

    def test_points_past_the_deck_are_refused_can_values(self):
        problems = refusal(side(1000), side(0, in_hand=300))
        assert ("CAN-VALUES", "over_deck") in problems
        assert ("CAN-VALUES", "not_multiple_of_5") in refusal(side(101), side(0))

    def test_a_bad_count_names_its_field_can_score_1(self):
        with pytest.raises(RuleViolation) as caught:
            scored(side(100, mixed="two"), side(0))
        (violation,) = caught.value.violations
        assert (violation.rule, violation.params["field"]) == ("CAN-CANASTA-1", "pairs[0].mixed")


class TestScore:
    def test_the_worked_example_can_score_1(self):
        # North-South: 240 + 500 + 300 + 100 out + 100 red 3 - 15 = 1225.
        # East-West: 90 + 100 red 3 - 65 = 125.
        result = scored(
            side(240, natural=1, mixed=1, red_threes=1, went_out=True, in_hand=15),
            side(90, red_threes=1, in_hand=65),
        )
        assert result.points == (1225, 125, 1225, 125)
        assert result.winners == (0, 2)

    def test_a_hand_entered_by_its_cards_can_score_1(self):
        table = options()
        entry = {
            "mode": "cards",
            "pairs": [
                {
                    "melds": ["QS QS QH QH QD QD QC", "3S 3C 3S"],
                    "hands": ["", "4D 5D"],
                    "red_threes": 1,
                    "went_out": True,
                },
                {"melds": ["8S 8H JK"], "hands": ["KC", "AC 2S"], "red_threes": 0},
            ],
        }
        result = GAME.score_entry(table, GAME.read_entry(table, entry, SEATS), SEATS)
        # North-South: queens 70 + black 3s 15 = 85 melded; natural canasta 500; out 100;
        # one red 3 100; South holds 4D 5D 10: 85 + 500 + 100 + 100 - 10 = 775.
        # East-West: 8S 8H JK 70 melded; hold KC 10, AC 20, 2S 20 = 50: 70 - 50 = 20.
        assert result.points == (775, 20, 775, 20)

    def test_a_red_three_held_is_refused_can_red3_1(self):
        table = options()
        entry = {
            "mode": "cards",
            "pairs": [
                {"melds": [], "hands": ["3H", ""]},
                {"melds": [], "hands": ["", ""]},
            ],
        }
        with pytest.raises(RuleViolation) as caught:
            GAME.read_entry(table, entry, SEATS)
        assert caught.value.violations[0].code == "red_three_held"


class TestFirstMeld:
    @pytest.mark.parametrize(
        ("total", "minimum"),
        [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (7000, 120)],
    )
    def test_the_minimum_by_the_sides_total_can_open_1(self, total, minimum):
        # The bands: below 0 15; 0 to 1495 50; 1500 to 2995 90; 3000 and more 120.
        assert first_meld_minimum(total) == minimum


class TestMatch:
    def test_to_5000_the_higher_total_wins_can_match_1(self):
        table = options()
        big = scored(side(1000, natural=4, mixed=3, went_out=True), side(50), table)
        # 1000 + 4 x 500 + 3 x 300 + 100 = 4000 a hand against 50.
        assert big.points[0] == 4000
        assert not GAME.match_result(table, [big]).finished
        outcome = GAME.match_result(table, [big, big])
        # 8000 against 100 after two hands.
        assert outcome.finished and outcome.winners == (0, 2)
        assert outcome.totals == (8000, 100, 8000, 100)

    def test_a_hand_after_the_end_is_refused_can_match_1(self):
        table = options(target=100)
        hand = scored(side(200), side(50), table)
        with pytest.raises(RuleViolation) as caught:
            GAME.match_result(table, [hand, hand])
        assert caught.value.violations[0].code == "match_over"
