"""Hands standings work to the workers, on commit (games/standings/tasks.py).

Apart from the services so that the tasks, which call the services, import nothing that
imports them back.
"""

from django.db import transaction
from django.utils.translation import gettext

from games.shared.errors import ActionRefused
from games.standings.models import RecomputeJob
from games.standings.tasks import (
    book_results_refresh,
    season_standings_recompute,
    standings_recompute_all,
)


def season_recompute_queue(season_id: int) -> None:
    """Recompute a season's standings once the current transaction commits."""
    # Robust, as for the verification: a recompute that cannot be queued or fails is logged,
    # the page shows the standings behind, and the nightly audit queues it again.
    transaction.on_commit(lambda: season_standings_recompute.delay(season_id), robust=True)


def book_refresh_queue(table_id) -> None:
    """Store a book table's result once the current transaction commits."""
    # Robust, as for the seasons: a refresh that cannot be queued or fails is logged, and
    # the nightly audit queues the tables left behind their logs again.
    transaction.on_commit(lambda: book_results_refresh.delay([str(table_id)]), robust=True)


def recompute_job_start(*, user) -> RecomputeJob:
    """Queue a recompute of every league's standings from the logs (staff only)."""
    if not (user.is_authenticated and user.is_staff):
        raise ActionRefused(gettext("Only staff can recompute everything."))
    with transaction.atomic():
        job = RecomputeJob.objects.create(created_by=user)
        transaction.on_commit(lambda: standings_recompute_all.delay(job.pk))
    return job
