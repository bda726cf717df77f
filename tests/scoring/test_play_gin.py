"""Gin Rummy played move by move (docs/rules.md) through the replay: scoring/play/'s rules.

Anna (seat 0) deals the first hand, so Bruno (seat 1) is the non-dealer who starts. Every
expected count and score is worked by hand from docs/rules.md in the comments beside it.
"""

from scoring.cards import FULL_DECK
from tests.scoring.play_helpers import (
    Table,
    amend,
    deal,
    discard,
    draw,
    knock,
    pass_turn,
    record,
    rule_and_code,
    show,
    take,
    undo,
    void,
)

SEATS = ["Anna", "Bruno"]
ANNA, BRUNO = 0, 1
UPCARD = "7S"

# Bruno's knock: A♥2♥3♥, 4♦5♦6♦, 8♣8♠8♥ and 3♣ as deadwood: count 3 (GIN-DEADWOOD).
KNOCK_3 = "AH 2H 3H 4D 5D 6D 8C 8S 8H 3C"
# Anna against it: 9♠10♠J♠Q♠ is her run; 4♥ 5♥ go on A♥2♥3♥ and 7♦ on 4♦5♦6♦ (GIN-LAYOFF);
# 9♦ 2♣ K♣ stay: 9 + 2 + 10 = 21.
DEFENDS_21 = "4H 5H 9S 9D 10S JS QS 2C 7D KC"
# Bruno's knock with 7♣ as deadwood: count 7.
KNOCK_7 = "AH 2H 3H 4D 5D 6D 8C 8S 8H 7C"
# Anna: 9♠..K♠ and 4♣4♠4♥ her own; 3♦ goes under 4♦5♦6♦; 2♣ stays: 2.
DEFENDS_2 = "9S 10S JS QS KS 4C 4S 4H 2C 3D"
# Bruno's gin: every one of the 10 cards in a meld.
GIN_HAND = "AH 2H 3H 4D 5D 6D 8C 8S 8H 8D"
# Big Gin: 11 cards, A♥..4♥, 4♦5♦6♦ and the four 8s.
BIG_GIN_HAND = "AH 2H 3H 4H 4D 5D 6D 8C 8S 8H 8D"
# Anna against a gin: 9♠10♠J♠Q♠, then 2 + 7 + 10 + 3 + 5 + 6 = 33 (no lay off, GIN-GIN).
DEFENDS_33 = "9S 10S JS QS 2C 7D KC 3C 5S 6C"


def gin_table(**options) -> Table:
    return Table("gin", SEATS, options)


def dealt(**options) -> Table:
    """Return a table whose first hand is dealt, the 7♠ face up, Anna dealing."""
    return gin_table(**options).play(deal(UPCARD))


def after_both_passed(**options) -> Table:
    """Return the first hand after both players passed the upcard: Bruno draws next."""
    return dealt(**options).play(pass_turn(BRUNO), pass_turn(ANNA))


def to_bruno_knocking(**options) -> Table:
    """Return the hand at Bruno's third draw (stock 28), ready for him to knock.

    Both pass; Bruno draws and throws K♦, Anna draws and throws Q♣; Bruno draws.
    """
    return after_both_passed(**options).play(
        draw(BRUNO), discard(BRUNO, "KD"), draw(ANNA), discard(ANNA, "QC"), draw(BRUNO)
    )


def fresh_cards(count: int, *avoid: str) -> list[str]:
    """Return ``count`` distinct card names of one deck, none of ``avoid``."""
    names = [str(card) for card in FULL_DECK if str(card) not in avoid]
    return names[:count]


def turns(first: int, cards: list[str]):
    """Return moves of alternate turns from ``first``: a stock draw, then a discard each."""
    moves = []
    for index, card in enumerate(cards):
        seat = first if index % 2 == 0 else 1 - first
        moves += [draw(seat), discard(seat, card)]
    return moves


