"""Phones join a table in a real browser: by its short code, typed at /join/; by a join
link, whose token rides after "#" (no request carries it); without JavaScript, by pasting
the link."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, record_gin_hand, share_link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin(page) -> str:
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
    return page.url


def _type_code(page, code: str) -> None:
    page.goto("/join/")
    page.get_by_label("Type the code shown on the scorekeeper's phone").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()


class TestJoiningByCode:
    def test_the_viewer_code_lets_a_phone_watch_and_the_scorekeeper_code_record(self, new_phone):
        phone_a = new_phone()
        table_url = _start_gin(phone_a)
        # Opening the share block fetches its links and codes.
        phone_a.get_by_text("Invite other phones").click()
        share = phone_a.get_by_test_id("share")
        expect(share.get_by_test_id("qr-scorekeeper").locator("svg")).to_be_visible()
        expect(share.get_by_test_id("qr-viewer").locator("svg")).to_be_visible()
        expect(share).to_contain_text("Codes and links expire when the match ends")
        viewer_code = share.get_by_test_id("code-viewer").inner_text()
        scorekeeper_code = share.get_by_test_id("code-scorekeeper").inner_text()
        assert re.fullmatch(r"[A-Z0-9]{3}-[A-Z0-9]{3}", viewer_code)

        # Phone B types the viewer code in small letters, without the dash.
        phone_b = new_phone()
        _type_code(phone_b, viewer_code.replace("-", " ").lower())
        expect(phone_b).to_have_url(table_url)
        expect(phone_b.get_by_text("You are watching this table.")).to_be_visible()
        expect(phone_b.locator("#hand-form")).to_have_count(0)
        # A viewer hands out only the viewer's way in.
        phone_b.get_by_text("Invite other phones").click()
        expect(phone_b.get_by_test_id("code-viewer")).to_have_count(1)
        expect(phone_b.get_by_test_id("code-scorekeeper")).to_have_count(0)

        # Phone C types the scorekeeper code and records a hand that phone A then sees.
        phone_c = new_phone()
        _type_code(phone_c, scorekeeper_code)
        expect(phone_c).to_have_url(table_url)
        record_gin_hand(phone_c, "Anna", "Knock", knocker=7, defender=20)
        expect(phone_c.get_by_test_id("total-0")).to_have_text("13")
        expect(phone_a.get_by_test_id("total-0")).to_have_text("13")

    def test_a_wrong_code_is_refused_clearly(self, new_phone):
        phone = new_phone()
        _type_code(phone, "K7M-4QX")
        expect(phone.get_by_test_id("code-error")).to_have_text(
            "No table with that code (codes expire when the match ends)."
        )
        expect(phone).to_have_url(re.compile(r"/join/$"))

    def test_the_share_button_copies_the_link_where_the_phone_cannot_share(self, new_phone):
        phone = new_phone()
        _start_gin(phone)
        link = share_link(phone, "viewer")
        phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
        button = phone.get_by_test_id("share-button-viewer")
        assert re.search(r"/j/#[\w-]{43}$", link)
        # Headless Chromium has no share sheet: the link goes to the clipboard.
        phone.evaluate("delete Navigator.prototype.share")
        button.click()
        expect(button).to_have_text("Link copied")
        assert phone.evaluate("navigator.clipboard.readText()") == link


class TestTheQrCodes:
    def test_each_qr_code_decodes_to_its_join_link_and_the_link_opens_the_table(self, new_phone):
        import io

        import zxingcpp
        from PIL import Image

        phone_a = new_phone()
        table_url = _start_gin(phone_a)
        phone_a.get_by_text("Invite other phones").click()
        share = phone_a.get_by_test_id("share")
        for role in ("scorekeeper", "viewer"):
            figure = share.get_by_test_id(f"qr-{role}")
            expect(figure.locator("svg")).to_be_visible()
            # caret="initial": no style injected into the page (the CSP would refuse it).
            png = figure.screenshot(caret="initial", animations="allow")
            decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]
            link = share.get_by_test_id(f"link-{role}").input_value()
            assert decoded == [link]
            assert "/j/" in link and table_url.split("/t/")[1].strip("/") not in link
        # The scorekeeper's code, scanned by phone B's camera, opens the table to record.
        phone_b = new_phone()
        phone_b.goto(share.get_by_test_id("link-scorekeeper").input_value())
        expect(phone_b).to_have_url(table_url)
        expect(phone_b.locator("#hand-form")).to_have_count(1)


class TestJoiningByLink:
    def test_a_phone_joins_from_a_fragment_link_and_its_token_is_never_sent(self, new_phone):
        phone_a = new_phone()
        table_url = _start_gin(phone_a)
        link = share_link(phone_a, "scorekeeper")
        token = link.split("#", 1)[1]
        assert link.endswith(f"/j/#{token}")

        phone_b = new_phone()
        sent = []
        phone_b.on("request", lambda request: sent.append((request.url, request.headers)))
        phone_b.goto(link)  # as the camera app hands a scanned QR code to the browser
        expect(phone_b).to_have_url(table_url)
        expect(phone_b.locator("#hand-form")).to_have_count(1)
        # The page posted the token (to /j/), and no address or Referer ever held it.
        assert any(url.endswith("/j/") for url, _headers in sent)
        for url, headers in sent:
            assert token not in url and token not in headers.get("referer", "")
        # Nor does the history: the way back holds no token (Chromium even replaces the
        # /j/ entry, its form being sent while the page loads).
        phone_b.go_back()
        assert token not in phone_b.url and "#" not in phone_b.url
        record_gin_hand(phone_a, "Anna", "Knock", knocker=7, defender=20)
        phone_b.goto(table_url)
        expect(phone_b.get_by_test_id("total-0")).to_have_text("13")

    def test_without_javascript_the_link_is_pasted(self, new_phone, browser, live_server):
        phone_a = new_phone()
        table_url = _start_gin(phone_a)
        link = share_link(phone_a, "viewer")
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, java_script_enabled=False, base_url=live_server.url
        )
        try:
            phone_b = context.new_page()
            phone_b.goto(link)
            expect(phone_b).to_have_url(re.compile(r"/j/#"))  # nothing read the fragment
            phone_b.get_by_label("Paste the join link, or type the table's code").fill(link)
            phone_b.get_by_role("button", name="Join", exact=True).click()
            expect(phone_b).to_have_url(table_url)
            expect(phone_b.get_by_text("You are watching this table.")).to_be_visible()
        finally:
            context.close()
