"""No bearer secret in an address, a Referer or a session: join links and invites carry
theirs after "#" and the pages post it; links made before that still work and are sent on
at once to an address without it; without JavaScript the link (or code) is pasted; the
share block's and the invites' secrets never sit in a session in clear."""

import json
import re

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from games.clubs import services as club_services
from games.pages import joining as joining_pages
from games.pages.clubs import PENDING_INVITE
from games.shared.models import key_digest
from games.shared.sessions import stored_key
from games.tables import joining
from games.tables.access import Role
from games.tables.models import JoinToken
from tests.factories import PASSWORD, TableFactory, UserWithPasswordFactory
from tests.games.sharing import join_by_link, share_link, share_page

pytestmark = pytest.mark.django_db


def _keeper(table) -> Client:
    phone = Client()
    assert phone.get(f"/t/{table.id}/join/{table.scorekeeper_key}/").url == f"/t/{table.id}/"
    return phone


def _role(phone: Client, table) -> str | None:
    page = phone.get(f"/t/{table.id}/")
    if page.status_code == 404:
        return None
    return "scorekeeper" if "Record a hand" in page.content.decode() else "viewer"


def _link(table, role=Role.VIEWER) -> str:
    minted = joining.join_token_mint(
        table=table, holder=Role.SCOREKEEPER, role=role, kind=JoinToken.Kind.LINK
    )
    return minted.secret


def _session_text(phone: Client) -> str:
    """Everything the session store keeps for ``phone``: the row as stored, and decoded."""
    row = Session.objects.get(session_key=stored_key(phone.session.session_key))
    return row.session_data + json.dumps(row.get_decoded())


class TestTheLinkPage:
    def test_it_reads_the_token_from_the_fragment_and_posts_it_with_csrf(self):
        response = Client().get("/j/")
        page = response.content.decode()
        assert response.status_code == 200
        form = re.search(r"<form[^>]*data-secret-from-fragment[^>]*>", page).group(0)
        assert 'method="post"' in form and 'action="/j/"' in form
        assert 'name="csrfmiddlewaretoken"' in page and "data-secret-input" in page
        assert re.search(r'<script src="/static/js/fragment_secret\.js" defer>', page)
        assert response["Referrer-Policy"] == "same-origin"
        assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]

    def test_its_post_is_checked_for_csrf(self):
        table = TableFactory()
        phone = Client(enforce_csrf_checks=True)
        assert phone.post("/j/", {"link": _link(table)}).status_code == 403
        phone.get("/j/")
        token = phone.cookies["csrftoken"].value
        answer = phone.post("/j/", {"link": _link(table), "csrfmiddlewaretoken": token})
        assert answer.status_code == 302 and answer.url == f"/t/{table.id}/"

    def test_the_share_block_and_its_qr_codes_carry_the_token_after_the_hash(self):
        table = TableFactory()
        page = share_page(_keeper(table), table)
        links = re.findall(r'(?:value|data-share-url)="(https?://[^"]*)"', page)
        assert len(links) == 4
        assert all(re.fullmatch(r"http://testserver/j/#[\w-]{43}", link) for link in links)
        phone = Client()
        assert join_by_link(phone, share_link(page, "viewer")).url == f"/t/{table.id}/"
        assert _role(phone, table) == "viewer"

    def test_a_link_stays_multi_use_for_the_phones_around_the_table(self):
        table = TableFactory()
        secret = _link(table)
        for _ in range(3):
            phone = Client()
            assert join_by_link(phone, joining.link_path(secret)).status_code == 302
            assert _role(phone, table) == "viewer"


class TestWithoutJavaScript:
    @pytest.mark.parametrize(
        "pasted",
        [
            "http://testserver/j/#{secret}",
            "  https://rummyref.example/j/#{secret}  ",
            "http://testserver/j/{secret}/",  # a link made before the fragment
            "{secret}",
        ],
    )
    def test_the_link_pasted_in_the_form_joins(self, pasted):
        table = TableFactory()
        secret = _link(table, Role.SCOREKEEPER)
        phone = Client()
        page = phone.get("/j/").content.decode()
        assert "Paste the join link, or type the table&#x27;s code" in page
        answer = phone.post("/j/", {"link": pasted.format(secret=secret)})
        assert answer.status_code == 302 and answer.url == f"/t/{table.id}/"
        assert _role(phone, table) == "scorekeeper"

    def test_a_code_typed_in_the_same_form_joins_and_is_throttled_as_at_join(self):
        table = TableFactory()
        code = joining.join_token_mint(
            table=table, holder=Role.SCOREKEEPER, role=Role.VIEWER, kind=JoinToken.Kind.CODE
        ).secret
        phone = Client()
        assert phone.post("/j/", {"link": f"{code[:3].lower()}-{code[3:]}"}).status_code == 302
        assert _role(phone, table) == "viewer"
        for _ in range(10):
            assert Client().post("/j/", {"link": "AAA-AAA"}).status_code == 404
        assert Client().post("/j/", {"link": code}).status_code == 429

    def test_what_is_neither_a_link_nor_a_code_is_explained(self):
        answer = Client().post("/j/", {"link": "hello"})
        assert answer.status_code == 400
        assert "Paste the whole link, or type the 6-character code" in answer.content.decode()

    def test_a_refused_link_says_why_and_is_not_written_back(self):
        secret = "x" * 43
        answer = Client().post("/j/", {"link": f"http://testserver/j/#{secret}"})
        page = answer.content.decode()
        assert answer.status_code == 404 and "links expire when the match ends" in page
        assert secret not in page


