"""Ramino options and house rules, setup, values, hand scoring and match end (docs/rules.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, JOKER, Card, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.hands import HandScore, SeatEnd
from scoring.melds import check_meld
from scoring.variants.ramino import (
    RaminoOptions,
    card_value,
    card_values,
    casino_value,
    deck,
    hand_size,
    match_result,
    meld_rules,
    score_hand,
)
from tests.hypothesis_profiles import examples

STANDARD = RaminoOptions.from_dict({}, 4)
CASINO = RaminoOptions.from_dict({"casino_scoring": True}, 4)


def refused(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.violations


def player(name, hand="", melded="", **flags):
    return SeatEnd(name, parse_cards(hand), parse_cards(melded), **flags)


def items(result):
    return [(i.rule, i.code, i.seat, i.points) for i in result.items]


def options(players=4, **values):
    return RaminoOptions.from_dict(values, players)


def hand(*points):
    """A scored hand as match_result sees it: only the points matter."""
    return HandScore(
        players=tuple("ABCDEF"[: len(points)]),
        ending="out",
        points=points,
        winners=(),
        hand_values=(),
        items=(),
    )


def ramino_deck(decks: int, jokers: int) -> DeckSpec:
    # A Ramino deck without jokers cites the house rule that takes them out (RAM-OPT-NOJOKER).
    return DeckSpec(decks=decks, jokers=jokers, no_jokers_rule="RAM-OPT-NOJOKER")


class TestValue:
    def test_pips_count_their_face_tens_and_pictures_10_aces_11_jokers_20(self):
        """RAM-VALUE: 2-9 face value; 10 J Q K 10; ace 11; joker 20."""
        hearts = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        assert [card_value(c) for c in hearts] == [11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
        assert card_value(JOKER) == 20

    def test_casino_values_make_the_queen_of_spades_40(self):
        """RAM-OPT-CASINO: Q♠ 40, ace 15, 10 J Q K 10, 2-9 5, joker 0."""
        spades = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
        assert [casino_value(c) for c in spades] == [15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 40, 10]
        assert casino_value(Card(12, "H")) == 10
        assert casino_value(JOKER) == 0

    def test_the_table_values_follow_casino_scoring(self):
        """RAM-VALUE / RAM-OPT-CASINO."""
        assert card_values(STANDARD) is card_value
        assert card_values(CASINO) is casino_value


class TestSetup:
    def test_the_table_plays_two_decks_and_six_jokers(self):
        """RAM-SETUP: 2 × 52 + 6 = 110 cards."""
        spec = deck(STANDARD, 4)
        assert spec == ramino_deck(2, 6)
        assert 52 * spec.decks + spec.jokers == 110

    def test_without_jokers_the_table_has_104_cards(self):
        """RAM-OPT-NOJOKER: 104 cards."""
        assert deck(options(no_jokers=True), 4) == ramino_deck(2, 0)

    def test_the_short_deck_is_one_deck_and_three_jokers(self):
        """RAM-OPT-SHORT: 52 + 3 = 55 cards; without jokers 52."""
        assert deck(options(short_deck=True), 2) == ramino_deck(1, 3)
        assert deck(options(short_deck=True, no_jokers=True), 2) == ramino_deck(1, 0)

    @pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
    def test_everyone_is_dealt_13_cards_whatever_the_number_of_players(self, players):
        """RAM-SETUP: 13 cards each, 2-4 players, the classic game up to 6."""
        assert hand_size(options(players), players) == 13

    def test_the_short_deck_deals_10_to_two_players_and_7_to_more(self):
        """RAM-OPT-SHORT: 10 cards each with 2 players, 7 each with more."""
        short = options(2, short_deck=True)
        assert [hand_size(short, n) for n in (2, 3, 4, 5, 6)] == [10, 7, 7, 7, 7]

    @pytest.mark.parametrize("players", [1, 7, 0, True])
    def test_fewer_than_two_or_more_than_six_players_are_refused(self, players):
        """RAM-SETUP: 2-4 players, up to 6 in the classic game."""
        for call in (
            lambda: RaminoOptions.from_dict({}, players),
            lambda: deck(STANDARD, players),
            lambda: hand_size(STANDARD, players),
        ):
            (violation,) = refused(call)
            assert (violation.rule, violation.code) == ("RAM-SETUP", "players")
            assert (violation.params["min"], violation.params["max"]) == (2, 6)

    def test_a_hand_of_seven_players_is_refused(self):
        """RAM-SETUP."""
        players = [player("A", went_out=True)] + [player(str(n), "2C") for n in range(6)]
        (violation,) = refused(score_hand, STANDARD, players)
        assert violation.params["count"] == 7

    def test_a_third_copy_of_a_card_is_refused(self):
        """CARD-2: two decks hold 7♠ twice."""
        players = [player("A", melded="7S 8S 9S", went_out=True), player("B", "7S 7S")]
        (violation,) = refused(score_hand, STANDARD, players)
        assert (violation.rule, violation.params) == (
            "CARD-2",
            {"card": "7S", "count": 3, "limit": 2},
        )

    def test_a_joker_at_a_table_without_jokers_is_refused(self):
        """RAM-OPT-NOJOKER: the refusal cites the house rule, not a count of copies."""
        players = [player("A", went_out=True), player("B", "JK")]
        (violation,) = refused(score_hand, options(no_jokers=True), players)
        assert (violation.rule, violation.code) == ("RAM-OPT-NOJOKER", "no_jokers")
        assert violation.params == {"card": "JK", "count": 1, "limit": 0}


class TestMeldRules:
    def test_the_ace_begins_or_ends_a_run_but_never_stands_inside(self):
        """RAM-RUN and ACE-WRAP: (A) 2 … K (A)."""
        rules = meld_rules(STANDARD)
        assert (rules.ace_low, rules.ace_high, rules.wrap) == (True, True, False)
        assert check_meld(parse_cards("AD 2D 3D"), rules).kind == "run"
        assert check_meld(parse_cards("QD KD AD"), rules).kind == "run"
        (violation,) = refused(check_meld, parse_cards("KD AD 2D"), rules)
        assert violation.rule == "ACE-WRAP"

    def test_circular_runs_let_the_ace_stand_inside(self):
        """RAM-OPT-CIRCULAR: K-A-2 is a run."""
        rules = meld_rules(options(circular_runs=True))
        assert rules.wrap is True
        assert [str(c) for c in check_meld(parse_cards("2D KD AD"), rules).cards] == [
            "KD",
            "AD",
            "2D",
        ]

    def test_sets_hold_3_or_4_cards_each_suit_once(self):
        """RAM-SET."""
        rules = meld_rules(STANDARD)
        assert rules.max_set == 4
        (violation,) = refused(check_meld, parse_cards("7S 7H 7S"), rules)
        assert (violation.rule, violation.code) == ("MELD-SET", "repeated_suit")

    def test_jokers_may_sit_side_by_side_but_never_outnumber_the_naturals(self):
        """RAM-JOKER: no count limit, jokers ≤ natural cards, adjacent jokers allowed."""
        rules = meld_rules(STANDARD)
        assert rules.max_jokers is None
        assert rules.jokers_within_naturals is True
        assert rules.adjacent_jokers is True

    def test_fixed_jokers_forbid_two_jokers_side_by_side(self):
        """RAM-OPT-FIXEDJOKER."""
        assert meld_rules(options(fixed_jokers=True)).adjacent_jokers is False

    def test_fixed_groups_order_the_suits_of_a_set(self):
        """RAM-OPT-FIXEDGROUPS."""
        assert meld_rules(STANDARD).fixed_groups is False
        assert meld_rules(options(fixed_groups=True)).fixed_groups is True

    def test_without_jokers_no_meld_holds_one(self):
        """RAM-OPT-NOJOKER."""
        assert meld_rules(options(no_jokers=True)).max_jokers == 0


class TestOptions:
    def test_no_options_are_the_standard_table(self):
        """§6: every house rule off, 5 hands (choice), opening 30 (RAM-OPEN)."""
        assert RaminoOptions() == STANDARD
        assert STANDARD.to_dict() == {
            "hands": 5,
            "short_deck": False,
            "scala40": False,
            "no_opening": False,
            "circular_runs": False,
            "no_jokers": False,
            "fixed_jokers": False,
            "fixed_groups": False,
            "knock_claim": False,
            "no_discard_win": False,
            "casino_scoring": False,
            "practice": False,
            "opening_minimum": 30,
        }

    def test_scala40_raises_the_opening_to_40(self):
        """RAM-OPT-SCALA40."""
        assert options(scala40=True).opening_minimum == 40

    def test_no_opening_drops_the_minimum(self):
        """RAM-OPT-NOOPEN."""
        assert options(no_opening=True).opening_minimum == 0

    def test_the_short_deck_turns_on_no_opening(self):
        """RAM-OPT-SHORT: turns on RAM-OPT-NOOPEN."""
        short = options(2, short_deck=True)
        assert (short.no_opening, short.opening_minimum) == (True, 0)
        assert options(2, short_deck=True, no_opening=True) == short

    def test_the_short_deck_with_no_opening_switched_off_is_refused(self):
        """RAM-OPT-SHORT (reading): it turns no_opening on, so off contradicts it."""
        (violation,) = refused(options, 2, short_deck=True, no_opening=False)
        assert (violation.rule, violation.code) == ("RAM-OPT-SHORT", "opening")

    @pytest.mark.parametrize(
        ("values", "conflict"),
        [({"no_opening": True}, "no_opening"), ({"short_deck": True}, "short_deck")],
    )
    def test_scala40_without_opening_is_refused(self, values, conflict):
        """RAM-OPT-SCALA40 vs RAM-OPT-NOOPEN (reading): refused, not resolved."""
        (violation,) = refused(options, 2, scala40=True, **values)
        assert (violation.rule, violation.code) == ("RAM-OPT-SCALA40", "conflict")
        assert violation.params == {"option": conflict}

    def test_fixed_jokers_without_jokers_are_refused(self):
        """RAM-OPT-FIXEDJOKER needs RAM-SETUP's jokers (reading)."""
        (violation,) = refused(options, no_jokers=True, fixed_jokers=True)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDJOKER", "no_jokers")

    def test_knock_claim_needs_three_players(self):
        """RAM-OPT-KNOCKCLAIM: with 3+ players; nobody claims their own discard."""
        assert options(3, knock_claim=True).knock_claim is True
        (violation,) = refused(options, 2, knock_claim=True)
        assert (violation.rule, violation.code) == ("RAM-OPT-KNOCKCLAIM", "players")
        assert violation.params == {"count": 2, "min": 3}

    def test_a_practice_table_never_counts_in_standings(self):
        """RAM-OPT-PRACTICE."""
        assert STANDARD.counts_in_standings is True
        assert options(practice=True).counts_in_standings is False

    def test_no_discard_win_is_a_table_option(self):
        """RAM-OPT-NODISCARDWIN: kept for the replay; scoring is unchanged."""
        assert options(no_discard_win=True).to_dict()["no_discard_win"] is True

    @pytest.mark.parametrize("hands", [1, 5, 20])
    def test_the_table_chooses_1_to_20_hands(self, hands):
        """RAM-MATCH: a chosen number of hands."""
        assert options(hands=hands).hands == hands

    @pytest.mark.parametrize("hands", [0, 21, True, "5", 2.0])
    def test_any_other_number_of_hands_is_refused(self, hands):
        """RAM-MATCH."""
        (violation,) = refused(options, hands=hands)
        assert (violation.rule, violation.code) == ("RAM-MATCH", "bad_hands")
        assert violation.params == {"hands": hands, "min": 1, "max": 20}

    def test_an_opening_minimum_that_agrees_is_accepted(self):
        """§6: opening_minimum follows from the house rules."""
        assert options(scala40=True, opening_minimum=40).scala40

    def test_an_opening_minimum_that_disagrees_is_refused(self):
        """§6: 30 (0 with no_opening, 40 with scala40): set it through the house rules."""
        (violation,) = refused(options, opening_minimum=40)
        assert (violation.rule, violation.code) == ("OPTIONS", "bad_value")
        assert violation.params["option"] == "opening_minimum"

    @pytest.mark.parametrize("option", ["casino_scoring", "practice", "no_opening"])
    def test_house_rules_are_true_or_false(self, option):
        (violation,) = refused(options, **{option: 1})
        assert (violation.rule, violation.code) == ("OPTIONS", "bad_value")

    def test_an_option_of_another_game_is_refused(self):
        (violation,) = refused(options, target=100)
        assert (violation.rule, violation.code) == ("OPTIONS", "unknown_option")

    def test_to_dict_round_trips_through_json(self):
        table = options(3, short_deck=True, knock_claim=True, casino_scoring=True, hands=8)
        assert RaminoOptions.from_dict(json.loads(json.dumps(table.to_dict())), 3) == table


