"""The two tamperings of issue 27 as the database roles could do them (PostgreSQL): the
runtime role changes who sits in a seat of a finished league table; nobody but an INSERT
writes the checkpoints that anchor the tables' heads and seating."""

from io import StringIO

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from games.tables import audit
from tests.games.clubs_setup import play
from tests.payloads import quick

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _connect_as(role: str) -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    )


@pytest.fixture
def finished_league_table(world):
    table = play(world, [world.anna, world.bruno], [quick(0, "gin", 0, 30)])
    table.refresh_from_db()
    assert table.status == table.Status.FINISHED
    return table


def test_the_runtime_role_giving_a_seat_to_another_player_is_reported(
    world, finished_league_table, runtime_role
):
    table = finished_league_table
    call_command("verify_tables", stdout=StringIO())  # clean before
    with _connect_as(runtime_role) as app:
        app.execute(
            "UPDATE games_seat SET player_id = %s WHERE table_id = %s AND position = 1",
            [world.carla.pk, table.pk],
        )
    err = StringIO()
    with pytest.raises(CommandError, match="1 table"):
        call_command("verify_tables", stderr=err, stdout=StringIO())
    assert err.getvalue() == (
        f"table {table.pk}: seat 2 changed since the table was created: player "
        f"{world.carla.pk} (Carla) sits there now, player {world.bruno.pk} (Bruno) then\n"
    )


def test_the_runtime_role_only_reads_and_inserts_checkpoints(finished_league_table, runtime_role):
    audit.tables_audit(checkpoint=True)
    table = finished_league_table
    with _connect_as(runtime_role) as app:
        assert app.execute("SELECT count(*) FROM games_checkpoint").fetchone() == (1,)
        app.execute(
            "INSERT INTO games_checkpoint (table_id, taken_at, seq, head_hash, seating, signature)"
            " VALUES (%s, %s, 1, '', '[]', '')",
            [table.pk, timezone.now()],
        )
        for statement in (
            "UPDATE games_checkpoint SET seq = 1",
            "DELETE FROM games_checkpoint",
            "TRUNCATE games_checkpoint",
            "ALTER TABLE games_checkpoint DISABLE TRIGGER games_checkpoint_append_only",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
    # The row inserted without the key is a forged checkpoint: the audit says so.
    [failure] = audit.tables_audit()["failures"]
    assert failure["findings"][0].endswith("is not signed with this server's key: forged")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_checkpoint SET seq = 1",
        "DELETE FROM games_checkpoint",
        "TRUNCATE games_checkpoint",
    ],
)
def test_the_trigger_refuses_the_owner_too(finished_league_table, statement):
    audit.tables_audit(checkpoint=True)
    refused = pytest.raises(Exception, match="games_checkpoint is append-only")
    with refused, connection.cursor() as cursor:
        cursor.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), min(seq) FROM games_checkpoint")
        assert cursor.fetchone() == (1, finished_league_table.head_seq)
