"""Cards, notation and deck limits (CARD-1, CARD-2, CARD-3)."""

import pytest

from scoring.cards import (
    FULL_DECK,
    JOKER,
    Card,
    DeckSpec,
    card_sort_key,
    check_copies,
    parse_card,
    parse_cards,
    parse_declared,
    sort_cards,
    split_declared,
)
from scoring.errors import RuleViolation, Violation


class TestCard:
    def test_a_deck_has_13_ranks_in_4_suits(self):
        """CARD-1: ranks A..K in clubs, spades, hearts, diamonds."""
        assert len(FULL_DECK) == 52
        assert len(set(FULL_DECK)) == 52
        assert {card.rank for card in FULL_DECK} == set(range(1, 14))
        assert {card.suit for card in FULL_DECK} == {"C", "S", "H", "D"}

    def test_a_card_prints_in_canonical_notation_with_10_not_t(self):
        """CARD-3: the canonical form is rank + suit letter."""
        assert str(Card(1, "S")) == "AS"
        assert str(Card(10, "H")) == "10H"
        assert str(Card(12, "D")) == "QD"
        assert str(Card(11, "C")) == "JC"
        assert str(JOKER) == "JK"

    def test_a_card_label_uses_the_suit_symbol(self):
        assert Card(10, "H").label == "10♥"
        assert Card(1, "S").label == "A♠"
        assert Card(13, "C").label == "K♣"
        assert Card(7, "D").label == "7♦"
        assert JOKER.label == "JK"

    def test_a_joker_has_no_rank_or_suit(self):
        """CARD-1: jokers have no rank or suit."""
        assert JOKER.is_joker
        assert (JOKER.rank, JOKER.suit) == (0, "")
        assert not Card(1, "S").is_joker

    @pytest.mark.parametrize(
        ("rank", "suit"), [(14, "S"), (0, "S"), (5, ""), (5, "X"), (True, "S")]
    )
    def test_a_card_that_does_not_exist_is_refused(self, rank, suit):
        """CARD-1: only A..K of the four suits, or a joker."""
        with pytest.raises(RuleViolation) as caught:
            Card(rank, suit)
        assert caught.value.rule == "CARD-1"

    def test_sorting_puts_suits_in_order_then_ranks_from_the_ace_and_jokers_last(self):
        cards = parse_cards("KD JK 2S AS 10C 3H AC")
        assert [str(c) for c in sort_cards(cards)] == ["AC", "10C", "AS", "2S", "3H", "KD", "JK"]
        assert card_sort_key(Card(13, "C")) < card_sort_key(Card(1, "S"))


