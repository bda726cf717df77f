"""Burraco hands scored pair by pair (BUR-SCORE, BUR-BURRACO, BUR-CLOSE, BUR-POZZETTO,
BUR-STOCK, BUR-OPT-SEMIPULITO, BUR-OPT-INTL): each expected score worked by hand from the
rules, the arithmetic in the comments."""

import json

from scoring.hands import OUT, STOCK
from scoring.variants.burraco import GAME
from tests.scoring.variants.burraco.helpers import (
    SEATS,
    entry,
    options,
    pair,
    refused_entry,
    scored,
)


def pair_dict(result, index):
    return result.to_dict()["pairs"][index]


class TestSheetHands:
    def test_a_closing_with_a_pulito_bur_close(self):
        """BUR-CLOSE, BUR-SCORE: North-South close with a pulito; East-West hold cards."""
        result = scored(
            pair(320, pulito=1, closed=True, in_hand=15),
            pair(210, sporco=1, in_hand=60),
        )
        # North-South: 320 melded + 200 pulito + 100 closing - 15 in hand = 605
        # East-West: 210 melded + 100 sporco - 60 in hand = 250
        assert result.points == (605, 250, 605, 250)
        assert result.winners == (0, 2)
        assert result.ending == OUT
        assert pair_dict(result, 0)["closing_bonus"] == 100

    def test_a_pozzetto_never_taken_costs_100_bur_pozzetto(self):
        """BUR-POZZETTO: East-West never took theirs."""
        result = scored(
            pair(250, sporco=1, closed=True),
            pair(85, pozzetto=False, in_hand=95),
        )
        # North-South: 250 + 100 sporco + 100 closing = 450
        # East-West: 85 melded - 95 in hand - 100 pozzetto = -110
        assert result.points == (450, -110, 450, -110)
        assert pair_dict(result, 1)["pozzetto_penalty"] == 100

    def test_the_stock_runs_out_without_a_closing_bur_stock(self):
        """BUR-STOCK: nobody closed, so no pair has the closing's 100."""
        result = scored(
            pair(500, pulito=2, in_hand=40),
            pair(450, sporco=2, in_hand=25),
        )
        # North-South: 500 + 2 x 200 - 40 = 860
        # East-West: 450 + 2 x 100 - 25 = 625
        assert result.points == (860, 625, 860, 625)
        assert result.ending == STOCK
        assert result.closer is None
        assert [p["closing_bonus"] for p in result.to_dict()["pairs"]] == [0, 0]

    def test_a_semipulito_is_worth_150_with_the_option_bur_opt_semipulito(self):
        result = scored(
            pair(380, pulito=1, semipulito=1, closed=True),
            pair(120, in_hand=30),
            table=options(semipulito=True),
        )
        # North-South: 380 + 200 pulito + 150 semipulito + 100 closing = 830
        # East-West: 120 - 30 = 90
        assert result.points == (830, 90, 830, 90)
        assert pair_dict(result, 0)["burraco_bonuses"] == {
            "pulito": 200,
            "semipulito": 150,
            "sporco": 0,
        }

    def test_both_pairs_without_their_pozzetto_at_a_stock_end_bur_score(self):
        result = scored(pair(60, pozzetto=False, in_hand=110), pair(45, pozzetto=False, in_hand=70))
        # North-South: 60 - 110 - 100 = -150; East-West: 45 - 70 - 100 = -125
        assert result.points == (-150, -125, -150, -125)
        assert result.winners == (1, 3)

    def test_equal_hand_scores_have_no_hand_winner(self):
        result = scored(pair(300, pulito=1, closed=True), pair(500, sporco=1))
        # North-South: 300 + 200 + 100 = 600; East-West: 500 + 100 = 600
        assert result.points == (600, 600, 600, 600)
        assert result.winners == ()

    def test_the_international_code_closes_only_with_a_pulito_bur_opt_intl(self):
        [violation] = refused_entry(
            pair(300, sporco=1, closed=True), pair(100), table=options(international=True)
        )
        assert (violation.rule, violation.code) == ("BUR-OPT-INTL", "closed_without_pulito")
        assert violation.params["field"] == "pairs[0].closed"

    def test_an_international_closing_with_a_pulito_scores_as_any_bur_opt_intl(self):
        result = scored(
            pair(250, pulito=1, closed=True),
            pair(150, sporco=1, in_hand=35),
            table=options(international=True),
        )
        # North-South: 250 + 200 + 100 = 550; East-West: 150 + 100 - 35 = 215
        assert result.points == (550, 215, 550, 215)

    def test_the_breakdown_adds_up_to_the_points_bur_score(self):
        result = scored(pair(320, pulito=1, closed=True, in_hand=15), pair(210, in_hand=60))
        body = json.loads(json.dumps(result.to_dict()))
        for index, breakdown in enumerate(body["pairs"]):
            parts = [item["points"] for item in body["items"] if item["params"]["pair"] == index]
            assert sum(parts) == breakdown["total"] == body["points"][index]
        # North-South: 320 + 200 + 100 - 15 = 605; East-West: 210 - 60 - 0 = 150
        assert body["points"] == [605, 150, 605, 150]
        assert body["players"] == list(SEATS)


