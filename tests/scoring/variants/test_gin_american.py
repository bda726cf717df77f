"""Gin's American scoring (docs/rules.md): the bonuses a table sets, the game, box and
shutout bonuses, Oklahoma and its spades, Hollywood's three games, and the presets named
as players know them.

Every expected score is worked by hand in the comment beside it, from the rules text and
its sources: Pagat's Gin Rummy page (https://www.pagat.com/rummy/ginrummy.html, "Scoring",
"Oklahoma Gin", "Hollywood scoring"), Wikipedia's Gin rummy article ("Game bonus", "Line
bonus or box bonus", "Shutout bonus"), Hoyle's Oklahoma Gin as Bicycle prints it
(http://www.bicyclecards.com/card-games/rule/oklahoma-gin) and the Hollywood Gin Rummy Rules
page (http://www.rummy-games.com/rules/hollywood-gin.html) for a player shut out of a game.
"""

import json

import pytest

from scoring.cards import Card, parse_cards
from scoring.errors import RuleViolation
from scoring.variants.gin import (
    PRESETS,
    GinOptions,
    match_result,
    score_cards,
    score_quick,
    score_wall,
)
from tests.scoring.play_helpers import (
    Table,
    amend,
    deal,
    discard,
    draw,
    knock,
    pass_turn,
    record,
    rule_and_code,
    show,
)
from tests.scoring.variants.gin_hands import (
    BIG_GIN,
    KNOCK_5,
    LAYS_OFF_TO_12,
    item_summary,
    refused,
)

AMERICAN = GinOptions.from_dict({"preset": "american"})
OKLAHOMA = GinOptions.from_dict({"preset": "oklahoma"})
HOLLYWOOD = GinOptions.from_dict({"preset": "hollywood"})
A, B = 0, 1


def card(name: str) -> Card:
    (parsed,) = parse_cards(name)
    return parsed


def shut_out(options):
    """A's four hands against a B who never scores (worked in the shutout tests)."""
    return [
        hand(options, A, k=2, d=30),
        hand(options, A, "gin", d=40),
        wall(),
        hand(options, A, k=4, d=14),
    ]


def hand(options, knocker, ending="knock", k=0, d=0, upcard=None):
    """Score a hand entered by its two counts (and its upcard, at an Oklahoma table)."""
    return score_quick(
        options,
        knocker=knocker,
        ending=ending,
        knocker_count=k,
        defender_count=d,
        upcard=card(upcard) if upcard else None,
    )


def wall(options=AMERICAN):
    return score_wall(options)


def lines(outcome):
    """Return the match's bonus lines as (rule, seat, points, game) tuples."""
    return [(i.rule, i.seat, i.points, i.params.get("game")) for i in outcome.items]


