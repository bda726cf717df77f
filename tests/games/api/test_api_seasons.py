"""The seasons API: a season's standings, and starting a league table, with their access."""

import pytest
from rest_framework.test import APIClient

from games.clubs import services as club_services
from games.models import Table
from tests.factories import PlayerFactory, TableFactory
from tests.games.clubs_setup import record
from tests.payloads import quick

# Standings are recomputed by tasks queued on commit: here they run in-process, whatever
# broker CI configures (tests/games/test_standings_worker.py covers real workers).
# The club world of every test here has one finished match in its season.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("eager_celery", "a_finished_match"),
]


@pytest.fixture
def a_finished_match(world, django_capture_on_commit_callbacks):
    """Anna's win over Bruno in the world's season, what it queued run."""
    with django_capture_on_commit_callbacks(execute=True):
        table = world.table()
        # Anna goes gin against Bruno's 30: 25 + 30 = 55 ends the match to 50 (GIN-SCORE-GIN).
        record(table, quick(0, "gin", 0, 30), world.member)
    return table


def client_for(user=None, *, csrf: bool = False) -> APIClient:
    api = APIClient(enforce_csrf_checks=csrf)
    if user is not None:
        api.force_login(user)
    return api


def standings_url(world) -> str:
    return f"/api/v1/seasons/{world.season.pk}/standings/"


class TestStandings:
    def test_a_member_reads_the_standings(self, world):
        body = client_for(world.member).get(standings_url(world)).json()
        assert (body["season"], body["variant"], body["matches"]) == (world.season.pk, "gin", 1)
        assert body["tiebreakers"] == ["head_to_head", "points_difference"]
        assert body["up_to_date"] is True and body["lower_is_better"] is False
        anna, bruno = body["rows"]
        assert (anna["name"], anna["rank"], anna["won"], anna["points_for"]) == ("Anna", 1, 1, 55)
        assert anna["counts"]["gins"] == 1 and anna["win_rate"] == 1
        assert (bruno["name"], bruno["rank"], bruno["lost"], bruno["points_against"]) == (
            "Bruno",
            2,
            1,
            55,
        )

    @pytest.mark.parametrize("who", ["anonymous", "outsider"])
    def test_a_private_league_is_not_found_for_others(self, world, who):
        user = None if who == "anonymous" else world.outsider
        response = client_for(user).get(standings_url(world))
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"

    def test_a_public_league_answers_anyone(self, world):
        club_services.league_set_public(actor=world.admin, league_id=world.league.pk, public=True)
        response = client_for().get(standings_url(world))
        assert response.status_code == 200
        assert [row["name"] for row in response.json()["rows"]] == ["Anna", "Bruno"]

    def test_an_unknown_season_is_not_found(self, world):
        assert client_for(world.member).get("/api/v1/seasons/999999/standings/").status_code == 404


class TestSeasonTables:
    def url(self, world) -> str:
        return f"/api/v1/seasons/{world.season.pk}/tables/"

    def test_a_member_starts_a_league_table(self, world):
        response = client_for(world.member).post(
            self.url(world), {"players": [world.carla.pk, world.anna.pk]}, format="json"
        )
        assert response.status_code == 201, response.json()
        body = response.json()
        assert [seat["name"] for seat in body["seats"]] == ["Carla", "Anna"]
        table = Table.objects.get(pk=body["id"])
        assert (table.season_id, table.variant, table.options) == (
            world.season.pk,
            "gin",
            world.league.options,
        )
        assert table.practice is False

    def test_the_seat_count_is_the_leagues(self, world):
        response = client_for(world.member).post(
            self.url(world),
            {"players": [world.anna.pk, world.bruno.pk, world.carla.pk]},
            format="json",
        )
        assert response.status_code == 400
        assert response.json()["fields"]["players"] == ["This league's tables have 2 players."]
        assert Table.objects.count() == 1

    def test_players_of_another_club_are_refused(self, world):
        stranger = PlayerFactory(club=world.other_club, name="Zed")
        response = client_for(world.member).post(
            self.url(world), {"players": [world.anna.pk, stranger.pk]}, format="json"
        )
        assert response.status_code == 400
        assert "club's players" in response.json()["fields"]["players"][0]

    def test_outsiders_and_anonymous_cannot(self, world):
        outsider = client_for(world.outsider).post(
            self.url(world), {"players": [world.anna.pk, world.bruno.pk]}, format="json"
        )
        assert outsider.status_code == 404
        anonymous = client_for().post(
            self.url(world), {"players": [world.anna.pk, world.bruno.pk]}, format="json"
        )
        assert anonymous.status_code == 403
        assert Table.objects.count() == 1

    def test_a_closed_season_takes_no_new_table(self, world):
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        response = client_for(world.member).post(
            self.url(world), {"players": [world.anna.pk, world.bruno.pk]}, format="json"
        )
        assert response.status_code == 403
        assert response.json()["error"] == "permission_denied"

    def test_a_session_post_needs_the_csrf_token(self, world):
        response = client_for(world.member, csrf=True).post(
            self.url(world), {"players": [world.anna.pk, world.bruno.pk]}, format="json"
        )
        assert response.status_code == 403
        assert "CSRF" in response.json()["detail"]
        assert Table.objects.count() == 1


def test_the_table_key_header_is_optional_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    parameters = schema["paths"]["/api/v1/tables/{table_id}/state/"]["get"]["parameters"]
    key = next(p for p in parameters if p["name"] == "X-Table-Key")
    assert key.get("required", False) is False  # OpenAPI: absent means optional
    assert "signed-in member" in key["description"]


def test_a_player_id_beyond_any_id_is_a_clear_400(world):
    response = client_for(world.member).post(
        f"/api/v1/seasons/{world.season.pk}/tables/",
        {"players": [world.anna.pk, 10**30]},
        format="json",
    )
    assert response.status_code == 400
    assert "players" in response.json()["fields"]


class TestWhoRecorded:
    def test_at_a_league_table_the_record_names_the_signed_in_member(self, world):
        table = world.table(world.carla, world.anna)
        response = client_for(world.member).post(
            f"/api/v1/tables/{table.pk}/events/",
            {
                "event_id": "6f1c1d9e-2f1e-4b7a-9a57-3c9c1c2f0a11",
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": quick(0, "gin", 0, 30),
                "entered_by": "olga (the owner)",
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        assert table.events.get(seq=2).entered_by == world.member.username == "mara"

    def test_at_a_casual_table_the_name_the_phone_gives_is_kept(self, world):
        table = TableFactory()
        response = APIClient().post(
            f"/api/v1/tables/{table.pk}/events/",
            {
                "event_id": "0b7c6a1e-0d1f-4f5e-8a2b-9c3d4e5f6a7b",
                "expected_seq": 1,
                "type": "hand_recorded",
                "payload": quick(0, "gin", 0, 30),
                "entered_by": "Anna's phone",
            },
            format="json",
            HTTP_X_TABLE_KEY=table.scorekeeper_key,
        )
        assert response.status_code == 201, response.json()
        assert table.events.get(seq=2).entered_by == "Anna's phone"