class TestCardHands:
    def test_a_hand_entered_by_cards_is_checked_and_scored_bur_score(self):
        """BUR-SCORE from the cards: each meld checked, values and burracos counted."""
        result = scored(
            {
                "melds": ["3H 4H 5H 6H 7H 8H 9H", "KS KD KC", "AC 2C 3C"],
                "hands": ["", "QH 4S"],
                "closed": True,
                "pozzetto": True,
            },
            {"melds": ["JK 5D 6D 7D 8D 9D 10D"], "hands": ["JK 2H", "AS"], "pozzetto": False},
            mode="cards",
        )
        # North-South melded: 3..7 = 5 x 5 = 25, 8 9 = 20, so 45; K K K = 30;
        # A 2 3 = 15 + 20 + 5 = 40; 45 + 30 + 40 = 115. In hand Q + 4 = 10 + 5 = 15.
        # 115 + 200 (the 3..9 pulito) + 100 closing - 15 = 400.
        # East-West melded: jolly 30 + 5 6 7 = 15 + 8 9 10 = 30, so 75, a sporco (+100).
        # In hand: jolly 30 + 2 20 + ace 15 = 65. 75 + 100 - 65 - 100 pozzetto = 10.
        assert result.points == (400, 10, 400, 10)
        assert result.sheet.pairs[0].pulito == 1
        assert result.sheet.pairs[1].sporco == 1
        assert [str(card) for card in result.sheet.hands[2]] == ["QH", "4S"]
        assert result.to_dict()["melds"][1] == ["5D 6D 7D 8D 9D 10D JK"]

    def test_a_wild_at_the_end_of_seven_is_semipulito_only_with_the_option(self):
        """BUR-OPT-SEMIPULITO in the cards: 3..9 of hearts and a jolly."""
        north_south = {"melds": ["3H 4H 5H 6H 7H 8H 9H JK"], "hands": ["", ""], "pozzetto": True}
        east_west = {"melds": [], "hands": ["", ""], "pozzetto": True}
        # melded: 25 + 20 + 30 = 75
        plain = scored(north_south, east_west, mode="cards")
        assert plain.points[0] == 75 + 100  # a sporco: 175
        chosen = scored(north_south, east_west, table=options(semipulito=True), mode="cards")
        assert chosen.points[0] == 75 + 150  # a semipulito: 225

    def test_an_illegal_meld_is_refused_naming_its_field_bur_melds(self):
        [violation] = refused_entry(
            {"melds": ["3H 4H 5H", "2C 2D 2S"], "hands": ["", ""], "pozzetto": True},
            {"melds": [], "hands": ["", ""], "pozzetto": True},
            mode="cards",
        )
        assert violation.rule == "BUR-MELDS"
        assert violation.params["field"] == "pairs[0].melds[1]"
        assert "pairs[0].melds[1]" in violation.message

    def test_more_copies_than_the_deck_holds_are_refused(self):
        [violation] = refused_entry(
            {"melds": ["3H 4H 5H"], "hands": ["3H", "3H"], "pozzetto": True},
            {"melds": [], "hands": ["", ""], "pozzetto": True},
            mode="cards",
        )
        assert violation.rule == "CARD-2"

    def test_closing_by_cards_needs_a_burraco_bur_close(self):
        violations = refused_entry(
            {"melds": ["3H 4H 5H"], "hands": ["", ""], "closed": True, "pozzetto": True},
            {"melds": [], "hands": ["", ""], "pozzetto": True},
            mode="cards",
        )
        assert [(v.rule, v.code) for v in violations] == [("BUR-CLOSE", "closed_without_burraco")]

    def test_the_partner_who_closed_holds_no_card_bur_close(self):
        violations = refused_entry(
            {
                "melds": ["3H 4H 5H 6H 7H 8H 9H"],
                "hands": ["4C", "5C"],
                "closed": True,
                "pozzetto": True,
            },
            {"melds": [], "hands": ["", ""], "pozzetto": True},
            mode="cards",
        )
        assert [(v.rule, v.code, v.params["field"]) for v in violations] == [
            ("BUR-CLOSE", "closer_holds_cards", "pairs[0].hands")
        ]

    def test_game_reads_and_scores_an_entry_by_cards(self):
        table = options()
        sheet = GAME.read_entry(
            table,
            entry(
                {"melds": ["QD KD AD"], "hands": ["", "5S"], "pozzetto": True},
                {"melds": [], "hands": ["6S", ""], "pozzetto": True},
                mode="cards",
            ),
            SEATS,
        )
        # North-South: Q K A = 10 + 10 + 15 = 35, less the 5 = 30; East-West: -5
        assert GAME.score_entry(table, sheet, SEATS).points == (30, -5, 30, -5)
