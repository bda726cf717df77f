"""Hand reviews of worked hands (each game's reviewed hand, scoring/variants/<game>/samples.py),
checked against figures worked out by hand from docs/rules.md; the working is in the comments.

Cards are written as in CARD-3. A hand's "count" is the game's measure of the cards kept:
Gin's deadwood (GIN-DEADWOOD); for the others the points of the cards no meld of the
player's own nor, once opened, a table meld they may add to would take (R40-VALUE,
RAM-VALUE, KR-VALUE). Steps count the deal as 0 and each move after it.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from scoring import samples
from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.events import HAND_AMENDED, HAND_RECORDED, HAND_VOIDED, TABLE_CREATED, LogEvent
from scoring.replay import replay
from scoring.review import (
    ALL_MELDED,
    CARDS,
    DISCARD,
    DRAW,
    FED,
    KNOCK,
    LAYOFF,
    MELDING,
    OPEN,
    OUT,
    PLAYED,
    POINTS,
    SWAP,
    HandReview,
    review_hand,
    with_changes,
)


def _log(sample: samples.SampleHand) -> list[LogEvent]:
    created = {"variant": sample.variant, "options": sample.options, "seats": list(sample.players)}
    events = [LogEvent(1, TABLE_CREATED, created)]
    for seq, (event_type, payload) in enumerate(sample.events, start=2):
        events.append(LogEvent(seq, event_type, payload))
    return events


def _review(sample: samples.SampleHand) -> HandReview:
    return review_hand(_log(sample), 1)


def _cards(text: str) -> tuple:
    return parse_cards(text)


def _names(cards) -> list[str]:
    return sorted(str(card) for card in cards)


def _chances(review: HandReview, turn: int) -> dict[str, object]:
    return {chance.kind: chance for chance in review.turns[turn - 1].chances}


class TestGinReview:
    """REVIEW_GIN: Anna deals; Bruno passes the upcard 5H, so does Anna (GIN-FIRST)."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        return _review(samples.reviewed_of("gin"))

    def test_every_turn_is_known_as_every_draw_named_its_card(self, review):
        # Turns: 1 Bruno's pass, 2 Anna's pass, 3 Bruno draws 6D and throws 9H, 4 Anna takes
        # 9H and throws KS, 5 Bruno draws 2H and knocks.
        assert review.kind == PLAYED
        assert review.complete
        assert [(t.number, t.seat, t.first_step, t.last_step) for t in review.turns] == [
            (1, 1, 1, 1),
            (2, 0, 2, 2),
            (3, 1, 3, 4),
            (4, 0, 5, 6),
            (5, 1, 7, 8),
        ]
        assert review.points == (27, 0)  # GIN-UNDERCUT: (2 - 0) + 25

    def test_bruno_threw_9h_keeping_jh_and_lost_a_point_of_deadwood(self, review):
        # After 6D: AS 2S 3S, 8C 8D 8H, 4D 5D 6D, and JH 9H loose. Throwing JH keeps 9H = 9;
        # throwing 9H keeps JH = 10; any melded card breaks a meld and keeps more.
        discard = review.turns[2].discard
        assert (discard.card, discard.left, discard.best, discard.best_left) == (
            _cards("9H")[0],
            10,
            _cards("JH"),
            9,
        )
        assert discard.lost == 1
        assert discard.rule == "GIN-DEADWOOD"
        assert (discard.unmelded, discard.best_unmelded) == (1, 1)

    def test_bruno_could_have_knocked_after_drawing_6d(self, review):
        # GIN-KNOCK: throwing JH keeps 9 <= 10. Anna then held 2C 3C 4C, 7H 7S 7D and KS 4S
        # 9C 9S (32); she lays 4S off on AS 2S 3S (GIN-LAYOFF): 28. GIN-SCORE-KNOCK: Bruno
        # would have scored 28 - 9 = 19 and Anna 0, where the hand as played gave him 0 and
        # her 27. The stake is the swing: his 19 gained and her 27 not scored, 19 + 27 = 46.
        knock = _chances(review, 3)[KNOCK]
        assert (knock.seat, knock.step, knock.rule) == (1, 4, "GIN-KNOCK")
        assert knock.cards == _cards("JH")
        assert knock.scores == (0, 19)
        assert knock.points == 46

    def test_bruno_fed_anna_the_9h_she_melded(self, review):
        # Anna took 9H for 9C 9S 9H. Had she drawn the stock's 2H (Bruno's next card) she
        # would have kept KS 4S 9C 9S 2H, 34, less KS: 24; with 9H she keeps 4S: 4. 20 saved.
        fed = _chances(review, 3)[FED]
        assert (fed.seat, fed.by, fed.step, fed.rule) == (1, 0, 4, "GIN-TURN")
        assert fed.cards == _cards("9H")
        assert fed.points == 20

    def test_anna_could_have_knocked_but_undercut_by_waiting(self, review):
        # After 9H she keeps 4S (4) throwing KS: a knock. Bruno then held AS 2S 3S, 8C 8D
        # 8H, 4D 5D 6D, JH: nothing lays off on 2C 3C 4C, 7s, 9s, so 10. She would have
        # scored 10 - 4 = 6; she scored 27 by waiting: 6 - 27 = -21 at stake.
        knock = _chances(review, 4)[KNOCK]
        assert knock.scores == (6, 0)
        assert knock.points == -21
        assert review.turns[3].discard.lost == 0  # KS was her best discard

    def test_draws_are_weighed_against_what_the_other_source_held(self, review):
        # Turn 3: both passed the upcard 5H, so Bruno's first draw is from the stock by rule
        # (GIN-FIRST): no choice, nothing weighed against the 5H he could not take.
        assert review.turns[2].draw is None
        # Turn 4: 9H (KS 4S: less KS, 4) against the stock's 2H (KS 4S 9C 9S 2H, 34, less
        # KS: 24).
        # Turn 5: 2H (JH 2H less JH: 2) against the pile's KS (JH KS less JH: 10).
        draws = [(t.draw.source, str(t.draw.card), str(t.draw.other)) for t in review.turns[3:]]
        assert draws == [("discard", "9H", "2H"), ("stock", "2H", "KS")]
        assert [(t.draw.left, t.draw.other_left, t.draw.lost) for t in review.turns[3:]] == [
            (4, 24, 0),
            (2, 10, 0),
        ]

    def test_the_first_passes_are_turns_with_nothing_to_weigh(self, review):
        first, second = review.turns[:2]
        for passed in (first, second):
            assert passed.draw is passed.discard is None and not passed.chances
        # Bruno's deal: 1 + 2 + 3 + 8 + 8 + 8 + 4 + 5 + 10 + 9 (GIN-VALUE).
        assert first.held == 58

    def test_the_end_shows_the_knockers_melds_and_the_defenders_layoff(self, review):
        end = review.end
        assert (end.ending, end.ender, end.rule) == ("knock", 1, "GIN-LAYOFF")
        knocker, defender = end.seats[1], end.seats[0]
        assert (knocker.count, knocker.best, _names(knocker.deadwood)) == (2, 2, ["2H"])
        # Anna's 4S goes on the knocker's AS 2S 3S: her 4 goes, 0 left.
        run = next(n for n, meld in enumerate(end.table, start=1) if _cards("AS")[0] in meld.cards)
        assert [(str(layoff.card), layoff.meld) for layoff in defender.layoffs] == [("4S", run)]
        assert defender.layoffs_made
        assert (defender.count, defender.best) == (0, 0)

    def test_the_summary_lists_brunos_costs_worst_first(self, review):
        bruno = review.players[1]
        assert [(c.kind, c.points, c.turn) for c in bruno.costs] == [
            (KNOCK, 46, 3),
            (FED, 20, 3),
            (DISCARD, 1, 3),
        ]
        assert bruno.lost == 1  # the discard's point; chances are listed, not summed
        # Weighed: his 9H (1 lost), his draw of 2H and his JH thrown with the knock (none
        # lost); the forced first draw is no decision (GIN-FIRST). 2 of 3: 66.7, so 67 %.
        # Anna's draw of 9H and her KS both the best: 2 of 2, 100 %.
        assert (bruno.decisions, bruno.matched, bruno.accuracy) == (3, 2, 67)
        anna = review.players[0]
        assert (anna.decisions, anna.matched, anna.accuracy) == (2, 2, 100)
        assert bruno.to_dict()["accuracy"] == 67
        assert review.players[0].costs == ()  # Anna's one chance cost her nothing
        # Deadwood after each of Bruno's turns: none weighed after a pass, then 10 and 2.
        assert [(p.turn, p.left) for p in bruno.chart] == [(1, None), (3, 10), (5, 2)]

    def test_the_stepper_shows_each_hand_in_hindsight(self, review):
        step = review.steps[3]  # Bruno has drawn 6D
        assert (step.move, step.seat, step.source, step.to_move, step.turn) == (
            "card_drawn",
            1,
            "stock",
            1,
            3,
        )
        assert step.cards == _cards("6D")
        assert _names(step.hands[1].cards) == _names(_cards("AS 2S 3S 8C 8D 8H 4D 5D 6D JH 9H"))
        assert (step.hands[1].count, step.hands[1].unknown) == (11, 0)
        assert (str(step.discard_top), step.stock) == ("5H", 30)
        knock = review.steps[8]
        assert knock.hands[1].shown and knock.to_move is None

    def test_each_step_answers_only_what_changed(self, review):
        steps = review.to_dict()["steps"]
        # The deal comes whole: both hands, no melds (Gin lays none in play).
        assert [hand["seat"] for hand in steps[0]["hands"]] == [0, 1]
        assert (steps[0]["table"], steps[0]["table_count"]) == ([], 0)
        # Bruno's pass changes no hand; his draw of 6D and his 9H thrown change his alone.
        assert steps[1]["hands"] == []
        assert [hand["seat"] for hand in steps[3]["hands"]] == [1]
        assert steps[3]["hands"][0]["count"] == 11
        assert [hand["seat"] for hand in steps[4]["hands"]] == [1]
        assert steps[4]["discard_top"] == "9H"  # the rest of a step comes every time
        # Anna's draw of 9H: her hand alone, now with 9H.
        assert [(h["seat"], "9H" in h["cards"]) for h in steps[5]["hands"]] == [(0, True)]


