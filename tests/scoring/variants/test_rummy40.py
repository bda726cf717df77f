"""Rummy40 options, setup, values, hand scoring and match end (docs/rules.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, JOKER, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.hands import HandScore, MatchOutcome, SeatEnd
from scoring.melds import check_meld
from scoring.variants.rummy40 import (
    OPENING_MINIMUMS,
    TARGETS,
    Rummy40Options,
    card_value,
    deck,
    hand_size,
    match_result,
    meld_rules,
    score_hand,
)
from tests.hypothesis_profiles import examples

TWO = Rummy40Options.from_dict({}, 2)
FOUR = Rummy40Options.from_dict({}, 4)


def refused(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.violations


def player(name, hand="", melded="", **flags):
    return SeatEnd(name, parse_cards(hand), parse_cards(melded), **flags)


def items(result):
    return [(i.rule, i.code, i.seat, i.points) for i in result.items]


def hand(*points):
    """A scored hand as match_result sees it: only the points matter."""
    return HandScore(
        players=tuple("ABCD"[: len(points)]),
        ending="out",
        points=points,
        winners=(),
        hand_values=(),
        items=(),
    )


class TestValue:
    def test_aces_count_1_pips_their_face_pictures_10_and_a_joker_25(self):
        """R40-VALUE: ace 1, 2-10 face value, J Q K 10, joker 25."""
        spades = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
        assert [card_value(c) for c in spades] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
        assert card_value(JOKER) == 25


class TestSetup:
    def test_two_players_play_one_deck_and_its_two_jokers(self):
        """R40-SETUP (choice: the page's "+ jokers" is the deck's 2)."""
        assert deck(TWO, 2) == DeckSpec(decks=1, jokers=2)

    def test_four_players_play_two_decks_and_four_jokers(self):
        """R40-SETUP: two decks + 2 jokers per deck."""
        assert deck(FOUR, 4) == DeckSpec(decks=2, jokers=4)

    @pytest.mark.parametrize("players", [2, 4])
    def test_everyone_is_dealt_ten_cards(self, players):
        """R40-SETUP: 10 cards each."""
        assert hand_size(TWO, players) == 10

    @pytest.mark.parametrize("players", [1, 3, 5, True, "2"])
    def test_only_two_or_four_players_are_accepted(self, players):
        """R40-SETUP: 2 players (1 vs 1) or 4 (each for themself)."""
        for call in (
            lambda: Rummy40Options.from_dict({}, players),
            lambda: deck(TWO, players),
            lambda: hand_size(TWO, players),
        ):
            (violation,) = refused(call)
            assert (violation.rule, violation.code) == ("R40-SETUP", "players")
            assert violation.params["choices"] == [2, 4]

    def test_a_hand_of_three_players_is_refused(self):
        """R40-SETUP."""
        players = [player("A", went_out=True), player("B", "2C"), player("C", "3C")]
        (violation,) = refused(score_hand, TWO, players)
        assert violation.params == {"count": 3, "min": 2, "max": 4, "choices": [2, 4]}

    def test_a_card_twice_with_one_deck_is_refused_naming_it(self):
        """CARD-2 with R40-SETUP's single deck: 7♠ cannot be melded and held."""
        players = [player("A", melded="7S 8S 9S", went_out=True), player("B", "7S")]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.params) == (
            "CARD-2",
            {"card": "7S", "count": 2, "limit": 1},
        )

    def test_a_third_joker_with_two_players_is_refused(self):
        """CARD-2: the 2-player deck holds 2 jokers."""
        players = [player("A", melded="JK 8S 9S", went_out=True), player("B", "JK JK")]
        (violation,) = refused(score_hand, TWO, players)
        assert violation.params == {"card": "JK", "count": 3, "limit": 2}

    def test_four_players_may_show_two_of_a_card_and_four_jokers(self):
        """R40-SETUP: two decks, 4 jokers."""
        players = [
            player("A", melded="7S 8S JK", went_out=True),
            player("B", "7S JK"),
            player("C", "JK"),
            player("D", "JK"),
        ]
        # B: 7 + 25 = 32; C and D: 25 each.
        assert score_hand(FOUR, players).points == (0, 32, 25, 25)