class TestParseCards:
    def test_every_rank_reads_with_a_suit_letter(self):
        """CARD-3: ranks A 2..10 T J Q K with suits C S H D."""
        text = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
        assert parse_cards(text) == tuple(Card(rank, "C") for rank in range(1, 14))
        assert parse_cards("AS AH AD") == (Card(1, "S"), Card(1, "H"), Card(1, "D"))

    def test_ten_written_t_is_the_same_card_as_10(self):
        """CARD-3: 10S and TS are the same card."""
        assert parse_cards("TS") == parse_cards("10S") == (Card(10, "S"),)

    def test_notation_is_case_insensitive(self):
        """CARD-3: case does not matter."""
        assert parse_cards("as ts 10h qd Jc kS") == parse_cards("AS TS 10H QD JC KS")

    def test_suit_symbols_read_like_letters(self):
        """CARD-3: ♣ ♠ ♥ ♦ stand for C S H D."""
        assert parse_cards("A♠ 10♥ Q♦ 7♣") == parse_cards("AS 10H QD 7C")

    def test_suit_symbols_with_an_emoji_variation_selector_read_the_same(self):
        """CARD-3: phones often send ♥ as ♥️ (with U+FE0F)."""
        assert parse_cards("10♥\ufe0f A♠\ufe0f") == parse_cards("10H AS")

    def test_outline_suit_symbols_and_the_heart_emoji_read_the_same(self):
        assert parse_cards("A♤ 2♡ 3♢ 4♧") == parse_cards("AS 2H 3D 4C")
        assert parse_cards("5❤️ 6❤") == parse_cards("5H 6H")

    @pytest.mark.parametrize("token", ["JK", "jk", "JOKER", "Joker", "*", "🃏"])
    def test_every_joker_notation_reads_as_a_joker(self, token):
        """CARD-3: jokers are JK, JOKER, * or 🃏."""
        assert parse_cards(token) == (JOKER,)

    @pytest.mark.parametrize(
        "text",
        [
            "AS,2S,3S",
            "AS, 2S; 3S",
            "AS-2S-3S",
            "AS  2S\t3S\n",
            "AS/2S|3S",
            "[AS, 2S, 3S]",
            "AS–2S—3S",
            "AS & 2S # 3S",
            "AS.2S_3S",
        ],
    )
    def test_any_separator_splits_tokens(self, text):
        """CARD-3: any separator."""
        assert parse_cards(text) == (Card(1, "S"), Card(2, "S"), Card(3, "S"))

    @pytest.mark.parametrize(("text", "token"), [("7S 😀 8S", "😀"), ("7S😀8S", "😀")])
    def test_a_picture_is_not_a_separator_but_a_token_refused_by_name(self, text, token):
        """CARD-3: an emoji typed among the cards is named, never dropped in silence."""
        with pytest.raises(RuleViolation) as caught:
            parse_cards(text)
        (violation,) = caught.value.violations
        assert (violation.code, violation.params) == (
            "unknown_token",
            {"token": token, "position": 2},
        )

    def test_a_star_joker_between_separators_is_a_card_not_a_separator(self):
        assert parse_cards("7S,*,9S") == (Card(7, "S"), JOKER, Card(9, "S"))

    def test_a_list_of_strings_reads_one_token_each(self):
        assert parse_cards(["AS", " 10h ", "T♦", "jk"]) == (
            Card(1, "S"),
            Card(10, "H"),
            Card(10, "D"),
            JOKER,
        )

    def test_cards_in_a_list_pass_through(self):
        assert parse_cards([Card(5, "C"), "6C"]) == (Card(5, "C"), Card(6, "C"))

    @pytest.mark.parametrize("text", ["", "   ", " , ; "])
    def test_empty_input_is_no_cards(self, text):
        assert parse_cards(text) == ()
        assert parse_cards([]) == ()

    def test_an_unknown_token_is_refused_with_the_token_and_its_position(self):
        """CARD-3: unknown tokens are rejected with the token and its 1-based position."""
        with pytest.raises(RuleViolation) as caught:
            parse_cards("AS 1S KD")
        (violation,) = caught.value.violations
        assert violation.rule == "CARD-3"
        assert violation.code == "unknown_token"
        assert violation.params == {"token": "1S", "position": 2}

    def test_every_unknown_token_is_reported_not_only_the_first(self):
        """CARD-3: nothing is stored, and the player sees every bad token at once."""
        with pytest.raises(RuleViolation) as caught:
            parse_cards("ZZ, AS, KX, 10")
        found = [(v.params["token"], v.params["position"]) for v in caught.value.violations]
        assert found == [("ZZ", 1), ("KX", 3), ("10", 4)]

    def test_an_unknown_token_in_a_list_is_refused_with_its_index(self):
        """CARD-3: in a list, the position is the element's 1-based index."""
        with pytest.raises(RuleViolation) as caught:
            parse_cards(["AS", "2S", "11S"])
        assert caught.value.violations[0].params == {"token": "11S", "position": 3}

    @pytest.mark.parametrize("token", ["AS2S", "10", "S", "1S", "11H", "AX", "JKS", "**"])
    def test_tokens_that_are_not_exactly_one_card_are_unknown(self, token):
        """CARD-3: cards written together without a separator are one unknown token."""
        assert parse_card(token) is None
        with pytest.raises(RuleViolation) as caught:
            parse_cards(token)
        assert caught.value.rule == "CARD-3"