class TestTheDeal:
    def test_the_stock_holds_31_cards_after_the_deal_gin_setup(self):
        """GIN-SETUP: 52 cards - 2 x 10 dealt - the upcard = 31."""
        hand = dealt().hand
        assert hand["stock"] == 31
        assert hand["discard_top"] == "7S" and hand["discard_count"] == 1
        assert [seat["count"] for seat in hand["hands"]] == [10, 10]

    def test_seat_0_deals_the_first_hand_and_the_non_dealer_moves_first(self):
        table = dealt()
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, BRUNO)
        assert table.hand["phase"] == "first"

    def test_a_hand_may_name_its_dealer(self):
        table = gin_table().play(deal(UPCARD, dealer=BRUNO))
        assert (table.view["dealer"], table.view["turn"]) == (BRUNO, ANNA)

    def test_a_card_seen_twice_is_refused_card_2(self):
        """CARD-2: one deck, so the 7♠ Bruno took cannot be drawn by Anna too."""
        table = dealt().play(take(BRUNO, "7S"), discard(BRUNO, "KD"))
        violation = table.refused(draw(ANNA, "7S"))
        assert (violation.rule, violation.params["card"]) == ("CARD-2", "7S")
        # A joker is not a copy too many but a card Gin does not have: GIN-SETUP says so.
        violation = gin_table().refused(deal("JK"))
        assert (violation.rule, violation.code) == ("GIN-SETUP", "no_jokers")


