"""Knock Rummy melding turns on a shared table (KR-MELDING, KR-MANIP, KR-JOKER)."""

import pytest

from scoring.cards import Card, parse_cards, parse_declared, split_declared
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules, check_meld
from scoring.rearrange import RearrangementResult, check_rearrangement
from scoring.variants.knock_rummy import REARRANGE

# KR-MELDS: the ace low or high, never round the corner; jokers without a count limit.
KNOCK = MeldRules(ace_low=True, ace_high=True, wrap=False, max_jokers=None)


def judge(
    before: list[str], after: list[str], hand: str, *, first_meld: bool = False
) -> RearrangementResult:
    return check_rearrangement(
        [parse_declared(text) for text in before],
        [parse_declared(text) for text in after],
        parse_cards(hand),
        KNOCK,
        REARRANGE,
        first_meld=first_meld,
    )


def verdicts(result: RearrangementResult) -> list[tuple[str, str]]:
    return [(v.rule, v.code) for v in result.violations]


def tables(result: RearrangementResult) -> list[str]:
    return [str(meld) for meld in result.melds_after]


class TestMelding:
    def test_the_first_meld_lays_a_legal_run_from_the_hand(self):
        """KR-MELDING: the first player to meld lays at least one legal meld of 3+ cards."""
        result = judge([], ["9S 7S 8S"], "7S 8S 9S 2C", first_meld=True)
        assert result.valid
        assert result.violations == ()
        assert result.added == parse_cards("7S 8S 9S")
        assert tables(result) == ["7S 8S 9S"]

    def test_a_first_meld_with_no_legal_meld_is_refused(self):
        """KR-MELDING: first_meld needs a legal set or run; the bad meld is reported too."""
        result = judge([], ["7S 8S 10S"], "7S 8S 10S", first_meld=True)
        assert not result.valid
        assert verdicts(result) == [("MELD-RUN", "gap"), ("KR-MELDING", "first_meld")]
        assert result.melds_after == ()

    def test_laying_nothing_on_an_empty_table_is_no_first_meld(self):
        """KR-MANIP / KR-MELDING: nothing added, and no meld on the table."""
        result = judge([], [], "7S 8S 9S", first_meld=True)
        assert verdicts(result) == [("KR-MANIP", "nothing_added"), ("KR-MELDING", "first_meld")]

    def test_a_first_meld_needs_an_empty_table(self):
        with pytest.raises(ValueError, match="empty"):
            judge(["7S 8S 9S"], ["7S 8S 9S 10S"], "10S", first_meld=True)

    def test_extending_a_meld_from_the_hand_is_legal(self):
        """KR-MELDING: later players may extend the table's melds."""
        result = judge(["7S 8S 9S"], ["7S 8S 9S 10S"], "10S 2C")
        assert result.valid
        assert result.added == (Card(10, "S"),)

    def test_a_card_not_in_the_hand_is_refused_counting_copies(self):
        """KR-MELDING: cards come from the hand; with two decks one 7♥ held is one 7♥ laid."""
        result = judge(["7S 8S 9S"], ["7S 8S 9S", "7H 8H 9H", "7C 7D 7H"], "7H 8H 9H 7C 7D")
        assert verdicts(result) == [("KR-MELDING", "not_in_hand")]
        assert result.violations[0].params == {"card": "7H", "count": 2, "held": 1}

    def test_an_illegal_table_before_the_turn_is_bad_input(self):
        """MELD-RUN: the table before was accepted turn by turn, so it must be legal."""
        with pytest.raises(RuleViolation) as caught:
            judge(["7S 8S 10S"], ["7S 8S 9S 10S"], "9S")
        violation = caught.value.violations[0]
        assert (violation.rule, violation.params["meld"], violation.params["table"]) == (
            "MELD-RUN",
            1,
            "before",
        )


class TestManipulation:
    def test_a_card_that_leaves_the_table_is_refused(self):
        """KR-MANIP: no card may leave the table."""
        result = judge(["7S 8S 9S 10S"], ["7S 8S 9S", "2C 3C 4C"], "2C 3C 4C")
        assert verdicts(result) == [("KR-MANIP", "card_left_table")]
        assert result.violations[0].params == {"card": "10S"}

    def test_a_turn_that_only_rearranges_is_refused(self):
        """KR-MANIP: a melding turn adds at least one card from the hand."""
        result = judge(["4S 5S 6S 7S 8S 9S"], ["4S 5S 6S", "7S 8S 9S"], "2C")
        assert verdicts(result) == [("KR-MANIP", "nothing_added")]

    def test_an_illegal_meld_after_the_turn_is_reported_with_its_number(self):
        """KR-MANIP: every table card ends the turn in a legal meld."""
        result = judge(["7S 8S 9S"], ["7S 8S", "9S 9H 9D"], "9H 9D")
        assert verdicts(result) == [("MELD-RUN", "too_few")]
        params = result.violations[0].params
        assert (params["meld"], params["table"], params["cards"]) == (1, "after", ["7S", "8S"])
        assert result.violations[0].message.startswith("Meld 1: ")
        assert not result.valid
        assert result.melds_after == ()

    def test_every_violation_is_reported_at_once(self):
        """KR-MANIP, KR-MELDING: a card left, one not held and a bad meld, all together."""
        result = judge(["7S 8S 9S 10S"], ["7S 8S 9S", "KD KH 5C"], "KD KH")
        assert verdicts(result) == [
            ("KR-MANIP", "card_left_table"),
            ("KR-MELDING", "not_in_hand"),
            ("MELD-SET", "mixed_ranks"),
        ]

    def test_splitting_a_run_into_a_set_and_two_runs_is_legal(self):
        """KR-MELDING / KR-MANIP: 4♥..9♥ split round 6♥, which joins 6♣ 6♠ from the hand."""
        result = judge(["4H 5H 6H 7H 8H 9H"], ["3H 4H 5H", "6C 6S 6H", "7H 8H 9H"], "6C 6S 3H KD")
        assert result.valid
        assert result.added == parse_cards("6C 6S 3H")
        assert tables(result) == ["3H 4H 5H", "6C 6S 6H", "7H 8H 9H"]


