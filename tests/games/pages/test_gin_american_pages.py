"""Gin's American scoring on the pages and the API: the new-table and league forms offer its
presets and options, an Oklahoma hand names its upcard, a Hollywood board draws its three
games, and the referee and the history say which bonus each line is (docs/rules.md:
GIN-GAME, GIN-BOX, GIN-SHUTOUT, GIN-OKLAHOMA, GIN-SPADES, GIN-HOLLYWOOD)."""

import re
import uuid

from django.test import Client
from django.utils import translation

from games.models import League, Table
from games.pages.forms.game_options import options_initial
from games.pages.forms.tables import TableCreateForm
from games.rules.text import item_text, table_rules


def _create(client: Client, **extra) -> Table:
    data = {
        "variant": "gin",
        "gin__preset": "big_gin",
        "gin__target": "100",
        "player_1": "Anna",
        "player_2": "Bruno",
        "gin__no_rediscard": "on",
        "gin__wall": "on",
        **{f"gin__{key}": value for key, value in extra.items()},
    }
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _hand_data(page: str, **fields) -> dict:
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, "mode": "quick", **fields}


def _record(client: Client, table: Table, **fields):
    page = client.get(f"/t/{table.id}/").content.decode()
    return client.post(f"/t/{table.id}/hands/", _hand_data(page, **fields))


class TestNewTableForm:
    def test_the_form_offers_the_american_presets_and_options(self, phone):
        page = phone.get("/").content.decode()
        for preset in ("american", "oklahoma", "hollywood"):
            assert f'value="{preset}"' in page
        for name in ("gin_bonus", "box_bonus", "game_bonus", "big_gin_bonus", "undercut_bonus"):
            assert f'name="gin__{name}"' in page
        for name in ("shutout", "oklahoma", "spade_double", "hollywood", "big_gin"):
            assert f'name="gin__{name}"' in page
        assert "GIN-SPADES" in page and "GIN-HOLLYWOOD" in page

    def test_an_oklahoma_table_takes_the_presets_values(self, phone):
        """GIN-OKLAHOMA, GIN-SPADES: the preset's switches, bonuses left empty."""
        table = _create(phone, preset="oklahoma", target="150")
        assert (table.preset, table.target) == ("oklahoma", 150)
        assert table.options["oklahoma"] is True and table.options["spade_double"] is True
        assert (table.options["box_bonus"], table.options["game_bonus"]) == (25, 100)
        # "As the rules chosen" leaves American's tie rule as it is: a tie undercuts.
        assert table.options["undercut_on_tie"] is True

    def test_a_table_changes_a_presets_bonus_and_switch(self, phone):
        """GIN-BOX, GIN-SHUTOUT: box 20 and no shutout at an American table."""
        table = _create(phone, preset="american", box_bonus="20", shutout="off", gin_bonus="20")
        assert table.options["box_bonus"] == 20 and table.options["gin_bonus"] == 20
        assert table.options["shutout"] is False and table.options["game_bonus"] == 100

    def test_a_big_gin_table_may_play_american_bonuses(self, phone):
        """GIN-GAME at a Big Gin table: its options name what it moved."""
        table = _create(phone, game_bonus="100", hollywood="on")
        assert table.options["game_bonus"] == 100 and table.options["hollywood"] is True
        assert table.options["preset"] == "big_gin"

    def test_a_bonus_out_of_bounds_is_refused_by_its_field(self, phone):
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "american",
                "gin__target": "100",
                "player_1": "A",
                "player_2": "B",
                "gin__gin_bonus": "101",
            },
        )
        assert response.status_code == 422
        assert "Gin bonus" in response.content.decode()
        assert not Table.objects.exists()

    def test_spades_without_oklahoma_show_the_rule_and_make_nothing(self, phone):
        """GIN-SPADES: only an Oklahoma table doubles spades."""
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "american",
                "gin__target": "100",
                "player_1": "A",
                "player_2": "B",
                "gin__spade_double": "on",
            },
        )
        assert response.status_code == 422
        assert "GIN-SPADES" in response.content.decode()
        assert not Table.objects.exists()

    def test_an_american_preset_has_no_single_hand(self, phone):
        """GIN-MATCH: American, Oklahoma and Hollywood play to 100 to 250."""
        response = phone.post(
            "/",
            {"variant": "gin", "gin__preset": "hollywood", "gin__target": "1"}
            | {"player_1": "A", "player_2": "B"},
        )
        assert response.status_code == 422
        assert "plays to 100, 125, 150, 200, 250." in response.content.decode()

    def test_the_next_table_offers_what_the_last_one_played(self, db):
        """A group's "same again": the options back into the form give the same options."""
        options = {
            "preset": "oklahoma",
            "target": 150,
            "box_bonus": 20,
            "spade_double": False,
            "oklahoma": True,
        }
        initial = options_initial("gin", options)
        assert initial["gin__box_bonus"] == 20 and initial["gin__spade_double"] == "off"
        data = {
            **initial,
            "player_1": "A",
            "player_2": "B",
            "gin__no_rediscard": "on",
            "gin__wall": "on",
        }
        form = TableCreateForm({k: str(v) for k, v in data.items()})
        assert form.is_valid(), form.errors
        assert form.options()["box_bonus"] == 20 and form.options()["spade_double"] is False