class TestFirstTurn:
    def test_the_non_dealer_may_not_draw_from_the_stock_gin_first(self):
        """GIN-FIRST: the non-dealer takes the face-up card or passes."""
        violation = dealt().refused(draw(BRUNO))
        assert rule_and_code(violation) == ("GIN-FIRST", "stock_on_first_turn")

    def test_the_dealer_may_not_move_before_the_non_dealer_gin_first(self):
        table = dealt()
        assert table.refused(pass_turn(ANNA)).rule == "GIN-TURN"
        assert table.refused(take(ANNA)).rule == "GIN-TURN"

    def test_the_non_dealer_takes_the_upcard_then_discards_and_the_dealer_plays_on(self):
        """GIN-FIRST then GIN-TURN: after taking the upcard the hand goes on normally."""
        table = dealt().play(take(BRUNO, "7S"), discard(BRUNO, "KD"))
        hand = table.hand
        assert hand["turn"] == ANNA and hand["phase"] == "draw"
        assert hand["discard_top"] == "KD" and hand["stock"] == 31
        # Bruno is known to hold the 7♠ he took.
        assert hand["hands"][BRUNO]["known"] == ["7S"]
        table.play(draw(ANNA))
        assert table.hand["stock"] == 30

    def test_after_a_pass_the_dealer_has_the_option_gin_first(self):
        """GIN-FIRST: if the non-dealer passes, the dealer may take the upcard."""
        table = dealt().play(pass_turn(BRUNO))
        assert table.view["turn"] == ANNA and table.hand["phase"] == "first"
        assert table.refused(draw(ANNA)).rule == "GIN-FIRST"
        table.play(take(ANNA), discard(ANNA, "2C"))
        # The dealer took it: the non-dealer now draws as in any turn.
        assert (table.view["turn"], table.hand["phase"]) == (BRUNO, "draw")
        table.play(draw(BRUNO))
        assert table.hand["stock"] == 30

    def test_after_both_pass_the_non_dealer_draws_from_the_stock_gin_first(self):
        """GIN-FIRST: both passed, so the non-dealer draws from the stock, not the upcard."""
        table = after_both_passed()
        assert (table.view["turn"], table.hand["phase"]) == (BRUNO, "draw")
        assert rule_and_code(table.refused(take(BRUNO))) == ("GIN-FIRST", "both_passed")
        table.play(draw(BRUNO, "QD"))
        assert table.hand["stock"] == 30
        assert table.hand["hands"][BRUNO] == {
            "count": 11,
            "known": ["QD"],
            "opened": False,
            "penalties": 0,
            "to_show": False,
        }

    def test_a_turn_is_passed_only_on_the_first_turn_gin_turn(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"))
        assert rule_and_code(table.refused(pass_turn(ANNA))) == ("GIN-TURN", "cannot_pass")


class TestTurns:
    def test_a_turn_is_one_draw_then_one_discard_gin_turn(self):
        table = after_both_passed()
        assert rule_and_code(table.refused(discard(BRUNO, "KD"))) == ("GIN-TURN", "draw_first")
        table.play(draw(BRUNO))
        assert rule_and_code(table.refused(draw(BRUNO))) == ("GIN-TURN", "already_drawn")
        assert rule_and_code(table.refused(take(BRUNO))) == ("GIN-TURN", "already_drawn")
        table.play(discard(BRUNO, "KD"))
        assert table.counts() == [10, 10]

    def test_the_players_take_turns_gin_turn(self):
        table = after_both_passed().play(draw(BRUNO))
        assert rule_and_code(table.refused(discard(ANNA, "KD"))) == ("GIN-TURN", "not_your_turn")
        table.play(discard(BRUNO, "KD"))
        assert table.view["turn"] == ANNA
        assert table.refused(draw(BRUNO)).code == "not_your_turn"
        table.play(take(ANNA, "KD"), discard(ANNA, "QC"))
        assert table.view["turn"] == BRUNO

    def test_only_the_top_of_the_discard_pile_is_taken(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"))
        violation = table.refused(take(ANNA, "7S"))
        assert (violation.code, violation.params["top"]) == ("not_the_top", "KD")

    def test_a_card_taken_from_the_pile_is_known_to_be_in_hand_until_played(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"), take(ANNA))
        assert table.hand["hands"][ANNA]["known"] == ["KD"]
        # The pile is back to the upcard.
        assert (table.hand["discard_top"], table.hand["discard_count"]) == ("7S", 1)

    def test_a_card_thrown_leaves_the_other_known_cards_in_hand(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"))
        table.play(take(ANNA), discard(ANNA, "2C"))
        # Anna holds 10 cards, one of them (K♦) named by the log.
        assert table.hand["hands"][ANNA] == {
            "count": 10,
            "known": ["KD"],
            "opened": False,
            "penalties": 0,
            "to_show": False,
        }


class TestNoRediscard:
    def test_the_upcard_taken_may_not_be_thrown_back_big_gin_gin_norediscard(self):
        """GIN-NOREDISCARD (choice for Big Gin: on)."""
        table = dealt().play(take(BRUNO))
        violation = table.refused(discard(BRUNO, "7S"))
        assert rule_and_code(violation) == ("GIN-NOREDISCARD", "rediscard")
        assert violation.params["card"] == "7S"

    def test_the_classic_table_refuses_a_rediscard_gin_norediscard(self):
        table = dealt(preset="classic").play(pass_turn(BRUNO), take(ANNA))
        assert table.refused(discard(ANNA, "7S")).rule == "GIN-NOREDISCARD"

    def test_a_big_gin_table_without_the_option_allows_it_gin_norediscard(self):
        table = dealt(no_rediscard=False).play(take(BRUNO), discard(BRUNO, "7S"))
        assert (table.hand["discard_top"], table.view["turn"]) == ("7S", ANNA)
        assert table.hand["hands"][BRUNO]["known"] == []

    def test_a_classic_table_may_switch_the_option_off_too_gin_norediscard(self):
        table = dealt(preset="classic", no_rediscard=False).play(take(BRUNO), discard(BRUNO, "7S"))
        assert table.hand["discard_top"] == "7S"

    def test_the_card_may_be_thrown_in_a_later_turn_gin_norediscard(self):
        """Only 'in the same turn': next turn the card taken may go."""
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"), take(ANNA))
        assert table.refused(discard(ANNA, "KD")).rule == "GIN-NOREDISCARD"
        table.play(discard(ANNA, "QC"), draw(BRUNO), discard(BRUNO, "2C"), draw(ANNA))
        table.play(discard(ANNA, "KD"))
        assert table.hand["discard_top"] == "KD"

    def test_a_knock_may_not_discard_the_card_just_taken_gin_norediscard(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "9C"), take(ANNA))
        violation = table.refused(knock(ANNA, "9C", KNOCK_3))
        assert rule_and_code(violation) == ("GIN-NOREDISCARD", "rediscard")


class TestKnocking:
    def test_a_knock_over_10_is_refused_with_the_count_gin_knock(self):
        # Melds A♥2♥3♥ and 4♦5♦6♦; deadwood 8♣ 8♠ K♣ Q♠ = 8 + 8 + 10 + 10 = 36.
        table = to_bruno_knocking()
        violation = table.refused(knock(BRUNO, "9C", "AH 2H 3H 4D 5D 6D 8C 8S KC QS"))
        assert rule_and_code(violation) == ("GIN-KNOCK", "over_limit")
        assert (violation.params["count"], violation.params["limit"]) == (36, 10)

    def test_a_knock_of_exactly_10_is_allowed_gin_knock(self):
        # A♥2♥3♥, 4♦5♦6♦, 8♣8♠8♥; K♣ deadwood: 10.
        table = to_bruno_knocking().play(knock(BRUNO, "9C", "AH 2H 3H 4D 5D 6D 8C 8S 8H KC"))
        assert table.hand["phase"] == "show" and table.hand["ender"] == BRUNO

    def test_a_knock_shows_every_card_held_but_the_discard_gin_knock(self):
        """Bruno holds 11 cards after drawing: the discard and 10 kept."""
        table = to_bruno_knocking()
        violation = table.refused(knock(BRUNO, "9C", "AH 2H 3H 4D 5D 6D 8C 8S 8H"))
        assert rule_and_code(violation) == ("GIN-KNOCK", "wrong_count")
        assert (violation.params["count"], violation.params["expected"]) == (10, 11)

    def test_a_knock_comes_after_the_draw(self):
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"))
        assert table.refused(knock(ANNA, "9C", KNOCK_3)).code == "draw_first"
        assert table.refused(knock(BRUNO, "9C", KNOCK_3)).code == "not_your_turn"

    def test_a_knock_must_keep_the_cards_the_log_knows_were_taken(self):
        """Anna took the K♦: her 11 cards are the K♦ and 10 unknown ones, so she cannot
        discard the 9♣ and keep 10 other cards without it."""
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"), take(ANNA))
        violation = table.refused(knock(ANNA, "9C", KNOCK_3))
        assert rule_and_code(violation) == ("GIN-TURN", "not_in_hand")


class TestScoredHands:
    def test_a_knock_is_scored_with_the_layoffs_the_engine_finds_gin_score_knock(self):
        """GIN-LAYOFF, GIN-SCORE-KNOCK: Bruno 3, Anna 21 after laying off: Bruno scores 18."""
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3))
        assert table.hand["stock"] == 28  # 31 - 3 draws
        assert table.hand["hands"][ANNA]["to_show"] and not table.hand["hands"][BRUNO]["to_show"]
        table.play(show(DEFENDS_21, None))
        assert table.view["play"] is None and table.view["turn"] is None
        result = table.last["result"]
        assert result["ending"] == "knock"
        assert (result["knocker"], result["knocker_count"], result["defender_count"]) == (1, 3, 21)
        assert sorted(card for card, _ in result["defender_layoffs"]) == ["4H", "5H", "7D"]
        assert sorted(result["defender_deadwood"]) == ["2C", "9D", "KC"]
        # 21 - 3 = 18 to Bruno.
        assert result["points"] == [0, 18]
        assert table.view["totals"] == [0, 18]
        assert table.last["played"] is True

    def test_the_defender_lower_undercuts_big_gin_gin_undercut(self):
        """Bruno 7; Anna 2 after laying the 3♦ off: (7 - 2) + 25 = 30 to Anna."""
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_7), show(DEFENDS_2, None))
        result = table.last["result"]
        assert (result["knocker_count"], result["defender_count"]) == (7, 2)
        assert result["undercut"] is True
        assert result["points"] == [30, 0]

    def test_the_classic_undercut_has_no_bonus_gin_undercut(self):
        """Classic: undercut_bonus 0, so Anna scores the difference only: 7 - 2 = 5."""
        table = to_bruno_knocking(preset="classic").play(
            knock(BRUNO, "9C", KNOCK_7), show(DEFENDS_2, None)
        )
        assert table.last["result"]["points"] == [5, 0]

    def test_gin_scores_25_and_the_defender_may_not_lay_off_gin_gin(self):
        """GIN-GIN, GIN-SCORE-GIN: 25 + Anna's 33 = 58; her 7♦ is not laid off on 4♦5♦6♦."""
        table = to_bruno_knocking().play(knock(BRUNO, "9C", GIN_HAND), show(DEFENDS_33, None))
        result = table.last["result"]
        assert result["ending"] == "gin"
        assert result["defender_layoffs"] == []
        assert result["points"] == [0, 25 + 33]

    def test_big_gin_goes_out_with_11_melded_cards_and_no_discard_gin_biggin(self):
        """GIN-BIGGIN: 31 + Anna's 33 = 64; nothing goes to the discard pile."""
        table = to_bruno_knocking().play(knock(BRUNO, hand=BIG_GIN_HAND))
        assert table.hand["discard_top"] == "QC"
        table.play(show(DEFENDS_33, None))
        result = table.last["result"]
        assert result["ending"] == "big_gin"
        assert result["points"] == [0, 31 + 33]

    def test_big_gin_needs_every_card_melded_gin_biggin(self):
        # A♥2♥3♥4♥, 4♦5♦6♦, 8♣8♠8♥ and 9♣ left: 9.
        table = to_bruno_knocking()
        violation = table.refused(knock(BRUNO, hand="AH 2H 3H 4H 4D 5D 6D 8C 8S 8H 9C"))
        assert rule_and_code(violation) == ("GIN-BIGGIN", "not_all_melded")
        assert violation.params["count"] == 9

    def test_a_classic_table_has_no_big_gin_gin_biggin(self):
        table = to_bruno_knocking(preset="classic")
        violation = table.refused(knock(BRUNO, hand=BIG_GIN_HAND))
        assert rule_and_code(violation) == ("GIN-BIGGIN", "not_available")

    def test_the_hands_shown_need_the_defenders_ten_cards(self):
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3))
        violation = table.refused(show("4H 5H 9S 9D 10S JS QS 2C 7D", None))
        assert rule_and_code(violation) == ("GIN-SETUP", "wrong_count")
        assert (violation.params["count"], violation.params["expected"]) == (9, 10)

    def test_the_knockers_hand_is_already_shown(self):
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3))
        assert table.refused(show(DEFENDS_21, KNOCK_3)).code == "known_hand"
        assert table.refused(show(None, None)).code == "missing_hand"
        assert table.refused(show(21, None)).code == "bad_choice"  # Gin shows cards

    def test_a_shown_hand_must_hold_the_cards_taken_from_the_pile(self):
        # Anna took Bruno's K♦ and threw the 2♣; Bruno knocks; her hand must show the K♦.
        table = after_both_passed().play(draw(BRUNO), discard(BRUNO, "KD"))
        table.play(take(ANNA), discard(ANNA, "2C"), draw(BRUNO), knock(BRUNO, "9C", KNOCK_3))
        violation = table.refused(show("4H 5H 9S 9D 10S JS QS QC 7D KC", None))
        assert violation.code == "known_missing" and violation.params["cards"] == ["KD"]
        table.play(show("4H 5H 9S 9D 10S JS QS KD 7D KC", None))
        # Anna: 9♠-Q♠, 4♥5♥ and 7♦ laid off; 9♦ K♦ K♣ = 29; Bruno 3: 26 to Bruno.
        assert table.last["result"]["points"] == [0, 26]

    def test_a_card_shown_twice_is_refused_card_2(self):
        """CARD-2: the 9♣ is on the discard pile; Anna cannot show it too."""
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3))
        violation = table.refused(show("4H 5H 9S 9C 10S JS QS 2C 7D KC", None))
        assert (violation.rule, violation.params["card"]) == ("CARD-2", "9C")


