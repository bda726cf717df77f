"""The arrangement solver with two decks and jokers: deadwood, and a seeded sweep of every
question (openings and going out too), against the brute-force oracle (solver_oracle.py).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, Card
from scoring.errors import RuleViolation
from scoring.solver import Closing, best_arrangement, best_opening, can_go_out, min_arrangements
from tests.hypothesis_profiles import examples
from tests.scoring.solver_oracle import (
    ALL_RULES,
    CIRCULAR,
    FIXED_GROUPS,
    FIXED_JOKERS,
    KNOCK,
    POOLS,
    RAMINO,
    RUMMY40,
    TWO_DECKS,
    arrange,
    assert_arrangement,
    assert_legal,
    brute_deadwood,
    brute_go_out,
    brute_opening,
    cards,
    key_of,
    knock_value,
    meld_info,
    names,
    ramino_value,
    small_hands,
)


class TestOracle:
    def test_the_oracle_reads_jokers_as_the_rules_say(self):
        """The test's own reading of JOKER-1 and the MeldRules options, on plain examples."""
        assert meld_info(key_of(cards("7S 8S JK")), RAMINO) == 7 + 8 + 9
        assert meld_info(key_of(cards("QS KS JK")), RAMINO) == 10 + 10 + 11
        assert meld_info(key_of(cards("7S JK JK")), RAMINO) is None  # RAM-JOKER
        assert (
            meld_info(key_of(cards("7S JK JK")), KNOCK) == 7 + 8 + 9
        )  # 7-8-9 beats 7-7-7 and 5-6-7
        assert meld_info(key_of(cards("7S 8S JK JK")), RUMMY40) is None  # R40-RUNS
        assert meld_info(key_of(cards("7S JK 9S JK")), FIXED_JOKERS) is not None
        assert meld_info(key_of(cards("7S 8S JK JK")), FIXED_JOKERS) is not None  # JK 7 8 JK
        assert meld_info(key_of(cards("7S 10S JK JK")), FIXED_JOKERS) is None
        assert meld_info(key_of(cards("7C 7S JK JK")), FIXED_JOKERS) is None
        assert meld_info(key_of(cards("7C 7H JK")), FIXED_GROUPS) == 21  # the joker is 7♠
        assert meld_info(key_of(cards("7S 7D JK")), FIXED_GROUPS) == 21  # ♠ JK ♦: S H D
        assert meld_info(key_of(cards("7C 7D JK")), FIXED_GROUPS) is None  # ♣ ♦: a gap
        assert meld_info(key_of(cards("7S 7D JK JK")), FIXED_GROUPS) == 28
        assert meld_info(key_of(cards("KS AS 2S")), CIRCULAR) == 10 + 11 + 2
        assert meld_info(key_of(cards("KS AS 2S")), RAMINO) is None  # ACE-WRAP
        assert meld_info(key_of(cards("AS 2S 3S")), RAMINO) == 1 + 2 + 3


