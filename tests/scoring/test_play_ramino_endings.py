"""Ramino played move by move (docs/rules.md, Ramino) through the replay: claims, going out, Casino
scoring, the stock running out, taking moves back, the table and a match.
"""

import pytest

from scoring.errors import RuleViolation
from tests.scoring.play_helpers import (
    Table,
    add,
    amend,
    claim,
    deal,
    discard,
    draw,
    lay,
    record,
    rule_and_code,
    show,
    swap,
    take,
    undo,
    void,
)
from tests.scoring.play_ramino_tables import (
    ANNA,
    ANNA_13,
    BRUNO,
    BRUNO_MELDS,
    CARLA,
    SEATS,
    THREE,
    bruno_closes_in_hand,
    bruno_opens_with_the_kings,
    bruno_out_on_his_second_turn,
    claim_table,
    dealt,
    joker_in_bruno_run,
    ramino,
    seat_view,
    short_stock_run_out,
)


class TestKnockClaim:
    def test_another_player_claims_the_last_discard_and_a_stock_card_ram_opt_knockclaim(self):
        table = claim_table()
        assert table.hand["claimable"] is True
        table.play(claim(ANNA, "QS"))
        anna = seat_view(table, ANNA)
        # 13 + the 5♦ + the Q♠ from the stock; the pile is back to the upcard.
        assert (anna["count"], anna["known"]) == (15, ["5D", "QS"])
        assert (table.hand["discard_top"], table.hand["stock"]) == ("9D", 70 - 1 - 1)
        # The claim is out of turn: Carla still draws.
        assert table.view["turn"] == CARLA
        table.play(draw(CARLA))
        assert table.hand["stock"] == 67

    def test_the_stock_card_of_a_claim_may_stay_unnamed_ram_opt_knockclaim(self):
        table = claim_table().play(claim(ANNA))
        assert (seat_view(table, ANNA)["count"], seat_view(table, ANNA)["known"]) == (15, ["5D"])

    def test_nobody_claims_their_own_discard_ram_opt_knockclaim(self):
        violation = claim_table().refused(claim(BRUNO))
        assert rule_and_code(violation) == ("RAM-OPT-KNOCKCLAIM", "own_discard")

    def test_the_next_player_simply_draws_the_discard_ram_opt_knockclaim(self):
        violation = claim_table().refused(claim(CARLA))
        assert rule_and_code(violation) == ("RAM-OPT-KNOCKCLAIM", "own_turn")

    def test_no_claim_after_the_next_player_drew_ram_opt_knockclaim(self):
        table = claim_table().play(draw(CARLA))
        assert rule_and_code(table.refused(claim(ANNA))) == ("RAM-OPT-KNOCKCLAIM", "too_late")

    def test_a_discard_is_claimed_once_ram_opt_knockclaim(self):
        table = claim_table().play(claim(ANNA))
        assert rule_and_code(table.refused(claim(ANNA))) == ("RAM-OPT-KNOCKCLAIM", "too_late")

    def test_the_upcard_is_not_a_discard_to_claim_ram_opt_knockclaim(self):
        table = dealt(seats=THREE, knock_claim=True)
        assert table.refused(claim(ANNA)).code == "too_late"

    def test_without_the_house_rule_nobody_claims_ram_opt_knockclaim(self):
        table = dealt(seats=THREE).play(draw(BRUNO), discard(BRUNO, "5D"))
        assert rule_and_code(table.refused(claim(ANNA))) == ("RAM-OPT-KNOCKCLAIM", "not_on")

    def test_the_house_rule_needs_three_players_ram_opt_knockclaim(self):
        with pytest.raises(RuleViolation) as caught:
            Table("ramino", SEATS, {"knock_claim": True})
        assert rule_and_code(caught.value.violations[0]) == ("RAM-OPT-KNOCKCLAIM", "players")

    def test_the_claimed_card_is_known_in_the_hand_shown(self):
        """Anna claims the 5♦; Bruno goes out later; a hand of Anna's without it is refused."""
        table = dealt(seats=THREE, knock_claim=True).play(
            draw(BRUNO),
            lay(BRUNO, "KS KH KD"),
            discard(BRUNO, "5D"),
            claim(ANNA),
            draw(CARLA),
            discard(CARLA, "2H"),
            draw(ANNA),
            discard(ANNA, "3H"),
            draw(BRUNO),
            lay(BRUNO, "AC 2C 3C 4C", "5S 6S 7S", "9H 10H JH"),
            discard(BRUNO, "4H"),
        )
        assert table.hand["ender"] == BRUNO
        # Anna holds 13 + 2 + 1 - 1 = 15, Carla 13.
        assert table.counts() == [15, 0, 13]
        anna = "3S 4S 8S 9S QS 5H 6H 8C 9C JC 2D 10D QD AS AD"
        carla = "2S 2D 3D 4D 6D 7D 8D 9D JD KC QC 8H 9H"
        violation = table.refused(show(anna, None, carla))
        assert (violation.rule, violation.code) == ("RAM-TURN", "known_missing")
        assert violation.params["cards"] == ["5D"]
        # Anna: 94 (ANNA_13) + 11 + 5 (the 5♦ for the A♦) = 94 + 11 + 5 = 110.
        anna = "3S 4S 8S 9S QS 5H 6H 8C 9C JC 2D 10D QD AS 5D"
        # Carla: 2 + 2 + 3 + 4 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 8 + 9 = 88.
        table.play(show(anna, None, carla))
        assert table.last["result"]["points"] == [-110, 110 + 88, -88]