class TestWall:
    def test_the_stock_at_two_after_a_discard_voids_the_hand_gin_wall(self):
        """GIN-WALL: 31 cards, 29 draws leave 2; the 29th discard without a knock voids it."""
        table = after_both_passed()
        cards = fresh_cards(29, UPCARD)
        table.play(*turns(BRUNO, cards[:28]))
        # 28 draws: 3 cards left, the hand goes on.
        assert (table.hand["stock"], table.view["turn"]) == (3, BRUNO)
        table.play(draw(BRUNO))
        assert table.hand["stock"] == 2
        table.play(discard(BRUNO, cards[28]))
        assert table.view["play"] is None
        result = table.last["result"]
        assert (result["ending"], result["points"]) == ("wall", [0, 0])
        assert table.view["totals"] == [0, 0]
        # The deal passes on after a void hand: Bruno deals the next one, Anna starts.
        table.play(deal("KD"))
        assert (table.view["dealer"], table.view["turn"]) == (BRUNO, ANNA)

    def test_the_player_drawing_the_last_allowed_card_may_still_knock_gin_wall(self):
        table = after_both_passed()
        # Keep Bruno's knock cards and Anna's defence out of the discards.
        cards = fresh_cards(28, UPCARD, "9C", *KNOCK_3.split(), *DEFENDS_21.split())
        table.play(*turns(BRUNO, cards), draw(BRUNO), knock(BRUNO, "9C", KNOCK_3))
        table.play(show(DEFENDS_21, None))
        assert table.last["result"]["points"] == [0, 18]

    def test_without_the_wall_play_goes_on_past_two_stock_cards_gin_wall(self):
        table = after_both_passed(wall=False)
        cards = fresh_cards(30, UPCARD)
        table.play(*turns(BRUNO, cards[:29]))
        # 29 draws: 2 left, and the hand goes on; Anna draws the 30th card.
        assert (table.hand["stock"], table.view["turn"]) == (2, ANNA)
        table.play(draw(ANNA), discard(ANNA, cards[29]), draw(BRUNO))
        assert table.hand["stock"] == 0

    def test_without_the_wall_the_last_stock_card_may_be_knocked_on_gin_wall(self):
        table = after_both_passed(wall=False)
        cards = fresh_cards(30, UPCARD, "9C", *KNOCK_3.split(), *DEFENDS_21.split())
        table.play(*turns(BRUNO, cards), draw(BRUNO), knock(BRUNO, "9C", KNOCK_3))
        assert table.hand["stock"] == 0
        table.play(show(DEFENDS_21, None))
        assert table.last["result"]["points"] == [0, 18]

    def test_without_the_wall_the_discard_that_empties_the_stock_ends_the_hand_void(self):
        """GIN-WALL off: nobody knocked when the stock is empty, so the hand ends void.

        (Refused as GIN-WALL not_enabled until the engine's commit 686770f.)
        """
        table = after_both_passed(wall=False)
        cards = fresh_cards(31, UPCARD)
        table.play(*turns(BRUNO, cards[:30]), draw(BRUNO))
        table.play(discard(BRUNO, cards[30]))
        assert table.view["play"] is None
        assert table.last["result"]["points"] == [0, 0]


