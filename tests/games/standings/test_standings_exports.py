"""A season's standings and match results as CSV downloads: their content, who may
download them, and spreadsheet formulas kept out.

The season below is worked by hand from the Gin rules (docs/rules.md, Classic to 50): a knock
scores the difference of the counts (GIN-SCORE-KNOCK), a defender with the lower count
undercuts and scores the difference with no bonus at a Classic table (GIN-UNDERCUT), gin
scores 25 + the defender's count (GIN-SCORE-GIN), and the first total to reach 50 wins
(GIN-MATCH).

- Match 1, Anna v Bruno: Anna knocks 8, Bruno holds 3: undercut, Bruno +5 (0–5); Anna gin,
  Bruno 30: Anna +55 (55–5). Anna wins 55–5 in 2 hands.
- Match 2, Bruno v Carla: Bruno knocks 4 v 20 (+16); Carla gin v 10 (+35); Carla knocks
  2 v 12 (+10, 45); Bruno gin v 40 (+65, 81). Bruno wins 81–45 in 4 hands.
- Match 3, Carla v Anna: Anna gin, Carla 25 → Anna 50. Anna wins 50–0 in 1 hand.
- Match 4, Bruno v Anna: Bruno gin, Anna 30 → Bruno 55. Bruno wins 55–0 in 1 hand.

Anna: 3 played, 2 won, 1 lost (win rate 2/3 → 0.67); 4 hands, 2 won; for 55 + 50 + 0 =
  105, against 5 + 0 + 55 = 60 (+45); per match 35 for, 20 against; 1 knock, 2 gins.
Bruno: 3 played, 2 won, 1 lost (0.67); 2 + 4 + 1 = 7 hands, 1 + 2 + 1 = 4 won; for
  5 + 81 + 55 = 141, against 55 + 45 + 0 = 100 (+41); per match 47 for, 100/3 → 33.33
  against; 1 knock, 2 gins, 1 undercut.
Carla: 2 played, 0 won (0); 5 hands, 2 won; for 45, against 131 (−86); per match 22.5 for,
  65.5 against; 1 knock, 1 gin.
Anna and Bruno are level on record (2–1) and 1–1 head to head (matches 1 and 4), so points
difference places Anna (+45) above Bruno (+41). The differences sum to 0.
"""

import csv
import datetime as dt
import io

import pytest
from django.test import Client

from games.clubs import services as club_services
from games.models import MatchResult, SeasonStandings, Table
from games.standings import services as standings_services
from tests.factories import LeagueFactory, PlayerFactory, SeasonFactory
from tests.games.clubs_setup import play
from tests.payloads import quick

# Standings are recomputed by tasks queued on commit: here they run in-process, whatever
# broker CI configures (tests/games/test_standings_worker.py covers real workers).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

STANDINGS_HEADER = [
    "rank",
    "player",
    "played",
    "won",
    "lost",
    "win_rate",
    "hands_played",
    "hands_won",
    "points_for",
    "points_against",
    "points_difference",
    "average_for",
    "average_against",
    "knocks",
    "gins",
    "big_gins",
    "undercuts",
    "rating",
    "rating_mu",
    "rating_sigma",
    "placed_by",
]
RESULTS_HEADER = [
    "match",
    "table",
    "finished_at",
    "seat",
    "player",
    "place",
    "outcome",
    "hands_played",
    "hands_won",
    "points_for",
    "points_against",
    "knocks",
    "gins",
    "big_gins",
    "undercuts",
    "total",
]


def four_matches(world) -> list[Table]:
    """Play the four matches of the module docstring, in order."""
    anna, bruno, carla = world.anna, world.bruno, world.carla
    return [
        play(world, (anna, bruno), [quick(0, "knock", 8, 3), quick(0, "gin", 0, 30)]),
        play(
            world,
            (bruno, carla),
            [
                quick(0, "knock", 4, 20),
                quick(1, "gin", 0, 10),
                quick(1, "knock", 2, 12),
                quick(0, "gin", 0, 40),
            ],
        ),
        play(world, (carla, anna), [quick(1, "gin", 0, 25)]),
        play(world, (bruno, anna), [quick(0, "gin", 0, 30)]),
    ]


def _urls(world, season=None) -> dict[str, str]:
    base = f"/clubs/{world.club.slug}/l/{world.league.slug}/s/{(season or world.season).pk}"
    return {"standings": f"{base}/standings.csv", "results": f"{base}/results.csv"}


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"), newline="")))