class TestCheckCopies:
    def test_one_deck_refuses_a_card_shown_twice_with_the_card_and_count(self):
        """CARD-2: with one deck a card appears at most once."""
        with pytest.raises(RuleViolation) as caught:
            check_copies(parse_cards("7S 8S 7S"), DeckSpec(decks=1, jokers=0))
        assert caught.value.violations == (
            Violation(
                rule="CARD-2",
                code="too_many_copies",
                message=caught.value.violations[0].message,
                params={"card": "7S", "count": 2, "limit": 1},
            ),
        )

    def test_two_decks_allow_a_card_twice_but_not_three_times(self):
        """CARD-2: with N decks a card appears at most N times."""
        two_decks = DeckSpec(decks=2, jokers=4)
        check_copies(parse_cards("7S 7S 8S"), two_decks)
        with pytest.raises(RuleViolation) as caught:
            check_copies(parse_cards("7S 7S 7S"), two_decks)
        assert caught.value.violations[0].params == {"card": "7S", "count": 3, "limit": 2}

    def test_a_joker_in_a_deck_without_jokers_is_refused_with_limit_0(self):
        """CARD-2: jokers at most J times; a Gin deck holds none."""
        with pytest.raises(RuleViolation) as caught:
            check_copies(parse_cards("7S JK"), DeckSpec(decks=1, jokers=0))
        assert caught.value.violations[0].params == {"card": "JK", "count": 1, "limit": 0}

    def test_jokers_up_to_the_decks_count_are_allowed_and_one_more_is_refused(self):
        """CARD-2: two decks with 4 jokers hold 4 jokers."""
        deck = DeckSpec(decks=2, jokers=4)
        check_copies([JOKER] * 4, deck)
        with pytest.raises(RuleViolation) as caught:
            check_copies([JOKER] * 5, deck)
        assert caught.value.violations[0].params == {"card": "JK", "count": 5, "limit": 4}

    def test_every_card_over_its_limit_is_reported_in_display_order(self):
        """CARD-2: each violation names its card; a joker in a deck without any cites the
        deck's rule for it, here none of a game's: CARD-1, what the cards are."""
        with pytest.raises(RuleViolation) as caught:
            check_copies(parse_cards("KD KD 2C 2C 5H JK"), DeckSpec(decks=1, jokers=0))
        assert [v.params["card"] for v in caught.value.violations] == ["2C", "KD", "JK"]
        assert [v.rule for v in caught.value.violations] == ["CARD-2", "CARD-2", "CARD-1"]