class TestTakingBackMoves:
    def test_move_undone_takes_back_exactly_the_last_move(self):
        table = after_both_passed().play(draw(BRUNO, "QD"))
        before = table.view
        table.play(discard(BRUNO, "KD"))
        table.play(undo())
        assert table.view["play"] == before["play"]
        assert table.view["turn"] == BRUNO and table.hand["phase"] == "play"
        table.play(undo())
        assert (table.hand["phase"], table.hand["stock"]) == ("draw", 31)
        assert table.counts() == [10, 10]

    def test_the_deal_itself_is_taken_back_when_it_is_the_only_move(self):
        table = dealt().play(pass_turn(BRUNO), undo(), undo())
        assert table.view["play"] is None and table.view["hands"] == []
        # A different upcard can then be dealt.
        table.play(deal("KD"))
        assert table.hand["discard_top"] == "KD"

    def test_a_knock_is_taken_back_before_the_hands_are_shown(self):
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_7), undo("meant 3C"))
        assert (table.hand["phase"], table.view["turn"]) == ("play", BRUNO)
        table.play(knock(BRUNO, "9C", KNOCK_3), show(DEFENDS_21, None))
        assert table.view["totals"] == [0, 18]

    def test_nothing_is_undone_between_hands(self):
        table = gin_table()
        assert rule_and_code(table.refused(undo())) == ("EVENT", "no_hand_in_play")


