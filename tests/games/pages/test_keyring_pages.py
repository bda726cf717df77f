"""This phone's keys: nothing lost when a phone changes — an account's claim, a one-use
move code, and a recovery file."""

import io
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.utils import timezone

from games.models import Group, KeyClaim, KeyTransfer, Table
from games.tables import keyring
from games.tables.keyring import TRANSFER_LIFETIME

GIN = {
    "variant": "gin",
    "gin__preset": "big_gin",
    "gin__target": "100",
    "gin__no_rediscard": "on",
    "gin__wall": "on",
}


def _table(phone: Client) -> Table:
    response = phone.post("/", {**GIN, "player_1": "Anna", "player_2": "Bruno"})
    assert response.status_code == 302
    return Table.objects.get(pk=response.url.split("/")[2])


def _group(phone: Client) -> Group:
    response = phone.post("/g/new/", {"name": "Family", "names": "Anna\nBruno", **GIN})
    assert response.status_code == 302
    return Group.objects.get(pk=response.url.split("/")[2])


def _opens(phone: Client, table: Table, group: Group) -> bool:
    table_ok = phone.get(f"/t/{table.id}/").status_code == 200
    group_ok = phone.get(f"/g/{group.pk}/").status_code == 200
    assert table_ok == group_ok
    return table_ok


def _move_code(phone: Client) -> str:
    page = phone.post("/keys/move/").content.decode()
    return re.search(r'data-testid="move-code">([^<]+)<', page).group(1)


@pytest.fixture
def old_phone(db):
    return Client()


@pytest.fixture
def held(old_phone):
    return _table(old_phone), _group(old_phone)


class TestTheKeysPage:
    def test_it_lists_what_this_phone_holds(self, old_phone, held):
        table, group = held
        page = old_phone.get("/keys/").content.decode()
        assert f"/t/{table.id}/" in page and f"/g/{group.pk}/" in page
        assert 'data-testid="keys-none"' in Client().get("/keys/").content.decode()


class TestAccountClaim:
    def test_a_claim_opens_everything_on_another_device_after_login(self, old_phone, held):
        table, group = held
        anna = get_user_model().objects.create_user("anna", password="a-long-pass-123")
        old_phone.force_login(anna)
        page = old_phone.post("/keys/claim/").content.decode()
        assert 'data-testid="keys-claimed"' in page
        assert KeyClaim.objects.filter(user__username="anna").count() == 2
        new_device = Client()
        assert not _opens(new_device, table, group)
        response = new_device.post(
            "/accounts/login/", {"username": "anna", "password": "a-long-pass-123"}
        )
        assert response.status_code == 302
        assert _opens(new_device, table, group)
        # A member's claim is a member's role: the new device starts tables.
        seated = list(group.players.values_list("pk", flat=True))
        started = new_device.post(f"/g/{group.pk}/tables/", {**GIN, "seated": seated})
        assert started.status_code == 302

    def test_claiming_twice_keeps_one_claim_each(self, old_phone, held):
        anna = get_user_model().objects.create_user("anna", password="a-long-pass-123")
        old_phone.force_login(anna)
        old_phone.post("/keys/claim/")
        old_phone.post("/keys/claim/")
        assert KeyClaim.objects.count() == 2

    def test_without_an_account_nothing_is_claimed(self, old_phone, held):
        response = old_phone.post("/keys/claim/")
        assert response.status_code == 403
        assert not KeyClaim.objects.exists()


class TestMoveCode:
    def test_the_code_hands_every_key_over_once(self, old_phone, held):
        table, group = held
        code = _move_code(old_phone)
        new_phone = Client()
        assert not _opens(new_phone, table, group)
        page = new_phone.post("/keys/receive/", {"code": code.lower()}).content.decode()
        assert 'data-testid="keys-received">1 table and 1 group came to this phone.<' in page
        # Each table is listed with its players, in seat order.
        names = ", ".join(seat.player.name for seat in table.seats.order_by("position"))
        assert f'data-testid="held-table-players">{names}<' in page
        assert _opens(new_phone, table, group)
        # One use: a third phone gets nothing with it, and the row keeps no grants.
        third = Client()
        response = third.post("/keys/receive/", {"code": code})
        assert response.status_code == 404
        assert not _opens(third, table, group)
        assert KeyTransfer.objects.get().grants == {}

    def test_an_expired_code_opens_nothing(self, old_phone, held):
        table, group = held
        code = _move_code(old_phone)
        KeyTransfer.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        new_phone = Client()
        assert new_phone.post("/keys/receive/", {"code": code}).status_code == 404
        assert not _opens(new_phone, table, group)

    def test_the_code_lives_ten_minutes_and_never_in_an_address(self, old_phone, held):
        page = old_phone.post("/keys/move/").content.decode()
        transfer = KeyTransfer.objects.get()
        lifetime = transfer.expires_at - transfer.created_at
        assert abs(lifetime - TRANSFER_LIFETIME) < timedelta(seconds=5)
        code = re.search(r'data-testid="move-code">([^<]+)<', page).group(1).replace("-", "")
        # The QR code carries it after "#", which browsers never send.
        assert f"/keys/receive/?{code}" not in page and code not in transfer.digest

    def test_a_phone_with_nothing_has_nothing_to_move(self, db):
        response = Client().post("/keys/move/")
        assert response.status_code == 409
        assert not KeyTransfer.objects.exists()

    def test_guesses_are_held_to_ten_a_minute_per_address(self, old_phone, held):
        code = _move_code(old_phone)
        guesser = Client()
        answers = [
            guesser.post("/keys/receive/", {"code": "AAAA-AAAA"}).status_code for _ in range(10)
        ]
        assert answers == [404] * 10
        # The eleventh try is refused before the code is looked up: the right one too.
        response = guesser.post("/keys/receive/", {"code": code})
        assert response.status_code == 429
        assert "Too many tries" in response.content.decode()

    def test_a_move_code_typed_where_a_table_code_goes_points_to_the_keys_page(
        self, old_phone, held
    ):
        code = _move_code(old_phone)
        for page, field in (("/join/", "code"), ("/j/", "link")):
            response = Client().post(page, {field: code})
            text = response.content.decode()
            assert response.status_code in (400, 422), (page, response.status_code)
            assert "looks like a move code" in text and "/keys/receive/" in text, page
        join = Client().get("/join/").content.decode()
        assert 'data-testid="move-code-pointer"' in join and 'href="/keys/receive/"' in join

    @pytest.mark.parametrize("typed", ["", "ABC", "A" * 500, "AAAA-AAA0"])
    def test_a_malformed_code_is_told_by_the_field(self, db, typed):
        response = Client().post("/keys/receive/", {"code": typed})
        assert response.status_code == 400
        assert 'data-testid="move-code-error"' in response.content.decode()