class TestGinMissedGin:
    def test_a_knock_with_deadwood_where_gin_was_there_flags_the_gin(self):
        # Anna: 2C 3C 4C, 7H 7S 7D, 9D 10D JD, QS. Bruno: AS 2S 3S, 8C 8D 8H, 4D 5D JH 9H.
        events = [
            LogEvent(1, TABLE_CREATED, {"variant": "gin", "options": {}, "seats": ["A", "B"]}),
            LogEvent(2, "hand_started", {"dealer": 0, "upcard": "KC"}),
            LogEvent(3, "turn_passed", {"seat": 1}),
            LogEvent(4, "turn_passed", {"seat": 0}),
            LogEvent(5, "card_drawn", {"seat": 1, "source": "stock", "card": "KH"}),
            LogEvent(6, "card_discarded", {"seat": 1, "card": "KH"}),
            # 5C joins 2C 3C 4C: throwing QS melds all ten (GIN-GIN); Anna throws 5C and
            # knocks with QS, 10.
            LogEvent(7, "card_drawn", {"seat": 0, "source": "stock", "card": "5C"}),
            LogEvent(
                8,
                "knocked",
                {"seat": 0, "card": "5C", "hand": "2C 3C 4C 7H 7S 7D 9D 10D JD QS"},
            ),
            LogEvent(
                9,
                "hands_shown",
                {"mode": "cards", "players": [None, {"hand": "AS 2S 3S 8C 8D 8H 4D 5D JH 9H"}]},
            ),
        ]
        review = review_hand(events, 1)
        # Bruno's deadwood 4D 5D JH 9H = 28; 8D would go on 9D 10D JD but breaks his 8s.
        # GIN-SCORE-KNOCK: 28 - 10 = 18 to Anna.
        assert review.points == (18, 0)
        turn = review.turns[3]
        assert (str(turn.discard.card), turn.discard.left, turn.discard.best_left) == (
            "5C",
            10,
            0,
        )
        assert turn.discard.lost == 10 and _names(turn.discard.best) == ["QS"]
        # GIN-SCORE-GIN: 25 + Bruno's 28, with no layoffs (GIN-GIN): 53, 35 more than 18.
        chances = {chance.kind: chance for chance in turn.chances}
        assert set(chances) == {ALL_MELDED}
        gin = chances[ALL_MELDED]
        assert (gin.rule, gin.cards, gin.scores, gin.points) == (
            "GIN-GIN",
            _cards("QS"),
            (53, 0),
            35,
        )


