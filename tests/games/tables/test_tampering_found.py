"""Tamperings the database alone cannot show, as the roles could do them on PostgreSQL, each
found by `manage.py verify_tables`: the owner with the triggers off (replica mode) removing
a table's checkpoints and the end of its log, deleting a table whole or emptying its log
(the checkpoint log kept outside the database shows the first two); the runtime role
rewriting a season's standings (recomputed from the logs and compared)."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from games.models import SeasonStandings, Table
from games.standings import selectors as standings_selectors
from games.tables import checkpoint_log
from games.tables.tasks import tables_audit
from tests.games.clubs_setup import play, record
from tests.games.roles_setup import connect_as, runtime_role  # noqa: F401 (a fixture)
from tests.payloads import quick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]


def _verify_tables(*args: str) -> tuple[int, str]:
    """Run `manage.py verify_tables`; return its exit status and what it wrote to stderr."""
    err = StringIO()
    try:
        call_command("verify_tables", *args, stderr=err, stdout=StringIO())
    except CommandError as exc:
        err.write(f"{exc}\n")
        return 1, err.getvalue()
    return 0, err.getvalue()


def _as_owner_with_triggers_off(*statements: tuple[str, list]) -> None:
    """Run statements as the schema's owner would with the append-only triggers (and the
    foreign keys, triggers too) switched off for the transaction."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for statement, params in statements:
            cursor.execute(statement, params)


def _line_time() -> str:
    line, problem = checkpoint_log.newest_line()
    assert line is not None and not problem
    return f"{line['taken_at']:%Y-%m-%d %H:%M} UTC"


@pytest.fixture
def two_tables(world):
    """Two unfinished tables of the season, Anna v Bruno at seq 3, Bruno v Carla at seq 2."""
    first = play(world, [world.anna, world.bruno], [quick(0, "knock", 5, 20)] * 2)
    second = play(world, [world.bruno, world.carla], [quick(1, "knock", 3, 9)])
    return first, second


def test_checkpoints_and_the_logs_end_removed_by_the_owner_are_reported(world, two_tables):
    table, other = two_tables
    assert _verify_tables("--checkpoint") == (0, "")
    play_on = play(world, [world.anna, world.bruno], [])  # a third table, never tampered
    record(table, quick(1, "knock", 2, 10), world.member)  # seq 4
    assert _verify_tables("--checkpoint") == (0, "")
    when = _line_time()
    assert table.checkpoints.count() == 2
    third = table.events.get(seq=3)
    _as_owner_with_triggers_off(
        ("DELETE FROM games_checkpoint WHERE table_id = %s", [table.pk]),
        ("DELETE FROM games_event WHERE table_id = %s AND seq = 4", [table.pk]),
        (
            "UPDATE games_table SET head_seq = 3, head_hash = %s WHERE id = %s",
            [third.hash, table.pk],
        ),
    )
    code, err = _verify_tables()
    assert code == 1
    assert err == (
        f"table {table.pk}: log cut short: its head is seq 3, the checkpoint log's line of "
        f"{when} had seq 4 (event 4 is gone)\n"
        f"table {table.pk}: checkpoints removed: 0 left of the 2 the checkpoint log's line "
        f"of {when} counted\n"
        "1 table(s) failed verification.\n"
    )
    assert str(other.pk) not in err and str(play_on.pk) not in err
    # The nightly audit reports it too, and anchors neither the cut log nor a new line's
    # entry for it: the next night finds the same.
    report = tables_audit.apply().get()
    [failure] = report["failures"]
    assert failure["table"] == str(table.pk) and len(failure["findings"]) == 2
    assert not table.checkpoints.exists()
    assert _verify_tables()[0] == 1


def test_a_table_deleted_whole_is_reported(world, two_tables):
    table, other = two_tables
    assert _verify_tables("--checkpoint") == (0, "")
    when = _line_time()
    _as_owner_with_triggers_off(
        *(
            (f"DELETE FROM {name} WHERE table_id = %s", [table.pk])
            for name in ("games_event", "games_checkpoint", "games_seat", "games_tableprojection")
        ),
        ("DELETE FROM games_table WHERE id = %s", [table.pk]),
    )
    assert not Table.objects.filter(pk=table.pk).exists()
    code, err = _verify_tables()
    assert (code, err) == (
        1,
        f"table {table.pk}: the table is gone from the database: its row, its log (seq 3 at "
        f"the checkpoint log's line of {when}) and its checkpoints were deleted\n"
        "1 table(s) failed verification.\n",
    )
    # The line a later run writes keeps the table gone, so it stays reported.
    tables_audit.apply().get()
    assert str(table.pk) in checkpoint_log.newest_line()[0]["tables"]
    assert str(table.pk) in _verify_tables()[1] and str(other.pk) not in _verify_tables()[1]