def _stored_ratings(world) -> dict:
    return SeasonStandings.objects.get(season=world.season).ratings


class TestStandingsCsv:
    def test_one_row_per_player_with_the_hand_worked_figures(self, four_matches_played):
        world, _ = four_matches_played
        header, *rows = _rows(_as(world.member).get(_urls(world)["standings"]))
        assert header == STANDINGS_HEADER
        # Everything but the three rating columns, which come from openskill (below).
        figures = [row[:17] + row[20:] for row in rows]
        assert figures == [
            # rank, player, P, W, L, rate, hands, won, for, against, diff, avg for, avg
            # against, knocks, gins, big gins, undercuts, placed by
            [
                *("1", "Anna", "3", "2", "1", "0.67", "4", "2", "105", "60", "45", "35", "20"),
                *("1", "2", "0", "0", "points_difference"),
            ],
            [
                *("2", "Bruno", "3", "2", "1", "0.67", "7", "4", "141", "100", "41", "47"),
                *("33.33", "1", "2", "0", "1", ""),
            ],
            [
                *("3", "Carla", "2", "0", "2", "0", "5", "2", "45", "131", "-86", "22.5"),
                *("65.5", "1", "1", "0", "0", ""),
            ],
        ]

    def test_the_ratings_are_the_stored_ones_to_the_last_digit(self, four_matches_played):
        world, _ = four_matches_played
        _, *rows = _rows(_as(world.member).get(_urls(world)["standings"]))
        ratings = _stored_ratings(world)
        ids = {"Anna": world.anna.pk, "Bruno": world.bruno.pk, "Carla": world.carla.pk}
        for row in rows:
            stored = ratings[str(ids[row[1]])]
            rating, mu, sigma = (float(cell) for cell in row[17:20])
            assert (rating, mu, sigma) == (stored["conservative"], stored["mu"], stored["sigma"])
            # Plain decimals: no exponent for a spreadsheet to misread.
            assert not any("e" in cell.lower() for cell in row[17:20])

    def test_it_is_a_download_named_after_the_club_league_and_season(self, four_matches_played):
        world, _ = four_matches_played
        response = _as(world.member).get(_urls(world)["standings"])
        assert response["Content-Disposition"] == (
            'attachment; filename="circolo-del-ramino-gin-tuesdays-spring-standings.csv"'
        )
        # RFC 4180 lines, whatever the platform.
        assert response.content.decode().count("\r\n") == 4

    def test_numbers_keep_their_point_in_italian(self, four_matches_played):
        world, _ = four_matches_played
        response = _as(world.member).get(_urls(world)["standings"], HTTP_ACCEPT_LANGUAGE="it")
        header, *_rows_ = _rows(response)
        assert header == STANDINGS_HEADER
        carla = _rows_[2]
        assert (carla[11], carla[12]) == ("22.5", "65.5")

    def test_an_empty_season_has_only_the_header(self, world):
        client = _as(world.member)
        # Never computed: no standings row at all.
        assert _rows(client.get(_urls(world)["standings"])) == [STANDINGS_HEADER]
        # Computed over no match.
        standings_services.season_standings_recompute(season_id=world.season.pk)
        assert _rows(client.get(_urls(world)["standings"])) == [STANDINGS_HEADER]


