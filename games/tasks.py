"""Background work, queued on commit. Tasks take ids and are idempotent."""

import json
import logging

from celery import shared_task
from django.core.mail import mail_admins

from games import selectors, services
from games.models import RecomputeJob, Season, Table

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def table_verify(table_id: str) -> dict:
    """Re-check a table after a write: hash chain intact, cached state equal to a fresh replay."""
    try:
        result = services.table_verify(table_id=table_id)
    except Table.DoesNotExist:
        # Nothing to check, and retrying will not make it appear.
        logger.warning("table %s no longer exists; nothing to verify", table_id)
        return {"table": table_id, "seq": None, "ok": False}
    if not result.ok:
        logger.error("table %s failed verification at seq %s: %s", table_id, result.seq, result)
    return {"table": result.table_id, "seq": result.seq, "ok": result.ok}


@shared_task(acks_late=True)
def tables_audit() -> dict:
    """Nightly: replay every table's log and check its hash chain; report every table off.

    It only reads and re-caches projections, so a second run (or a redelivery) changes
    nothing. A table that fails is logged as an error and mailed to the ADMINS. Seasons whose
    standings do not reflect their tables' logs (a recompute lost or failed) are queued again.
    """
    report = services.tables_audit()
    # Standings a lost or failed recompute left behind are queued again.
    report["standings_queued"] = selectors.seasons_behind()
    for season_id in report["standings_queued"]:
        season_standings_recompute.delay(season_id)
    for failure in report["failures"]:
        logger.error("audit: table %s is off: %s", failure["table"], failure)
    if report["failures"]:
        mail_admins(
            f"RummyRef audit: {len(report['failures'])} table(s) off",
            json.dumps(report["failures"], indent=2),
            fail_silently=True,
        )
    return report


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
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


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
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
