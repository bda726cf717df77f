"""A tournament night through its services: rounds paired by the standings its tables'
logs give, a table per pairing, byes, and standings with victory points."""

from collections import Counter
from datetime import timedelta
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.shared.errors import ActionRefused
from games.tournaments import selectors, services
from games.tournaments.tasks import night_standings_refresh
from tests.factories import PlayerFactory
from tests.games.tournaments.helpers import append, finish_gin_table
from tests.payloads import quick

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo")


@pytest.fixture
def gin_night_of_eight(world):
    """A 3-round night of the club's Gin league (Classic to 50) with eight players in."""
    others = [PlayerFactory(club=world.club, actor=world.admin, name=n) for n in NAMES[3:]]
    players = [world.anna, world.bruno, world.carla, *others]
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin night",
        rounds=3,
        round_minutes=40,
        seed=7,
    )
    services.entrants_register(
        actor=world.admin, tournament_id=tournament.pk, player_ids=[p.pk for p in players]
    )
    return tournament


def _play_round(world, tournament, winners_seat=0):
    """Start the next round and finish every table: the seat ``winners_seat`` goes gin with
    the other left on 30 (GIN-SCORE-GIN: 25 + 30 = 55, past the 50 target in one hand)."""
    started = services.round_start(actor=world.admin, tournament_id=tournament.pk)
    for table in started.tables:
        finish_gin_table(table.id, winner_seat=winners_seat)
    return started


class TestRounds:
    def test_the_first_round_seats_everyone_once_at_four_tables(self, world, gin_night_of_eight):
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        assert len(started.tables) == 4 and started.round.bye is None
        seated = Counter(seat.player.name for t in started.tables for seat in t.seats.all())
        assert sorted(seated) == sorted(NAMES) and set(seated.values()) == {1}
        # Each table plays the league's rules, pinned.
        assert {t.options["target"] for t in started.tables} == {50}
        assert started.round.ends_at - started.round.started_at == timedelta(minutes=40)

    def test_no_round_starts_while_tables_of_the_last_are_playing(self, world, gin_night_of_eight):
        services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        with pytest.raises(ActionRefused, match="still playing: 1, 2, 3, 4"):
            services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)

    def test_the_second_round_pairs_winners_with_winners_and_no_rematch(
        self, world, gin_night_of_eight
    ):
        first = _play_round(world, gin_night_of_eight)
        second = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        winners = {t.seats.get(position=0).player_id for t in first.tables}
        met = {frozenset(s.player_id for s in t.seats.all()) for t in first.tables}
        for table in second.tables:
            pair = frozenset(s.player_id for s in table.seats.all())
            assert pair not in met
            # 1st meets 2nd, 3rd meets 4th: two winners, or two losers, at each table.
            assert len(pair & winners) in (0, 2)

    def test_the_night_ends_with_every_victory_point_given(self, world, gin_night_of_eight):
        for _ in range(3):
            _play_round(world, gin_night_of_eight)
        with pytest.raises(ActionRefused, match="Every round"):
            services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        lines = selectors.night_standings(tournament=gin_night_of_eight)
        # 4 tables × 3 rounds, 3 VP to each winner, 0 to each loser.
        assert sum(line.row.victory_points for line in lines) == 36
        # Swiss with 8 players: exactly one wins all three rounds.
        assert [line.row.victory_points for line in lines][:2] == [Fraction(9), Fraction(6)]
        services.tournament_finish(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        gin_night_of_eight.refresh_from_db()
        assert gin_night_of_eight.status == "finished"

    def test_an_odd_field_gives_a_bye_worth_a_win(self, world, gin_night_of_eight):
        """NIGHT-BYE."""
        ugo = gin_night_of_eight.entrants.get(player__name="Ugo")
        services.entrant_set(
            actor=world.admin,
            tournament_id=gin_night_of_eight.pk,
            entrant_id=ugo.pk,
            checked_in=True,
            withdrawn=True,
        )
        started = _play_round(world, gin_night_of_eight)
        assert len(started.tables) == 3 and started.round.bye is not None
        lines = {
            line.name: line.row for line in selectors.night_standings(tournament=gin_night_of_eight)
        }
        assert lines[started.round.bye.player.name].victory_points == 3
        assert lines["Ugo"].victory_points == 0 and lines["Ugo"].played == 0


class TestSettlingResults:
    def test_the_next_round_waits_for_every_player_to_confirm(self, world, gin_night_of_eight):
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        for table in started.tables:
            append(table.id, 1, "hand_recorded", quick(0, "gin", 0, 30))
            append(table.id, 2, "result_confirmed", {"seat": 1})
        with pytest.raises(ActionRefused, match="confirmed by their players: tables 1, 2, 3, 4"):
            services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)

    def test_at_time_the_director_locks_a_table_and_its_totals_stand(
        self, world, gin_night_of_eight
    ):
        """NIGHT-LOCK."""
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        first, *others = started.round.tables.all()
        # Table 1 is still playing when time is up: seat 1 leads 35 to 0 (25 + 10).
        append(first.table.id, 1, "hand_recorded", quick(1, "gin", 0, 10))
        services.table_decide(
            actor=world.admin,
            tournament_id=gin_night_of_eight.pk,
            round_table_id=first.pk,
            decision="lock",
            reason="time is up",
        )
        for pairing in others:
            services.table_decide(
                actor=world.admin,
                tournament_id=gin_night_of_eight.pk,
                round_table_id=pairing.pk,
                decision="void",
                reason="did not play",
            )
        found = selectors.night_results(tournament=gin_night_of_eight)
        assert not found.playing and not found.to_confirm
        lines = {
            line.name: line.row.victory_points
            for line in selectors.night_standings(tournament=gin_night_of_eight, found=found)
        }
        leader = first.seats.get(seat=1).entrant.player.name
        assert lines[leader] == 3 and sum(lines.values()) == 3
        # The locked table takes no more hands; the next round can start.
        first.table.refresh_from_db()
        assert first.table.status == "finished"
        services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)

    def test_only_an_admin_decides(self, world, gin_night_of_eight):
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        with pytest.raises(ActionRefused):
            services.table_decide(
                actor=world.member,
                tournament_id=gin_night_of_eight.pk,
                round_table_id=started.round.tables.first().pk,
                decision="void",
                reason="x",
            )


