"""Canasta's table rules enforced move by move (CAN-OPEN-1, CAN-PILE-1, CAN-MELD-1,
CAN-MELD-3, CAN-RED3-1, CAN-OUT-2), each expected value worked by hand from docs/rules.md.

West (seat 3) deals every hand here, so North (0) moves first, then East (1), South (2),
West (3). Values (CAN-VALUES): joker 50, 2 and ace 20, 8 to K 10, 4 to 7 and black 3 5.
"""

import pytest

from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.events import TABLE_CREATED, LogEvent
from scoring.replay import replay

SEATS = ["North", "East", "South", "West"]

# A first hand entered by its sheets, to give the sides a total before the next one.
# North-South: 700 melded + 500 natural canasta + 300 mixed + 100 going out = 1600.
# East-West: 100 melded - 200 in hand = -100.
FIRST_HAND = (
    "hand_recorded",
    {
        "mode": "sheet",
        "pairs": [
            {"melded": 700, "natural": 1, "mixed": 1, "went_out": True, "in_hand": 0},
            {"melded": 100, "in_hand": 200},
        ],
    },
)


def _log(*events, options=None):
    created = {"variant": "canasta", "options": options or {}, "seats": SEATS}
    return [LogEvent(1, TABLE_CREATED, created)] + [
        LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(events, 2)
    ]


def _refused(*events) -> tuple[str, str, dict]:
    with pytest.raises(RuleViolation) as caught:
        replay(_log(*events))
    violation = caught.value.violations[0]
    return violation.rule, violation.code, violation.params


def _start(upcard="4C"):
    return ("hand_started", {"dealer": 3, "upcard": upcard})


def _draw(seat, card=None, source="stock"):
    payload = {"seat": seat, "source": source}
    if card is not None:
        payload["card"] = card
    return ("card_drawn", payload)


def _meld(seat, *melds):
    return ("melds_laid", {"seat": seat, "melds": list(melds)})


def _add(seat, meld, cards):
    return ("cards_added", {"seat": seat, "meld": meld, "cards": cards})


def _discard(seat, card):
    return ("card_discarded", {"seat": seat, "card": card})


# North opens with kings and aces: 3 x 10 + 3 x 20 = 90, enough on 0 (50) or 1600 (90).
NORTH_OPENS = (_draw(0), _meld(0, "KS KD KC", "AS AD AC"))


class TestFirstMeldMinimum:
    def test_a_side_on_1600_needs_90_can_open_1(self):
        # North-South stand at 1600 (FIRST_HAND): their first meld needs 90. K K K 30 + 2 20
        # = 50 is short; the turn's discard judges it.
        events = (FIRST_HAND, _start(), _draw(0), _meld(0, "KS KD KC 2H"), _discard(0, "9C"))
        rule, code, params = _refused(*events)
        assert (rule, code) == ("CAN-OPEN-1", "below_minimum")
        assert (params["value"], params["minimum"], params["total"]) == (50, 90, 1600)

    def test_two_melds_of_one_turn_make_the_minimum_together_can_open_1(self):
        # 50 + A A A 3 x 20 = 110, over the 90 of a side on 1600.
        events = (
            FIRST_HAND,
            _start(),
            _draw(0),
            _meld(0, "KS KD KC 2H"),
            _meld(0, "AS AD AC"),
            _discard(0, "9C"),
        )
        state = replay(_log(*events))
        assert state.play.hands[0].opened

    def test_a_side_below_zero_needs_15_can_open_1(self):
        # East-West stand at -100: 4 4 4 is 3 x 5 = 15, all they need.
        events = (FIRST_HAND, _start(), _draw(0), _discard(0, "9C"), _draw(1))
        events += (_meld(1, "4S 4D 4H"), _discard(1, "9D"))
        state = replay(_log(*events))
        assert state.play.hands[1].opened and state.play.turn == 2

    def test_the_first_hand_asks_50_can_open_1(self):
        # Total 0: 9 9 9 is 30, short of 50.
        events = (_start(), _draw(0), _meld(0, "9S 9D 9H"), _discard(0, "4D"))
        rule, code, params = _refused(*events)
        assert (rule, code, params["value"], params["minimum"]) == (
            "CAN-OPEN-1",
            "below_minimum",
            30,
            50,
        )

    def test_red_threes_do_not_count_toward_it_can_open_1(self):
        # The red 3 is a bonus, not a card melded: K K K alone is 30, short of 50.
        events = (_start(), _draw(0), _meld(0, "3H", "KS KD KC"), _draw(0), _discard(0, "4D"))
        rule, code, params = _refused(*events)
        assert (rule, code, params["value"]) == ("CAN-OPEN-1", "below_minimum", 30)

    def test_the_partner_of_a_side_that_melded_needs_no_minimum_can_open_1(self):
        # North opened; South's 5 5 5 (15) is not a first meld of the side.
        events = (_start(), *NORTH_OPENS, _discard(0, "9C"), _draw(1), _discard(1, "9D"))
        events += (_draw(2), _meld(2, "5S 5D 5H"), _discard(2, "8D"))
        state = replay(_log(*events))
        assert len(state.play.table) == 3


