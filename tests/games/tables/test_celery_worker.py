"""A real Celery worker on Redis picks up the work an append queues on commit."""

import uuid

import pytest

from games.models import TableProjection
from games.tables import services as table_services
from tests.factories import TableFactory
from tests.games.workers import wait_for, worker_stop
from tests.payloads import quick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


class TestWorker:
    def test_the_worker_verifies_each_table_after_its_appends_commit(self, db, worker_process):
        table = TableFactory()
        for seq in (1, 2, 3):
            table_services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=seq,
                event_type="hand_recorded",
                payload=quick(seq % 2, "knock", 4, 20),
            )

        def verified() -> bool:
            # The worker writes the projection's row too: the appends leave it to it.
            return TableProjection.objects.filter(table=table, seq=4, verified_seq=4).exists()

        if not wait_for(verified):
            pytest.fail("worker never verified the table:\n" + worker_stop(worker_process))
