"""The OpenAPI schema tells the truth: schemathesis holds every operation to it.

Each generated request goes to the WSGI app in-process (no network), at a real league table
(its id in the path, its scorekeeper key in X-Table-Key) or its season, as a signed-in club
member with the session's CSRF token, so it reaches the views' real work; an append is sent
at the table's head. Requests valid by the schema, then invalid ones, a bounded number per
operation with a fixed seed, so a run is repeatable. Every answer must be:

- no 500, with a status code, a content type and a body the schema documents for it;
- for a request the schema calls invalid: refused (4xx);
- for a request the schema calls valid: never refused by the API's own checks of its shape
  (a parser's bad_text or parse_error, a serializer's bounds): the schema states every bound
  they apply. Domain refusals remain (a rule broken: 422; an unknown card at the referee:
  400 bad_input; a key that opens nothing: 404) and the few listed in DOMAIN_FIELDS.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import Table
from tests.games.clubs_setup import club_world
from tests.hypothesis_profiles import examples

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
OPERATIONS = {result.ok().label: result.ok() for result in SCHEMA.get_all_operations()}
CSRF = _get_new_csrf_string()
# Enough to meet each bound's edges and its refusals, within about two minutes for all.
EXAMPLES = 12

# Fields refused for what only the database knows, which no schema can state.
DOMAIN_FIELDS = {
    # The club's own player ids, as many as the league's tables seat.
    "POST /api/v1/seasons/{season_id}/tables/": {"players"},
}


@schemathesis.check
def schema_valid_data_passes_the_validators(ctx, response, case):
    """A request valid by the schema gets past the parsers and serializers (see above)."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    if response.status_code != 400:
        return None
    body = response.json()
    refused = set(body.get("fields", {}))
    if body["error"] == "invalid" and refused <= DOMAIN_FIELDS.get(case.operation.label, set()):
        return None
    if body["error"] == "bad_input":  # the referee: the engine cannot read the cards
        return None
    raise AssertionError(f"A request valid by the schema was refused: {response.text[:500]}")


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    missing_required_header,
    schema_valid_data_passes_the_validators,
]


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


def test_every_operation_of_the_api_is_in_the_schema():
    assert len(OPERATIONS) == 17


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_the_api_answers_as_its_schema_says(label, mode, at_the_table):
    # An id that is no uuid or number never reaches the API: Django's URL patterns refuse
    # it first, so every request goes to the real table or season instead. A case whose id
    # alone was invalid is then valid (schemathesis sees that); one invalid in the query
    # too would be taken for invalid while the API may rightly ignore what is wrong there
    # (a parameter it does not know).
    cases = (
        OPERATIONS[label]
        .as_strategy(generation_mode=mode)
        .filter(
            lambda case: (
                not (
                    case.meta.is_negative_at(ParameterLocation.PATH)
                    and case.meta.is_negative_at(ParameterLocation.QUERY)
                )
            )
        )
    )

    @given(case=cases)
    @settings(
        max_examples=examples(EXAMPLES),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case):
        for name, value in at_the_table["paths"].items():
            if name in (case.path_parameters or {}):
                case.path_parameters[name] = value
        if mode.is_positive and isinstance(case.body, dict) and "expected_seq" in case.body:
            # At the head, so an append reaches the rules instead of stopping at a 409.
            case.body["expected_seq"] = Table.objects.get(
                pk=at_the_table["paths"]["table_id"]
            ).head_seq
        case.call_and_validate(
            headers=at_the_table["headers"], cookies=at_the_table["cookies"], checks=CHECKS
        )

    answers_as_documented()