class TestDiscardPile:
    def test_a_side_that_has_not_melded_needs_a_natural_pair_can_pile_1(self):
        # The 9C upcard with 9D and a joker: one natural from the hand, frozen for North.
        events = (_start("9C"), _draw(0, source="discard"), _meld(0, "9C 9D JK", "AS AD AC"))
        assert _refused(*events)[:2] == ("CAN-PILE-1", "frozen_pile")

    def test_a_natural_pair_takes_a_pile_frozen_for_the_side_can_pile_1(self):
        # 9C 9D 9H 30 + A A A 60 = 90, the first meld; the pair from the hand.
        events = (_start("9C"), _draw(0, source="discard"), _meld(0, "9C 9D 9H", "AS AD AC"))
        events += (_discard(0, "4D"),)
        state = replay(_log(*events))
        assert state.play.turn == 1 and state.play.discard == parse_cards("4D")

    def test_a_wild_in_the_pile_freezes_it_for_everyone_can_pile_1(self):
        # The 2C turned up freezes the pile: South, whose side has melded, may not take
        # 9S with 9H and a wild.
        events = (_start("2C"), *NORTH_OPENS, _discard(0, "9C"), _draw(1), _discard(1, "9S"))
        events += (_draw(2, source="discard"), _meld(2, "9S 9H 2D"))
        assert _refused(*events)[:2] == ("CAN-PILE-1", "frozen_pile")

    def test_unfrozen_a_natural_and_a_wild_will_do_can_pile_1(self):
        # The same with the 4C turned up: no wild in the pile, and North-South have melded.
        events = (_start("4C"), *NORTH_OPENS, _discard(0, "9C"), _draw(1), _discard(1, "9S"))
        events += (_draw(2, source="discard"), _meld(2, "9S 9H 2D"), _discard(2, "5D"))
        state = replay(_log(*events))
        # South: 11 + 3 (4C 9C 9S) - 3 melded - 1 discarded = 10.
        assert state.play.hands[2].count == 10

    def test_unfrozen_the_top_goes_onto_the_sides_meld_can_pile_1(self):
        events = (_start("4C"), *NORTH_OPENS, _discard(0, "9C"), _draw(1), _discard(1, "KH"))
        events += (_draw(2, source="discard"), _add(2, 1, "KH"), _discard(2, "5D"))
        state = replay(_log(*events))
        assert sorted(str(card) for card in state.play.table[0].meld.cards) == [
            "KC",
            "KD",
            "KH",
            "KS",
        ]

    def test_a_black_three_on_top_stops_the_next_player_can_pile_1(self):
        events = (_start(), _draw(0), _discard(0, "3S"), _draw(1, source="discard"))
        assert _refused(*events)[:2] == ("CAN-PILE-1", "black_three_on_top")

    def test_a_wild_on_top_cannot_be_taken_can_pile_1(self):
        events = (_start("JK"), _draw(0, source="discard"))
        assert _refused(*events)[:2] == ("CAN-PILE-1", "wild_on_top")


