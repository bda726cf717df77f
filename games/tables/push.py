"""A table's new head, pushed to the phones that watch it through the push engine (Pushpin,
speaking GRIP; docs/live.md), after the append's commit.

The push is news, never the source: an event says only "the log now ends at seq N", and a
phone that hears it asks the table's usual poll for what it has not shown. So a push that
is lost (the engine away, the queue full, a timeout) costs that phone a poll's delay, never
a save: the append has committed before anything here runs, and nothing here can fail it.

The request never waits for the engine: the commit hands the event to one thread per
process, which sends what has piled up in one request, bounded by ``PUSH_TIMEOUT``.
"""

import json
import logging
import os
import queue
import threading
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from games.shared.cache import warn_rarely

logger = logging.getLogger(__name__)

# What waits for the sending thread at most; past it a push is dropped (the phones' polls,
# or the next push, bring the news). A club night makes a few saves a second.
QUEUE_SIZE = 1000
# Items sent in one request to the engine at most, when pushes pile up.
BATCH_SIZE = 100
# How long a browser waits before it opens a dropped stream again (ms).
RETRY_MS = 1000


@dataclass(frozen=True)
class Push:
    """One message for one channel: its SSE id (the head) and its text."""

    channel: str
    event_id: str
    content: str


def table_channel(table_id) -> str:
    """Return the channel that a table's streams hold and its pushes go to."""
    return f"table-{table_id}"


def group_channel(group_id) -> str:
    """Return the channel that a group's page streams: its tables' comings and endings."""
    return f"group-{group_id}"


def head_message(seq: int) -> str:
    """Return the server-sent event that says the table's log now ends at ``seq``; its id is
    the seq, which a browser sends back as Last-Event-ID when it opens the stream again."""
    return f"id: {seq}\nevent: head\ndata: {seq}\n\n"


def moved_message() -> str:
    """Return the event that says the table's rematch has started: its phones' polls move
    them on, so they should poll now (no id: the head it came after is still the last)."""
    return news_message("moved")


def news_message(event: str) -> str:
    """Return an event that only says "something this page shows has moved, poll" (a group's
    tables): no id, since there is no version to resume from; the stream's first event makes
    a reopened page poll anyway."""
    return f"event: {event}\ndata: \n\n"


def head_push_on_commit(table_id, seq: int) -> None:
    """Push the table's new head once the append's transaction commits (nothing if push is
    off, or if it rolls back)."""
    _push_on_commit(Push(table_channel(table_id), str(seq), head_message(seq)))


def moved_push_on_commit(table_id) -> None:
    """Tell the table's phones, once the rematch's transaction commits, to poll now."""
    _push_on_commit(Push(table_channel(table_id), "", moved_message()))


def group_push_on_commit(group_id) -> None:
    """Tell a group's page, once the transaction commits, that its tables moved (one was
    started, or finished or was reopened)."""
    _push_on_commit(Push(group_channel(group_id), "", news_message("group")))


def _push_on_commit(push: Push) -> None:
    push_made_on_commit(lambda: push)


def push_made_on_commit(make: Callable[[], Push | None]) -> None:
    """Once the transaction commits, build a push with ``make`` (it may read what was
    committed, e.g. a night's version; None: nothing to send) and hand it to the sender;
    nothing if push is off or the transaction rolls back."""
    if not settings.PUSH_URL:
        return

    def send() -> None:
        made = make()
        if made is not None:
            publisher.send(made)

    # robust: a failure to build or hand it over is logged, never raised into the committed
    # request.
    transaction.on_commit(send, robust=True)


def _item(push: Push) -> dict:
    item = {"channel": push.channel, "formats": {"http-stream": {"content": push.content}}}
    if push.event_id:
        item["id"] = f"{push.channel}:{push.event_id}"
    return item


def publish(pushes: list[Push], *, url: str, timeout: float) -> None:
    """Send ``pushes`` to the engine's publish endpoint in one request (raises on failure)."""
    body = json.dumps({"items": [_item(push) for push in pushes]}).encode()
    request = urllib.request.Request(
        f"{url.rstrip('/')}/publish/",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        answer.read()


class Publisher:
    """The one thread per process that sends pushes, so that no request waits for them."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Push] = queue.Queue(maxsize=QUEUE_SIZE)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def send(self, push: Push) -> None:
        """Queue ``push`` for the thread; drop it if the queue is full (engine too slow)."""
        self._started()
        try:
            self._queue.put_nowait(push)
        except queue.Full:
            warn_rarely(logger, "Pushes are dropped: the push engine does not keep up.")

    def wait_sent(self) -> None:
        """Return once every push queued so far was sent or given up (for tests, benches)."""
        self._queue.join()

    def _started(self) -> None:
        # A worker forked from a process that had the thread has none of its own: start it.
        with self._lock:
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="push", daemon=True)
                self._thread.start()

    def _batch(self) -> list[Push]:
        pushes = [self._queue.get()]
        while len(pushes) < BATCH_SIZE:
            try:
                pushes.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return pushes

    def _run(self) -> None:
        while True:
            pushes = self._batch()
            try:
                publish(pushes, url=settings.PUSH_URL, timeout=settings.PUSH_TIMEOUT)
            except Exception as exc:  # whatever goes wrong, the thread lives on for the next
                warn_rarely(logger, "Could not push (%r): phones poll meanwhile.", exc)
            finally:
                for _ in pushes:
                    self._queue.task_done()


publisher = Publisher()