class TestGoingOut:
    def test_the_others_lose_their_hands_and_the_winner_gains_it_all(self):
        """RAM-SCORE; the page: an ace left in hand costs you 11 and goes to the winner.

        B holds A♠: 11. C holds K♦ 7♣ JK: 10 + 7 + 20 = 37. A gains 11 + 37 = 48.
        """
        players = [player("A", went_out=True), player("B", "AS"), player("C", "KD 7C JK")]
        result = score_hand(STANDARD, players)
        assert result.points == (48, -11, -37)
        assert (result.ending, result.winner, result.hand_values) == ("out", 0, (0, 11, 37))
        assert items(result) == [
            ("RAM-SCORE", "gained", 0, 48),
            ("RAM-SCORE", "hand", 1, -11),
            ("RAM-SCORE", "hand", 2, -37),
        ]

    def test_going_out_on_the_turn_the_stock_runs_out_is_going_out(self):
        """RAM-OUT (reading): B's 9♣ = 9 goes to A."""
        players = [player("A", went_out=True), player("B", "9C")]
        result = score_hand(STANDARD, players, stock_exhausted=True)
        assert (result.ending, result.points) == ("out", (9, -9))

    def test_two_players_going_out_are_refused(self):
        """RAM-OUT: the first to go out ends the hand."""
        players = [player("A", went_out=True), player("B", went_out=True)]
        (violation,) = refused(score_hand, STANDARD, players)
        assert (violation.rule, violation.code) == ("RAM-OUT", "two_out")
        assert violation.params == {"players": ["A", "B"]}

    def test_a_hand_nobody_ended_is_refused(self):
        """RAM-OUT / RAM-STOCK."""
        (violation,) = refused(score_hand, STANDARD, [player("A", "2C"), player("B", "3C")])
        assert (violation.rule, violation.code) == ("RAM-OUT", "not_ended")

    def test_a_player_who_went_out_holding_cards_is_refused(self):
        """RAM-OUT: the winner has melded all cards and discarded the last."""
        (violation,) = refused(
            score_hand, STANDARD, [player("A", "2C", went_out=True), player("B", "3C")]
        )
        assert (violation.rule, violation.code) == ("RAM-OUT", "cards_left")
        assert violation.params == {"player": "A", "cards": ["2C"]}

    def test_an_empty_hand_not_marked_out_is_refused(self):
        """RAM-OUT."""
        (violation,) = refused(score_hand, STANDARD, [player("A", went_out=True), player("B")])
        assert (violation.rule, violation.code) == ("RAM-OUT", "empty_hand")

    @pytest.mark.parametrize(("flag", "value"), [("knocked", True), ("opening_penalty", 1)])
    def test_flags_of_other_games_are_refused(self, flag, value):
        """RAM-OUT: knocking for a discard (RAM-OPT-KNOCKCLAIM) never ends a hand, and
        Ramino has no opening penalty."""
        players = [player("A", went_out=True), player("B", "3C", **{flag: value})]
        (violation,) = refused(score_hand, STANDARD, players)
        assert (violation.rule, violation.code) == ("RAM-OUT", "flag_not_used")
        assert violation.params == {"player": "B", "flag": flag}