class TestOneMeldOfARank:
    def test_a_side_refuses_a_second_meld_of_its_rank_can_meld_1(self):
        events = (_start(), *NORTH_OPENS, _discard(0, "9C"), _draw(1), _discard(1, "9D"))
        events += (_draw(2), _meld(2, "KH KH KS"))
        assert _refused(*events)[:2] == ("CAN-MELD-1", "rank_melded")

    def test_two_melds_of_one_rank_in_one_move_are_refused_can_meld_1(self):
        events = (_start(), _draw(0), _meld(0, "AS AD AC", "KS KD KC", "KH KH JK"))
        rule, code, params = _refused(*events)
        assert (rule, code, params["meld"]) == ("CAN-MELD-1", "rank_melded", 3)

    def test_the_other_side_may_meld_the_same_rank_can_meld_1(self):
        # East-West's kings 30 + aces 60 = 90, their first meld; North-South's kings are
        # not theirs.
        events = (_start(), *NORTH_OPENS, _discard(0, "9C"), _draw(1))
        events += (_meld(1, "KH KH KS", "AH AH AC"), _discard(1, "9D"))
        state = replay(_log(*events))
        assert len(state.play.table) == 4


# North goes out concealed: eight 7s (8 x 5 = 40, a natural canasta) and three black 3s
# (15): 55 >= 50 for the first meld, 11 cards of the 12 after the draw, the 12th discarded.
GOING_OUT_WITH_BLACK_THREES = (
    _start(),
    _draw(0),
    _meld(0, "7H 7H 7D 7D 7C 7C 7S 7S", "3S 3C 3S"),
    _discard(0, "4D"),
    (
        "hands_shown",
        {"mode": "points", "players": [None, {"points": 105}, {"points": 155}, {"points": 155}]},
    ),
)


class TestBlackThrees:
    def test_black_threes_melded_without_going_out_are_refused_can_meld_3(self):
        # 12 - 9 melded = 3 cards; the discard leaves 2: not going out.
        events = (_start(), _draw(0), _meld(0, "KS KD KC", "AS AD AC", "3S 3C 3S"))
        events += (_discard(0, "4D"),)
        assert _refused(*events)[:2] == ("CAN-MELD-3", "black_threes_go_out")

    def test_black_threes_melded_going_out_count_can_meld_3(self):
        state = replay(_log(*GOING_OUT_WITH_BLACK_THREES))
        pairs = state.hands[-1].current.to_dict()["pairs"]
        # North-South: 40 + 15 = 55 melded, natural canasta 500, concealed 200, South's
        # 155 in hand: 55 + 500 + 200 - 155 = 600.
        assert (pairs[0]["melded"], pairs[0]["going_out"], pairs[0]["total"]) == (55, 200, 600)


