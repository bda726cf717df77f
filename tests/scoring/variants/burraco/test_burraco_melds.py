"""Burraco's setup, card values and melds (BUR-SETUP, BUR-VALUES, BUR-MELDS, BUR-WILD,
BUR-BURRACO, BUR-OPT-SEMIPULITO, BUR-OPT-INTL), every expected value worked by hand."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, Card, parse_cards
from scoring.variants.burraco import GAME
from scoring.variants.burraco.cards import DECK, DECK_VALUE, HAND_SIZE, POZZETTO_SIZE, card_value
from scoring.variants.burraco.melds import (
    COMBINATION,
    NO_BURRACO,
    PULITO,
    SEMIPULITO,
    SEQUENCE,
    SPORCO,
    check_meld,
)
from scoring.variants.knock_rummy import GAME as KNOCK_RUMMY
from tests.hypothesis_profiles import examples
from tests.scoring.variants.burraco.helpers import refused


def meld(text, **table):
    return check_meld(parse_cards(text), **table)


def meld_refused(text, **table):
    return refused(check_meld, parse_cards(text), **table)


class TestSetup:
    def test_two_decks_and_four_jokers_make_108_cards_bur_setup(self):
        """BUR-SETUP: 2 x 52 + 4 jokers = 108; 11 each to 4 players and two pozzetti of 11
        leave 108 - 44 - 22 = 42 for the stock and the first discard."""
        assert DECK.size == 108
        assert GAME.deck(None, 4) == DECK
        assert GAME.hand_size(None, 4) == HAND_SIZE == 11
        assert DECK.size - 4 * HAND_SIZE - 2 * POZZETTO_SIZE == 42

    @pytest.mark.parametrize("players", [2, 3, 5, "4", True])
    def test_only_four_players_sit_at_a_table_bur_setup(self, players):
        [violation] = refused(GAME.options_from_dict, {}, players)
        assert (violation.rule, violation.code) == ("BUR-SETUP", "players")

    def test_partners_sit_across_in_two_pairs_bur_setup(self):
        """BUR-SETUP: North-South (seats 0 and 2) against East-West (1 and 3)."""
        assert GAME.teams(4) == ((0, 2), (1, 3))

    def test_a_game_without_partners_has_each_seat_alone(self):
        assert KNOCK_RUMMY.teams(3) == ((0,), (1,), (2,))


class TestValues:
    def test_each_card_is_worth_its_burraco_value_bur_values(self):
        """BUR-VALUES: jolly 30, pinella 20, ace 15, 8 to K 10, 3 to 7 5."""
        hearts = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        assert [card_value(card) for card in hearts] == [
            15, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10
        ]  # fmt: skip
        assert card_value(JOKER) == 30

    def test_the_whole_deck_is_worth_1080_bur_values(self):
        # 4 jollies x 30 = 120; 8 pinelle x 20 = 160; 8 aces x 15 = 120;
        # 8..K: 6 ranks x 8 cards x 10 = 480; 3..7: 5 ranks x 8 cards x 5 = 200;
        # 120 + 160 + 120 + 480 + 200 = 1080.
        assert DECK_VALUE == 1080


class TestSequences:
    def test_a_two_in_its_own_place_is_a_natural_card_bur_wild(self):
        """BUR-WILD: A-2-3 of hearts holds no wild: the 2 stands in its place."""
        found = meld("3H AH 2H")
        assert found.kind == SEQUENCE
        assert found.wild is None
        assert [str(card) for card in found.cards] == ["AH", "2H", "3H"]
        assert found.value == 15 + 20 + 5  # = 40

    def test_a_two_out_of_its_place_is_the_wild(self):
        """BUR-WILD: in 3H 4H 2S 6H the 2 of spades stands for the 5 of hearts."""
        found = meld("3H 4H 2S 6H")
        assert (str(found.wild), found.stands_for) == ("2S", "5H")
        assert [str(card) for card in found.cards] == ["3H", "4H", "2S", "6H"]

    def test_a_natural_two_and_one_wild_make_a_sequence_bur_wild(self):
        """BUR-WILD: A-2-3-4 of hearts with a jolly for the 5: the 2 is natural."""
        found = meld("AH 2H 3H 4H JK")
        assert (str(found.wild), found.stands_for) == ("JK", "5H")

    def test_the_second_two_of_the_suit_is_the_wild(self):
        """BUR-WILD: 2H 2H 3H 4H: one 2 in its place, the other standing for the 5."""
        found = meld("2H 2H 3H 4H")
        assert (str(found.wild), found.stands_for) == ("2H", "5H")

    def test_two_wilds_are_refused_bur_wild(self):
        [violation] = meld_refused("JK 2S 4H 5H")
        assert (violation.rule, violation.code) == ("BUR-WILD", "two_wilds")
        [violation] = meld_refused("6C 7C 8C JK JK")
        assert violation.rule == "BUR-WILD"

    def test_a_wild_goes_at_either_end(self):
        """BUR-WILD: a wild beside an unbroken run takes the next place up, or the place below
        an ace played high."""
        assert meld("JK 4H 5H").stands_for == "6H"
        assert meld("QH KH AH JK").stands_for == "JH"
        assert [str(card) for card in meld("QH KH AH JK").cards] == ["JK", "QH", "KH", "AH"]

    def test_the_ace_goes_low_or_high_bur_melds(self):
        """BUR-MELDS: A-2-3 and Q-K-A are sequences."""
        assert meld("AS 2S 3S").kind == SEQUENCE
        assert [str(card) for card in meld("AS KS QS").cards] == ["QS", "KS", "AS"]

    def test_a_sequence_never_wraps_round_the_ace_bur_melds(self):
        [violation] = meld_refused("KH AH 2H 3H")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "wrap")

    def test_k_a_2_of_a_suit_reads_as_the_two_wild_for_the_queen(self):
        """BUR-WILD: the only reading of K-A-2 is Q-K-A with the 2 standing for the queen."""
        found = meld("KH AH 2H")
        assert (str(found.wild), found.stands_for) == ("2H", "QH")

    def test_a_gap_of_two_ranks_is_refused_bur_melds(self):
        [violation] = meld_refused("3H 4H JK 7H")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "not_in_order")

    def test_suits_mixed_are_no_meld_bur_melds(self):
        [violation] = meld_refused("3H 4S 5H")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "mixed")

    def test_two_cards_are_no_meld_bur_melds(self):
        [violation] = meld_refused("3H 4H")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "too_short")

    def test_a_whole_suit_and_a_wild_make_14_cards_bur_melds(self):
        """BUR-MELDS: 13 natural hearts, the jolly as the fourteenth (the other ace)."""
        found = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK")
        assert len(found.cards) == 14
        assert (found.stands_for, found.burraco) == ("AH", SPORCO)
        # 15 + 20 + 5 x 5 + 6 x 10 + 30 = 15 + 20 + 25 + 60 + 30 = 150
        assert found.value == 150

    def test_two_natural_aces_in_one_sequence_are_refused_bur_melds(self):
        [violation] = meld_refused("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "repeated_rank")


class TestCombinations:
    def test_eight_of_a_rank_from_two_decks_make_a_clean_burraco_bur_burraco(self):
        found = meld("7C 7C 7S 7S 7H 7H 7D 7D")
        assert (found.kind, found.burraco, found.bonus) == (COMBINATION, PULITO, 200)
        assert found.value == 8 * 5  # = 40

    def test_a_combination_of_twos_is_refused_bur_melds(self):
        [violation] = meld_refused("2H 2S 2C")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "wilds_alone")

    def test_a_combination_of_jokers_is_refused_bur_melds(self):
        [violation] = meld_refused("JK JK JK")
        assert violation.rule == "BUR-MELDS"

    def test_a_two_in_a_combination_is_its_wild_bur_wild(self):
        found = meld("QH QS 2C")
        assert (found.kind, str(found.wild), found.stands_for) == (COMBINATION, "2C", "Q")

    def test_a_combination_holds_one_wild_bur_wild(self):
        [violation] = meld_refused("QH QS 2C JK")
        assert violation.rule == "BUR-WILD"

    def test_nine_naturals_of_a_rank_are_too_many_bur_melds(self):
        [violation] = meld_refused("9C 9C 9S 9S 9H 9H 9D 9D 9D")
        assert (violation.rule, violation.code) == ("BUR-MELDS", "too_long")


class TestBurracos:
    def test_seven_clean_cards_make_a_pulito_worth_200_bur_burraco(self):
        found = meld("3H 4H 5H 6H 7H 8H 9H")
        assert (found.burraco, found.bonus) == (PULITO, 200)

    def test_a_natural_two_keeps_a_burraco_clean_bur_burraco(self):
        assert meld("AD 2D 3D 4D 5D 6D 7D").burraco == PULITO

    def test_seven_cards_with_a_wild_make_a_sporco_worth_100_bur_burraco(self):
        found = meld("3H 4H 5H 2C 7H 8H 9H")
        assert (found.burraco, found.bonus) == (SPORCO, 100)

    def test_six_cards_make_no_burraco_bur_burraco(self):
        assert meld("3H 4H 5H 6H 7H 8H").burraco == NO_BURRACO

    def test_a_wild_beyond_seven_clean_cards_is_semipulito_when_played_bur_opt_semipulito(self):
        """BUR-OPT-SEMIPULITO: 3..9 of hearts and a jolly at the end: 150 with the option,
        a sporco's 100 without."""
        text = "3H 4H 5H 6H 7H 8H 9H JK"
        assert (meld(text, semipulito=True).burraco, meld(text, semipulito=True).bonus) == (
            SEMIPULITO,
            150,
        )
        assert meld(text).burraco == SPORCO

    def test_a_wild_inside_the_sequence_stays_sporco_bur_opt_semipulito(self):
        """BUR-OPT-SEMIPULITO: the jolly stands for the 6 inside 3..10: no 7 clean cards run
        unbroken beside it, so sporco even with the option."""
        assert meld("3H 4H 5H JK 7H 8H 9H 10H", semipulito=True).burraco == SPORCO

    def test_a_combination_of_seven_naturals_and_a_wild_is_semipulito_bur_opt_semipulito(self):
        assert meld("8C 8C 8S 8S 8H 8H 8D JK", semipulito=True).burraco == SEMIPULITO
        assert meld("8C 8C 8S 8S 8H 8H JK", semipulito=True).burraco == SPORCO


