"""The arrangement solver with two decks and jokers: the best opening and going out, against
the brute-force oracle (solver_oracle.py).
"""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, Card
from scoring.melds import Meld, MeldRules
from scoring.solver import Closing, best_opening, can_go_out
from tests.hypothesis_profiles import examples
from tests.scoring.solver_oracle import (
    ALL_RULES,
    R40_OUT,
    RAMINO,
    RAMINO_OUT,
    RUMMY40,
    TWO_DECKS,
    assert_legal,
    brute_go_out,
    brute_opening,
    cards,
    go_out,
    meld_value,
    names,
    small_hands,
)


class TestBestOpening:
    def test_the_joker_is_placed_where_it_is_worth_most(self):
        """VALUE, RAM-OPEN: Q♠ K♠ JK opens as Q K A, worth 10 + 10 + 11."""
        result = best_opening(cards("QS KS JK 4D"), rules=RAMINO, deck=TWO_DECKS)
        assert result.value == 31
        assert result.melds[0].represents == cards("QS KS AS")
        assert result.kept == cards("4D")

    def test_an_ace_counts_one_low_and_eleven_high_or_in_a_set(self):
        """VALUE: A-2-3 is 6; Q-K-A is 31; A-A-A is 33."""
        assert best_opening(cards("AS 2S 3S 9D"), rules=RAMINO, deck=TWO_DECKS).value == 6
        assert best_opening(cards("QS KS AS 9D"), rules=RAMINO, deck=TWO_DECKS).value == 31
        assert best_opening(cards("AS AH AD 9D"), rules=RAMINO, deck=TWO_DECKS).value == 33

    def test_a_card_stays_in_hand_to_discard(self):
        """R40-HAND / RAM-TURN: with keep=1 the opening never lays the whole hand."""
        hand = cards("7S 8S 9S 10S")
        assert best_opening(hand, rules=RAMINO, keep=0, deck=TWO_DECKS).value == 34
        kept = best_opening(hand, rules=RAMINO, keep=1, deck=TWO_DECKS)
        assert kept.value == 8 + 9 + 10
        assert kept.kept == cards("7S")

    def test_a_hand_without_melds_opens_nothing(self):
        result = best_opening(cards("7S 9D JK"), rules=RAMINO, deck=TWO_DECKS)
        assert (result.melds, result.value, result.cards) == ((), 0, ())

    def test_a_custom_opening_value_is_used(self):
        """opening_value may be any function of the meld, e.g. counting cards."""
        result = best_opening(
            cards("7S 8S 9S 7H 7D"), rules=RAMINO, opening_value=lambda m: len(m.cards), keep=0
        )
        assert result.value == 3

    @settings(max_examples=examples(120), deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES), st.integers(0, 2))
    def test_small_hands_open_for_the_brute_force_maximum(self, hand, rules, keep):
        """RAM-OPEN, R40-OPEN: the most valuable disjoint melds, keeping cards to discard."""
        result = best_opening(hand, rules=rules, keep=keep, deck=TWO_DECKS)
        assert result.value == brute_opening(hand, rules, keep)
        assert len(result.kept) >= min(keep, len(hand))
        assert Counter(result.cards) + Counter(result.kept) == Counter(hand)
        assert Counter(c for m in result.melds for c in m.cards) == Counter(result.cards)
        for meld in result.melds:
            assert_legal(meld, rules)
        assert result.value == sum(meld_value(meld) for meld in result.melds)