class TestConcealedGoingOut:
    def test_the_option_off_pays_100_can_opt_concealed(self):
        events = _log(*GOING_OUT_WITH_BLACK_THREES, options={"concealed_bonus": False})
        pairs = replay(events).hands[-1].current.to_dict()["pairs"]
        # 55 + 500 + 100 - 155 = 500.
        assert (pairs[0]["going_out"], pairs[0]["total"]) == (100, 500)

    def test_first_melds_of_the_turn_without_a_canasta_of_ones_own_pay_100_can_out_2(self):
        # North lays seven 7s (35, a natural canasta) and K K K (30): 65 >= 50; 12 - 10 - 1
        # = 1 card left. South then melds for the first time, in the turn going out, but
        # only adds to North's canasta: no canasta of South's own, not concealed.
        events = (
            _start(),
            _draw(0),
            _meld(0, "7H 7H 7D 7D 7C 7C 7S", "KS KD KC"),
            _discard(0, "4D"),
            _draw(1),
            _discard(1, "9D"),
            _draw(2),
            # 12 cards: 3 + 3 + 4 = 10 melded, the 7S added: 11, the 12th discarded.
            _meld(2, "QS QD QC", "JS JD JC", "10S 10D 10C 10H"),
            _add(2, 1, "7S"),
            _discard(2, "4C"),
            (
                "hands_shown",
                {
                    "mode": "points",
                    "players": [{"points": 5}, {"points": 100}, None, {"points": 155}],
                },
            ),
        )
        pairs = replay(_log(*events)).hands[-1].current.to_dict()["pairs"]
        # 7s 8 x 5 = 40, kings 30, queens 30, jacks 30, tens 40: 170 melded; natural canasta
        # 500; going out 100; North's 5 in hand: 170 + 500 + 100 - 5 = 765.
        assert (pairs[0]["melded"], pairs[0]["going_out"], pairs[0]["total"]) == (170, 100, 765)


class TestRedThrees:
    def test_a_red_three_drawn_is_not_kept_can_red3_1(self):
        events = (_start(), _draw(0, "3H"), _discard(0, "4D"))
        assert _refused(*events)[:2] == ("CAN-RED3-1", "red_three_kept")

    def test_a_red_three_is_not_discarded_can_red3_1(self):
        events = (_start(), _draw(0), _discard(0, "3D"))
        assert _refused(*events)[:2] == ("CAN-RED3-1", "red_three_kept")

    def test_a_red_three_laid_is_replaced_before_the_discard_can_red3_1(self):
        events = (_start(), _draw(0, "3H"), _meld(0, "3H"), _discard(0, "4D"))
        assert _refused(*events)[:2] == ("CAN-RED3-1", "replacement_owed")

    def test_the_replacement_comes_before_any_meld_can_red3_1(self):
        events = (_start(), _draw(0, "3H"), _meld(0, "3H"), _meld(0, "KS KD KC", "AS AD AC"))
        assert _refused(*events)[:2] == ("CAN-RED3-1", "replacement_owed")

    def test_the_replacement_comes_from_the_stock_can_red3_1(self):
        events = (_start(), _draw(0, "3H"), _meld(0, "3H"), _draw(0, source="discard"))
        assert _refused(*events)[:2] == ("CAN-RED3-1", "replacement_from_stock")

    def test_a_red_three_and_its_replacement_can_red3_1(self):
        events = (_start(), _draw(0, "3H"), _meld(0, "3H"), _draw(0), _discard(0, "4D"))
        play = replay(_log(*events)).play
        # Stock: 108 - 44 dealt - 1 upcard = 63, less the draw and the replacement: 61.
        # North: 11 + 1 - 1 (3H) + 1 - 1 = 11 cards, and opened nothing.
        assert (play.stock, play.hands[0].count, play.hands[0].opened) == (61, 11, False)

    def test_a_red_three_the_pile_brought_is_not_replaced_can_red3_1(self):
        # The 3D turned up freezes the pile. East takes it (3D 9C) with a natural pair of
        # 9s: 9 9 9 30 + K K K 30 = 60 >= 50, and lays the 3D with no replacement.
        events = (_start("3D"), _draw(0), _discard(0, "9C"), _draw(1, source="discard"))
        events += (_meld(1, "9C 9D 9H", "KS KD KC"), _meld(1, "3D"), _discard(1, "4D"))
        play = replay(_log(*events)).play
        # Stock: 63 - North's draw = 62, East drew none. East: 11 + 2 - 6 - 1 - 1 = 5.
        assert (play.stock, play.hands[1].count) == (62, 5)

    def test_a_red_three_on_top_cannot_be_taken_can_pile_1(self):
        events = (_start("3H"), _draw(0, source="discard"))
        assert _refused(*events)[:2] == ("CAN-PILE-1", "wild_on_top")
