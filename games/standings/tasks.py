"""The standings' background work, queued on commit. Tasks take ids and are idempotent.

Their names stay "games.tasks.<name>": queued messages carry them.
"""

import logging

from celery import shared_task

from games.clubs.models import Season
from games.standings import services
from games.standings.models import RecomputeJob

logger = logging.getLogger(__name__)


@shared_task(
    name="games.tasks.season_standings_recompute",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def season_standings_recompute(season_id: int) -> dict:
    """Recompute a season's standings and ratings (and the later seasons' ratings) from the
    league tables' logs. Idempotent: a second run, or a redelivery after a worker died
    mid-way (its transaction rolled back), writes the same rows."""
    try:
        written = services.season_standings_recompute(season_id=season_id)
    except Season.DoesNotExist:
        logger.warning("season %s no longer exists; no standings to compute", season_id)
        return {"season": season_id, "seasons": []}
    return {
        "season": season_id,
        "seasons": [{"season": s.season_id, "matches": s.matches} for s in written],
    }


@shared_task(
    name="games.tasks.standings_recompute_all",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=3,
)
def standings_recompute_all(job_id: int) -> dict:
    """Staff's "recompute everything": every league log read again, every season rebuilt."""
    try:
        job = services.standings_recompute_all(job_id=job_id)
    except RecomputeJob.DoesNotExist:
        return {"job": job_id, "status": None}
    except Exception as exc:
        # Shown on the progress page; the retry starts the job again from the first table.
        RecomputeJob.objects.filter(pk=job_id).update(
            status=RecomputeJob.Status.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise
    return {"job": job.pk, "status": job.status, "tables": job.done, "seasons": job.seasons}


@shared_task(
    name="games.tasks.book_results_refresh",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def book_results_refresh(table_ids: list[str]) -> dict:
    """Store the results of book tables whose match settled or was corrected, as their logs
    say when the task runs (games.standings.services.book_results_refresh). Idempotent: a
    second run, or a redelivery, writes the same rows."""
    results = services.book_results_refresh(table_ids)
    return {"tables": [str(pk) for pk in results]}
