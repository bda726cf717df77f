"""Season standings as projections of the league tables' logs, recomputed on commit.

The small season below is worked by hand from the Gin rules (docs/rules.md, Classic to 50):
gin scores 25 + the defender's count (GIN-SCORE-GIN), a knock the difference of the counts
(GIN-SCORE-KNOCK), and the first total to reach 50 wins the match (GIN-MATCH).

- Match 1, Anna v Bruno: Anna gin, Bruno 30 → Anna 55. Anna wins 55–0.
- Match 2, Bruno v Carla: Bruno knocks 4 v 20 (+16); Carla gin v 10 (+35); Carla knocks
  2 v 12 (+10, 45); Bruno gin v 40 (+65, 81). Bruno wins 81–45.
- Match 3, Carla v Anna: Anna gin, Carla 25 → Anna 50. Anna wins 50–0.
- Match 4, Carla v Bruno: Carla gin, Bruno 30 → Carla 55. Carla wins 55–0.

Anna: 2 played, 2 won; for 55 + 50 = 105, against 0; 2 hands, 2 won; 2 gins.
Bruno: 3 played, 1 won, 2 lost; for 0 + 81 + 0 = 81, against 55 + 45 + 55 = 155 (−74);
  hands 1 + 4 + 1 = 6, won 2 (a knock, a gin).
Carla: 3 played, 1 won, 2 lost; for 45 + 0 + 55 = 100, against 81 + 50 + 0 = 131 (−31);
  hands 6, won 3 (a gin and a knock in match 2, the gin of match 4).
Bruno and Carla tie on record; head to head they are 1–1 (matches 2 and 4), so points
difference decides: Carla (−31) above Bruno (−74). The differences sum to 0.
"""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.clubs import services as club_services
from games.models import MatchResult, RecomputeJob, SeasonStandings, Table
from games.shared.errors import ActionRefused
from games.standings import queue as standings_queue
from games.standings import selectors as standings_selectors
from games.standings import services as standings_services
from games.tables.tasks import tables_audit
from scoring.ratings import ratings_over
from scoring.standings import MatchSummary
from tests.factories import UserFactory
from tests.games.clubs_setup import open_autumn, play, record
from tests.payloads import quick

# Standings are recomputed by tasks queued on commit: here they run in-process, whatever
# broker CI configures (tests/games/test_standings_worker.py covers real workers).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def small_season(world) -> list[Table]:
    """Play the four matches of the module docstring."""
    anna, bruno, carla = world.anna, world.bruno, world.carla
    return [
        play(world, (anna, bruno), [quick(0, "gin", 0, 30)]),
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
        play(world, (carla, bruno), [quick(0, "gin", 0, 30)]),
    ]


def rows_by_name(world, season=None) -> dict[str, dict]:
    standing = SeasonStandings.objects.get(season=season or world.season)
    names = {p.pk: p.name for p in (world.anna, world.bruno, world.carla)}
    return {names[row["player"]]: row for row in standing.rows}


