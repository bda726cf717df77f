"""A club night's kept standings compared with its tables' logs read again: reported by
player by verify_tables, repaired by the nightly audit (whoever can write to the shared
cache could put other standings under the night's key)."""

from dataclasses import replace
from fractions import Fraction
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from games.tables.tasks import tables_audit
from games.tournaments import selectors
from games.tournaments.audit import night_differences
from tests.games.tournaments.helpers import finish_gin_table, gin_night_started

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def night(world, django_capture_on_commit_callbacks):
    """A Swiss night (3 for a win, 0 for a loss) whose first table is over: its first seat
    went gin against 30 and both confirmed, so the standings read 3 VP and 0 VP."""
    night, started = gin_night_started(world)
    with django_capture_on_commit_callbacks(execute=True):
        finish_gin_table(started.tables[0].id)  # the worker keeps the night's standings
    night.refresh_from_db()  # its field was drawn when the round started
    return night


def test_kept_standings_as_the_logs_say_show_no_difference(night):
    kept = selectors.night_standings_kept(tournament=night)
    assert [int(line.row.victory_points) for line in kept] == [3, 0]
    assert night_differences() == []


def test_standings_rewritten_in_the_cache_are_reported_by_name_then_repaired(night, settings):
    settings.ADMINS = [("Ops", "ops@example.org")]
    winner, loser = selectors.night_standings_kept(tournament=night)
    forged = [
        replace(winner, row=replace(winner.row, victory_points=Fraction(9))),
        replace(loser, row=replace(loser.row, played=0)),
    ]
    selectors.cache.set(selectors._standings_key(night), forged, selectors.STANDINGS_SECONDS)
    label = f"night {night.pk} (Circolo del Ramino, Gin night) standings"
    expected = [
        f"{label}: {line.name} (entrant {line.row.player}): {said}"
        for line, said in (
            (winner, "victory_points stored 9, recomputed 3"),
            (loser, "played stored 0, recomputed 1"),
        )
    ]
    expected.sort()  # by entrant: the sentences come in the entrants' order
    err = StringIO()
    with pytest.raises(CommandError, match="0 table\\(s\\) failed verification, 2 other"):
        call_command("verify_tables", stderr=err, stdout=StringIO())
    assert sorted(err.getvalue().splitlines()) == expected
    assert sorted(tables_audit.apply().get()["findings"]) == expected
    assert len(mail.outbox) == 1 and "victory_points stored 9, recomputed 3" in mail.outbox[0].body
    # The audit kept the recompute: the pages read 3 and 0 again, and nothing differs.
    repaired = selectors.night_standings_kept(tournament=night)
    assert [int(line.row.victory_points) for line in repaired] == [3, 0]
    assert night_differences() == []


def test_something_other_than_standings_under_the_key_is_reported(night):
    selectors.cache.set(selectors._standings_key(night), {"won": 99}, selectors.STANDINGS_SECONDS)
    label = f"night {night.pk} (Circolo del Ramino, Gin night) standings"
    assert night_differences() == [f"{label}: what is kept is not standings"]


def test_a_night_with_nothing_kept_has_nothing_to_compare(night):
    selectors.cache.delete(selectors._standings_key(night))
    assert night_differences() == []
