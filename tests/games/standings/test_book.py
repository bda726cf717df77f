"""The players' book as a projection of the logs: a group's (or a club's casual) table's result
stored when its match settles or a settled match is corrected, the stats read from those
results, and a rebuild from the logs that finds the same.

The Friday history (tests/games/book_setup.py friday_gin), Gin Classic to 50, worked by hand
from docs/rules.md (gin 25 + the defender's count, a knock or an undercut the difference):

- T1 Anna v Bruno: Anna gin, Bruno 30: Anna 55-0.
- T2 Bruno v Carla: Bruno knocks 4 v 20 (+16); Carla gin v 10 (+35); Bruno gin v 20 (+45,
  61). Bruno 61-35.
- T3 Carla v Anna: Carla knocks 6, Anna holds 4: undercut, Anna +2; Anna gin v 40 (+65, 67).
  Anna 67-0.

Anna 2-0: hands 1 + 2 = 3, all won; 55 + 67 = 122 for, 0 against; best match T3 by 67; caught
  once (T3 hand 1) with 4. Bruno 1-1: hands 4, won 2; 61 for, 55 + 35 = 90 against; caught in
  T1 (30) and T2 hand 2 (10): 2, 40. Carla 0-2: hands 5, won 1; 35 for, 61 + 67 = 128 against;
  caught in T2 hands 1 and 3 (20, 20) and T3 hand 2 (40): 3, 80; her knock in T3 undercut.
Rivals (one match with each: the one met last): Anna Carla (T3), Bruno Carla (T2), Carla Anna
  (T3). Nemesis: Anna none; Bruno Anna; Carla lost once to each, beat neither: Anna, who beat
  her last (T3).
"""

from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, MatchResult, Player, Table
from games.standings import receivers as standings_receivers
from games.standings import selectors as standings_selectors
from games.standings import services as standings_services
from games.tables.log import engine_events
from games.tables.tasks import tables_audit
from scoring.book import book, game_book
from scoring.replay import replay
from scoring.standings import MatchSummary, match_summary
from tests.games.book_setup import (
    group_make,
    play,
    random_history,
    record,
    table_start,
)
from tests.games.clubs_setup import play as league_play
from tests.payloads import quick

# Results are stored by tasks queued on commit: here they run in-process, whatever broker CI
# configures.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what each write queues on commit, as the application does."""

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


def lines(stats):
    return {line.name: line for line in stats.game.lines}


