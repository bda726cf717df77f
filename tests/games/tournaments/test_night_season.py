"""A night counted in a league season: its tables are the season's, the table cards' keys
record at them while the season is open, and their results go into its standings."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from games.clubs.services import season_close
from games.shared.errors import ActionRefused
from games.standings.selectors import season_standings
from games.tables.models import Table
from games.tournaments import services
from games.tournaments.models import RoundTable, Tournament
from tests.factories import LeagueFactory
from tests.games.clubs_setup import open_autumn
from tests.games.pages.test_pages import _hand_data
from tests.games.tournaments.helpers import NIGHT_FORM, finish_gin_table

pytestmark = pytest.mark.django_db


def _night(world, rounds=1, **extra):
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin night",
        rounds=rounds,
        round_minutes=30,
        seed=3,
        **extra,
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=tournament.pk,
        player_ids=[world.anna.pk, world.bruno.pk],
    )
    return tournament


def test_the_cards_key_records_and_the_result_goes_into_the_season(
    world, director, django_capture_on_commit_callbacks, eager_celery
):
    club = f"/clubs/{world.club.slug}/n/"
    form = director.get(club + "new/").content.decode()
    assert "Counted in the season" in form and "Spring" in form
    data = {**NIGHT_FORM, "rounds": 1, "league": world.league.pk, "season": world.season.pk}
    assert director.post(club + "new/", data).status_code == 302
    tournament = Tournament.objects.get(name="Gin night")
    assert tournament.season == world.season
    url = f"{club}{tournament.pk}/"
    assert "Counted in the season" in director.get(url).content.decode()
    director.post(url + "entrants/", {"players": [world.anna.pk, world.bruno.pk]})
    assert director.post(url + "rounds/").status_code == 302
    table = RoundTable.objects.get(round__tournament=tournament).table
    assert table.season == world.season and table.keys_record
    # The director, a member, records there too, without a key.
    assert "Record a hand" in director.get(f"/t/{table.id}/").content.decode()

    # A phone that is nobody's account joins with the code on the table card and records.
    code = re.search(
        r'data-testid="card-code">([^<]+)<', director.get(url + "cards/").content.decode()
    )
    phone = Client()
    assert phone.post("/join/", {"code": code.group(1)}).url == f"/t/{table.id}/"
    page = phone.get(f"/t/{table.id}/").content.decode()
    hand = _hand_data(page, knocker="0", ending="gin", knocker_count="0", defender_count="30")
    with django_capture_on_commit_callbacks(execute=True):
        assert phone.post(f"/t/{table.id}/hands/", hand).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED  # GIN-SCORE-GIN: 25 + 30, past 50

    standings = season_standings(season=world.season)
    assert standings.matches == 1 and standings.up_to_date
    seated = {seat.position: seat.player for seat in table.seats.all()}
    top = standings.lines[0]
    assert top.player == seated[0] and top.row["won"] == 1


def test_once_the_season_closes_the_key_only_watches_and_no_round_starts(world):
    tournament = _night(world, rounds=2, season_id=world.season.pk)
    started = services.round_start(actor=world.admin, tournament_id=tournament.pk)
    table = started.tables[0]
    finish_gin_table(table.id)
    season_close(actor=world.admin, season_id=world.season.pk)
    phone = Client()
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    page = phone.get(f"/t/{table.id}/")
    assert page.status_code == 200 and "Record a hand" not in page.content.decode()
    assert phone.post(f"/t/{table.id}/hands/", {}).status_code == 403
    assert table.events.count() == 4  # the hand and both confirmations, nothing after
    with pytest.raises(ActionRefused, match="season this night counts in is closed"):
        services.round_start(actor=world.admin, tournament_id=tournament.pk)


def test_only_an_open_season_of_the_nights_league_counts(world):
    other_league = LeagueFactory(club=world.club, actor=world.admin, name="Gin Fridays")
    with pytest.raises(ValidationError, match="open season of the league"):
        services.tournament_create(
            actor=world.admin,
            club_id=world.club.pk,
            league_id=other_league.pk,
            name="Wrong season",
            rounds=1,
            round_minutes=30,
            season_id=world.season.pk,
        )
    autumn = open_autumn(world)
    season_close(actor=world.admin, season_id=autumn.pk)
    with pytest.raises(ValidationError, match="open season of the league"):
        _night(world, season_id=autumn.pk)


def test_a_league_tables_key_still_only_watches(world):
    """Keys record only at a night's tables: at the season's other tables members do."""
    table = world.table()
    phone = Client()
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    assert phone.post(f"/t/{table.id}/hands/", {}).status_code == 403


def test_a_night_standing_alone_plays_casual_tables(
    world, django_capture_on_commit_callbacks, eager_celery
):
    started = services.round_start(actor=world.admin, tournament_id=_night(world).pk)
    table = started.tables[0]
    assert table.season is None and not table.keys_record
    # What a finished league match queues runs here: none of it may count this table.
    with django_capture_on_commit_callbacks(execute=True):
        finish_gin_table(table.id)
    assert season_standings(season=world.season).matches == 0