class TestCanGoOut:
    def test_all_cards_but_one_are_melded_and_the_last_discarded(self):
        """RAM-OUT: 7♠ 8♠ JK + 5♣ 5♥ 5♦, discard K♦."""
        result = go_out("7S 8S JK 5C 5H 5D KD", RAMINO, RAMINO_OUT)
        assert result.possible
        assert result.discard == Card(13, "D")
        assert sorted(names(result.melds)) == ["5C 5H 5D", "7S 8S JK"]

    def test_a_hand_that_melds_whole_must_still_discard(self):
        """R40-HAND: a player goes out by discarding; six cards in two sets cannot."""
        result = go_out("7S 7H 7D 5C 5H 5D", RUMMY40, R40_OUT)
        assert not result.possible
        assert result.violation.rule == "R40-HAND"
        assert result.violation.code == "cannot_go_out"

    def test_without_a_discard_where_the_options_allow(self):
        """RAM-OPT-NODISCARDWIN: the last card may be melded instead of discarded."""
        closing = Closing("optional", "RAM-OPT-NODISCARDWIN")
        result = go_out("7S 7H 7D 5C 5H 5D", RAMINO, closing)
        assert result.possible
        assert result.discard is None
        assert result.discards == (None,)

    def test_a_joker_may_not_be_the_last_discard_in_rummy40(self):
        """R40-JOKER-DISCARD: where only the joker could go, the hand cannot go out."""
        hand = "7S 8S 9S 5H 5D 5C JK"
        no_jokers = MeldRules(max_jokers=0)
        barred = go_out(hand, no_jokers, R40_OUT)
        assert not barred.possible
        assert (barred.violation.rule, barred.violation.code) == (
            "R40-JOKER-DISCARD",
            "joker_discard",
        )
        allowed = Closing("required", "RAM-OUT")
        result = go_out(hand, no_jokers, allowed)
        assert result.discard == JOKER

    def test_the_joker_joins_a_meld_and_another_card_is_discarded(self):
        """R40-JOKER-DISCARD, R40-RUNS: 7♠ 8♠ JK + 5♠ 5♥ 5♦ go down, 9♠ is discarded."""
        result = go_out("7S 8S 9S 5H 5D 5C JK", RUMMY40, R40_OUT)
        assert result.possible
        assert not result.discard.is_joker
        assert JOKER not in result.discards

    def test_an_opening_below_the_minimum_cannot_go_out(self):
        """RAM-OPEN, RAM-HANDCLOSE: 2♣2♥2♦ + 3♣3♥3♦ is worth 15, below 30."""
        result = go_out("2C 2H 2D 3C 3H 3D KS", RAMINO, RAMINO_OUT, opened=False)
        assert not result.possible
        assert result.violation.rule == "RAM-OPEN"
        assert result.violation.code == "below_minimum"
        assert dict(result.violation.params) == {"value": 15, "minimum": 30}
        opened = go_out("2C 2H 2D 3C 3H 3D KS", RAMINO, RAMINO_OUT)
        assert opened.possible

    def test_the_most_valuable_way_out_is_taken_when_opening(self):
        """RAM-OPEN, VALUE: discarding J♠ leaves Q♠ K♠ JK=A♠ (31) + 4-4-4 (12), the most."""
        hand = "JS QS KS JK 4H 4D 4C"
        result = go_out(hand, RAMINO, RAMINO_OUT, opened=False)
        assert result.possible
        assert result.value == 43
        assert result.discard == Card(11, "S")
        assert result.discards[0] == Card(11, "S")
        assert set(result.discards) == set(cards(hand))  # each other way is worth 42

    def test_opened_players_add_their_last_cards_to_table_melds(self):
        """RAM-ADD, RAM-OUT: 10♠ goes onto the table's JK 8♠ 9♠; 4♥ is discarded."""
        onto = [Meld("run", (JOKER, *cards("8S 9S")), cards("7S 8S 9S"))]
        result = go_out("10S 4H", RAMINO, RAMINO_OUT, onto=onto)
        assert result.possible
        assert result.layoffs == ((Card(10, "S"), 0),)
        assert result.grown[0].represents == cards("7S 8S 9S 10S")
        assert result.discard == Card(4, "H")

    @settings(max_examples=examples(150), deadline=None)
    @given(
        small_hands(),
        st.sampled_from(ALL_RULES),
        st.sampled_from(["required", "optional", "none"]),
        st.booleans(),
        st.booleans(),
        st.sampled_from([0, 20, 30]),
    )
    def test_small_hands_go_out_exactly_when_the_brute_force_says(
        self, hand, rules, discard, joker_discard, opened, minimum
    ):
        """R40-HAND, RAM-OUT, RAM-OPT-NODISCARDWIN, KR-OUT, RAM-HANDCLOSE against brute force."""
        closing = Closing(
            discard,
            "RAM-OUT",
            opening_minimum=minimum,
            opening_rule="RAM-OPEN",
            joker_discard_rule=None if joker_discard else "R40-JOKER-DISCARD",
        )
        result = can_go_out(hand, rules=rules, closing=closing, opened=opened, deck=TWO_DECKS)
        if result.possible:
            shown = [c for m in result.melds for c in m.cards]
            shown += [result.discard] if result.discard is not None else []
            assert Counter(shown) == Counter(hand)
            for meld in result.melds:
                assert_legal(meld, rules)
            if result.discard is not None:
                assert joker_discard or not result.discard.is_joker
            if not opened:
                assert result.value == sum(meld_value(m) for m in result.melds) >= minimum
        assert result.possible == brute_go_out(hand, rules, closing, opened), result