class TestGoingOut:
    def test_the_last_card_thrown_goes_out_and_the_others_pay_ram_out(self):
        """RAM-OUT, RAM-SCORE: Anna loses her 94 and Bruno gains them; opened a turn before,
        Bruno does not close in hand (RAM-HANDCLOSE)."""
        table = bruno_out_on_his_second_turn()
        assert (table.hand["phase"], table.hand["ender"]) == ("show", BRUNO)
        table.play(show(ANNA_13, None))
        result = table.last["result"]
        assert (result["points"], result["winners"]) == ([-94, 94], [BRUNO])
        assert "RAM-HANDCLOSE" not in {item["rule"] for item in result["items"]}

    def test_going_out_in_one_turn_doubles_the_hand_ram_handclose(self):
        """RAM-HANDCLOSE: Bruno lays all 13 on his first turn: 94 x 2 = 188."""
        table = bruno_closes_in_hand().play(show(ANNA_13, None))
        assert table.last["result"]["points"] == [-188, 188]

    def test_an_opening_on_an_earlier_turn_is_no_hand_closure_ram_handclose(self):
        """Bruno opened with the kings on turn 1 and went out on turn 3: not doubled."""
        table = bruno_out_on_his_second_turn().play(show(ANNA_13, None))
        assert table.view["totals"] == [-94, 94]

    def test_melding_the_last_card_is_refused_without_the_house_rule_ram_out(self):
        table = bruno_opens_with_the_kings().play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D")
        )
        violation = table.refused(lay(BRUNO, "9H 10H JH QH"))
        assert rule_and_code(violation) == ("RAM-OUT", "keep_one")

    def test_melding_the_last_card_goes_out_with_the_house_rule_ram_opt_nodiscardwin(self):
        """RAM-OPT-NODISCARDWIN: Bruno melds his last 4 cards; Anna pays 94, not doubled."""
        table = bruno_opens_with_the_kings(no_discard_win=True).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D"), lay(BRUNO, "9H 10H JH QH")
        )
        assert (table.hand["phase"], table.hand["ender"]) == ("show", BRUNO)
        assert table.hand["discard_top"] == "3H"
        table.play(show(ANNA_13, None))
        assert table.view["totals"] == [-94, 94]

    def test_adding_the_last_card_goes_out_with_the_house_rule_ram_opt_nodiscardwin(self):
        table = bruno_opens_with_the_kings(no_discard_win=True).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D", "9H 10H JH"), add(BRUNO, 1, "KC")
        )
        assert table.hand["ender"] == BRUNO

    def test_melding_every_card_in_one_turn_closes_in_hand_ram_opt_nodiscardwin(self):
        """All 14 cards melded on the first turn: 94 doubled, 188 (RAM-HANDCLOSE)."""
        table = dealt(no_discard_win=True).play(
            draw(BRUNO), lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D", "KS KH KD", "9H 10H JH QH")
        )
        table.play(show(ANNA_13, None))
        assert table.view["totals"] == [-188, 188]

    def test_the_hands_shown_need_every_card_held(self):
        table = bruno_closes_in_hand()
        violation = table.refused(show("3S 4S", None))
        assert rule_and_code(violation) == ("RAM-SETUP", "wrong_count")
        assert (violation.params["count"], violation.params["expected"]) == (2, 13)

    def test_the_hands_shown_keep_the_cards_taken_from_the_pile(self):
        """Anna took Bruno's 2♠ and threw the 3♥; her hand shown must hold the 2♠."""
        table = dealt().play(
            draw(BRUNO),
            lay(BRUNO, "KS KH KD"),
            discard(BRUNO, "2S"),
            take(ANNA, "2S"),
            discard(ANNA, "3H"),
            draw(BRUNO),
            lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D", "9H 10H JH"),
            discard(BRUNO, "4H"),
        )
        violation = table.refused(show(ANNA_13, None))
        assert (violation.code, violation.params["cards"]) == ("known_missing", ["2S"])
        # The 2♠ for the 3♠: 94 - 3 + 2 = 93.
        table.play(show(ANNA_13.replace("3S", "2S"), None))
        assert table.view["totals"] == [-93, 93]

    def test_a_hand_left_may_be_shown_by_points_ram_score(self):
        table = bruno_out_on_his_second_turn().play(show(94, None))
        assert table.view["totals"] == [-94, 94]


