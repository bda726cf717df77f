"""A password reset answers the same whether or not an account has the address: the lookup
and the mail happen in a task, after the page has answered."""

import pytest
from django.core import mail

from tests.factories import UserWithPasswordFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def _ask(client, email):
    return client.post("/accounts/password_reset/", {"email": email})


class TestPasswordReset:
    def test_the_page_answers_before_any_mail_is_looked_up_or_sent(
        self, client, django_capture_on_commit_callbacks
    ):
        UserWithPasswordFactory(username="mara", email="mara@example.org")
        with django_capture_on_commit_callbacks(execute=False) as queued:
            response = _ask(client, "mara@example.org")
        assert response.status_code == 302
        assert response.url == "/accounts/password_reset/done/"
        assert mail.outbox == []
        assert len(queued) == 1
        queued[0]()  # the worker's turn
        assert len(mail.outbox) == 1
        assert mail.outbox[0].to == ["mara@example.org"]
        assert "http://testserver/accounts/reset/" in mail.outbox[0].body

    def test_an_unknown_address_gets_the_same_answer_and_no_mail(
        self, client, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True) as queued:
            response = _ask(client, "nobody@example.org")
        assert (response.status_code, response.url) == (302, "/accounts/password_reset/done/")
        assert len(queued) == 1
        assert mail.outbox == []
