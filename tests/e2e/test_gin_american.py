"""Gin's American scoring in a real browser: an Oklahoma table records a hand under a spade
upcard and shows the doubled score with its bonus lines (GIN-OKLAHOMA, GIN-SPADES); a
Hollywood table shows its three games' columns (GIN-HOLLYWOOD). Both axe-checked."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start(page, preset: str, target: str, *, check_options: bool = False) -> None:
    page.goto("/")
    page.get_by_label(preset, exact=True).check()
    if check_options:
        # The Gin options in both themes: every switch and bonus a named control.
        page.get_by_test_id("options-gin").get_by_text("House rules").click()
        expect(page.get_by_label("Box bonus, for each hand won")).to_be_visible()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page, "form", impacts=BLOCKING) == [], scheme
        page.emulate_media(color_scheme="light")
    page.get_by_test_id("gin-target").select_option(target)
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def test_an_oklahoma_table_doubles_a_hand_under_a_spade_upcard(new_phone):
    page = new_phone()
    _start(page, "Oklahoma", "150", check_options=True)
    form = page.locator("#hand-form")
    form.get_by_label("Anna", exact=True).check()
    form.get_by_label("Knock", exact=True).check()
    # GIN-OKLAHOMA: the 9♠ turned up at the deal lets a knock keep 9.
    form.get_by_label("Upcard at the deal").select_option("9S")
    form.get_by_label("Knocker's deadwood").fill("4")
    form.get_by_label("Defender's deadwood, after lay-offs").fill("20")
    form.get_by_role("button", name="Record hand").click()
    # GIN-SCORE-KNOCK: 20 - 4 = 16; GIN-SPADES: a spade upcard doubles it, 32.
    expect(page.get_by_test_id("total-0")).to_have_text("32")
    expect(page.get_by_test_id("total-1")).to_have_text("0")
    hand = page.locator('[data-hand="1"]')
    expect(hand).to_contain_text("upcard 9♠")
    hand.get_by_text("How it scored").click()
    lines = hand.locator(".items li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("Anna +16: the difference in counts after a knock")
    expect(lines.nth(1)).to_contain_text("Anna +16: spade upcard: the hand counts double")
    expect(lines.nth(1).get_by_role("link", name=re.compile("GIN-SPADES"))).to_be_visible()
    assert axe_violations(page, impacts=BLOCKING) == []


def test_a_hollywood_table_shows_its_three_games(new_phone):
    page = new_phone()
    _start(page, "Hollywood", "100")
    form = page.locator("#hand-form")
    expect(form.get_by_label("Upcard at the deal")).to_have_count(0)
    for defender, total in ((20, "45"), (10, "80")):
        # GIN-GIN: 25 + the defender's count; Anna's first win is game 1's, her second
        # games 1 and 2's (GIN-HOLLYWOOD).
        form = page.locator("#hand-form")
        form.get_by_label("Anna", exact=True).check()
        form.get_by_label("Gin", exact=True).check()
        form.get_by_label("Defender's deadwood, after lay-offs").fill(str(defender))
        form.get_by_role("button", name="Record hand").click()
        expect(page.get_by_test_id("game-1-total-0")).to_have_text(total)
    games = page.get_by_test_id("games")
    expect(games.get_by_role("columnheader")).to_have_text(["Game 1", "Game 2", "Game 3"])
    # Game 1: 45 + 35 = 80; game 2: 35; game 3 not yet opened.
    expect(page.get_by_test_id("game-2-total-0")).to_have_text("35")
    expect(page.get_by_test_id("game-3-total-0")).to_have_text("0")
    expect(page.get_by_test_id("game-1-total-1")).to_have_text("0")
    # The match's total is every game's points: 80 + 35.
    expect(page.get_by_test_id("total-0")).to_have_text("115")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#board", impacts=BLOCKING) == [], scheme
