"""A real Celery worker on Redis picks up the work an append queues on commit."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from games import services
from games.models import TableProjection
from rummyref.celery import app
from tests.payloads import quick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker():
    """Start a worker process on the test database and the configured broker."""
    app.control.purge()  # leftovers of earlier tests point at tables that are gone
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{connection.settings_dict['NAME']}"
        ),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "rummyref",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def _wait_for(predicate, timeout: float = 45.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


class TestWorker:
    def test_the_worker_verifies_each_table_after_its_appends_commit(self, make_table, worker):
        table = make_table()
        for seq in (1, 2, 3):
            services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=seq,
                type="hand_recorded",
                payload=quick(seq % 2, "knock", 4, 20),
            )

        def verified() -> bool:
            return TableProjection.objects.get(table=table).verified_seq == 4

        ok = _wait_for(verified)
        if not ok:
            worker.terminate()
            pytest.fail("worker never verified the table:\n" + worker.communicate(timeout=20)[0])
