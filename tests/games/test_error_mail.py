"""Error mails (games/shared/error_mail.py): at most one a window across the app's processes,
the errors left out counted in the next, sent by a background thread so the request that
logged the error goes on, and a mail server that fails never raising into the request."""

import logging
import threading

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.core.mail.backends.locmem import EmailBackend

from games.shared.error_mail import RateLimitedAdminEmailHandler, error_mails_sent

pytestmark = pytest.mark.django_db

START = 6_000_000.0  # the start of a minute


class ThreadNotingBackend(EmailBackend):
    """The test mail box, noting which thread sent each mail."""

    threads: list[str] = []

    def send_messages(self, messages):
        ThreadNotingBackend.threads.append(threading.current_thread().name)
        return super().send_messages(messages)


class FailingBackend(EmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("the mail server is away")


@pytest.fixture(autouse=True)
def _admins(settings):
    settings.ADMINS = [("Operator", "ops@example.com")]
    settings.ERROR_MAIL_SECONDS = 60
    ThreadNotingBackend.threads = []
    cache.clear()


def _process(now: list[float], backend: type = ThreadNotingBackend):
    """A handler as one app process has it, on the test's clock."""
    handler = RateLimitedAdminEmailHandler(email_backend=f"{__name__}.{backend.__name__}")
    handler.clock = lambda: now[0]
    return handler


def _error(handler: RateLimitedAdminEmailHandler, text: str) -> None:
    handler.handle(
        logging.makeLogRecord({"levelno": logging.ERROR, "levelname": "ERROR", "msg": text})
    )


def test_a_burst_of_errors_is_one_mail_and_the_next_minute_counts_the_rest():
    now = [START]
    handler = _process(now)
    for number in range(50):
        _error(handler, f"saving failed {number}")
    error_mails_sent()
    assert [message.subject for message in mail.outbox] == ["[Django] ERROR: saving failed 0"]
    now[0] += 60
    _error(handler, "saving failed again")
    error_mails_sent()
    assert len(mail.outbox) == 2
    assert "49 more errors in this process were not mailed" in mail.outbox[1].body


def test_two_processes_send_one_mail_a_minute_between_them():
    now = [START]
    first, second = _process(now), _process(now)
    _error(first, "from the first")
    _error(second, "from the second")
    error_mails_sent()
    assert [message.subject for message in mail.outbox] == ["[Django] ERROR: from the first"]
    now[0] += 60
    _error(second, "from the second, a minute on")
    error_mails_sent()
    assert mail.outbox[1].subject == "[Django] ERROR: from the second, a minute on"
    assert "1 more errors in this process" in mail.outbox[1].body


def test_the_mail_is_sent_by_a_thread_of_its_own_not_the_request():
    _error(_process([START]), "saving failed")
    error_mails_sent()
    assert ThreadNotingBackend.threads == ["error-mail"]
    assert threading.current_thread().name != "error-mail"


def test_a_mail_server_that_fails_raises_nothing_and_the_next_minute_mails_again():
    now = [START]
    _error(_process(now, FailingBackend), "saving failed")  # raises nothing here
    error_mails_sent()
    assert mail.outbox == []
    now[0] += 60
    _error(_process(now), "saving failed, a minute on")
    error_mails_sent()
    assert [message.subject for message in mail.outbox] == [
        "[Django] ERROR: saving failed, a minute on"
    ]


def test_the_site_mails_its_admins_through_this_handler():
    handler = settings.LOGGING["handlers"]["mail_admins"]
    assert handler["class"] == "games.shared.error_mail.RateLimitedAdminEmailHandler"
    assert settings.LOGGING["loggers"]["django"]["handlers"] == ["mail_admins"]