class TestPresets:
    def test_the_american_preset_is_american_scoring_gin_game_gin_box_gin_shutout(self):
        """Pagat / Wikipedia: gin 25, undercut 25 with a tie undercutting, a 25 box a hand
        won, 100 for the game, a shutout doubled; Big Gin is not part of it."""
        assert AMERICAN.every_option() == {
            "preset": "american",
            "gin_bonus": 25,
            "big_gin_bonus": 31,
            "box_bonus": 25,
            "game_bonus": 100,
            "shutout": True,
            "shutout_doubles": "both",
            "oklahoma": False,
            "spade_double": False,
            "hollywood": False,
            "undercut_bonus": 25,
            "undercut_on_tie": True,
            "no_rediscard": True,
            "wall": True,
            "target": 100,
            "big_gin": False,
        }

    def test_oklahoma_is_american_with_the_upcard_and_spades_to_150(self):
        """GIN-OKLAHOMA, GIN-SPADES: Oklahoma is usually played to 150."""
        assert OKLAHOMA.every_option() == {
            **AMERICAN.every_option(),
            "preset": "oklahoma",
            "oklahoma": True,
            "spade_double": True,
            "target": 150,
        }

    def test_hollywood_is_american_on_three_games(self):
        """GIN-HOLLYWOOD."""
        assert HOLLYWOOD.every_option() == {
            **AMERICAN.every_option(),
            "preset": "hollywood",
            "hollywood": True,
        }

    @pytest.mark.parametrize("preset", ["american", "oklahoma", "hollywood"])
    def test_the_american_presets_name_every_option_and_round_trip(self, preset):
        options = GinOptions.from_dict({"preset": preset, "box_bonus": 20})
        assert options.to_dict() == options.every_option()
        assert GinOptions.from_dict(json.loads(json.dumps(options.to_dict()))) == options
        moved = GinOptions.from_dict({"preset": preset, "shutout_doubles": "game_bonus"})
        assert moved.to_dict()["shutout_doubles"] == "game_bonus"
        assert GinOptions.from_dict(json.loads(json.dumps(moved.to_dict()))) == moved

    def test_a_big_gin_table_names_a_new_option_only_once_it_is_moved(self):
        """The options an older table's log and projection hold stay as they were."""
        moved = GinOptions.from_dict({"box_bonus": 20, "gin_bonus": 20})
        assert moved.to_dict() == {**BIG_GIN.to_dict(), "gin_bonus": 20, "box_bonus": 20}
        assert GinOptions.from_dict(moved.to_dict()) == moved

    @pytest.mark.parametrize("preset", ["american", "oklahoma", "hollywood"])
    @pytest.mark.parametrize("target", [100, 125, 150, 200, 250])
    def test_the_american_presets_play_to_100_to_250_gin_match(self, preset, target):
        """GIN-MATCH: 100, 125, 150, 200 or 250."""
        assert GinOptions.from_dict({"preset": preset, "target": target}).target == target

    def test_the_american_presets_have_no_single_hand_gin_match(self):
        (violation,) = refused(GinOptions.from_dict, {"preset": "american", "target": 1})
        assert (violation.rule, violation.code) == ("GIN-MATCH", "bad_target")
        assert violation.params["choices"] == [100, 125, 150, 200, 250]

    def test_hollywood_at_a_single_hand_table_is_refused_gin_hollywood(self):
        (violation,) = refused(GinOptions.from_dict, {"hollywood": True, "target": 1})
        assert (violation.rule, violation.code) == ("GIN-HOLLYWOOD", "single_hand")

    def test_spades_double_only_at_an_oklahoma_table_gin_spades(self):
        (violation,) = refused(GinOptions.from_dict, {"preset": "american", "spade_double": True})
        assert (violation.rule, violation.code) == ("GIN-SPADES", "needs_oklahoma")

    @pytest.mark.parametrize(
        ("option", "value", "expected"),
        [
            ("gin_bonus", 101, "a whole number from 0 to 100"),
            ("big_gin_bonus", -1, "a whole number from 0 to 100"),
            ("box_bonus", True, "a whole number from 0 to 100"),
            ("game_bonus", 501, "a whole number from 0 to 500"),
            ("game_bonus", 2.5, "a whole number from 0 to 500"),
            ("shutout", 1, "true or false"),
            ("oklahoma", "yes", "true or false"),
            ("hollywood", None, "true or false"),
            ("big_gin", 0, "true or false"),
        ],
    )
    def test_a_bonus_out_of_bounds_or_a_switch_not_true_or_false_is_refused(
        self, option, value, expected
    ):
        (violation,) = refused(GinOptions.from_dict, {"preset": "american", option: value})
        assert (violation.rule, violation.code) == ("OPTIONS", "bad_value")
        assert violation.params == {"option": option, "value": value, "expected": expected}

    def test_an_unknown_preset_is_refused_naming_all_five(self):
        (violation,) = refused(GinOptions.from_dict, {"preset": "gin500"})
        assert violation.params["expected"] == "big_gin, classic, american, oklahoma, hollywood"
        assert set(PRESETS) == {"big_gin", "classic", "american", "oklahoma", "hollywood"}