class TestStockRunsOut:
    def test_nobody_wins_and_everyone_loses_their_hand(self):
        """RAM-STOCK: A♣ 2♣ = 11 + 2 = 13; 9♥ 9♦ = 18."""
        players = [player("A", "AC 2C"), player("B", "9H 9D")]
        result = score_hand(STANDARD, players, stock_exhausted=True)
        assert result.points == (-13, -18)
        assert (result.ending, result.winners) == ("stock", ())
        assert items(result) == [("RAM-STOCK", "hand", 0, -13), ("RAM-STOCK", "hand", 1, -18)]

    def test_casino_values_count_when_the_stock_runs_out(self):
        """RAM-STOCK with RAM-OPT-CASINO: Q♠ 40; JK 0."""
        players = [player("A", "QS"), player("B", "JK")]
        assert score_hand(CASINO, players, stock_exhausted=True).points == (-40, 0)


class TestHandClose:
    def test_closing_in_hand_doubles_every_point(self):
        """RAM-HANDCLOSE: B holds Q♥ 3♠ = 13: A +13 × 2 = 26, B −13 × 2 = −26."""
        melded = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
        players = [
            player("A", melded=melded, went_out=True, hand_closed=True),
            player("B", "QH 3S"),
        ]
        result = score_hand(STANDARD, players)
        assert result.points == (26, -26)
        assert items(result) == [
            ("RAM-SCORE", "gained", 0, 13),
            ("RAM-SCORE", "hand", 1, -13),
            ("RAM-HANDCLOSE", "double", 0, 13),
            ("RAM-HANDCLOSE", "double", 1, -13),
        ]

    def test_only_the_player_who_went_out_can_close_in_hand(self):
        """RAM-HANDCLOSE."""
        players = [player("A", went_out=True), player("B", "3S", hand_closed=True)]
        (violation,) = refused(score_hand, STANDARD, players)
        assert (violation.rule, violation.code) == ("RAM-HANDCLOSE", "not_out")
        assert violation.params == {"player": "B"}


