"""Gin Rummy scoring and validation (docs/rules.md), both presets."""

import json

import pytest

from scoring.cards import Card, parse_cards
from scoring.solver import best_arrangement
from scoring.variants.gin import (
    ENDINGS,
    GIN_DECK,
    GIN_MELDS,
    MAX_COUNT,
    PRESETS,
    TARGETS,
    GinOptions,
    match_winner,
    score_wall,
)
from scoring.variants.gin.cards import gin_value
from tests.scoring.variants.gin_hands import (
    BIG_GIN,
    CLASSIC,
    KNOCK_5,
    LAYS_OFF_TO_12,
    SEED_DEFENDER,
    SEED_GIN,
    cards_score,
    item_summary,
    quick,
    refused,
)


class TestGinValue:
    def test_aces_count_1_pips_their_face_and_pictures_10(self):
        """GIN-VALUE: ace 1, 2-10 face value, J Q K 10."""
        spades = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
        values = [gin_value(card) for card in spades]
        assert values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]

    def test_a_joker_has_no_gin_value(self):
        """GIN-SETUP: Gin is played without jokers."""
        (violation,) = refused(gin_value, Card(0, ""))
        assert (violation.rule, violation.code) == ("GIN-SETUP", "no_jokers")

    def test_the_largest_ten_card_deadwood_is_98(self):
        """GIN-DEADWOOD: 9♣ J♣ K♣ 9♠ J♠ K♠ 10♥ Q♥ 10♦ Q♦ has no meld: 9 + 9 + 8 × 10."""
        hand = parse_cards("9C JC KC 9S JS KS 10H QH 10D QD")
        assert best_arrangement(hand, rules=GIN_MELDS, value=gin_value).count == MAX_COUNT == 98


class TestSetup:
    def test_a_knocker_with_nine_cards_is_refused_with_the_count(self):
        """GIN-SETUP: 10 cards each."""
        (violation,) = refused(cards_score, "7S 8S 9S KC KH KD 2C 3C 4C", LAYS_OFF_TO_12)
        assert (violation.rule, violation.code) == ("GIN-SETUP", "wrong_count")
        assert violation.params == {"player": "knocker", "count": 9, "expected": 10}

    def test_a_defender_with_eleven_cards_is_refused_with_the_count(self):
        """GIN-SETUP: 10 cards each."""
        (violation,) = refused(cards_score, KNOCK_5, LAYS_OFF_TO_12 + " 4D")
        assert violation.params == {"player": "defender", "count": 11, "expected": 10}

    def test_both_wrong_counts_are_reported_together(self):
        violations = refused(cards_score, "7S 8S 9S", "5S 6S")
        assert [v.params["player"] for v in violations] == ["knocker", "defender"]

    def test_eleven_knocker_cards_with_a_knock_are_refused(self):
        """GIN-SETUP / GIN-KNOCK: a knocker shows the 10 cards kept after the discard."""
        (violation,) = refused(cards_score, KNOCK_5 + " 6H", LAYS_OFF_TO_12, ending="knock")
        assert violation.params == {"player": "knocker", "count": 11, "expected": 10}

    def test_big_gin_with_ten_cards_is_refused(self):
        """GIN-BIGGIN: Big Gin shows all 11 cards."""
        (violation,) = refused(cards_score, SEED_GIN, SEED_DEFENDER, ending="big_gin")
        assert violation.params == {"player": "knocker", "count": 10, "expected": 11}

    def test_a_card_in_both_hands_is_refused_naming_it(self):
        """CARD-2: one deck, so 7♠ cannot be in both hands."""
        (violation,) = refused(cards_score, KNOCK_5, "7S 6S 10S JS KS 8C 8H 8D QH 2D")
        assert (violation.rule, violation.code) == ("CARD-2", "too_many_copies")
        assert violation.params == {"card": "7S", "count": 2, "limit": 1}

    def test_a_joker_is_refused_because_the_gin_deck_has_none(self):
        """GIN-SETUP / CARD-2: no jokers."""
        assert GIN_DECK.jokers == 0
        (violation,) = refused(cards_score, KNOCK_5, "JK 6S 10S JS KS 8C 8H 8D QH 2D")
        assert (violation.rule, violation.code) == ("GIN-SETUP", "no_jokers")
        assert violation.params == {"card": "JK", "count": 1, "limit": 0}

    def test_copies_and_counts_are_reported_together(self):
        violations = refused(cards_score, KNOCK_5, "7S 6S")
        assert [(v.rule, v.code) for v in violations] == [
            ("CARD-2", "too_many_copies"),
            ("GIN-SETUP", "wrong_count"),
        ]

    def test_an_unknown_card_is_refused_with_its_position(self):
        """CARD-3."""
        (violation,) = refused(cards_score, KNOCK_5, "5S 6S 10S JS KS 8C 8H 8Z QH 2D")
        assert violation.params == {"token": "8Z", "position": 8}

    @pytest.mark.parametrize("seat", [2, -1, True, "0", None])
    def test_only_seats_0_and_1_can_end_a_hand(self, seat):
        """GIN-SETUP: 2 players."""
        (violation,) = refused(quick, knocker=seat, k=5, d=10)
        assert (violation.rule, violation.code) == ("GIN-SETUP", "bad_seat")
        (violation,) = refused(cards_score, KNOCK_5, LAYS_OFF_TO_12, knocker=seat)
        assert violation.code == "bad_seat"

    def test_an_unknown_ending_is_refused(self):
        (violation,) = refused(quick, ending="undercut", k=5, d=10)
        assert violation.code == "unknown_ending"
        assert violation.params["choices"] == list(ENDINGS)

    @pytest.mark.parametrize("count", [-1, 99, 5.0, True, "7"])
    def test_counts_outside_0_to_98_are_refused(self, count):
        """GIN-DEADWOOD: no 10-card count is above 98."""
        (violation,) = refused(quick, k=3, d=count)
        assert (violation.rule, violation.code) == ("GIN-DEADWOOD", "bad_count")
        assert violation.params["player"] == "defender"
        assert violation.params["limit"] == 98


