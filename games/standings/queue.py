"""Hands standings work to the workers, on commit (games/standings/tasks.py).

Apart from the services so that the tasks, which call the services, import nothing that
imports them back.
"""

from django.db import transaction
from django.utils.translation import gettext

from games.shared.errors import ActionRefused
from games.shared.task_outbox import send_on_commit
from games.standings.models import RecomputeJob
from games.standings.tasks import (
    book_results_refresh,
    season_standings_recompute,
    standings_recompute_all,
)


def season_recompute_queue(season_id: int) -> None:
    """Recompute a season's standings once the current transaction commits."""
    send_on_commit(season_standings_recompute, season_id)


def book_refresh_queue(table_id) -> None:
    """Store a book table's result once the current transaction commits."""
    send_on_commit(book_results_refresh, [str(table_id)])


def recompute_job_start(*, user) -> RecomputeJob:
    """Queue a recompute of every league's standings from the logs (staff only)."""
    if not (user.is_authenticated and user.is_staff):
        raise ActionRefused(gettext("Only staff can recompute everything."))
    with transaction.atomic():
        job = RecomputeJob.objects.create(created_by=user)
        send_on_commit(standings_recompute_all, job.pk)
    return job
