"""Meld validation (MELD-SET, MELD-RUN, ACE-LOW, ACE-HIGH, ACE-WRAP)."""

import pytest

from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules, check_meld
from scoring.variants.gin import GIN_MELDS as GIN

ACE_HIGH = MeldRules(ace_high=True)
WRAP = MeldRules(wrap=True)


def meld(text: str, rules: MeldRules = GIN) -> Meld:
    return check_meld(parse_cards(text), rules)


def refusal(text: str, rules: MeldRules = GIN):
    with pytest.raises(RuleViolation) as caught:
        meld(text, rules)
    (violation,) = caught.value.violations
    return violation


def names(m: Meld) -> str:
    return " ".join(str(card) for card in m.cards)


class TestSets:
    def test_three_cards_of_a_rank_in_different_suits_are_a_set(self):
        """MELD-SET: 3 cards of one rank, every suit at most once."""
        result = meld("7H 7C 7S")
        assert result.kind == "set"
        assert names(result) == "7C 7S 7H"

    def test_four_cards_of_a_rank_are_a_set(self):
        """MELD-SET: 3 or 4 cards."""
        assert names(meld("KD KH KS KC")) == "KC KS KH KD"

    def test_a_set_with_two_ranks_is_refused(self):
        """MELD-SET: one rank."""
        violation = refusal("7C 7S 8H")
        assert (violation.rule, violation.code) == ("MELD-SET", "mixed_ranks")

    def test_a_set_repeating_a_suit_is_refused_even_from_two_decks(self):
        """MELD-SET: never two identical cards, even with two decks."""
        violation = refusal("7S 7S 7H")
        assert (violation.rule, violation.code) == ("MELD-SET", "repeated_suit")
        assert violation.params["suit"] == "S"

    def test_a_set_larger_than_the_variant_allows_is_refused(self):
        """MELD-SET: at most max_set cards (4 unless a variant says fewer)."""
        violation = refusal("7C 7S 7H 7D", MeldRules(max_set=3))
        assert (violation.rule, violation.code) == ("MELD-SET", "too_many")
        assert violation.params["count"] == 4
        assert violation.params["limit"] == 3

    @pytest.mark.parametrize("text", ["7S", "7S 7H"])
    def test_fewer_than_three_cards_of_a_rank_are_too_few_for_a_set(self, text):
        """MELD-SET: at least 3 cards."""
        violation = refusal(text)
        assert (violation.rule, violation.code) == ("MELD-SET", "too_few")
        assert violation.params["minimum"] == 3

    def test_an_empty_meld_is_refused_as_empty(self):
        """MELD-SET: at least 3 cards, and this one has none (not ": a set needs 3")."""
        violation = refusal("")
        assert (violation.rule, violation.code) == ("MELD-SET", "empty")


class TestRuns:
    def test_three_consecutive_cards_of_a_suit_are_a_run_in_rank_order(self):
        """MELD-RUN: 3+ cards of one suit in consecutive order."""
        result = meld("7S 5S 6S")
        assert result.kind == "run"
        assert names(result) == "5S 6S 7S"

    def test_all_thirteen_cards_of_a_suit_are_one_run(self):
        """MELD-RUN: at most 13 cards."""
        result = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        assert len(result.cards) == 13

    def test_a_run_with_two_suits_is_refused(self):
        """MELD-RUN: one suit."""
        violation = refusal("5S 6S 7H")
        assert (violation.rule, violation.code) == ("MELD-RUN", "mixed_suits")

    def test_a_run_with_a_gap_is_refused_naming_the_missing_card(self):
        """MELD-RUN: consecutive ranks."""
        violation = refusal("5S 6S 8S")
        assert (violation.rule, violation.code) == ("MELD-RUN", "gap")
        assert violation.params["missing"] == ["7S"]

    def test_a_run_repeating_a_rank_is_refused(self):
        """MELD-RUN: each rank at most once."""
        violation = refusal("5S 5S 6S 7S")
        assert (violation.rule, violation.code) == ("MELD-RUN", "repeated_rank")
        assert violation.params["card"] == "5S"

    def test_two_cards_of_a_suit_are_too_few_for_a_run(self):
        """MELD-RUN: at least 3 cards."""
        violation = refusal("5S 6S")
        assert (violation.rule, violation.code) == ("MELD-RUN", "too_few")

    def test_cards_of_mixed_rank_and_suit_are_reported_against_the_kind_they_look_like(self):
        """MELD-SET / MELD-RUN: mostly one suit reads as a bad run, mostly one rank as a bad set."""
        assert refusal("5S 6S 7S 9H").rule == "MELD-RUN"
        assert refusal("9S 9C 9H 5D").rule == "MELD-SET"


class TestAces:
    def test_the_ace_may_start_a_run_below_the_two(self):
        """ACE-LOW: A-2-3 is a run."""
        assert names(meld("3S AS 2S")) == "AS 2S 3S"

    def test_q_k_a_is_refused_where_the_ace_is_only_low(self):
        """ACE-HIGH: Gin has ACE-LOW only (GIN-MELDS), so Q-K-A is no run."""
        violation = refusal("QS KS AS")
        assert (violation.rule, violation.code) == ("ACE-HIGH", "not_allowed")

    def test_q_k_a_is_a_run_ending_with_the_ace_where_the_variant_allows_it(self):
        """ACE-HIGH: with ace_high the ace may follow the king."""
        assert names(meld("AS QS KS", ACE_HIGH)) == "QS KS AS"
        assert names(meld("JS AS QS KS 10S", ACE_HIGH)) == "10S JS QS KS AS"

    def test_an_ace_high_variant_still_lets_the_ace_start_a_run(self):
        """ACE-LOW and ACE-HIGH together."""
        assert names(meld("AS 2S 3S", ACE_HIGH)) == "AS 2S 3S"

    @pytest.mark.parametrize("rules", [GIN, ACE_HIGH])
    def test_k_a_2_round_the_corner_is_refused_without_circular_runs(self, rules):
        """ACE-WRAP: K-A-2 is illegal unless circular runs are on, even with ACE-HIGH."""
        violation = refusal("KS AS 2S", rules)
        assert (violation.rule, violation.code) == ("ACE-WRAP", "not_allowed")

    def test_runs_round_the_corner_are_accepted_with_circular_runs_on(self):
        """ACE-WRAP: with the circular option K-A-2 is a run, ordered from the king."""
        assert names(meld("2S AS KS", WRAP)) == "KS AS 2S"
        assert names(meld("3H QH AH 2H KH", WRAP)) == "QH KH AH 2H 3H"

    def test_a_circular_run_still_needs_consecutive_cards(self):
        """ACE-WRAP: round the corner, still no gaps."""
        assert refusal("QS AS 2S", WRAP).rule == "MELD-RUN"

    def test_a_variant_without_a_low_ace_refuses_a_2_3(self):
        """ACE-LOW: only where the variant lets the ace be low."""
        violation = refusal("AS 2S 3S", MeldRules(ace_low=False, ace_high=True))
        assert (violation.rule, violation.code) == ("ACE-LOW", "not_allowed")


class TestJokers:
    def test_a_joker_in_a_meld_is_refused_where_the_rules_have_no_jokers(self):
        """GIN-SETUP: Gin has no jokers (max_jokers 0), and its rules cite its setup for one;
        see test_melds_jokers."""
        violation = refusal("7S 8S JK")
        assert (violation.rule, violation.code) == ("GIN-SETUP", "no_jokers")