class TestKnock:
    def test_a_knock_with_more_than_10_is_refused_with_the_count(self):
        """GIN-KNOCK: 7♠8♠9♠10♠ K♣K♥K♦ + 5♥ 4♦ 2♣ leave 5 + 4 + 2 = 11."""
        hand_k = "7S 8S 9S 10S KC KH KD 5H 4D 2C"
        (violation,) = refused(cards_score, hand_k, "AH 2H 3H 4H QC QS QD 6D 7D 9C")
        assert (violation.rule, violation.code) == ("GIN-KNOCK", "over_limit")
        assert violation.params == {"count": 11, "limit": 10}

    def test_a_knock_with_exactly_10_is_allowed(self):
        """GIN-KNOCK: 5♥ 3♦ 2♣ = 10. The defender keeps A♥-4♥ and Q♣Q♠Q♦; 6♦ 7♦ 9♣ = 22."""
        result = cards_score("7S 8S 9S 10S KC KH KD 5H 3D 2C", "AH 2H 3H 4H QC QS QD 6D 7D 9C")
        assert (result.ending, result.knocker_count, result.defender_count) == ("knock", 10, 22)
        assert result.points == (12, 0)

    def test_a_quick_knock_over_10_is_refused_and_10_is_allowed(self):
        """GIN-KNOCK in quick mode."""
        (violation,) = refused(quick, k=11, d=30)
        assert violation.params == {"count": 11, "limit": 10}
        assert quick(k=10, d=30).points == (20, 0)

    def test_the_knockers_count_is_the_minimum_arrangement(self):
        """GIN-DEADWOOD: 7♣7♠7♥ + 7♦8♦9♦ leave 2♥ 3♠ A♣ A♦ = 7 (7-7-7-7 would leave 24)."""
        result = cards_score("7C 7S 7H 7D 8D 9D 2H 3S AC AD", "JC JS JH 5C 6C QS KH 4D 2C 10H")
        assert result.knocker_count == 7
        assert sorted(" ".join(map(str, m.cards)) for m in result.knocker_melds) == [
            "7C 7S 7H",
            "7D 8D 9D",
        ]