class TestBonusValues:
    def test_a_table_sets_its_gin_bonus_gin_gin(self):
        """GIN-GIN, GIN-SCORE-GIN: gin bonus 20 (as some play) + defender 13 = 33."""
        options = GinOptions.from_dict({"preset": "american", "gin_bonus": 20})
        result = hand(options, A, "gin", d=13)
        assert item_summary(result) == [
            ("GIN-GIN", "bonus", A, 20),
            ("GIN-SCORE-GIN", "defender_count", A, 13),
        ]
        assert result.points == (33, 0)

    def test_a_table_sets_its_big_gin_bonus_gin_biggin(self):
        """GIN-BIGGIN: Big Gin played for 50 (Wikipedia's other value) + defender 7 = 57."""
        options = GinOptions.from_dict({"big_gin_bonus": 50})
        assert hand(options, B, "big_gin", d=7).points == (0, 57)

    def test_big_gin_is_refused_where_the_table_does_not_play_it(self):
        """GIN-BIGGIN: the American presets leave it out; a table may add it."""
        (violation,) = refused(hand, AMERICAN, A, "big_gin", d=7)
        assert (violation.rule, violation.code) == ("GIN-BIGGIN", "not_available")
        with_big_gin = GinOptions.from_dict({"preset": "american", "big_gin": True})
        # 31 + 7 = 38.
        assert hand(with_big_gin, A, "big_gin", d=7).points == (38, 0)

    def test_a_table_sets_its_undercut_bonus_gin_undercut(self):
        """GIN-UNDERCUT: knocker 8, defender 5: (8 - 5) + 10 = 13 to the defender."""
        options = GinOptions.from_dict({"preset": "american", "undercut_bonus": 10})
        assert hand(options, A, k=8, d=5).points == (0, 13)

    def test_an_american_tie_is_an_undercut_gin_undercut(self):
        """GIN-UNDERCUT: a tie undercuts in American scoring: 0 + 25 = 25 to the defender."""
        result = hand(AMERICAN, A, k=6, d=6)
        assert result.undercut and result.points == (0, 25)