class TestTheFridayHistory:
    def test_each_finished_match_has_its_result_at_its_head(self, friday_gin_group):
        _, _, tables = friday_gin_group
        for table in tables:
            table.refresh_from_db()
            result = MatchResult.objects.get(table=table)
            assert (result.seq, result.head_hash) == (table.head_seq, table.head_hash)
            assert result.summary is not None and result.finished_at is not None

    def test_the_stats_are_the_hand_worked_ones(self, friday_gin_group):
        group, _, tables = friday_gin_group
        stats = standings_selectors.group_stats(group=group)
        assert stats.name == "Friday friends"
        assert [(tab.variant, tab.matches) for tab in stats.tabs] == [("gin", 3)]
        gin = stats.game
        assert gin.matches == 3
        assert [line.name for line in gin.lines] == ["Anna", "Bruno", "Carla"]
        anna, bruno, carla = (lines(stats)[name] for name in ("Anna", "Bruno", "Carla"))
        assert (anna.line.played, anna.line.won, anna.win_percent) == (2, 2, 100)
        assert (anna.line.hands_played, anna.line.hands_won) == (3, 3)
        assert (anna.points_for, anna.points_against) == ("122", "0")
        assert (anna.line.longest_streak, anna.line.streak) == (2, 2)
        assert anna.best.match_id == str(tables[2].id) and anna.best_margin == "67"
        assert (bruno.line.played, bruno.line.won, bruno.win_percent) == (2, 1, 50)
        assert (bruno.line.hands_played, bruno.line.hands_won) == (4, 2)
        assert (bruno.points_for, bruno.points_against) == ("61", "90")
        assert (carla.line.played, carla.line.won, carla.best) == (2, 0, None)
        assert (carla.points_for, carla.points_against) == ("35", "128")
        # Gins, Big gins, Undercuts given, Undercuts taken, Deadwood when caught (of hands).
        assert anna.cells == (("2", ""), ("0", ""), ("1", ""), ("0", ""), ("4", "1"))
        assert bruno.cells == (("1", ""), ("0", ""), ("0", ""), ("0", ""), ("20", "2"))
        assert carla.cells == (("1", ""), ("0", ""), ("0", ""), ("1", ""), ("26.7", "3"))
        assert [(x.rival, x.nemesis) for x in (anna, bruno, carla)] == [
            ("Carla", ""),
            ("Carla", "Anna"),
            ("Anna", "Anna"),
        ]
        # Head to head, rows and columns Anna, Bruno, Carla.
        grid = [[(c.won, c.lost) if c else None for c in row.cells] for row in gin.grid]
        assert grid == [
            [None, (1, 0), (1, 0)],
            [(0, 1), None, (1, 0)],
            [(0, 1), (0, 1), None],
        ]
        assert gin.grid[0].cells[1].average_margin == "+55"
        # Wins after each match: T1 Anna, T2 Bruno, T3 Anna.
        assert [step.totals for step in gin.chart.steps] == [(1, 0, 0), (1, 1, 0), (2, 1, 0)]

    def test_a_match_reopened_by_a_void_leaves_the_stats_until_it_ends_again(
        self, friday_gin_group, on_commit
    ):
        group, _, tables = friday_gin_group
        before = standings_selectors.group_stats(group=group)
        last = tables[2]
        with on_commit():
            record(last, {"hand": 2, "reason": "wrong count"}, "hand_voided")
        assert MatchResult.objects.get(table=last).summary is None
        reopened = standings_selectors.group_stats(group=group)
        assert reopened.game.matches == 2
        assert lines(reopened)["Anna"].line.won == 1
        with on_commit():
            record(last, quick(1, "gin", 0, 40))
        again = standings_selectors.group_stats(group=group)
        assert again.game.matches == 3
        # The same figures; only the last match played has moved, to when T3 ended again.
        assert [replace(x, last_played=None) for x in again.game.lines] == [
            replace(x, last_played=None) for x in before.game.lines
        ]
        assert lines(again)["Anna"].last_played == MatchResult.objects.get(table=last).finished_at
        assert lines(again)["Anna"].last_played > lines(before)["Anna"].last_played

    def test_an_amended_finished_match_is_read_again(self, friday_gin_group, on_commit):
        group, _, tables = friday_gin_group
        # T2 hand 1 amended to 4 v 30: Bruno +26, 71 in all, Carla's count 30.
        with on_commit():
            record(
                tables[1],
                {"hand": 1, "reason": "recounted", **quick(0, "knock", 4, 30)},
                "hand_amended",
            )
        found = lines(standings_selectors.group_stats(group=group))
        assert found["Bruno"].points_for == "71"
        # Carla's deadwood when caught: (30 + 20 + 40) / 3.
        assert found["Carla"].cells[4] == ("30", "3")

    def test_a_repeat_view_reads_the_stats_kept_and_a_new_result_moves_them(
        self, friday_gin_group, on_commit, monkeypatch
    ):
        group, players, _ = friday_gin_group
        calls = []

        def counted(variant, summaries):
            calls.append(variant)
            return game_book(variant, summaries)

        monkeypatch.setattr(standings_selectors, "game_book", counted)
        first = standings_selectors.group_stats(group=group)
        second = standings_selectors.group_stats(group=group)
        assert len(calls) == 1 and first == second
        with on_commit():
            play(players[:2], [quick(1, "gin", 0, 30)], group=group)
        assert standings_selectors.group_stats(group=group).game.matches == 4
        assert len(calls) == 2
        # A match of another game leaves Gin's book as it was kept: only the new game's book
        # is worked out (for the every-game summary), once.
        hand = {"mode": "points", "players": [{"points": 1, "knocked": True}, {"points": 20}]}
        with on_commit():
            play(players[:2], [hand], group=group, variant="knock_rummy", options={"target": 10})
        assert standings_selectors.group_stats(group=group).game.matches == 4
        standings_selectors.group_stats(group=group, variant="knock_rummy")
        assert calls == ["gin", "gin", "knock_rummy"]