class TestWhoMay:
    def test_a_member_who_is_not_an_admin_cannot_start_a_round(self, world, gin_night_of_eight):
        with pytest.raises(ActionRefused):
            services.round_start(actor=world.member, tournament_id=gin_night_of_eight.pk)

    def test_a_night_needs_a_league_of_two_player_tables(self, world):
        with pytest.raises(ValidationError):
            services.tournament_create(
                actor=world.admin,
                club_id=world.club.pk,
                league_id=world.other_club.pk,  # not one of this club's leagues
                name="x",
                rounds=3,
                round_minutes=30,
            )

    def test_names_are_unique_in_a_club_whatever_the_capitals(self, world, gin_night_of_eight):
        with pytest.raises(ValidationError, match="already has a tournament"):
            services.tournament_create(
                actor=world.admin,
                club_id=world.club.pk,
                league_id=world.league.pk,
                name="GIN NIGHT",
                rounds=3,
                round_minutes=30,
            )


class TestStandingsKept:
    def test_standings_follow_every_result_and_are_kept_in_between(self, world, gin_night_of_eight):
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        before = selectors.night_standings(tournament=gin_night_of_eight)
        assert {line.row.victory_points for line in before} == {0}
        with CaptureQueriesContext(connection) as queries:
            again = selectors.night_standings(tournament=gin_night_of_eight)
        assert again == before
        # Only what names them is read (entrants, rounds, table heads), no table's log.
        assert len(queries) <= 4
        assert not [q for q in queries.captured_queries if "games_event" in q["sql"]]
        finish_gin_table(started.tables[0].id)
        after = selectors.night_standings(tournament=gin_night_of_eight)
        assert sorted(line.row.victory_points for line in after)[-1] == 3

    @pytest.mark.usefixtures("eager_celery")
    def test_a_settled_table_has_a_worker_work_the_standings_out_at_once(
        self, world, gin_night_of_eight, django_capture_on_commit_callbacks
    ):
        started = services.round_start(actor=world.admin, tournament_id=gin_night_of_eight.pk)
        with django_capture_on_commit_callbacks(execute=True) as queued:
            finish_gin_table(started.tables[0].id)
        # The hand that ended the match and each confirmation: one refresh each.
        refreshes = [f for f in queued if getattr(f, "task", None) is night_standings_refresh]
        assert len(refreshes) == 3
        kept = cache.get(selectors._standings_key(gin_night_of_eight))
        assert kept is not None
        assert sorted(line.row.victory_points for line in kept)[-1] == 3
