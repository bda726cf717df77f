"""Rummy40 played move by move (docs/rules.md) through the replay: scoring/play/'s rules.

Anna (seat 0) deals the first hand, so Bruno (seat 1) moves first. Values are R40-VALUE
(ace 1, 2-10 face, J Q K 10, joker 25) at the end and VALUE for openings (ace 11 when high or
in a set); every expected number is worked by hand in the comments beside it.
"""

from scoring.cards import FULL_DECK
from tests.scoring.play_helpers import (
    Table,
    add,
    amend,
    deal,
    discard,
    draw,
    knock,
    lay,
    pass_turn,
    record,
    rule_and_code,
    show,
    swap,
    take,
    undo,
    void,
)

SEATS = ["Anna", "Bruno"]
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
ANNA, BRUNO, CARLA, DARIO = 0, 1, 2, 3


def r40(*, seats=SEATS, **options) -> Table:
    return Table("rummy40", seats, options)


def dealt(upcard="9D", **options) -> Table:
    return r40(**options).play(deal(upcard))


def seat_view(table: Table, seat: int) -> dict:
    return table.hand["hands"][seat]


def bruno_failed_then_anna_opened(**options) -> Table:
    """Return the hand after two turns: Bruno's opening fell short, Anna opened.

    Bruno draws and lays 2♣3♣4♣ (2 + 3 + 4 = 9, below 40): R40-OPEN-PENALTY, the cards go
    back; he throws the K♦. Anna draws, opens with Q♥K♥A♥ (10 + 10 + 11 = 31) and 3♠4♠5♠
    (3 + 4 + 5 = 12): 43; she throws the 9♠ and holds 10 + 1 - 6 - 1 = 4 cards.
    """
    return dealt(**options).play(
        draw(BRUNO),
        lay(BRUNO, "2C 3C 4C"),
        discard(BRUNO, "KD"),
        draw(ANNA),
        lay(ANNA, "QH KH AH", "3S 4S 5S"),
        discard(ANNA, "9S"),
    )


class TestTheDeal:
    def test_two_players_leave_33_cards_in_the_stock_r40_setup(self):
        """R40-SETUP: 52 + 2 jokers - 2 x 10 - the upcard = 33."""
        hand = dealt().hand
        assert (hand["stock"], hand["discard_top"]) == (33, "9D")
        assert [seat["count"] for seat in hand["hands"]] == [10, 10]
        assert (dealt().view["dealer"], dealt().view["turn"]) == (ANNA, BRUNO)

    def test_four_players_leave_67_cards_in_the_stock_r40_setup(self):
        """R40-SETUP: 2 x 52 + 4 jokers - 4 x 10 - the upcard = 67."""
        table = r40(seats=FOUR).play(deal("9D"))
        assert table.hand["stock"] == 67
        assert table.view["turn"] == BRUNO

    def test_four_players_may_see_two_copies_of_a_card_but_not_three_card_2(self):
        """CARD-2: two decks hold two 7♠; a third one seen is a data-entry error."""
        table = r40(seats=FOUR).play(deal("7S"), draw(BRUNO, "7S"), discard(BRUNO, "KD"))
        violation = table.refused(draw(CARLA, "7S"))
        assert rule_and_code(violation) == ("CARD-2", "too_many_copies")
        assert (violation.params["card"], violation.params["count"]) == ("7S", 3)

    def test_four_jokers_are_in_play_with_four_players_card_2(self):
        table = r40(seats=FOUR, opening_minimum=0).play(deal("JK"))
        table.play(draw(BRUNO, "JK"), lay(BRUNO, "JK 7C 8C", "JK 7H 8H"), discard(BRUNO, "KD"))
        table.play(draw(CARLA, "JK"))
        # Four jokers are seen: the upcard, two melded, Carla's. A fifth is one too many.
        violation = table.refused(lay(CARLA, "JK 2S 3S", "JK 2D 3D"))
        assert (violation.rule, violation.params["card"]) == ("CARD-2", "JK")

    def test_one_deck_holds_one_of_each_card_card_2(self):
        table = dealt().play(draw(BRUNO, "QS"), discard(BRUNO, "QS"))
        assert table.refused(draw(ANNA, "QS")).rule == "CARD-2"


