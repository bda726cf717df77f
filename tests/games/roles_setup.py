"""The runtime database role as `manage.py db_roles` makes it, and connections as it
(PostgreSQL only), for the tests of what that role can and cannot change."""

import uuid
from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection


@pytest.fixture
def runtime_role():
    """A runtime role set up by `manage.py db_roles`, dropped after the test."""
    name = f"rummyref_app_{uuid.uuid4().hex[:8]}"
    call_command("db_roles", name, stdout=StringIO())
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{name}"; DROP ROLE "{name}"')


def connect_as(role: str) -> psycopg.Connection:
    """Connect to the test database as ``role``, each statement committed on its own."""
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    )
