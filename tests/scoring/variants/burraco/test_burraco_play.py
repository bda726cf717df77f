"""Burraco played move by move through the replay (scoring/variants/burraco/play.py).

North (seat 0) and South (seat 2) are pair 0, East (1) and West (3) pair 1; West deals, so
North moves first. Values are BUR-VALUES (jolly 30, 2 20, ace 15, 8 to K 10, 3 to 7 5);
every expected number is worked by hand in the comments beside it.
"""

import pickle
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import parse_card, parse_cards
from scoring.solver import can_go_out
from scoring.variants.burraco import GAME, samples
from scoring.variants.burraco.cards import DECK, card_value
from scoring.variants.burraco.play import closing_refusal
from tests.hypothesis_profiles import examples
from tests.scoring.play_helpers import (
    Table,
    add,
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
)
from tests.scoring.variants.burraco.helpers import options

SEATS = ["North", "East", "South", "West"]
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
# The hands East, South and West show at the end of the closed hand (BUR-VALUES):
# East 4D 5C 6H 7C 3S 25 + 8D 9H JH QD KD 50 + AC 15 = 90;
# South 3C 3D 4S 6D 7D 25 + 9S JD QH QS 40 + AH 15 + 2C 20 = 100;
# West JK 30 + 2D 20 + 10S 10C 10D 30 + 8C 8S 20 + 7S 6S 5S 15 + 4H 5 = 120.
EAST_LEFT = "4D 5C 6H 7C 8D 9H JH QD KD AC 3S"
SOUTH_LEFT = "3C 3D 4S 6D 7D 9S JD QH QS AH 2C"
WEST_LEFT = "JK 2D 10S 10C 10D 8C 8S 7S 6S 5S 4H"


def burraco(**chosen) -> Table:
    return Table("burraco", SEATS, chosen)


def dealt(**chosen) -> Table:
    """Return a hand just dealt by West: the upcard 9C, North to move."""
    return burraco(**chosen).play(deal("9C", dealer=WEST))


def others_draw_and_discard(*cards: str):
    """Return East's, South's and West's turns: each draws and throws its card."""
    return tuple(
        move
        for seat, card in zip((EAST, SOUTH, WEST), cards, strict=True)
        for move in (draw(seat), discard(seat, card))
    )


def north_down_to_one() -> Table:
    """North draws (12), lays a burraco pulito of 7 hearts and three kings (2 left) and
    throws the 4C (1 left); the others draw and discard a round."""
    return dealt().play(
        draw(NORTH),
        lay(NORTH, "3H 4H 5H 6H 7H 8H 9H", "KS KD KC"),
        discard(NORTH, "4C"),
        *others_draw_and_discard("QD", "JS", "5D"),
    )


def north_took_pozzetto_flying() -> Table:
    """North draws (2 cards) and adds both: his hand empties by melding."""
    return north_down_to_one().play(draw(NORTH), add(NORTH, 1, "10H"), add(NORTH, 2, "KH"))


def north_about_to_close() -> Table:
    """North, with the pozzetto and a burraco pulito, is down to one card after melding."""
    return north_took_pozzetto_flying().play(
        lay(NORTH, "AS AC AD"),
        discard(NORTH, "6C"),
        *others_draw_and_discard("2S", "3D", "JC"),
        draw(NORTH),
        lay(NORTH, "JC QC KC", "5S 6S 7S 8S"),
    )


def closed_hand() -> Table:
    return north_about_to_close().play(
        discard(NORTH, "9D"), show(None, EAST_LEFT, SOUTH_LEFT, WEST_LEFT)
    )


class TestTheDeal:
    def test_the_stock_holds_41_after_the_deal_and_the_pozzetti_bur_setup(self):
        """BUR-SETUP: 108 - 4 x 11 dealt - 2 pozzetti x 11 - the upcard = 41."""
        table = dealt()
        assert (table.hand["stock"], table.hand["discard_count"]) == (41, 1)
        assert table.counts() == [11, 11, 11, 11]
        assert table.hand["kitties"] == [False, False]
        assert table.view["turn"] == NORTH