class TestTurns:
    def test_a_turn_is_a_draw_then_melds_then_a_discard_r40_turn(self):
        table = dealt(opening_minimum=0)
        assert table.refused(lay(BRUNO, "2C 3C 4C")).code == "draw_first"
        assert table.refused(discard(BRUNO, "KS")).code == "draw_first"
        table.play(draw(BRUNO))
        assert rule_and_code(table.refused(draw(BRUNO))) == ("R40-TURN", "already_drawn")
        table.play(lay(BRUNO, "2C 3C 4C"), discard(BRUNO, "KS"))
        assert table.view["turn"] == ANNA
        assert table.counts() == [10, 10 + 1 - 3 - 1]

    def test_the_players_take_turns_r40_turn(self):
        table = dealt()
        assert rule_and_code(table.refused(draw(ANNA))) == ("R40-TURN", "not_your_turn")
        table.play(draw(BRUNO), discard(BRUNO, "KS"))
        assert rule_and_code(table.refused(draw(BRUNO))) == ("R40-TURN", "not_your_turn")
        table.play(take(ANNA, "KS"))
        assert seat_view(table, ANNA)["known"] == ["KS"]

    def test_four_players_play_clockwise_from_the_dealers_left_r40_turn(self):
        table = r40(seats=FOUR).play(deal("9D", dealer=2))
        order = []
        for _ in range(5):
            seat = table.view["turn"]
            order.append(seat)
            table.play(draw(seat), discard(seat, ["2C", "3C", "4C", "5C", "6C"][len(order) - 1]))
        assert order == [3, 0, 1, 2, 3]

    def test_nobody_passes_or_knocks_in_rummy40(self):
        table = dealt().play(draw(BRUNO))
        assert table.refused(pass_turn(BRUNO)).code == "cannot_pass"
        assert table.refused(knock(BRUNO)).code == "no_knock"