class TestMeldRules:
    def test_runs_take_the_ace_low_or_high_but_never_round_the_corner(self):
        """R40-RUNS: ACE-LOW and ACE-HIGH, no wrap (choice)."""
        rules = meld_rules(TWO)
        assert (rules.ace_low, rules.ace_high, rules.wrap) == (True, True, False)
        assert check_meld(parse_cards("AS 2S 3S"), rules).kind == "run"
        assert check_meld(parse_cards("QS KS AS"), rules).kind == "run"
        (violation,) = refused(check_meld, parse_cards("KS AS 2S"), rules)
        assert violation.rule == "ACE-WRAP"

    def test_a_meld_holds_one_joker_unless_the_table_says_otherwise(self):
        """R40-RUNS: at most one joker per meld (choice, option max_jokers_per_meld)."""
        assert meld_rules(TWO).max_jokers == 1
        two = Rummy40Options.from_dict({"max_jokers_per_meld": 2}, 2)
        assert meld_rules(two).max_jokers == 2


class TestOptions:
    def test_a_two_player_table_adds_only_to_its_own_melds_by_default(self):
        """§6 and R40-ADD (choice): add_to_any_meld false with 2 players; target 100."""
        assert Rummy40Options() == TWO
        assert TWO.to_dict() == {
            "opening_minimum": 40,
            "add_to_any_meld": False,
            "max_jokers_per_meld": 1,
            "target": 100,
        }

    def test_a_four_player_table_adds_to_any_meld_by_default(self):
        """R40-ADD: in 4-player games also to other players' melds."""
        assert FOUR.add_to_any_meld is True

    def test_a_two_player_table_may_switch_add_to_any_meld_on(self):
        """R40-ADD: the choice is a table option."""
        assert Rummy40Options.from_dict({"add_to_any_meld": True}, 2).add_to_any_meld

    @pytest.mark.parametrize("minimum", OPENING_MINIMUMS)
    def test_the_opening_minimum_is_0_40_or_50(self, minimum):
        """R40-OPEN: 0, 40 or 50 points."""
        assert Rummy40Options.from_dict({"opening_minimum": minimum}, 4).opening_minimum == minimum

    @pytest.mark.parametrize("minimum", [30, 45, -40, True, "40"])
    def test_any_other_opening_minimum_is_refused(self, minimum):
        """R40-OPEN."""
        (violation,) = refused(Rummy40Options.from_dict, {"opening_minimum": minimum}, 2)
        assert (violation.rule, violation.code) == ("R40-OPEN", "bad_minimum")
        assert violation.params == {"value": minimum, "choices": [0, 40, 50]}

    @pytest.mark.parametrize("target", TARGETS)
    def test_the_limit_is_one_hand_100_200_or_500(self, target):
        """R40-MATCH: one hand, 100, 200 or 500."""
        assert Rummy40Options.from_dict({"target": target}, 2).target == target

    @pytest.mark.parametrize("target", [0, 50, 150, 1000, True])
    def test_any_other_limit_is_refused(self, target):
        """R40-MATCH."""
        (violation,) = refused(Rummy40Options.from_dict, {"target": target}, 2)
        assert (violation.rule, violation.code) == ("R40-MATCH", "bad_target")
        assert violation.params["choices"] == [1, 100, 200, 500]

    @pytest.mark.parametrize(
        ("option", "value"),
        [("max_jokers_per_meld", 0), ("max_jokers_per_meld", True), ("add_to_any_meld", 1)],
    )
    def test_a_value_of_the_wrong_kind_is_refused(self, option, value):
        """§6: max_jokers_per_meld is a whole number from 1; bools are true or false."""
        (violation,) = refused(Rummy40Options.from_dict, {option: value}, 4)
        assert (violation.rule, violation.code) == ("OPTIONS", "bad_value")
        assert violation.params["option"] == option

    def test_an_option_of_another_game_is_refused(self):
        """§6: hands is Ramino's."""
        (violation,) = refused(Rummy40Options.from_dict, {"hands": 5}, 2)
        assert (violation.rule, violation.code) == ("OPTIONS", "unknown_option")
        assert violation.params == {"option": "hands", "value": 5}

    def test_options_that_are_not_a_mapping_are_refused(self):
        (violation,) = refused(Rummy40Options.from_dict, [("target", 200)], 2)
        assert violation.code == "bad_value"

    def test_to_dict_round_trips_through_json(self):
        options = Rummy40Options.from_dict({"opening_minimum": 50, "target": 500}, 4)
        assert Rummy40Options.from_dict(json.loads(json.dumps(options.to_dict())), 4) == options


