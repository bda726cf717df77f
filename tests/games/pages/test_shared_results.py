"""Sharing a finished match's result: the scorekeeper's button, the public page with no
session and no key, its picture for link previews, revoking, and the limits of the address."""

import io
import re

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format
from PIL import Image

from games.tables import result_card
from games.tables.models import SharedResult, Table
from tests.factories import TableFactory
from tests.payloads import quick

HX = {"HTTP_HX_REQUEST": "true"}


def _phone(table: Table, key: str) -> Client:
    """Return a browser holding ``key``'s role at ``table`` (its session, as a key link
    leaves it)."""
    phone = Client()
    assert phone.get(f"/t/{table.id}/join/{key}/").status_code == 302
    return phone


@pytest.fixture
def finished_big_gin_table(db, append):
    """A Big Gin match to 100 that Bruno won in two hands, recorded by a named phone."""
    table = TableFactory(options={"target": 100})
    append(table, "hand_recorded", quick(0, "knock", 7, 20), entered_by="Anna's phone")
    append(table, "hand_recorded", quick(1, "big_gin", 0, 70), entered_by="Anna's phone")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED  # GIN-SCORE-GIN: 31 + 70 past 100
    return table


@pytest.fixture
def keeper(finished_big_gin_table) -> Client:
    return _phone(finished_big_gin_table, finished_big_gin_table.scorekeeper_key)


def _share(phone: Client, table: Table) -> str:
    """Tap "Share the result" on ``phone``; return the path of the public page."""
    response = phone.post(f"/t/{table.id}/share-result/", **HX)
    assert response.status_code == 200, response.content.decode()[:500]
    box = re.search(r'<input[^>]*data-testid="result-link"[^>]*>', response.content.decode())
    return re.search(r'value="https?://[^/"]+(/r/[^"]+/)"', box.group(0)).group(1)


class TestWhoShares:
    def test_the_finished_table_shows_its_scorekeeper_the_button(
        self, finished_big_gin_table, keeper
    ):
        page = keeper.get(f"/t/{finished_big_gin_table.id}/").content.decode()
        assert 'data-testid="share-result-button"' in page
        assert f'hx-post="/t/{finished_big_gin_table.id}/share-result/"' in page

    def test_a_scorekeeper_shares_and_gets_the_same_address_again(
        self, finished_big_gin_table, keeper
    ):
        path = _share(keeper, finished_big_gin_table)
        assert _share(keeper, finished_big_gin_table) == path
        share = SharedResult.objects.get(table=finished_big_gin_table)
        assert path == f"/r/{share.token}/" and len(share.token) == 32

    def test_without_javascript_the_address_is_a_page_of_its_own(
        self, finished_big_gin_table, keeper
    ):
        response = keeper.post(f"/t/{finished_big_gin_table.id}/share-result/")
        assert (
            response.status_code == 302
            and response.url == f"/t/{finished_big_gin_table.id}/share-result/"
        )
        page = keeper.get(response.url).content.decode()
        token = SharedResult.objects.get(table=finished_big_gin_table).token
        assert f"/r/{token}/" in page and 'data-testid="result-revoke"' in page

    def test_a_viewer_is_refused_and_shown_no_button(self, finished_big_gin_table):
        viewer = _phone(finished_big_gin_table, finished_big_gin_table.viewer_key)
        assert (
            'data-testid="share-result-button"'
            not in viewer.get(f"/t/{finished_big_gin_table.id}/").content.decode()
        )
        assert viewer.post(f"/t/{finished_big_gin_table.id}/share-result/", **HX).status_code == 403
        assert viewer.get(f"/t/{finished_big_gin_table.id}/share-result/").status_code == 403
        assert not SharedResult.objects.exists()

    def test_a_stranger_finds_no_table(self, finished_big_gin_table):
        assert (
            Client().post(f"/t/{finished_big_gin_table.id}/share-result/", **HX).status_code == 404
        )
        assert not SharedResult.objects.exists()

    def test_a_match_in_play_cannot_be_shared(self, db):
        table = TableFactory(options={"target": 100})
        keeper = _phone(table, table.scorekeeper_key)
        assert (
            'data-testid="share-result-button"'
            not in keeper.get(f"/t/{table.id}/").content.decode()
        )
        response = keeper.post(f"/t/{table.id}/share-result/", **HX)
        assert response.status_code == 403
        assert not SharedResult.objects.exists()

    def test_sharing_needs_the_csrf_token(self, finished_big_gin_table):
        strict = Client(enforce_csrf_checks=True)
        strict.get(f"/t/{finished_big_gin_table.id}/join/{finished_big_gin_table.scorekeeper_key}/")
        assert strict.post(f"/t/{finished_big_gin_table.id}/share-result/", **HX).status_code == 403
        assert not SharedResult.objects.exists()


