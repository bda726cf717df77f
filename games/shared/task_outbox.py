"""Tasks sent to the workers once a write commits, none lost while the broker is away.

A write that calls for a task (a season's standings to recompute, a reset mail to send)
queues it here, in the write's own transaction (``QueuedTask``, a transactional outbox).
Once the transaction commits the task is sent, bounded: the broker's socket timeouts
(settings.CELERY_BROKER_TRANSPORT_OPTIONS) and no retries, so a broker that is down or hung
costs the request at most about half a second, never an error. A task that could not be sent
stays queued, and ``outbox_drain`` (every OUTBOX_DRAIN_SECONDS, by beat) sends it once the
broker answers again. Tasks are idempotent (they take ids and recompute), so the rare task
sent twice, when its row could not be deleted after the send, does no harm.

``kept=False`` is for work the nightly audit does anyway (a table's verification after each
save): sent bounded, but not queued, so a save stores no row for it.

With no broker (``make run``), tasks run in the process at commit, as Celery's eager mode.
"""

import logging
from datetime import timedelta

from celery import current_app
from django.db import DatabaseError, transaction
from django.utils import timezone

from games.shared.cache import warn_rarely
from games.shared.models import QueuedTask

logger = logging.getLogger(__name__)

# A drain leaves alone rows younger than this: their own commit's send may be under way.
DRAIN_AFTER = timedelta(seconds=10)
# The most rows one drain sends; the next drain takes the rest.
DRAIN_BATCH = 500


def _at_commit(task, args: tuple, queued: "QueuedTask | None" = None):
    """Return what runs at the commit: the task's send (or, eager, its run). It carries the
    task as ``.task``, so that what a transaction will send can be read from its on-commit
    callbacks."""

    def send() -> None:
        if task.app.conf.task_always_eager:
            task.delay(*args)
        else:
            _send(task, args, queued)

    send.task = task
    return send


def send_on_commit(task, *args, kept: bool = True) -> None:
    """Send ``task(*args)`` to the workers once the current transaction commits (at once,
    outside one); queued in that transaction first unless ``kept`` is False."""
    if task.app.conf.task_always_eager:
        # Robust: the write is committed and acknowledged; a failing task is logged.
        transaction.on_commit(_at_commit(task, args), robust=True)
        return
    queued = QueuedTask.objects.create(task=task.name, args=list(args)) if kept else None
    transaction.on_commit(_at_commit(task, args, queued))


def _send(task, args, queued: QueuedTask | None) -> bool:
    """Send one task, bounded; delete its queued row once sent. False if it was not sent."""
    try:
        task.apply_async(args, retry=False)
    except Exception:  # whatever the broker raises, the task waits its turn
        warn_rarely(logger, "Tasks wait in the outbox: the broker cannot be reached.")
        return False
    if queued is not None:
        try:
            QueuedTask.objects.filter(pk=queued.pk).delete()
        except DatabaseError:  # sent all the same; a drain sends it once more, harmlessly
            logger.warning("A sent task's row could not be deleted: %s", queued)
    return True


def outbox_drain(app=None) -> int:
    """Send the tasks still queued (oldest first, at most DRAIN_BATCH) through ``app`` (the
    current Celery app); return how many were sent. Stops at the first that cannot be: the
    broker is still away."""
    app = app or current_app
    before = timezone.now() - DRAIN_AFTER
    sent = 0
    with transaction.atomic():
        # skip_locked: two drains at once (two workers) share the rows instead of both
        # sending each.
        rows = list(
            QueuedTask.objects.select_for_update(skip_locked=True)
            .filter(queued_at__lt=before)
            .order_by("pk")[:DRAIN_BATCH]
        )
        for row in rows:
            task = app.tasks.get(row.task)
            if task is None:  # a task this release no longer has: nothing can run it
                logger.error("Queued task %s has no code: dropped.", row)
                row.delete()
                continue
            if not _send(task, tuple(row.args), row):
                break
            sent += 1
    return sent