class TestAWholeHand:
    def test_a_hand_closed_with_a_burraco_pulito_scores_per_pair_bur_score(self):
        """BUR-SCORE: North-South melded 3H..7H 25 + 8H 9H 10H 30 = 55, KS KD KC KH 40,
        AS AC AD 45, JC QC KC 30, 5S 6S 7S 8S 25: 195; the pulito 200, closing 100, South's
        100 in hand: 195 + 200 + 100 - 100 = 395. East-West: 90 + 120 = 210 in hand and
        their pozzetto never taken: -210 - 100 = -310. Both partners carry it."""
        result = closed_hand().last["result"]
        assert result["points"] == [395, -310, 395, -310]
        assert (result["ending"], result["closer"], result["winners"]) == ("out", 0, [0, 2])
        assert result["pairs"][0]["sheet"] == {
            "melded": 195,
            "pulito": 1,
            "sporco": 0,
            "semipulito": 0,
            "closed": True,
            "pozzetto": True,
            "in_hand": 100,
        }

    def test_the_same_hand_entered_by_cards_scores_the_same(self):
        """The hand played and the hand entered by each pair's cards meet in one scoring."""
        entry = {
            "mode": "cards",
            "pairs": [
                {
                    "melds": [
                        "3H 4H 5H 6H 7H 8H 9H 10H",
                        "KS KD KC KH",
                        "AS AC AD",
                        "JC QC KC",
                        "5S 6S 7S 8S",
                    ],
                    "hands": ["", SOUTH_LEFT],
                    "closed": True,
                    "pozzetto": True,
                },
                {"melds": [], "hands": [EAST_LEFT, WEST_LEFT], "pozzetto": False},
            ],
        }
        entered = burraco().play(record(entry)).last["result"]
        played = closed_hand().last["result"]
        assert entered["points"] == played["points"] == [395, -310, 395, -310]
        assert entered["pairs"] == played["pairs"]

    def test_the_hands_left_may_be_shown_by_points(self):
        """East 90 + West 120 = 210: the same -310; South's 100: the same 395."""
        table = north_about_to_close().play(discard(NORTH, "9D"), show(None, 90, 100, 120))
        assert table.last["result"]["points"] == [395, -310, 395, -310]


class TestTheDiscardPile:
    def test_taking_the_pile_takes_every_card_of_it_bur_turn(self):
        """BUR-TURN: the pile 9C 4C QD JS 5D comes whole: North's 1 card + 5 = 6."""
        table = north_down_to_one().play(take(NORTH))
        assert table.counts() == [6, 11, 11, 11]
        assert table.hand["hands"][NORTH]["known"] == ["9C", "4C", "QD", "JS", "5D"]
        # The stock is untouched: 41 - 4 draws = 37.
        assert (table.hand["discard_count"], table.hand["stock"]) == (0, 37)

    def test_the_card_named_must_be_the_top_of_the_pile(self):
        violation = north_down_to_one().refused(take(NORTH, "9C"))
        assert rule_and_code(violation) == ("BUR-TURN", "not_the_top")

    def test_a_pile_take_is_undone_whole(self):
        table = north_down_to_one()
        before = table.hand
        table.play(take(NORTH), undo())
        assert table.hand == before
        assert (table.hand["discard_count"], table.counts()) == (5, [1, 11, 11, 11])

    def test_the_next_player_takes_a_pile_of_one_after_a_pile_take(self):
        """North takes 5 and melds 5D? No: he throws QD; East's pile is that one card."""
        table = north_down_to_one().play(take(NORTH), discard(NORTH, "QD"), take(EAST))
        assert table.counts() == [5, 12, 11, 11]
        assert table.hand["discard_count"] == 0