class TestLayoff:
    def test_the_defender_extends_a_run_at_both_ends_and_completes_a_set(self):
        """GIN-LAYOFF: 6♠ 5♠ and 10♠ J♠ onto 7♠8♠9♠, K♠ onto K♣K♥K♦; Q♥ 2♦ left = 12.

        GIN-SCORE-KNOCK: the knocker's 5 is lower, so the knocker scores 12 - 5 = 7.
        """
        result = cards_score(KNOCK_5, LAYS_OFF_TO_12)
        run = next(i for i, m in enumerate(result.knocker_melds) if Card(7, "S") in m.cards)
        kings = next(i for i, m in enumerate(result.knocker_melds) if Card(13, "C") in m.cards)
        assert sorted((str(c), i) for c, i in result.defender_layoffs) == sorted(
            [("6S", run), ("5S", run), ("10S", run), ("JS", run), ("KS", kings)]
        )
        assert [str(c) for c in result.defender_deadwood] == ["QH", "2D"]
        assert [str(m) for m in result.defender_melds] == ["8C 8H 8D"]
        assert (result.knocker_count, result.defender_count) == (5, 12)
        assert result.points == (7, 0)
        assert item_summary(result) == [("GIN-SCORE-KNOCK", "difference", 0, 7)]

    def test_the_knocker_shows_the_arrangement_that_blocks_the_most(self):
        """GIN-LAYOFF / GIN-DEADWOOD: the knocker's A♥2♥3♥ + 2♣ 2♠ and 2♣2♠2♥ + A♥ 3♥ both
        count 4. Shown as a run, the defender lays off 4♥ (22 - 4 = 18); shown as a set, only
        2♦ (22 - 2 = 20). The knocker shows the set: 20 - 4 = 16."""
        result = cards_score("AH 2H 3H 2C 2S 5D 6D 7D 8D 9D", "4H 2D JC JS JD QC QS QD KH 6C")
        assert [str(m) for m in result.knocker_melds] == ["2C 2S 2H", "5D 6D 7D 8D 9D"]
        assert [str(c) for c, _ in result.defender_layoffs] == ["2D"]
        assert (result.knocker_count, result.defender_count) == (4, 20)
        assert result.points == (16, 0)

    def test_the_knocker_shows_a_later_arrangement_when_it_blocks_more(self):
        """GIN-LAYOFF: the same knocker against 2♦ J♣J♠J♦ Q♣Q♠Q♦ K♥ 6♣ 8♥ (2+10+6+8 = 26).

        Shown as 2♣2♠2♥ the defender lays off 2♦ (24); shown as A♥2♥3♥ nothing fits (26). The
        knocker shows the run, listed second among the minimum arrangements: 26 - 4 = 22.
        """
        result = cards_score("AH 2H 3H 2C 2S 5D 6D 7D 8D 9D", "2D JC JS JD QC QS QD KH 6C 8H")
        assert [str(m) for m in result.knocker_melds] == ["AH 2H 3H", "5D 6D 7D 8D 9D"]
        assert result.defender_layoffs == ()
        assert (result.knocker_count, result.defender_count) == (4, 26)
        assert result.points == (22, 0)

    def test_nothing_is_laid_off_on_gin(self):
        """GIN-GIN: 3♦ and 4♦ would complete 3-3-3 and 4-4-4, but gin allows no lay off.

        The defender keeps J♣J♠J♥; 3♦ 4♦ 6♣ A♥ A♠ 2♠ 8♦ = 3+4+6+1+1+2+8 = 25, so 25 + 25 = 50.
        """
        result = cards_score(SEED_GIN, "3D 4D 6C AH AS 2S JC JS JH 8D")
        assert result.defender_layoffs == ()
        assert result.defender_count == 25
        assert result.points == (50, 0)

    def test_nothing_is_laid_off_on_big_gin(self):
        """GIN-BIGGIN: 6♣ would extend A♣-5♣, but Big Gin allows no lay off.

        The defender keeps 8♥9♥10♥; 8♠ 2♦ 3♦ K♠ K♥ 6♣ 6♠ = 8+2+3+10+10+6+6 = 45: 31 + 45 = 76.
        """
        result = cards_score(
            "AC 2C 3C 4C 5C 7S 7H 7D JD QD KD", "8S 8H 9H 10H 2D 3D KS KH 6C 6S", knocker=1
        )
        assert result.ending == "big_gin"
        assert result.defender_layoffs == ()
        assert result.defender_count == 45
        assert result.points == (0, 76)
        assert item_summary(result) == [
            ("GIN-BIGGIN", "bonus", 1, 31),
            ("GIN-SCORE-GIN", "defender_count", 1, 45),
        ]


