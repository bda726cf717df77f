"""Rummy40, Ramino and Knock Rummy matches through the pages on a phone-sized screen, each
with a correction from the history; and two phones on one Ramino table."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import (
    amend_hand,
    expect_chart,
    record_hand,
    share_link,
    start_table,
    void_hand,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HAND = "Cards still in hand"
MELDED = "Cards melded this hand"


def _totals(page, seats: int):
    return [page.get_by_test_id(f"total-{seat}") for seat in range(seats)]


class TestRummy40Match:
    def test_two_players_to_the_limit_with_an_amended_hand(self, new_phone):
        page = new_phone()
        start_table(page, "Rummy40", ["Anna", "Bruno"])  # limit 100, opening 40
        anna, bruno = _totals(page, 2)

        # R40-END, R40-VALUE: Anna goes out; Bruno adds K♥ Q♥ 5♣ = 10 + 10 + 5 = 25.
        record_hand(
            page,
            {
                0: {HAND: "", MELDED: "7S 8S 9S", "went out": True},
                1: {HAND: "KH QH 5C"},
            },
        )
        expect(bruno).to_have_text("25")
        # Bruno goes out; Anna adds 🃏 9♦ = 25 + 9 = 34, and 20 for a failed opening
        # (R40-OPEN-PENALTY): 54.
        record_hand(
            page,
            {
                0: {HAND: "JK 9D", "failed openings": "1"},
                1: {HAND: "", MELDED: "2H 3H 4H", "went out": True},
            },
        )
        expect(anna).to_have_text("54")
        expect_chart(page, 2)

        # Amended: Anna held 9♦ 2♣, not the joker: 9 + 2 + 20 = 31; Bruno keeps 25.
        amend_hand(page, 2, {0: {HAND: "9D 2C"}}, "miscounted")
        expect(anna).to_have_text("31")
        expect(bruno).to_have_text("25")

        # Anna goes out; Bruno adds K♠ K♦ K♣ 🃏 10♥ J♦ = 30 + 25 + 10 + 10 = 75: 25 + 75 =
        # 100 reaches the limit, so Bruno loses and Anna, 31, wins (R40-MATCH, two players).
        record_hand(
            page,
            {
                0: {HAND: "", MELDED: "10S JS QS", "went out": True},
                1: {HAND: "KS KD KC JK 10H JD"},
            },
        )
        expect(page.get_by_test_id("winner")).to_contain_text("Anna wins the match!")
        expect(page.get_by_test_id("loser")).to_contain_text("Bruno reached the limit")
        expect(anna).to_have_text("31")
        expect(bruno).to_have_text("100")
        expect_chart(page, 2)
        expect(page.get_by_test_id("dealer")).to_have_count(0)


class TestRaminoMatch:
    def test_three_players_with_casino_scoring_and_an_amended_hand(self, new_phone):
        page = new_phone()

        def options(page):
            page.get_by_label("Hands").fill("2")
            page.get_by_test_id("options-ramino").get_by_text("House rules").click()
            page.get_by_label("Casino scoring").check()

        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"], options)
        anna, bruno, carla = _totals(page, 3)

        # RAM-OPT-CASINO values: Q♠ 40, ace 15, 10 J Q K 10, 2-9 5, joker 0.
        # Bruno goes out, having melded 10♥ J♥ Q♥ K♥ (40), three 5s (15), three 8s (15) = 70.
        # RAM-SCORE: Anna A♠ 9♣ = 15 + 5 = 20, Carla Q♠ 3♦ 4♦ = 40 + 5 + 5 = 50: Bruno +70.
        # Casino: Bruno +70 more, split 35 and 35 between Anna and Carla.
        # Anna -20 - 35 = -55; Bruno 70 + 70 = 140; Carla -50 - 35 = -85.
        record_hand(
            page,
            {
                0: {HAND: "AS 9C"},
                1: {HAND: "", MELDED: "10H JH QH KH 5S 5C 5D 8D 8C 8S", "went out": True},
                2: {HAND: "QS 3D 4D"},
            },
        )
        expect(bruno).to_have_text("140")
        expect(anna).to_have_text("-55")
        expect(carla).to_have_text("-85")
        # Ramino losers go below 0: the chart draws its zero line inside the plot.
        expect_chart(page, 3)

        # Amended: the Q♠ was not in Carla's hand, only 3♦ 4♦ = 10. Bruno +30 + 70 = 100;
        # Anna still -55; Carla -10 - 35 = -45.
        amend_hand(page, 1, {2: {HAND: "3D 4D"}}, "the queen was on the table")
        expect(bruno).to_have_text("100")
        expect(carla).to_have_text("-45")
        expect(anna).to_have_text("-55")

        # Carla closes in one turn, melding 7♣ 7♠ 7♥ 9♦ 9♠ 9♥ 4♠ 4♣ 4♥ 6♣ (5 each, 50) and
        # K♦ K♠ K♥ (30) = 80. RAM-SCORE: Anna K♣ 2♠ = 10 + 5 = 15, Bruno 🃏 3♣ = 0 + 5 = 5:
        # Carla +20. Casino: Carla +80, Anna and Bruno -40 each. Before doubling Anna -55,
        # Bruno -45, Carla +100; RAM-HANDCLOSE doubles: -110, -90, +200.
        # Totals: Anna -55 - 110 = -165; Bruno 100 - 90 = 10; Carla -45 + 200 = 155.
        record_hand(
            page,
            {
                0: {HAND: "KC 2S"},
                1: {HAND: "JK 3C"},
                2: {
                    HAND: "",
                    MELDED: "7C 7S 7H 9D 9S 9H KD KS KH 4S 4C 4H 6C",
                    "went out": True,
                    "closed in one turn": True,
                },
            },
        )
        expect(page.get_by_test_id("winner")).to_contain_text("Carla wins the match!")
        expect(anna).to_have_text("-165")
        expect(bruno).to_have_text("10")
        expect(carla).to_have_text("155")
        expect_chart(page, 3)


class TestKnockRummyMatch:
    def test_two_players_to_the_end_with_a_voided_hand(self, new_phone):
        page = new_phone()
        start_table(
            page,
            "Knock Rummy",
            ["Anna", "Bruno"],
            lambda page: page.get_by_label("Game ends at").fill("20"),
        )
        anna, bruno = _totals(page, 2)

        # KR-VALUE, KR-SCORE (two players: the difference): Anna knocks with A♣ 2♦ = 3,
        # Bruno holds 9♠ 8♠ = 17: Anna 17 - 3 = 14.
        record_hand(page, {0: {HAND: "AC 2D", "knocked": True}, 1: {HAND: "9S 8S"}})
        expect(anna).to_have_text("14")
        # Anna knocks with A♦ = 1 against 4♠ = 4: 3 more, 17.
        record_hand(page, {0: {HAND: "AD", "knocked": True}, 1: {HAND: "4S"}})
        expect(anna).to_have_text("17")

        # Voided (misdeal): hand 2 stops counting, Anna is back to 14.
        void_hand(page, 2, "misdeal")
        expect(anna).to_have_text("14")
        expect(bruno).to_have_text("0")
        expect_chart(page, 2)

        # Bruno knocks with A♥ 2♠ = 3 against K♣ Q♣ 5♦ = 25: 22, past 20, the game ends
        # (KR-MATCH): Bruno 22 + 100 = 122; Anna, one round won (hand 2 is void), 14 + 25 =
        # 39. The lines stop at 14 and 22: the bonuses show on the scoreboard only.
        record_hand(
            page,
            {0: {HAND: "KC QC 5D"}, 1: {HAND: "AH 2S", "knocked": True}},
        )
        expect(page.get_by_test_id("winner")).to_contain_text("Bruno wins the match!")
        expect(bruno).to_have_text("122")
        expect(anna).to_have_text("39")
        expect_chart(page, 2)
        expect(page.get_by_test_id("chart")).to_contain_text("leave out the end-of-match bonuses")


class TestTwoPhonesOnRamino:
    def test_the_second_phone_sees_a_hand_and_the_chart_without_reloading(self, new_phone):
        keeper = new_phone()
        start_table(keeper, "Ramino", ["Anna", "Bruno", "Carla"])
        link = share_link(keeper, "scorekeeper")

        other = new_phone()
        other.goto(link)
        expect(other.get_by_test_id("total-0")).to_have_text("0")
        expect(other.get_by_test_id("chart")).to_have_count(0)
        # Seat 0 deals the first hand.
        expect(other.locator('[data-seat="0"]').get_by_test_id("dealer")).to_have_text("deals next")

        # RAM-VALUE, RAM-SCORE: Anna goes out; Bruno K♥ Q♥ 5♣ = 10 + 10 + 5 = 25, Carla
        # 🃏 2♦ = 20 + 2 = 22: Anna +47, Bruno -25, Carla -22.
        record_hand(
            keeper,
            {
                0: {HAND: "", MELDED: "QS KS AS 7H 7D 7C", "went out": True},
                1: {HAND: "KH QH 5C"},
                2: {HAND: "JK 2D"},
            },
        )
        expect(keeper.get_by_test_id("total-0")).to_have_text("47")

        # Polling every 2 s: the other phone follows, with no reload.
        expect(other.get_by_test_id("total-0")).to_have_text("47")
        expect(other.get_by_test_id("total-1")).to_have_text("-25")
        expect(other.get_by_test_id("total-2")).to_have_text("-22")
        expect(other.locator('[data-hand="1"]')).to_be_visible()
        expect_chart(other, 3)
        # The chart's SVG <title> names the drawing, never the page.
        expect(other).to_have_title("Anna – Bruno – Carla · RummyRef")
        # The deal has passed to Bruno.
        expect(other.locator('[data-seat="1"]').get_by_test_id("dealer")).to_be_visible()
        expect(other.get_by_test_id("dealer")).to_have_count(1)