class TestCasino:
    def test_the_winner_also_gains_the_melded_cards_ram_opt_casino(self):
        """Casino values: Anna's hand 115. Bruno melded K♠K♥K♦ 30, A♣2♣3♣4♣ 15 + 15 = 30,
        5♦6♦7♦ 15, 9♥10♥J♥ 5 + 20 = 25: 100. Bruno +115 + 100 = 215; Anna -215."""
        table = bruno_out_on_his_second_turn(casino_scoring=True).play(show(ANNA_13, None))
        result = table.last["result"]
        assert result["points"] == [-215, 215]
        melded = [i for i in result["items"] if i["code"] == "melded"]
        assert [(i["seat"], i["points"]) for i in melded] == [(BRUNO, 100)]

    def test_a_card_swapped_in_counts_as_melded_and_the_joker_thrown_does_not(self):
        """RAM-OPT-CASINO with RAM-JOKER-SWAP: Anna's melded cards are 10♥J♥Q♥ 30, 2♦..5♦ 20,
        6♠7♠8♠ 15, K♣ 10, the 8♣ swapped in 5, 9♥ 5, 6♦ 5: 90; the joker she threw last is
        not melded. Bruno's 7 cards: A♠ 15, Q♣ J♦ 20, 5♥ 9♠ 3♣ 4♥ 20: 55.
        Anna +55 + 90 = 145, Bruno -145."""
        table = joker_in_bruno_run(casino_scoring=True).play(
            draw(ANNA),
            lay(ANNA, "10H JH QH", "2D 3D 4D 5D", "6S 7S 8S"),
            discard(ANNA, "5S"),
            draw(BRUNO),
            discard(BRUNO, "QS"),
            draw(ANNA),
            add(ANNA, 2, "KC"),
            swap(ANNA, 1, "8C"),
            add(ANNA, 3, "9H"),
            add(ANNA, 4, "6D"),
            discard(ANNA, "JK"),
            show(None, "AS 5H 9S QC JD 3C 4H"),
        )
        assert table.last["result"]["points"] == [145, -145]

    def test_a_hand_closure_doubles_casino_scoring_too_ram_opt_casino(self):
        """Same cards melded in one turn (the 2♠ thrown): (115 + 100) x 2 = 430."""
        table = bruno_closes_in_hand(casino_scoring=True).play(show(ANNA_13, None))
        assert table.last["result"]["points"] == [-430, 430]


class TestStock:
    def test_the_stock_running_out_ends_the_hand_and_everybody_loses_ram_stock(self):
        table = short_stock_run_out()
        assert (table.hand["phase"], table.hand["ending"], table.hand["stock"]) == (
            "show",
            "stock",
            0,
        )
        # Anna: 10 x 4 + 11 + 2 + 3 + 4 + 5 + 20 = 85.
        # Bruno: 6 + 7 + 8 + 9 + 10 x 4 + 20 + 20 = 110.
        table.play(show("10H JH QH KH AD 2D 3D 4D 5D JK", "6D 7D 8D 9D 10D JD QD KD JK JK"))
        result = table.last["result"]
        assert (result["ending"], result["points"], result["winners"]) == (
            "stock",
            [-85, -110],
            [],
        )

    def test_a_fourth_joker_of_the_short_deck_is_refused_card_2(self):
        table = short_stock_run_out()
        violation = table.refused(
            show("10H JH QH KH AD 2D 3D 4D JK JK", "6D 7D 8D 9D 10D JD QD KD JK JK")
        )
        assert (violation.rule, violation.params["card"]) == ("CARD-2", "JK")