class TestLeagueForm:
    def test_an_admin_creates_a_hollywood_league(self, world):
        """GIN-HOLLYWOOD: a league's tables play its options."""
        admin = Client()
        admin.force_login(world.admin)
        response = admin.post(
            f"/clubs/{world.club.slug}/leagues/new/",
            {
                "name": "Hollywood Tuesdays",
                "variant": "gin",
                "gin__preset": "hollywood",
                "gin__target": "125",
                "gin__no_rediscard": "on",
                "gin__wall": "on",
                "gin__box_bonus": "20",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        league = League.objects.get(name="Hollywood Tuesdays")
        assert league.preset == "hollywood" and league.options["hollywood"] is True
        assert league.options["target"] == 125 and league.options["box_bonus"] == 20

    def test_a_league_at_a_target_its_preset_does_not_play_is_refused(self, world):
        admin = Client()
        admin.force_login(world.admin)
        response = admin.post(
            f"/clubs/{world.club.slug}/leagues/new/",
            {"name": "Bad", "variant": "gin", "gin__preset": "american", "gin__target": "500"},
        )
        assert response.status_code == 422
        assert "GIN-MATCH" in response.content.decode()
        assert not League.objects.filter(name="Bad").exists()

    def test_the_league_form_offers_the_american_options(self, world):
        admin = Client()
        admin.force_login(world.admin)
        page = admin.get(f"/clubs/{world.club.slug}/leagues/new/").content.decode()
        assert 'value="oklahoma"' in page and 'name="gin__spade_double"' in page
        assert 'name="gin__game_bonus"' in page


class TestOklahomaHands:
    def test_a_hand_without_its_upcard_is_refused_by_the_field(self, phone):
        """GIN-OKLAHOMA: the form asks for the upcard before anything is sent."""
        table = _create(phone, preset="oklahoma", target="150")
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'name="upcard"' in page and "GIN-OKLAHOMA" in page
        response = _record(
            phone, table, knocker="0", ending="knock", knocker_count="4", defender_count="20"
        )
        assert response.status_code == 422
        assert "Choose the upcard" in response.content.decode()
        assert table.events.count() == 1

    def test_a_spade_upcard_doubles_the_hand_and_the_history_says_so(self, phone):
        """GIN-SPADES: 9♠ up, Anna knocks 4 against 20: 16 and 16 again, 32."""
        table = _create(phone, preset="oklahoma", target="150")
        response = _record(
            phone,
            table,
            knocker="0",
            ending="knock",
            knocker_count="4",
            defender_count="20",
            upcard="9S",
        )
        assert response.status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="total-0">32<' in page
        assert "spade upcard: the hand counts double" in page
        assert "upcard 9♠" in page
        assert table.events.last().payload["upcard"] == "9S"

    def test_a_knock_over_the_upcards_limit_names_the_rule(self, phone):
        """GIN-OKLAHOMA: 4♥ up, a knock with 6 is refused."""
        table = _create(phone, preset="oklahoma", target="150")
        response = _record(
            phone,
            table,
            knocker="0",
            ending="knock",
            knocker_count="6",
            defender_count="20",
            upcard="4H",
        )
        assert response.status_code == 422
        page = response.content.decode()
        assert "GIN-OKLAHOMA" in page and "keep 4 or less" in page

    def test_the_upcard_field_is_only_at_oklahoma_tables(self, phone):
        table = _create(phone, preset="american")
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Upcard at the deal" not in page and "GIN-OKLAHOMA" not in page


class TestHollywoodBoard:
    def test_the_board_draws_three_games_columns_gin_hollywood(self, phone):
        """Anna gins against 20 twice: 45 each. Game 1 90, game 2 45, game 3 0."""
        table = _create(phone, preset="hollywood")
        for _ in range(2):
            assert (
                _record(phone, table, knocker="0", ending="gin", defender_count="20").status_code
                == 302
            )
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="games"' in page
        assert 'data-testid="game-1-total-0">90<' in page
        assert 'data-testid="game-2-total-0">45<' in page
        assert 'data-testid="game-3-total-0">0<' in page
        assert 'data-testid="game-1-total-1">0<' in page
        # The match's total: every game's points, 90 + 45.
        assert 'data-testid="total-0">135<' in page
        # The columns' caption and rule are the game's switch's (GIN-HOLLYWOOD), read from
        # its option, not written into the shared template.
        games = page[page.index('data-testid="games"') :]
        games = games[: games.index("</table>")]
        assert "Hollywood: three games scored on one sheet</caption>" in games
        assert "GIN-HOLLYWOOD" in games
        # The room's screen draws the same columns.
        tv = phone.get(f"/t/{table.id}/tv/").content.decode()
        assert 'data-testid="game-2-total-0">45<' in tv and 'data-testid="tv-total-0">135<' in tv

    def test_a_finished_game_is_named_with_its_winner_and_bonus_lines(self, phone):
        """Game 1 ends with Anna's third 45 (135): game 100, boxes 3 x 25, and Bruno scored
        nothing: the shutout adds 135 + 100. Game 1: 135 + 100 + 75 + 235 = 545."""
        table = _create(phone, preset="hollywood")
        for _ in range(3):
            _record(phone, table, knocker="0", ending="gin", defender_count="20")
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="game-1-total-0">545<' in page
        assert "Anna's, after hand 3" in page

    def test_a_big_gin_board_has_no_games(self, phone):
        table = _create(phone)
        assert 'data-testid="games"' not in phone.get(f"/t/{table.id}/").content.decode()


class TestBonusLines:
    def test_each_end_bonus_is_its_own_sentence(self):
        seats = ["Anna", "Bruno"]
        box = {"rule": "GIN-BOX", "seat": 0, "points": 75, "params": {"hands": 3, "bonus": 25}}
        with translation.override("en"):
            assert item_text(box, seats) == "Anna +75: box bonus, 25 for each hand won (3)"
            game = {"rule": "GIN-GAME", "seat": 1, "points": 100, "params": {"game": 2}}
            assert item_text(game, seats) == "Bruno +100: game bonus (game 2)"
        with translation.override("it"):
            assert item_text(box, seats) != "Anna +75: box bonus, 25 for each hand won (3)"

    def test_the_tables_rules_list_the_american_options(self):
        with translation.override("en"):
            lines = table_rules("gin", {"preset": "oklahoma", "target": 150})
        rules = [rule for _title, _value, rule in lines]
        assert {"GIN-OKLAHOMA", "GIN-SPADES", "GIN-SHUTOUT", "GIN-GAME", "GIN-BOX"} <= set(rules)
        assert lines[0][1:] == ("Oklahoma", "GIN-BIGGIN")


class TestApi:
    def test_a_table_is_created_with_an_american_preset(self, api_client):
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"preset": "oklahoma"}},
            format="json",
        )
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["preset"] == "oklahoma" and body["target"] == 150
        assert body["options"]["spade_double"] is True

    def test_an_oklahoma_hand_through_the_api_doubles_under_a_spade(self, api_client):
        created = api_client.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"preset": "oklahoma"}},
            format="json",
        ).json()
        payload = {
            "mode": "quick",
            "knocker": 1,
            "ending": "gin",
            "knocker_count": 0,
            "defender_count": 12,
            "upcard": "5S",
        }
        response = api_client.post(
            f"/api/v1/tables/{created['id']}/events/",
            {
                "event_id": str(uuid.uuid4()),
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": payload,
            },
            format="json",
            HTTP_X_TABLE_KEY=created["scorekeeper_key"],
        )
        assert response.status_code == 201, response.content
        # GIN-SPADES: 25 + 12 = 37, doubled 74.
        assert response.json()["totals"] == [0, 74]

    def test_spades_without_oklahoma_are_refused_naming_the_rule(self, api_client):
        response = api_client.post(
            "/api/v1/tables/",
            {"variant": "gin", "players": ["A", "B"], "options": {"spade_double": True}},
            format="json",
        )
        assert response.status_code == 422
        assert response.json()["violations"][0]["rule"] == "GIN-SPADES"

    def test_the_schema_names_the_gin_options(self, api_client):
        schema = api_client.get("/api/schema/?format=json").json()
        options = schema["components"]["schemas"]["TableCreateRequest"]["properties"]["options"]
        assert options["properties"]["preset"]["enum"] == [
            "big_gin",
            "classic",
            "american",
            "oklahoma",
            "hollywood",
        ]
        assert options["properties"]["game_bonus"] == {
            "type": "integer",
            "minimum": 0,
            "maximum": 500,
        }
        assert options["properties"]["hollywood"] == {"type": "boolean"}

    def test_the_referee_scores_an_oklahoma_hand_with_its_spade(self, api_client):
        """GIN-SPADES at the referee: KNOCK_5 against the defender's 12 under the Q♠:
        12 - 5 = 7, doubled 14; the items say so."""
        response = api_client.post(
            "/api/v1/referee/score/",
            {
                "variant": "gin",
                "preset": "oklahoma",
                "upcard": "QS",
                "players": [
                    {"name": "Anna", "hand": "7S 8S 9S KC KH KD 2C 3C 4C 5H", "knocked": True},
                    {"name": "Bruno", "hand": "5S 6S 10S JS KS 8C 8H 8D QH 2D"},
                ],
            },
            format="json",
        )
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["points"] == {"Anna": 14, "Bruno": 0}
        assert [item["rule"] for item in body["items"]] == ["GIN-SCORE-KNOCK", "GIN-SPADES"]
        assert "GIN-SPADES" in [rule["rule"] for rule in body["rules"]]

    def test_the_referee_refuses_an_oklahoma_question_without_its_upcard(self, api_client):
        """GIN-OKLAHOMA: the question lacks what sets the knock limit; the hand is not judged
        (400, not a verdict of "not legal"). An upcard where the preset plays no Oklahoma is
        refused the same way."""
        players = [
            {"name": "Anna", "hand": "7S 8S 9S KC KH KD 2C 3C 4C 5H", "knocked": True},
            {"name": "Bruno", "hand": "5S 6S 10S JS KS 8C 8H 8D QH 2D"},
        ]
        for extra, code in (
            ({"preset": "oklahoma"}, "upcard_needed"),
            ({"upcard": "QS"}, "not_played"),
        ):
            response = api_client.post(
                "/api/v1/referee/score/",
                {"variant": "gin", "players": players, **extra},
                format="json",
            )
            assert response.status_code == 400, response.content
            violations = response.json()["violations"]
            assert [(v["rule"], v["code"]) for v in violations] == [("GIN-OKLAHOMA", code)]