class TestRummy40Review:
    """REVIEW_RUMMY40: two players, opening 40; Bruno moves first."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        return _review(samples.reviewed_of("rummy40"))

    def test_bruno_threw_2c_keeping_jc_and_lost_eight(self, review):
        # After opening: 9D 2C 8H JC 7H, nothing his melds take (R40-ADD: his own only).
        # Throwing JC keeps 9 + 2 + 8 + 7 = 26; throwing 2C keeps 9 + 8 + 10 + 7 = 34.
        discard = review.turns[0].discard
        assert (str(discard.card), discard.left, _names(discard.best), discard.best_left) == (
            "2C",
            34,
            ["JC"],
            26,
        )
        assert (discard.lost, discard.rule) == (8, "R40-VALUE")

    def test_bruno_drew_worse_than_the_upcard(self, review):
        # Before his turn (not opened, own melds only): with 7H, loose 9D 2C 8H JC 7H = 36,
        # less JC: 26; with the upcard 4C, loose 9D 2C 8H JC 4C = 33, less JC: 23. 3 lost.
        draw = review.turns[0].draw
        assert (str(draw.card), str(draw.other), draw.left, draw.other_left, draw.lost) == (
            "7H",
            "4C",
            26,
            23,
            3,
        )

    def test_anna_could_have_opened_with_66_and_threw_the_wrong_card(self, review):
        # R40-OPEN: after QD, 2S 3S 4S (9) + 9C 9H 9S (27) + 10D JD QD (30) = 66 >= 40,
        # keeping KC 6H. The cards laid are worth 66 in hand (R40-VALUE).
        opening = _chances(review, 2)[OPEN]
        assert (opening.seat, opening.step, opening.rule, opening.points) == (0, 4, "R40-OPEN", 66)
        assert sorted(sorted(str(c) for c in meld.cards) for meld in opening.melds) == [
            ["10D", "JD", "QD"],
            ["2S", "3S", "4S"],
            ["9C", "9H", "9S"],
        ]
        # Loose KC 6H: throwing KC keeps 6, throwing 6H keeps 10: 4 lost. The opening the
        # cards kept hold is 66 either way.
        discard = review.turns[1].discard
        assert (discard.left, discard.best_left, discard.lost) == (10, 6, 4)
        assert (discard.opening, discard.best_opening) == (66, 66)

    def test_anna_fed_bruno_the_6h(self, review):
        # Bruno took 6H for 6H 7H 8H (laid at once). With it he keeps 9D JC less JC: 9;
        # with the stock's next card, KD (Anna's), 9D 8H JC 7H KD = 44 less 10: 34. 25 saved.
        fed = _chances(review, 2)[FED]
        assert (fed.seat, fed.by, fed.points, fed.cards) == (0, 1, 25, _cards("6H"))

    def test_anna_could_have_gone_out_and_kept_a_card_her_run_takes(self, review):
        # After KD: 2S 3S 4S, 9C 9H 9S, 10D JD QD KD (9 + 27 + 40 = 76 >= 40) and KC to
        # throw: out (R40-HAND). Bruno then held 9D: R40-END 9 to him, 0 to her, where the
        # hand gave her 10 and him 0. Lower is better: her 10 saved and his 9 taken, 19.
        out = _chances(review, 4)[OUT]
        assert (out.rule, out.step, out.cards, out.scores, out.points) == (
            "R40-HAND",
            9,
            _cards("KC"),
            (0, 9),
            19,
        )
        # She kept KD, which her 10D JD QD takes (R40-ADD): 10 left in hand that need not be.
        layoff = _chances(review, 4)[LAYOFF]
        assert (layoff.rule, layoff.points, layoff.cards) == ("R40-ADD", 10, _cards("KD"))
        assert review.turns[3].discard.left == 0  # counted as laid off

    def test_the_end_shows_the_layoff_missed(self, review):
        anna = review.end.seats[0]
        table = review.end.table
        run = next(n for n, meld in enumerate(table, start=1) if _cards("QD")[0] in meld.cards)
        assert (anna.count, anna.best) == (10, 0)
        assert [(str(layoff.card), layoff.meld) for layoff in anna.layoffs] == [("KD", run)]
        assert not anna.layoffs_made

    def test_the_summary_orders_annas_costs(self, review):
        anna, bruno = review.players
        assert [(c.kind, c.points) for c in anna.costs] == [
            (OPEN, 66),
            (FED, 25),
            (OUT, 19),
            (LAYOFF, 10),
            (DISCARD, 4),
        ]
        assert [(c.kind, c.points) for c in bruno.costs] == [(DISCARD, 8), (DRAW, 3)]
        assert (anna.lost, bruno.lost) == (4, 11)
        # Points in hand after each of Anna's turns: 2+3+4+27+30+10 = 76, then KD.
        assert [(p.held, p.left) for p in anna.chart] == [(76, 10), (10, 0)]


class TestRaminoReview:
    """REVIEW_RAMINO: two players, opening 30 (RAM-OPEN); Bruno moves first."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        return _review(samples.reviewed_of("ramino"))

    def test_bruno_opened_and_threw_his_best_card(self, review):
        # After opening: 2H 2S QC AS 6H, nothing the table takes. Throwing AS (11) keeps
        # 2 + 2 + 10 + 6 = 20, the least (RAM-VALUE: ace 11).
        discard = review.turns[0].discard
        assert (str(discard.card), discard.left, discard.best_left, discard.lost) == (
            "AS",
            20,
            20,
            0,
        )

    def test_anna_missed_an_opening_of_63_and_threw_2d_not_kc(self, review):
        # After 6D: 3S 4S 5S (12) + 10H JH QH (30) + 6D 7D 8D (21) = 63 >= 30.
        assert _chances(review, 2)[OPEN].points == 63
        # Loose 9C 7S 6C KC 2D (34): throwing KC keeps 24, throwing 2D keeps 32.
        discard = review.turns[1].discard
        assert (str(discard.card), _names(discard.best), discard.lost) == ("2D", ["KC"], 8)
        assert discard.rule == "RAM-VALUE"

    def test_anna_fed_bruno_the_2d(self, review):
        # Bruno took 2D for 2S 2H 2D: keeps QC 6H less QC, 6. With the stock's 4H he would
        # keep 2H 2S QC 6H 4H = 24 less QC, 14. 8 saved.
        fed = _chances(review, 2)[FED]
        assert (fed.seat, fed.by, fed.points) == (0, 1, 8)

    def test_anna_threw_kc_which_the_kings_would_take(self, review):
        # Opened, with 9C 7S 6C KC 4H (RAM-ADD: any meld). 6C goes before 7C 8C JK, KC on
        # KS KH KD. Throwing 9C keeps 7 + 4 = 11; throwing KC keeps 9C 7S 4H = 20.
        discard = review.turns[3].discard
        assert (str(discard.card), discard.left, _names(discard.best), discard.best_left) == (
            "KC",
            20,
            ["9C"],
            11,
        )
        assert (discard.unmelded, discard.best_unmelded) == (3, 2)
        # Kept 9C 7S 6C 4H: 26 in hand, 20 once 6C is laid off.
        layoff = _chances(review, 4)[LAYOFF]
        assert (layoff.points, layoff.cards) == (6, _cards("6C"))

    def test_anna_could_have_taken_back_the_joker_for_her_9c(self, review):
        # RAM-JOKER-SWAP: 9C in place of the joker of 7C 8C JK; the joker then stands for
        # 6S in 3S 4S 5S JK 7S, and 6C goes before 7C 8C 9C: she keeps only 4H, 4, not 20.
        swap = _chances(review, 4)[SWAP]
        assert (swap.rule, swap.cards, swap.points) == ("RAM-JOKER-SWAP", _cards("9C"), 16)

    def test_the_summary_and_the_end(self, review):
        anna = review.players[0]
        assert [(c.kind, c.points, c.turn) for c in anna.costs] == [
            (OPEN, 63, 2),
            (SWAP, 16, 4),
            (DISCARD, 9, 4),
            (DISCARD, 8, 2),
            (FED, 8, 2),
            (LAYOFF, 6, 4),
        ]
        assert review.points == (-26, 26)  # RAM-SCORE: 9 + 7 + 6 + 4
        # At the end 6C still fits before 7C 8C JK 10C (the joker is 9C): 26 - 6 = 20.
        end = review.end.seats[0]
        assert (end.count, end.best) == (26, 20)
        assert [(str(layoff.card), layoff.meld) for layoff in end.layoffs] == [("6C", 1)]


