"""A game registered at test time is offered and played everywhere: the proof that a game is
one package (docs/design.md, "Adding a game").

The stub (tests/stub_game/) joins the registry for each test and leaves it after; nothing in
the project names it, so each page, form, schema, export and standings reader that works for
it reads the game from the registry.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.tables import services as table_services
from games.tables.models import Table
from scoring.variants import GAMES, register, unregister
from tests.stub_game import GAME as STUB

KEY = STUB.key


@pytest.fixture
def stub_game():
    register(STUB)
    yield STUB
    unregister(KEY)


@pytest.fixture
def scorekeeper(db, stub_game):
    """A phone holding a new Stub Rummy table of three, by its scorekeeper's key."""
    phone = Client()
    table = table_services.table_create(variant=KEY, options={}, players=["Anna", "Bruno", "Carla"])
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    return phone, table


def _hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]+)"', page).group(1)


def test_the_stub_is_registered_only_inside_a_test(stub_game):
    assert GAMES[KEY] is STUB


def test_outside_a_test_the_registry_holds_only_the_projects_games():
    assert KEY not in GAMES


class TestPages:
    def test_the_new_table_form_offers_it_and_creates_its_table(self, db, stub_game):
        phone = Client()
        page = phone.get("/").content.decode()
        assert f'name="variant" value="{KEY}"' in page and "Stub Rummy" in page
        response = phone.post(
            "/",
            {
                "variant": KEY,
                "players": "3",
                "player_1": "Anna",
                "player_2": "Bruno",
                "player_3": "Carla",
                f"{KEY}__target": "40",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        table = Table.objects.get(pk=response.url.split("/")[2])
        assert table.variant == KEY and table.options["target"] == 40

    def test_a_hand_by_points_is_scored_and_shown(self, scorekeeper):
        phone, table = scorekeeper
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Stub Rummy" in page and 'name="p0_points"' in page
        data = {
            "event_id": _hidden(page, "event_id"),
            "expected_seq": "1",
            "mode": "points",
            "p0_points": "4",
            "p0_knocked": "on",
            "p1_points": "2",
            "p2_points": "9",
        }
        response = phone.post(f"/t/{table.id}/hands/", data)
        assert response.status_code == 302, response.content.decode()[:2000]
        # Knock Rummy's scoring (KR-SCORE, KR-UNDERCUT): Bruno's 2 beats 4 and 9 by 2 + 7 = 9,
        # and +10 as Anna knocked and he undercut her.
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="total-1">19<' in page

    @pytest.mark.parametrize(
        "path", ["history/", "chart/", "tv/", "rules/", "hands.csv", "log.jsonl"]
    )
    def test_every_page_of_its_table_answers(self, scorekeeper, path):
        phone, table = scorekeeper
        response = phone.get(f"/t/{table.id}/{path}")
        assert response.status_code == 200, path

    def test_its_rules_page_and_the_referee_offer_it(self, db, stub_game):
        phone = Client()
        assert phone.get(f"/rules/{KEY}/").status_code == 200
        page = phone.get("/referee/").content.decode()
        assert f'value="{KEY}"' in page

    def test_the_game_styles_show_its_fields(self, db, stub_game):
        css = Client().get("/games.css").content.decode()
        assert KEY in css


def _points_hand(*points: int, knocker: int) -> dict:
    players = [{"points": p} for p in points]
    players[knocker]["knocked"] = True
    return {"mode": "points", "players": players}


class TestApi:
    def test_the_schema_offers_it(self, db, stub_game):
        schema = Client().get("/api/schema/?format=json").json()
        text = str(schema)
        assert KEY in text

    def test_a_table_is_created_played_and_read(self, db, stub_game):
        from rest_framework.test import APIClient

        api = APIClient()
        created = api.post(
            "/api/v1/tables/",
            {"variant": KEY, "players": ["Anna", "Bruno"], "options": {"target": 20}},
            format="json",
        )
        assert created.status_code == 201, created.content
        table = created.json()
        api.credentials(HTTP_X_TABLE_KEY=table["scorekeeper_key"])
        # KR-SCORE: Anna knocks on 3 against 30 and scores 27, past the target of 20; KR-MATCH:
        # reaching it adds 100, so she ends on 127.
        appended = api.post(
            f"/api/v1/tables/{table['id']}/events/",
            {
                "event_id": "5b0b5d4e-2f0e-4d6b-9d5c-7d1f3c1e0a01",
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": _points_hand(3, 30, knocker=0),
            },
            format="json",
        )
        assert appended.status_code == 201, appended.content
        state = api.get(f"/api/v1/tables/{table['id']}/state/").json()
        assert state["totals"] == [127, 0] and state["match"]["winners"] == [0]


class TestReferee:
    def test_the_api_answers_a_question_about_it(self, db, stub_game):
        from rest_framework.test import APIClient

        # The schema was built before the stub joined: each request reads the registry.
        Client().get("/api/schema/?format=json")
        body = {"variant": KEY, "cards": "7S 8S 9S"}
        answer = APIClient().post("/api/v1/referee/meld/", body, format="json")
        assert answer.status_code == 200 and answer.json()["valid"] is True


class TestArchive:
    def test_its_log_is_exported_and_imported_whole(self, db, stub_game, append):
        from games.clubs import groups
        from games.tables import exports, imports
        from tests.factories import UserFactory
        from tests.games.tables.archive_logs import same_match, upload

        manager = UserFactory(username="gina")
        group = groups.group_create(
            name="Stubs", players=["Anna", "Bruno"], variant=KEY, options={}, user=manager
        )
        table = table_services.table_create(variant=KEY, options={"target": 20}, players=["A", "B"])
        append(table, "hand_recorded", _points_hand(3, 30, knocker=0))
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        data = b"".join(exports.table_log_lines(table=table))
        copy = imports.log_import(user=manager, data=upload(data), group_id=group.pk)
        same_match(table, copy.tables[0].table)


class TestStandings:
    def test_a_league_of_it_ranks_its_finished_matches(self, db, stub_game, append):
        from games.standings import services as standings_services
        from games.standings.selectors import season_standings
        from tests.factories import LeagueFactory, SeasonFactory
        from tests.games.clubs_setup import club_world

        world = club_world()
        league = LeagueFactory(
            club=world.club, actor=world.admin, variant=KEY, options={"target": 20}
        )
        season = SeasonFactory(league=league, actor=world.admin)
        table = world.table(world.anna, world.bruno, season_id=season.pk)
        # KR-SCORE: Bruno knocks on 3 against Anna's 30 and scores 27, past the target.
        append(table, "hand_recorded", _points_hand(30, 3, knocker=1))
        standings_services.league_standings_recompute(league_id=league.pk, fresh=True)
        standings = season_standings(season=season)
        assert [(line.name, line.row["won"]) for line in standings.lines] == [
            ("Bruno", 1),
            ("Anna", 0),
        ]
        page = Client()
        page.force_login(world.admin)
        season_url = f"/clubs/{world.club.slug}/l/{league.slug}/s/{season.pk}/"
        for path in ("", "standings.csv", "results.csv"):
            response = page.get(season_url + path)
            assert response.status_code == 200 and "Bruno" in response.content.decode(), path
        player_url = f"/clubs/{world.club.slug}/players/{world.bruno.pk}/"
        assert page.get(player_url).status_code == 200
        assert page.get(f"/clubs/{world.club.slug}/stats/").status_code == 200


class TestItalian:
    def test_its_table_page_is_shown_in_italian(self, scorekeeper):
        phone, table = scorekeeper
        response = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it")
        assert response.status_code == 200