class TestTheTable:
    def test_a_hand_recorded_is_refused_while_a_hand_is_in_play(self):
        table = dealt()
        quick = {
            "mode": "quick",
            "knocker": 0,
            "ending": "knock",
            "knocker_count": 3,
            "defender_count": 10,
        }
        assert rule_and_code(table.refused(record(quick))) == ("EVENT", "hand_in_play")
        assert rule_and_code(table.refused(deal("KD"))) == ("EVENT", "hand_in_play")

    def test_a_played_hand_is_voided_and_amended_like_any_hand(self):
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3), show(DEFENDS_21, None))
        table.play(void(1, "the stock was miscounted"))
        assert table.view["totals"] == [0, 0] and table.last["voided"] is True
        # Amended: Bruno knocked with 3 against 30 after all: 27.
        quick = {
            "mode": "quick",
            "knocker": 1,
            "ending": "knock",
            "knocker_count": 3,
            "defender_count": 30,
        }
        table.play(amend(1, quick))
        assert table.view["totals"] == [0, 27]
        assert table.last["played"] is True and table.last["amended"] is True

    def test_an_amendment_ending_the_match_is_refused_while_a_hand_is_in_play(self):
        """GIN-MATCH, single hand: hand 1 hit the wall (void, 0-0), hand 2 is being played.

        Amending hand 1 to a knock won by Anna (3 against 10: 7) would end the match with a
        hand still in play. BUG: the amendment is accepted, the hand in play takes every move
        up to its end, and then hands_shown is refused (GIN-MATCH match_over): the hand can
        never be scored.
        """
        table = gin_table(target=1).play(deal(UPCARD), pass_turn(BRUNO), pass_turn(ANNA))
        table.play(*turns(BRUNO, fresh_cards(29, UPCARD)), deal("KD"))
        quick = {
            "mode": "quick",
            "knocker": 0,
            "ending": "knock",
            "knocker_count": 3,
            "defender_count": 10,
        }
        assert table.refused(amend(1, quick)).rule == "GIN-MATCH"

    def test_the_dealer_and_the_turn_follow_the_moves(self):
        table = gin_table()
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, None)
        table.play(deal(UPCARD))
        seen = [(table.view["dealer"], table.view["turn"])]
        for move in (pass_turn(BRUNO), pass_turn(ANNA), draw(BRUNO), discard(BRUNO, "KD")):
            table.play(move)
            seen.append((table.view["dealer"], table.view["turn"]))
        assert seen == [(0, 1), (0, 0), (0, 1), (0, 1), (0, 0)]
        table.play(draw(ANNA), discard(ANNA, "QC"), draw(BRUNO), knock(BRUNO, "9C", KNOCK_3))
        assert table.view["turn"] is None
        table.play(show(DEFENDS_21, None))
        # The hand is over: Bruno deals the next one.
        assert (table.view["dealer"], table.view["turn"]) == (BRUNO, None)

    def test_the_whole_log_replays_to_the_state_reached_move_by_move(self):
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3), show(DEFENDS_21, None))
        assert table.replayed().to_dict() == table.view