class TestCasino:
    def test_the_winner_also_gains_the_cards_they_melded_split_among_the_others(self):
        """RAM-OPT-CASINO, 3 players.

        A melded Q♠ Q♥ Q♦ 5♣ 6♣ 7♣ 8♣ JK: 40 + 10 + 10 + 5 × 4 + 0 = 80.
        B holds A♠ 3♦: 15 + 5 = 20; C holds JK 10♥: 0 + 10 = 10.
        RAM-SCORE: A +30, B −20, C −10. Melded: A +80, B and C −40 each.
        A 30 + 80 = 110; B −20 − 40 = −60; C −10 − 40 = −50.
        """
        players = [
            player("A", melded="QS QH QD 5C 6C 7C 8C JK", went_out=True),
            player("B", "AS 3D"),
            player("C", "JK 10H"),
        ]
        result = score_hand(CASINO, players)
        assert result.points == (110, -60, -50)
        assert sum(result.points) == 0
        assert items(result)[3:] == [
            ("RAM-OPT-CASINO", "melded", 0, 80),
            ("RAM-OPT-CASINO", "share", 1, -40),
            ("RAM-OPT-CASINO", "share", 2, -40),
        ]

    def test_a_remainder_goes_to_the_players_next_after_the_winner(self):
        """RAM-OPT-CASINO (reading): seat 1 melded A♣ 2♣ 3♣ = 15 + 5 + 5 = 25 = 2 × 12 + 1.

        In turn order after seat 1 come seat 2 (13) and seat 0 (12). Hands: seat 0 4♦ = 5,
        seat 2 K♥ = 10. Seat 0: −5 − 12 = −17; seat 1: 15 + 25 = 40; seat 2: −10 − 13 = −23.
        """
        players = [
            player("A", "4D"),
            player("B", melded="AC 2C 3C", went_out=True),
            player("C", "KH"),
        ]
        result = score_hand(CASINO, players)
        assert result.points == (-17, 40, -23)
        shares = {i.seat: i.params["share"] for i in result.items if i.code == "share"}
        assert shares == {0: 12, 2: 13}

    def test_closing_in_hand_still_doubles(self):
        """RAM-OPT-CASINO + RAM-HANDCLOSE: melded Q♠ K♠ A♠ = 40 + 10 + 15 = 65; B holds
        2♥ 3♥ = 10. A 10 + 65 = 75, doubled 150; B −75, doubled −150."""
        players = [
            player("A", melded="QS KS AS", went_out=True, hand_closed=True),
            player("B", "2H 3H"),
        ]
        assert score_hand(CASINO, players).points == (150, -150)