def test_a_log_emptied_is_reported_as_emptied(world, two_tables):
    table, _other = two_tables
    _as_owner_with_triggers_off(
        ("DELETE FROM games_event WHERE table_id = %s", [table.pk]),
    )
    assert _verify_tables() == (
        1,
        f"table {table.pk}: no events: its log was emptied (its head says seq 3)\n"
        "1 table(s) failed verification.\n",
    )


def test_the_checkpoint_log_gone_or_forged_is_reported(world, two_tables):
    assert _verify_tables("--checkpoint") == (0, "")
    path = Path(settings.CHECKPOINT_LOG)
    line = json.loads(path.read_text())
    line["tables"][str(two_tables[0].pk)][0] = 2  # a line that would hide the cut of seq 3
    path.write_text(path.read_text() + json.dumps(line) + "\n")
    code, err = _verify_tables()
    assert code == 1 and "is not signed with this server's key: forged" in err
    path.unlink()
    code, err = _verify_tables()
    assert code == 1
    assert f"checkpoint log missing: there is no file at {path}, though the database holds 2" in err


def test_standings_rewritten_by_the_runtime_role_are_reported_and_repaired(
    world,
    runtime_role,  # noqa: F811
):
    # Anna gins with Bruno holding 30: 25 + 30 = 55 reaches the 50 of Classic Gin, so the
    # match (and the season) has one result: Anna 1 played 1 won, Bruno 1 played 0 won.
    play(world, [world.anna, world.bruno], [quick(0, "gin", 0, 30)])
    assert _verify_tables() == (0, "")
    with connect_as(runtime_role) as app:
        app.execute(
            "UPDATE games_seasonstandings SET rows = jsonb_set(rows, '{0,won}', '99') "
            "WHERE season_id = %s",
            [world.season.pk],
        )
    # What the probe saw: the pages and the API serve it as up to date.
    view = standings_selectors.season_standings(season=world.season)
    assert view.up_to_date and view.lines[0].row["won"] == 99
    sentence = (
        f"season {world.season.pk} (Gin Tuesdays, Spring) standings: player {world.anna.pk} "
        "(Anna): won stored 99, recomputed 1"
    )
    assert _verify_tables() == (
        1,
        f"{sentence}\n0 table(s) failed verification, 1 other finding(s).\n",
    )
    report = tables_audit.apply().get()
    assert report["findings"] == [sentence]
    rows = SeasonStandings.objects.get(season=world.season).rows
    assert [(row["player"], row["won"]) for row in rows] == [
        (world.anna.pk, 1),
        (world.bruno.pk, 0),
    ]
    assert _verify_tables() == (0, "")


def test_a_match_result_rewritten_by_the_runtime_role_is_reported_and_repaired(
    world,
    runtime_role,  # noqa: F811
):
    # Anna gins with Bruno holding 30: 25 + 30 = 55, Anna wins the match 55-0.
    table = play(world, [world.anna, world.bruno], [quick(0, "gin", 0, 30)])
    kept = table.result.summary
    assert [seat["outcome"] for seat in kept["seats"]] == ["won", "lost"]
    with connect_as(runtime_role) as app:
        # Bruno given Anna's win.
        app.execute(
            "UPDATE games_matchresult SET summary = jsonb_set(jsonb_set(summary, "
            "'{seats,0,outcome}', '\"lost\"'), '{seats,1,outcome}', '\"won\"') "
            "WHERE table_id = %s",
            [table.pk],
        )
    code, err = _verify_tables()
    assert code == 1
    assert f"match result of table {table.pk}: summary differs\n" in err
    assert "1 other finding(s)." in err
    report = tables_audit.apply().get()
    assert report["findings"] == [f"match result of table {table.pk}: summary differs"]
    table.result.refresh_from_db()
    assert table.result.summary == kept
    assert _verify_tables() == (0, "")