class TestGoingOut:
    def test_the_others_add_the_cards_left_in_hand(self):
        """R40-END: B holds K♠ Q♠ 5♦ JK = 10 + 10 + 5 + 25 = 50; A went out and adds 0."""
        players = [player("A", melded="7H 8H 9H", went_out=True), player("B", "KS QS 5D JK")]
        result = score_hand(TWO, players)
        assert result.points == (0, 50)
        assert (result.ending, result.winners, result.winner) == ("out", (0,), 0)
        assert result.hand_values == (0, 50)
        assert items(result) == [("R40-END", "hand", 1, 50)]
        assert result.items[0].params == {"count": 50, "cards": ["KS", "QS", "5D", "JK"]}

    def test_a_joker_left_in_hand_counts_25(self):
        """R40-VALUE, the page: "If the joker remains in hand, it counts as 25 negative
        points". C holds JK 2♣ = 25 + 2 = 27; B 3♦ = 3; D A♠ A♥ = 2."""
        players = [
            player("A", went_out=True),
            player("B", "3D"),
            player("C", "JK 2C"),
            player("D", "AS AH"),
        ]
        assert score_hand(FOUR, players).points == (0, 3, 27, 2)

    def test_going_out_on_the_turn_the_stock_runs_out_is_going_out(self):
        """R40-END (reading): the player who goes out ends the hand; B adds 9♣ = 9."""
        players = [player("A", went_out=True), player("B", "9C")]
        result = score_hand(TWO, players, stock_exhausted=True)
        assert (result.ending, result.points) == ("out", (0, 9))

    def test_a_player_who_went_out_holding_cards_is_refused(self):
        """R40-HAND: a player goes out by discarding the last card."""
        players = [player("A", "5C", went_out=True), player("B", "9C")]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.code) == ("R40-HAND", "cards_left")
        assert violation.params == {"player": "A", "cards": ["5C"]}

    def test_a_player_with_no_card_who_did_not_go_out_is_refused(self):
        """R40-HAND: a player must always keep at least one card."""
        players = [player("A", went_out=True), player("B")]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.code, violation.params) == (
            "R40-HAND",
            "empty_hand",
            {"player": "B"},
        )

    def test_two_players_going_out_are_refused(self):
        """R40-END: the hand ends when a player goes out."""
        players = [player("A", went_out=True), player("B", went_out=True)]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.code) == ("R40-END", "two_out")
        assert violation.params == {"players": ["A", "B"]}

    def test_a_hand_nobody_ended_is_refused(self):
        """R40-END: a player goes out or the stock runs out."""
        (violation,) = refused(score_hand, TWO, [player("A", "2C"), player("B", "3C")])
        assert (violation.rule, violation.code) == ("R40-END", "not_ended")

    @pytest.mark.parametrize("flag", ["knocked", "hand_closed"])
    def test_flags_of_other_games_are_refused(self, flag):
        """R40-END: a Rummy40 hand has no knock and no closing in hand."""
        players = [player("A", went_out=True, **{flag: True}), player("B", "3C")]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.code) == ("R40-END", "flag_not_used")
        assert violation.params == {"player": "A", "flag": flag}

    def test_every_problem_is_reported_at_once(self):
        players = [player("A", "2C", went_out=True, knocked=True), player("B", "2C")]
        assert [(v.rule, v.code) for v in refused(score_hand, TWO, players)] == [
            ("CARD-2", "too_many_copies"),
            ("R40-END", "flag_not_used"),
            ("R40-HAND", "cards_left"),
        ]