@pytest.fixture
def season_played(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tables = small_season(world)
    return world, tables


class TestSmallSeason:
    def test_rows_are_the_hand_worked_standings(self, season_played):
        world, _ = season_played
        standing = SeasonStandings.objects.get(season=world.season)
        assert [row["player"] for row in standing.rows] == [
            world.anna.pk,
            world.carla.pk,
            world.bruno.pk,
        ]
        rows = rows_by_name(world)
        anna, carla, bruno = rows["Anna"], rows["Carla"], rows["Bruno"]
        assert (anna["rank"], anna["played"], anna["won"], anna["lost"]) == (1, 2, 2, 0)
        assert (anna["points_for"], anna["points_against"], anna["points_difference"]) == (
            105,
            0,
            105,
        )
        assert (anna["hands_played"], anna["hands_won"]) == (2, 2)
        assert anna["counts"] == {"knocks": 0, "gins": 2, "big_gins": 0, "undercuts": 0}
        assert (carla["rank"], carla["played"], carla["won"], carla["lost"]) == (2, 3, 1, 2)
        assert (carla["points_for"], carla["points_against"]) == (100, 131)
        assert (carla["hands_played"], carla["hands_won"]) == (6, 3)
        assert carla["counts"] == {"knocks": 1, "gins": 2, "big_gins": 0, "undercuts": 0}
        assert (bruno["rank"], bruno["played"], bruno["won"], bruno["lost"]) == (3, 3, 1, 2)
        assert (bruno["points_for"], bruno["points_against"]) == (81, 155)
        assert (bruno["hands_played"], bruno["hands_won"]) == (6, 2)
        assert bruno["counts"] == {"knocks": 1, "gins": 1, "big_gins": 0, "undercuts": 0}
        # Head to head left Carla and Bruno level; points difference placed Carla above.
        assert (anna["tiebreak"], carla["tiebreak"], bruno["tiebreak"]) == (
            None,
            "points_difference",
            None,
        )
        assert sum(row["points_difference"] for row in standing.rows) == 0
        assert standing.matches == 4

    def test_the_row_records_the_events_it_reflects(self, season_played):
        world, tables = season_played
        standing = SeasonStandings.objects.get(season=world.season)
        for table in tables:
            table.refresh_from_db()
        assert standing.reflects == {str(t.id): t.head_seq for t in tables}
        # Each match's result says which head of its log it was read at.
        for table in tables:
            result = MatchResult.objects.get(table=table)
            assert (result.seq, result.head_hash) == (table.head_seq, table.head_hash)

    def test_ratings_are_rated_in_the_order_the_matches_finished(self, season_played):
        world, tables = season_played
        standing = SeasonStandings.objects.get(season=world.season)
        results = [MatchResult.objects.get(table=t) for t in tables]
        assert [r.finished_at for r in results] == sorted(r.finished_at for r in results)
        expected = ratings_over(MatchSummary.from_record(r.summary) for r in results)
        for player in (world.anna, world.bruno, world.carla):
            stored = standing.ratings[str(player.pk)]
            mine = expected.get(player.pk)
            assert stored["conservative"] == pytest.approx(mine.current.conservative)
            assert [p["match_id"] for p in stored["history"]] == [p.match_id for p in mine.history]
        rows = rows_by_name(world)
        assert rows["Anna"]["rating"] == standing.ratings[str(world.anna.pk)]["conservative"]
        # Two wins and no loss: Anna's conservative rating is the season's best.
        assert rows["Anna"]["rating"] > max(rows["Bruno"]["rating"], rows["Carla"]["rating"])

    def test_running_it_again_changes_nothing(self, season_played):
        world, _ = season_played
        before = SeasonStandings.objects.get(season=world.season)
        standings_services.season_standings_recompute(season_id=world.season.pk)
        after = SeasonStandings.objects.get(season=world.season)
        assert (after.rows, after.ratings, after.reflects, after.matches) == (
            before.rows,
            before.ratings,
            before.reflects,
            before.matches,
        )

    def test_reading_every_log_again_gives_the_same_standings(self, season_played):
        world, _ = season_played
        before = SeasonStandings.objects.get(season=world.season)
        MatchResult.objects.all().delete()
        standings_services.league_standings_recompute(league_id=world.league.pk, fresh=True)
        after = SeasonStandings.objects.get(season=world.season)
        assert (after.rows, after.ratings, after.reflects) == (
            before.rows,
            before.ratings,
            before.reflects,
        )
        assert MatchResult.objects.count() == 4


class TestWhenTheyAreRecomputed:
    def test_a_hand_that_does_not_end_the_match_queues_nothing(
        self, world, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.anna, world.bruno), [quick(0, "knock", 4, 20)])
        assert not SeasonStandings.objects.filter(season=world.season).exists()

    def test_voiding_the_hand_that_ended_a_match_takes_the_match_out(
        self, season_played, django_capture_on_commit_callbacks
    ):
        world, tables = season_played
        with django_capture_on_commit_callbacks(execute=True):
            record(tables[3], {"hand": 1, "reason": "misdeal"}, world.member, "hand_voided")
        # Without match 4: Bruno 1–1 (81 for, 100 against), Carla 0–2 (45, 131).
        rows = rows_by_name(world)
        assert [rows[n]["rank"] for n in ("Anna", "Bruno", "Carla")] == [1, 2, 3]
        assert (rows["Bruno"]["won"], rows["Bruno"]["lost"]) == (1, 1)
        assert (rows["Bruno"]["points_for"], rows["Bruno"]["points_against"]) == (81, 100)
        assert (rows["Carla"]["won"], rows["Carla"]["lost"]) == (0, 2)
        standing = SeasonStandings.objects.get(season=world.season)
        assert str(tables[3].id) not in standing.reflects
        assert standing.matches == 3

    def test_amending_a_finished_match_moves_the_points(
        self, season_played, django_capture_on_commit_callbacks
    ):
        world, tables = season_played
        with django_capture_on_commit_callbacks(execute=True):
            # Bruno held 40, not 30: Anna's gin is worth 25 + 40 = 65.
            record(
                tables[0],
                {**quick(0, "gin", 0, 40), "hand": 1, "reason": "recount"},
                world.member,
                "hand_amended",
            )
        rows = rows_by_name(world)
        assert (rows["Anna"]["points_for"], rows["Bruno"]["points_against"]) == (115, 165)
        tables[0].refresh_from_db()
        standing = SeasonStandings.objects.get(season=world.season)
        assert standing.reflects[str(tables[0].id)] == tables[0].head_seq == 3

    def test_a_recompute_that_fails_leaves_the_hand_stored_and_the_audit_catches_up(
        self, world, django_capture_on_commit_callbacks, monkeypatch, caplog
    ):
        def broken(**kwargs):
            raise RuntimeError("the worker's database went away")

        monkeypatch.setattr(standings_services, "league_standings_recompute", broken)
        with django_capture_on_commit_callbacks(execute=True):
            table = play(world, (world.anna, world.bruno), [quick(0, "gin", 0, 30)])
        # The hand that ended the match is stored; the failure is logged, not raised.
        table.refresh_from_db()
        assert (table.head_seq, table.status) == (2, "finished")
        assert "the worker's database went away" in caplog.text
        assert standings_selectors.seasons_behind() == [world.season.pk]
        monkeypatch.undo()
        tables_audit.delay()
        standing = SeasonStandings.objects.get(season=world.season)
        assert standing.matches == 1 and standing.reflects == {str(table.id): 2}
        assert standings_selectors.seasons_behind() == []

    def test_a_practice_table_never_counts(self, world, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.anna, world.bruno), [quick(1, "gin", 0, 30)], practice=True)
        assert not SeasonStandings.objects.filter(season=world.season).exists()
        standings_services.season_standings_recompute(season_id=world.season.pk)
        standing = SeasonStandings.objects.get(season=world.season)
        assert (standing.rows, standing.matches, standing.reflects) == ([], 0, {})
        assert not MatchResult.objects.exists()

    def test_a_closed_season_keeps_its_standings(
        self, season_played, django_capture_on_commit_callbacks
    ):
        world, _ = season_played
        before = SeasonStandings.objects.get(season=world.season).rows
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        standings_services.season_standings_recompute(season_id=world.season.pk)
        assert SeasonStandings.objects.get(season=world.season).rows == before