class TestOpening:
    def test_an_opening_below_40_costs_20_and_the_melds_go_back_r40_open_penalty(self):
        table = dealt().play(draw(BRUNO), lay(BRUNO, "2C 3C 4C"))
        # 2 + 3 + 4 = 9 < 40: the meld waits for the rest of the opening this turn...
        assert seat_view(table, BRUNO)["opened"] is False
        table.play(discard(BRUNO, "8D"))
        bruno = seat_view(table, BRUNO)
        # ... none came: at the discard the three cards are back in his hand (11 - 1 = 10),
        # known to the log, and he takes 20.
        assert bruno["count"] == 10 and bruno["known"] == ["2C", "3C", "4C"]
        assert (bruno["opened"], bruno["penalties"]) == (False, 1)
        assert table.hand["table"] == []

    def test_an_opening_of_40_or_more_opens_r40_open(self):
        table = bruno_failed_then_anna_opened()
        anna = seat_view(table, ANNA)
        assert (anna["opened"], anna["count"], anna["penalties"]) == (True, 4, 0)
        assert [meld["meld"] for meld in table.hand["table"]] == ["QH KH AH", "3S 4S 5S"]
        assert {meld["owner"] for meld in table.hand["table"]} == {ANNA}

    def test_an_ace_after_the_king_counts_11_r40_open(self):
        """VALUE: Q♥K♥A♥ is 31 and 3♣4♣5♣ 12: 43 opens; A♥2♥3♥ is 6, with K♣K♦K♠ 36 does not."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "AH 2H 3H", "KC KD KS"), discard(BRUNO, "8D"))
        assert seat_view(table, BRUNO)["penalties"] == 1
        table = dealt().play(draw(BRUNO), lay(BRUNO, "QH KH AH", "3C 4C 5C"))
        assert seat_view(table, BRUNO)["opened"] is True

    def test_aces_in_a_set_count_11_r40_open(self):
        """VALUE (choice for sets): A♣A♦A♠ is 33, with 2♥3♥4♥ 42: enough for 40."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "AC AD AS", "2H 3H 4H"))
        assert seat_view(table, BRUNO)["opened"] is True

    def test_a_joker_counts_as_the_card_it_stands_for_r40_open(self):
        """Q♥ K♥ and a joker as A♥: 31; with 4♣5♣6♣ (15) 46."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "QH KH JK=AH", "4C 5C 6C"))
        assert seat_view(table, BRUNO)["opened"] is True

    def test_a_minimum_of_50_takes_more_r40_open(self):
        """46 (Q♥K♥A♥ 31 + 5♣5♦5♠ 15) opens at 40 but not at 50."""
        melds = ("QH KH AH", "5C 5D 5S")
        opened = dealt(opening_minimum=40).play(draw(BRUNO), lay(BRUNO, *melds))
        assert seat_view(opened, BRUNO)["opened"] is True
        short = dealt(opening_minimum=50).play(
            draw(BRUNO), lay(BRUNO, *melds), discard(BRUNO, "8D")
        )
        assert (seat_view(short, BRUNO)["opened"], seat_view(short, BRUNO)["penalties"]) == (
            False,
            1,
        )

    def test_a_minimum_of_0_opens_with_any_meld_and_never_costs_r40_open(self):
        table = dealt(opening_minimum=0).play(draw(BRUNO), lay(BRUNO, "AH 2H 3H"))
        bruno = seat_view(table, BRUNO)
        assert (bruno["opened"], bruno["penalties"], bruno["count"]) == (True, 0, 8)

    def test_each_failed_opening_costs_20_at_the_end_r40_open_penalty(self):
        """Bruno fails once; Anna goes out; Bruno adds K♠ 6♦ 6♥ = 22, + 20 = 42."""
        table = bruno_failed_then_anna_opened()
        # Bruno opens with 2♣3♣4♣5♣ (14) and J♣J♠J♦ (30): 44.
        table.play(draw(BRUNO), lay(BRUNO, "2C 3C 4C 5C", "JC JS JD"), discard(BRUNO, "8C"))
        assert seat_view(table, BRUNO)["count"] == 3
        # Anna: 2♠ on her 3♠4♠5♠, 7♥8♥9♥, and her last card thrown: out (R40-HAND).
        table.play(draw(ANNA), add(ANNA, 2, "2S"), lay(ANNA, "7H 8H 9H"), discard(ANNA, "10C"))
        assert table.hand["phase"] == "show"
        assert table.hand["hands"][BRUNO]["to_show"] is True
        table.play(show(None, "KS 6D 6H"))
        result = table.last["result"]
        assert result["points"] == [0, 42]
        assert result["winners"] == [ANNA]
        assert table.view["totals"] == [0, 42]

    def test_cards_given_back_by_a_failed_opening_must_be_shown_r40_open_penalty(self):
        """The 2♣3♣4♣ went back to Bruno's hand: a hand shown without them is refused."""
        table = bruno_failed_then_anna_opened()
        table.play(draw(BRUNO), discard(BRUNO, "8C"))
        table.play(draw(ANNA), add(ANNA, 2, "2S"), lay(ANNA, "7H 8H 9H"), discard(ANNA, "10C"))
        # Bruno holds 10 cards, three of them known.
        violation = table.refused(show(None, "KS 6D 6H 5C 5D 7D 8D JC JS JH"))
        assert violation.code == "known_missing"
        assert violation.params["cards"] == ["2C", "3C", "4C"]
        # 2 + 3 + 4 + 10 + 6 + 6 + 5 + 5 + 7 + 8 = 56, + 20 for the failed opening = 76.
        table.play(show(None, "2C 3C 4C KS 6D 6H 5C 5D 7D 8D"))
        assert table.view["totals"] == [0, 76]

    def test_a_player_opened_melds_again_without_a_minimum_r40_open(self):
        table = bruno_failed_then_anna_opened()
        table.play(draw(BRUNO), discard(BRUNO, "8C"), draw(ANNA), lay(ANNA, "7H 8H 9H"))
        assert seat_view(table, ANNA)["penalties"] == 0 and len(table.hand["table"]) == 3

    def test_the_first_melds_of_a_turn_are_summed_r40_open(self):
        """R40-OPEN: "first melds ... together": 2♣3♣4♣ (9), then Q♥K♥A♥ (31) in the same
        turn make 40 and open, with no penalty."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "2C 3C 4C"))
        assert seat_view(table, BRUNO)["opened"] is False
        table.play(lay(BRUNO, "QH KH AH"))
        bruno = seat_view(table, BRUNO)
        assert (bruno["opened"], bruno["penalties"], bruno["count"]) == (True, 0, 5)

    def test_an_add_waits_for_the_opening_to_be_complete_r40_add(self):
        table = dealt().play(draw(BRUNO), lay(BRUNO, "QH KH AH"))
        violation = table.refused(add(BRUNO, 1, "JH"))
        assert rule_and_code(violation) == ("R40-ADD", "not_opened")


class TestAdding:
    def test_a_player_adds_only_after_opening_r40_add(self):
        table = bruno_failed_then_anna_opened().play(draw(BRUNO))
        violation = table.refused(add(BRUNO, 2, "6S"))
        assert rule_and_code(violation) == ("R40-ADD", "not_opened")

    def test_two_players_add_only_to_their_own_melds_r40_add(self):
        table = bruno_failed_then_anna_opened()
        table.play(draw(BRUNO), lay(BRUNO, "2C 3C 4C 5C", "JC JS JD"), discard(BRUNO, "8C"))
        table.play(draw(ANNA))
        violation = table.refused(add(ANNA, 3, "6C"))
        assert rule_and_code(violation) == ("R40-ADD", "not_own_meld")
        assert violation.params["owner"] == "Bruno"
        table.play(add(ANNA, 2, "2S"))
        assert table.hand["table"][1]["meld"] == "2S 3S 4S 5S"

    def test_a_two_player_table_may_add_to_any_meld_r40_add(self):
        table = bruno_failed_then_anna_opened(add_to_any_meld=True)
        table.play(draw(BRUNO), lay(BRUNO, "2C 3C 4C 5C", "JC JS JD"), discard(BRUNO, "8C"))
        table.play(draw(ANNA), add(ANNA, 3, "6C"))
        meld = table.hand["table"][2]
        # The meld stays Bruno's; Anna's 6♣ counts as her melded card.
        assert (meld["meld"], meld["owner"]) == ("2C 3C 4C 5C 6C", BRUNO)
        assert seat_view(table, ANNA)["count"] == 4

    def test_four_players_add_to_any_meld_r40_add(self):
        """R40-ADD: in 4-player games also to other players' melds (add_to_any_meld on)."""
        table = r40(seats=FOUR).play(deal("2D"))
        assert table.view["options"]["add_to_any_meld"] is True
        # Bruno: 10♥J♥Q♥ (30) + 5♣5♦5♠ (15) = 45.
        table.play(draw(BRUNO), lay(BRUNO, "10H JH QH", "5C 5D 5S"), discard(BRUNO, "3D"))
        # Carla: K♣K♦K♠ (30) + 7♠8♠9♠ (24) = 54; then K♥ on Bruno's run.
        table.play(draw(CARLA), lay(CARLA, "KC KD KS", "7S 8S 9S"), add(CARLA, 1, "KH"))
        assert table.hand["table"][0]["meld"] == "10H JH QH KH"
        table.play(discard(CARLA, "4D"))
        assert seat_view(table, CARLA)["count"] == 10 + 1 - 7 - 1

    def test_an_added_card_must_make_a_legal_meld(self):
        table = bruno_failed_then_anna_opened().play(draw(BRUNO), discard(BRUNO, "8C"), draw(ANNA))
        violation = table.refused(add(ANNA, 2, "7S"))
        assert violation.rule == "MELD-RUN" and violation.params["meld"] == 2