class TestStockRunsOut:
    def test_every_player_adds_their_hand(self):
        """R40-END: A♣ 2♣ = 3; K♦ = 10; JK = 25; 5♥ 5♠ = 10."""
        players = [player("A", "AC 2C"), player("B", "KD"), player("C", "JK"), player("D", "5H 5S")]
        result = score_hand(FOUR, players, stock_exhausted=True)
        assert result.points == (3, 10, 25, 10)
        assert (result.ending, result.winners, result.winner) == ("stock", (), None)
        assert [i.seat for i in result.items] == [0, 1, 2, 3]


class TestOpeningPenalty:
    def test_a_failed_opening_adds_20(self):
        """R40-OPEN-PENALTY: A went out after one opening below 40: 20; B holds 9♣: 9."""
        players = [player("A", went_out=True, opening_penalty=1), player("B", "9C")]
        result = score_hand(TWO, players)
        assert result.points == (20, 9)
        assert items(result) == [
            ("R40-OPEN-PENALTY", "penalty", 0, 20),
            ("R40-END", "hand", 1, 9),
        ]
        assert result.items[0].params == {"count": 1, "penalty": 20}

    def test_true_counts_as_one_failed_opening(self):
        """R40-OPEN-PENALTY: B holds 4♦ and failed once: 4 + 20 = 24."""
        players = [player("A", went_out=True), player("B", "4D", opening_penalty=True)]
        assert score_hand(TWO, players).points == (0, 24)

    def test_each_failed_opening_adds_20(self):
        """R40-OPEN-PENALTY at a 50 table: B failed twice and holds J♥: 10 + 2 × 20 = 50."""
        options = Rummy40Options.from_dict({"opening_minimum": 50}, 2)
        players = [player("A", went_out=True), player("B", "JH", opening_penalty=2)]
        result = score_hand(options, players)
        assert result.points == (0, 50)
        assert result.items[1].params == {"count": 2, "penalty": 20}

    def test_a_penalty_at_a_table_without_minimum_is_refused(self):
        """R40-OPEN-PENALTY: only an opening below 40 or 50 is punished."""
        options = Rummy40Options.from_dict({"opening_minimum": 0}, 2)
        players = [player("A", went_out=True), player("B", "JH", opening_penalty=1)]
        (violation,) = refused(score_hand, options, players)
        assert (violation.rule, violation.code) == ("R40-OPEN-PENALTY", "no_minimum")
        assert violation.params == {"player": "B", "count": 1}

    @pytest.mark.parametrize("count", [-1, "2", 1.5])
    def test_a_count_that_is_not_a_whole_number_is_refused(self, count):
        """R40-OPEN-PENALTY."""
        players = [player("A", went_out=True), player("B", "JH", opening_penalty=count)]
        (violation,) = refused(score_hand, TWO, players)
        assert (violation.rule, violation.code) == ("R40-OPEN-PENALTY", "bad_count")


