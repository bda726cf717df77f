"""Canasta played move by move and asked of the referee (CAN-TURN-1, CAN-PILE-1,
CAN-RED3-1, CAN-OUT-1, CAN-STOCK-1, CAN-OPEN-1, CAN-CANASTA-1), worked by hand."""

import pytest

from scoring.errors import RuleViolation
from scoring.events import TABLE_CREATED, LogEvent
from scoring.referee import answer
from scoring.replay import replay
from scoring.samples import examples_of

SEATS = ["North", "East", "South", "West"]


def _log(*events, options=None):
    created = {"variant": "canasta", "options": options or {}, "seats": SEATS}
    return [LogEvent(1, TABLE_CREATED, created)] + [
        LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(events, 2)
    ]


START = ("hand_started", {"dealer": 3, "upcard": "9C"})


def _refused(*events) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as caught:
        replay(_log(*events))
    violation = caught.value.violations[0]
    return violation.rule, violation.code


class TestPlay:
    def test_the_sample_hand_scores_as_worked_can_turn_1(self):
        # samples.py works it: 75 melded + 500 natural canasta + 100 out - 155 = 520;
        # East-West's red 3 with nothing melded -100, less 100 and 155 held: -355.
        sample = examples_of("canasta").played
        state = replay(_log(*sample.events, options=sample.options))
        assert state.hands[-1].current.points == (520, -355, 520, -355)

    def test_going_out_without_a_canasta_is_refused_can_out_1(self):
        events = (
            START,
            ("card_drawn", {"seat": 0, "source": "stock"}),
            # 12 cards, 9 melded, then 3 more: 12 - 12 = 0, no card left to discard.
            ("melds_laid", {"seat": 0, "melds": ["KS KD KC", "QS QD QC", "JS JD JC"]}),
            ("melds_laid", {"seat": 0, "melds": ["AS AD AC"]}),
        )
        assert _refused(*events) == ("CAN-OUT-1", "keep_one")

    def test_the_last_discard_without_a_canasta_is_refused_can_out_1(self):
        events = (
            START,
            ("card_drawn", {"seat": 0, "source": "stock"}),
            # 12 cards, melds of 3, 4 and 4: 12 - 11 = 1, the last card, and no canasta.
            ("melds_laid", {"seat": 0, "melds": ["KS KD KC", "QS QD QC QH", "JS JD JC JH"]}),
            ("card_discarded", {"seat": 0, "card": "4C"}),
        )
        assert _refused(*events) == ("CAN-OUT-1", "out_without_canasta")

    def test_a_meld_in_play_follows_canastas_rules_can_meld_2(self):
        events = (
            START,
            ("card_drawn", {"seat": 0, "source": "stock"}),
            ("melds_laid", {"seat": 0, "melds": ["KS JK 2D"]}),
        )
        assert _refused(*events) == ("CAN-MELD-2", "too_few_naturals")

    def test_the_piles_top_goes_to_the_table_can_pile_1(self):
        events = (
            START,
            # North takes the whole pile (the 9C alone) and discards at once, the 9C unused.
            ("card_drawn", {"seat": 0, "source": "discard"}),
            ("card_discarded", {"seat": 0, "card": "4C"}),
        )
        assert _refused(*events) == ("CAN-PILE-1", "pickup_not_opened")

    def test_the_pile_taken_whole_can_be_melded_from_can_pile_1(self):
        events = (
            START,
            ("card_drawn", {"seat": 0, "source": "discard"}),
            # The 9C with a natural pair from the hand (the pile is frozen for a side that
            # has not melded), and kings: 3 x 10 + 3 x 10 = 60, over the 50 a side on 0 needs.
            ("melds_laid", {"seat": 0, "melds": ["9C 9D 9H", "KS KD KC"]}),
            ("card_discarded", {"seat": 0, "card": "4C"}),
        )
        state = replay(_log(*events))
        assert not state.hands  # taken, melded, discarded: the hand goes on


class TestReferee:
    def test_a_meld_and_its_canasta_can_canasta_1(self):
        verdict = answer("meld", {"variant": "canasta", "cards": "QS QS QH QH QD JK 2C"})
        # Five queens 50 + joker 50 + 2 20 = 120; mixed canasta, 300.
        assert (verdict["valid"], verdict["canasta"], verdict["bonus"], verdict["value"]) == (
            True,
            "mixed",
            300,
            120,
        )

    def test_a_first_meld_short_of_the_band_can_open_1(self):
        ask = {"variant": "canasta", "melds": ["KS KD KC 2H"], "total": 1600}
        verdict = answer("opening", ask)
        # K K K 30 + 2 20 = 50, short of the 90 a side on 1600 needs.
        assert (verdict["valid"], verdict["value"], verdict["minimum"]) == (False, 50, 90)
        verdict = answer("opening", {**ask, "melds": ["KS KD KC 2H", "AC AD AS"]})
        # 50 + 3 x 20 = 110: enough.
        assert (verdict["valid"], verdict["value"]) == (True, 110)

    def test_a_hands_score_with_going_out_can_score_1(self):
        pairs = [
            {"melded": 240, "mixed": 1, "went_out": True, "in_hand": 0},
            {"melded": 90, "in_hand": 65},
        ]
        verdict = answer("score", {"variant": "canasta", "mode": "sheet", "pairs": pairs})
        # 240 + 300 + 100 = 640; 90 - 65 = 25.
        assert verdict["points"] == [640, 25, 640, 25]

    def test_a_stock_run_out_earns_no_going_out_can_stock_1(self):
        pairs = [{"melded": 240, "mixed": 1, "in_hand": 0}, {"melded": 90, "in_hand": 65}]
        verdict = answer("score", {"variant": "canasta", "mode": "sheet", "pairs": pairs})
        # 240 + 300 = 540, no 100 for going out.
        assert verdict["points"][0] == 540 and verdict["ending"] == "stock"
