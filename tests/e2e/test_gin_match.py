"""Play Gin matches through the pages in a real browser on a phone-sized screen."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import record_gin_hand, share_link, void_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_table(page, preset_label="Big Gin", target="100"):
    page.goto("/")
    page.get_by_label(preset_label, exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_label("Play to").select_option(target)
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


class TestGinMatch:
    def test_a_short_match_to_the_winner_with_a_correction(self, new_phone):
        page = new_phone()
        _start_table(page)
        total_a, total_b = page.get_by_test_id("total-0"), page.get_by_test_id("total-1")

        record_gin_hand(page, "Anna", "Knock", knocker=7, defender=20)
        expect(total_a).to_have_text("13")

        # An illegal knock is refused on the spot with its rule; nothing changes.
        record_gin_hand(page, "Bruno", "Knock", knocker=14, defender=20)
        expect(page.get_by_role("alert")).to_contain_text("GIN-KNOCK")
        expect(total_b).to_have_text("0")

        record_gin_hand(page, "Bruno", "Gin", defender=30)
        expect(total_b).to_have_text("55")

        # Void hand 1 from the history: it stays, struck through, and stops counting.
        void_hand(page, 1, "misdeal")
        expect(total_a).to_have_text("0")

        # The cards way: the engine finds Anna's Big Gin and Bruno's deadwood.
        form = page.locator("#hand-form")
        form.get_by_label("Anna", exact=True).check()
        form.get_by_label("Cards", exact=True).check()
        form.locator("[data-picker=knocker_cards]").get_by_label("or type them").fill(
            "AS 2S 3S 4S 5H 6H 7H 8H JC JD JH"
        )
        form.locator("[data-picker=defender_cards]").get_by_label("or type them").fill(
            "KS KC QD QS 9C 8C 5D 6D 10H 2D"
        )
        form.get_by_role("button", name="Record hand").click()
        # GIN-SCORE-GIN (Big Gin): 31 + Bruno's 10+10+10+10+9+8+5+6+10+2 = 80 -> 111.
        expect(total_a).to_have_text("111")
        expect(page.get_by_test_id("winner")).to_contain_text("Anna wins the match!")
        expect(page.locator("#hand-form")).to_have_count(0)

    def test_a_second_phone_sees_new_hands_without_reloading(self, new_phone):
        keeper = new_phone()
        _start_table(keeper, preset_label="Classic", target="50")
        viewer_link = share_link(keeper, "viewer")

        watcher = new_phone()
        watcher.goto(viewer_link)
        expect(watcher.get_by_test_id("total-0")).to_have_text("0")
        expect(watcher.locator("#hand-form")).to_have_count(0)

        record_gin_hand(keeper, "Anna", "Knock", knocker=2, defender=30)
        # Polling every 2 s: the watcher's scoreboard follows, with no reload (how fast is the
        # live bench's to say, not a test's).
        expect(watcher.get_by_test_id("total-0")).to_have_text("28")
        expect(watcher.locator('[data-hand="1"]')).to_be_visible()


class TestItalian:
    def test_the_table_speaks_italian_to_an_italian_phone(self, new_phone):
        page = new_phone(locale="it-IT")
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "it")
        expect(page.get_by_role("button", name="Inizia la partita")).to_be_visible()