class TestMatch:
    def test_two_players_the_first_to_reach_the_limit_loses(self):
        """R40-MATCH: B 60 + 45 = 105 passes 100: B loses, A wins."""
        result = match_result(TWO, [hand(0, 60), hand(0, 45)])
        assert (result.finished, result.hands, result.totals) == (True, 2, (0, 105))
        assert (result.winners, result.winner, result.loser) == ((0,), 0, 1)

    def test_reaching_the_limit_exactly_ends_the_match(self):
        """R40-MATCH: reach or pass: A 70 + 30 = 100."""
        result = match_result(TWO, [hand(70, 0), hand(30, 12)])
        assert (result.finished, result.loser, result.winner) == (True, 0, 1)

    def test_below_the_limit_the_match_goes_on(self):
        """R40-MATCH: 40 + 59 = 99."""
        result = match_result(TWO, [hand(40, 0), hand(59, 0)])
        assert (result.finished, result.totals, result.winners, result.loser) == (
            False,
            (99, 0),
            (),
            None,
        )

    def test_both_past_the_limit_in_one_hand_the_higher_loses(self):
        """R40-MATCH (reading): the stock ran out with 90 + 20 = 110 and 80 + 40 = 120."""
        result = match_result(TWO, [hand(90, 80), hand(20, 40)])
        assert (result.totals, result.winner, result.loser) == ((110, 120), 0, 1)

    def test_both_equal_past_the_limit_share_the_win(self):
        """R40-MATCH (reading): 110 each: nobody loses."""
        result = match_result(TWO, [hand(90, 80), hand(20, 30)])
        assert (result.winners, result.winner, result.loser) == ((0, 1), None, None)

    def test_four_players_end_after_the_hand_someone_reaches_the_limit(self):
        """R40-MATCH: C reaches 50 + 54 = 104; lowest wins: A 20 + 0 = 20."""
        result = match_result(FOUR, [hand(20, 30, 50, 10), hand(0, 25, 54, 30)])
        assert result.totals == (20, 55, 104, 40)
        assert (result.finished, result.winners, result.loser) == (True, (0,), None)

    def test_four_players_tied_lowest_share_the_win(self):
        """R40-MATCH: A and D end at 30."""
        result = match_result(FOUR, [hand(30, 55, 104, 30)])
        assert result.winners == (0, 3)

    def test_a_single_hand_is_won_by_the_lowest_score(self):
        """R40-MATCH: one hand: lowest wins, with two players the other loses."""
        single = Rummy40Options.from_dict({"target": 1}, 2)
        result = match_result(single, [hand(0, 23)])
        assert (result.finished, result.winner, result.loser) == (True, 0, 1)
        four = Rummy40Options.from_dict({"target": 1}, 4)
        assert match_result(four, [hand(12, 0, 30, 7)]).winners == (1,)

    def test_a_match_without_hands_goes_on(self):
        assert match_result(TWO, []) == MatchOutcome(finished=False, hands=0, totals=())

    def test_a_hand_after_the_end_is_refused(self):
        """R40-MATCH: the match ended after hand 1."""
        (violation,) = refused(match_result, TWO, [hand(0, 120), hand(3, 0)])
        assert (violation.rule, violation.code) == ("R40-MATCH", "match_over")
        assert violation.params == {"hands": 1}

    def test_a_limit_of_500_runs_longer(self):
        """R40-MATCH: 400 + 99 = 499 goes on; + 1 = 500 ends it."""
        options = Rummy40Options.from_dict({"target": 500}, 2)
        assert not match_result(options, [hand(400, 0), hand(99, 0)]).finished
        assert match_result(options, [hand(400, 0), hand(99, 0), hand(1, 0)]).loser == 0

    def test_the_result_is_json(self):
        result = match_result(TWO, [hand(0, 120)])
        assert json.loads(json.dumps(result.to_dict()))["loser"] == 1


class TestScoringProperties:
    @settings(max_examples=examples(150), deadline=None)
    @given(
        st.sampled_from([2, 4]),
        st.permutations(FULL_DECK),
        st.integers(-1, 3),
        st.integers(0, 2),
        st.data(),
    )
    def test_points_are_the_items_and_the_hand_values_plus_penalties(
        self, players, cards, out, failed, data
    ):
        """R40-END, R40-OPEN-PENALTY, R40-VALUE: what each player adds, itemised."""
        out = out if out < players else -1
        ends = []
        for seat in range(players):
            held = () if seat == out else cards[seat * 5 : seat * 5 + data.draw(st.integers(1, 5))]
            ends.append(
                SeatEnd(str(seat), held, went_out=seat == out, opening_penalty=failed * seat % 3)
            )
        result = score_hand(FOUR if players == 4 else TWO, ends, stock_exhausted=out < 0)
        for seat, end in enumerate(ends):
            assert result.points[seat] == sum(i.points for i in result.items if i.seat == seat)
            expected = sum(card_value(c) for c in end.hand) + 20 * end.opening_penalty
            assert result.points[seat] == expected
        json.dumps(result.to_dict())