class TestThePublicPage:
    def test_it_shows_the_winner_the_totals_and_every_hand(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        response = Client().get(path)
        page = response.content.decode()
        assert response.status_code == 200
        assert "Bruno wins the match!" in page
        assert 'data-testid="total-0">13<' in page and 'data-testid="total-1">101<' in page
        hands = re.findall(r'<li class="hand[^"]*" data-hand="(\d+)"', page)
        assert hands == ["1", "2"]
        assert "Anna knocked with 7 against 20" in page and "Bruno: Big Gin (defender 70)" in page
        assert "<strong>+13</strong>" in page and "<strong>+101</strong>" in page
        # When it was played: the day of its entries, as the reader writes dates.
        ended = finished_big_gin_table.events.order_by("-seq").first().created_at
        played = re.search(r'data-testid="played-on">([^<]+)<', page).group(1)
        assert played == date_format(timezone.localtime(ended), "DATE_FORMAT")

    def test_it_holds_no_key_no_join_link_and_nothing_of_the_phones(self, db, append):
        table = TableFactory(options={"target": 100})
        keeper = _phone(table, table.scorekeeper_key)
        keeper.post("/phone-name/", {"name": "Anna's phone", "next": "/"})
        # Join links and codes handed out while the match was in play.
        invites = keeper.get(f"/t/{table.id}/share/", **HX).content.decode()
        secrets = re.findall(r'value="https?://[^"]+/j/#([\w-]+)"', invites)
        secrets += re.findall(r'data-testid="code-\w+">([^<]+)<', invites)
        assert len(secrets) == 4
        append(table, "hand_recorded", quick(1, "big_gin", 0, 70), entered_by="Anna's phone")
        page = Client().get(_share(keeper, table)).content.decode()
        assert "Bruno wins the match!" in page
        for private in (
            table.scorekeeper_key,
            table.viewer_key,
            table.scorekeeper_digest,
            table.viewer_digest,
            str(table.id),
            "Anna&#x27;s phone",
            "/j/",
            "/join/",
            "/share/",
            *(secret.replace(" ", "") for secret in secrets),
            *secrets,
        ):
            assert private not in page, private
        assert str(table.events.last().event_id) not in page

    def test_it_needs_no_session_and_keeps_none(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        visitor = Client()
        response = visitor.get(path)
        assert response.status_code == 200
        assert "sessionid" not in response.cookies
        assert response["X-Robots-Tag"] == "noindex"
        assert "no-store" in response["Cache-Control"]

    def test_its_preview_tags_name_the_picture_by_its_full_address(
        self, finished_big_gin_table, keeper
    ):
        path = _share(keeper, finished_big_gin_table)
        page = Client().get(path).content.decode()
        meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', page))
        assert meta["robots"] == "noindex"
        assert meta["og:title"] == "Bruno wins the match! · Gin Rummy"
        assert meta["og:description"].startswith("Final totals: Anna 13 · Bruno 101")
        assert meta["og:image"] == f"http://testserver{path}card.png"
        assert meta["og:url"] == f"http://testserver{path}"
        assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
        assert meta["twitter:card"] == "summary_large_image"

    def test_it_speaks_italian_to_an_italian_browser(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        page = Client().get(path, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert 'lang="it"' in page and "Bruno vince la partita!" in page

    def test_the_language_switch_holds_on_it_too(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        visitor = Client()
        visitor.post("/i18n/setlang/", {"language": "it", "next": path})
        page = visitor.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'lang="it"' in page and "Bruno vince la partita!" in page

    @pytest.mark.parametrize("token", ["x" * 10_000, "nope", "a" * 65, "%00"])
    def test_an_address_no_share_has_is_not_found(self, finished_big_gin_table, keeper, token):
        _share(keeper, finished_big_gin_table)
        assert Client().get(f"/r/{token}/").status_code == 404
        assert Client().get(f"/r/{token}/card.png").status_code == 404

    def test_a_match_reopened_by_a_void_shows_no_result_until_it_ends_again(
        self, finished_big_gin_table, keeper, append
    ):
        path = _share(keeper, finished_big_gin_table)
        append(finished_big_gin_table, "hand_voided", {"hand": 2, "reason": "misdeal"})
        assert Client().get(path).status_code == 404
        append(finished_big_gin_table, "hand_recorded", quick(0, "big_gin", 0, 90))
        page = Client().get(path).content.decode()
        assert "Anna wins the match!" in page and "misdeal" not in page


class TestThePicture:
    def test_it_is_a_1200_by_630_png(self, finished_big_gin_table, keeper):
        response = Client().get(_share(keeper, finished_big_gin_table) + "card.png")
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        image.verify()
        assert image.format == "PNG" and image.size == (1200, 630)

    def test_it_is_drawn_once_then_answered_from_the_cache(
        self, finished_big_gin_table, keeper, monkeypatch
    ):
        card = _share(keeper, finished_big_gin_table) + "card.png"
        first = Client().get(card)
        drawn = []
        monkeypatch.setattr(result_card, "result_card_draw", lambda match: drawn.append(match))
        again = Client().get(card)
        assert again.content == first.content and not drawn
        assert "public" in again["Cache-Control"] and "max-age=300" in again["Cache-Control"]
        assert again["ETag"] == first["ETag"]
        assert {"Accept-Language", "Cookie"} <= {v.strip() for v in again["Vary"].split(",")}
        unchanged = Client().get(card, HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304 and not unchanged.content

    def test_each_language_has_its_own(self, finished_big_gin_table, keeper):
        card = _share(keeper, finished_big_gin_table) + "card.png"
        english = Client().get(card, HTTP_ACCEPT_LANGUAGE="en")
        italian = Client().get(card, HTTP_ACCEPT_LANGUAGE="it")
        assert english["ETag"] != italian["ETag"] and english.content != italian.content

    def test_accented_letters_are_in_its_font(self):
        # A letter the font lacks is drawn as its "missing" glyph, as a private-use one is.
        font = result_card._font(60)
        missing = bytes(font.getmask("\ue000"))
        for letter in "àèéìòùÀÈÉÌÒÙëç€·–…":
            assert bytes(font.getmask(letter)) != missing, letter


class TestRevoking:
    def test_the_page_and_the_picture_are_gone(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        response = keeper.post(f"/t/{finished_big_gin_table.id}/share-result/revoke/", **HX)
        assert response.status_code == 200
        assert 'data-testid="result-revoked"' in response.content.decode()
        assert Client().get(path).status_code == 404
        assert Client().get(path + "card.png").status_code == 404

    def test_sharing_again_makes_a_new_address(self, finished_big_gin_table, keeper):
        first = _share(keeper, finished_big_gin_table)
        keeper.post(f"/t/{finished_big_gin_table.id}/share-result/revoke/", **HX)
        second = _share(keeper, finished_big_gin_table)
        assert second != first
        assert Client().get(first).status_code == 404
        assert Client().get(second).status_code == 200
        assert SharedResult.objects.filter(table=finished_big_gin_table).count() == 2

    def test_only_a_scorekeeper_revokes(self, finished_big_gin_table, keeper):
        path = _share(keeper, finished_big_gin_table)
        viewer = _phone(finished_big_gin_table, finished_big_gin_table.viewer_key)
        assert (
            viewer.post(f"/t/{finished_big_gin_table.id}/share-result/revoke/", **HX).status_code
            == 403
        )
        assert (
            Client().post(f"/t/{finished_big_gin_table.id}/share-result/revoke/", **HX).status_code
            == 404
        )
        assert Client().get(path).status_code == 200
