"""The tables' background work, queued on commit. Tasks take ids and are idempotent.

Their names stay "games.tasks.<name>": queued messages and the beat schedule carry them.
"""

import json
import logging

from celery import shared_task
from django.core.mail import mail_admins

from games.tables import audit
from games.tables.models import Table
from games.tables.signals import tables_audited

logger = logging.getLogger(__name__)


@shared_task(
    name="games.tasks.table_verify",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def table_verify(table_id: str) -> dict:
    """Re-check a table after a write: hash chain intact, cached state equal to a fresh replay."""
    try:
        result = audit.table_verify(table_id=table_id)
    except Table.DoesNotExist:
        # Nothing to check, and retrying will not make it appear.
        logger.warning("table %s no longer exists; nothing to verify", table_id)
        return {"table": table_id, "seq": None, "ok": False}
    if not result.ok:
        logger.error("table %s failed verification at seq %s: %s", table_id, result.seq, result)
    return {"table": result.table_id, "seq": result.seq, "ok": result.ok}


@shared_task(name="games.tasks.tables_audit", acks_late=True)
def tables_audit() -> dict:
    """Nightly: replay every table's log and check its hash chain, its seating and its
    newest checkpoint; report every table off, and checkpoint every table that verifies.

    It reads, re-caches projections and keeps a signed checkpoint of each table that changed
    since its last one, so a second run (or a redelivery) changes nothing. A table that
    fails is logged as an error and mailed to the ADMINS (and gets no new checkpoint: the old
    one keeps showing what changed), and so is anything the receivers of ``tables_audited``
    found (standings that differ from the logs, repaired) or a checkpoint log gone or forged.
    Seasons whose standings do not reflect their tables' logs (a recompute lost or failed)
    are queued again.
    """
    report = audit.tables_audit(checkpoint=True)
    logger.info(
        "audit: %s table(s) checked, %s checkpointed", report["checked"], report["checkpointed"]
    )
    # Standings a lost or failed recompute left behind are queued again, and the ones that
    # differ from the logs read again are repaired (by their receivers).
    findings = [report["checkpoint_log"]] if "checkpoint_log" in report else []
    for _receiver, done in tables_audited.send(sender=tables_audit, report=report):
        done = dict(done or {})
        findings += done.pop("findings", [])
        report.update(done)
    if findings:
        report["findings"] = findings
    for failure in report["failures"]:
        logger.error("audit: table %s is off: %s", failure["table"], failure)
    for finding in findings:
        logger.error("audit: %s", finding)
    if report["failures"] or findings:
        mail_admins(
            f"RummyRef audit: {len(report['failures'])} table(s) off, "
            f"{len(findings)} other finding(s)",
            json.dumps({"failures": report["failures"], "findings": findings}, indent=2),
            fail_silently=True,
        )
    return report
