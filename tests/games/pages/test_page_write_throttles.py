"""Page writes are throttled per client address, and a reset mail also per email address
(games.shared.throttles.page_write_allowed), with the default rates: past a rate the form
comes back with the refusal, answered 429, and nothing is stored or sent."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from games.models import Group, Invite, Table
from tests.factories import UserWithPasswordFactory

pytestmark = pytest.mark.django_db

HOME = "203.0.113.9"
AWAY = "198.51.100.4"
FROM_NETWORK = "Too many of these from this network for now: try again in"
FOR_EMAIL = "Too many links asked for this email for now: try again in"
TABLE = {
    "variant": "gin",
    "gin__preset": "big_gin",
    "gin__target": "100",
    "player_1": "Anna",
    "player_2": "Bruno",
    "gin__no_rediscard": "on",
    "gin__wall": "on",
}
GROUP = {**TABLE, "name": "Sunday at Nonna's", "names": "Anna\nBruno\nCarla"}
PASSWORD = "seven-Spades-on-the-stock"


def _refused(response, message: str) -> None:
    assert response.status_code == 429
    body = response.content.decode()
    # The window is the clock's hour: in its last minute the wait is "1 minute."
    assert message in body and re.search(r"try again in \d+ minutes?\.", body)
    assert 'role="alert"' in body  # on the form, where the user is looking


class TestTableCreation:
    def test_thirty_an_hour_from_one_address_then_the_form_with_the_refusal(self):
        phone = Client(REMOTE_ADDR=HOME)
        for _ in range(30):
            assert phone.post("/", TABLE).status_code == 302
        refused = phone.post("/", TABLE)
        _refused(refused, FROM_NETWORK)
        assert 'value="Anna"' in refused.content.decode()  # what was typed is kept
        assert Table.objects.count() == 30
        assert Client(REMOTE_ADDR=AWAY).post("/", TABLE).status_code == 302

    def test_a_form_with_mistakes_takes_no_place(self):
        phone = Client(REMOTE_ADDR=HOME)
        for _ in range(40):
            assert phone.post("/", {**TABLE, "player_2": ""}).status_code == 422
        assert phone.post("/", TABLE).status_code == 302


class TestGroupCreation:
    def test_ten_an_hour_from_one_address(self):
        phone = Client(REMOTE_ADDR=HOME)
        for _ in range(10):
            assert phone.post("/g/new/", GROUP).status_code == 302
        _refused(phone.post("/g/new/", GROUP), FROM_NETWORK)
        assert Group.objects.count() == 10


class TestGroupTables:
    def test_a_groups_tables_count_with_the_tables_started_from_the_same_address(self):
        phone = Client(REMOTE_ADDR=HOME)
        made = phone.post("/g/new/", GROUP)
        group = Group.objects.get(pk=made.url.split("/")[2])
        seated = list(group.players.order_by("name").values_list("pk", flat=True)[:2])
        for _ in range(20):
            assert phone.post("/", TABLE).status_code == 302
        for _ in range(10):
            assert (
                phone.post(f"/g/{group.pk}/tables/", {**TABLE, "seated": seated}).status_code == 302
            )
        _refused(phone.post(f"/g/{group.pk}/tables/", {**TABLE, "seated": seated}), FROM_NETWORK)
        assert Table.objects.filter(group=group).count() == 10


class TestSignup:
    def _signup(self, client, username):
        form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
        return client.post("/accounts/signup/", form)

    def test_ten_an_hour_from_one_address(self):
        for n in range(10):
            assert self._signup(Client(REMOTE_ADDR=HOME), f"lia{n}").status_code == 302
        _refused(self._signup(Client(REMOTE_ADDR=HOME), "lia-late"), FROM_NETWORK)
        assert not get_user_model().objects.filter(username="lia-late").exists()
        assert self._signup(Client(REMOTE_ADDR=AWAY), "lia-away").status_code == 302


@pytest.mark.usefixtures("eager_celery")
class TestPasswordReset:
    def _ask(self, email, address=HOME):
        return Client(REMOTE_ADDR=address).post("/accounts/password_reset/", {"email": email})

    def test_five_an_hour_from_one_address(self, django_capture_on_commit_callbacks):
        users = [UserWithPasswordFactory() for _ in range(6)]
        with django_capture_on_commit_callbacks(execute=True) as queued:
            for user in users[:5]:
                assert self._ask(user.email).status_code == 302
            _refused(self._ask(users[5].email), FROM_NETWORK)
        assert len(queued) == len(mail.outbox) == 5
        assert users[5].email not in {message.to[0] for message in mail.outbox}

    def test_three_an_hour_for_one_email_whoever_asks(self, django_capture_on_commit_callbacks):
        mara = UserWithPasswordFactory(username="mara")
        with django_capture_on_commit_callbacks(execute=True) as queued:
            for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
                assert self._ask(mara.email, address).status_code == 302
            # Written otherwise, the same inbox: still the same count.
            _refused(self._ask(f"  {mara.email.upper()}", "192.0.2.4"), FOR_EMAIL)
        assert len(queued) == len(mail.outbox) == 3
        # The refused ask took no place of its address's.
        for n in range(5):
            assert self._ask(f"someone{n}@example.org", "192.0.2.4").status_code == 302

    def test_an_address_without_an_account_is_counted_the_same(self):
        for _ in range(3):
            assert self._ask("nobody@example.org", AWAY).status_code == 302
        _refused(self._ask("nobody@example.org", HOME), FOR_EMAIL)


class TestClubInvites:
    URL = "/clubs/{}/invites/"
    INVITE = {"role": "member", "max_uses": "1", "days": "7"}

    def test_thirty_an_hour_from_one_address_and_the_refusal_in_the_invites_section(self, world):
        admin = Client(REMOTE_ADDR=HOME)
        admin.force_login(world.admin)
        url = self.URL.format(world.club.slug)
        before = Invite.objects.count()
        for _ in range(30):  # each answer shows its new link, once (it is kept nowhere)
            made = admin.post(url, self.INVITE)
            assert made.status_code == 200 and "/invite/#" in made.content.decode()
        _refused(admin.post(url, self.INVITE), FROM_NETWORK)
        partial = admin.post(url, self.INVITE, HTTP_HX_REQUEST="true")
        _refused(partial, FROM_NETWORK)
        assert 'id="invites"' in partial.content.decode()
        assert "<html" not in partial.content.decode()
        assert Invite.objects.count() == before + 30