class TestKnockRummyReview:
    """REVIEW_KNOCK_RUMMY: no discards; each turn weighed by the points left in hand."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        return _review(samples.reviewed_of("knock_rummy"))

    def test_anna_kept_9h_which_the_hearts_run_took(self, review):
        # After 9H: she lays 4S 4D 4C and 8D 9D 10D, keeping AS AD 6C 7S 9H = 24. 9H goes on
        # 5H 6H 7H 8H (KR-MELDING): 15 was the least.
        melding = review.turns[1].melding
        assert (melding.left, melding.best_left, melding.lost, melding.step) == (24, 15, 9, 3)
        assert melding.rule == "KR-VALUE"
        assert review.turns[1].discard is None

    def test_bruno_could_have_knocked_with_three(self, review):
        # After laying JD QD KD on 8D 9D 10D he holds 2S AC = 3 <= 5 (KR-KNOCK). Anna held
        # AS AD 6C 7S 9H = 24: KR-SCORE, he would have won 24 - 3 = 21; he won 14 two turns
        # later: 7 at stake.
        knock = _chances(review, 3)[KNOCK]
        assert (knock.rule, knock.step, knock.scores, knock.points) == ("KR-KNOCK", 6, (0, 21), 7)

    def test_anna_could_have_laid_ad_on_the_diamonds_after_king(self, review):
        # Turn 4, after 2C: 9H goes on the hearts (she laid it), and AD on 8D 9D 10D JD QD KD,
        # as an ace may follow a king (ACE-HIGH, KR-MELDS): AS AD 6C 7S 2C = 17, less AD's 1.
        melding = review.turns[3].melding
        assert (melding.left, melding.best_left, melding.lost) == (17, 16, 1)

    def test_the_end_and_the_summary(self, review):
        anna, bruno = review.end.seats
        assert (anna.count, anna.best) == (17, 16)
        assert [str(layoff.card) for layoff in anna.layoffs] == ["AD"]
        assert (bruno.count, bruno.best) == (3, 3)
        assert [(c.kind, c.points) for c in review.players[0].costs] == [
            (MELDING, 9),
            (MELDING, 1),
        ]
        assert [(c.kind, c.points) for c in review.players[1].costs] == [(KNOCK, 7)]
        assert review.players[0].lost == 10


class TestScala40Review:
    """Scala 40's reviewed hand: Bruno opens on his first turn and closes on his second."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        return _review(samples.reviewed_of("scala40"))

    def test_bruno_threw_the_two_and_kept_the_three(self, review):
        # After his opening he holds 2D 3C beside 4S 5S 6S and 10D JD QD. Throwing 2D keeps
        # 3C, 3 points; throwing 3C keeps 2D, 2 (S40-VALUE): he lost 1.
        discard = review.turns[0].discard
        assert (str(discard.card), discard.left, discard.best_left, discard.lost) == (
            "2D",
            3,
            2,
            1,
        )
        assert [str(card) for card in discard.best] == ["3C"] and discard.rule == "S40-VALUE"

    def test_bruno_closed_with_nothing_left_and_anna_counts_her_whole_hand(self, review):
        closing = review.turns[2].discard
        assert (str(closing.card), closing.left, closing.lost) == ("3C", 0, 0)
        # S40-SCORE: Anna, unopened, adds her 13 cards: 112 (the sample's working).
        assert review.points == (112, 0)