class TestGameEnd:
    def test_the_game_bonus_and_every_players_boxes_gin_game_gin_box(self):
        """American, to 100.

        1. A knocks 3 against 20: A 17.
        2. B gins against 14: 25 + 14 = 39 to B.
        3. A knocks 5 against 41: A 36 (53).
        4. A gins against 22: 25 + 22 = 47: A 100, the target.
        Game: A +100. Boxes: A won hands 1, 3, 4: 3 x 25 = 75; B hand 2: 25.
        B scored, so no shutout. A 100 + 100 + 75 = 275; B 39 + 25 = 64.
        """
        results = [
            hand(AMERICAN, A, k=3, d=20),
            hand(AMERICAN, B, "gin", d=14),
            hand(AMERICAN, A, k=5, d=41),
            hand(AMERICAN, A, "gin", d=22),
        ]
        assert [r.points for r in results] == [(17, 0), (0, 39), (36, 0), (47, 0)]
        outcome = match_result(AMERICAN, results)
        assert outcome.finished and outcome.hands == 4
        assert lines(outcome) == [
            ("GIN-GAME", A, 100, None),
            ("GIN-BOX", A, 75, None),
            ("GIN-BOX", B, 25, None),
        ]
        assert outcome.items[1].params == {"hands": 3, "bonus": 25}
        assert outcome.totals == (275, 64)
        assert outcome.winners == (A,)

    def test_no_bonus_counts_toward_the_target(self):
        """GIN-GAME, GIN-BOX: 3 hands of 30 are 90 and 75 in boxes, but the game goes on."""
        results = [hand(AMERICAN, A, k=2, d=32)] * 3
        outcome = match_result(AMERICAN, results)
        assert not outcome.finished and outcome.totals == (90, 0) and outcome.items == ()

    def test_a_shutout_doubles_the_hand_points_and_the_game_bonus_gin_shutout(self):
        """American, to 100; B never scores.

        1. A knocks 2 against 30: 28.
        2. A gins against 40: 25 + 40 = 65 (93).
        3. A wall: nobody scores, nobody's box.
        4. A knocks 4 against 14: 10 (103).
        Game +100; boxes 3 x 25 = 75; shutout: the hand points 103 and the game bonus 100
        again, 203. A 103 + 100 + 75 + 203 = 481; B 0.
        """
        outcome = match_result(AMERICAN, shut_out(AMERICAN))
        assert lines(outcome) == [
            ("GIN-GAME", A, 100, None),
            ("GIN-BOX", A, 75, None),
            ("GIN-SHUTOUT", A, 203, None),
        ]
        assert outcome.items[2].params == {"points": 103, "game_bonus": 100}
        assert outcome.totals == (481, 0)

    @pytest.mark.parametrize(
        ("reading", "doubled", "code", "params"),
        [
            # Pagat's reading: the game bonus again, 100. A 103 + 100 + 75 + 100 = 378.
            ("game_bonus", 100, "double_game_bonus", {"points": 0, "game_bonus": 100}),
            # Wikipedia's: the hands' points again, 103. A 103 + 100 + 75 + 103 = 381.
            ("hand_points", 103, "double_hand_points", {"points": 103, "game_bonus": 0}),
        ],
    )
    def test_a_shutout_doubles_what_the_table_reads_it_to_gin_shutout(
        self, reading, doubled, code, params
    ):
        """The match above (A: 28 + 65 + 0 + 10 = 103 in hand points, B nothing), at a table
        that reads the shutout as doubling one thing only."""
        options = GinOptions.from_dict({"preset": "american", "shutout_doubles": reading})
        outcome = match_result(options, shut_out(options))
        assert lines(outcome)[2] == ("GIN-SHUTOUT", A, doubled, None)
        assert (outcome.items[2].code, outcome.items[2].params) == (code, params)
        assert outcome.totals == (103 + 100 + 75 + doubled, 0)

    def test_a_shutout_reading_the_table_does_not_know_is_refused(self):
        with pytest.raises(RuleViolation) as refused:
            GinOptions.from_dict({"preset": "american", "shutout_doubles": "boxes"})
        assert [(v.code, v.params["option"]) for v in refused.value.violations] == [
            ("bad_value", "shutout_doubles")
        ]

    def test_a_tie_nobody_scores_is_no_box_and_no_score_for_the_shutout(self):
        """Big Gin with American bonuses: box 20, game 100, shutout (a tie is no undercut).

        1. B knocks 7, A has 7: a tie, nobody scores (GIN-UNDERCUT).
        2. A goes Big Gin against 19: 31 + 19 = 50.
        3. A knocks 1 against 51: 50 (100).
        Game 100; boxes 2 x 20 = 40 (the tie is nobody's); B scored nothing: shutout
        100 + 100 = 200. A 100 + 100 + 40 + 200 = 440.
        """
        options = GinOptions.from_dict({"box_bonus": 20, "game_bonus": 100, "shutout": True})
        results = [
            hand(options, B, k=7, d=7),
            hand(options, A, "big_gin", d=19),
            hand(options, A, k=1, d=51),
        ]
        outcome = match_result(options, results)
        assert lines(outcome) == [
            ("GIN-GAME", A, 100, None),
            ("GIN-BOX", A, 40, None),
            ("GIN-SHUTOUT", A, 200, None),
        ]
        assert outcome.totals == (440, 0)

    def test_the_higher_total_after_the_bonuses_wins_gin_match(self):
        """GIN-MATCH: without a game bonus, boxes can outweigh the race.

        Box 25, no game bonus, to 100. B knocks 9 against 10 six times: 6 x 1 = 6. Then A
        gins against 98: 25 + 98 = 123, the target. A 123 + 1 box = 148; B 6 + 6 x 25 = 156:
        B has the higher total and wins the match.
        """
        options = GinOptions.from_dict({"box_bonus": 25})
        results = [hand(options, B, k=9, d=10)] * 6 + [hand(options, A, "gin", d=98)]
        outcome = match_result(options, results)
        assert outcome.finished and outcome.totals == (148, 156)
        assert outcome.winners == (B,)

    def test_equal_totals_after_the_bonuses_share_the_match(self):
        """GIN-MATCH: box 25, no game bonus, to 100.

        B knocks 5 against 10 three times and 5 against 15 once: 5 + 5 + 5 + 10 = 25, and
        4 boxes, 100: 125. A gins against 75: 25 + 75 = 100, the target, and 1 box: 125.
        Equal totals share the match.
        """
        options = GinOptions.from_dict({"box_bonus": 25})
        results = [
            hand(options, B, k=5, d=10),
            hand(options, B, k=5, d=10),
            hand(options, B, k=5, d=10),
            hand(options, B, k=5, d=15),
            hand(options, A, "gin", d=75),
        ]
        outcome = match_result(options, results)
        assert outcome.totals == (125, 125)
        assert outcome.finished and outcome.winners == (A, B)

    def test_an_amendment_that_ends_the_game_earlier_is_refused_gin_match(self):
        """GIN-MATCH: the hands after the game's end were never part of it."""
        results = [hand(AMERICAN, A, "gin", d=80), hand(AMERICAN, B, k=2, d=12)]
        (violation,) = refused(match_result, AMERICAN, results)
        assert (violation.rule, violation.code) == ("GIN-MATCH", "match_over")
        assert violation.params == {"hand": 1}


