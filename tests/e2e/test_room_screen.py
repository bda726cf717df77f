"""The room's big screen follows a table live, and a table's phone keeps its screen on."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import record_gin_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin_table(page):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def test_the_room_screen_shows_a_save_within_two_seconds(new_phone, browser, live_server):
    phone = new_phone()
    _start_gin_table(phone)
    # The screen is a second browser window of the same phone's session (as a laptop
    # opened with the table's link would be): big, read-only, no form.
    screen = phone.context.new_page()
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(phone.url + "tv/")
    expect(screen.get_by_test_id("tv-total-0")).to_have_text("0")
    expect(screen.locator("form#hand-form")).to_have_count(0)

    # Anna knocks with 7 against Bruno's 20 deadwood: 20 - 7 = 13 points (GIN-KNOCK).
    record_gin_hand(phone, "Anna", "Knock", knocker=7, defender=20)
    expect(phone.get_by_test_id("total-0")).to_have_text("13")
    expect(screen.get_by_test_id("tv-total-0")).to_have_text("13", timeout=2_000)
    expect(screen.get_by_test_id("tv-last")).to_contain_text("Hand 1")


def test_a_table_page_keeps_the_screen_on_with_a_toggle(new_phone):
    page = new_phone()
    _start_gin_table(page)
    toggle = page.get_by_role("button", name="Screen on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()  # the choice is this phone's and stays
    expect(page.get_by_role("button", name="Screen on")).to_have_attribute("aria-pressed", "false")

    # Elsewhere there is nothing to keep awake.
    page.goto("/referee/")
    expect(page.get_by_role("button", name="Screen on")).to_be_hidden()