class TestOldLinks:
    def test_an_old_join_link_opens_the_table_and_sends_the_phone_on_at_once(self):
        table = TableFactory()
        secret = _link(table, Role.SCOREKEEPER)
        phone = Client()
        answer = phone.get(f"/j/{secret}/")
        assert answer.status_code == 302 and answer.url == f"/t/{table.id}/"
        assert secret not in answer["Location"] and answer.content == b""
        assert _role(phone, table) == "scorekeeper"

    def test_an_old_key_link_opens_the_table_and_sends_the_phone_on_at_once(self):
        table = TableFactory()
        phone = Client()
        answer = phone.get(f"/t/{table.id}/join/{table.viewer_key}/")
        assert answer.status_code == 302 and answer.url == f"/t/{table.id}/"
        assert _role(phone, table) == "viewer"

    def test_an_old_invite_link_keeps_the_invite_and_goes_to_an_address_without_it(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        phone = Client()
        answer = phone.get(f"/invite/{invite.token}/")
        assert answer.status_code == 302 and answer.url == "/invite/"
        assert world.club.name in phone.get("/invite/").content.decode()
        assert phone.session[PENDING_INVITE] == key_digest(invite.token)


class TestSessionsHoldNoSecret:
    def test_the_share_blocks_tokens_are_sealed_and_shown_again(self):
        table = TableFactory()
        keeper = _keeper(table)
        first = share_page(keeper, table)
        secrets = re.findall(r'value="http://testserver/j/#([\w-]+)"', first)
        codes = re.findall(r'data-testid="code-\w+">([^<]+)<', first)
        assert len(secrets) == 2 and len(codes) == 2
        stored = _session_text(keeper)
        for secret in [*secrets, *codes, *(code.replace("-", "") for code in codes)]:
            assert secret not in stored, secret
        # Drawn again: the same link and codes (one QR code on the table, printed cards).
        again = share_page(keeper, table)
        assert re.findall(r'value="http://testserver/j/#([\w-]+)"', again) == secrets
        assert JoinToken.objects.count() == 4

    def test_a_session_from_before_the_sealing_loses_its_secrets_at_the_next_draw(self):
        table = TableFactory()
        keeper = _keeper(table)
        session = keeper.session
        session[joining_pages.LEGACY_SESSION_TOKENS] = {"x": ["a-secret-in-clear", "2100-01-01"]}
        session.save()
        share_page(keeper, table)
        assert "a-secret-in-clear" not in _session_text(keeper)

    def test_a_rotated_secret_key_makes_new_tokens_instead_of_garbled_ones(self, settings):
        table = TableFactory()
        keeper = _keeper(table)
        before = share_link(share_page(keeper, table), "viewer")
        settings.SECRET_KEY = "another-" + "k" * 50
        settings.SECRET_KEY_FALLBACKS = ["dev-only-insecure-key-do-not-use-in-production"]
        after = share_link(share_page(keeper, table), "viewer")
        assert after != before
        assert join_by_link(Client(), after).url == f"/t/{table.id}/"

    def test_joining_keeps_digests_only(self):
        table = TableFactory()
        secret = _link(table, Role.SCOREKEEPER)
        phone = Client()
        join_by_link(phone, joining.link_path(secret))
        assert phone.session["table_grants"] == {str(table.id): table.scorekeeper_digest}
        stored = _session_text(phone)
        for secret_ in (secret, table.scorekeeper_key, table.viewer_key):
            assert secret_ not in stored

    def test_an_invite_is_kept_as_its_digest_through_sign_in(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        user = UserWithPasswordFactory()
        phone = Client()
        assert phone.post(
            "/invite/", {"link": f"http://testserver/invite/#{invite.token}"}
        ).url == ("/invite/")
        assert invite.token not in _session_text(phone)
        signed_in = phone.post(
            "/accounts/login/",
            {"username": user.username, "password": PASSWORD, "next": "/invite/"},
        )
        assert signed_in.status_code == 302 and signed_in.url == "/invite/"
        assert phone.session[PENDING_INVITE] == invite.token_digest
        assert invite.token not in _session_text(phone)
        assert phone.post("/invite/").url == f"/clubs/{world.club.slug}/"
        assert world.club.memberships.filter(user=user).exists()
        assert PENDING_INVITE not in phone.session

    def test_making_an_invite_keeps_its_link_in_no_session(self, world):
        admin = Client()
        admin.force_login(world.admin)
        made = admin.post(
            f"/clubs/{world.club.slug}/invites/", {"role": "admin", "max_uses": "2", "days": "3"}
        )
        token = re.search(r'value="http://testserver/invite/#([\w-]{43})"', made.content.decode())
        assert token is not None
        assert token.group(1) not in _session_text(admin)


class TestInvitePageWithoutJavaScript:
    def test_the_page_reads_the_fragment_or_takes_the_pasted_link(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        phone = Client()
        response = phone.get("/invite/")
        page = response.content.decode()
        assert response.status_code == 200 and response["Referrer-Policy"] == "same-origin"
        assert re.search(r'<form[^>]*action="/invite/"[^>]*data-secret-from-fragment', page)
        assert "fragment_secret.js" in page and "Paste the invite link" in page
        assert phone.post(
            "/invite/", {"link": f"https://x.example/invite/{invite.token}/"}
        ).url == ("/invite/")
        assert world.club.name in phone.get("/invite/").content.decode()

    def test_a_bad_paste_is_explained(self, world):
        answer = Client().post("/invite/", {"link": "nope"})
        assert (
            answer.status_code == 400 and "Paste the whole invite link." in answer.content.decode()
        )
