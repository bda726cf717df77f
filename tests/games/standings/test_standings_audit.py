"""Standings and match results compared with the logs read again: reported by
verify_tables, repaired by the nightly audit (as the runtime role could change them on
PostgreSQL: tests/games/tables/test_tampering_found.py)."""

from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from games.models import MatchResult, SeasonStandings
from games.standings.audit import derived_differences
from games.tables.tasks import tables_audit
from tests.games.clubs_setup import play
from tests.payloads import quick

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def anna_won(world, django_capture_on_commit_callbacks):
    # Anna gins with Bruno holding 30: 25 + 30 = 55 reaches 50, Anna wins 55-0; her row
    # reads played 1, won 1, points for 55; Bruno's played 1, won 0, points against 55.
    with django_capture_on_commit_callbacks(execute=True):
        table = play(world, [world.anna, world.bruno], [quick(0, "gin", 0, 30)])
    return table


def test_standings_as_the_logs_say_show_no_difference(anna_won):
    assert derived_differences() == []


def test_a_row_changed_is_reported_then_repaired_by_the_audit(world, anna_won, settings):
    settings.ADMINS = [("Ops", "ops@example.org")]
    standing = SeasonStandings.objects.get(season=world.season)
    anna, bruno = standing.rows
    assert (anna["player"], anna["won"], anna["points_for"]) == (world.anna.pk, 1, 55)
    SeasonStandings.objects.filter(pk=standing.pk).update(
        rows=[{**anna, "points_for": 155}, {**bruno, "won": 1}]
    )
    label = f"season {world.season.pk} (Gin Tuesdays, Spring) standings"
    expected = [
        f"{label}: player {world.anna.pk} (Anna): points_for stored 155, recomputed 55",
        f"{label}: player {world.bruno.pk} (Bruno): won stored 1, recomputed 0",
    ]
    err = StringIO()
    with pytest.raises(CommandError, match="0 table\\(s\\) failed verification, 2 other"):
        call_command("verify_tables", stderr=err, stdout=StringIO())
    assert err.getvalue() == "".join(f"{line}\n" for line in expected)
    assert tables_audit.apply().get()["findings"] == expected
    assert SeasonStandings.objects.get(season=world.season).rows == [anna, bruno]
    assert len(mail.outbox) == 1 and "won stored 1, recomputed 0" in mail.outbox[0].body
    assert derived_differences() == []


def test_a_result_behind_its_log_is_left_to_its_recompute(anna_won):
    # Not a tampering: its head moved on and its refresh is queued.
    MatchResult.objects.filter(table=anna_won).update(seq=1, summary=None, finished_at=None)
    assert derived_differences() == []
