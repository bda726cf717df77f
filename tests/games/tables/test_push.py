"""A save's new head pushed to the push engine after the commit (games.tables.push): sent
by a thread of its own, so a save never waits for the engine, gives up on a silent one,
and is never lost or refused because the engine is away."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import transaction

from games.shared import cache as shared_cache
from games.tables import push, services
from tests.factories import TableFactory
from tests.payloads import quick
from tests.ports import free_port

# Bounds on waiting for another thread, never a measure of speed: passing tests never
# wait them out.
WAIT_SECONDS = 10


class FakeEngine:
    """Pushpin's publish endpoint as a test sees it: what it was sent, and, when told to,
    a first request it never answers (an engine that hangs)."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.arrived = threading.Condition()
        self.hang_first = False
        self.hung = threading.Event()
        self.release = threading.Event()
        engine = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with engine.arrived:
                    engine.bodies.append({"path": self.path, **body})
                    first = len(engine.bodies) == 1
                    engine.arrived.notify_all()
                if first and engine.hang_first:
                    engine.hung.set()
                    engine.release.wait(WAIT_SECONDS)
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"Published\n")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def items(self, count: int) -> list[dict]:
        """Wait until ``count`` items have arrived (in any number of requests); return them."""
        with self.arrived:
            got = self.arrived.wait_for(
                lambda: sum(len(b["items"]) for b in self.bodies) >= count, WAIT_SECONDS
            )
        assert got, f"the engine got {self.bodies}, not {count} items"
        return [item for body in self.bodies for item in body["items"]]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def engine(settings):
    fake = FakeEngine()
    settings.PUSH_URL = fake.url
    yield fake
    push.publisher.wait_sent()
    fake.close()


def head_item(table, seq: int) -> dict:
    """The item Pushpin is sent for a table's head ``seq``, written out by hand."""
    content = f"id: {seq}\nevent: head\ndata: {seq}\n\n"
    return {
        "channel": f"table-{table.id}",
        "id": f"table-{table.id}:{seq}",
        "formats": {"http-stream": {"content": content}},
    }


class TestPushAfterCommit:
    def test_a_saved_hand_pushes_the_new_head_once_committed(
        self, engine, append, django_capture_on_commit_callbacks
    ):
        table = TableFactory()  # its log: the creation, seq 1
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            append(table, "hand_recorded", quick(0, "knock", 7, 20))
            assert engine.bodies == []  # nothing before the commit
        for callback in callbacks:
            callback()
        assert engine.items(1) == [head_item(table, 2)]
        assert engine.bodies[0]["path"] == "/publish/"

    def test_a_save_that_rolls_back_pushes_nothing(
        self, engine, append, django_capture_on_commit_callbacks
    ):
        table = TableFactory()

        def append_then_fail():
            with transaction.atomic():
                append(table, "hand_recorded", quick(0, "knock", 7, 20))
                raise RuntimeError("the request failed after the append")

        with django_capture_on_commit_callbacks(execute=True):
            with pytest.raises(RuntimeError):
                append_then_fail()
            append(table, "hand_recorded", quick(1, "knock", 5, 30))
        push.publisher.wait_sent()
        # Only the hand that stayed: seq 2 again, now the second hand's.
        assert engine.items(1) == [head_item(table, 2)]

    def test_a_started_rematch_tells_the_finished_tables_phones_to_poll(
        self, engine, append, django_capture_on_commit_callbacks
    ):
        # Classic to 50: Anna's gin, 25 + 30, ends the match at seq 2.
        table = TableFactory(options={"preset": "classic", "target": 50})
        with django_capture_on_commit_callbacks(execute=True):
            append(table, "hand_recorded", quick(0, "gin", 0, 30))
        with django_capture_on_commit_callbacks(execute=True):
            services.table_rematch(table_id=table.id, entered_by="test")
        moved = {
            "channel": f"table-{table.id}",
            "formats": {"http-stream": {"content": "event: moved\ndata: \n\n"}},
        }
        # The new table's creation has a channel of its own; the old one hears "moved".
        items = [item for item in engine.items(3) if item["channel"] == f"table-{table.id}"]
        assert items == [head_item(table, 2), moved]

    def test_nothing_is_pushed_when_push_is_off(
        self, settings, append, monkeypatch, django_capture_on_commit_callbacks
    ):
        settings.PUSH_URL = ""
        sent = []
        monkeypatch.setattr(push.publisher, "send", sent.append)
        with django_capture_on_commit_callbacks(execute=True):
            append(TableFactory(), "hand_recorded", quick(0, "knock", 7, 20))
        assert sent == []


class TestAnEngineAway:
    def test_a_save_commits_and_answers_while_the_engine_hangs(
        self, engine, settings, append, django_capture_on_commit_callbacks
    ):
        engine.hang_first = True
        settings.PUSH_TIMEOUT = 0.2
        table = TableFactory()
        with django_capture_on_commit_callbacks(execute=True):
            append(table, "hand_recorded", quick(0, "knock", 7, 20))
        assert engine.hung.wait(WAIT_SECONDS)
        # The engine holds the push unanswered, and the next save goes through all the same.
        with django_capture_on_commit_callbacks(execute=True):
            result = append(table, "hand_recorded", quick(1, "knock", 5, 30))
        assert result.created and result.event.seq == 3
        # The sender gave the silent engine up (PUSH_TIMEOUT) and sent the next head on.
        assert engine.items(2) == [head_item(table, 2), head_item(table, 3)]

    def test_a_save_is_kept_when_nothing_listens_at_the_engine_address(
        self, settings, append, django_capture_on_commit_callbacks, caplog, monkeypatch
    ):
        monkeypatch.setattr(shared_cache, "_warned", {})  # said once a minute: say it here
        settings.PUSH_URL = f"http://127.0.0.1:{free_port()}"
        table = TableFactory()
        with django_capture_on_commit_callbacks(execute=True):
            result = append(table, "hand_recorded", quick(0, "knock", 7, 20))
        push.publisher.wait_sent()
        assert result.created
        table.refresh_from_db()
        assert table.head_seq == 2
        assert "phones poll meanwhile" in caplog.text

    def test_pushes_past_the_queue_are_dropped_not_waited_for(self, engine, monkeypatch):
        engine.hang_first = True
        monkeypatch.setattr(push, "QUEUE_SIZE", 1)
        publisher = push.Publisher()
        first, second, third = (push.Push("table-x", str(n), f"data: {n}\n\n") for n in (1, 2, 3))
        publisher.send(first)
        assert engine.hung.wait(WAIT_SECONDS)  # the sender is stuck on the first
        publisher.send(second)  # waits in the queue
        publisher.send(third)  # the queue is full: dropped, and send returns
        engine.release.set()
        publisher.wait_sent()
        assert [item["id"] for item in engine.items(2)] == ["table-x:1", "table-x:2"]
