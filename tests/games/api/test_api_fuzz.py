"""No input makes the API answer 500: schemathesis fuzzes every operation of the schema.

Each generated request (valid by the schema, then invalid) goes to the app in-process, at a
real league table (its id in the path, its scorekeeper key in X-Table-Key) or its season,
as a signed-in club member with the session's CSRF token, so the requests reach the views'
real work and not only their 404s; an append is sent at the table's head.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from games.models import Table
from tests.games.clubs_setup import club_world

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
OPERATIONS = {result.ok().label: result.ok() for result in SCHEMA.get_all_operations()}
CSRF = _get_new_csrf_string()


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    # The WSGI handler closes the database connection at the end of every request, as in a
    # server; here that connection holds the test's transaction. Django's test client
    # steps round it the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def at_the_table(db, client, django_capture_on_commit_callbacks):
    """A league table of a club world, its member signed in: what every request carries."""
    with django_capture_on_commit_callbacks(execute=True):
        world = club_world()
        table = world.table()
    client.force_login(world.member)
    return {
        "paths": {"table_id": str(table.pk), "season_id": world.season.pk},
        "headers": {
            "X-Table-Key": table.scorekeeper_key,
            "X-CSRFToken": _mask_cipher_secret(CSRF),
        },
        "cookies": {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF},
    }


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_no_request_makes_a_500(label, mode, at_the_table):
    @given(case=OPERATIONS[label].as_strategy(generation_mode=mode))
    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def request_answers_below_500(case):
        for name, value in at_the_table["paths"].items():
            if name in (case.path_parameters or {}):
                case.path_parameters[name] = value
        if isinstance(case.body, dict) and "expected_seq" in case.body:
            # At the head, so an append reaches the rules instead of stopping at a 409.
            case.body["expected_seq"] = Table.objects.get(
                pk=at_the_table["paths"]["table_id"]
            ).head_seq
        response = case.call(headers=at_the_table["headers"], cookies=at_the_table["cookies"])
        assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])

    request_answers_below_500()
