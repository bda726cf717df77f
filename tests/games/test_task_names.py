"""The tasks live in the parts (games/tables/tasks.py, games/standings/tasks.py) but keep the
names queued messages and the beat schedule carry: a message queued before a deploy must
still find its task after it."""

from django.conf import settings

from rummyref.celery import app

NAMES = {
    "games.tasks.table_verify",
    "games.tasks.tables_audit",
    "games.tasks.season_standings_recompute",
    "games.tasks.standings_recompute_all",
    # New since the parts: the password-reset mail (games/clubs/tasks.py).
    "games.tasks.password_reset_mail",
    # A tournament night's standings (games/tournaments/tasks.py).
    "games.tasks.night_standings_refresh",
    # The players' book: a group's or a club's casual table's result (games/standings/tasks.py).
    "games.tasks.book_results_refresh",
    # The outbox's drain: tasks a write queued while the broker was away (games/shared/).
    "games.tasks.outbox_drain",
}


def test_the_registered_task_names_are_exactly_the_old_ones():
    # What a worker does at start: autodiscovery imports the parts' task modules.
    app.loader.import_default_modules()
    assert {name for name in app.tasks if name.startswith("games.")} == NAMES


def test_the_beat_schedule_names_a_registered_task():
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