class TestJokerSteal:
    """R40-JOKER-STEAL at a table opening with 0 (R40-OPEN) to keep the hands short."""

    @staticmethod
    def joker_on_the_table() -> Table:
        """Bruno lays 5♥ JK(6♥) 7♥ and throws the K♦; Anna draws and opens with 2♠3♠4♠."""
        return dealt(opening_minimum=0).play(
            draw(BRUNO),
            lay(BRUNO, "5H JK=6H 7H"),
            discard(BRUNO, "KD"),
            draw(ANNA),
            lay(ANNA, "2S 3S 4S"),
        )

    def test_a_stolen_joker_may_not_be_kept_past_the_turn_r40_joker_steal(self):
        table = self.joker_on_the_table().play(swap(ANNA, 1, "6H"))
        assert table.hand["table"][0]["meld"] == "5H 6H 7H"
        assert seat_view(table, ANNA)["known"] == ["JK"]
        assert table.hand["owed_jokers"] == 1
        violation = table.refused(discard(ANNA, "9C"))
        assert rule_and_code(violation) == ("R40-JOKER-STEAL", "joker_unused")

    def test_a_stolen_joker_may_not_be_thrown_r40_joker_steal(self):
        table = self.joker_on_the_table().play(swap(ANNA, 1, "6H"))
        assert table.refused(discard(ANNA, "JK")).rule == "R40-JOKER-STEAL"

    def test_a_stolen_joker_added_to_a_meld_frees_the_discard_r40_joker_steal(self):
        table = self.joker_on_the_table().play(swap(ANNA, 1, "6H"), add(ANNA, 2, "JK"))
        assert table.hand["owed_jokers"] == 0
        # 2♠3♠4♠ and the joker at its most valuable place, the 5♠.
        assert table.hand["table"][1]["meld"] == "2S 3S 4S JK=5S"
        table.play(discard(ANNA, "9C"))
        assert table.view["turn"] == BRUNO

    def test_a_stolen_joker_in_a_new_meld_frees_the_discard_r40_joker_steal(self):
        table = self.joker_on_the_table().play(swap(ANNA, 1, "6H"), lay(ANNA, "JK 9C 10C"))
        table.play(discard(ANNA, "KC"))
        assert seat_view(table, ANNA)["count"] == 10 + 1 - 3 - 1 + 1 - 3 - 1

    def test_only_a_joker_standing_for_the_card_given_is_taken_r40_joker_steal(self):
        table = self.joker_on_the_table()
        violation = table.refused(swap(ANNA, 1, "8H"))
        assert rule_and_code(violation) == ("R40-JOKER-STEAL", "no_such_joker")

    def test_a_joker_taken_from_the_discard_pile_must_be_used_too_r40_joker_steal(self):
        table = dealt("JK", opening_minimum=0).play(take(BRUNO, "JK"))
        assert table.hand["owed_jokers"] == 1
        violation = table.refused(discard(BRUNO, "KD"))
        assert rule_and_code(violation) == ("R40-JOKER-STEAL", "joker_unused")
        table.play(lay(BRUNO, "7C 8C JK"), discard(BRUNO, "KD"))
        assert table.view["turn"] == ANNA

    def test_a_joker_from_the_pile_can_open_only_with_enough_points_r40_joker_steal(self):
        """At 40: 7♣8♣ JK(9♣) is 24, with K♣K♦K♠ (30) 54, an opening that uses the joker."""
        table = dealt("JK").play(take(BRUNO), lay(BRUNO, "7C 8C JK", "KC KD KS"))
        table.play(discard(BRUNO, "2H"))
        assert table.hand["table"][0]["meld"] == "7C 8C JK=9C"

    def test_a_joker_stolen_and_melded_again_is_one_joker_at_the_end_r40_joker_steal(self):
        """R40-END after a steal: Bruno holds the other joker; Anna goes out.

        Bruno laid 5♥ JK(6♥) 7♥; Anna swapped the 6♥ in, melded the joker on her 2♠3♠4♠ and
        went out. Bruno shows his 7 cards, JK 3♣ 4♥ 8♠ 2♥ 5♦ 6♦: 25 + 3 + 4 + 8 + 2 + 5 + 6 =
        53. Two jokers are seen (one on the table, one in Bruno's hand).

        The stolen joker must count once at the end: not among Bruno's melded cards and
        again among Anna's, which with Bruno's own joker would make three (CARD-2).
        """
        table = self.joker_on_the_table().play(
            swap(ANNA, 1, "6H"),
            add(ANNA, 2, "JK"),
            lay(ANNA, "6C 7C 8C", "QC QS QH"),
            discard(ANNA, "4C"),
        )
        table.play(show(None, "JK 3C 4H 8S 2H 5D 6D"))
        assert table.view["totals"] == [0, 53]