class TestOklahoma:
    @pytest.mark.parametrize(
        ("upcard", "limit", "points"),
        # The difference is 5 each time; a spade doubles it (GIN-SPADES): 10.
        [("7H", 7, 5), ("KD", 10, 5), ("10C", 10, 5), ("2S", 2, 10), ("QS", 10, 10)],
    )
    def test_the_upcard_sets_the_most_a_knock_keeps_gin_oklahoma(self, upcard, limit, points):
        """GIN-OKLAHOMA: its value, a 10 or a picture 10. A knock with the limit is
        scored; one more is refused with the count, the limit and the card."""
        assert hand(OKLAHOMA, A, k=limit, d=limit + 5, upcard=upcard).points == (points, 0)
        if limit < 10:
            (violation,) = refused(hand, OKLAHOMA, A, k=limit + 1, d=30, upcard=upcard)
            assert (violation.rule, violation.code) == ("GIN-OKLAHOMA", "over_limit")
            assert violation.params == {"count": limit + 1, "limit": limit, "card": upcard}

    def test_an_ace_lets_nobody_knock_gin_oklahoma(self):
        """GIN-OKLAHOMA: with an ace up a count of 1 is refused; only gin ends the hand."""
        (violation,) = refused(hand, OKLAHOMA, A, k=1, d=30, upcard="AC")
        assert violation.params == {"count": 1, "limit": 0, "card": "AC"}
        # A "knock" with nothing left is gin: 25 + 30 = 55 (the ace is a club: no doubling).
        result = hand(OKLAHOMA, A, k=0, d=30, upcard="AC")
        assert result.ending == "gin" and result.points == (55, 0)

    def test_an_oklahoma_hand_needs_its_upcard_gin_oklahoma(self):
        (violation,) = refused(hand, OKLAHOMA, A, k=3, d=20)
        assert (violation.rule, violation.code) == ("GIN-OKLAHOMA", "upcard_needed")

    def test_no_other_table_takes_an_upcard_gin_oklahoma(self):
        (violation,) = refused(hand, AMERICAN, A, k=3, d=20, upcard="7H")
        assert (violation.rule, violation.code) == ("GIN-OKLAHOMA", "not_played")

    def test_a_wall_may_name_its_upcard(self):
        """GIN-WALL: void all the same; the upcard is kept for the sheet."""
        result = score_wall(OKLAHOMA, upcard=card("3S"))
        assert result.points == (0, 0) and result.to_dict()["upcard"] == "3S"

    def test_the_cards_bear_out_the_limit_gin_oklahoma(self):
        """KNOCK_5 counts 5: refused under a 4♦, scored under a 5♣ (12 - 5 = 7)."""
        (violation,) = refused(
            score_cards, OKLAHOMA, knocker=A, knocker_cards=KNOCK_5,
            defender_cards=LAYS_OFF_TO_12, upcard=card("4D"),
        )  # fmt: skip
        assert violation.params == {"count": 5, "limit": 4, "card": "4D"}
        result = score_cards(
            OKLAHOMA,
            knocker=A,
            knocker_cards=KNOCK_5,
            defender_cards=LAYS_OFF_TO_12,
            upcard=card("5C"),
        )
        assert result.points == (7, 0)


