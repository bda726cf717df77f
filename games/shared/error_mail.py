"""Error mails to the ADMINS that neither flood them nor hold up a request.

Django's AdminEmailHandler sends one mail per error, in the request that logged it: while a
server it depends on is away, every request may log an error, and every one then waits on the
mail server. Here a mail is sent at most once per ERROR_MAIL_SECONDS across the app's
processes (the shared cache decides which process sends; the others count what they left
out and say so in their next mail), and it is sent by a background thread of the process, so
the request goes on at once. Mails waiting past a short queue are dropped, counted the same
way: an error mail is a signal, the log keeps every line.
"""

import logging
import queue
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.log import AdminEmailHandler

from games.shared.cache import CacheUnavailable

logger = logging.getLogger(__name__)

# The most mails one process keeps waiting for its sender thread.
QUEUE_SIZE = 10


class _Sender:
    """One daemon thread per process that sends the mails handed to it, in order."""

    def __init__(self):
        self.mails: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def hand(self, send, *args, **kwargs) -> bool:
        """Queue a mail for the thread (started on first use); False if the queue is full."""
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="error-mail", daemon=True)
                self.thread.start()
        try:
            self.mails.put_nowait((send, args, kwargs))
        except queue.Full:
            return False
        return True

    def _run(self) -> None:
        while True:
            send, args, kwargs = self.mails.get()
            try:
                send(*args, **kwargs)
            except Exception:  # a mail server away must not end the thread
                # Not an ERROR: that would ask for another mail.
                logger.warning("An error mail could not be sent.", exc_info=True)
            finally:
                self.mails.task_done()


_sender = _Sender()


def error_mails_sent() -> None:
    """Wait until this process's error mails have been handed to the mail backend (tests)."""
    _sender.mails.join()


class RateLimitedAdminEmailHandler(AdminEmailHandler):
    """AdminEmailHandler, at most one mail per ERROR_MAIL_SECONDS across processes, sent by
    a background thread (see the module's docstring)."""

    clock = staticmethod(time.time)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.left_out = 0  # errors this process did not mail since its last mail
        self.window = None  # the last window this process took its turn in
        self.count_lock = threading.Lock()

    def emit(self, record):
        if not self._turn():
            with self.count_lock:
                self.left_out += 1
            return
        super().emit(record)

    def _turn(self) -> bool:
        """Whether this error may be mailed: the first of its window in this process and,
        while the shared cache answers, in every process."""
        seconds = settings.ERROR_MAIL_SECONDS
        window = int(self.clock() // seconds)
        with self.count_lock:
            if self.window == window:
                return False
            self.window = window
        key = f"error-mail:{window}"
        try:
            cache.add(key, 0, seconds * 2)
            return cache.incr(key) == 1  # atomic in Redis: one process wins the window
        except CacheUnavailable:  # each process mails once a window, as without a cache
            return True
        except ValueError:  # the count expired between add and incr: the window is over
            return False

    def send_mail(self, subject, message, *args, **kwargs):
        with self.count_lock:
            left_out, self.left_out = self.left_out, 0
        if left_out:
            message = (
                f"{message}\n\n({left_out} more errors in this process were not mailed since "
                "its last mail: see the log.)"
            )
        if not _sender.hand(super().send_mail, subject, message, *args, **kwargs):
            with self.count_lock:
                self.left_out += 1 + left_out