class TestGin:
    def test_the_seed_pages_gin_scores_35(self):
        """GIN-SCORE-GIN: gin with 9-9-9-9, 4-4-4, 3-3-3 against 6♣ A♥ A♠ 2♠ (10): 25 + 10."""
        result = cards_score(SEED_GIN, SEED_DEFENDER, knocker=1)
        assert result.ending == "gin"
        assert result.knocker_deadwood == ()
        assert [str(c) for c in result.defender_deadwood] == ["6C", "AS", "2S", "AH"]
        assert (result.knocker_count, result.defender_count) == (0, 10)
        assert result.points == (0, 35)
        assert result.winner == 1
        assert item_summary(result) == [
            ("GIN-GIN", "bonus", 1, 25),
            ("GIN-SCORE-GIN", "defender_count", 1, 10),
        ]

    def test_claiming_gin_with_deadwood_is_refused_with_the_count(self):
        """GIN-GIN: every card in a meld; 5♥ is left."""
        (violation,) = refused(cards_score, KNOCK_5, LAYS_OFF_TO_12, ending="gin")
        assert (violation.rule, violation.code) == ("GIN-GIN", "deadwood")
        assert violation.params == {"count": 5}

    def test_a_knock_without_deadwood_is_scored_as_gin(self):
        """GIN-GIN: the seed page says knocking with no deadwood is gin; 25 + 10."""
        result = cards_score(SEED_GIN, SEED_DEFENDER, ending="knock")
        assert result.ending == "gin"
        assert result.points == (35, 0)
        assert result.items[0].params == {"bonus": 25, "from_knock": True}

    def test_a_quick_knock_with_0_is_scored_as_gin(self):
        """GIN-GIN in quick mode: 25 + 12."""
        result = quick(ending="knock", k=0, d=12)
        assert result.ending == "gin"
        assert result.points == (37, 0)
        assert result.items[0].params["from_knock"] is True

    def test_quick_gin_scores_25_plus_the_defenders_count(self):
        """GIN-SCORE-GIN: 25 + 20."""
        assert quick(ending="gin", k=0, d=20, knocker=1).points == (0, 45)

    def test_the_gin_bonus_stands_when_the_defender_has_0(self):
        """GIN-SCORE-GIN: the gin bonus stands even if the defender's count is 0."""
        result = quick(ending="gin", k=0, d=0)
        assert result.points == (25, 0)
        assert result.winner == 0

    def test_quick_gin_with_a_count_is_refused(self):
        """GIN-GIN: gin has no deadwood."""
        (violation,) = refused(quick, ending="gin", k=3, d=20)
        assert (violation.rule, violation.params) == ("GIN-GIN", {"count": 3})

    def test_classic_scores_gin_the_same(self):
        """GIN-SCORE-GIN holds for both presets: 25 + 7."""
        assert quick(CLASSIC, ending="gin", k=0, d=7).points == (32, 0)


class TestBigGin:
    def test_quick_big_gin_scores_31_plus_the_defenders_count(self):
        """GIN-SCORE-GIN: Big Gin scores 31 + 20."""
        result = quick(ending="big_gin", k=0, d=20)
        assert result.points == (51, 0)
        assert [i.rule for i in result.items] == ["GIN-BIGGIN", "GIN-SCORE-GIN"]

    def test_eleven_cards_all_melded_are_big_gin_without_saying_so(self):
        """GIN-BIGGIN: A♣-5♣, 7♠7♥7♦, J♦Q♦K♦ are all 11 cards in melds."""
        result = cards_score("AC 2C 3C 4C 5C 7S 7H 7D JD QD KD", "8S 8H 9H 10H 2D 3D KS KH 6C 6S")
        assert result.ending == "big_gin"
        assert len(result.knocker_cards) == 11

    def test_eleven_cards_not_all_melded_are_refused_with_the_count(self):
        """GIN-BIGGIN: all 11 in melds; J♦ Q♦ 2♥ left = 22."""
        hand_k = "AC 2C 3C 4C 5C 7S 7H 7D JD QD 2H"
        (violation,) = refused(cards_score, hand_k, "8S 8H 9H 10H 2D 3D KS KH 6C 6S")
        assert (violation.rule, violation.code) == ("GIN-BIGGIN", "deadwood")
        assert violation.params == {"count": 22}

    def test_big_gin_is_not_available_at_a_classic_table(self):
        """GIN-BIGGIN (Classic: not available), by cards or quick, said or not."""
        hand_k = "AC 2C 3C 4C 5C 7S 7H 7D JD QD KD"
        hand_d = "8S 8H 9H 10H 2D 3D KS KH 6C 6S"
        for call in (
            lambda: cards_score(hand_k, hand_d, CLASSIC),
            lambda: cards_score(hand_k, hand_d, CLASSIC, ending="big_gin"),
            lambda: quick(CLASSIC, ending="big_gin", k=0, d=20),
        ):
            (violation,) = refused(call)
            assert (violation.rule, violation.code) == ("GIN-BIGGIN", "not_available")

    def test_quick_big_gin_with_a_count_is_refused(self):
        (violation,) = refused(quick, ending="big_gin", k=2, d=20)
        assert (violation.rule, violation.code) == ("GIN-BIGGIN", "deadwood")


