"""A club player's page: win rate per game, rating over time in each league, their matches;
members only. The season is the four hand-worked Gin matches of test_standings_exports:

- Match 1, Anna v Bruno: Anna wins 55–5 (place 1).
- Match 2, Bruno v Carla: Bruno wins 81–45.
- Match 3, Carla v Anna: Anna wins 50–0 (place 1).
- Match 4, Bruno v Anna: Bruno wins 55–0 (Anna place 2).

Anna: 3 Gin matches, 2 won: 67 %.
"""

import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.test import Client

from games.clubs import services as club_services
from games.models import SeasonStandings
from games.standings.charts import rating_chart
from tests.factories import MembershipFactory, PlayerFactory
from tests.games.clubs_setup import open_autumn, play
from tests.payloads import quick

# Standings are recomputed by tasks queued on commit: here they run in-process, whatever
# broker CI configures (tests/games/test_standings_worker.py covers real workers).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def _url(world, player) -> str:
    return f"/clubs/{world.club.slug}/players/{player.pk}/"


def _page(world, player, user=None) -> str:
    client = Client()
    client.force_login(user or world.member)
    response = client.get(_url(world, player))
    assert response.status_code == 200
    return response.content.decode()


def _rounded(value: float, places: int = 1) -> str:
    # How the page writes a rating (floatformat: half up on the decimal digits).
    return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def _section(page: str, section_id: str) -> str:
    start = page.index(f'id="{section_id}"')
    return page[start : page.index("</section>", start)]


class TestRatingChart:
    # The plot runs from x 36 to 312 (276 wide) and from y 10 to 138 (128 high); the line
    # starts from the prior's conservative rating, 0, before the first match.

    def test_the_line_runs_from_zero_through_each_match(self):
        # Three matches: x 36 (the start), then every 276 / 3 = 92. Ratings run from -4 to
        # 12: 128 / 16 = 8 units a point, y = 10 + (12 - rating) * 8.
        chart = rating_chart(
            [{"conservative": 4.0}, {"conservative": -4.0}, {"conservative": 12.0}], "Anna"
        )
        (line,) = chart.lines
        assert line.points == "36,106 128,74 220,138 312,10"  # 0, 4, -4, 12
        assert (line.name, line.total) == ("Anna", 12.0)
        assert chart.zero_y == "106"
        assert [(label.y, label.text) for label in chart.y_labels] == [
            ("10", "12"),
            ("138", "-4"),
            ("106", "0"),
        ]
        assert [(label.x, label.text, label.anchor) for label in chart.x_labels] == [
            ("128", "#1", "middle"),
            ("312", "#3", "end"),
        ]
        assert chart.last_hand == 3

    def test_ratings_are_written_with_one_decimal_and_never_as_minus_zero(self):
        # 3.21 at the top (y 10), -0.04 at the bottom (y 138); 0 is 128 * 0.04 / 3.25 = 1.6
        # above the bottom, too close for a label of its own.
        chart = rating_chart([{"conservative": 3.21}, {"conservative": -0.04}], "Anna")
        assert [(label.y, label.text) for label in chart.y_labels] == [
            ("10", "3.2"),
            ("138", "0"),
        ]
        assert chart.zero_y == "136.4"

    def test_one_match_draws_from_the_start_to_the_right_edge(self):
        chart = rating_chart([{"conservative": 2.46}], "Anna")
        assert chart.lines[0].points == "36,138 312,10"
        assert [label.text for label in chart.y_labels] == ["2.5", "0"]
        assert [label.text for label in chart.x_labels] == ["#1"]

    def test_no_match_no_chart(self):
        assert rating_chart([], "Anna") is None


