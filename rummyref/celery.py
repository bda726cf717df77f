"""The Celery app; settings come from Django's under the CELERY_ prefix."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyref.settings")

app = Celery("rummyref")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The games app keeps its tasks in its parts (games/tables/tasks.py, games/standings/tasks.py),
# each task pinned to its old "games.tasks.<name>" name for queued messages and beat.
app.autodiscover_tasks(
    ["games.shared", "games.clubs", "games.tables", "games.standings", "games.tournaments"]
)