class TestTheGameShown:
    def test_the_game_asked_for_else_the_usual_one_else_the_most_played(
        self, friday_gin_group, on_commit
    ):
        group, players, _ = friday_gin_group
        # Two Knock Rummy matches: Anna knocks on 1, Bruno 20 (KR-SCORE +19, past 10).
        hand = {"mode": "points", "players": [{"points": 1, "knocked": True}, {"points": 20}]}
        with on_commit():
            for _ in range(2):
                play(
                    players[:2], [hand], group=group, variant="knock_rummy", options={"target": 10}
                )
        tabs = standings_selectors.group_stats(group=group).tabs
        assert [(tab.variant, tab.matches) for tab in tabs] == [("gin", 3), ("knock_rummy", 2)]

        def shown(variant=""):
            return standings_selectors.group_stats(group=group, variant=variant).game.variant

        assert shown("knock_rummy") == "knock_rummy"
        # The group's usual game is Gin; an unknown or unplayed one falls back to it.
        assert shown() == shown("poker") == shown("ramino") == "gin"
        group.variant = "ramino"
        group.save()
        # Ramino unplayed: the most played, Gin.
        assert shown() == "gin"


class TestWhichTablesCount:
    def test_practice_and_one_off_tables_have_no_result_and_no_stats(self, on_commit):
        group, players = group_make()
        with on_commit():
            practice = play(players[:2], [quick(0, "gin", 0, 30)], group=group, practice=True)
            casual = table_services_casual()
        assert not MatchResult.objects.filter(table__in=[practice, casual]).exists()
        assert standings_selectors.group_stats(group=group).game is None
        # A result written anyway (an older rebuild, a hand-made row) is still not counted.
        standings_services.match_results_refresh([practice.id])
        assert standings_selectors.group_stats(group=group).tabs == ()

    def test_a_club_counts_its_leagues_and_its_tables_without_a_season(self, world, on_commit):
        with on_commit():
            # A league match: the season's recompute stores its result.
            league_play(world, (world.anna, world.bruno), [quick(0, "gin", 0, 30)])
            # A night's table without a season, seated with the roster: the book's.
            night = play((world.carla, world.anna), [quick(0, "gin", 0, 30)])
            # Another club's player at a casual table: not this club's.
            stranger = Player.objects.create(name="Zoe", club=world.other_club)
            other = Player.objects.create(name="Yan", club=world.other_club)
            play((stranger, other), [quick(0, "gin", 0, 30)])
        assert MatchResult.objects.get(table=night).summary is not None
        stats = standings_selectors.club_stats(club=world.club)
        assert stats.game.matches == 2
        found = lines(stats)
        assert set(found) == {"Anna", "Bruno", "Carla"}
        assert (found["Anna"].line.played, found["Carla"].line.won) == (2, 1)
        # Rebuilt from the logs, the league's tables too: the same stats.
        out = StringIO()
        call_command("rebuild_book", "--leagues", stdout=out)
        assert "Gin Tuesdays: its tables read again" in out.getvalue()
        assert standings_selectors.club_stats(club=world.club) == stats

    def test_a_league_table_is_left_to_the_league_recompute(self, world, on_commit, monkeypatch):
        queued = []
        monkeypatch.setattr(standings_receivers, "book_refresh_queue", queued.append)
        with on_commit():
            league = league_play(world, (world.anna, world.bruno), [quick(0, "gin", 0, 30)])
            night = play((world.carla, world.anna), [quick(0, "gin", 0, 30)])
        assert queued == [night.pk]
        # Its result is the season recompute's.
        assert MatchResult.objects.get(table=league).summary is not None
        assert not standings_selectors.is_book_table(league)
        assert standings_selectors.is_book_table(night)