class TestRatingsAcrossSeasons:
    def test_ratings_run_on_into_the_next_season_and_follow_a_correction(
        self, season_played, django_capture_on_commit_callbacks
    ):
        world, tables = season_played
        autumn = open_autumn(world)
        with django_capture_on_commit_callbacks(execute=True):
            play(world, (world.bruno, world.anna), [quick(0, "gin", 0, 30)], season_id=autumn.pk)
        spring = SeasonStandings.objects.get(season=world.season)
        later = SeasonStandings.objects.get(season=autumn)
        # Autumn's table shows only its own match...
        assert later.matches == 1
        assert {row["player"] for row in later.rows} == {world.anna.pk, world.bruno.pk}
        # ...but Anna's rating there goes on from where Spring left it: her fifth match.
        anna = later.ratings[str(world.anna.pk)]
        assert [point["index"] for point in anna["history"]] == [4]
        assert anna["history"][0]["place"] == 2
        assert anna["conservative"] < spring.ratings[str(world.anna.pk)]["conservative"]
        # Carla did not play in Autumn: her rating is carried, with no point this season.
        assert later.ratings[str(world.carla.pk)]["history"] == []
        assert (
            later.ratings[str(world.carla.pk)]["conservative"]
            == spring.ratings[str(world.carla.pk)]["conservative"]
        )
        # A correction in Spring moves Autumn's ratings too: they build on Spring's.
        before = later.ratings
        with django_capture_on_commit_callbacks(execute=True):
            record(tables[3], {"hand": 1, "reason": "misdeal"}, world.member, "hand_voided")
        later.refresh_from_db()
        assert later.ratings[str(world.anna.pk)]["history"][0]["index"] == 3
        assert later.ratings != before