class TestSpades:
    def test_a_spade_upcard_doubles_a_knock_gin_spades(self):
        """GIN-SPADES: 9♠ up (limit 9); A knocks 4 against 20: 16, and 16 again: 32."""
        result = hand(OKLAHOMA, A, k=4, d=20, upcard="9S")
        assert item_summary(result) == [
            ("GIN-SCORE-KNOCK", "difference", A, 16),
            ("GIN-SPADES", "double", A, 16),
        ]
        assert result.items[1].params == {"upcard": "9S"}
        assert result.points == (32, 0)

    def test_a_spade_upcard_doubles_the_gin_bonus_too_gin_spades(self):
        """Bicycle: "all scores accruing from that deal". 5♠ up; B gins against 12:
        25 + 12 = 37, doubled 74."""
        assert hand(OKLAHOMA, B, "gin", d=12, upcard="5S").points == (0, 74)

    def test_a_spade_upcard_doubles_an_undercut_gin_spades(self):
        """8♠ up; A knocks 6, B has 2: (6 - 2) + 25 = 29 to B, doubled 58."""
        result = hand(OKLAHOMA, A, k=6, d=2, upcard="8S")
        assert result.points == (0, 58) and result.items[-1].seat == B

    def test_spades_off_leave_the_hand_single(self):
        """GIN-SPADES is an option: without it 9♠ only sets the limit: 16."""
        options = GinOptions.from_dict({"preset": "oklahoma", "spade_double": False})
        assert hand(options, A, k=4, d=20, upcard="9S").points == (16, 0)

    def test_a_hand_nobody_scores_has_nothing_to_double(self):
        """A tie that is no undercut scores 0: no spade line."""
        options = GinOptions.from_dict({"preset": "oklahoma", "undercut_on_tie": False})
        result = hand(options, A, k=6, d=6, upcard="JS")
        assert result.points == (0, 0)
        assert [i.rule for i in result.items] == ["GIN-UNDERCUT"]

    def test_the_cards_of_a_spade_hand_gin_spades(self):
        """KNOCK_5 against LAYS_OFF_TO_12 under the Q♠ (limit 10): 12 - 5 = 7, doubled 14."""
        result = score_cards(
            OKLAHOMA,
            knocker=A,
            knocker_cards=KNOCK_5,
            defender_cards=LAYS_OFF_TO_12,
            upcard=card("QS"),
        )
        assert result.points == (14, 0)
        assert result.to_dict()["upcard"] == "QS"

    def test_an_oklahoma_match_with_a_spade_hand_gin_oklahoma_gin_spades(self):
        """Oklahoma, to 150.

        1. 7♥ up: A knocks 6 against 30: 24.
        2. Q♠ up: B knocks 9 against 29: 20, doubled 40.
        3. A♦ up (gin only): A gins against 33: 25 + 33 = 58 (82).
        4. 3♠ up: A gins against 40: 65, doubled 130 (212, past 150).
        Game 100; boxes A 3 x 25 = 75 (the doubled hand is one box), B 25; B scored:
        no shutout. A 212 + 100 + 75 = 387; B 40 + 25 = 65.
        """
        results = [
            hand(OKLAHOMA, A, k=6, d=30, upcard="7H"),
            hand(OKLAHOMA, B, k=9, d=29, upcard="QS"),
            hand(OKLAHOMA, A, "gin", d=33, upcard="AD"),
            hand(OKLAHOMA, A, "gin", d=40, upcard="3S"),
        ]
        assert [r.points for r in results] == [(24, 0), (0, 40), (58, 0), (130, 0)]
        outcome = match_result(OKLAHOMA, results)
        assert lines(outcome) == [
            ("GIN-GAME", A, 100, None),
            ("GIN-BOX", A, 75, None),
            ("GIN-BOX", B, 25, None),
        ]
        assert outcome.totals == (387, 65) and outcome.winners == (A,)


SEATS = ["Anna", "Bruno"]
ANNA, BRUNO = 0, 1
# Bruno's knock with 7♣ as deadwood: count 7. Anna against it: 9♠..K♠ and 4♣4♠4♥ her own,
# 3♦ under 4♦5♦6♦, 2♣ left: 2 (as in test_play_gin.py).
KNOCK_7 = "AH 2H 3H 4D 5D 6D 8C 8S 8H 7C"
DEFENDS_2 = "9S 10S JS QS KS 4C 4S 4H 2C 3D"


def oklahoma_table_at_bruno_knocking(upcard: str) -> Table:
    """Deal under ``upcard`` at an Oklahoma table; both pass; Bruno draws and throws K♦,
    Anna draws and throws Q♣, Bruno draws: ready to knock."""
    return Table("gin", SEATS, {"preset": "oklahoma"}).play(
        deal(upcard),
        pass_turn(BRUNO),
        pass_turn(ANNA),
        draw(BRUNO),
        discard(BRUNO, "KD"),
        draw(ANNA),
        discard(ANNA, "QC"),
        draw(BRUNO),
    )


