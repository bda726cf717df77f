"""The room's big screen follows a table live, and a table's phone keeps its screen on."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.conftest import record_gin_hand

# Screenshots to look at (ignored by git): the repository's test-artifacts/.
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin_table(page):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def test_the_room_screen_shows_a_save_without_reloading(new_phone, browser, live_server):
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
    expect(screen.get_by_test_id("tv-total-0")).to_have_text("13")
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


def _night_of_six(world):
    """A Swiss Gin night of six of the club's players, its first round started."""
    from games.tournaments import services
    from tests.factories import PlayerFactory

    for name in ("Dario", "Elena", "Franco"):
        PlayerFactory(club=world.club, actor=world.admin, name=name)
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin night",
        rounds=1,
        round_minutes=40,
        format="swiss",
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=tournament.pk,
        player_ids=[p.pk for p in world.club.players.all()],
    )
    services.round_start(actor=world.admin, tournament_id=tournament.pk)
    return tournament


def _font_px(locator) -> float:
    return float(locator.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))


def test_a_night_s_room_screen_fills_a_tv_without_a_session(browser, live_server):
    """The director's room link on a 1920 x 1080 TV: no account, no menus, the three tables,
    the clock and the standings; after the night, the final standings and no clock."""
    from games.tournaments import services
    from games.tournaments.models import RoundTable
    from tests.games.clubs_setup import club_world
    from tests.games.tournaments.helpers import append, finish_gin_table
    from tests.payloads import quick

    world = club_world()
    tournament = _night_of_six(world)
    token = services.room_link_make(actor=world.admin, tournament_id=tournament.pk)
    first = RoundTable.objects.filter(round__tournament=tournament).order_by("number")[0]
    ARTIFACTS.mkdir(exist_ok=True)
    # Classic Gin, GIN-KNOCK: a knock on 3 against 20 deadwood scores the difference, 17.
    append(first.table_id, 1, "hand_recorded", quick(0, "knock", 3, 20))
    for scheme, language in (("light", "en"), ("dark", "en"), ("light", "it"), ("dark", "it")):
        context = browser.new_context(
            viewport={"width": 1920, "height": 1080},
            color_scheme=scheme,
            locale=language,
            extra_http_headers={"Accept-Language": language},
            base_url=live_server.url,
        )
        screen = context.new_page()
        screen.goto(f"/room/{token}/")
        expect(screen.get_by_role("heading", level=1)).to_have_text("Gin night")
        expect(screen.get_by_test_id("room-table")).to_have_count(3)
        left = {"en": "left", "it": "rimast"}[language]
        expect(screen.get_by_test_id("room-clock")).to_contain_text(left)
        for chrome in ("Log in", "Log out", "My clubs"):
            expect(screen.get_by_text(chrome, exact=True)).to_have_count(0)
        # Each table's seats and running totals, the first after its one hand.
        card = screen.get_by_test_id("room-table").first
        expect(card.get_by_test_id("room-total")).to_have_text(["17", "0"])
        expect(card.get_by_test_id("room-hands")).to_have_text(
            {"en": "1 hand", "it": "1 mano"}[language]
        )
        # The board fills the TV: the whole width and height, the tables beside the standings.
        board = screen.locator("#room-board").bounding_box()
        assert board["width"] > 1800 and board["height"] > 950, board
        tables = screen.locator(".room-tables").bounding_box()
        standings = screen.locator(".room-standings").bounding_box()
        assert standings["x"] > tables["x"] + tables["width"] - 1, (tables, standings)
        # Read from across the room: the totals, names and tie-break note in big type.
        assert _font_px(card.get_by_test_id("room-total").first) >= 36
        assert _font_px(screen.locator(".room-standings p.small")) >= 20
        assert axe_violations(screen) == [], (scheme, language)
        screen.screenshot(path=str(ARTIFACTS / f"room-{scheme}-{language}.png"))
        context.close()

    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, base_url=live_server.url
    )
    screen = context.new_page()
    screen.goto(f"/room/{token}/")
    for pairing in RoundTable.objects.filter(round__tournament=tournament).exclude(pk=first.pk):
        finish_gin_table(pairing.table_id)
    # The first table, after its knock: a gin on 30 (25 + 30) takes it past 50, confirmed.
    append(first.table_id, 2, "hand_recorded", quick(0, "gin", 0, 30))
    append(first.table_id, 3, "result_confirmed", {"seat": 0})
    append(first.table_id, 4, "result_confirmed", {"seat": 1})
    services.tournament_finish(actor=world.admin, tournament_id=tournament.pk)
    # Within a poll: the night is over, the clock gone, the standings final.
    expect(screen.get_by_test_id("room-final")).to_have_text("Final standings")
    expect(screen.locator("[data-ends-at]")).to_have_count(0)
    expect(screen.get_by_test_id("standing-row")).to_have_count(6)
    context.close()