class TestPlayerPage:
    def test_it_shows_the_name_and_the_linked_account(self, four_matches_played):
        world, _ = four_matches_played
        assert "A guest: no account linked." in _page(world, world.anna)
        club_services.player_link(
            actor=world.admin, player_id=world.anna.pk, user_id=world.member.pk
        )
        page = _page(world, world.anna)
        assert "<h1>Anna</h1>" in page
        assert "Account: mara" in page

    def test_it_shows_the_win_rate_per_game(self, four_matches_played):
        world, _ = four_matches_played
        games = _section(_page(world, world.anna), "games")
        row = re.search(r'<tr data-game="gin">(.*?)</tr>', games, re.S).group(1)
        cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)
        assert cells == ["Gin Rummy", "3", "2", "67%"]

    def test_the_matches_are_listed_latest_first(self, four_matches_played):
        world, tables = four_matches_played
        matches = _section(_page(world, world.anna), "matches")
        # Anna played matches 1, 3 and 4.
        expected = [tables[3], tables[2], tables[0]]
        assert re.findall(r'data-table="([^"]+)"', matches) == [str(t.id) for t in expected]
        assert re.findall(r'<a href="/t/([^/]+)/">', matches) == [str(t.id) for t in expected]
        assert re.findall(r"<a [^>]*>([^<]*)</a>", matches) == ["v Bruno", "v Carla", "v Bruno"]
        assert re.findall(r'data-testid="outcome">([^<]*)<', matches) == [
            "Lost · place 2 of 2",
            "Won · place 1 of 2",
            "Won · place 1 of 2",
        ]
        assert re.findall(r'data-testid="points">([^<]*)<', matches) == [
            "· Points for 0 · Points against 55",
            "· Points for 50 · Points against 0",
            "· Points for 55 · Points against 5",
        ]
        assert "Gin Tuesdays" in matches

    def test_the_chart_has_one_point_per_match_at_the_stored_ratings(self, four_matches_played):
        world, _ = four_matches_played
        stored = SeasonStandings.objects.get(season=world.season).ratings[str(world.anna.pk)]
        ratings = _section(_page(world, world.anna), "ratings")
        assert ratings.count('data-testid="rating-chart"') == 1
        points = re.search(r'<polyline [^>]*points="([^"]+)"', ratings).group(1).split()
        # The start (the prior, 0) and Anna's three matches, 276 / 3 = 92 apart.
        assert [p.split(",")[0] for p in points] == ["36", "128", "220", "312"]
        zero_y = re.search(r'data-testid="chart-zero"[^>]* y1="([^"]+)"', ratings).group(1)
        assert points[0].split(",")[1] == zero_y
        # Each match's point sits at its stored rating on the plot's scale (y 10 to 138).
        values = [point["conservative"] for point in stored["history"]]
        high, low = max(0, *values), min(0, *values)
        drawn = [float(p.split(",")[1]) for p in points[1:]]
        for value, y in zip(values, drawn, strict=True):
            assert y == pytest.approx(10 + (high - value) * 128 / (high - low), abs=0.05)
        # The data, one row per match: number, place, and the stored ratings.
        rows = re.findall(r"<tr>\s*<th scope=\"row\">(#\d+)</th>(.*?)</tr>", ratings, re.S)
        assert [number for number, _ in rows] == ["#1", "#2", "#3"]
        cells = [re.findall(r"<td>([^<]*)</td>", row) for _, row in rows]
        assert [row[1] for row in cells] == ["1", "1", "2"]
        assert [row[2:] for row in cells] == [
            [_rounded(point[key], 2) for key in ("conservative", "mu", "sigma")]
            for point in stored["history"]
        ]

    def test_the_current_rating_is_the_stored_one(self, four_matches_played):
        world, _ = four_matches_played
        ratings = SeasonStandings.objects.get(season=world.season).ratings
        for player in (world.anna, world.bruno, world.carla):
            page = _page(world, player)
            shown = re.search(r'data-testid="current-rating">([^<]+)<', page).group(1)
            assert shown == _rounded(ratings[str(player.pk)]["conservative"])

    def test_ratings_run_on_into_the_next_season(
        self, four_matches_played, django_capture_on_commit_callbacks
    ):
        world, _ = four_matches_played
        autumn = open_autumn(world)
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.carla, world.bruno), [quick(0, "gin", 0, 30)], season_id=autumn.pk)
        later = SeasonStandings.objects.get(season=autumn).ratings
        # Bruno: three Spring matches and one in Autumn; his rating now is Autumn's.
        bruno = _page(world, world.bruno)
        assert len(re.search(r'<polyline [^>]*points="([^"]+)"', bruno).group(1).split()) == 1 + 4
        shown = re.search(r'data-testid="current-rating">([^<]+)<', bruno).group(1)
        assert shown == _rounded(later[str(world.bruno.pk)]["conservative"])
        # Anna did not play in Autumn: her three Spring points, her rating carried on.
        anna = _page(world, world.anna)
        assert len(re.search(r'<polyline [^>]*points="([^"]+)"', anna).group(1).split()) == 1 + 3
        shown = re.search(r'data-testid="current-rating">([^<]+)<', anna).group(1)
        assert shown == _rounded(later[str(world.anna.pk)]["conservative"])

    def test_practice_and_unfinished_tables_are_not_listed(
        self, four_matches_played, django_capture_on_commit_callbacks
    ):
        world, _ = four_matches_played
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.anna, world.carla), [quick(0, "gin", 0, 30)], practice=True)
            play(world, (world.anna, world.carla), [quick(0, "knock", 4, 20)])
        page = _page(world, world.anna)
        assert page.count('data-testid="match"') == 3
        assert ">67%<" in page

    def test_a_player_with_no_match_yet(self, world):
        page = _page(world, world.carla)
        assert page.count("No finished league matches yet.") == 2
        assert "No rating yet: it comes with the first finished league match." in page
        assert 'data-testid="rating-chart"' not in page
        assert 'data-testid="match"' not in page


class TestWhoMaySeeIt:
    def test_every_member_may(self, world):
        for user in (world.owner, world.admin, world.member):
            _page(world, world.anna, user)

    def test_an_outsider_gets_a_404(self, world):
        client = Client()
        client.force_login(world.outsider)
        assert client.get(_url(world, world.anna)).status_code == 404

    def test_an_outsider_gets_a_404_even_from_a_public_club_with_a_public_league(self, world):
        world.club.public = True
        world.club.save()
        club_services.league_set_public(actor=world.admin, league_id=world.league.pk, public=True)
        client = Client()
        client.force_login(world.outsider)
        # The club's page opens to them, its players do not.
        assert client.get(f"/clubs/{world.club.slug}/").status_code == 200
        assert client.get(_url(world, world.anna)).status_code == 404

    def test_an_anonymous_visitor_is_sent_to_log_in(self, world):
        url = _url(world, world.anna)
        response = Client().get(url)
        assert response.status_code == 302
        assert response.url == f"/accounts/login/?next={url}"

    def test_a_player_of_another_club_is_a_404(self, world):
        stranger = PlayerFactory(club=world.other_club, name="Zeno")
        MembershipFactory(club=world.other_club, user=world.member)
        client = Client()
        client.force_login(world.member)
        # Mara belongs to both clubs, but Zeno is not on this club's roster.
        assert client.get(_url(world, stranger)).status_code == 404
        assert (
            client.get(f"/clubs/{world.other_club.slug}/players/{stranger.pk}/").status_code == 200
        )

    def test_the_roster_links_each_player_to_their_page(self, world):
        client = Client()
        client.force_login(world.member)
        club = client.get(f"/clubs/{world.club.slug}/").content.decode()
        players = _section(club, "players")
        for player in (world.anna, world.bruno, world.carla):
            assert f'<a href="{_url(world, player)}">{player.name}</a>' in players