class TestResultsCsv:
    def test_one_row_per_seat_of_each_match_in_the_order_played(self, four_matches_played):
        world, tables = four_matches_played
        header, *rows = _rows(_as(world.member).get(_urls(world)["results"]))
        assert header == RESULTS_HEADER
        # match, seat, player, place, outcome, hands, hands won, for, against, knocks,
        # gins, big gins, undercuts, total
        assert [row[:1] + row[3:] for row in rows] == [
            ["1", "1", "Anna", "1", "won", "2", "1", "55", "5", "1", "1", "0", "0", "55"],
            ["1", "2", "Bruno", "2", "lost", "2", "1", "5", "55", "0", "0", "0", "1", "5"],
            ["2", "1", "Bruno", "1", "won", "4", "2", "81", "45", "1", "1", "0", "0", "81"],
            ["2", "2", "Carla", "2", "lost", "4", "2", "45", "81", "1", "1", "0", "0", "45"],
            ["3", "1", "Carla", "2", "lost", "1", "0", "0", "50", "0", "0", "0", "0", "0"],
            ["3", "2", "Anna", "1", "won", "1", "1", "50", "0", "0", "1", "0", "0", "50"],
            ["4", "1", "Bruno", "1", "won", "1", "1", "55", "0", "0", "1", "0", "0", "55"],
            ["4", "2", "Anna", "2", "lost", "1", "0", "0", "55", "0", "0", "0", "0", "0"],
        ]
        assert [row[1] for row in rows] == [str(t.id) for t in tables for _ in range(2)]

    def test_finished_at_is_iso_8601_utc_to_the_second(self, four_matches_played):
        world, tables = four_matches_played
        _, *rows = _rows(_as(world.member).get(_urls(world)["results"]))
        for table, row in zip(tables, rows[::2], strict=True):
            stored = MatchResult.objects.get(table=table).finished_at
            assert row[2].endswith("Z") and len(row[2]) == len("2026-03-01T18:30:00Z")
            written = dt.datetime.fromisoformat(row[2])
            assert written.utcoffset() == dt.timedelta(0)
            assert written == stored.replace(microsecond=0)

    def test_practice_and_unfinished_tables_are_left_out(
        self, four_matches_played, django_capture_on_commit_callbacks
    ):
        world, _ = four_matches_played
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.anna, world.carla), [quick(0, "gin", 0, 30)], practice=True)
            play(world, (world.anna, world.carla), [quick(0, "knock", 4, 20)])
        _, *rows = _rows(_as(world.member).get(_urls(world)["results"]))
        assert len(rows) == 8

    def test_an_empty_season_has_only_the_header(self, world):
        response = _as(world.member).get(_urls(world)["results"])
        assert _rows(response) == [RESULTS_HEADER]
        assert response["Content-Disposition"] == (
            'attachment; filename="circolo-del-ramino-gin-tuesdays-spring-results.csv"'
        )


class TestWhoMayDownload:
    @pytest.mark.parametrize("which", ["standings", "results"])
    def test_members_of_every_role_may(self, world, which):
        for user in (world.owner, world.admin, world.member):
            assert _as(user).get(_urls(world)[which]).status_code == 200

    @pytest.mark.parametrize("which", ["standings", "results"])
    def test_an_outsider_gets_a_404_for_a_private_league(self, world, which):
        assert _as(world.outsider).get(_urls(world)[which]).status_code == 404

    @pytest.mark.parametrize("which", ["standings", "results"])
    def test_an_anonymous_visitor_is_sent_to_log_in_for_a_private_league(self, world, which):
        url = _urls(world)[which]
        response = Client().get(url)
        assert response.status_code == 302
        assert response.url == f"/accounts/login/?next={url}"

    @pytest.mark.parametrize("which", ["standings", "results"])
    def test_anyone_may_download_a_public_leagues(self, four_matches_played, which):
        world, _ = four_matches_played
        club_services.league_set_public(actor=world.admin, league_id=world.league.pk, public=True)
        for client in (Client(), _as(world.outsider)):
            rows = _rows(client.get(_urls(world)[which]))
            assert len(rows) == {"standings": 4, "results": 9}[which]

    def test_a_season_of_another_league_is_a_404(self, world):
        other = LeagueFactory(club=world.club, actor=world.admin, name="Gin Fridays")
        season = SeasonFactory(league=other, actor=world.admin, name="Spring")
        # The season exists, but the URL names it under Gin Tuesdays.
        assert _as(world.member).get(_urls(world, season)["standings"]).status_code == 404

    def test_only_get_is_answered(self, world):
        assert _as(world.member).post(_urls(world)["standings"]).status_code == 405


class TestFormulasStayText:
    @pytest.mark.parametrize("name", ['=HYPERLINK("http://x","y")', "+1+2", "-3+4", "@SUM(A1)"])
    def test_a_name_that_looks_like_a_formula_gets_a_leading_quote(
        self, world, django_capture_on_commit_callbacks, name
    ):
        mallory = PlayerFactory(club=world.club, actor=world.admin, name=name)
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (mallory, world.anna), [quick(0, "gin", 0, 30)])
        client = _as(world.member)
        _, *standings = _rows(client.get(_urls(world)["standings"]))
        _, *results = _rows(client.get(_urls(world)["results"]))
        # Mallory's gin (25 + 30 = 55) wins: first in the standings, first seat of the match.
        assert standings[0][1] == f"'{name}"
        assert results[0][4] == f"'{name}"
        # Names that do not start a formula, and negative numbers, are left as they are.
        assert standings[1][1] == results[1][4] == "Anna"
        assert standings[1][10] == "-55"