class TestAMatch:
    def test_a_single_hand_match_with_a_void_hand_first_is_won_by_the_knocks_winner(self):
        """GIN-MATCH target 1: the wall decides nothing, the next hand's scorer wins."""
        table = gin_table(target=1).play(deal(UPCARD), pass_turn(BRUNO), pass_turn(ANNA))
        cards = fresh_cards(29, UPCARD)
        table.play(*turns(BRUNO, cards))
        assert table.last["result"]["ending"] == "wall"
        assert (table.view["finished"], table.view["winner"]) == (False, None)
        # Hand 2: Bruno deals the K♦; both pass; Anna knocks with KNOCK_3 on her second
        # draw, Bruno holding DEFENDS_21: 21 - 3 = 18 to Anna.
        table.play(
            deal("KD"),
            pass_turn(ANNA),
            pass_turn(BRUNO),
            draw(ANNA),
            discard(ANNA, "QC"),
            draw(BRUNO),
            discard(BRUNO, "KS"),
            draw(ANNA),
            knock(ANNA, "9C", KNOCK_3),
            show(None, "4H 5H 9S 9D 10S JS QS 2C 7D KC"),
        )
        assert table.view["totals"] == [18, 0]
        assert (table.view["finished"], table.view["winner"]) == (True, ANNA)
        assert table.refused(deal("2C")).rule == "GIN-MATCH"

    def test_totals_are_the_sum_of_the_hands_points(self):
        # Hand 1 (Anna deals): Bruno knocks, 18 to Bruno.
        table = to_bruno_knocking().play(knock(BRUNO, "9C", KNOCK_3), show(DEFENDS_21, None))
        # Hand 2 (Bruno deals): Anna knocks with 7, Bruno lays off to 2: 30 to Bruno.
        table.play(
            deal("KD"),
            pass_turn(ANNA),
            pass_turn(BRUNO),
            draw(ANNA),
            discard(ANNA, "QC"),
            draw(BRUNO),
            discard(BRUNO, "QH"),
            draw(ANNA),
            knock(ANNA, "9C", KNOCK_7),
            show(None, DEFENDS_2),
        )
        points = [hand["result"]["points"] for hand in table.view["hands"]]
        assert points == [[0, 18], [0, 30]]
        assert table.view["totals"] == [0, 48] == [sum(p[i] for p in points) for i in (0, 1)]