class TestDeadwoodWithJokers:
    def test_a_joker_fills_a_gap_and_counts_nothing(self):
        """JOKER-1, RAM-VALUE: 7♠ JK 9♠ is a run; 4♥ stays (4)."""
        result = best_arrangement(
            cards("7S JK 9S 4H"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert names(result.melds) == ["7S JK 9S"]
        assert result.melds[0].represents == cards("7S 8S 9S")
        assert result.count == 4

    def test_an_unmelded_joker_counts_its_value(self):
        """RAM-JOKER, RAM-VALUE: 7♠ and two jokers is no meld in Ramino: 7 + 20 + 20."""
        result = best_arrangement(
            cards("7S JK JK"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds == ()
        assert result.count == 47

    def test_knock_rummy_melds_one_card_with_two_jokers(self):
        """KR-MELDS, KR-JOKER: no joker limit, so 7♠ JK JK melds and nothing is left."""
        result = arrange("7S JK JK", KNOCK, knock_value)
        assert result.count == 0
        assert_legal(result.melds[0], KNOCK)

    def test_rummy40_allows_one_joker_per_meld(self):
        """R40-RUNS: one joker per meld leaves JK and 9♣ (25 + 9); Knock Rummy melds both jokers."""
        hand = cards("5H 6H JK JK 9C")
        assert best_arrangement(hand, rules=RUMMY40, value=knock_value, deck=TWO_DECKS).count == 34
        assert best_arrangement(hand, rules=KNOCK, value=knock_value, deck=TWO_DECKS).count == 9

    def test_two_decks_make_the_same_run_twice(self):
        """CARD-2 with two decks, MELD-RUN: 7♠8♠9♠ twice; a set never holds a card twice."""
        hand = cards("7S 8S 9S 7S 8S 9S 7H")
        result = best_arrangement(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert names(result.melds) == ["7S 8S 9S", "7S 8S 9S"]
        assert result.count == 7

    def test_one_deck_refuses_a_second_copy_but_two_decks_take_it(self):
        """CARD-2: the deck passed says how many copies a hand may hold."""
        with pytest.raises(RuleViolation) as caught:
            best_arrangement(cards("7S 7S"), rules=RAMINO, value=ramino_value)
        assert caught.value.rule == "CARD-2"
        with pytest.raises(RuleViolation):
            best_arrangement(cards("JK " * 7), rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        result = arrange("7S 7S", RAMINO)
        assert result.count == 14

    def test_a_joker_takes_the_place_that_reaches_highest(self):
        """JOKER-1: 7♠ 8♠ JK is shown as 7♠ 8♠ 9♠ (the engine picks one and says which)."""
        result = best_arrangement(
            cards("7S 8S JK"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds[0].represents == cards("7S 8S 9S")

    def test_circular_runs_go_round_the_corner_with_a_joker(self):
        """RAM-OPT-CIRCULAR: K♥ JK 2♥ is K A 2."""
        result = best_arrangement(
            cards("KH JK 2H"), rules=CIRCULAR, value=ramino_value, deck=TWO_DECKS
        )
        assert result.melds[0].represents == cards("KH AH 2H")
        assert (
            best_arrangement(
                cards("KH JK 2H"), rules=RAMINO, value=ramino_value, deck=TWO_DECKS
            ).count
            > 0
        )

    def test_a_lone_high_ace_takes_four_jokers_below_it(self):
        """KR-MELDS, ACE-HIGH: A♣ and four jokers are 10 J Q K A; a set would leave a joker."""
        result = arrange("AC JK JK JK JK", KNOCK, knock_value)
        assert result.count == 0
        assert result.melds[0].represents == cards("10C JC QC KC AC")
        opening = best_opening(cards("AC JK JK JK JK"), rules=KNOCK, keep=0, deck=TWO_DECKS)
        assert opening.value == 51

    def test_fixed_groups_place_the_joker_in_the_suit_order(self):
        """RAM-OPT-FIXEDGROUPS: 7♣ 7♥ JK: the joker is 7♠; 7♠ 7♦ JK is ♠ JK ♦, the joker ♥."""
        result = arrange("7C 7H JK", FIXED_GROUPS)
        assert result.melds[0].represents == cards("7C 7S 7H")
        result = arrange("7S 7D JK", FIXED_GROUPS)
        assert result.melds[0].represents == cards("7S 7H 7D")
        assert arrange("7C 7D JK", FIXED_GROUPS).count == 7 + 7 + 20
        assert arrange("7C 7D JK", RAMINO).count == 0

    def test_fixed_groups_need_not_start_at_clubs(self):
        """RAM-OPT-FIXEDGROUPS: ♠ ♥ ♦ has no gap; ♣ ♠ ♦ has one."""
        assert arrange("7S 7H 7D", FIXED_GROUPS).count == 0
        assert arrange("7C 7S 7D", FIXED_GROUPS).count == 21

    def test_min_arrangements_lists_equal_ways_and_starts_with_the_best(self):
        """GIN-DEADWOOD ties with two decks and jokers: best_arrangement is the first."""
        hand = cards("7S 8S 9S 7S 8S 9S JK 7H 7D")
        result = min_arrangements(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert result[0] == best_arrangement(hand, rules=RAMINO, value=ramino_value, deck=TWO_DECKS)
        assert len(result) >= 2
        assert {a.count for a in result} == {0}

    @settings(max_examples=examples(150), deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES), st.sampled_from([ramino_value, knock_value]))
    def test_small_hands_reach_the_brute_force_minimum(self, hand, rules, value):
        """GIN-DEADWOOD for every variant: the count is the minimum over all arrangements."""
        result = best_arrangement(hand, rules=rules, value=value, deck=TWO_DECKS)
        assert result.count == brute_deadwood(hand, rules, value)
        assert_arrangement(result, hand, rules, value)

    @settings(max_examples=examples(60), deadline=None)
    @given(small_hands(), st.sampled_from(ALL_RULES))
    def test_every_minimum_arrangement_is_minimal_and_legal(self, hand, rules):
        result = min_arrangements(hand, rules=rules, value=ramino_value, deck=TWO_DECKS)
        minimum = brute_deadwood(hand, rules, ramino_value)
        assert result[0] == best_arrangement(hand, rules=rules, value=ramino_value, deck=TWO_DECKS)
        for arrangement in result:
            assert arrangement.count == minimum
            assert_arrangement(arrangement, hand, rules, ramino_value)


class TestSeededSweep:
    def test_400_seeded_small_hands_match_the_brute_force_in_every_question(self):
        """Deadwood, openings and going out on 400 hands of up to 8 cards, 4 jokers (seed 8)."""
        rng = random.Random(8)
        for _ in range(400):
            ranks, suits = rng.choice(POOLS)
            pool = [Card(rank, suit) for rank in ranks for suit in suits] * 2
            jokers = rng.randint(0, 4)
            hand = rng.sample(pool, max(0, rng.randint(3, 8) - jokers)) + [JOKER] * jokers
            rules = rng.choice(ALL_RULES)
            result = best_arrangement(hand, rules=rules, value=knock_value, deck=TWO_DECKS)
            assert result.count == brute_deadwood(hand, rules, knock_value), (hand, rules)
            keep = rng.randint(0, 1)
            opening = best_opening(hand, rules=rules, keep=keep, deck=TWO_DECKS)
            assert opening.value == brute_opening(hand, rules, keep), (hand, rules, keep)
            closing = Closing(
                rng.choice(["required", "optional", "none"]),
                "RAM-OUT",
                rng.choice([0, 30, 40]),
                "RAM-OPEN",
                rng.choice([None, "R40-JOKER-DISCARD"]),
            )
            opened = rng.random() < 0.5
            out = can_go_out(hand, rules=rules, closing=closing, opened=opened, deck=TWO_DECKS)
            assert out.possible == brute_go_out(hand, rules, closing, opened), (hand, closing)