class TestTakingBackMoves:
    def test_move_undone_takes_back_a_swap_and_its_joker(self):
        table = joker_in_bruno_run().play(draw(ANNA), lay(ANNA, "10H JH QH"))
        before = table.view
        table.play(swap(ANNA, 1, "8C"), undo("wrong meld"))
        assert table.view["play"] == before["play"]

    def test_move_undone_takes_back_a_claim(self):
        table = claim_table()
        before = table.view
        table.play(claim(ANNA), undo())
        assert table.view["play"] == before["play"]

    def test_the_deal_is_taken_back_when_it_is_the_only_move(self):
        table = dealt().play(draw(BRUNO), undo(), undo())
        assert table.view["play"] is None


class TestTheTable:
    def test_a_hand_recorded_is_refused_while_a_hand_is_in_play(self):
        table = dealt()
        entry = {"mode": "points", "players": [{"points": 20}, {"points": 0, "went_out": True}]}
        assert rule_and_code(table.refused(record(entry))) == ("EVENT", "hand_in_play")

    def test_a_played_hand_is_voided_and_amended_like_any_hand(self):
        table = bruno_out_on_his_second_turn().play(show(ANNA_13, None))
        table.play(void(1))
        assert table.view["totals"] == [0, 0]
        entry = {"mode": "points", "players": [{"points": 50}, {"points": 0, "went_out": True}]}
        table.play(amend(1, entry))
        assert table.view["totals"] == [-50, 50]

    def test_an_amendment_ending_the_match_is_refused_while_a_hand_is_in_play(self):
        """RAM-MATCH, one hand: hand 1 was recorded then voided; hand 2 is being played.

        Amending hand 1 makes it the table's one hand. BUG: the amendment is accepted and
        hand 2, played to its end, is refused (RAM-MATCH match_over): it can never be scored.
        """
        entry = {"mode": "points", "players": [{"points": 40}, {"points": 0, "went_out": True}]}
        table = ramino(hands=1).play(record(entry), void(1), deal("9D"))
        assert table.refused(amend(1, entry)).rule == "RAM-MATCH"

    def test_the_dealer_and_the_turn_follow_the_moves(self):
        table = ramino(seats=THREE)
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, None)
        table.play(deal("9D", dealer=CARLA))
        assert (table.view["dealer"], table.view["turn"]) == (CARLA, ANNA)
        table.play(draw(ANNA), discard(ANNA, "2C"))
        assert table.view["turn"] == BRUNO

    def test_the_whole_log_replays_to_the_state_reached_move_by_move(self):
        table = joker_in_bruno_run().play(draw(ANNA), lay(ANNA, "10H JH QH"), swap(ANNA, 1, "8C"))
        assert table.replayed().to_dict() == table.view


class TestAMatch:
    def test_two_hands_the_highest_total_wins_ram_match(self):
        """Hand 1: Bruno out, Anna -94. Hand 2 (Bruno deals): Anna closes in hand; Bruno's 13
        cards 2 + 3 + 4 + 5 + 6 + 7 + 2 + 3 + 4 + 5 + 6 + 7 + 6 = 60, doubled 120.

        Totals: Anna -94 + 120 = 26, Bruno 94 - 120 = -26: Anna wins.
        """
        table = bruno_out_on_his_second_turn(hands=2).play(show(ANNA_13, None))
        assert (table.view["finished"], table.view["dealer"]) == (False, BRUNO)
        table.play(deal("9D"))
        assert table.view["turn"] == ANNA
        table.play(draw(ANNA), lay(ANNA, *BRUNO_MELDS), discard(ANNA, "2S"))
        table.play(show(None, "2H 3H 4H 5S 6S 7S 2C 3D 4S 5C 6C 7C 6D"))
        view = table.view
        assert [hand["result"]["points"] for hand in view["hands"]] == [[-94, 94], [120, -120]]
        assert view["totals"] == [26, -26]
        assert (view["finished"], view["winner"]) == (True, ANNA)
        assert table.refused(deal("2C")).rule == "RAM-MATCH"