class TestAGameThatReadsItsOwnMelds:
    def test_burracos_hand_is_stepped_through_but_its_turns_are_not_weighed(self):
        # The shared solver reads a 2 as a natural card; Burraco's pinelle are wild: rather
        # than weigh its hands wrongly, the review shows every step and weighs no turn.
        review = _review(samples.reviewed_of("burraco"))
        known = [turn for turn in review.turns if turn.known]
        assert review.steps and known  # (the pozzetto's cards are never named: not all)
        assert all(turn.discard is None and turn.melding is None for turn in review.turns)
        assert review.chances == () and review.end is None
        assert review.points == samples.reviewed_of("burraco").points


class TestUnknownCards:
    def test_a_log_that_never_names_a_card_says_so_for_the_turns_concerned(self):
        # The Knock Rummy sample names no stock card: Bruno's first card played comes after
        # draws nobody named, so which cards he held then cannot be told.
        review = _review(samples.played_of("knock_rummy"))
        assert not review.complete
        first = review.turns[0]
        assert (first.known, first.melding, first.held) == (False, None, None)
        assert first.unknown > 0
        assert review.players[1].unknown_turns == review.players[1].turns

    def test_a_seat_whose_later_draws_are_named_is_known_from_the_first_unnamed_one(self):
        # Gin sample: Bruno draws an unnamed stock card, throws KD, draws 9C (named) and
        # shows the rest: from that draw on his cards are all known, before it not.
        review = _review(samples.played_of("gin"))
        assert review.steps[2].hands[1].unknown == 10
        assert review.steps[3].hands[1].unknown == 0
        # Anna took only cards from the pile: hers are known from the deal.
        assert review.steps[0].hands[0].unknown == 0


