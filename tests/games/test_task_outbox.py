"""Tasks a write calls for are queued in its transaction and sent after its commit, bounded
(games/shared/task_outbox.py): a broker that is paused (hung) or gone costs the request a
timeout, never an error, and nothing is lost — the drain sends what waited once the broker is
back.

The broker is a real redis-server of the test's own (tests/games/test_cache_outage.py's),
paused with SIGSTOP as a stuck or partitioned Redis behaves, or killed.
"""

import uuid

import pytest
from celery import Celery
from django.db import transaction
from django.utils import timezone

from games.shared import task_outbox
from games.shared.models import QueuedTask
from games.shared.task_outbox import send_on_commit
from tests.games.test_cache_outage import RedisServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker():
    server = RedisServer()
    server.start()
    yield server
    if server.process.poll() is None:
        server.resume()
        server.kill()


def _app_on(server: RedisServer) -> Celery:
    """A Celery app with the project's settings (its timeouts above all) on ``server``."""
    app = Celery("outbox-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    # The write and read URLs: the plain one yields to $CELERY_BROKER_URL (the CI's broker).
    app.conf.broker_write_url = app.conf.broker_read_url = server.url
    app.conf.task_always_eager = False
    return app


def _tasks(app: Celery):
    @app.task(name="outbox_test.score_noted", shared=False)
    def score_noted(table: str, seq: int) -> None:  # run by no worker: only its message counts
        raise AssertionError("never run in these tests")

    return score_noted


def _messages(app: Celery) -> list[list]:
    """Take every message waiting on the app's default queue; return each one's args."""
    taken = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue)
        while True:
            try:
                message = queue.get(timeout=0.5)
            except queue.Empty:
                break
            taken.append(message.payload[0])
            message.ack()
        queue.close()
    return taken


def _backdate_queued() -> None:
    QueuedTask.objects.update(queued_at=timezone.now() - 2 * task_outbox.DRAIN_AFTER)


class TestSending:
    def test_a_task_sent_after_the_commit_leaves_no_row(self, broker):
        app = _app_on(broker)
        score_noted = _tasks(app)
        with transaction.atomic():
            send_on_commit(score_noted, "t1", 4)
            assert QueuedTask.objects.count() == 1  # queued with the write
        assert not QueuedTask.objects.exists()
        assert _messages(app) == [["t1", 4]]

    def test_nothing_is_queued_or_sent_when_the_write_rolls_back(self, broker):
        app = _app_on(broker)
        score_noted = _tasks(app)

        def failed_write() -> None:
            with transaction.atomic():
                send_on_commit(score_noted, "t1", 4)
                raise RuntimeError("the write failed")

        with pytest.raises(RuntimeError):
            failed_write()
        assert not QueuedTask.objects.exists()
        assert _messages(app) == []

    @pytest.mark.parametrize("outage", ["pause", "kill"])
    def test_a_hung_or_gone_broker_keeps_the_task_queued_and_the_write_stands(self, broker, outage):
        app = _app_on(broker)
        score_noted = _tasks(app)
        getattr(broker, outage)()
        # Returns (the broker's socket timeouts bound it: pytest-timeout fails a hang) and
        # raises nothing: the write is committed and acknowledged.
        with transaction.atomic():
            send_on_commit(score_noted, "t1", 4)
        assert list(QueuedTask.objects.values_list("task", "args")) == [
            ("outbox_test.score_noted", ["t1", 4])
        ]

    def test_work_the_audit_does_anyway_is_sent_but_never_queued(self, broker):
        app = _app_on(broker)
        score_noted = _tasks(app)
        with transaction.atomic():
            send_on_commit(score_noted, "t1", 4, kept=False)
            assert not QueuedTask.objects.exists()
        assert _messages(app) == [["t1", 4]]
        broker.pause()
        with transaction.atomic():
            send_on_commit(score_noted, "t1", 5, kept=False)
        assert not QueuedTask.objects.exists()

    def test_with_no_broker_the_task_runs_in_the_process_at_commit(self):
        app = Celery("outbox-eager", set_as_current=False)
        app.conf.task_always_eager = True
        ran = []

        @app.task(name="outbox_test.eager", shared=False)
        def eager(value: int) -> None:
            ran.append(value)

        with transaction.atomic():
            send_on_commit(eager, 3)
            assert ran == []  # not before the commit
        assert ran == [3] and not QueuedTask.objects.exists()


@pytest.fixture
def project_broker(broker):
    """Point the project's own Celery app at the test's broker (then back)."""
    from rummyref.celery import app

    def pools_dropped() -> None:  # the next send takes the pool of the URL set now
        app._pool = None
        app.amqp._producer_pool = None

    saved = (app.conf.broker_write_url, app.conf.broker_read_url, app.conf.task_always_eager)
    pools_dropped()
    app.conf.broker_write_url = app.conf.broker_read_url = broker.url
    app.conf.task_always_eager = False
    yield broker
    pools_dropped()
    app.conf.broker_write_url, app.conf.broker_read_url, app.conf.task_always_eager = saved


