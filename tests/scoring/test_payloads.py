"""Payloads are read once into typed values, and the first refusal of an event stays the one
the engine has always given, even where a state check comes before a field's own check."""

import dataclasses

import pytest

from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.events import CARD_DRAWN, CARDS_ADDED, KNOCKED, MOVE_UNDONE
from scoring.payloads import CardDrawn, CardsAdded, HandContext, Knocked, read_payload
from tests.scoring.play_helpers import (
    HAND_VOIDED,
    Table,
    add,
    deal,
    draw,
    knock,
    record,
    rule_and_code,
    show,
    take,
)

GIN_SEATS = ["Anna", "Bruno"]
QUICK_KNOCK = {
    "mode": "quick",
    "knocker": 0,
    "ending": "knock",
    "knocker_count": 7,
    "defender_count": 23,
}


def refusal(event_type, payload, **context):
    with pytest.raises(RuleViolation) as caught:
        read_payload(event_type, payload, **context)
    return caught.value.violations[0]


class TestReaders:
    def test_a_move_is_read_into_a_frozen_typed_value(self):
        move = read_payload(CARD_DRAWN, {"seat": 1, "source": "stock"}, hand=HandContext(seats=2))
        assert move == CardDrawn(seat=1, source="stock", card=None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            move.seat = 0

    def test_a_draw_from_the_discard_pile_needs_a_game_with_one(self):
        violation = refusal(
            CARD_DRAWN, {"seat": 0, "source": "discard"}, hand=HandContext(2, discard_pile=False)
        )
        assert (violation.code, violation.params["choices"]) == ("bad_choice", ["stock"])

    def test_a_meld_number_is_kept_as_sent_for_the_table_to_check(self):
        move = read_payload(
            CARDS_ADDED, {"seat": 0, "meld": "two", "cards": "7S"}, hand=HandContext(seats=2)
        )
        assert move == CardsAdded(seat=0, meld="two", cards=tuple(parse_cards("7S")))

    def test_a_gin_knock_keeps_its_discards_refusal_for_later(self):
        payload = {"seat": 0, "card": "ZZ", "hand": "2C"}
        move = read_payload(KNOCKED, payload, hand=HandContext(2, knock_showing=True))
        assert isinstance(move, Knocked) and move.discard is not None
        with pytest.raises(RuleViolation) as caught:
            move.discard.get()
        assert caught.value.violations[0].params["field"] == "card"

    def test_an_unknown_field_is_refused_by_the_reader(self):
        violation = refusal(MOVE_UNDONE, {"reason": "x", "seat": 0})
        assert (violation.code, violation.params["field"]) == ("unknown_field", "seat")

    def test_an_unknown_event_type_is_refused(self):
        assert refusal("hand_shuffled", {}).code == "unknown_type"


class TestTheFirstRefusalStays:
    def test_a_knock_out_of_turn_is_refused_before_its_discard_is_read(self):
        table = Table("gin", GIN_SEATS).play(deal("7S"))
        violation = table.refused(knock(0, card="ZZ", hand="2C 3C"))
        assert rule_and_code(violation) == ("GIN-TURN", "not_your_turn")

    def test_a_knock_before_the_draw_is_refused_before_its_discard_is_read(self):
        table = Table("gin", GIN_SEATS).play(deal("7S"))
        violation = table.refused(knock(1, card="ZZ", hand="2C 3C"))
        assert rule_and_code(violation) == ("GIN-TURN", "draw_first")

    def test_a_seats_wrong_count_comes_before_a_later_seats_bad_cards(self):
        table = Table("knock_rummy", GIN_SEATS).play(deal(), draw(1), draw(1), draw(1), knock(1))
        assert table.refused(show("2C", "ZZ")).code == "wrong_count"
        assert table.refused(show(None, "ZZ")).code == "missing_hand"

    def test_gin_refuses_adds_before_reading_the_meld_number(self):
        table = Table("gin", GIN_SEATS).play(deal("7S"), take(1))
        assert table.refused(add(1, "first", "7S")).code == "no_adds"

    def test_a_void_checks_the_hand_number_before_the_fields(self):
        table = Table("gin", GIN_SEATS)
        payload = {"hand": 1, "reason": "x", "extra": 1}
        assert table.refused((HAND_VOIDED, payload)).code == "no_such_hand"
        table.play(record(QUICK_KNOCK))
        assert table.refused((HAND_VOIDED, {**payload, "hand": 2})).code == "bad_int"
        assert table.refused((HAND_VOIDED, payload)).code == "unknown_field"
