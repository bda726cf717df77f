"""Joining a table from another phone: join links (the QR codes) and short codes, minted by
a phone that holds a role, for that role or a weaker one, and ending after 12 hours or with
the match."""

import logging
import re
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Table
from games.shared.errors import ActionRefused
from games.tables import joining
from games.tables.access import Role
from games.tables.models import JoinToken
from tests.factories import TableFactory
from tests.games.sharing import join_by_link, share_link, share_page
from tests.payloads import quick

pytestmark = pytest.mark.django_db
NO_TABLE = "No table with that code (codes expire when the match ends)."


def _holder(table) -> Client:
    """A phone holding the scorekeeper's role (the old key link, as the creator's session)."""
    phone = Client()
    phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    return phone


def _page(phone, table) -> str:
    response = phone.get(f"/t/{table.id}/")
    assert response.status_code == 200
    return response.content.decode()


def _code(page: str, role: str) -> str:
    return re.search(rf'data-testid="code-{role}">([^<]+)<', page).group(1)


def _role(phone, table) -> str | None:
    """Return what ``phone`` may do at ``table``: record, watch, or nothing."""
    page = phone.get(f"/t/{table.id}/")
    if page.status_code == 404:
        return None
    return "scorekeeper" if "Record a hand" in page.content.decode() else "viewer"


def _mint(table, role=Role.VIEWER, kind=JoinToken.Kind.CODE, holder=Role.SCOREKEEPER):
    return joining.join_token_mint(table=table, holder=holder, role=role, kind=kind)


class TestJoinLinks:
    @pytest.mark.parametrize("role", ["scorekeeper", "viewer"])
    def test_a_join_link_gives_the_role_it_was_made_for(self, role):
        table = TableFactory()
        phone = Client()
        response = join_by_link(phone, share_link(share_page(_holder(table), table), role))
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        assert _role(phone, table) == role

    def test_an_expired_link_opens_nothing(self):
        table = TableFactory()
        minted = _mint(table, kind=JoinToken.Kind.LINK)
        JoinToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        phone = Client()
        response = join_by_link(phone, joining.link_path(minted.secret))
        assert response.status_code == 404
        assert "links expire when the match ends" in response.content.decode()
        assert minted.secret not in response.content.decode()
        assert _role(phone, table) is None
        # A link made before the fragment, the same.
        response = phone.get(f"/j/{minted.secret}/")
        assert response.status_code == 302 and response.url == "/join/?refused=link"
        assert "links expire when the match ends" in phone.get(response.url).content.decode()

    def test_a_link_lasts_12_hours(self):
        table = TableFactory()
        before = timezone.now()
        minted = _mint(table, kind=JoinToken.Kind.LINK)
        assert (
            before + timedelta(hours=12)
            <= minted.expires_at
            <= timezone.now() + timedelta(hours=12)
        )
        assert JoinToken.objects.get().expires_at == minted.expires_at

    def test_a_finished_matchs_link_opens_nothing(self):
        table = TableFactory()
        minted = _mint(table, kind=JoinToken.Kind.LINK)
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
        assert Client().get(f"/j/{minted.secret}/").url == "/join/?refused=link"
        assert join_by_link(Client(), joining.link_path(minted.secret)).status_code == 404


