"""A night's room screen and a group's page follow their streams through a real Pushpin
(docs/live.md): what changes shows without a poll (the night's polls set to a minute; a
group's page has none)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.pushpin import pushpin  # noqa: F401 (a fixture)
from tests.e2e.test_players_book import _start_group
from tests.e2e.test_room_screen import _night_of_six

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _streaming(page) -> None:
    expect(page.locator("body")).to_have_attribute("data-live-state", "flowing")


def test_the_room_screen_follows_a_round_by_the_stream(new_phone, pushpin):  # noqa: F811
    from games.tournaments import services
    from games.tournaments.models import RoundTable
    from tests.games.clubs_setup import club_world
    from tests.games.tournaments.helpers import append, finish_gin_table
    from tests.payloads import quick

    world = club_world()
    tournament = _night_of_six(world)
    token = services.room_link_make(actor=world.admin, tournament_id=tournament.pk)
    first, second, _third = RoundTable.objects.filter(round__tournament=tournament).order_by(
        "number"
    )
    screen = new_phone(base_url=pushpin.url, viewport={"width": 1920, "height": 1080})
    screen.goto(f"/room/{token}/")
    tables = screen.get_by_test_id("room-table")
    expect(tables).to_have_count(3)
    _streaming(screen)
    expect(tables.nth(0)).to_have_attribute("data-status", "playing")

    # A hand at the second table: its running totals (GIN-KNOCK: 20 - 3 = 17).
    append(second.table_id, 1, "hand_recorded", quick(0, "knock", 3, 20))
    expect(tables.nth(1).get_by_test_id("room-total").first).to_have_text("17")
    # The first table finishes (its gin, 25 + 30, past Classic 50's, and both confirm).
    finish_gin_table(first.table_id)
    expect(tables.nth(0)).to_have_attribute("data-status", "done")
    expect(tables.nth(0).get_by_test_id("room-total").first).to_have_text("55")
    expect(tables.nth(1)).to_have_attribute("data-status", "playing")


def test_the_director_s_open_decision_stays_open_when_the_round_moves(new_phone, pushpin):  # noqa: F811
    from django.conf import settings
    from django.test import Client

    from games.tournaments.models import RoundTable
    from tests.games.clubs_setup import club_world
    from tests.games.tournaments.helpers import append
    from tests.payloads import quick

    world = club_world()
    tournament = _night_of_six(world)
    _first, second, _third = RoundTable.objects.filter(round__tournament=tournament).order_by(
        "number"
    )
    director = Client()
    director.force_login(world.admin)
    page = new_phone(base_url=pushpin.url)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": director.session.session_key}
    page.context.add_cookies([{**cookie, "url": pushpin.url}])
    page.goto(f"/clubs/{world.club.slug}/n/{tournament.pk}/")
    _streaming(page)
    decide = page.get_by_test_id("decide").first
    decide.locator("summary").click()
    expect(decide).to_have_attribute("open", "")

    # Another table's hand redraws the round (GIN-KNOCK: 20 - 3 = 17 to the knocker).
    append(second.table_id, 1, "hand_recorded", quick(0, "knock", 3, 20))
    expect(page.locator("#round")).to_contain_text("17")
    expect(page.get_by_test_id("decide").first).to_have_attribute("open", "")
    expect(page.get_by_test_id("decide").nth(1)).not_to_have_attribute("open", "")


def test_a_group_s_page_shows_a_new_table_and_its_end_by_the_stream(new_phone, pushpin):  # noqa: F811
    from games.clubs.models import Group
    from games.tables import services as table_services
    from tests.games.tournaments.helpers import finish_gin_table

    page = new_phone(base_url=pushpin.url)
    _start_group(page)
    _streaming(page)
    group = Group.objects.get(name="Sunday at Nonna's")
    # Another phone of the group starts a table (Classic Gin to 50) and plays it out.
    table = table_services.group_table_create(
        group=group,
        seat_players=list(group.players.order_by("name")[:2]),
        variant="gin",
        options={"preset": "classic", "target": 50},
    )
    listed = page.get_by_test_id("group-tables").locator("li")
    expect(listed).to_have_count(1)
    expect(listed.first).to_contain_text("Anna – Bruno")
    expect(listed.first).to_contain_text("In play")
    finish_gin_table(table.id)
    expect(listed.first).to_contain_text("Finished")