class TestThePozzetto:
    def test_a_hand_emptied_by_melding_takes_the_pozzetto_at_once_bur_pozzetto(self):
        """BUR-POZZETTO: North's 2 cards both added: 11 new cards, and his turn goes on."""
        table = north_took_pozzetto_flying()
        assert table.counts() == [11, 11, 11, 11]
        assert (table.hand["phase"], table.view["turn"]) == ("play", NORTH)
        assert table.hand["kitties"] == [True, False]
        # The pozzetto was never in the stock: 41 - 5 draws = 36.
        assert table.hand["stock"] == 36

    def test_a_hand_emptied_by_discarding_takes_the_pozzetto_and_the_turn_passes(self):
        """BUR-POZZETTO: North draws (2), adds 10H (1) and throws KH (0): he takes his
        pair's 11 cards, the hand goes on, and it is East's turn."""
        table = north_down_to_one().play(draw(NORTH), add(NORTH, 1, "10H"), discard(NORTH, "KH"))
        assert table.counts() == [11, 11, 11, 11]
        assert (table.hand["phase"], table.view["turn"], table.hand["ending"]) == (
            "draw",
            EAST,
            None,
        )
        assert table.hand["kitties"] == [True, False]

    def test_a_wild_may_be_thrown_to_take_the_pozzetto(self):
        """BUR-POZZETTO: a last discard while the pozzetto waits is no closing."""
        table = north_down_to_one().play(draw(NORTH), add(NORTH, 1, "10H"), discard(NORTH, "JK"))
        assert (table.counts()[NORTH], table.hand["kitties"]) == (11, [True, False])

    def test_each_pair_takes_its_own_pozzetto_once_bur_pozzetto(self):
        """BUR-POZZETTO: East draws (12) and melds all 12: East-West's pozzetto, 11 cards."""
        table = north_took_pozzetto_flying().play(discard(NORTH, "6C"), draw(EAST))
        table.play(lay(EAST, "3D 4D 5D", "6S 7S 8S", "9D 10D JD", "QC QS QH"))
        assert table.hand["kitties"] == [True, True]
        # North: 11 - 6C = 10; East 11 again.
        assert table.counts() == [10, 11, 11, 11]

    def test_melding_the_last_card_with_the_pozzetto_taken_is_refused_bur_close(self):
        """BUR-CLOSE: North holds 8 after his draw; 3 + 5 melded would leave none to throw."""
        table = north_took_pozzetto_flying().play(
            lay(NORTH, "AS AC AD"),
            discard(NORTH, "6C"),
            *others_draw_and_discard("2S", "3D", "JC"),
            draw(NORTH),
        )
        violation = table.refused(lay(NORTH, "JC QC KC", "5S 6S 7S 8S 9S"))
        assert rule_and_code(violation) == ("BUR-CLOSE", "keep_one")