class TestInternational:
    def test_only_aces_and_threes_make_combinations_bur_opt_intl(self):
        [violation] = meld_refused("QH QS QC", international=True)
        assert (violation.rule, violation.code) == ("BUR-OPT-INTL", "combination_rank")
        assert meld("AH AS AC", international=True).kind == COMBINATION
        assert meld("3H 3S 2C", international=True).kind == COMBINATION

    def test_the_international_code_has_no_semipulito_bur_opt_intl(self):
        text = "3H 4H 5H 6H 7H 8H 9H JK"
        assert meld(text, semipulito=True, international=True).burraco == SPORCO


SUITS = "CSHD"


class TestMeldProperties:
    @settings(max_examples=examples(200), deadline=None)
    @given(st.sampled_from(SUITS), st.integers(1, 12), st.integers(3, 13))
    def test_consecutive_cards_of_a_suit_are_a_clean_sequence_bur_melds(self, suit, low, length):
        """BUR-MELDS, BUR-WILD: any unbroken run of one suit (a 2 in it natural) has no wild,
        and a jolly put in the place of one of its inner cards stands for that card."""
        places = [place for place in range(low, low + length) if place <= 14]
        if len(places) < 3:
            return
        cards = [Card(1 if place == 14 else place, suit) for place in places]
        found = check_meld(cards)
        assert found.wild is None
        assert found.burraco == (PULITO if len(cards) >= 7 else NO_BURRACO)
        inner = len(cards) // 2
        with_jolly = [*cards[:inner], JOKER, *cards[inner + 1 :]]
        dirty = check_meld(with_jolly)
        assert (dirty.wild, dirty.stands_for) == (JOKER, str(cards[inner]))
        assert dirty.burraco == (SPORCO if len(cards) >= 7 else NO_BURRACO)
