"""The night's other formats: a round robin for two-player games, and tables of 3 to 6
seated by the standings for the others."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from games.shared.errors import ActionRefused
from games.tournaments import selectors, services
from tests.factories import LeagueFactory, PlayerFactory
from tests.games.tournaments.helpers import finish_gin_table

pytestmark = pytest.mark.django_db


def _night(world, names, *, league=None, format="swiss", rounds=3, **settings):
    for name in names:
        PlayerFactory(club=world.club, actor=world.admin, name=name)
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=(league or world.league).pk,
        name="Night",
        rounds=rounds,
        round_minutes=30,
        format=format,
        seed=3,
        **settings,
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=tournament.pk,
        player_ids=[p.pk for p in world.club.players.all()],
    )
    return tournament


def _finish_gin_round(world, tournament):
    started = services.round_start(actor=world.admin, tournament_id=tournament.pk)
    for table in started.tables:
        finish_gin_table(table.id)
    return started


def _pairs(started) -> list[frozenset]:
    return [frozenset(s.player.name for s in t.seats.all()) for t in started.tables]


class TestRoundRobin:
    def test_four_players_meet_each_other_once_in_three_rounds(self, world):
        tournament = _night(world, ["Dario"], format="round_robin", rounds=1)
        met = []
        for _ in range(3):
            met += _pairs(_finish_gin_round(world, tournament))
        tournament.refresh_from_db()
        assert tournament.rounds == 3  # the schedule's length, not the 1 asked
        everyone = {"Anna", "Bruno", "Carla", "Dario"}
        assert sorted(map(sorted, met)) == sorted(
            sorted(pair) for pair in itertools.combinations(everyone, 2)
        )
        with pytest.raises(ActionRefused, match="Every round"):
            services.round_start(actor=world.admin, tournament_id=tournament.pk)

    def test_five_players_each_sit_out_once(self, world):
        tournament = _night(world, ["Dario", "Elena"], format="round_robin")
        byes = Counter()
        for _ in range(5):
            started = _finish_gin_round(world, tournament)
            byes[started.round.bye.player.name] += 1
        assert byes == Counter({n: 1 for n in ("Anna", "Bruno", "Carla", "Dario", "Elena")})
        # Four matches each, 3 VP a win, and a bye worth a win: 10 matches, 5 byes.
        total = sum(
            line.row.victory_points for line in selectors.night_standings(tournament=tournament)
        )
        assert total == 10 * 3 + 5 * 3


class TestTables:
    @pytest.fixture
    def ramino_league_of_three(self, world):
        return LeagueFactory(
            club=world.club, actor=world.admin, variant="ramino", players=3, options={}
        )

    def test_nine_players_sit_at_three_tables_then_with_new_table_mates(
        self, world, ramino_league_of_three
    ):
        """NIGHT-SEATING, NIGHT-LOCK (a 0-0-0 lock), NIGHT-SHARED-PLACE."""
        names = ["Dario", "Elena", "Franco", "Gina", "Ivo", "Lia"]
        tournament = _night(world, names, league=ramino_league_of_three)
        assert tournament.format == "tables"
        first = services.round_start(actor=world.admin, tournament_id=tournament.pk)
        assert sorted(len(t.seats.all()) for t in first.tables) == [3, 3, 3]
        # Time is up at every table before a hand: the director locks them, level.
        for pairing in first.round.tables.all():
            services.table_decide(
                actor=world.admin,
                tournament_id=tournament.pk,
                round_table_id=pairing.pk,
                decision="lock",
                reason="time",
            )
        lines = selectors.night_standings(tournament=tournament)
        # Three players sharing 1st place at a table share 4 + 2 + 1 VP (ByPlace): 7/3 each.
        assert {line.row.victory_points for line in lines} == {Fraction(7, 3)}
        second = services.round_start(actor=world.admin, tournament_id=tournament.pk)
        before = {p for t in _pairs(first) for p in itertools.combinations(sorted(t), 2)}
        after = {p for t in _pairs(second) for p in itertools.combinations(sorted(t), 2)}
        assert not before & after, "a table-mate of round 1 again"


class TestKnockout:
    def test_six_players_top_seeds_have_byes_and_winners_go_on_to_one_champion(self, world):
        """NIGHT-KO-SEEDS."""
        tournament = _night(world, ["Dario", "Elena", "Franco"], format="knockout", rounds=1)
        first = _finish_gin_round(world, tournament)
        tournament.refresh_from_db()
        # Eight places for six: the two top seeds go straight to round 2; 3 rounds in all.
        assert tournament.rounds == 3 and len(first.tables) == 2
        seeds = tournament.field
        byes = {seeds[0], seeds[1]}
        winners = {t.seats.get(position=0).player_id for t in first.tables}
        second = _finish_gin_round(world, tournament)
        in_second = {s.player_id for t in second.tables for s in t.seats.all()}
        entrant_players = dict(tournament.entrants.values_list("pk", "player_id"))
        assert in_second == {entrant_players[e] for e in byes} | winners
        final = _finish_gin_round(world, tournament)
        assert len(final.tables) == 1
        finalists = {s.player_id for s in final.tables[0].seats.all()}
        assert finalists == {t.seats.get(position=0).player_id for t in second.tables}
        with pytest.raises(ActionRefused):
            services.round_start(actor=world.admin, tournament_id=tournament.pk)

    def test_the_bracket_shows_byes_winners_and_the_places_still_to_fill(self, world):
        """Six players in eight places: 1 v bye, 4 v 5, 2 v bye, 3 v 6 (seeds), then the
        semi-finals (1 or the 4-5 winner, 2 or the 3-6 winner) and the final."""
        tournament = _night(world, ["Dario", "Elena", "Franco"], format="knockout", rounds=1)
        first = _finish_gin_round(world, tournament)
        tournament.refresh_from_db()
        name = dict(tournament.entrants.values_list("pk", "player__name"))
        seed = [name[pk] for pk in tournament.field]  # seed 1 first
        columns = selectors.bracket(tournament=tournament)
        assert [len(column) for column in columns] == [4, 2, 1]
        shown = [[(slot.name, slot.won, slot.bye) for slot in m.slots] for m in columns[0]]
        # The seat 0 player wins each table (finish_gin_table).
        winner = {t.seats.get(position=0).player.name for t in first.tables}
        assert shown[0] == [(seed[0], True, False), ("", False, True)]
        assert shown[2] == [(seed[1], True, False), ("", False, True)]
        for match, pair in ((shown[1], (seed[3], seed[4])), (shown[3], (seed[2], seed[5]))):
            assert [slot[0] for slot in match] == list(pair)
            assert [slot[1] for slot in match] == [p in winner for p in pair]
            assert sum(slot[1] for slot in match) == 1
        semis = [[slot.name for slot in m.slots] for m in columns[1]]
        assert semis == [
            [seed[0], next(p for p in (seed[3], seed[4]) if p in winner)],
            [seed[1], next(p for p in (seed[2], seed[5]) if p in winner)],
        ]
        assert [(slot.name, slot.bye) for slot in columns[2][0].slots] == [("", False)] * 2

    def test_a_match_without_a_winner_holds_the_next_round(self, world):
        """NIGHT-KO-DRAW."""
        tournament = _night(world, ["Dario"], format="knockout")
        started = services.round_start(actor=world.admin, tournament_id=tournament.pk)
        for pairing in started.round.tables.all():
            # Time is up before a hand: a lock leaves them level, with no winner.
            services.table_decide(
                actor=world.admin,
                tournament_id=tournament.pk,
                round_table_id=pairing.pk,
                decision="lock",
                reason="time",
            )
        with pytest.raises(ActionRefused, match="no winner"):
            services.round_start(actor=world.admin, tournament_id=tournament.pk)


class TestVictoryPoints:
    def test_bands_give_the_winner_more_the_wider_the_margin(self, world):
        tournament = _night(world, ["Dario"], scale="bands", rounds=1)
        _finish_gin_round(world, tournament)
        # Gin against 30: 25 + 30 = 55 (GIN-SCORE-GIN), a margin of 55: the band from 50
        # gives the winner 14 and the loser 6.
        vps = sorted(
            line.row.victory_points for line in selectors.night_standings(tournament=tournament)
        )
        assert vps == [6, 6, 14, 14]

    def test_the_director_s_points_for_a_win_and_a_loss(self, world):
        tournament = _night(world, ["Dario"], rounds=1, points=(2, 1, 1, 2))
        _finish_gin_round(world, tournament)
        vps = sorted(
            line.row.victory_points for line in selectors.night_standings(tournament=tournament)
        )
        assert vps == [1, 1, 2, 2]