class TestRecoveryFile:
    def _download(self, phone: Client) -> bytes:
        response = phone.get("/keys/recovery/")
        assert response.status_code == 200
        assert "attachment" in response["Content-Disposition"]
        return response.content

    def _load(self, phone: Client, contents: bytes):
        upload = io.BytesIO(contents)
        upload.name = "rummyref-keys.json"
        return phone.post("/keys/recovery/load/", {"file": upload})

    def test_a_downloaded_file_brings_everything_back(self, old_phone, held):
        table, group = held
        contents = self._download(old_phone)
        data = json.loads(contents)
        assert data["format"] == "rummyref-keys" and data["tables"] == 1 and data["groups"] == 1
        # No key in it: only this server's signature over the digests the session held.
        assert table.scorekeeper_digest not in contents.decode()
        new_phone = Client()
        response = self._load(new_phone, contents)
        assert response.status_code == 200
        assert _opens(new_phone, table, group)

    def test_a_changed_file_opens_nothing(self, old_phone, held):
        table, group = held
        data = json.loads(self._download(old_phone))
        keys = data["keys"]
        data["keys"] = keys[:5] + ("A" if keys[5] != "A" else "B") + keys[6:]
        new_phone = Client()
        response = self._load(new_phone, json.dumps(data).encode())
        assert response.status_code == 400
        assert "was changed, or made by another server" in response.content.decode()
        assert not _opens(new_phone, table, group)

    @pytest.mark.parametrize(
        ("part", "value"),
        [
            ("tables", 2),
            ("groups", 0),
            ("tables", True),
            ("made", "2020-01-01T00:00:00+00:00"),
            ("note", "added by hand"),
        ],
    )
    def test_a_file_changed_outside_its_keys_opens_nothing(self, old_phone, held, part, value):
        """Every part of the file is signed: what it says of itself too (its date, how many
        tables and groups it holds), and nothing may be added."""
        table, group = held
        data = json.loads(self._download(old_phone))
        data[part] = value
        new_phone = Client()
        response = self._load(new_phone, json.dumps(data).encode())
        assert response.status_code == 400
        assert "was changed, or made by another server" in response.content.decode()
        assert not _opens(new_phone, table, group)

    def test_a_file_made_before_its_date_was_signed_still_loads_if_unchanged(self, old_phone, held):
        """Files made by the previous release signed only the keys: their counts are checked
        against the keys, and such a file, unchanged, brings everything back."""
        table, group = held
        data = json.loads(self._download(old_phone))
        signed = signing.loads(data["keys"], salt=keyring.RECOVERY_SALT)
        del signed["shown"]
        data["keys"] = signing.dumps(signed, salt=keyring.RECOVERY_SALT, compress=True)
        new_phone = Client()
        assert self._load(new_phone, json.dumps(data).encode()).status_code == 200
        assert _opens(new_phone, table, group)
        data["tables"] = 3
        assert self._load(Client(), json.dumps(data).encode()).status_code == 400

    @pytest.mark.parametrize(
        ("contents", "message"),
        [
            (b"not json", "not a RummyRef recovery file"),
            (b'{"format": "other"}', "not a RummyRef recovery file"),
            (b'{"format": "rummyref-keys", "version": 9, "keys": "x"}', "of version 9"),
            (b"x" * (300 * 1024), "too large"),
            (b"[" * 100_000 + b"]" * 100_000, "not a RummyRef recovery file"),
            # A lone surrogate is valid JSON but no page can be written with it: shown as "?".
            (b'{"format": "rummyref-keys", "version": "\\ud800x", "keys": "x"}', "of version ?x"),
        ],
    )
    def test_a_file_that_is_not_ours_is_refused_by_the_field(self, db, contents, message):
        response = self._load(Client(), contents)
        assert response.status_code == 400
        assert message in response.content.decode()