class TestEnteredHands:
    def test_a_gin_hand_entered_by_cards_shows_its_arrangements_and_layoffs(self):
        events = [
            LogEvent(1, TABLE_CREATED, {"variant": "gin", "options": {}, "seats": ["A", "B"]}),
            LogEvent(
                2,
                HAND_RECORDED,
                {
                    "mode": "cards",
                    "knocker": 0,
                    "knocker_cards": "AS 2S 3S 8C 8D 8H 4D 5D 6D 2H",
                    "defender_cards": "2C 3C 4C 7H 7S 7D 9C 9S 9H 4S",
                },
            ),
        ]
        review = review_hand(events, 1)
        assert (review.kind, review.steps, review.turns) == (CARDS, (), ())
        knocker, defender = review.end.seats
        # The knocker's deadwood 2H = 2 is the least those cards allow; the defender's 4S goes
        # on AS 2S 3S: 0, an undercut (GIN-UNDERCUT: 2 + 25 to B).
        assert (knocker.count, knocker.best) == (2, 2)
        assert [str(layoff.card) for layoff in defender.layoffs] == ["4S"]
        assert review.points == (0, 27)

    def test_a_scoresheet_hand_entered_by_cards_shows_the_layoffs_missed(self):
        seats = ["A", "B", "C"]
        players = [
            {"hand": "KS QS 7D 8D 9D", "melded": "2C 3C 4C"},
            {"hand": "", "melded": "5H 6H 7H 8H KC KD KH 10S JS QS", "went_out": True},
            {"hand": "9H AC AD AH"},
        ]
        events = [
            LogEvent(1, TABLE_CREATED, {"variant": "ramino", "options": {}, "seats": seats}),
            LogEvent(2, HAND_RECORDED, {"mode": "cards", "players": players}),
        ]
        end = review_hand(events, 1).end
        assert not end.table_known
        a, _, c = end.seats
        # A holds KS QS 7D 8D 9D = 44 (RAM-VALUE); 7D 8D 9D is a meld and KS goes on the
        # melded kings (RAM-ADD): 10 left (QS: 10S JS QS already holds a queen).
        assert (a.count, a.best, [str(x.card) for x in a.layoffs]) == (44, 10, ["KS"])
        # C never melded, so never opened: no layoffs; AC AD AH is a meld, 9H is 9.
        assert (c.count, c.best, c.layoffs) == (42, 9, ())

    def test_a_hand_entered_by_points_shows_only_its_score_and_its_corrections(self):
        events = [
            LogEvent(1, TABLE_CREATED, {"variant": "gin", "options": {}, "seats": ["A", "B"]}),
            LogEvent(
                2,
                HAND_RECORDED,
                {
                    "mode": "quick",
                    "knocker": 1,
                    "ending": "knock",
                    "knocker_count": 3,
                    "defender_count": 20,
                },
            ),
            LogEvent(3, HAND_VOIDED, {"hand": 1, "reason": "misdeal"}),
        ]
        review = review_hand(events, 1)
        assert (review.kind, review.end, review.points, review.voided) == (
            POINTS,
            None,
            (0, 17),
            True,
        )
        # No decision to weigh: no accuracy, rather than 0 % or 100 %.
        assert [(p.decisions, p.accuracy) for p in review.players] == [(0, None), (0, None)]
        assert review.to_dict()["players"][0]["accuracy"] is None


class TestSolverKeepsItsOwnCopy:
    def test_a_hand_read_from_a_list_changed_later_is_not_changed_under_its_old_cards(self):
        # The solver keeps the hand read last for the next question. A caller that passed a
        # list and then changed it (a player's hand as a simulator plays it) must not change
        # the hand kept: the review asked 4C 4C after such a caller and was given 4C 3H.
        from scoring.solver import best_layoff
        from scoring.variants import ramino

        options = ramino.RaminoOptions()
        rules, value = ramino.meld_rules(options), ramino.card_value
        deck = ramino.deck(options, 2)
        hand = list(_cards("4C 4C"))
        best_layoff(hand, [], rules=rules, value=value, deck=deck)
        hand[1] = _cards("3H")[0]
        again = best_layoff(_cards("4C 4C"), [], rules=rules, value=value, deck=deck)
        # RAM-VALUE: two 4s, no meld: 8, both left.
        assert (again.count, _names(again.deadwood)) == (8, ["4C", "4C"])


class TestReviewContract:
    def test_a_hand_not_recorded_is_refused_by_name(self):
        with pytest.raises(RuleViolation) as caught:
            review_hand(_log(samples.reviewed_of("gin")), 2)
        assert (caught.value.rule, caught.value.violations[0].code) == ("EVENT", "no_such_hand")

    def test_a_review_may_start_from_a_state_of_the_table_before_the_hand(self):
        # Two hands: REVIEW_GIN's moves twice over (the first scored 27 to Anna, short of the
        # target of 100, so the match goes on; the deal names its dealer).
        events = _log(samples.reviewed_of("gin"))
        second = [
            LogEvent(len(events) + n, event.event_type, event.payload)
            for n, event in enumerate(events[1:], start=1)
        ]
        log = events + second
        whole = review_hand(log, 2)
        snapshot = replay(events)
        assert review_hand(second, 2, start=snapshot) == whole
        assert whole.number == 2 and whole.turns == review_hand(events, 1).turns
        with pytest.raises(ValueError, match="between hands"):
            review_hand(second, 1, start=snapshot)

    def test_a_review_never_changes_the_log(self):
        events = _log(samples.reviewed_of("ramino"))
        kept = copy.deepcopy(events)
        before = replay(events).to_dict()
        review_hand(events, 1)
        assert events == kept
        assert replay(events).to_dict() == before

    @pytest.mark.parametrize("sample", samples.reviewed(), ids=lambda s: s.variant)
    def test_the_steps_put_back_together_are_the_whole_steps(self, sample):
        review = _review(sample)
        whole = None
        for step, changes in zip(review.steps, review.to_dict()["steps"], strict=True):
            whole = with_changes(whole, json.loads(json.dumps(changes)))
            expected = step.to_dict()
            assert whole == expected
            assert len(whole["hands"]) == len(review.seats)

    def test_a_meld_laid_comes_once_and_a_meld_grown_again(self):
        review = _review(samples.reviewed_of("ramino"))
        steps = review.to_dict()["steps"]
        # Step 2: Bruno lays 7C 8C JK, KS KH KD, 3D 4D 5D: three new melds.
        assert [m["number"] for m in steps[2]["table"]] == [1, 2, 3]
        assert steps[2]["table_count"] == 3
        # Step 3, his discard: no meld changed.
        assert (steps[3]["table"], steps[3]["table_count"]) == ([], 3)
        added = next(step for step in steps if step["move"] == "cards_added")
        assert [m["number"] for m in added["table"]] == [1]  # 10C on 7C 8C JK
        assert "10C" in added["table"][0]["cards"]

    @pytest.mark.parametrize("sample", samples.reviewed(), ids=lambda s: s.variant)
    def test_a_review_is_json_ready_picklable_and_scores_as_the_hand(self, sample):
        review = _review(sample)
        assert review.points == sample.points
        assert pickle.loads(pickle.dumps(review)) == review
        data = json.loads(json.dumps(review.to_dict()))
        assert set(data) == {
            "variant",
            "seats",
            "number",
            "kind",
            "points",
            "count_rule",
            "lower_is_better",
            "voided",
            "amended",
            "complete",
            "dealer",
            "steps",
            "turns",
            "chances",
            "end",
            "players",
        }
        assert set(data["turns"][0]) == {
            "number",
            "seat",
            "first_step",
            "last_step",
            "known",
            "unknown",
            "held",
            "left",
            "draw",
            "discard",
            "melding",
            "chances",
        }
        assert len(data["steps"]) == len(review.steps)
        assert data["chances"] == [chance.to_dict() for chance in review.chances]

    def test_an_amended_hand_is_flagged(self):
        events = _log(samples.reviewed_of("rummy40"))
        amended = {
            "hand": 1,
            "reason": "recount",
            "mode": "points",
            "players": [{"points": 12}, {"points": 0, "went_out": True}],
        }
        events.append(LogEvent(len(events) + 1, HAND_AMENDED, amended))
        review = review_hand(events, 1)
        assert review.amended and not review.voided
        assert review.points == (10, 0)  # the hand as played


