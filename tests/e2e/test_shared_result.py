"""A finished match's result shared from the table page and opened on another phone, as a
person would: the button, the public page without the table's session, its share button."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.conftest import record_gin_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Screenshots to look at (git ignores the folder).
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# A share sheet that says what it was given (headless Chromium has none to show): set
# before the page's scripts run.
FAKE_SHARE_SHEET = """
navigator.canShare = (data) => Boolean(data);
navigator.share = (data) => {
  window.shared = {
    title: data.title, text: data.text, url: data.url,
    files: (data.files || []).map((f) => [f.name, f.type, f.size]),
  };
  return Promise.resolve();
};
"""


def _shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    # caret="initial": no style injected into the page (the CSP would refuse it).
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True, caret="initial")


def _finish_a_match(page) -> None:
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
    record_gin_hand(page, "Anna", "Knock", knocker=7, defender=20)
    expect(page.get_by_test_id("total-0")).to_have_text("13")
    record_gin_hand(page, "Bruno", "Big Gin", defender=70)
    expect(page.get_by_test_id("winner")).to_contain_text("Bruno wins the match!")


class TestSharingAResult:
    def test_the_scorekeeper_shares_and_another_phone_opens_the_result(self, new_phone):
        keeper = new_phone()
        keeper.set_viewport_size(PHONE)
        _finish_a_match(keeper)
        table_path = keeper.url.split(keeper.url.split("/t/")[0])[1]

        button = keeper.get_by_role("button", name="Share the result")
        assert button.bounding_box()["height"] >= 44
        button.click()
        link = keeper.get_by_test_id("result-link").input_value()
        assert re.fullmatch(r"https?://[^/]+/r/[\w-]{32}/", link)
        assert axe_violations(keeper, "#share-result") == []
        _shot(keeper, "shared-result-table")

        # Another phone, with none of the table's session: the link alone opens the result.
        visitor = new_phone()
        visitor.set_viewport_size(PHONE)
        visitor.context.add_init_script(FAKE_SHARE_SHEET)
        visitor.goto(link)
        expect(visitor.get_by_test_id("winner")).to_have_text(re.compile("Bruno wins the match!"))
        expect(visitor.get_by_test_id("total-1")).to_have_text("101")
        expect(visitor.locator("[data-hand]")).to_have_count(2)
        assert table_path not in visitor.content()
        assert axe_violations(visitor) == []
        _shot(visitor, "shared-result-page")

        # Its share button sends the picture with the link, where the phone can.
        share = visitor.get_by_test_id("share-button")
        assert share.bounding_box()["height"] >= 44
        visitor.wait_for_function(
            "() => performance.getEntriesByType('resource')"
            ".some((r) => r.name.endsWith('card.png'))"
        )
        share.click()
        visitor.wait_for_function("() => window.shared !== undefined")
        shared = visitor.evaluate("window.shared")
        assert shared["files"][0][:2] == ["rummyref-result.png", "image/png"]
        assert shared["files"][0][2] > 1000 and link in shared["text"]

        # Dark phones read it too.
        visitor.emulate_media(color_scheme="dark")
        assert axe_violations(visitor) == []
        _shot(visitor, "shared-result-page-dark")

        # Revoked: the address opens nothing any more.
        keeper.get_by_role("button", name="Stop sharing").click()
        expect(keeper.get_by_test_id("result-revoked")).to_be_visible()
        assert visitor.goto(link).status == 404