class TestScoreKnock:
    def test_the_lower_knocker_scores_the_difference(self):
        """GIN-SCORE-KNOCK: knock 7 against 20 scores 13."""
        result = quick(k=7, d=20)
        assert result.points == (13, 0)
        assert result.winner == 0
        assert not result.undercut
        assert result.items[0].params == {"knocker": 7, "defender": 20}


class TestUndercut:
    def test_big_gin_undercut_scores_the_difference_plus_25(self):
        """GIN-UNDERCUT (Big Gin): knock 8 against 5: the defender scores 3 + 25 = 28."""
        result = quick(k=8, d=5)
        assert result.points == (0, 28)
        assert result.winner == 1
        assert result.undercut
        assert item_summary(result) == [
            ("GIN-UNDERCUT", "difference", 1, 3),
            ("GIN-UNDERCUT", "bonus", 1, 25),
        ]

    def test_a_tie_scores_nothing_by_default(self):
        """GIN-UNDERCUT (choice): on a tie the knocker scores 0 and nobody gets a bonus."""
        result = quick(k=8, d=8)
        assert result.points == (0, 0)
        assert result.winner is None
        assert not result.undercut
        assert item_summary(result) == [("GIN-UNDERCUT", "tie", 0, 0)]

    def test_a_tie_is_an_undercut_with_undercut_on_tie(self):
        """GIN-UNDERCUT: option undercut_on_tie: 0 + 25 to the defender."""
        options = GinOptions.from_dict({"undercut_on_tie": True})
        result = quick(options, knocker=1, k=8, d=8)
        assert result.points == (25, 0)
        assert result.undercut

    def test_classic_undercut_scores_only_the_difference(self):
        """GIN-UNDERCUT (Classic): the lower count wins the difference, bonus 0: 8 - 5 = 3."""
        result = quick(CLASSIC, k=8, d=5)
        assert result.points == (0, 3)
        assert item_summary(result) == [("GIN-UNDERCUT", "difference", 1, 3)]

    def test_classic_with_an_undercut_bonus_adds_it(self):
        """GIN-UNDERCUT: option undercut_bonus (10 here): 3 + 10."""
        options = GinOptions.from_dict({"preset": "classic", "undercut_bonus": 10})
        assert quick(options, k=8, d=5).points == (0, 13)

    def test_a_classic_tie_counted_as_undercut_without_bonus_scores_nothing(self):
        """GIN-UNDERCUT: 0 difference + 0 bonus: an undercut that scores nothing."""
        options = GinOptions.from_dict({"preset": "classic", "undercut_on_tie": True})
        result = quick(options, k=6, d=6)
        assert result.points == (0, 0)
        assert result.undercut
        assert result.winner is None

    def test_an_undercut_from_the_cards(self):
        """GIN-UNDERCUT: as the layoff hand but A♥ for Q♥: A♥ 2♦ = 3 < 5: 2 + 25 = 27."""
        result = cards_score(KNOCK_5, "5S 6S 10S JS KS 8C 8H 8D AH 2D")
        assert (result.knocker_count, result.defender_count) == (5, 3)
        assert result.points == (0, 27)


class TestWall:
    def test_a_wall_is_a_void_hand(self):
        """GIN-WALL: no score, redeal."""
        result = score_wall(BIG_GIN)
        assert (result.ending, result.points, result.winner) == ("wall", (0, 0), None)
        assert result.items[0].rule == "GIN-WALL"

    def test_a_wall_is_refused_when_the_table_plays_without_it(self):
        (violation,) = refused(score_wall, GinOptions.from_dict({"wall": False}))
        assert (violation.rule, violation.code) == ("GIN-WALL", "not_enabled")