def _events(variant: str, *moves: tuple[str, dict]) -> list[LogEvent]:
    created = {"variant": variant, "options": {}, "seats": ["Anna", "Bruno"]}
    events = [LogEvent(1, TABLE_CREATED, created)]
    events += [LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(moves, 2)]
    return events


class TestGinKnockShownAsScored:
    """A missed knock whose kept cards have two least arrangements: the one the score lays
    out (against the defender's layoffs, GIN-LAYOFF) is the one shown. Big Gin preset."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        # Anna (dealer): AH, 5S 6S 7S, 8D 9D 10D, JC JH JS. Bruno: AC AS AD 2C 3C 3S 3H 4S
        # 4D KC. Both pass the upcard 9C (GIN-FIRST); Bruno's stock draw is 3D.
        return review_hand(
            _events(
                "gin",
                ("hand_started", {"dealer": 0, "upcard": "9C"}),
                ("turn_passed", {"seat": 1}),
                ("turn_passed", {"seat": 0}),
                ("card_drawn", {"seat": 1, "source": "stock", "card": "3D"}),
                ("card_discarded", {"seat": 1, "card": "4S"}),
                # Anna takes 4S for 4S 5S 6S 7S and goes gin throwing AH.
                ("card_drawn", {"seat": 0, "source": "discard", "card": "4S"}),
                (
                    "knocked",
                    {"seat": 0, "card": "AH", "hand": "4S 5S 6S 7S 8D 9D 10D JC JH JS"},
                ),
                (
                    "hands_shown",
                    {"mode": "cards", "players": [None, {"hand": "AC AS AD 2C 3C 3S 3H 3D 4D KC"}]},
                ),
            ),
            1,
        )

    def test_the_hand_scored_annas_gin(self, review):
        # Bruno's 10: AC 2C 3C, 3S 3H 3D, deadwood AS AD 4D KC = 16 (or AC AS AD, 3C 3S 3H
        # 3D and 2C 4D KC, 16). GIN-SCORE-GIN: 25 + 16 = 41 to Anna.
        assert review.points == (41, 0)

    def test_the_knock_shows_the_melds_its_score_uses(self, review):
        # After 3D, throwing KC keeps AC AS AD 2C 3C 3S 3H 3D 4S 4D: 10 either as AC AS AD,
        # 3C 3S 3H 3D (2C 4S 4D) or as AC 2C 3C, 3S 3H 3D (AS AD 4S 4D): a knock
        # (GIN-KNOCK). Shown the first way, Anna's AH goes on the aces (0); shown the second,
        # it goes nowhere and she keeps 1. The knocker shows the second (the defender's
        # count is left highest). Anna's 1 undercuts Bruno's 10 (GIN-UNDERCUT): 10 - 1 + 25
        # = 34 to her. As played she scored 41 and he 0: his swing, (0 - 34) - (0 - 41) = 7.
        knock = _chances(review, 3)[KNOCK]
        assert (knock.seat, knock.rule, knock.cards) == (1, "GIN-KNOCK", _cards("KC"))
        assert sorted(_names(meld.cards) for meld in knock.melds) == [
            ["2C", "3C", "AC"],
            ["3D", "3H", "3S"],
        ]
        assert (knock.scores, knock.points) == ((34, 0), 7)

    def test_a_stock_draw_forced_by_both_passes_is_not_weighed(self, review):
        # GIN-FIRST: both passed 9C, so Bruno had to draw from the stock: no choice.
        assert review.turns[2].draw is None
        assert DRAW not in [cost.kind for cost in review.players[1].costs]


class TestRaminoOutByOpeningAndAdding:
    """Going out by opening, adding to a table meld, then discarding (RAM-OPEN, RAM-ADD,
    RAM-OUT), missed by a seat that had not opened."""

    @pytest.fixture(scope="class")
    @classmethod
    def review(cls):
        # Anna (dealer): 10H JH QH, 3S 4S 5S, 6D 7D 8D, 9C 10C, KC 2D.
        # Bruno: KS KH KD, 4H 5H 6H, 7S 8S 9S, 2C 3C 4C, 7H.
        return review_hand(
            _events(
                "ramino",
                ("hand_started", {"dealer": 0, "upcard": "5D"}),
                # Bruno opens with the kings and 4H 5H 6H: 30 + 15 = 45 (RAM-OPEN).
                ("card_drawn", {"seat": 1, "source": "stock", "card": "QD"}),
                ("melds_laid", {"seat": 1, "melds": ["KS KH KD", "4H 5H 6H"]}),
                ("card_discarded", {"seat": 1, "card": "QD"}),
                # Anna's JC: four melds (30 + 12 + 21 + 29 = 92 to open), KC on the kings,
                # 2D thrown would go out. She throws 2D and lays nothing.
                ("card_drawn", {"seat": 0, "source": "stock", "card": "JC"}),
                ("card_discarded", {"seat": 0, "card": "2D"}),
                # Bruno lays 7S 8S 9S and 2C 3C 4C, adds 7H to his hearts, throws 10D: out.
                ("card_drawn", {"seat": 1, "source": "stock", "card": "10D"}),
                ("melds_laid", {"seat": 1, "melds": ["7S 8S 9S", "2C 3C 4C"]}),
                ("cards_added", {"seat": 1, "meld": 2, "cards": "7H"}),
                ("card_discarded", {"seat": 1, "card": "10D"}),
                (
                    "hands_shown",
                    {
                        "mode": "cards",
                        "players": [{"hand": "10H JH QH 3S 4S 5S 6D 7D 8D 9C 10C JC KC"}, None],
                    },
                ),
            ),
            1,
        )

    def test_the_hand_scored_bruno_out(self, review):
        # RAM-SCORE, RAM-VALUE: Anna's 13 cards, 30 + 12 + 21 + 29 + 10 = 102, to Bruno.
        assert review.points == (-102, 102)

    def test_annas_way_out_is_flagged(self, review):
        # Bruno, before her turn: 7S 8S 9S 2C 3C 4C 7H, 7 + 8 + 9 + 2 + 3 + 4 + 7 = 40. Out
        # with every card laid in one turn and none before, RAM-HANDCLOSE doubles it: Anna
        # 80, Bruno -80; she scored -102, he 102. Her swing: (80 - -80) - (-102 - 102) = 364.
        chances = _chances(review, 2)
        out = chances[OUT]
        assert (out.seat, out.rule, out.cards) == (0, "RAM-OUT", _cards("2D"))
        assert sorted(_names(meld.cards) for meld in out.melds) == [
            ["10C", "9C", "JC"],
            ["10H", "JH", "QH"],
            ["3S", "4S", "5S"],
            ["6D", "7D", "8D"],
        ]
        assert (out.scores, out.points) == ((80, -80), 364)
        assert OPEN not in chances  # the way out is flagged, not the opening alone


class TestOpeningThenAddingToGoOut:
    """The judge's way out for a seat not yet opened (scoring/review/judge.py), Ramino's
    opening of 30 (RAM-OPEN) with the kings and 4H 5H 6H on the table."""

    @pytest.fixture(scope="class")
    @classmethod
    def judge(cls):
        from scoring.melds import check_meld
        from scoring.review.judge import Judge
        from scoring.variants import game_get

        game = game_get("ramino")
        options = game.options_from_dict({}, 2)
        rules = game.play_rules(options, 2)
        onto = tuple(check_meld(_cards(text), rules.melds) for text in ("KS KH KD", "4H 5H 6H"))
        return Judge(rules, game.referee.closing(options)), onto

    def test_the_most_valuable_opening_first_then_the_rest_added(self, judge):
        judge, onto = judge
        # 5C 6C 7C 8C is 26, short of 30, with 3H and 7H on the hearts and 4C thrown; but
        # 4C 5C 6C 7C 8C is 30 (VALUE): it opens, 3H or 7H goes on 4H 5H 6H, the other is
        # thrown. Out (RAM-OUT), with nothing but the run laid of her own.
        cards = _cards("5C 6C 7C 8C 7H 4C 3H")
        out = judge.going_out(cards, opened=False, onto=onto)
        assert out is not None
        assert [_names(meld.cards) for meld in out.melds] == [["4C", "5C", "6C", "7C", "8C"]]
        assert str(out.discard) in ("3H", "7H")

    def test_an_opening_short_of_the_minimum_is_no_way_out(self, judge):
        judge, onto = judge
        # KC would go on the kings and QC be thrown, but the only melds of her own are in
        # AS 2S 3S 4S 5S 6S, 1 + 2 + 3 + 4 + 5 + 6 = 21 at most (VALUE): short of 30, so
        # she cannot open, nor go out.
        cards = _cards("AS 2S 3S 4S 5S 6S KC QC")
        assert judge.going_out(cards, opened=False, onto=onto) is None
        # Without the table's melds to add to, the same cards stay out of reach.
        assert judge.going_out(_cards("5C 6C 7C 8C 7H 4C 3H"), opened=False) is None


class TestAccuracy:
    @pytest.mark.parametrize(
        ("decisions", "matched", "accuracy"),
        # matched / decisions in whole percent, half up: 1/8 = 12.5 -> 13, 1/3 = 33.3 -> 33,
        # 7/8 = 87.5 -> 88, all or none of them 100 and 0.
        [(8, 1, 13), (3, 1, 33), (8, 7, 88), (4, 4, 100), (4, 0, 0), (0, 0, None)],
    )
    def test_the_share_of_decisions_that_were_the_best(self, decisions, matched, accuracy):
        from scoring.review import PlayerSummary

        player = PlayerSummary(0, "Anna", 0, (), (), 0, 0, decisions=decisions, matched=matched)
        assert player.accuracy == accuracy
