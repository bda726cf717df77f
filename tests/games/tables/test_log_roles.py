"""Nobody rewrites a table's log: the runtime role can only read and append it, and the
triggers refuse UPDATE, DELETE and TRUNCATE to the owner too (PostgreSQL)."""

import psycopg
import pytest
from django.db import connection, connections

from rummyref import dbroles

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TAMPERING = {
    "update": "UPDATE games_event SET payload = '{}'",
    "delete": "DELETE FROM games_event",
    "truncate": "TRUNCATE games_event",
    "truncate by cascade": "TRUNCATE games_table CASCADE",
    "disable trigger": "ALTER TABLE games_event DISABLE TRIGGER games_event_append_only",
    "drop trigger": "DROP TRIGGER games_event_append_only ON games_event",
    "replace the trigger function": (
        "CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger "
        "AS $$ BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql"
    ),
}


def _connect_as(role: str) -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    )


class TestRuntimeRole:
    @pytest.mark.parametrize("statement", TAMPERING.values(), ids=TAMPERING.keys())
    def test_the_runtime_role_cannot_change_the_log(
        self, gin_table_with_one_hand, runtime_role, statement
    ):
        with _connect_as(runtime_role) as app, pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute(statement)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM games_event")
            assert cursor.fetchone() == (2,)

    def test_the_runtime_role_reads_and_appends_and_writes_other_tables(
        self, gin_table_with_one_hand, runtime_role
    ):
        with _connect_as(runtime_role) as app:
            assert app.execute("SELECT count(*) FROM games_event").fetchone() == (2,)
            rights = app.execute(
                "SELECT has_table_privilege('games_event', 'INSERT'), "
                "has_table_privilege('games_tableprojection', 'UPDATE')"
            ).fetchone()
            assert rights == (True, True)
            app.execute("UPDATE games_table SET updated_at = now()")

    def test_the_start_up_check_is_quiet_for_the_runtime_role(
        self, gin_table_with_one_hand, runtime_role
    ):
        wrapper = connections.create_connection("default")
        wrapper.settings_dict = {**wrapper.settings_dict, "USER": runtime_role}
        try:
            with wrapper.cursor() as cursor:  # the test's database, where the log exists
                cursor.execute("SELECT current_user, to_regclass('games_event') IS NOT NULL")
                assert cursor.fetchone() == (runtime_role, True)
            assert dbroles.log_rewritable_by(wrapper) is None
        finally:
            wrapper.close()

    def test_the_start_up_check_names_what_the_owner_can_do(self, gin_table_with_one_hand):
        problem = dbroles.log_rewritable_by(connection)
        assert problem.startswith("the database role postgres can change the event log games_event")
        assert "UPDATE, DELETE, TRUNCATE" in problem


class TestOwnerGuard:
    @pytest.mark.parametrize("statement", ["TRUNCATE games_event", "TRUNCATE games_table CASCADE"])
    def test_the_owner_is_refused_truncate_by_the_trigger(self, gin_table_with_one_hand, statement):
        refused = pytest.raises(Exception, match="games_event is append-only: TRUNCATE refused")
        with refused, connection.cursor() as cursor:
            cursor.execute(statement)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM games_event")
            assert cursor.fetchone() == (2,)