class TestPlayedMoveByMove:
    def test_the_dealt_upcard_sets_the_knock_in_play_gin_oklahoma(self):
        """7♠ up: Bruno's 10 in deadwood (A♥2♥3♥, 4♦5♦6♦, 8♣8♠8♥, 10♣) is refused."""
        table = oklahoma_table_at_bruno_knocking("7S")
        violation = table.refused(knock(BRUNO, "9C", "AH 2H 3H 4D 5D 6D 8C 8S 8H 10C"))
        assert rule_and_code(violation) == ("GIN-OKLAHOMA", "over_limit")
        assert violation.params == {"count": 10, "limit": 7, "card": "7S"}

    def test_a_spade_dealt_doubles_the_hand_played_gin_spades(self):
        """7♠ up: Bruno knocks with 7; Anna has 2: (7 - 2) + 25 = 30 to Anna, doubled 60."""
        table = oklahoma_table_at_bruno_knocking("7S")
        table.play(knock(BRUNO, "9C", KNOCK_7), show(DEFENDS_2, None))
        result = table.last["result"]
        assert result["upcard"] == "7S"
        assert result["points"] == [60, 0]
        assert [item["rule"] for item in result["items"]] == [
            "GIN-UNDERCUT",
            "GIN-UNDERCUT",
            "GIN-SPADES",
        ]
        assert table.replayed().to_dict() == table.view

    def test_a_quick_hand_at_an_oklahoma_table_names_its_upcard(self):
        """The entry's upcard; 3♥ up: Anna knocks 3 against 20: 17, not doubled."""
        table = Table("gin", SEATS, {"preset": "oklahoma"})
        table.play(
            record(
                {
                    "mode": "quick",
                    "knocker": ANNA,
                    "ending": "knock",
                    "knocker_count": 3,
                    "defender_count": 20,
                    "upcard": "3H",
                }
            )
        )
        assert table.last["result"]["points"] == [17, 0]
        without = {"mode": "quick", "knocker": ANNA, "ending": "knock"}
        violation = table.refused(record({**without, "knocker_count": 3, "defender_count": 9}))
        assert rule_and_code(violation) == ("GIN-OKLAHOMA", "upcard_needed")
        # An amendment under a spade doubles it: 17 + 17 = 34.
        table.play(amend(1, {**without, "knocker_count": 3, "defender_count": 20, "upcard": "3S"}))
        assert table.view["totals"] == [34, 0]


