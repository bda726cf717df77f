"""Play a Knock Rummy match of three through the pages on a phone-sized screen."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import record_hand, start_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _record(page, seats: dict[int, str], knocker: int):
    fields = {seat: {"Cards still in hand": hand} for seat, hand in seats.items()}
    fields[knocker]["knocked"] = True
    record_hand(page, fields)


class TestKnockRummyMatch:
    def test_three_players_play_to_the_winner(self, new_phone):
        page = new_phone()
        start_table(
            page,
            "Knock Rummy",
            ["Anna", "Bruno", "Carla"],
            lambda page: page.get_by_label("Game ends at").fill("20"),
        )
        totals = [page.get_by_test_id(f"total-{seat}") for seat in range(3)]

        # KR-SCORE: Anna knocks with A♣ 2♦ = 3; (5-3) + (7-3) = 6.
        _record(page, {0: "AC 2D", 1: "5C", 2: "4D 3C"}, knocker=0)
        expect(totals[0]).to_have_text("6")

        # A knock on 20 points is refused with its rule; nothing changes.
        _record(page, {0: "KH QH", 1: "2S", 2: "9C"}, knocker=0)
        expect(page.get_by_role("alert")).to_contain_text("KR-KNOCK")
        expect(totals[0]).to_have_text("6")

        # Bruno knocks with 2♠: (20-2) + (9-2) = 25 reaches 20 and ends the game (KR-MATCH):
        # Bruno 25 + 100; Anna, one round won, 6 + 25; Carla 0.
        form = page.locator("#hand-form")
        form.locator('[data-seat-row="0"]').get_by_label("knocked").uncheck()
        form.locator('[data-seat-row="1"]').get_by_label("knocked").check()
        form.get_by_role("button", name="Record hand").click()
        expect(page.get_by_test_id("winner")).to_contain_text("Bruno wins the match!")
        expect(totals[1]).to_have_text("125")
        expect(totals[0]).to_have_text("31")
        expect(totals[2]).to_have_text("0")
        expect(page.get_by_test_id("match-bonuses")).to_contain_text("KR-MATCH")
        expect(page.locator("#hand-form")).to_have_count(0)
