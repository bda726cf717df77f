"""Knock Rummy options, setup, values, round scoring and game end (docs/rules.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, JOKER, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.hands import HandScore, SeatEnd
from scoring.melds import check_meld
from scoring.variants.knock_rummy import (
    KnockRummyOptions,
    card_value,
    deck,
    hand_size,
    match_result,
    meld_rules,
    score_hand,
)
from tests.hypothesis_profiles import examples

TABLE = KnockRummyOptions.from_dict({}, 3)


def refused(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.violations


def player(name, hand="", melded="", **flags):
    return SeatEnd(name, parse_cards(hand), parse_cards(melded), **flags)


def items(result):
    return [(i.rule, i.code, i.seat, i.points) for i in result.items]


def round_won(points, winners):
    """A scored round as match_result sees it: the points and who won."""
    return HandScore(
        players=tuple("ABCDE"[: len(points)]),
        ending="knock",
        points=tuple(points),
        winners=tuple(winners),
        hand_values=(),
        items=(),
    )


class TestValue:
    def test_jokers_25_pictures_10_pips_their_face_aces_1(self):
        """KR-VALUE: joker 25; J Q K 10; 2-10 face value; ace 1."""
        clubs = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC")
        assert [card_value(c) for c in clubs] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
        assert card_value(JOKER) == 25


class TestSetup:
    def test_two_players_play_one_deck_and_one_joker(self):
        """KR-SETUP: 53 cards."""
        assert deck(TABLE, 2) == DeckSpec(decks=1, jokers=1)

    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_three_or_more_play_two_such_decks(self, players):
        """KR-SETUP: 106 cards, 2 jokers."""
        assert deck(TABLE, players) == DeckSpec(decks=2, jokers=2)

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_everyone_is_dealt_ten_cards(self, players):
        """KR-SETUP: 10 cards each."""
        assert hand_size(TABLE, players) == 10

    @pytest.mark.parametrize("players", [1, 6, False])
    def test_fewer_than_two_or_more_than_five_players_are_refused(self, players):
        """KR-SETUP: 2-5 players."""
        for call in (
            lambda: KnockRummyOptions.from_dict({}, players),
            lambda: deck(TABLE, players),
            lambda: hand_size(TABLE, players),
        ):
            (violation,) = refused(call)
            assert (violation.rule, violation.code) == ("KR-SETUP", "players")
            assert violation.params["choices"] == [2, 3, 4, 5]

    def test_a_second_joker_with_two_players_is_refused(self):
        """KR-SETUP / CARD-2: the 53-card deck has one joker."""
        players = [player("A", "AC", knocked=True), player("B", "JK 3D", melded="JK 7S 8S")]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.params) == (
            "CARD-2",
            {"card": "JK", "count": 2, "limit": 1},
        )


class TestMeldRules:
    def test_the_ace_is_low_or_high_never_round_the_corner(self):
        """KR-MELDS: A-2-3 and Q-K-A, never K-A-2; jokers unlimited."""
        rules = meld_rules(TABLE)
        assert (rules.ace_low, rules.ace_high, rules.wrap, rules.max_jokers) == (
            True,
            True,
            False,
            None,
        )
        assert check_meld(parse_cards("QH KH AH"), rules).kind == "run"
        assert check_meld(parse_cards("AH 2H 3H"), rules).kind == "run"
        (violation,) = refused(check_meld, parse_cards("KH AH 2H"), rules)
        assert violation.rule == "ACE-WRAP"

    def test_a_set_never_holds_two_identical_cards(self):
        """KR-MELDS: only one 8♠ in a set of 8s."""
        (violation,) = refused(check_meld, parse_cards("8S 8S 8H"), meld_rules(TABLE))
        assert (violation.rule, violation.code) == ("MELD-SET", "repeated_suit")


class TestOptions:
    def test_the_game_ends_at_150_by_default(self):
        """KR-MATCH / §6."""
        assert KnockRummyOptions() == TABLE
        assert TABLE.to_dict() == {"target": 150}

    def test_a_table_may_choose_another_target(self):
        """KR-MATCH (choice): target."""
        assert KnockRummyOptions.from_dict({"target": 100}, 4).target == 100

    @pytest.mark.parametrize("target", [0, -150, True, "150"])
    def test_a_target_below_1_or_not_a_number_is_refused(self, target):
        """KR-MATCH."""
        (violation,) = refused(KnockRummyOptions.from_dict, {"target": target}, 2)
        assert (violation.rule, violation.code) == ("KR-MATCH", "bad_target")
        assert violation.params == {"target": target, "min": 1}

    @pytest.mark.parametrize("target", [1_000_001, 99999999999999999999])
    def test_a_target_past_a_million_is_refused(self, target):
        """KR-MATCH (choice): a target from 1 to 1,000,000."""
        (violation,) = refused(KnockRummyOptions.from_dict, {"target": target}, 2)
        assert (violation.rule, violation.code) == ("KR-MATCH", "target_too_high")
        assert violation.params == {"target": target, "max": 1_000_000}

    def test_an_option_of_another_game_is_refused(self):
        (violation,) = refused(KnockRummyOptions.from_dict, {"no_jokers": True}, 2)
        assert (violation.rule, violation.code) == ("OPTIONS", "unknown_option")

    def test_to_dict_round_trips_through_json(self):
        table = KnockRummyOptions.from_dict({"target": 200}, 5)
        assert KnockRummyOptions.from_dict(json.loads(json.dumps(table.to_dict())), 5) == table


class TestScore:
    def test_a_knocker_lowest_alone_scores_the_sum_of_the_differences(self):
        """KR-SCORE, 3 players: A knocks with A♣ 2♣ = 3; B 7♦ = 7; C 10♠ 2♥ = 12.

        A: (7 − 3) + (12 − 3) = 13; no bonus.
        """
        players = [player("A", "AC 2C", knocked=True), player("B", "7D"), player("C", "10S 2H")]
        result = score_hand(TABLE, players)
        assert result.points == (13, 0, 0)
        assert (result.ending, result.knocker, result.winners) == ("knock", 0, (0,))
        assert result.hand_values == (3, 7, 12)
        assert items(result) == [("KR-SCORE", "difference", 0, 13)]
        assert result.items[0].params == {"count": 3, "counts": [3, 7, 12]}

    def test_with_two_players_the_winner_scores_the_difference(self):
        """KR-SCORE: A knocks with 4♥ = 4 against J♦ 5♠ = 15: 15 − 4 = 11."""
        players = [player("A", "4H", knocked=True), player("B", "JD 5S")]
        assert score_hand(KnockRummyOptions(), players).points == (11, 0)

    def test_a_knock_with_exactly_five_is_allowed(self):
        """KR-KNOCK: 5 points or fewer. A 2♦ 3♦ = 5 against B 9♣ = 9: 4."""
        players = [player("A", "2D 3D", knocked=True), player("B", "9C")]
        assert score_hand(KnockRummyOptions(), players).points == (4, 0)

    def test_a_knock_with_more_than_five_is_refused_with_the_count(self):
        """KR-KNOCK: A holds 6♠ = 6."""
        players = [player("A", "6S", knocked=True), player("B", "9C")]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.code) == ("KR-KNOCK", "over_limit")
        assert violation.params == {"player": "A", "count": 6, "limit": 5}

    def test_two_knockers_are_refused(self):
        """KR-KNOCK: the round ends at once."""
        players = [player("A", "AS", knocked=True), player("B", "2S", knocked=True)]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.code) == ("KR-KNOCK", "two_knockers")
        assert violation.params == {"players": ["A", "B"]}

    def test_a_round_nobody_ended_is_refused(self):
        """KR-KNOCK / KR-STOCK: a knock or the stock used up."""
        (violation,) = refused(
            score_hand, KnockRummyOptions(), [player("A", "AS"), player("B", "2S")]
        )
        assert (violation.rule, violation.code) == ("KR-KNOCK", "not_ended")

    @pytest.mark.parametrize(("flag", "value"), [("hand_closed", True), ("opening_penalty", 2)])
    def test_flags_of_other_games_are_refused(self, flag, value):
        """KR-SCORE: no closing in hand, no opening penalty."""
        players = [player("A", "AS", knocked=True, **{flag: value}), player("B", "2S")]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.code) == ("KR-SCORE", "flag_not_used")
        assert violation.params == {"player": "A", "flag": flag}


class TestUndercut:
    def test_a_lower_player_who_did_not_knock_wins_with_10_more(self):
        """KR-UNDERCUT: A knocks with 4; B holds 2; C 9. B: (4 − 2) + (9 − 2) = 9, + 10."""
        players = [player("A", "4S", knocked=True), player("B", "2H"), player("C", "9D")]
        result = score_hand(TABLE, players)
        assert result.points == (0, 19, 0)
        assert result.winners == (1,)
        assert items(result) == [("KR-SCORE", "difference", 1, 9), ("KR-UNDERCUT", "bonus", 1, 10)]
        assert result.items[1].params == {"bonus": 10, "knocker": 0}

    def test_a_knocker_tied_with_one_other_loses_to_them(self):
        """KR-UNDERCUT: A knocks with 3, B holds 3, C 10: B wins 0 + (10 − 3) = 7, + 10."""
        players = [player("A", "3S", knocked=True), player("B", "AH 2H"), player("C", "10D")]
        result = score_hand(TABLE, players)
        assert result.points == (0, 17, 0)
        assert result.winners == (1,)

    def test_a_knocker_tied_with_one_other_of_two_players(self):
        """KR-UNDERCUT with 2 players: 4 each: B wins the difference 0, + 10."""
        players = [player("A", "4S", knocked=True), player("B", "4H")]
        assert score_hand(KnockRummyOptions(), players).points == (0, 10)

    def test_a_knocker_tied_with_two_others_lets_both_score_as_winners(self):
        """KR-UNDERCUT: A knocks with 2, B 2, C 2, D 8: B and C each 0 + 0 + (8 − 2) + 10."""
        players = [
            player("A", "2S", knocked=True),
            player("B", "AH AD"),
            player("C", "2C"),
            player("D", "8D"),
        ]
        result = score_hand(KnockRummyOptions(), players)
        assert result.points == (0, 16, 16, 0)
        assert (result.winners, result.winner) == ((1, 2), None)

    def test_non_knockers_tied_below_the_knocker_all_win(self):
        """KR-UNDERCUT (choice): A knocks with 5, B 1, C 1, D 6.

        B and C each (5 − 1) + 0 + (6 − 1) = 9, + 10 = 19.
        """
        players = [
            player("A", "5S", knocked=True),
            player("B", "AH"),
            player("C", "AD"),
            player("D", "6D"),
        ]
        result = score_hand(KnockRummyOptions(), players)
        assert result.points == (0, 19, 19, 0)


class TestOut:
    def test_a_winner_who_played_all_their_cards_gets_25(self):
        """KR-OUT: A played everything and knocked with 0; B 6♣ = 6, C 9♥ = 9: 15 + 25."""
        players = [
            player("A", melded="7S 8S 9S", knocked=True, went_out=True),
            player("B", "6C"),
            player("C", "9H"),
        ]
        result = score_hand(TABLE, players)
        assert result.points == (40, 0, 0)
        assert items(result) == [("KR-SCORE", "difference", 0, 15), ("KR-OUT", "bonus", 0, 25)]

    def test_an_undercut_with_no_cards_left_gets_both_bonuses(self):
        """KR-UNDERCUT + KR-OUT: A knocks with 2; B holds nothing; C 9: B (2 + 9) + 10 + 25."""
        players = [player("A", "2S", knocked=True), player("B", went_out=True), player("C", "9C")]
        assert score_hand(TABLE, players).points == (0, 46, 0)

    def test_a_player_marked_out_holding_cards_is_refused(self):
        """KR-OUT: playing all their cards leaves none."""
        players = [player("A", "AS", knocked=True, went_out=True), player("B", "9C")]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.code) == ("KR-OUT", "cards_left")
        assert violation.params == {"player": "A", "cards": ["AS"]}

    def test_an_empty_hand_not_marked_out_is_refused(self):
        """KR-OUT."""
        players = [player("A", knocked=True), player("B", "9C")]
        (violation,) = refused(score_hand, KnockRummyOptions(), players)
        assert (violation.rule, violation.code) == ("KR-OUT", "empty_hand")


class TestStock:
    def test_the_lowest_hands_win_without_an_undercut_bonus(self):
        """KR-STOCK (reading): nobody knocked, so no bonus. A 6, B 6, C 9: A and B win 3."""
        players = [player("A", "6S"), player("B", "2D 4D"), player("C", "9C")]
        result = score_hand(TABLE, players, stock_exhausted=True)
        assert result.points == (3, 3, 0)
        assert (result.ending, result.knocker, result.winners) == ("stock", None, (0, 1))
        assert {i.rule for i in result.items} == {"KR-SCORE"}

    def test_a_player_who_melded_everything_in_the_last_turn_gets_25(self):
        """KR-STOCK + KR-OUT: B holds nothing; A 7, C 3: B 7 + 3 + 25 = 35."""
        players = [player("A", "7S"), player("B", went_out=True), player("C", "3C")]
        assert score_hand(TABLE, players, stock_exhausted=True).points == (0, 35, 0)

    def test_a_knock_in_the_last_turns_is_a_knock(self):
        """KR-KNOCK after KR-STOCK (reading): A knocks with 5, B holds 3: B 2 + 10."""
        players = [player("A", "5S", knocked=True), player("B", "3H")]
        result = score_hand(KnockRummyOptions(), players, stock_exhausted=True)
        assert (result.ending, result.points) == ("knock", (0, 12))


class TestMatch:
    def test_below_150_the_game_goes_on(self):
        """KR-MATCH: 80 + 69 = 149."""
        result = match_result(TABLE, [round_won((80, 0, 0), (0,)), round_won((69, 0, 0), (0,))])
        assert (result.finished, result.totals, result.winners) == (False, (149, 0, 0), ())

    def test_reaching_150_ends_the_game_with_the_bonuses(self):
        """KR-MATCH: A 80 + 75 = 155, + 100 = 255. B won one round: 30 + 25 = 55. C: 0."""
        rounds = [
            round_won((80, 0, 0), (0,)),
            round_won((0, 30, 0), (1,)),
            round_won((75, 0, 0), (0,)),
        ]
        result = match_result(TABLE, rounds)
        assert (result.finished, result.hands, result.totals) == (True, 3, (255, 55, 0))
        assert (result.winners, result.winner) == ((0,), 0)
        assert [(i.rule, i.code, i.seat, i.points) for i in result.items] == [
            ("KR-MATCH", "target", 0, 100),
            ("KR-MATCH", "rounds_won", 1, 25),
        ]
        assert result.items[1].params == {"rounds": 1, "bonus": 25}

    def test_the_player_who_reached_150_may_still_lose(self):
        """KR-MATCH: B won 5 rounds of 29 = 145, + 5 × 25 = 270; A 150 + 100 = 250."""
        rounds = [round_won((0, 29), (1,))] * 5 + [round_won((150, 0), (0,))]
        result = match_result(KnockRummyOptions(), rounds)
        assert result.totals == (250, 270)
        assert result.winner == 1

    def test_everyone_who_reached_150_gets_100_and_a_tie_shares_the_win(self):
        """KR-MATCH: A and B tie a round at 20 each: 140 + 20 = 160 and 145 + 20 = 165.

        Both + 100: 260 and 265; B wins. C won one round: 0 + 25.
        """
        rounds = [
            round_won((140, 0, 0), (0,)),
            round_won((0, 145, 0), (1,)),
            round_won((0, 0, 0), (2,)),
            round_won((20, 20, 0), (0, 1)),
        ]
        result = match_result(TABLE, rounds)
        assert result.totals == (260, 265, 25)
        assert result.winners == (1,)

    def test_equal_highest_totals_share_the_win(self):
        """KR-MATCH (reading): B won 5 rounds of 25: 125 + 5 × 25 = 250; A 150 + 100 = 250."""
        rounds = [round_won((0, 25), (1,))] * 5 + [round_won((150, 0), (0,))]
        result = match_result(KnockRummyOptions(), rounds)
        assert result.totals == (250, 250)
        assert (result.winners, result.winner) == ((0, 1), None)

    def test_a_round_after_the_end_is_refused(self):
        """KR-MATCH: the game ended after round 1."""
        rounds = [round_won((150, 0), (0,)), round_won((0, 5), (1,))]
        (violation,) = refused(match_result, KnockRummyOptions(), rounds)
        assert (violation.rule, violation.code, violation.params) == (
            "KR-MATCH",
            "match_over",
            {"hands": 1},
        )

    def test_a_table_target_ends_the_game_earlier(self):
        """KR-MATCH (choice): target 100: A 100 + 100 = 200."""
        result = match_result(KnockRummyOptions(target=100), [round_won((100, 0), (0,))])
        assert (result.finished, result.totals) == (True, (200, 0))

    def test_the_result_is_json(self):
        result = match_result(TABLE, [round_won((150, 0, 0), (0,))])
        assert json.loads(json.dumps(result.to_dict()))["items"][0]["points"] == 100


class TestScoringProperties:
    @settings(max_examples=examples(150), deadline=None)
    @given(st.integers(2, 5), st.permutations(FULL_DECK), st.data())
    def test_winners_hold_the_fewest_points_and_score_every_difference(self, players, cards, data):
        """KR-SCORE, KR-UNDERCUT, KR-OUT: each winner's points are their items and the
        differences to everyone, plus 10 when a knocker was beaten, plus 25 when out."""
        ends = []
        for seat in range(players):
            count = data.draw(st.integers(0, 4))
            ends.append(SeatEnd(str(seat), cards[seat * 4 : seat * 4 + count]))
        values = [sum(card_value(c) for c in end.hand) for end in ends]
        able = [seat for seat in range(players) if values[seat] <= 5]
        knocker = data.draw(st.sampled_from([None, *able]))
        ends = [
            SeatEnd(end.name, end.hand, knocked=seat == knocker, went_out=not end.hand)
            for seat, end in enumerate(ends)
        ]
        result = score_hand(KnockRummyOptions(), ends, stock_exhausted=knocker is None)
        lowest = min(values)
        assert result.winners
        for seat in range(players):
            assert result.points[seat] == sum(i.points for i in result.items if i.seat == seat)
            if seat not in result.winners:
                assert result.points[seat] == 0
                continue
            assert values[seat] == lowest
            bonus = (10 if knocker is not None and knocker != seat else 0) + (
                25 if not ends[seat].hand else 0
            )
            assert result.points[seat] == sum(v - lowest for v in values) + bonus
        json.dumps(result.to_dict())
