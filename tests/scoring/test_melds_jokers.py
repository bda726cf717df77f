"""Melds with jokers under every variant's rules (JOKER-1, MELD-SET, MELD-RUN, ACE-*, VALUE,
R40-RUNS, RAM-JOKER, RAM-OPT-FIXEDJOKER, RAM-OPT-FIXEDGROUPS, KR-MELDS)."""

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, SUITS, Card, parse_cards, parse_declared, split_declared
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules, check_meld, meld_value, opening_value
from scoring.variants.gin import GIN_MELDS as GIN

R40 = MeldRules(ace_high=True, max_jokers=1, joker_limit_rule="R40-RUNS")
RAMINO = MeldRules(ace_high=True, max_jokers=None, jokers_within_naturals_rule="RAM-JOKER")
CIRCULAR = replace(RAMINO, wrap=True)
FIXED_JOKERS = replace(RAMINO, apart_jokers_rule="RAM-OPT-FIXEDJOKER")
FIXED_GROUPS = replace(RAMINO, fixed_groups_rule="RAM-OPT-FIXEDGROUPS")
FIXED_BOTH = replace(FIXED_GROUPS, apart_jokers_rule="RAM-OPT-FIXEDJOKER")
KNOCK = MeldRules(ace_high=True, max_jokers=None)


def meld(text: str, rules: MeldRules = KNOCK, **options) -> Meld:
    cards, declarations = split_declared(parse_declared(text))
    return check_meld(cards, rules, declarations, **options)


def refusal(text: str, rules: MeldRules = KNOCK):
    with pytest.raises(RuleViolation) as caught:
        meld(text, rules)
    (violation,) = caught.value.violations
    return violation


class TestJokerCounts:
    def test_gin_still_refuses_any_joker(self):
        """JOKER-1 / GIN-SETUP: Gin's melds take no jokers, declared or not."""
        for text in ("7S 8S JK", "7S 8S JK=9S"):
            violation = refusal(text, GIN)
            assert (violation.rule, violation.code) == ("GIN-SETUP", "no_jokers")

    @pytest.mark.parametrize("text", ["JK JK JK", "JK=7S JK=8S JK=9S"])
    def test_a_meld_of_jokers_only_is_refused(self, text):
        """JOKER-1: a joker stands for a card of a meld that has at least one natural card."""
        violation = refusal(text)
        assert (violation.rule, violation.code) == ("JOKER-1", "no_natural")

    def test_rummy40_allows_one_joker_per_meld(self):
        """R40-RUNS: at most one joker per meld."""
        assert str(meld("JK 7S 9S", R40)) == "7S JK=8S 9S"
        assert str(meld("7C JK 7H", R40)) == "7C JK=7S 7H"

    def test_rummy40_refuses_a_second_joker_in_a_run(self):
        """R40-RUNS: a second joker in a Rummy40 meld is refused."""
        violation = refusal("7S JK JK 10S", R40)
        assert (violation.rule, violation.code) == ("R40-RUNS", "too_many_jokers")
        assert (violation.params["count"], violation.params["limit"]) == (2, 1)

    def test_rummy40_refuses_one_natural_card_with_two_jokers(self):
        """R40-RUNS: 7♠ JK JK has two jokers, whatever meld it would be."""
        violation = refusal("7S JK JK", R40)
        assert (violation.rule, violation.code) == ("R40-RUNS", "too_many_jokers")

    def test_ramino_allows_as_many_jokers_as_natural_cards_side_by_side(self):
        """RAM-JOKER: two jokers side by side are allowed with two natural cards."""
        assert str(meld("7S 10S JK JK", RAMINO)) == "7S JK=8S JK=9S 10S"

    @pytest.mark.parametrize("text", ["7S JK JK", "7S 8S JK JK JK"])
    def test_ramino_refuses_more_jokers_than_natural_cards(self, text):
        """RAM-JOKER: a meld never has more jokers than natural cards."""
        violation = refusal(text, RAMINO)
        assert (violation.rule, violation.code) == ("RAM-JOKER", "too_many_jokers")
        assert violation.params["jokers"] == violation.params["naturals"] + 1

    def test_knock_rummy_has_no_joker_limit(self):
        """KR-JOKER / KR-MELDS: 1 natural card and 2 jokers make a meld."""
        assert meld("7S JK JK").kind == "set"