class TestBrokerAway:
    def test_a_password_reset_is_answered_and_its_mail_waits_for_the_broker(self, project_broker):
        from django.test import Client
        from django.urls import reverse

        from rummyref.celery import app
        from tests.factories import UserWithPasswordFactory

        mara = UserWithPasswordFactory(username="mara", email="mara@example.com")
        project_broker.pause()
        asked = Client().post(reverse("password_reset"), {"email": mara.email})
        # The reset is a locked-out player's only way back: never a 500 for a broker away.
        assert (asked.status_code, asked.url) == (302, reverse("password_reset_done"))
        assert list(QueuedTask.objects.values_list("task", "args")) == [
            ("games.tasks.password_reset_mail", ["mara@example.com", "testserver", False])
        ]
        project_broker.resume()
        _backdate_queued()
        assert task_outbox.outbox_drain(app) == 1
        assert [args[0] for args in _messages(app)] == ["mara@example.com"]


class TestDrain:
    def test_what_waited_is_sent_in_order_once_the_broker_is_back(self, broker):
        app = _app_on(broker)
        score_noted = _tasks(app)
        broker.pause()
        for seq in (4, 5):
            with transaction.atomic():
                send_on_commit(score_noted, "t1", seq)
        assert QueuedTask.objects.count() == 2
        _backdate_queued()
        # Still away: the drain stops at the first, and keeps both.
        assert task_outbox.outbox_drain(app) == 0
        assert QueuedTask.objects.count() == 2
        broker.resume()
        assert task_outbox.outbox_drain(app) == 2
        assert not QueuedTask.objects.exists()
        assert _messages(app) == [["t1", 4], ["t1", 5]]

    def test_a_task_just_queued_is_left_to_its_own_send(self, broker):
        app = _app_on(broker)
        QueuedTask.objects.create(task="outbox_test.score_noted", args=["t1", 4])
        _tasks(app)
        assert task_outbox.outbox_drain(app) == 0
        assert QueuedTask.objects.count() == 1

    def test_a_task_no_release_has_is_dropped_not_sent(self, broker):
        app = _app_on(broker)
        QueuedTask.objects.create(task="outbox_test.gone", args=[])
        _backdate_queued()
        assert task_outbox.outbox_drain(app) == 0
        assert not QueuedTask.objects.exists()
        assert _messages(app) == []


@pytest.mark.postgres
@pytest.mark.celery_worker
class TestDrainToARealWorker:
    def test_a_verification_that_waited_is_run_by_the_worker_after_the_drain(self, db):
        from games.models import TableProjection
        from games.tables import services as table_services
        from rummyref.celery import app
        from tests.factories import TableFactory
        from tests.games.workers import wait_for, worker_start, worker_stop
        from tests.payloads import quick

        table = TableFactory()
        table_services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "knock", 4, 20),
        )
        app.control.purge()  # the append's own verification is not the one this test waits for
        TableProjection.objects.filter(table=table).update(verified_seq=0)
        QueuedTask.objects.create(task="games.tasks.table_verify", args=[str(table.id)])
        _backdate_queued()
        worker = worker_start()
        try:
            assert task_outbox.outbox_drain() == 1
            assert not QueuedTask.objects.exists()

            def verified() -> bool:
                return TableProjection.objects.filter(table=table, verified_seq=2).exists()

            assert wait_for(verified), worker_stop(worker)
        finally:
            worker_stop(worker)


@pytest.mark.postgres
@pytest.mark.celery_worker
class TestTheClubWhileTheBrokerIsAway:
    def test_a_league_match_finished_meanwhile_reaches_the_standings_after_the_drain(
        self, project_broker
    ):
        """Gin, Classic to 50 (GIN-SCORE-GIN, GIN-MATCH): Anna's gin against Bruno's 30 is
        25 + 30 = 55, the match: Anna 1 won, Bruno 1 lost, in the season's standings."""
        from games.models import SeasonStandings
        from rummyref.celery import app
        from tests.games.clubs_setup import club_world, play
        from tests.games.workers import wait_for, worker_start, worker_stop
        from tests.payloads import quick

        world = club_world()
        project_broker.pause()
        play(world, (world.anna, world.bruno), [quick(0, "gin", 0, 30)])
        assert QueuedTask.objects.filter(task="games.tasks.season_standings_recompute").exists()
        project_broker.resume()
        _backdate_queued()
        worker = worker_start(CELERY_BROKER_URL=project_broker.url)
        try:
            assert task_outbox.outbox_drain(app) >= 1

            def counted() -> dict | None:
                standing = SeasonStandings.objects.filter(season=world.season, matches=1).first()
                names = {world.anna.pk: "Anna", world.bruno.pk: "Bruno"}
                return standing and {names[row["player"]]: row["won"] for row in standing.rows}

            assert wait_for(lambda: counted() == {"Anna": 1, "Bruno": 0}), worker_stop(worker)
        finally:
            worker_stop(worker)
