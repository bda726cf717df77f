"""`manage.py db_roles` run by an owner role that may not create roles explains what it
lacks, with the SQL a superuser runs, instead of crashing; that SQL is enough (PostgreSQL)."""

import re
import uuid

import psycopg
import pytest
from django.db import connection

from tests.rummyref.test_settings import _manage

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _sql(statement: str, *params) -> list[tuple]:
    """Run ``statement`` as the tests' superuser."""
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def _role_exists(name: str) -> bool:
    return bool(_sql("SELECT 1 FROM pg_roles WHERE rolname = %s", name))


def _url(role: str, database: str) -> str:
    db = connection.settings_dict
    return f"postgres://{role}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{database}"


class Deployment:
    """An owner role without CREATEROLE, owning a database where it made the event log, and
    the name of a runtime role not made yet."""

    def __init__(self):
        tag = uuid.uuid4().hex[:8]
        self.owner, self.runtime = f"rummyref_owner_{tag}", f"rummyref_app_{tag}"
        self.database = f"rummyref_roles_{tag}"

    def db_roles(self):
        """Run `manage.py db_roles <runtime>` in its own process, connected as the owner."""
        return _manage("db_roles", self.runtime, DATABASE_URL=_url(self.owner, self.database))


@pytest.fixture
def deployment():
    """A Deployment, all dropped after the test."""
    made = Deployment()
    _sql(f'CREATE ROLE "{made.owner}" LOGIN NOCREATEROLE')
    _sql(f'CREATE DATABASE "{made.database}" OWNER "{made.owner}"')
    with psycopg.connect(_url(made.owner, made.database), autocommit=True) as owner:
        owner.execute("CREATE TABLE games_event (id bigint PRIMARY KEY)")
    yield made
    _sql(f'DROP DATABASE "{made.database}"')
    for role in (made.runtime, made.owner):
        if _role_exists(role):
            _sql(f'DROP OWNED BY "{role}"; DROP ROLE "{role}"')


class TestOwnerWithoutCreateRole:
    def test_it_is_told_what_it_lacks_and_nothing_is_changed(self, deployment):
        result = deployment.db_roles()
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert (
            f"The role {deployment.owner} may not create the role {deployment.runtime}: "
            "it needs CREATEROLE"
        ) in result.stderr
        assert f'ALTER ROLE "{deployment.owner}" CREATEROLE;' in result.stderr
        assert f'CREATE ROLE "{deployment.runtime}" LOGIN;' in result.stderr
        assert not _role_exists(deployment.runtime)

    @pytest.mark.parametrize("advice", ["ALTER ROLE", "CREATE ROLE"])
    def test_either_statement_it_is_given_lets_it_set_the_roles_up(self, deployment, advice):
        told = deployment.db_roles().stderr
        _sql(re.search(rf"^    ({advice} .*;)$", told, re.MULTILINE).group(1))  # as a superuser
        result = deployment.db_roles()
        assert result.returncode == 0, result.stderr
        assert f"{deployment.runtime} may read every table" in result.stdout
        with psycopg.connect(_url(deployment.runtime, deployment.database)) as runtime:
            rights = runtime.execute(
                "SELECT has_table_privilege('games_event', 'INSERT'), "
                "has_table_privilege('games_event', 'DELETE')"
            ).fetchone()
        assert rights == (True, False)

    def test_another_refused_right_is_named_with_its_statement(self, deployment):
        _sql(f'ALTER ROLE "{deployment.owner}" CREATEROLE')
        # A table the owner does not own (made by a superuser): it cannot grant rights on it.
        with psycopg.connect(
            _url(connection.settings_dict["USER"], deployment.database), autocommit=True
        ) as other:
            other.execute("CREATE TABLE someone_elses (id int)")
        result = deployment.db_roles()
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public" in (
            result.stderr
        )
        assert "permission denied for table someone_elses" in result.stderr
        assert not _role_exists(deployment.runtime)  # all or nothing
