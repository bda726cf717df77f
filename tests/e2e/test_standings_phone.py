"""A league's standings on a 360-pixel phone: no sideways scrolling, the deciding columns in
view, the abbreviations explained on the page, the rest one tap away."""

import pytest
from playwright.sync_api import expect

from games.clubs import services as club_services
from tests.games.clubs_setup import club_world
from tests.games.standings.test_standings_recompute import small_season

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]


def test_the_standings_fit_a_phone_and_explain_their_columns(new_phone):
    world = club_world()
    small_season(world)
    club_services.league_set_public(actor=world.admin, league_id=world.league.pk, public=True)
    page = new_phone()
    page.goto(f"/clubs/{world.club.slug}/l/{world.league.slug}/standings/")
    key = page.get_by_test_id("standings-key")
    # Anna 2-0 leads (the season worked by hand in test_standings_recompute).
    expect(key.locator("tbody tr").first).to_contain_text("Anna")
    for cell in key.locator("tbody tr").first.locator("td, th").all():
        expect(cell).to_be_in_viewport()
    expect(page.get_by_test_id("standings-abbr")).to_contain_text("P: matches played")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.get_by_text("All columns: rating, hands, points, counts").click()
    expect(page.locator("table.standings thead")).to_contain_text("Hands won")