class TestCodes:
    def test_the_scorekeeper_code_lets_a_phone_record_and_the_viewer_code_only_watch(self):
        table = TableFactory()
        page = share_page(_holder(table), table)
        recorder, watcher = Client(), Client()
        response = recorder.post("/join/", {"code": _code(page, "scorekeeper")})
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        watcher.post("/join/", {"code": _code(page, "viewer")})
        assert _role(recorder, table) == "scorekeeper"
        assert _role(watcher, table) == "viewer"
        assert watcher.post(f"/t/{table.id}/hands/preview/", {}).status_code == 403

    def test_a_viewer_cannot_make_a_scorekeeper_code_and_sees_only_the_viewers(self):
        table = TableFactory()
        with pytest.raises(ActionRefused):
            _mint(table, role=Role.SCOREKEEPER, holder=Role.VIEWER)
        watcher = Client()
        watcher.get(f"/t/{table.id}/join/{table.viewer_key}/")
        page = share_page(watcher, table)
        assert 'data-testid="code-viewer"' in page and 'data-testid="qr-viewer"' in page
        assert 'data-testid="code-scorekeeper"' not in page
        assert 'data-testid="qr-scorekeeper"' not in page
        joined = Client()
        joined.post("/join/", {"code": _code(page, "viewer")})
        assert _role(joined, table) == "viewer"

    @pytest.mark.parametrize("typed", ["{lower}", " {a} - {b} ", "{a}-{b}", "{a} {b}"])
    def test_a_code_is_read_whatever_the_case_spaces_and_dashes(self, typed):
        table = TableFactory()
        code = _mint(table).secret
        text = typed.format(lower=code.lower(), a=code[:3].lower(), b=code[3:])
        phone = Client()
        assert phone.post("/join/", {"code": text}).status_code == 302
        assert _role(phone, table) == "viewer"

    def test_a_wrong_code_says_so_clearly(self):
        TableFactory()
        response = Client().post("/join/", {"code": "K7M-4QX"})
        assert response.status_code == 404
        assert NO_TABLE in response.content.decode()
        short = Client().post("/join/", {"code": "K7M"})
        assert short.status_code == 400
        assert "A table code has 6 letters and digits" in short.content.decode()

    def test_a_finished_matchs_codes_are_refused(self, append):
        table = TableFactory(options={"preset": "classic", "target": 50})
        code = _mint(table).secret
        append(table, "hand_recorded", quick(0, "gin", 0, 60))  # 25 + 60 = 85: over 50
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        response = Client().post("/join/", {"code": code})
        assert response.status_code == 404 and NO_TABLE in response.content.decode()
        with pytest.raises(ActionRefused):
            _mint(table)
        page = share_page(_holder(table), table)
        assert 'data-testid="share-ended"' in page and 'data-testid="code-viewer"' not in page

    def test_an_expired_code_is_refused(self):
        table = TableFactory()
        code = _mint(table).secret
        JoinToken.objects.update(expires_at=timezone.now())
        assert Client().post("/join/", {"code": code}).status_code == 404

    def test_codes_use_the_alphabet_without_look_alikes_and_the_database_keeps_no_code(self):
        table = TableFactory()
        codes = [_mint(table).secret for _ in range(30)]
        assert all(len(code) == 6 and set(code) <= set(joining.CODE_ALPHABET) for code in codes)
        assert not set("0O1IL2Z5S8BUQ") & set(joining.CODE_ALPHABET)
        stored = set(JoinToken.objects.values_list("digest", flat=True))
        assert not stored & set(codes) and len(stored) == 30

    def test_a_code_that_clashes_with_a_live_one_is_drawn_again(self, monkeypatch):
        table = TableFactory()
        draws = iter(["K7M4QX", "K7M4QX", "K7M4QX", "AAAAAA"])
        monkeypatch.setattr(joining, "_new_secret", lambda kind: next(draws))
        assert _mint(table).secret == "K7M4QX"
        assert _mint(table).secret == "AAAAAA"
        assert JoinToken.objects.count() == 2

    def test_making_a_token_clears_the_ones_that_ended(self):
        table, other = TableFactory(), TableFactory()
        _mint(table)
        JoinToken.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
        _mint(other)
        assert list(JoinToken.objects.values_list("table_id", flat=True)) == [other.id]


