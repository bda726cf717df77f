"""The stats pages: a group's for the phones holding one of its keys, a club's for its
members; the Friday history of tests/games/standings/test_book.py on the page."""

import re
from html import unescape

import pytest
from django.test import Client

from games.models import MatchResult, Player
from games.standings import selectors as standings_selectors
from games.tables.access import KEY_HEADER
from tests.games.book_setup import group_make, play
from tests.payloads import quick

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

KEY = "HTTP_" + KEY_HEADER.upper().replace("-", "_")


def page(group, key=None, query=""):
    headers = {KEY: key} if key else {}
    return Client().get(f"/g/{group.pk}/stats/{query}", **headers)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


class TestWhoSeesAGroupsStats:
    def test_without_a_key_it_is_not_found_as_an_unknown_group(self, friday_gin_group):
        group, _, _ = friday_gin_group
        assert page(group).status_code == 404
        assert Client().get("/g/999999/stats/").status_code == 404

    @pytest.mark.parametrize("role", ["viewer_key", "member_key"])
    def test_either_key_opens_it(self, friday_gin_group, role):
        group, _, _ = friday_gin_group
        assert page(group, getattr(group, role)).status_code == 200

    def test_another_groups_key_does_not(self, friday_gin_group):
        group, _, _ = friday_gin_group
        other, _ = group_make("Zoe")
        assert page(group, other.viewer_key).status_code == 404

    def test_the_group_page_links_to_it(self, friday_gin_group):
        group, _, _ = friday_gin_group
        response = Client().get(f"/g/{group.pk}/", **{KEY: group.viewer_key})
        assert f'href="/g/{group.pk}/stats/"' in response.content.decode()


class TestTheGroupsPage:
    def test_it_shows_the_record_head_to_head_rivals_and_the_chart(self, friday_gin_group):
        group, _, tables = friday_gin_group
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
        self, friday_gin_group, django_capture_on_commit_callbacks
    ):
        group, players, _ = friday_gin_group
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


# A Ramino match of one hand (RAM-MATCH) after the Friday Gin: the stock runs out with Anna
# and Bruno holding 10 each, Carla 20: every seat loses its hand (RAM-SCORE), -10, -10, -20.
# Anna and Bruno are level on the best total: they share the win, a draw for each.
STOCK_OUT = {
    "mode": "points",
    "stock_exhausted": True,
    "players": [{"points": 10}, {"points": 10}, {"points": 20}],
}


@pytest.fixture
def friday_and_ramino(friday_gin_group, django_capture_on_commit_callbacks):
    group, players, tables = friday_gin_group
    with django_capture_on_commit_callbacks(execute=True):
        ramino = play(players, [STOCK_OUT], group=group, variant="ramino", options={"hands": 1})
    return group, players, [*tables, ramino]


def player_page(group, player, key=None):
    headers = {KEY: key} if key else {}
    return Client().get(f"/g/{group.pk}/players/{player.pk}/", **headers)


def section(html: str, testid: str) -> str:
    return text(re.search(rf'data-testid="{testid}".*?</section>', html, re.S).group(0))


class TestTheRecordsNewColumns:
    def test_draws_every_game_and_the_player_links(self, friday_and_ramino):
        group, (anna, bruno, carla), _ = friday_and_ramino
        html = page(group, group.viewer_key, "?game=ramino").content.decode()
        record = re.findall(
            r'<tr data-player="(\w+)">.*?data-col="played">(\d+)<.*?data-col="won">(\d+)<'
            r'.*?data-col="drawn">(\d+)<.*?data-col="lost">(\d+)<',
            html,
            re.S,
        )
        # Ramino: Anna and Bruno drew, Carla lost.
        assert record[:3] == [
            ("Anna", "1", "0", "1", "0"),
            ("Bruno", "1", "0", "1", "0"),
            ("Carla", "1", "0", "0", "1"),
        ]
        # Every game (Gin and Ramino, 4 matches): Anna 2 won + 1 drawn, Bruno 1 + 1 and one
        # Gin lost, Carla 3 lost; ordered by wins, a shared one too: Anna 3, Bruno 2, Carla 0.
        every = section(html, "every-game")
        assert "Every game: 4 finished matches" in every
        assert "Anna 3 2 1 0 100% Gin Rummy, Ramino" in every
        assert "Bruno 3 1 1 1 67% Gin Rummy, Ramino" in every
        assert "Carla 3 0 0 3 0% Gin Rummy, Ramino" in every
        for player in (anna, bruno, carla):
            assert f'href="/g/{group.pk}/players/{player.pk}/"' in html

    def test_the_average_a_match_and_the_last_match_played(self, friday_and_ramino):
        group, _, tables = friday_and_ramino
        stats = standings_selectors.group_stats(group=group)
        anna = next(line for line in stats.game.lines if line.name == "Anna")
        # Gin: (55 + 67) / 2 = 61 a match; her last Gin match is T3.
        assert anna.average_for == "61"
        assert anna.last_played == MatchResult.objects.get(table=tables[2]).finished_at
        every = {entry.name: entry for entry in stats.every_game}
        # Every game: the Ramino match, the last of all.
        assert every["Anna"].last_played == MatchResult.objects.get(table=tables[3]).finished_at
        html = page(group, group.viewer_key).content.decode()
        assert 'data-col="average-for">61<' in html
        assert "Points for a match" in text(html)

    def test_points_against_say_what_they_are(self, friday_and_ramino):
        group, _, _ = friday_and_ramino
        gin = unescape(text(page(group, group.viewer_key).content.decode()))
        assert "Points against (opponents' mean)" in gin
        assert "the mean of the opponents' final totals" in gin
        # Ramino's points lost are the player's own: the label says it, no note is needed.
        ramino = page(group, group.viewer_key, "?game=ramino").content.decode()
        assert "Points lost" in text(ramino) and 'data-testid="against-note"' not in ramino

    def test_the_rival_and_nemesis_tie_breaks_are_written(self, friday_gin_group):
        group, _, _ = friday_gin_group
        players = section(page(group, group.viewer_key).content.decode(), "book-players")
        assert "on a tie, the one met most recently, then the one added first" in players
        assert (
            "on a tie, the one they placed above least often, then the one who beat them most "
            "recently, then the one added first" in players
        )


