"""The shared part's background work: the task outbox's drain (games/shared/task_outbox.py)."""

from celery import shared_task

from games.shared import task_outbox


@shared_task(name="games.tasks.outbox_drain", acks_late=True)
def outbox_drain() -> dict:
    """Send the tasks queued while the broker was away."""
    return {"sent": task_outbox.outbox_drain()}
