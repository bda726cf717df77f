"""The stats pages: a group's for the phones holding one of its keys, a club's for its
members; the Friday history of tests/games/standings/test_book.py on the page."""

import re

import pytest
from django.test import Client

from games.tables.access import KEY_HEADER
from tests.games.book_setup import friday_gin, group_make, play
from tests.payloads import quick

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

KEY = "HTTP_" + KEY_HEADER.upper().replace("-", "_")


@pytest.fixture
def friday(django_capture_on_commit_callbacks):
    group, players = group_make()
    with django_capture_on_commit_callbacks(execute=True):
        tables = friday_gin(group, players)
    return group, players, tables


def page(group, key=None, query=""):
    headers = {KEY: key} if key else {}
    return Client().get(f"/g/{group.pk}/stats/{query}", **headers)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


class TestWhoSeesAGroupsStats:
    def test_without_a_key_it_is_not_found_as_an_unknown_group(self, friday):
        group, _, _ = friday
        assert page(group).status_code == 404
        assert Client().get("/g/999999/stats/").status_code == 404

    @pytest.mark.parametrize("role", ["viewer_key", "member_key"])
    def test_either_key_opens_it(self, friday, role):
        group, _, _ = friday
        assert page(group, getattr(group, role)).status_code == 200

    def test_another_groups_key_does_not(self, friday):
        group, _, _ = friday
        other, _ = group_make("Zoe")
        assert page(group, other.viewer_key).status_code == 404

    def test_the_group_page_links_to_it(self, friday):
        group, _, _ = friday
        response = Client().get(f"/g/{group.pk}/", **{KEY: group.viewer_key})
        assert f'href="/g/{group.pk}/stats/"' in response.content.decode()


class TestTheGroupsPage:
    def test_it_shows_the_record_head_to_head_rivals_and_the_chart(self, friday):
        group, _, tables = friday
        html = page(group, group.viewer_key).content.decode()
        assert 'data-testid="book"' in html and 'data-game="gin"' in html
        # The record, best first: Anna 2-0, Bruno 1-1, Carla 0-2.
        rows = re.findall(
            r'<tr data-player="(\w+)">.*?data-col="played">(\d+)<.*?data-col="won">(\d+)<',
            html,
            re.S,
        )
        assert rows[:3] == [("Anna", "2", "2"), ("Bruno", "2", "1"), ("Carla", "2", "0")]
        words = text(html)
        assert "Gin Rummy: 3 finished matches" in words
        # Rivals, nemesis and best matches: Anna's rival Carla, no nemesis, best T3 by 67.
        players = re.search(r'data-testid="book-players".*?</table>', html, re.S).group(0)
        assert "Anna Carla (1) – +67 v Carla (#3)" in text(players)
        assert "Carla Anna (1) Anna (1) –" in text(players)
        assert f'href="/t/{tables[2].id}/"' in players
        # Carla's deadwood when caught: (20 + 20 + 40) / 3, over 3 hands.
        assert "26.7 (3)" in words
        assert 'data-cell="1–0"' in html and 'data-testid="wins-chart"' in html
        pairs = re.search(r'data-testid="pairs".*?</table>', html, re.S).group(0)
        assert "Anna Bruno 1–0 1 +55" in text(pairs)

    def test_each_game_has_its_tab_and_an_unknown_one_shows_the_usual_game(
        self, friday, django_capture_on_commit_callbacks
    ):
        group, players, _ = friday
        # One Knock Rummy match: Anna knocks on 1, Bruno 20 (KR-SCORE +19, then KR-MATCH).
        with django_capture_on_commit_callbacks(execute=True):
            play(
                players[:2],
                [{"mode": "points", "players": [{"points": 1, "knocked": True}, {"points": 20}]}],
                group=group,
                variant="knock_rummy",
                options={"target": 10},
            )
        html = page(group, group.viewer_key, "?game=knock_rummy").content.decode()
        assert 'data-game="knock_rummy"' in html and 'aria-current="page">Knock Rummy' in html
        assert "Knocks won" in html
        assert 'href="?game=gin"' in html
        # An unknown game: the group's usual one, Gin.
        fallback = page(group, group.viewer_key, "?game=poker").content.decode()
        assert 'data-testid="book" data-game="gin"' in fallback

    def test_a_group_with_no_finished_match_says_so(self, db):
        group, players = group_make()
        play(players[:2], [quick(0, "knock", 5, 9)], group=group)
        html = page(group, group.member_key).content.decode()
        assert 'data-testid="no-stats"' in html and 'data-testid="book"' not in html


class TestAClubsStats:
    def test_members_see_them_and_others_do_not(
        self, world, django_capture_on_commit_callbacks, client
    ):
        with django_capture_on_commit_callbacks(execute=True):
            play((world.anna, world.bruno), [quick(0, "gin", 0, 30)])
        url = f"/clubs/{world.club.slug}/stats/"
        # Not signed in: to the login page; signed in but outside the club: not found.
        assert client.get(url).status_code == 302
        client.force_login(world.outsider)
        assert client.get(url).status_code == 404
        client.force_login(world.member)
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'data-player="Anna"' in html and "Circolo del Ramino" in html
        club_page = client.get(f"/clubs/{world.club.slug}/").content.decode()
        assert f'href="{url}"' in club_page

    def test_a_public_club_keeps_them_to_its_members(self, world, client):
        world.club.public = True
        world.club.save()
        client.force_login(world.outsider)
        assert client.get(f"/clubs/{world.club.slug}/").status_code == 200
        assert client.get(f"/clubs/{world.club.slug}/stats/").status_code == 404