class TestJokerDiscard:
    def test_a_joker_is_not_thrown_before_opening_r40_joker_discard(self):
        table = dealt().play(draw(BRUNO))
        violation = table.refused(discard(BRUNO, "JK"))
        assert rule_and_code(violation) == ("R40-JOKER-DISCARD", "joker_before_opening")

    def test_after_opening_a_joker_may_be_thrown_r40_joker_discard(self):
        table = dealt(opening_minimum=0).play(draw(BRUNO), lay(BRUNO, "AH 2H 3H"))
        table.play(discard(BRUNO, "JK"))
        assert table.hand["discard_top"] == "JK"

    def test_a_joker_is_never_the_closing_discard_r40_joker_discard(self):
        # 11 cards: A♣2♣3♣ (3), 5♦6♦7♦8♦ (4), 9♠10♠J♠ (3) leave one card.
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS")
        )
        assert seat_view(table, BRUNO)["count"] == 1
        violation = table.refused(discard(BRUNO, "JK"))
        assert rule_and_code(violation) == ("R40-JOKER-DISCARD", "joker_last")


class TestGoingOut:
    def test_melding_every_card_is_refused_r40_hand(self):
        """R40-HAND: a player always keeps a card; 4 + 4 + 3 = all 11 is refused."""
        table = dealt(opening_minimum=0).play(draw(BRUNO))
        violation = table.refused(lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D 8D", "9S 10S JS"))
        assert rule_and_code(violation) == ("R40-HAND", "keep_one")

    def test_adding_the_last_card_is_refused_r40_hand(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS")
        )
        assert rule_and_code(table.refused(add(BRUNO, 3, "QS"))) == ("R40-HAND", "keep_one")

    def test_the_last_card_thrown_goes_out_and_the_other_adds_r40_end(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"), discard(BRUNO, "KH")
        )
        assert (table.hand["phase"], table.hand["ender"], table.view["turn"]) == ("show", 1, None)
        # Anna holds her 10 cards: 2 + 3 + 4 + 5 + 6 + 7 + 10 + 10 + 10 + 25 = 82.
        table.play(show("2H 3H 4H 5H 6H 7H QD QH KS JK", None))
        assert table.last["result"]["points"] == [82, 0]

    def test_with_four_players_the_three_others_add_their_hands_r40_end(self):
        """Carla goes out on her first turn; Anna 82, Bruno 55, Dario 98 (worked below)."""
        table = r40(seats=FOUR, opening_minimum=0).play(
            deal("9D"),
            draw(BRUNO),
            discard(BRUNO, "2C"),
            draw(CARLA),
            lay(CARLA, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"),
            discard(CARLA, "KH"),
        )
        assert [seat["to_show"] for seat in table.hand["hands"]] == [True, True, False, True]
        table.play(
            show(
                # 2 + 3 + 4 + 5 + 6 + 7 + 10 + 10 + 10 + 25 = 82
                "2H 3H 4H 5H 6H 7H QD QH KS JK",
                # 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 = 55
                "AS 2S 3S 4S 5S 6S 7S 8S 9H 10H",
                None,
                # eight cards of 10 + 9 + 9 = 98
                "KC KD QC QS JD JH 10C 10D 9C 9D",
            )
        )
        result = table.last["result"]
        assert (result["points"], result["winners"]) == ([82, 55, 0, 98], [CARLA])

    def test_the_hands_left_may_be_shown_by_points_r40_end(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"), discard(BRUNO, "KH")
        )
        table.play(show(17, None))
        assert table.last["result"]["points"] == [17, 0]

    def test_the_hands_shown_need_every_card_held(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"), discard(BRUNO, "KH")
        )
        violation = table.refused(show("2H 3H", None))
        assert rule_and_code(violation) == ("R40-SETUP", "wrong_count")
        assert table.refused(show("2H 3H 4H 5H 6H 7H QD QH KS JK", "4S")).code == "known_hand"

    def test_the_hands_are_shown_only_when_the_hand_is_over(self):
        table = dealt().play(draw(BRUNO))
        assert table.refused(show("2H", "3H")).code == "hand_not_over"

    def test_no_move_is_made_after_the_hand_ended(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"), discard(BRUNO, "KH")
        )
        assert table.refused(draw(ANNA)).code == "hand_over"


def stock_run_out(target=100) -> Table:
    """Return a hand where nobody opens and the 33 stock cards are drawn and thrown.

    The A♣ is the upcard; the 33 discards are 2♣..K♣, the spades and A♥..8♥: 34 cards seen,
    so the 20 cards left in the hands are 9♥..K♥, the diamonds and both jokers.
    """
    names = [str(card) for card in FULL_DECK]
    table = r40(target=target).play(deal(names[0]))
    for turn, card in enumerate(names[1:34]):
        seat = BRUNO if turn % 2 == 0 else ANNA
        table.play(draw(seat), discard(seat, card))
    return table


class TestStockRunsOut:
    def test_the_stock_running_out_ends_the_hand_and_everybody_adds_r40_end(self):
        table = stock_run_out(target=200)
        assert (table.hand["phase"], table.hand["stock"], table.hand["ending"]) == (
            "show",
            0,
            "stock",
        )
        # Anna: 9 + 10 + 10 + 10 + 10 + 1 + 2 + 3 + 4 + 25 = 84.
        # Bruno: 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 10 + 25 = 100.
        table.play(show("9H 10H JH QH KH AD 2D 3D 4D JK", "5D 6D 7D 8D 9D 10D JD QD KD JK"))
        result = table.last["result"]
        assert (result["ending"], result["points"], result["winners"]) == ("stock", [84, 100], [])

    def test_a_third_joker_in_the_hands_shown_is_refused_card_2(self):
        table = stock_run_out()
        violation = table.refused(
            show("9H 10H JH QH KH AD 2D 3D JK JK", "5D 6D 7D 8D 9D 10D JD QD KD JK")
        )
        assert (violation.rule, violation.params["card"]) == ("CARD-2", "JK")


class TestTakingBackMoves:
    def test_move_undone_takes_back_a_failed_opening_and_its_penalty(self):
        table = dealt().play(draw(BRUNO))
        before = table.view
        table.play(lay(BRUNO, "2C 3C 4C"), undo("he had the 5C too"))
        assert table.view["play"] == before["play"]
        table.play(lay(BRUNO, "2C 3C 4C 5C", "KC KD KS"))
        assert (seat_view(table, BRUNO)["penalties"], seat_view(table, BRUNO)["opened"]) == (
            0,
            True,
        )

    def test_move_undone_takes_back_a_joker_steal(self):
        table = TestJokerSteal.joker_on_the_table().play(swap(ANNA, 1, "6H"), undo())
        assert table.hand["table"][0]["meld"] == "5H JK=6H 7H"
        assert (table.hand["owed_jokers"], seat_view(table, ANNA)["known"]) == (0, [])
        table.play(discard(ANNA, "9C"))

    def test_the_deal_itself_is_taken_back_when_it_is_the_only_move(self):
        table = dealt().play(undo())
        assert table.view["play"] is None
        assert rule_and_code(table.refused(undo())) == ("EVENT", "no_hand_in_play")

    def test_a_move_after_the_end_of_the_hand_is_a_new_hand(self):
        table = dealt(opening_minimum=0).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C", "5D 6D 7D 8D", "9S 10S JS"), discard(BRUNO, "KH")
        )
        table.play(undo("not out yet"))
        assert table.hand["phase"] == "play" and seat_view(table, BRUNO)["count"] == 1


class TestTheTable:
    def test_a_hand_recorded_is_refused_while_a_hand_is_in_play(self):
        table = dealt()
        entry = {"mode": "cards", "players": [{"hand": "KS"}, {"hand": "", "went_out": True}]}
        assert rule_and_code(table.refused(record(entry))) == ("EVENT", "hand_in_play")

    def test_a_played_hand_is_voided_and_amended_like_any_hand(self):
        table = bruno_failed_then_anna_opened()
        table.play(draw(BRUNO), lay(BRUNO, "2C 3C 4C 5C", "JC JS JD"), discard(BRUNO, "8C"))
        table.play(draw(ANNA), add(ANNA, 2, "2S"), lay(ANNA, "7H 8H 9H"), discard(ANNA, "10C"))
        table.play(show(None, "KS 6D 6H"))
        assert table.view["totals"] == [0, 42]
        table.play(void(1))
        assert table.view["totals"] == [0, 0]
        # Amended: the failed opening was a slip; Bruno adds K♠ 6♦ 6♥ = 22 only.
        entry = {"mode": "cards", "players": [{"hand": "", "went_out": True}, {"hand": "KS 6D 6H"}]}
        table.play(amend(1, entry))
        assert table.view["totals"] == [0, 22]
        assert [h["voided"] for h in table.view["hands"]] == [False]

    def test_an_amendment_ending_the_match_is_refused_while_a_hand_is_in_play(self):
        """R40-MATCH, single hand: hand 1 was recorded then voided; hand 2 is being played.

        Amending hand 1 ends the match. BUG: the amendment is accepted, hand 2 goes on to its
        end, and its hands_shown is refused (R40-MATCH match_over): it can never be scored.
        """
        entry = {"mode": "cards", "players": [{"hand": "KS"}, {"hand": "", "went_out": True}]}
        table = r40(target=1).play(record(entry), void(1), deal("9D"))
        assert table.refused(amend(1, entry)).rule == "R40-MATCH"

    def test_the_dealer_and_the_turn_follow_the_moves(self):
        table = r40(seats=FOUR)
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, None)
        table.play(deal("9D"))
        assert table.view["turn"] == BRUNO
        table.play(draw(BRUNO), discard(BRUNO, "2C"))
        assert table.view["turn"] == CARLA
        table.play(draw(CARLA), discard(CARLA, "3C"), draw(DARIO), discard(DARIO, "4C"))
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, ANNA)

    def test_the_whole_log_replays_to_the_state_reached_move_by_move(self):
        table = bruno_failed_then_anna_opened().play(draw(BRUNO))
        assert table.replayed().to_dict() == table.view