class TestParseDeclared:
    @pytest.mark.parametrize(
        ("text", "declared"),
        [("JK=4C", "4C"), ("JOKER=10H", "10H"), ("*=QS", "QS"), ("🃏=AD", "AD"), ("jk=t♦", "10D")],
    )
    def test_every_joker_notation_may_say_what_it_stands_for(self, text, declared):
        """CARD-3 / JOKER-1: a joker token may carry its card after '=' (case-insensitive)."""
        assert parse_declared(text) == ((JOKER, parse_card(declared)),)

    def test_cards_without_declarations_read_with_none(self):
        """CARD-3: natural cards and undeclared jokers declare nothing."""
        assert parse_declared("7S JK, JK=9S") == (
            (Card(7, "S"), None),
            (JOKER, None),
            (JOKER, Card(9, "S")),
        )

    def test_spaces_around_the_equals_sign_keep_the_declaration_whole(self):
        """CARD-3: 'JK = 4C' is one declared joker, never a joker and a 4♣."""
        assert parse_declared("JK = 4C 5C") == ((JOKER, Card(4, "C")), (Card(5, "C"), None))

    def test_a_list_of_strings_may_hold_declared_jokers(self):
        """CARD-3: in a list each element is one token, declared or not."""
        assert parse_declared(["7S", "jk=8s", Card(9, "S")]) == (
            (Card(7, "S"), None),
            (JOKER, Card(8, "S")),
            (Card(9, "S"), None),
        )

    def test_a_declaration_on_a_natural_card_is_refused_with_its_position(self):
        """CARD-3: only a joker says what it stands for."""
        with pytest.raises(RuleViolation) as caught:
            parse_declared("6S 7S=8S")
        (violation,) = caught.value.violations
        assert (violation.rule, violation.code) == ("CARD-3", "declaration_on_natural")
        assert violation.params == {"token": "7S=8S", "position": 2}

    @pytest.mark.parametrize("token", ["JK=4X", "JK=JK", "JK=", "JK=4C=5C", "XX=4C", "=4C"])
    def test_a_declared_card_that_is_not_a_card_is_an_unknown_token(self, token):
        """CARD-3: unknown tokens are rejected with the token and its position."""
        with pytest.raises(RuleViolation) as caught:
            parse_declared(f"7S, {token}")
        (violation,) = caught.value.violations
        assert (violation.rule, violation.code) == ("CARD-3", "unknown_token")
        assert violation.params == {"token": token, "position": 2}

    def test_parse_cards_reads_declared_jokers_and_drops_the_declaration(self):
        """CARD-3: the same text works where declarations do not matter."""
        assert parse_cards("7S 8S JK=9S") == (Card(7, "S"), Card(8, "S"), JOKER)
        with pytest.raises(RuleViolation) as caught:
            parse_cards("7S=8S")
        assert caught.value.violations[0].code == "declaration_on_natural"

    def test_split_declared_returns_cards_and_declarations_side_by_side(self):
        """JOKER-1: check_meld takes the cards and, position by position, the declarations."""
        cards, declarations = split_declared(parse_declared("7S JK=8S"))
        assert cards == (Card(7, "S"), JOKER)
        assert declarations == (None, Card(8, "S"))


class TestDeckSpecs:
    @pytest.mark.parametrize(
        ("decks", "jokers", "size"),
        [(1, 0, 52), (1, 2, 54), (2, 4, 108), (2, 6, 110), (1, 3, 55), (2, 0, 104), (1, 1, 53)],
    )
    def test_a_deck_spec_counts_its_cards(self, decks, jokers, size):
        """CARD-2 / RAM-SETUP / KR-SETUP: e.g. Ramino 2 decks + 6 jokers = 110 cards."""
        spec = DeckSpec(decks=decks, jokers=jokers)
        assert spec.size == size
        assert len(spec.cards()) == size
        check_copies(spec.cards(), spec)

    def test_all_the_cards_of_two_decks_hold_each_card_twice(self):
        """CARD-2: two decks hold every card twice and the jokers of the spec."""
        cards = DeckSpec(decks=2, jokers=6).cards()
        assert cards.count(Card(7, "S")) == 2
        assert cards.count(JOKER) == 6

    def test_one_card_more_than_the_decks_hold_is_refused(self):
        """CARD-2: a full Ramino deck plus one more 7♠ or one more joker is refused."""
        spec = DeckSpec(decks=2, jokers=6)
        with pytest.raises(RuleViolation) as caught:
            check_copies([*spec.cards(), Card(7, "S"), JOKER], spec)
        assert [v.params for v in caught.value.violations] == [
            {"card": "7S", "count": 3, "limit": 2},
            {"card": "JK", "count": 7, "limit": 6},
        ]


class TestRuleViolation:
    def test_it_joins_the_messages_and_names_the_first_rule(self):
        error = RuleViolation(Violation("A-1", "First."), Violation("B-2", "Second."))
        assert error.rule == "A-1"
        assert str(error) == "First. Second."
        assert error.violations[1].to_dict() == {
            "rule": "B-2",
            "code": "",
            "message": "Second.",
            "params": {},
        }

    def test_it_survives_pickling_for_task_queues(self):
        import pickle

        error = RuleViolation(Violation("CARD-2", "x", {"card": "7S"}, "too_many_copies"))
        again = pickle.loads(pickle.dumps(error))
        assert again.violations == error.violations