class TestHollywood:
    def test_a_hollywood_sheet_of_twelve_hands_gin_hollywood(self):
        """Hollywood, to 100. Columns g1 g2 g3, each A | B.

        1. A knocks 4 against 24: 20. A's first win: g1. A 20 | - | -.
        2. B gins against 15: 40. B's first win: g1. g1 20 | 40.
        3. A knocks 2 against 32: 30. A's second: g1, g2. A 50 | 30 | -.
        4. A wall: nothing.
        5. A gins against 20: 45. A's third: all three. A 95 | 75 | 45.
        6. B knocks 3 against 13: 10. B's second: g1, g2. B 50 | 10 | -.
        7. A knocks 5 against 15: 10. A 105 | 85 | 55: game 1 is A's, after hand 7.
           Game 1: A won hands 1 3 5 7, B 2 6. A 105 + game 100 + boxes 4 x 25 = 305;
           B 50 + 2 x 25 = 100.
        8. B knocks 1 against 31: 30. B's third: the open games g2 and g3. B g2 40, g3 30.
        9. A knocks 2 against 22: 20. A g2 105 (over, after hand 9), g3 75.
           Game 2: A won 3 5 7 9 (30 + 45 + 10 + 20 = 105), B 6 8 (10 + 30 = 40).
           A 105 + 100 + 100 = 305; B 40 + 50 = 90.
        10. B gins against 30: 55. Only g3 is open: B 85.
        11. B knocks 6 against 16: 10. B 95.
        12. A knocks 6, B has 6: a tie undercuts: 25 to B. B 120: game 3 is B's.
           Game 3: A won 5 7 9 (45 + 10 + 20 = 75), B 8 10 11 12 (30 + 55 + 10 + 25 = 120).
           A 75 + 3 x 25 = 150; B 120 + 100 + 4 x 25 = 320.
        Match: A 305 + 305 + 150 = 760; B 100 + 90 + 320 = 510. A wins.
        """
        results = [
            hand(HOLLYWOOD, A, k=4, d=24),
            hand(HOLLYWOOD, B, "gin", d=15),
            hand(HOLLYWOOD, A, k=2, d=32),
            wall(HOLLYWOOD),
            hand(HOLLYWOOD, A, "gin", d=20),
            hand(HOLLYWOOD, B, k=3, d=13),
            hand(HOLLYWOOD, A, k=5, d=15),
            hand(HOLLYWOOD, B, k=1, d=31),
            hand(HOLLYWOOD, A, k=2, d=22),
            hand(HOLLYWOOD, B, "gin", d=30),
            hand(HOLLYWOOD, B, k=6, d=16),
            hand(HOLLYWOOD, A, k=6, d=6),
        ]
        # The columns as the sheet stands after each of the first hands.
        after_5 = match_result(HOLLYWOOD, results[:5])
        assert [g.totals for g in after_5.games] == [(95, 40), (75, 0), (45, 0)]
        assert after_5.totals == (215, 40) and not after_5.finished
        after_8 = match_result(HOLLYWOOD, results[:8])
        assert [(g.totals, g.finished, g.hands) for g in after_8.games] == [
            ((305, 100), True, 7),
            ((85, 40), False, 0),
            ((55, 30), False, 0),
        ]
        outcome = match_result(HOLLYWOOD, results)
        assert [(g.number, g.totals, g.winner, g.hands) for g in outcome.games] == [
            (1, (305, 100), A, 7),
            (2, (305, 90), A, 9),
            (3, (150, 320), B, 12),
        ]
        assert lines(outcome) == [
            ("GIN-GAME", A, 100, 1),
            ("GIN-BOX", A, 100, 1),
            ("GIN-BOX", B, 50, 1),
            ("GIN-GAME", A, 100, 2),
            ("GIN-BOX", A, 100, 2),
            ("GIN-BOX", B, 50, 2),
            ("GIN-GAME", B, 100, 3),
            ("GIN-BOX", A, 75, 3),
            ("GIN-BOX", B, 100, 3),
        ]
        assert outcome.finished and outcome.hands == 12
        assert outcome.totals == (760, 510) and outcome.winners == (A,)

    def test_a_player_shut_out_of_a_game_opens_the_next_gin_hollywood_gin_shutout(self):
        """Hollywood, to 100.

        1. A gins against 30: 55. A g1 55.
        2. A gins against 25: 50. A g1 105, g2 50. Game 1 is A's; B scored nothing:
           A 105 + 100 + 2 x 25 + shutout (105 + 100) = 460; B 0.
        3. B knocks 2 against 12: 10. Shut out of game 1, B scores this as the first
           in game 2: B g2 10.
        4. B knocks 3 against 23: 20. B's second: g2 30, g3 20.
        5. A gins against 45: 70. A g2 120 (game 2 over), g3 70.
           Game 2: A 120 + 100 + 2 x 25 = 270; B 30 + 2 x 25 = 80.
        6. A knocks 1 against 31: 30. A g3 100: game 3 over.
           Game 3: A 100 + 100 + 2 x 25 = 250; B 20 + 25 = 45.
        Match: A 460 + 270 + 250 = 980; B 0 + 80 + 45 = 125.
        """
        results = [
            hand(HOLLYWOOD, A, "gin", d=30),
            hand(HOLLYWOOD, A, "gin", d=25),
            hand(HOLLYWOOD, B, k=2, d=12),
            hand(HOLLYWOOD, B, k=3, d=23),
            hand(HOLLYWOOD, A, "gin", d=45),
            hand(HOLLYWOOD, A, k=1, d=31),
        ]
        after_3 = match_result(HOLLYWOOD, results[:3])
        assert [g.totals for g in after_3.games] == [(460, 0), (50, 10), (0, 0)]
        outcome = match_result(HOLLYWOOD, results)
        assert [g.totals for g in outcome.games] == [(460, 0), (270, 80), (250, 45)]
        assert ("GIN-SHUTOUT", A, 205, 1) in lines(outcome)
        assert outcome.totals == (980, 125) and outcome.winners == (A,)

    def test_no_hand_is_taken_after_the_third_game_gin_hollywood(self):
        results = [hand(HOLLYWOOD, A, "gin", d=80)] * 5
        (violation,) = refused(match_result, HOLLYWOOD, results)
        assert (violation.rule, violation.code) == ("GIN-MATCH", "match_over")

    def test_a_hollywood_table_shows_its_three_games_in_its_state(self):
        """The projection's match entry holds the columns (the board draws them)."""
        table = Table("gin", SEATS, {"preset": "hollywood"})
        gin = {"mode": "quick", "knocker": ANNA, "ending": "gin", "defender_count": 20}
        table.play(record({**gin, "knocker_count": 0}), record({**gin, "knocker_count": 0}))
        # 45 twice: g1 90, g2 45.
        match = table.view["match"]
        assert [g["totals"] for g in match["games"]] == [[90, 0], [45, 0], [0, 0]]
        assert match["totals"] == table.view["totals"] == [135, 0]
        assert table.view["hand_totals"] == [90, 0]
        assert table.replayed().to_dict() == table.view

    def test_a_big_gin_table_keeps_its_projection_without_a_match_entry(self):
        table = Table("gin", SEATS, {})
        table.play(record({"mode": "quick", "ending": "wall"}))
        assert "match" not in table.view
        assert table.view["options"] == BIG_GIN.to_dict()