class TestAPlayersPage:
    def test_it_opens_to_the_groups_keys_only(self, friday_gin_group):
        group, (anna, *_), _ = friday_gin_group
        other, (zoe,) = group_make("Zoe")
        assert player_page(group, anna).status_code == 404
        assert player_page(group, anna, other.viewer_key).status_code == 404
        assert player_page(group, anna, group.viewer_key).status_code == 200
        assert player_page(group, anna, group.member_key).status_code == 200
        # A player of another group is not found through this one's key.
        assert player_page(group, zoe, group.viewer_key).status_code == 404

    def test_the_record_over_every_game_and_with_each_player(self, friday_and_ramino):
        group, (anna, *_), _ = friday_and_ramino
        html = player_page(group, anna, group.viewer_key).content.decode()
        record = section(html, "player-record")
        # Gin 2 won, Ramino drawn: 3 played, 2 won, 1 drawn, none lost, 100%.
        assert "Played 3 Won 2 Drawn 1 Lost 0 Win % 100%" in record
        # Bruno: T1 (Anna above), the Ramino (level). Carla: T3 and the Ramino, above both.
        opponents = section(html, "player-opponents")
        assert "Bruno 2 1–0–1" in opponents and "Carla 2 2–0–0" in opponents
        assert opponents.index("Bruno") < opponents.index("Carla")
        games = re.findall(r'data-testid="player-game" data-game="(\w+)"', html)
        assert games == ["gin", "ramino"]
        gin = text(re.search(r'data-game="gin".*?</section>', html, re.S).group(0))
        # Gin: 2-0, 61 a match, nothing against; T1 v Bruno by 55, T3 v Carla by 67.
        assert "Played 2 Won 2 Drawn 0 Lost 0 Points for a match 61" in gin
        assert "Bruno 1 1–0–0 +55" in gin and "Carla 1 1–0–0 +67" in gin
        ramino = text(re.search(r'data-game="ramino".*?</section>', html, re.S).group(0))
        # Ramino: drawn, nothing gained, 10 lost; level with Bruno, above Carla (+10).
        assert "Played 1 Won 0 Drawn 1 Lost 0 Points gained a match 0 Points lost 10" in ramino
        assert "Bruno 1 0–0–1 0" in ramino and "Carla 1 1–0–0 +10" in ramino

    def test_a_player_who_never_finished_a_match_has_no_record_yet(self, friday_gin_group):
        group, _, _ = friday_gin_group
        dario = Player.objects.create(name="Dario", group=group)
        html = player_page(group, dario, group.viewer_key).content.decode()
        assert 'data-testid="player-none"' in html and "player-game" not in html

    def test_it_speaks_italian(self, friday_and_ramino):
        group, (anna, *_), _ = friday_and_ramino
        headers = {KEY: group.viewer_key, "HTTP_ACCEPT_LANGUAGE": "it"}
        html = Client().get(f"/g/{group.pk}/players/{anna.pk}/", **headers).content.decode()
        words = unescape(text(html))
        assert "Giocate 3 Vinte 2 Pareggiate 1 Perse 0 % vittorie 100%" in words
        assert "Con ogni giocatore" in words and "Punti fatti a partita 61" in words
        stats = Client().get(f"/g/{group.pk}/stats/", **headers).content.decode()
        assert "Tutti i giochi: 4 partite concluse" in unescape(text(stats))
