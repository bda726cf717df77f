"""Scala 40 at a club, as any other game: a league's season table played to elimination
feeds the standings (its own counts, in penalty points), a night of tables of three seats
its players by the standings and gives victory points by place, and the pages read both
(docs/rules.md: S40-MATCH, NIGHT-*).

The season's match, worked by hand, to 101 with no re-entry: Anna closes both hands;
Bruno holds 60 then 50 (110: out), Carla 30 then 80 (110: out in the same hand). Anna is the
last one in and wins; Bruno and Carla, out together on 110, share 2nd place by total (S40-MATCH:
the lower first, and theirs are equal).
"""

import uuid
from fractions import Fraction

import pytest
from django.test import Client

from games.standings import selectors as standings_selectors
from games.standings import services as standings_services
from games.tables import services as table_services
from games.tournaments import selectors, services
from tests.factories import LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

OPTIONS = {"target": 101, "reentries": 0}


def _append(table, event_type: str, payload: dict):
    table.refresh_from_db()
    return table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=event_type,
        payload=payload,
    )


def _points(*seats: dict) -> dict:
    return {"mode": "points", "players": list(seats), "stock_exhausted": False}


def _play_to_elimination(table) -> None:
    _append(
        table,
        "hand_recorded",
        _points({"went_out": True, "points": 0}, {"points": 60}, {"points": 30}),
    )
    _append(
        table,
        "hand_recorded",
        _points({"went_out": True, "points": 0}, {"points": 50}, {"points": 80}),
    )


@pytest.fixture
def scala40(world):
    return LeagueFactory(
        club=world.club,
        actor=world.admin,
        name="Scala 40",
        variant="scala40",
        players=3,
        options=OPTIONS,
    )


class TestALeague:
    def test_the_last_one_in_wins_and_the_standings_count_it(self, world, scala40):
        season = SeasonFactory(league=scala40, actor=world.admin, name="Autumn")
        table = world.table(world.anna, world.bruno, world.carla, season_id=season.pk)
        assert (table.variant, table.options["target"]) == ("scala40", 101)
        _play_to_elimination(table)
        standings_services.season_standings_recompute(season_id=season.pk)
        view = standings_selectors.season_standings(season=season)
        assert view.lower_is_better and view.counts == (
            "went_out",
            "hand_closures",
            "opening_penalties",
        )
        first = view.lines[0]
        assert first.name == "Anna" and first.counts == [2, 0, 0]
        page = Client()
        page.force_login(world.member)
        url = f"/clubs/{world.club.slug}/l/{scala40.slug}/s/{season.pk}/"
        body = page.get(url).content.decode()
        assert "Hand closures" in body and "Failed openings" in body
        assert "Penalty points" in body


class TestANightOfTables:
    def test_tables_of_three_give_victory_points_by_place(self, world, scala40):
        for name in ("Dario", "Elena", "Franco"):
            PlayerFactory(club=world.club, actor=world.admin, name=name)
        night = services.tournament_create(
            actor=world.admin,
            club_id=world.club.pk,
            league_id=scala40.pk,
            name="Scala night",
            rounds=2,
            round_minutes=30,
            format="swiss",
            seed=3,
        )
        assert night.format == "tables"
        services.entrants_register(
            actor=world.admin,
            tournament_id=night.pk,
            player_ids=[p.pk for p in world.club.players.all()],
        )
        started = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert sorted(len(t.seats.all()) for t in started.tables) == [3, 3]
        played = started.tables[0]
        _play_to_elimination(played)
        for seat in range(3):
            _append(played, "result_confirmed", {"seat": seat})
        winner = played.seats.get(position=0).player.name
        lines = {
            line.name: line.row.victory_points
            for line in selectors.night_standings(tournament=night)
        }
        # NIGHT-SHARED-PLACE: 1st 4; the two sharing 2nd share 2 + 1.
        assert lines[winner] == 4
        others = [
            lines[seat.player.name] for seat in played.seats.all() if seat.player.name != winner
        ]
        assert others == [Fraction(3, 2), Fraction(3, 2)]
