"""The dark theme follows the phone's setting and keeps text readable in a dim room."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import record_gin_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# WCAG contrast of an element's text against the first opaque background behind it.
CONTRAST = """(element) => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  let node = element, background = null;
  while (node && node.nodeType === 1) {
    const value = getComputedStyle(node).backgroundColor;
    const parts = rgb(value);
    if (parts.length === 3 || parts[3] > 0.9) { background = parts.slice(0, 3); break; }
    node = node.parentElement;
  }
  background = background || [255, 255, 255];
  const text = rgb(getComputedStyle(element).color).slice(0, 3);
  const [a, b] = [luminance(text), luminance(background)].sort((x, y) => y - x);
  return { ratio: (a + 0.05) / (b + 0.05), background };
}"""


def test_a_dark_phone_gets_dark_pages_with_readable_text(new_phone, browser, live_server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        color_scheme="dark",
        base_url=live_server.url,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_label("Big Gin", exact=True).check()
        page.get_by_label("Player 1").fill("Anna")
        page.get_by_label("Player 2").fill("Bruno")
        page.get_by_role("button", name="Start the table").click()
        expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
        record_gin_hand(page, "Anna", "Knock", knocker=14, defender=20)  # refused: GIN-KNOCK
        expect(page.get_by_role("alert").first).to_be_visible()

        body = page.evaluate(CONTRAST, page.locator("body").element_handle())
        assert max(body["background"]) < 60, "the page is not dark"
        checked = {
            "a total": page.get_by_test_id("total-0"),
            "a player's name": page.locator(".seat .name").first,
            "muted text": page.locator(".muted").first,
            "a refusal": page.get_by_role("alert").first,
            "a field label": page.locator("#hand-form legend").first,
        }
        for what, locator in checked.items():
            contrast = page.evaluate(CONTRAST, locator.element_handle())
            assert contrast["ratio"] >= 4.5, f"{what}: {contrast['ratio']:.2f}:1"
    finally:
        context.close()