class TestThrottle:
    def test_code_tries_are_limited_per_client_the_right_code_included(self):
        table = TableFactory()
        code = _mint(table).secret
        phone = Client()
        for _ in range(10):
            assert phone.post("/join/", {"code": "AAAAAA"}).status_code == 404
        refused = phone.post("/join/", {"code": code})
        assert refused.status_code == 429
        assert "Too many tries from this network" in refused.content.decode()
        assert _role(phone, table) is None
        # Another client (address) still has its tries; the counter is per client.
        other = Client(REMOTE_ADDR="192.0.2.77")
        assert other.post("/join/", {"code": code}).status_code == 302

    def test_right_codes_do_not_use_up_the_tries_of_a_clubs_shared_address(self):
        table = TableFactory()
        code = _mint(table).secret
        for _ in range(15):  # a room of phones behind one Wi-Fi address
            assert Client().post("/join/", {"code": code}).status_code == 302
        for _ in range(10):
            assert Client().post("/join/", {"code": "AAAAAA"}).status_code == 404
        assert Client().post("/join/", {"code": "AAAAAA"}).status_code == 429

    def test_the_counter_lives_in_the_shared_cache(self):
        from django.core.cache import cache

        Client().post("/join/", {"code": "AAAAAA"})
        window = int(time.time() // 60)  # JOIN_THROTTLE: 10/min, counted per minute
        found = [cache.get(f"throttle_join_127.0.0.1:{w}") for w in (window - 1, window)]
        assert 1 in found


class TestSharing:
    def test_the_share_block_shows_both_qr_codes_and_codes_and_reuses_them(self):
        table = TableFactory()
        phone = _holder(table)
        first = share_page(phone, table)
        for role in ("scorekeeper", "viewer"):
            qr = re.search(rf'data-testid="qr-{role}"><svg[^>]*>', first)
            assert qr is not None
            assert re.fullmatch(r"[A-Z0-9]{3}-[A-Z0-9]{3}", _code(first, role))
        assert "Codes and links expire when the match ends" in first
        again = share_page(phone, table)
        assert _code(again, "viewer") == _code(first, "viewer")
        assert share_link(again, "scorekeeper") == share_link(first, "scorekeeper")
        assert JoinToken.objects.count() == 4
        # The page itself, and its polls, make none: only opening the block does.
        _page(phone, table)
        phone.get(f"/t/{table.id}/?since=0", HTTP_HX_REQUEST="true")
        assert JoinToken.objects.count() == 4

    def test_the_page_makes_no_token_until_the_block_is_opened(self):
        table = TableFactory()
        page = _page(_holder(table), table)
        assert f'hx-get="/t/{table.id}/share/"' in page and 'hx-trigger="toggle once"' in page
        assert not JoinToken.objects.exists()

    def test_without_javascript_the_share_block_is_a_page_of_its_own(self):
        table = TableFactory()
        page = _holder(table).get(f"/t/{table.id}/share/").content.decode()
        assert "<html" in page and 'data-testid="code-scorekeeper"' in page
        assert Client().get(f"/t/{table.id}/share/").status_code == 404

    def test_no_key_is_in_any_address_or_value_the_table_page_holds(self):
        table = TableFactory()
        phone = _holder(table)
        page = _page(phone, table) + share_page(phone, table)
        attributes = re.findall(
            r'(?:href|src|action|value|hx-get|hx-post|data-[\w-]+)="([^"]*)"', page
        )
        assert attributes
        for key in (table.scorekeeper_key, table.viewer_key):
            assert key not in page
            assert not any(key in value for value in attributes)
        # Nothing makes the old key links any more.
        assert not any(f"/t/{table.id}/join/" in value for value in attributes)
        home = phone.get("/").content.decode()
        assert table.scorekeeper_key not in home and table.viewer_key not in home

    def test_the_links_are_made_from_the_address_the_phone_used(self, settings):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.0.2.10"]
        table = TableFactory()
        phone = Client(HTTP_HOST="192.0.2.10:8000")
        phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
        page = share_page(phone, table)
        assert 'value="http://192.0.2.10:8000/j/' in page
        assert "http://192.0.2.10:8000/join/" in page

    def test_at_a_league_table_members_hand_out_viewer_codes_only(self, world):
        table = world.table()
        member = Client()
        member.force_login(world.member)
        page = share_page(member, table)
        assert 'data-testid="code-viewer"' in page
        assert 'data-testid="code-scorekeeper"' not in page
        with pytest.raises(ActionRefused):
            _mint(table, role=Role.SCOREKEEPER)
        stranger = Client()
        stranger.post("/join/", {"code": _code(page, "viewer")})
        assert _role(stranger, table) == "viewer"
        # A spectator let in to watch hands out nothing.
        assert 'data-testid="code-viewer"' not in share_page(stranger, table)


class TestRefusedJoinsAreLoggedWithoutTheSecret:
    def test_no_tried_key_token_or_code_reaches_the_log(self, caplog):
        table = TableFactory()
        tried_key, tried_token, tried_code = "Q" * 43, "T" * 43, "K7M4QX"
        with caplog.at_level(logging.DEBUG):
            Client().get(f"/t/{table.id}/join/{tried_key}/")
            Client().get(f"/j/{tried_token}/")
            Client().post("/j/", {"link": tried_token})
            Client().post("/join/", {"code": tried_code})
        text = "\n".join(r.getMessage() for r in caplog.records)
        for secret in (tried_key, tried_token, tried_code, "K7M-4QX"):
            assert secret not in text
        assert f"Key link refused at table {table.id} from 127.0.0.1" in text
        assert "Join link refused from 127.0.0.1" in text
        assert "Join code refused from 127.0.0.1" in text

    def test_a_malformed_table_id_in_a_key_link_is_refused_without_a_404_log(self, caplog):
        response = Client().get(f"/t/not-a-table/join/{'K' * 43}/")
        assert response.status_code == 302 and response.url == "/join/?refused=link"
        assert "K" * 43 not in caplog.text