class TestSetsWithJokers:
    def test_a_joker_in_a_set_takes_the_first_missing_suit_and_says_it_chose(self):
        """MELD-SET, JOKER-1: 7♣ JK 7♥ may be 7♠ or 7♦; the engine takes ♠ (C S H D order)."""
        result = meld("7C JK 7H", RAMINO)
        assert result.kind == "set"
        assert result.cards == (Card(7, "C"), JOKER, Card(7, "H"))
        assert result.represents == parse_cards("7C 7S 7H")
        assert result.chosen == (1,)

    def test_a_declared_joker_in_a_set_stands_where_its_suit_goes(self):
        """JOKER-1: the player's declaration is kept; the meld lists suits in order."""
        result = meld("7C JK=7D 7H", RAMINO)
        assert str(result) == "7C 7H JK=7D"
        assert result.chosen == ()

    def test_the_last_missing_suit_is_determined_not_chosen(self):
        """JOKER-1: 7♣ 7♠ 7♥ JK leaves only ♦ for the joker."""
        result = meld("JK 7S 7H 7C", RAMINO)
        assert str(result) == "7C 7S 7H JK=7D"
        assert result.chosen == ()

    def test_two_jokers_take_the_two_missing_suits(self):
        """JOKER-1: 7♣ 7♠ JK JK: the jokers are 7♥ and 7♦, nothing left to choose."""
        result = meld("7C 7S JK JK", RAMINO)
        assert str(result) == "7C 7S JK=7H JK=7D"
        assert result.chosen == ()

    @pytest.mark.parametrize("text", ["7C JK=8C 7H", "7C JK=7C 7H", "7C JK=7S JK=7S 7H"])
    def test_a_declaration_the_set_cannot_hold_is_refused_with_its_position(self, text):
        """JOKER-1: a joker in a set of 7s stands for a missing 7, once."""
        violation = refusal(text)
        assert (violation.rule, violation.code) == ("JOKER-1", "bad_declaration")
        declared = dict((p, str(d)) for p, (c, d) in enumerate(parse_declared(text), start=1) if d)
        assert violation.params["card"] == declared[violation.params["position"]]
        assert violation.params["position"] == max(declared)

    def test_a_fifth_card_is_too_many_even_as_a_joker(self):
        """MELD-SET: at most 4 cards, jokers included."""
        violation = refusal("7C 7S 7H 7D JK")
        assert (violation.rule, violation.code) == ("MELD-SET", "too_many")
        assert (violation.params["count"], violation.params["limit"]) == (5, 4)

    @pytest.mark.parametrize("text", ["7S 7S 7H", "7S 7S JK", "7S 7H 7S JK"])
    def test_two_identical_cards_are_never_a_set_even_with_two_decks(self, text):
        """MELD-SET: never two identical cards, even with two decks (RAM-SET, KR-MELDS)."""
        violation = refusal(text, KNOCK)
        assert (violation.rule, violation.code) == ("MELD-SET", "repeated_suit")
        assert violation.params["suit"] == "S"