class TestClosing:
    def test_the_partner_closes_with_the_pairs_pozzetto_and_burraco_bur_close(self):
        """BUR-CLOSE: North took the pair's pozzetto and made the pulito; South draws (12),
        melds 10, adds KH (1 left) and throws it: a closing, not a second pozzetto.
        North-South melded 3H..10H 55, KS KD KC KH KH 50, 3C 4C 5C 15, 6D 7D 8D 5 + 5 + 10
        = 20, 9S 10S JS QS 40: 180; pulito 200, closing 100; North holds 100:
        180 + 200 + 100 - 100 = 380. East-West hold 60 + 70, no pozzetto: -130 - 100 = -230.
        """
        table = north_took_pozzetto_flying().play(
            discard(NORTH, "6C"),
            draw(EAST),
            discard(EAST, "2S"),
            draw(SOUTH),
            lay(SOUTH, "3C 4C 5C", "6D 7D 8D", "9S 10S JS QS"),
            add(SOUTH, 2, "KH"),
            discard(SOUTH, "5S"),
        )
        assert (table.hand["ending"], table.hand["ender"]) == ("out", SOUTH)
        table.play(show(100, 60, None, 70))
        result = table.last["result"]
        assert (result["points"], result["closer"]) == ([380, -230, 380, -230], 0)

    def test_a_closing_without_a_burraco_is_refused_bur_close(self):
        """BUR-CLOSE: North empties his hand (pozzetto) and melds down to one card, but his
        pair's longest meld has 4 cards: no burraco, no closing."""
        table = dealt().play(
            draw(NORTH),
            lay(NORTH, "3H 4H 5H", "6S 7S 8S", "KS KD KC"),
            discard(NORTH, "4C"),
            *others_draw_and_discard("QD", "JS", "5D"),
            draw(NORTH),
            lay(NORTH, "9D 10D JD"),
            lay(NORTH, "AS AC AD", "4C 5C 6C 7C", "QH QD QS"),
        )
        # 12 - 9 = 3, thrown 1: 2; drawn 3, melded 3: 0, the pozzetto 11; 11 - 10 = 1.
        assert (table.counts()[NORTH], table.hand["kitties"]) == (1, [True, False])
        violation = table.refused(discard(NORTH, "9C"))
        assert rule_and_code(violation) == ("BUR-CLOSE", "closed_without_burraco")

    def test_a_closing_on_a_jolly_is_refused_bur_close(self):
        violation = north_about_to_close().refused(discard(NORTH, "JK"))
        assert rule_and_code(violation) == ("BUR-CLOSE", "wild_discard")

    def test_a_closing_on_a_2_is_refused_too_bur_close(self):
        """BUR-CLOSE: a 2 left in hand has no natural place: it is a wild."""
        violation = north_about_to_close().refused(discard(NORTH, "2H"))
        assert rule_and_code(violation) == ("BUR-CLOSE", "wild_discard")

    @pytest.mark.parametrize(
        ("hand", "closes", "discard"),
        [
            # 5-6-7♥ melded leaves the 2♣: alone in hand it stands for nothing, a pinella,
            # so the only way out discards a wild and is refused.
            ("5H 6H 7H 2C", False, None),
            # A♦ 2♦ 3♦: the 2 in its own place is a natural card (BUR-WILD); the closing
            # throws the 9♠, no wild.
            ("AD 2D 3D 9S", True, "9S"),
            # A-2-3-4♦ natural, the 2♣ left over: the only discard is a pinella, refused.
            ("AD 2D 3D 4D 2C", False, None),
            # 5-6-7♥ and the jolly: the jolly may not be thrown, so it is melded with two
            # hearts (6-7-JK, the jolly for the 8♥) and a heart is thrown, the first tried 5♥.
            ("5H 6H 7H JK", True, "5H"),
        ],
    )
    def test_the_referee_closes_as_play_does_never_on_a_wild_bur_close(self, hand, closes, discard):
        table = options()
        out = can_go_out(
            parse_cards(hand),
            rules=GAME.meld_rules(table),
            closing=GAME.referee.closing(table),
            opened=True,
            deck=GAME.deck(table, 4),
        )
        assert (out.possible, str(out.discard) if out.discard else None) == (closes, discard)
        if not closes:
            assert rule_and_code(out.violation) == ("BUR-CLOSE", "joker_discard")

    @pytest.mark.parametrize(
        ("card", "barred"), [("2C", True), ("2H", True), ("JK", True), ("9D", False), ("AD", False)]
    )
    def test_play_and_the_referee_bar_the_same_closing_discards_bur_close(self, card, barred):
        """BUR-CLOSE: North may close (pozzetto taken, a pulito); a jolly or any 2 as the
        last discard is refused by play and barred by the referee's closing alike."""
        play = north_about_to_close().state.play
        refusal = closing_refusal(options(), play, NORTH, parse_card(card))
        assert (refusal is not None, GAME.referee.closing(options()).bars(parse_card(card))) == (
            barred,
            barred,
        )

    def test_a_closing_without_the_pozzetto_is_refused_bur_close(self):
        """BUR-CLOSE: asked before North's pair has its pozzetto, the closing check refuses
        (in play such a last discard takes the pozzetto instead, as above)."""
        table = north_down_to_one().play(draw(NORTH))
        refusal = closing_refusal(options(), table.state.play, NORTH, parse_card("9D"))
        assert rule_and_code(refusal.violations[0]) == ("BUR-CLOSE", "closed_without_pozzetto")


class TestMelds:
    def test_adding_to_the_opponents_meld_is_refused_bur_melds(self):
        """BUR-MELDS: a pair adds only to its own melds; the kings are North-South's."""
        table = north_down_to_one().play(draw(NORTH), discard(NORTH, "8C"), draw(EAST))
        violation = table.refused(add(EAST, 2, "KH"))
        assert rule_and_code(violation) == ("BUR-MELDS", "not_own_meld")

    def test_a_partner_adds_to_the_pairs_meld_before_melding_any_of_their_own(self):
        """BUR-MELDS: South adds KH to North's kings: 11 + 1 - 1 = 11 cards."""
        table = north_down_to_one().play(
            draw(NORTH), discard(NORTH, "8C"), draw(EAST), discard(EAST, "7D"), draw(SOUTH)
        )
        table.play(add(SOUTH, 2, "KH"))
        assert table.hand["table"][1]["cards"] == ["KC", "KS", "KH", "KD"]
        assert table.counts()[SOUTH] == 11

    def test_a_meld_with_two_wilds_is_refused_bur_wild(self):
        """BUR-WILD: the jolly and the 2 of spades (no place in hearts) are both wild."""
        violation = dealt().play(draw(NORTH)).refused(lay(NORTH, "5H JK 7H 2S"))
        assert rule_and_code(violation) == ("BUR-WILD", "two_wilds")

    def test_a_second_wild_added_to_a_meld_is_refused_bur_wild(self):
        table = dealt().play(draw(NORTH), lay(NORTH, "5H 6H JK"))
        violation = table.refused(add(NORTH, 1, "2C"))
        assert rule_and_code(violation) == ("BUR-WILD", "two_wilds")

    def test_a_2_in_its_place_is_no_wild_bur_wild(self):
        """BUR-WILD: AH 2H 3H is clean, so a jolly may still join it."""
        table = dealt().play(draw(NORTH), lay(NORTH, "AH 2H 3H"), add(NORTH, 1, "JK"))
        assert table.hand["table"][0]["cards"] == ["AH", "2H", "3H", "JK"]

    def test_a_wild_on_the_table_is_never_taken_back_bur_wild(self):
        """BUR-WILD: a jolly stays in its meld; swapping it out is no Burraco move."""
        table = dealt().play(draw(NORTH), lay(NORTH, "5H 6H JK"))
        violation = table.refused(swap(NORTH, 1, "7H"))
        assert rule_and_code(violation) == ("BUR-TURN", "no_swaps")

    def test_a_meld_the_rules_refuse_changes_nothing_bur_melds(self):
        violation = dealt().play(draw(NORTH)).refused(lay(NORTH, "5H 6S 7H"))
        assert rule_and_code(violation) == ("BUR-MELDS", "mixed")