class TestFiftyMatches:
    def test_a_fifty_match_season_from_the_logs(self, world, django_capture_on_commit_callbacks):
        """Fifty one-hand matches: the seat that goes gin (25 + 30 = 55 ≥ 50) wins each."""
        players = (world.anna, world.bruno, world.carla)
        expected = {p.pk: {"played": 0, "won": 0, "for": 0, "against": 0} for p in players}
        with django_capture_on_commit_callbacks(execute=True):
            for n in range(50):
                first, second = players[n % 3], players[(n + 1) % 3]
                gin_seat = (n // 3) % 2
                play(world, (first, second), [quick(gin_seat, "gin", 0, 30)])
                winner, loser = (first, second) if gin_seat == 0 else (second, first)
                for player in (winner, loser):
                    expected[player.pk]["played"] += 1
                expected[winner.pk]["won"] += 1
                expected[winner.pk]["for"] += 55
                expected[loser.pk]["against"] += 55
        standing = SeasonStandings.objects.get(season=world.season)
        assert standing.matches == 50
        for row in standing.rows:
            mine = expected[row["player"]]
            assert (row["played"], row["won"], row["lost"]) == (
                mine["played"],
                mine["won"],
                mine["played"] - mine["won"],
            )
            assert (row["points_for"], row["points_against"]) == (mine["for"], mine["against"])
        assert sum(row["played"] for row in standing.rows) == 100
        assert sum(row["won"] for row in standing.rows) == 50
        # Ranked by wins, then fewer losses.
        records = [(-row["won"], row["lost"]) for row in standing.rows]
        assert records == sorted(records)
        assert len(standing.reflects) == 50


class TestRecomputeEverything:
    def test_only_staff_may_start_it(self, world):
        with pytest.raises(ActionRefused):
            standings_queue.recompute_job_start(user=world.owner)
        assert not RecomputeJob.objects.exists()

    def test_it_rebuilds_every_season_from_the_logs(
        self, season_played, django_capture_on_commit_callbacks
    ):
        world, _ = season_played
        before = SeasonStandings.objects.get(season=world.season)
        MatchResult.objects.all().delete()
        SeasonStandings.objects.all().delete()
        staff = UserFactory(username="staff", is_staff=True)
        with django_capture_on_commit_callbacks(execute=True):
            job = standings_queue.recompute_job_start(user=staff)
        job.refresh_from_db()
        assert (job.status, job.total, job.done, job.seasons) == ("done", 4, 4, 1)
        assert job.percent == 100 and job.finished_at is not None
        after = SeasonStandings.objects.get(season=world.season)
        assert (after.rows, after.ratings, after.reflects) == (
            before.rows,
            before.ratings,
            before.reflects,
        )
        # A redelivered job that already finished changes nothing.
        assert (
            standings_services.standings_recompute_all(job_id=job.pk).finished_at == job.finished_at
        )


class TestCommand:
    def test_the_command_rebuilds_from_the_logs(self, season_played):
        world, _ = season_played
        before = SeasonStandings.objects.get(season=world.season).rows
        SeasonStandings.objects.all().delete()
        MatchResult.objects.all().delete()
        out = StringIO()
        call_command("recompute_standings", "--league", str(world.league.pk), stdout=out)
        assert "1 season(s), 4 match(es) counted" in out.getvalue()
        assert SeasonStandings.objects.get(season=world.season).rows == before
        with pytest.raises(CommandError, match="No league 999999"):
            call_command("recompute_standings", "--league", "999999")
