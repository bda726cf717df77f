"""The standings on the season page, the league's standings page (public or not), and the
way back from a league table to its season.

The season is test_standings_recompute's, worked by hand there: Anna 2–0 (105 for, 0
against), Carla 1–2 (100, 131) placed above Bruno 1–2 (81, 155) by points difference.
"""

import re

import pytest
from django.test import Client

from games.clubs import services as club_services
from games.models import SeasonStandings
from games.standings import services as standings_services
from tests.games.clubs_setup import club_world, open_autumn, record
from tests.games.standings.test_standings_recompute import small_season
from tests.payloads import quick

# Standings are recomputed by tasks queued on commit: here they run in-process, whatever
# broker CI configures (tests/games/test_standings_worker.py covers real workers).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def played_world(django_capture_on_commit_callbacks):
    """A club world whose season has test_standings_recompute's small season played (its
    tables kept as world.tables), what that queued run."""
    with django_capture_on_commit_callbacks(execute=True):
        world = club_world()
        world.tables = small_season(world)
    return world


def as_user(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def season_url(world) -> str:
    return f"/clubs/{world.club.slug}/l/{world.league.slug}/s/{world.season.pk}/"


def standings_url(world) -> str:
    return f"/clubs/{world.club.slug}/l/{world.league.slug}/standings/"


def rows(page: str) -> list[list[str]]:
    """Return the standings' rows, each as the text of its cells."""
    start = page.index('<table class="standings"')
    body = page[start : page.index("</table>", start)]
    found = []
    for row in re.findall(r"<tr data-player=.*?</tr>", body, re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        found.append([re.sub(r"<[^>]+>", "", c).strip() for c in cells])
    return found


def without_rating(row: list[str]) -> list[str]:
    """Return a row without its rating cell (the 7th), which openskill works out."""
    return row[:6] + row[7:]


class TestSeasonPage:
    def test_the_rows_show_the_record_points_counts_and_tiebreak(self, played_world):
        page = as_user(played_world.member).get(season_url(played_world)).content.decode()
        anna, carla, bruno = (" ".join(without_rating(row)) for row in rows(page))
        # rank, name, P W L, difference, (rating), hands won, for, against, average for,
        # knocks gins big gins undercuts, placed by
        assert anna == "1 Anna 2 2 0 105 2 105 0 52.5 0 2 0 0 "
        assert carla == "2 Carla 3 1 2 -31 3 100 131 33.3 1 2 0 0 Points difference"
        assert bruno == "3 Bruno 3 1 2 -74 2 81 155 27.0 1 1 0 0 "
        assert "4 matches counted" in page
        assert "ties broken by Head to head, Points difference" in page
        # Members reach each player's page from the table.
        assert f'href="/clubs/{played_world.club.slug}/players/{played_world.anna.pk}/"' in page

    def test_the_rating_shown_is_the_stored_conservative_rating(self, played_world):
        page = as_user(played_world.member).get(season_url(played_world)).content.decode()
        stored = SeasonStandings.objects.get(season=played_world.season).ratings
        assert rows(page)[0][6] == f"{stored[str(played_world.anna.pk)]['conservative']:.1f}"

    def test_standings_behind_the_logs_say_so_and_poll(
        self, played_world, django_capture_on_commit_callbacks
    ):
        # A correction whose recompute has not landed yet (its task is captured, not run).
        with django_capture_on_commit_callbacks(execute=False):
            record(
                played_world.tables[0],
                {**quick(0, "gin", 0, 40), "hand": 1},
                played_world.member,
                "hand_amended",
            )
        page = as_user(played_world.member).get(season_url(played_world)).content.decode()
        assert "Updating: a match has just finished or been corrected" in page
        assert 'hx-trigger="every 2s"' in page
        block_url = season_url(played_world) + "standings/"
        assert f'hx-get="{block_url}"' in page
        standings_services.season_standings_recompute(season_id=played_world.season.pk)
        block = as_user(played_world.member).get(block_url, HTTP_HX_REQUEST="true").content.decode()
        assert "<html" not in block and "hx-trigger" not in block
        assert without_rating(rows(block)[0])[:8] == ["1", "Anna", "2", "2", "0", "115", "2", "115"]

    def test_a_season_without_finished_matches(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            world = club_world()
        page = as_user(world.member).get(season_url(world)).content.decode()
        assert "No finished matches yet" in page and "standings.csv" not in page


class TestLeagueStandingsPage:
    def test_a_private_league_sends_visitors_to_sign_in_and_hides_from_outsiders(
        self, played_world
    ):
        anonymous = as_user().get(standings_url(played_world))
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
        assert as_user(played_world.outsider).get(standings_url(played_world)).status_code == 404

    def test_a_public_league_shows_its_standings_to_anyone_read_only(self, played_world):
        club_services.league_set_public(
            actor=played_world.admin, league_id=played_world.league.pk, public=True
        )
        response = as_user().get(standings_url(played_world))
        page = response.content.decode()
        assert response.status_code == 200
        assert [row[1] for row in rows(page)] == ["Anna", "Carla", "Bruno"]
        # Read-only: the only form that posts is the language switch every page has; no
        # links to tables or players.
        assert page.count('method="post"') == 1 and 'action="/i18n/setlang/"' in page
        assert "/t/" not in page and "/players/" not in page

    def test_the_latest_season_is_shown_and_others_can_be_chosen(self, played_world):
        autumn = open_autumn(played_world)
        client = as_user(played_world.member)
        latest = client.get(standings_url(played_world)).content.decode()
        assert "Autumn" in latest and "No finished matches yet" in latest
        spring = client.get(
            standings_url(played_world), {"season": played_world.season.pk}
        ).content.decode()
        assert [row[1] for row in rows(spring)] == ["Anna", "Carla", "Bruno"]
        assert f'<option value="{autumn.pk}">Autumn</option>' in spring
        # An unknown season falls back to the latest rather than failing.
        assert client.get(standings_url(played_world), {"season": "x"}).status_code == 200

    def test_the_league_page_links_to_it(self, played_world):
        page = (
            as_user(played_world.member)
            .get(f"/clubs/{played_world.club.slug}/l/{played_world.league.slug}/")
            .content.decode()
        )
        assert f'href="{standings_url(played_world)}"' in page


class TestTablePage:
    def test_a_league_table_links_back_to_its_season(self, played_world):
        page = as_user(played_world.member).get(f"/t/{played_world.tables[0].id}/").content.decode()
        assert f'href="{season_url(played_world)}"' in page and "Spring" in page

    def test_a_practice_table_says_it_does_not_count(self, played_world):
        table = played_world.table(played_world.anna, played_world.carla, practice=True)
        page = as_user(played_world.member).get(f"/t/{table.id}/").content.decode()
        assert "practice: not counted" in page


def test_the_standings_speak_italian(played_world):
    club_services.league_set_public(
        actor=played_world.admin, league_id=played_world.league.pk, public=True
    )
    page = as_user().get(standings_url(played_world), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<h2>Classifica" in page
    assert "4 partite contate" in page
    assert "parità risolte con Scontri diretti, Differenza punti" in page
    for header in ("Punti fatti", "Punti subiti", "Media a partita", "Bussate", "Decisa da"):
        assert f">{header}<" in page


def test_the_season_page_lists_its_tables_a_page_at_a_time(played_world):
    """A season of many tables: in play first, then newest, 25 a page."""
    in_play = played_world.table(played_world.anna, played_world.bruno)
    for _ in range(24):
        played_world.table(played_world.bruno, played_world.carla, practice=True)
    client = as_user(played_world.member)
    first = client.get(season_url(played_world)).content.decode()
    # 4 finished + 25 in play = 29 tables: 25 here, 4 on the next page.
    assert "29 tables, those in play first." in first
    assert first.count('<li>\n          <a href="/t/') == 25
    assert f'href="/t/{in_play.id}/"' in first
    assert "Page 1 of 2" in first and 'href="?page=2#tables"' in first
    second = client.get(season_url(played_world), {"page": 2}).content.decode()
    assert second.count('<li>\n          <a href="/t/') == 4
    assert all(f'href="/t/{t.id}/"' in second for t in played_world.tables)
    # A page that is not a number shows the first; one past the end shows the last.
    assert "Page 1 of 2" in client.get(season_url(played_world), {"page": "x"}).content.decode()
    assert "Page 2 of 2" in client.get(season_url(played_world), {"page": 9}).content.decode()