def rounds_text(count: int) -> list[str]:
    """Return the first ``count`` of the 44 cards 3..K of each suit, each once, so no card
    thrown is seen three times (CARD-2)."""
    ranks = (3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K")
    return [f"{rank}{suit}" for suit in "CDHS" for rank in ranks][:count]


def rounds_of_draws(count: int):
    """Return ``count`` turns from North on, each a stock draw and a discard."""
    return tuple(
        move
        for turn, card in enumerate(rounds_text(count))
        for move in (draw(turn % 4), discard(turn % 4, card))
    )


class TestTheStockRunningOut:
    def test_the_hand_goes_on_while_three_cards_are_left_bur_stock(self):
        """BUR-STOCK: 41 - 38 draws = 3 left: South still draws."""
        table = dealt().play(*rounds_of_draws(38))
        assert (table.hand["stock"], table.hand["phase"], table.view["turn"]) == (3, "draw", SOUTH)

    def test_the_hand_ends_after_the_discard_that_follows_the_draw_leaving_two(self):
        """BUR-STOCK: the 39th draw (South's) leaves 2; after his discard the hand ends,
        with no closing. Shown by points: pair 0 -(50 + 70) - 100 = -220, pair 1
        -(60 + 80) - 100 = -240 (neither took its pozzetto)."""
        table = dealt().play(*rounds_of_draws(38), draw(SOUTH))
        assert table.hand["phase"] == "play"
        table.play(discard(SOUTH, "6H"))
        assert (table.hand["phase"], table.hand["ending"], table.hand["stock"]) == (
            "show",
            "stock",
            2,
        )
        table.play(show(50, 60, 70, 80))
        result = table.last["result"]
        assert (result["ending"], result["closer"]) == ("stock", None)
        assert result["points"] == [-220, -240, -220, -240]


class TestInternational:
    def test_taking_the_pile_obliges_a_meld_bur_opt_intl(self):
        """BUR-OPT-INTL: East takes 9C and North's 4C and throws without melding: refused."""
        table = dealt(international=True).play(draw(NORTH), discard(NORTH, "4C"), take(EAST))
        assert table.counts()[EAST] == 13
        violation = table.refused(discard(EAST, "KD"))
        assert rule_and_code(violation) == ("BUR-OPT-INTL", "pile_unused")
        # With a meld of the pile's 9C the discard goes: 13 - 3 - 1 = 9.
        table.play(lay(EAST, "8C 9C 10C"), discard(EAST, "KD"))
        assert table.counts()[EAST] == 9

    def test_without_the_international_code_the_pile_needs_no_meld(self):
        table = dealt().play(draw(NORTH), discard(NORTH, "4C"), take(EAST), discard(EAST, "KD"))
        assert table.counts()[EAST] == 12

    def test_a_closing_needs_a_burraco_pulito_bur_opt_intl(self):
        """BUR-OPT-INTL: North's only burraco is sporco (the jolly for 7H)."""
        table = dealt(international=True).play(
            draw(NORTH),
            lay(NORTH, "3H 4H 5H 6H JK 8H 9H", "AS AC AD"),
            discard(NORTH, "4C"),
            *others_draw_and_discard("QD", "JS", "5D"),
            draw(NORTH),
            add(NORTH, 1, "10H"),
            add(NORTH, 2, "AH"),
            lay(NORTH, "3C 3D 3S", "4D 5D 6D 7D", "9S 10S JS"),
        )
        # 12 - 10 = 2, thrown: 1; drawn 2, added 2: 0, the pozzetto 11; 11 - 10 = 1.
        assert table.counts()[NORTH] == 1
        violation = table.refused(discard(NORTH, "KC"))
        assert rule_and_code(violation) == ("BUR-OPT-INTL", "closed_without_pulito")


CLOSED_MELDS = ["3H 4H 5H 6H 7H 8H 9H 10H", "KS KD KC KH", "AS AC AD", "JC QC KC", "5S 6S 7S 8S"]
CLOSED_DISCARDS = "9C 4C QD JS 5D 6C 2S 3D JC 9D"


def unseen(*seen: str) -> list[str]:
    """Return the deck's cards less those ``seen`` (each text a list of cards)."""
    left = Counter(DECK.cards())
    left.subtract(card for text in seen for card in parse_cards(text))
    return sorted(str(card) for card in left.elements())


def by_cards(hands) -> dict:
    return {"melds": [], "hands": list(hands), "pozzetto": False}


class TestPlayedAndEnteredAgree:
    @settings(max_examples=examples(40), deadline=None)
    @given(
        cards=st.permutations(unseen(*CLOSED_MELDS, CLOSED_DISCARDS)),
        by_points=st.booleans(),
    )
    def test_a_closed_hand_scores_as_its_cards_entered(self, cards, by_points):
        """Whatever East, South and West hold at the close, the hand played scores what
        the same hand entered by each pair's cards scores (BUR-SCORE)."""
        east, south, west = (" ".join(cards[i * 11 : i * 11 + 11]) for i in range(3))
        if by_points:
            value = [sum(card_value(c) for c in parse_cards(h)) for h in (east, south, west)]
            shown = show(None, *value)
        else:
            shown = show(None, east, south, west)
        played = north_about_to_close().play(discard(NORTH, "9D"), shown).last["result"]
        closers = {"melds": CLOSED_MELDS, "hands": ["", south], "closed": True, "pozzetto": True}
        entry = {"mode": "cards", "pairs": [closers, by_cards([east, west])]}
        entered = burraco().play(record(entry)).last["result"]
        assert played["points"] == entered["points"]
        assert [pair["total"] for pair in played["pairs"]] == played["points"][:2]

    @settings(max_examples=examples(20), deadline=None)
    @given(cards=st.permutations(unseen("9C", *rounds_text(39))))
    def test_a_hand_ended_by_the_stock_scores_as_its_cards_entered(self, cards):
        """BUR-STOCK: no closing, no pozzetto, only the cards held count."""
        hands = [" ".join(cards[i * 11 : i * 11 + 11]) for i in range(4)]
        played = dealt().play(*rounds_of_draws(39), show(*hands)).last["result"]
        entry = {"mode": "cards", "pairs": [by_cards(hands[0::2]), by_cards(hands[1::2])]}
        entered = burraco().play(record(entry)).last["result"]
        assert played["points"] == entered["points"]
        assert played["ending"] == entered["ending"] == "stock"


class TestWorkedExamples:
    @pytest.mark.parametrize("sample", [samples.PLAYED, samples.REVIEWED])
    def test_the_worked_hands_replay_to_their_points(self, sample):
        """samples.py: 395 for North-South, -310 for East-West, worked in its comments."""
        table = Table(sample.variant, list(sample.players), sample.options).play(*sample.events)
        assert tuple(table.last["result"]["points"]) == sample.points == (395, -310, 395, -310)

    def test_the_reviewed_hand_names_every_draw(self):
        draws = [p for kind, p in samples.REVIEWED.events if kind == "card_drawn"]
        assert all("card" in payload for payload in draws)
        assert GAME.examples is samples.EXAMPLES


class TestTheStateKept:
    def test_a_hand_in_play_survives_pickling_as_the_snapshot_keeps_it(self):
        """The table's snapshot is pickled: the pile taken, the pozzetto and the rules too."""
        table = north_took_pozzetto_flying().play(lay(NORTH, "AS AC AD"))
        back = pickle.loads(pickle.dumps(table.state))
        assert back.to_dict() == table.state.to_dict()
        assert back.play.rules == table.state.play.rules
        assert back.play.kitties == (True, False)