class TestRunsWithJokers:
    def test_a_joker_at_an_open_end_is_placed_high_and_marked_as_chosen(self):
        """JOKER-1: 7♠ 8♠ JK may be 6♠ or 9♠; the engine takes 9♠, the more valuable."""
        result = meld("7S 8S JK")
        assert result.kind == "run"
        assert str(result) == "7S 8S JK=9S"
        assert result.chosen == (2,)

    def test_a_declared_joker_at_the_other_end_is_kept(self):
        """JOKER-1: 7♠ 8♠ JK declared 6♠ is 6♠ 7♠ 8♠."""
        result = meld("7S 8S JK=6S")
        assert result.cards == (JOKER, Card(7, "S"), Card(8, "S"))
        assert result.represents == parse_cards("6S 7S 8S")
        assert result.chosen == ()

    @pytest.mark.parametrize("text", ["7S JK 9S", "9S 7S JK", "JK 9S 7S"])
    def test_a_joker_in_a_gap_is_determined_whatever_the_written_order(self, text):
        """JOKER-1: 7♠ JK 9♠: the meld determines the joker, 8♠."""
        result = meld(text)
        assert str(result) == "7S JK=8S 9S"
        assert result.chosen == ()

    def test_only_the_joker_with_two_places_is_marked_as_chosen(self):
        """JOKER-1: 5♠ JK 7♠ JK: the first joker must be 6♠; the other may be 4♠ or 8♠."""
        result = meld("5S JK 7S JK")
        assert str(result) == "5S JK=6S 7S JK=8S"
        assert result.chosen == (3,)

    def test_equal_values_put_the_joker_higher_up(self):
        """JOKER-1 / VALUE: J♠ Q♠ JK: 10♠ or K♠ both count 10; the engine extends upward."""
        assert str(meld("JS QS JK")) == "JS QS JK=KS"

    def test_too_few_jokers_for_the_gaps_are_refused_naming_the_missing_cards(self):
        """MELD-RUN: 7♠ JK 10♠ misses 8♠ and 9♠; one joker fills one."""
        violation = refusal("7S JK 10S")
        assert (violation.rule, violation.code) == ("MELD-RUN", "gap")
        assert violation.params["missing"] == ["8S", "9S"]

    def test_a_run_of_13_cards_with_jokers_is_legal_and_14_is_not(self):
        """MELD-RUN: at most 13 cards, jokers included."""
        assert len(meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS JK JK").cards) == 13
        violation = refusal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK JK")
        assert (violation.rule, violation.code) == ("MELD-RUN", "too_many")
        assert (violation.params["count"], violation.params["limit"]) == (14, 13)

    @pytest.mark.parametrize(
        ("text", "position"),
        [("7S 8S JK=10S", 3), ("7S 8S JK=9H", 3), ("7S JK=8S JK=8S 9S", 3), ("JK=8S 7S 8S", 1)],
    )
    def test_a_declaration_that_does_not_fit_the_run_is_refused(self, text, position):
        """JOKER-1: a declared card must be the card the joker's place in the run needs."""
        violation = refusal(text)
        assert (violation.rule, violation.code) == ("JOKER-1", "bad_declaration")
        assert violation.params["position"] == position

    def test_two_ranks_in_two_suits_are_no_meld_whatever_the_joker(self):
        """MELD-SET / MELD-RUN: 7♠ 8♥ JK is neither one rank nor one suit."""
        violation = refusal("7S 8H JK")
        assert (violation.rule, violation.code) == ("MELD-SET", "mixed_ranks")


class TestAcesWithJokers:
    def test_a_joker_after_the_king_is_the_high_ace(self):
        """ACE-HIGH / VALUE: Q♠ K♠ JK: A♠ (11) is worth more than J♠ (10)."""
        result = meld("QS KS JK", R40)
        assert str(result) == "QS KS JK=AS"
        assert opening_value(result) == 31

    def test_a_joker_after_the_king_is_the_jack_where_the_ace_is_only_low(self):
        """ACE-HIGH: without a high ace Q♠ K♠ JK can only be J♠ Q♠ K♠."""
        low_only = replace(KNOCK, ace_high=False)
        result = meld("QS KS JK", low_only)
        assert str(result) == "JK=JS QS KS"
        assert result.chosen == ()

    def test_k_joker_2_is_refused_without_circular_runs(self):
        """ACE-WRAP: K♠ JK 2♠ needs the ace inside the run."""
        violation = refusal("KS JK 2S", RAMINO)
        assert (violation.rule, violation.code) == ("ACE-WRAP", "not_allowed")

    def test_k_joker_2_is_a_run_with_circular_runs(self):
        """ACE-WRAP / RAM-OPT-CIRCULAR: the joker is the ace inside K-A-2."""
        result = meld("KS JK 2S", CIRCULAR)
        assert str(result) == "KS JK=AS 2S"
        assert result.chosen == ()

    def test_k_a_joker_is_q_k_a_without_circular_runs_and_open_with_them(self):
        """ACE-WRAP: K♠ A♠ JK is Q-K-A; round the corner K-A-2 is also legal."""
        assert str(meld("KS AS JK", RAMINO)) == "JK=QS KS AS"
        assert meld("KS AS JK", RAMINO).chosen == ()
        circular = meld("KS AS JK", CIRCULAR)
        assert str(circular) == "JK=QS KS AS"
        assert circular.chosen == (0,)
        assert str(meld("KS AS JK=2S", CIRCULAR)) == "KS AS JK=2S"

    def test_a_circular_run_with_jokers_still_holds_at_most_13_cards(self):
        """ACE-WRAP: even round the corner a run holds at most 13 cards."""
        result = meld("JS QS KS AS 2S 3S 4S 5S 6S 7S 8S JK JK", CIRCULAR)
        assert len(result.cards) == 13
        assert {str(c) for c in result.represents} >= {"9S", "10S"}
        violation = refusal("JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S JK JK", CIRCULAR)
        assert (violation.rule, violation.code) == ("MELD-RUN", "too_many")


class TestFixedJokers:
    def test_two_jokers_side_by_side_in_a_run_are_refused(self):
        """RAM-OPT-FIXEDJOKER: 7♠ JK JK 10♠ puts the jokers side by side."""
        violation = refusal("7S JK JK 10S", FIXED_JOKERS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDJOKER", "adjacent_jokers")

    def test_two_jokers_that_can_stand_apart_take_the_places_apart(self):
        """RAM-OPT-FIXEDJOKER: 7♠ 8♠ JK JK is legal as 6♠ 7♠ 8♠ 9♠, the only way apart."""
        assert str(meld("7S 8S JK JK", FIXED_JOKERS)) == "JK=6S 7S 8S JK=9S"
        assert meld("7S 8S JK JK", FIXED_JOKERS).chosen == ()
        assert str(meld("7S 8S JK JK", RAMINO)) == "7S 8S JK=9S JK=10S"

    def test_declarations_that_put_jokers_side_by_side_are_refused(self):
        """RAM-OPT-FIXEDJOKER: 7♠ 8♠ JK=9♠ JK=10♠ has the jokers side by side."""
        violation = refusal("7S 8S JK=9S JK=10S", FIXED_JOKERS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDJOKER", "adjacent_jokers")

    def test_two_jokers_in_a_set_count_as_side_by_side(self):
        """RAM-OPT-FIXEDJOKER (choice): a set has no order, so two jokers in it touch."""
        violation = refusal("7C 7S JK JK", FIXED_JOKERS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDJOKER", "adjacent_jokers")

    def test_with_fixed_groups_two_jokers_in_a_set_may_stand_apart(self):
        """RAM-OPT-FIXEDJOKER + RAM-OPT-FIXEDGROUPS: ♣ JK ♥ JK has no jokers side by side."""
        assert str(meld("7C JK 7H JK", FIXED_BOTH)) == "7C JK=7S 7H JK=7D"
        violation = refusal("7C 7S JK JK", FIXED_BOTH)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDJOKER", "adjacent_jokers")


class TestFixedGroups:
    def test_a_joker_between_clubs_and_hearts_is_the_spade(self):
        """RAM-OPT-FIXEDGROUPS: ♣ JK ♥ is legal, the joker is ♠."""
        result = meld("7C JK 7H", FIXED_GROUPS)
        assert str(result) == "7C JK=7S 7H"
        assert result.chosen == ()

    def test_a_joker_before_clubs_is_refused(self):
        """RAM-OPT-FIXEDGROUPS: JK ♣ ♠ is not legal, nothing precedes clubs."""
        violation = refusal("JK 7C 7S", FIXED_GROUPS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDGROUPS", "joker_place")
        assert violation.params["position"] == 1

    def test_a_joker_after_diamonds_is_refused(self):
        """RAM-OPT-FIXEDGROUPS: nothing follows diamonds."""
        violation = refusal("7H 7D JK", FIXED_GROUPS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDGROUPS", "joker_place")
        assert violation.params["position"] == 3

    @pytest.mark.parametrize(
        ("text", "expected"),
        [("7C 7S JK", "7C 7S JK=7H"), ("JK 7S 7H", "JK=7C 7S 7H"), ("7S JK 7D", "7S JK=7H 7D")],
    )
    def test_a_joker_stands_for_the_suit_of_its_place(self, text, expected):
        """RAM-OPT-FIXEDGROUPS: the order C S H D gives the joker its suit."""
        assert str(meld(text, FIXED_GROUPS)) == expected

    def test_natural_sets_follow_the_order_without_gaps_in_any_written_order(self):
        """RAM-OPT-FIXEDGROUPS (choice): ♠ ♥ ♦ is in order; the order need not start at ♣."""
        assert str(meld("7H 7C 7S", FIXED_GROUPS)) == "7C 7S 7H"
        assert str(meld("7D 7H 7S", FIXED_GROUPS)) == "7S 7H 7D"

    @pytest.mark.parametrize("text", ["7C 7S 7D", "7C JK 7D", "7S JK 7C", "7C 7H 7D"])
    def test_a_gap_in_the_suit_order_is_refused(self, text):
        """RAM-OPT-FIXEDGROUPS: suits follow clubs, spades, hearts, diamonds without gaps."""
        violation = refusal(text, FIXED_GROUPS)
        assert (violation.rule, violation.code) == ("RAM-OPT-FIXEDGROUPS", "gap")

    def test_a_declaration_against_the_place_is_refused(self):
        """RAM-OPT-FIXEDGROUPS / JOKER-1: ♣ JK ♥ can only be ♠."""
        violation = refusal("7C JK=7D 7H", FIXED_GROUPS)
        assert (violation.rule, violation.code) == ("JOKER-1", "bad_declaration")
        assert violation.params == {"cards": ["7C", "JK", "7H"], "position": 2, "card": "7D"}

    def test_without_fixed_groups_a_joker_written_first_is_fine(self):
        """RAM-SET: without the option JK ♣ ♠ is a set, the joker taking ♥."""
        assert str(meld("JK 7C 7S", RAMINO)) == "7C 7S JK=7H"


class TestOneNaturalCardWithJokers:
    def test_undeclared_it_is_a_set_of_that_rank(self):
        """KR-MELDS / JOKER-1 (choice): 7♠ JK JK reads as three 7s; both jokers chosen."""
        result = meld("7S JK JK")
        assert str(result) == "JK=7C 7S JK=7H"
        assert result.chosen == (0, 2)

    def test_a_declaration_makes_it_a_run(self):
        """KR-JOKER: 7♠ JK=8♠ JK is a run; the other joker is placed high (9♠) and chosen."""
        result = meld("7S JK=8S JK")
        assert str(result) == "7S JK=8S JK=9S"
        assert result.chosen == (2,)

    def test_five_cards_cannot_be_a_set_so_they_are_a_run(self):
        """KR-MELDS: 7♠ and four jokers is a run, 7♠ to J♠ (the most valuable)."""
        assert str(meld("7S JK JK JK JK")) == "7S JK=8S JK=9S JK=10S JK=JS"

    def test_two_cards_are_too_few_for_either(self):
        """MELD-SET: 7♠ JK is two cards."""
        violation = refusal("7S JK")
        assert (violation.rule, violation.code) == ("MELD-SET", "too_few")


class TestDeclarationsInput:
    def test_a_declaration_on_a_natural_card_is_refused(self):
        """CARD-3: only a joker says what it stands for."""
        with pytest.raises(RuleViolation) as caught:
            check_meld(parse_cards("7S 8S 9S"), KNOCK, [None, Card(9, "S"), None])
        (violation,) = caught.value.violations
        assert (violation.rule, violation.code) == ("CARD-3", "declaration_on_natural")
        assert violation.params == {"token": "8S=9S", "position": 2}

    def test_one_declaration_per_card_is_needed(self):
        """JOKER-1: declarations go position by position; a short list is a caller's bug."""
        with pytest.raises(ValueError, match="one declaration"):
            check_meld(parse_cards("7S 8S JK"), KNOCK, [None])

    def test_a_preferred_card_decides_an_open_joker(self):
        """KR-JOKER: a joker moved on the table keeps its card when the meld allows it."""
        assert str(meld("7S 8S JK", prefer={Card(6, "S")})) == "JK=6S 7S 8S"
        assert str(meld("7S 8S JK", prefer={Card(5, "S")})) == "7S 8S JK=9S"


class TestMeldText:
    def test_a_meld_with_jokers_writes_each_jokers_card(self):
        """JOKER-1: the engine says which card each joker stands for."""
        result = meld("7S 8S JK")
        assert str(result) == "7S 8S JK=9S"
        assert result.label == "7♠ 8♠ JK=9♠"
        assert result.declared() == parse_declared("7S 8S JK=9S")

    def test_a_meld_without_jokers_stands_for_its_own_cards(self):
        """JOKER-1: represents stays empty without jokers; stands_for gives the cards."""
        result = meld("9S 7S 8S")
        assert result.represents == ()
        assert result.stands_for == result.cards
        assert str(result) == "7S 8S 9S"

    def test_the_written_meld_reads_back_as_the_same_meld(self):
        """JOKER-1 / CARD-3: str(meld) declares every joker, so it reads back declared."""
        result = meld("5S JK 7S JK")
        again = meld(str(result))
        assert (again.cards, again.represents) == (result.cards, result.represents)
        assert again.chosen == ()


class TestOpeningValue:
    @pytest.mark.parametrize(
        ("text", "rules", "value"),
        [
            ("AS 2S 3S", R40, 6),  # ace low counts 1
            ("QS KS AS", R40, 31),  # ace high counts 11
            ("AC AS AH", R40, 33),  # ace in a set counts 11 (choice, as in Scala 40)
            ("10H JH QH KH", R40, 40),  # J Q K count 10
            ("7S 8S JK", R40, 24),  # the joker counts as 9♠
            ("7S 8S JK=6S", R40, 21),  # ... or as the 6♠ declared
            ("JK AS 2S", R40, 6),  # A-2-3, the joker is the 3
            ("KS JK 2S", CIRCULAR, 23),  # K-A-2: the ace follows the king (choice: 11)
            ("7C JK 7H", RAMINO, 21),
        ],
    )
    def test_the_opening_value_follows_the_value_rule(self, text, rules, value):
        """VALUE: ace 1 low, 11 high or in a set; 2-10 face; J Q K 10; a joker as its card."""
        assert opening_value(meld(text, rules)) == value

    def test_meld_value_tells_the_value_function_where_an_ace_is_high(self):
        """VALUE: variants pass their own card values; high says the ace follows a king."""
        seen = []
        meld_value(meld("QS KS JK", R40), lambda card, high: seen.append((str(card), high)) or 0)
        assert seen == [("QS", False), ("KS", False), ("AS", True)]


# Property: melds built legal by construction are accepted, and jokers the meld determines
# stand for the cards they replaced.

RULESETS = [R40, RAMINO, CIRCULAR, FIXED_JOKERS, FIXED_GROUPS, FIXED_BOTH, KNOCK]


def _run_windows(rules: MeldRules) -> list[tuple[int, ...]]:
    if rules.wrap:
        return [tuple(range(s, s + n)) for n in range(3, 14) for s in range(1, 14)]
    positions = rules.run_positions()
    return [positions[i : i + n] for n in range(3, 14) for i in range(len(positions) - n + 1)]


def _rank(position: int) -> int:
    return (position - 1) % 13 + 1


@st.composite
def legal_melds(draw):
    """Draw (rules, original cards in table order, joker places) legal under the rules."""
    rules = draw(st.sampled_from(RULESETS))
    if draw(st.booleans()):
        rank = draw(st.integers(1, 13))
        size = draw(st.integers(3, 4))
        if rules.fixed_groups:
            first = draw(st.integers(0, 4 - size))
            suits = SUITS[first : first + size]
        else:
            suits = sorted(draw(st.permutations(SUITS))[:size], key=SUITS.index)
        original = [Card(rank, suit) for suit in suits]
        kind = "set"
    else:
        suit = draw(st.sampled_from(SUITS))
        window = draw(st.sampled_from(_run_windows(rules)))
        original = [Card(_rank(p), suit) for p in window]
        kind = "run"
    n = len(original)
    most = n - 1
    if rules.max_jokers is not None:
        most = min(most, rules.max_jokers)
    if rules.jokers_within_naturals:
        most = min(most, n // 2)
    count = draw(st.integers(1, most))
    places = sorted(draw(st.permutations(range(n)))[:count])
    touching = any(b - a == 1 for a, b in pairwise(places))
    if not rules.adjacent_jokers and (
        touching or (kind == "set" and not rules.fixed_groups and count > 1)
    ):
        places = places[:1]
    return rules, kind, original, places


@settings(max_examples=300, deadline=None)
@given(legal_melds(), st.randoms(use_true_random=False))
def test_legal_melds_with_jokers_are_accepted_and_determined_jokers_restored(drawn, rng):
    """JOKER-1 with MELD-SET / MELD-RUN: every meld built legal is accepted."""
    rules, kind, original, places = drawn
    cards = [JOKER if p in places else card for p, card in enumerate(original)]
    order = list(range(len(cards)))
    # A set under fixed groups with a joker lies in suit order; anything else may be written
    # in any order.
    if not (kind == "set" and rules.fixed_groups):
        rng.shuffle(order)
    written = [cards[i] for i in order]
    result = check_meld(written, rules)
    naturals = sorted((c for c in written if not c.is_joker), key=str)
    assert sorted((c for c in result.cards if not c.is_joker), key=str) == naturals
    assert len(result.cards) == len(original)
    assert all(result.cards[p].is_joker for p in result.chosen)
    if len(naturals) > 1:
        assert result.kind == kind
    determined = {
        card
        for p, card in enumerate(result.represents)
        if result.cards[p].is_joker and p not in result.chosen
    }
    assert determined <= set(original)
    if not result.chosen:
        assert set(result.represents) == set(original)

    declared = [original[i] if i in places else None for i in order]
    exact = check_meld(written, rules, declared)
    assert set(exact.represents) == set(original)
    assert exact.chosen == ()
    assert exact.kind == kind
