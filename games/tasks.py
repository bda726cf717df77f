"""Background work, queued on commit. Tasks take ids and are idempotent."""

import logging

from celery import shared_task

from games import services
from games.models import Table

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