class TestAMatch:
    def test_two_hands_to_the_limit_the_first_to_reach_it_loses_r40_match(self):
        """R40-MATCH, limit 100: hand 1 Bruno 42; hand 2, stock out, Anna 84 and Bruno 100.

        Totals: Anna 0 + 84 = 84, Bruno 42 + 100 = 142: Bruno passed 100 and loses.
        """
        table = bruno_failed_then_anna_opened()
        table.play(draw(BRUNO), lay(BRUNO, "2C 3C 4C 5C", "JC JS JD"), discard(BRUNO, "8C"))
        table.play(draw(ANNA), add(ANNA, 2, "2S"), lay(ANNA, "7H 8H 9H"), discard(ANNA, "10C"))
        table.play(show(None, "KS 6D 6H"))
        assert (table.view["dealer"], table.view["finished"]) == (BRUNO, False)
        # Hand 2: Bruno deals, so Anna draws first; nobody opens; the stock runs out.
        names = [str(card) for card in FULL_DECK]
        table.play(deal(names[0]))
        assert table.view["turn"] == ANNA
        for turn, card in enumerate(names[1:34]):
            seat = ANNA if turn % 2 == 0 else BRUNO
            table.play(draw(seat), discard(seat, card))
        table.play(show("9H 10H JH QH KH AD 2D 3D 4D JK", "5D 6D 7D 8D 9D 10D JD QD KD JK"))
        view = table.view
        assert view["totals"] == [84, 142]
        assert [hand["result"]["points"] for hand in view["hands"]] == [[0, 42], [84, 100]]
        assert (view["finished"], view["winner"], view["match"]["loser"]) == (True, ANNA, BRUNO)
        assert table.refused(deal("2C")).rule == "R40-MATCH"