class TestMatch:
    @pytest.mark.parametrize(("preset", "target"), [(p, t) for p in TARGETS for t in TARGETS[p]])
    def test_every_target_of_the_preset_is_accepted(self, preset, target):
        """GIN-MATCH: Big Gin 1, 100, 200, 500; Classic 1, 50, 100, 200."""
        options = GinOptions.from_dict({"preset": preset, "target": target})
        assert options.target == target

    @pytest.mark.parametrize(
        ("preset", "target"),
        [("big_gin", 50), ("classic", 500), ("big_gin", 0), ("classic", 150), ("big_gin", True)],
    )
    def test_a_target_the_preset_does_not_offer_is_refused(self, preset, target):
        """GIN-MATCH: only the listed targets."""
        (violation,) = refused(GinOptions.from_dict, {"preset": preset, "target": target})
        assert (violation.rule, violation.code) == ("GIN-MATCH", "bad_target")
        assert violation.params["choices"] == list(TARGETS[preset])

    def test_nobody_wins_below_the_target(self):
        """GIN-MATCH: reaching or passing the target wins."""
        assert match_winner(BIG_GIN, [99, 40]) is None

    def test_reaching_the_target_exactly_wins(self):
        assert match_winner(BIG_GIN, [100, 40]) == 0

    def test_passing_the_target_wins(self):
        assert match_winner(BIG_GIN, [40, 130]) == 1

    def test_a_single_hand_match_is_won_by_whoever_scored(self):
        """GIN-MATCH: target 1 is a single hand."""
        single = GinOptions.from_dict({"target": 1})
        assert match_winner(single, [0, 13]) == 1

    def test_a_single_hand_that_nobody_scores_decides_nothing(self):
        """GIN-MATCH: after a 0-0 hand (a tie, a wall) the table plays another hand."""
        single = GinOptions.from_dict({"target": 1})
        assert match_winner(single, [0, 0]) is None

    def test_both_totals_at_the_target_are_refused(self):
        """GIN-MATCH: only one seat scores per hand, so the match ended earlier."""
        (violation,) = refused(match_winner, BIG_GIN, [100, 120])
        assert violation.code == "both_reached"

    @pytest.mark.parametrize("totals", [[1], [1, 2, 3], [-1, 0], [1.5, 0]])
    def test_totals_must_be_two_whole_numbers(self, totals):
        (violation,) = refused(match_winner, BIG_GIN, totals)
        assert (violation.rule, violation.code) == ("GIN-MATCH", "bad_totals")


class TestOptions:
    def test_no_options_are_the_big_gin_preset(self):
        """§6: preset big_gin by default, undercut_bonus 25, target 100."""
        assert GinOptions.from_dict({}) == GinOptions()
        assert GinOptions.from_dict({}).to_dict() == {
            "preset": "big_gin",
            "undercut_bonus": 25,
            "undercut_on_tie": False,
            "no_rediscard": True,
            "wall": True,
            "target": 100,
        }

    def test_the_classic_preset_has_no_undercut_bonus(self):
        """GIN-UNDERCUT: undercut_bonus 0 for Classic."""
        assert CLASSIC.every_option() == {**PRESETS["classic"], "preset": "classic"}
        assert CLASSIC.undercut_bonus == 0
        assert GinOptions(preset="classic").undercut_bonus == 0

    def test_overrides_apply_after_the_presets_defaults(self):
        options = GinOptions.from_dict(
            {"preset": "classic", "target": 50, "undercut_on_tie": True, "wall": False}
        )
        assert options.to_dict() == {
            "preset": "classic",
            "undercut_bonus": 0,
            "undercut_on_tie": True,
            "no_rediscard": True,
            "wall": False,
            "target": 50,
        }

    def test_to_dict_round_trips_and_is_json(self):
        options = GinOptions.from_dict({"preset": "classic", "undercut_bonus": 10})
        assert GinOptions.from_dict(json.loads(json.dumps(options.to_dict()))) == options

    def test_an_unknown_option_is_refused(self):
        (violation,) = refused(GinOptions.from_dict, {"jokers": 2})
        assert (violation.rule, violation.code) == ("OPTIONS", "unknown_option")
        assert violation.params == {"option": "jokers", "value": 2}

    @pytest.mark.parametrize(
        ("option", "value"),
        [
            ("undercut_on_tie", 1),
            ("wall", "yes"),
            ("no_rediscard", None),
            ("undercut_bonus", True),
            ("undercut_bonus", -5),
            ("undercut_bonus", 2.5),
            ("preset", "rummy40"),
        ],
    )
    def test_a_value_of_the_wrong_kind_is_refused(self, option, value):
        """§6: bools are true/false (not 1), ints are not true/false."""
        (violation,) = refused(GinOptions.from_dict, {option: value})
        assert (violation.rule, violation.code) == ("OPTIONS", "bad_value")
        assert violation.params["option"] == option
        assert violation.params["value"] == value

    def test_options_that_are_not_a_mapping_are_refused(self):
        (violation,) = refused(GinOptions.from_dict, ["preset", "classic"])
        assert violation.code == "bad_value"
