"""What the event store's tests share: a Gin table with two hands, and a runtime role."""

import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from tests.factories import TableFactory
from tests.payloads import quick


@pytest.fixture
def gin_table_with_two_hands(append):
    """A Gin table of Anna and Bruno: Anna knocks with 5 against 20 (Anna 15,
    GIN-SCORE-KNOCK), then Bruno goes gin against 30 (Bruno 25 + 30, GIN-SCORE-GIN)."""
    table = TableFactory()
    append(table, "hand_recorded", quick(0, "knock", 5, 20))
    append(table, "hand_recorded", quick(1, "gin", 0, 30))
    table.refresh_from_db()
    return table


@pytest.fixture
def runtime_role():
    """A runtime role set up by `manage.py db_roles` (PostgreSQL), dropped after the test; its
    name is unique, so tests in parallel processes never share one."""
    name = f"rummyref_app_{uuid.uuid4().hex[:8]}"
    call_command("db_roles", name, stdout=StringIO())
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{name}"; DROP ROLE "{name}"')