def table_services_casual() -> Table:
    """Play a casual table of one-off names (no circle) to its end."""
    table = table_start([Player.objects.create(name="Uno"), Player.objects.create(name="Due")])
    record(table, quick(0, "gin", 0, 60))
    return table


class TestTheWorkersShare:
    def test_one_more_match_costs_the_same_whatever_the_history(self, on_commit):
        group, players = group_make()

        def refresh_queries(earlier: int) -> int:
            with on_commit():
                for _ in range(earlier):
                    play(players[:2], [quick(0, "gin", 0, 60)], group=group)
                table = play(players[:2], [quick(1, "gin", 0, 60)], group=group)
            with CaptureQueriesContext(connection) as queries:
                standings_services.book_results_refresh([table.id])
            return len(queries)

        assert refresh_queries(1) == refresh_queries(8)

    def test_the_nightly_audit_queues_a_result_left_behind(self, friday_gin_group):
        _, _, tables = friday_gin_group
        MatchResult.objects.filter(table=tables[0]).delete()
        assert standings_selectors.book_tables_behind() == [tables[0].id]
        report = tables_audit.apply().get()
        assert report["book_queued"] == [str(tables[0].id)]
        assert MatchResult.objects.filter(table=tables[0]).exists()
        assert standings_selectors.book_tables_behind() == []

    def test_a_refresh_run_twice_writes_the_same_row(self, friday_gin_group):
        _, _, tables = friday_gin_group
        ids = [table.id for table in tables]
        first = {
            r.table_id: (r.seq, r.summary) for r in MatchResult.objects.filter(table_id__in=ids)
        }
        standings_services.book_results_refresh(ids)
        standings_services.book_results_refresh(ids)
        again = {
            r.table_id: (r.seq, r.summary) for r in MatchResult.objects.filter(table_id__in=ids)
        }
        assert again == first


def _stored() -> dict:
    """Return the finished matches' results (a rebuild also writes one, without a summary, for
    a table whose match never settled: no finished match either way)."""
    return {
        r.table_id: (r.seq, r.head_hash, r.finished_at, r.summary)
        for r in MatchResult.objects.filter(summary__isnull=False)
    }


def _every_game(group) -> list:
    """Return the group's stats page of each game it played."""
    tabs = standings_selectors.group_stats(group=group).tabs
    return [standings_selectors.group_stats(group=group, variant=tab.variant) for tab in tabs]


class TestRebuiltFromTheLogs:
    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_random_histories_read_the_same_kept_up_or_rebuilt(self, seed, on_commit):
        group, players = group_make("Anna", "Bruno", "Carla", "Dario", "Elena")
        with on_commit():
            random_history(group, players, seed=seed, tables=7)
        kept_up = _every_game(group)
        stored = _stored()
        assert sum(stats.game.matches for stats in kept_up) == len(stored)
        out = StringIO()
        call_command("rebuild_book", stdout=out)
        assert "7 table(s)" in out.getvalue()
        assert _stored() == stored
        assert _every_game(group) == kept_up
        # And the logs themselves, replayed and summarised here, give the same book.
        finished = []
        for table in Table.objects.filter(group=group):
            state = replay(engine_events(Event.objects.filter(table=table).order_by("seq")))
            if state.finished:
                seats = table.seats.order_by("position").values_list("player_id", flat=True)
                summary = match_summary(state, list(seats), match_id=str(table.id))
                finished.append((stored[table.id][2], str(table.id), summary))
        expected = book(summary for *_, summary in sorted(finished, key=lambda f: f[:2]))
        ordered = sorted(stored, key=lambda pk: (stored[pk][2], str(pk)))
        assert expected == book(MatchSummary.from_record(stored[pk][3]) for pk in ordered)
        assert expected