class TestMatch:
    def test_the_match_ends_after_the_chosen_hands_and_the_highest_total_wins(self):
        """RAM-MATCH: 3 hands; A 48 − 13 − 20 = 15, B −11 − 18 + 20 = −9, C −37 + 0 + 0."""
        three = options(3, hands=3)
        results = [hand(48, -11, -37), hand(-13, -18, 0), hand(-20, 20, 0)]
        assert not match_result(three, results[:2]).finished
        result = match_result(three, results)
        assert (result.finished, result.hands, result.totals) == (True, 3, (15, -9, -37))
        assert (result.winners, result.winner, result.loser) == ((0,), 0, None)

    def test_equal_highest_totals_share_the_win(self):
        """RAM-MATCH (reading): a tie shares the win."""
        result = match_result(options(2, hands=1), [hand(-10, -10)])
        assert (result.winners, result.winner) == ((0, 1), None)

    def test_a_hand_beyond_the_chosen_number_is_refused(self):
        """RAM-MATCH."""
        (violation,) = refused(match_result, options(2, hands=1), [hand(5, -5), hand(3, -3)])
        assert (violation.rule, violation.code, violation.params) == (
            "RAM-MATCH",
            "match_over",
            {"hands": 1},
        )

    def test_a_match_without_hands_goes_on(self):
        result = match_result(STANDARD, [])
        assert (result.finished, result.totals, result.winners) == (False, (), ())


class TestScoringProperties:
    @settings(max_examples=examples(150), deadline=None)
    @given(
        st.integers(2, 6),
        st.permutations(FULL_DECK),
        st.integers(-1, 5),
        st.booleans(),
        st.booleans(),
    )
    def test_points_are_the_items_and_a_hand_won_is_zero_sum(
        self, players, cards, out, casino, closed
    ):
        """RAM-SCORE, RAM-OPT-CASINO, RAM-HANDCLOSE: gains equal losses; the items add up."""
        out = out if out < players else -1
        ends = [
            SeatEnd(
                str(seat),
                () if seat == out else cards[seat * 4 : seat * 4 + 3],
                cards[30 + seat * 3 : 33 + seat * 3],
                went_out=seat == out,
                hand_closed=closed and seat == out,
            )
            for seat in range(players)
        ]
        table = options(players, casino_scoring=casino)
        result = score_hand(table, ends, stock_exhausted=out < 0)
        for seat in range(players):
            assert result.points[seat] == sum(i.points for i in result.items if i.seat == seat)
        if out >= 0:
            assert sum(result.points) == 0
            assert result.points[out] >= 0
        else:
            assert all(points <= 0 for points in result.points)
        json.dumps(result.to_dict())