class TestJokers:
    def test_a_joker_may_move_to_another_meld_keeping_its_card(self):
        """KR-JOKER: a joker may move between melds while it stands for the same card."""
        result = judge(["6S 7S 8S JK=9S"], ["6S 7S 8S", "JK=9S 10S JS"], "10S JS")
        assert result.valid

    def test_a_moved_joker_keeps_its_card_without_declaring_it_again(self):
        """KR-JOKER: undeclared, the moved joker keeps 9♠ where the meld allows it (not Q♠)."""
        result = judge(["6S 7S 8S JK=9S"], ["6S 7S 8S", "JK 10S JS"], "10S JS")
        assert result.valid
        assert tables(result)[1] == "JK=9S 10S JS"

    def test_a_declaration_changed_without_the_real_card_is_refused(self):
        """KR-JOKER: the joker standing for 4♣ cannot become 4♠ while no 4♣ takes its place."""
        result = judge(["4H 4D JK=4C"], ["4H 4D JK=4S", "9H 10H JH"], "9H 10H JH")
        assert verdicts(result) == [("KR-JOKER", "declaration_changed")]
        assert result.violations[0].params == {"card": "4C"}

    def test_a_joker_replaced_from_the_hand_and_reused_is_legal(self):
        """KR-JOKER: 4♣ from the hand replaces the joker, which is reused as J♥."""
        result = judge(["4H 4D JK=4C"], ["4H 4D 4C", "9H 10H JK=JH"], "4C 9H 10H")
        assert result.valid
        assert result.added == parse_cards("4C 9H 10H")

    def test_a_joker_replaced_from_another_meld_and_reused_is_legal(self):
        """KR-JOKER: the real 4♣ may come from another meld; the joker becomes 8♣."""
        result = judge(["4C 5C 6C 7C", "4H 4D JK=4C"], ["5C 6C 7C JK=8C", "4H 4D 4C 4S"], "4S 9H")
        assert result.valid
        assert result.added == (Card(4, "S"),)
        assert tables(result) == ["5C 6C 7C JK=8C", "4C 4S 4H 4D"]

    def test_a_real_card_already_on_the_table_may_free_a_joker_within_the_turn(self):
        """KR-JOKER (reading): only the end of the turn counts, so 4♣ may take the joker's
        place, free it, and go back to its run; the table then shows a 4♣ for the joker."""
        result = judge(["4C 5C 6C", "4H 4D JK=4C"], ["4C 5C 6C 7C", "4H 4D JK=4S"], "7C")
        assert result.valid

    def test_a_joker_taken_off_the_table_is_refused_twice(self):
        """KR-JOKER / KR-MANIP: a replaced joker stays on the table and is reused at once."""
        result = judge(["4H 4D JK=4C"], ["4H 4D 4C"], "4C")
        assert verdicts(result) == [
            ("KR-MANIP", "card_left_table"),
            ("KR-JOKER", "joker_not_reused"),
        ]
        assert result.violations[0].params == {"card": "JK"}
        assert result.violations[1].params == {"cards": ["4C"], "count": 1}

    def test_a_replaced_joker_in_an_illegal_meld_is_not_reused(self):
        """KR-JOKER: the freed joker must be reused in a legal meld."""
        result = judge(["4H 4D JK=4C"], ["4H 4D 4C", "JK=9H 10H"], "4C 10H")
        assert verdicts(result) == [("MELD-SET", "too_few"), ("KR-JOKER", "joker_not_reused")]
        assert result.violations[0].params["meld"] == 2

    def test_an_undeclared_joker_in_an_illegal_meld_gets_the_benefit_of_the_doubt(self):
        """KR-JOKER: 7♠ 8♠ JK 5♥ is refused as a meld; the joker may still be 9♠."""
        result = judge(["7S 8S JK=9S"], ["7S 8S JK 5H"], "5H")
        assert verdicts(result) == [("MELD-RUN", "mixed_suits")]

    def test_a_joker_from_the_hand_takes_a_fresh_declaration(self):
        """KR-JOKER: the player declares what a joker laid from the hand stands for."""
        result = judge([], ["7S 8S JK=6S"], "7S 8S JK", first_meld=True)
        assert result.valid
        assert tables(result) == ["JK=6S 7S 8S"]

    def test_a_table_given_as_melds_is_judged_the_same(self):
        """KR-JOKER: a table held as Meld objects keeps each joker's card."""
        before = [meld("4C 5C 6C 7C"), meld("4H 4D JK=4C")]
        after = [meld("5C 6C 7C JK=8C"), parse_declared("4H 4D 4C 4S")]
        result = check_rearrangement(
            before, after, parse_cards("4S"), KNOCK, REARRANGE, first_meld=False
        )
        assert result.valid


def meld(text: str) -> Meld:
    cards, declarations = split_declared(parse_declared(text))
    return check_meld(cards, KNOCK, declarations)
