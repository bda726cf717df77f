"""A finished hand reviewed on a phone (390 x 844): opened from the history, stepped through
with the buttons and by swiping, the worst decision listed first; in English and in Italian,
readable in light and dark, every target thumb-sized.

The hand is Gin's reviewed hand (scoring/variants/gin/samples.py), played through the
services as a phone plays it (tests/games/review_setup.py); its figures are checked by hand
in tests/scoring/.
"""

import re

import pytest
from playwright.sync_api import expect

from scoring import samples
from tests.e2e.axe import BLOCKING, axe_violations
from tests.games.review_setup import sample_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SMALLEST = 44

# The review page's own targets (links alone on their line, buttons, rule chips) smaller than
# SMALLEST CSS px either way; a link inside a sentence is exempt (WCAG 2.5.8).
SMALL_TARGETS = """(smallest) => {
  const small = [];
  document.querySelectorAll("main a[href], main button").forEach((el) => {
    const box = el.getBoundingClientRect();
    if (box.width < 2 || el.closest("[hidden], .visually-hidden")) return;
    if (box.width < smallest - 0.5 || box.height < smallest - 0.5) {
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${el.textContent.trim().slice(0, 30)} ${size}`);
    }
  });
  return small;
}"""


def _open_review_from_the_history(page, table) -> None:
    page.goto(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    expect(page).to_have_url(re.compile(rf"/t/{table.id}/$"))
    page.get_by_test_id("review-1").click()
    expect(page).to_have_url(re.compile(rf"/t/{table.id}/hands/1/review/$"))


def _swipe(page, stepper, *, left: bool) -> None:
    """Swipe a finger across the stepper, as a thumb does (Chromium's own touch input)."""
    seats = stepper.locator(".review-seats")
    seats.scroll_into_view_if_needed()
    box = seats.bounding_box()
    y = box["y"] + box["height"] / 2
    start, end = (box["x"] + box["width"] - 20, box["x"] + 20)
    if not left:
        start, end = end, start
    touch = page.context.new_cdp_session(page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]}
    )
    for n in range(1, 7):
        x = start + (end - start) * n / 6
        touch.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


class TestReviewingAHand:
    def test_a_phone_steps_through_the_hand_and_sees_the_worst_decision_first(self, new_phone):
        table = sample_table(samples.reviewed_of("gin"))
        page = new_phone(viewport=PHONE)
        _open_review_from_the_history(page, table)
        status = page.get_by_test_id("step-status")
        expect(status).to_have_text(re.compile(r"^Step 0 of 9 · Anna dealt"))
        # The steps switch without a reload: what the page kept is still there after them.
        page.evaluate("window.reviewKept = true")

        page.get_by_test_id("step-next").click()
        expect(status).to_have_text(re.compile(r"^Step 1 of 9 · Bruno passed"))
        expect(page).to_have_url(re.compile(r"\?step=1$"))
        page.get_by_test_id("step-previous").click()
        expect(status).to_have_text(re.compile(r"^Step 0 of 9"))

        stepper = page.get_by_test_id("stepper")
        for expected in ("Step 1 of 9", "Step 2 of 9", "Step 3 of 9", "Step 4 of 9"):
            _swipe(page, stepper, left=True)
            expect(status).to_have_text(re.compile(rf"^{expected}"))
        expect(status).to_contain_text("Bruno discarded 9♥")
        turn = page.get_by_test_id("turn-review")
        expect(turn.get_by_test_id("turn-discard")).to_contain_text("Points lost: 1")
        expect(turn.locator('[data-chance="knock"]')).to_contain_text("In hindsight")
        _swipe(page, stepper, left=False)
        expect(status).to_have_text(re.compile(r"^Step 3 of 9 · Bruno drew 6♦"))
        assert page.evaluate("window.reviewKept") is True
        # Each step is sent as what changed; the page still shows both hands whole: Bruno's
        # with the 6♦ just drawn, Anna's as dealt (unchanged since step 0).
        expect(page.get_by_test_id("review-seat-1")).to_contain_text("6♦")
        expect(page.get_by_test_id("review-seat-1")).to_contain_text("11 cards")
        expect(page.get_by_test_id("review-seat-0")).to_contain_text("K♠")
        expect(page.get_by_test_id("review-seat-0")).to_contain_text("10 cards")

        costs = page.get_by_test_id("costs-1").get_by_test_id("cost")
        expect(costs).to_have_count(3)
        expect(costs.first).to_contain_text("Could knock · 46 GIN-KNOCK")
        expect(page.get_by_test_id("accuracy-1")).to_have_text(
            "Accuracy: 67% (2 of 3 decisions weighed were the best)."
        )
        expect(page.get_by_test_id("review-chart").locator("polyline")).to_have_count(2)
        assert page.evaluate(SMALL_TARGETS, SMALLEST) == []

    def test_an_italian_phone_reads_the_review_in_italian(self, new_phone):
        table = sample_table(samples.reviewed_of("gin"))
        page = new_phone("it-IT", viewport=PHONE)
        _open_review_from_the_history(page, table)
        expect(page.get_by_role("heading", level=1)).to_have_text("Revisione della mano 1")
        page.get_by_test_id("step-next").click()
        expect(page.get_by_test_id("step-status")).to_have_text(re.compile(r"^Passo 1 di 9"))
        costs = page.get_by_test_id("costs-1").get_by_test_id("cost")
        expect(costs.first).to_contain_text("Poteva bussare · 46 GIN-KNOCK")
        expect(page.get_by_test_id("accuracy-1")).to_have_text(
            "Precisione: 67% (2 decisioni valutate su 3 erano le migliori)."
        )

    def test_without_javascript_each_step_is_a_page_of_its_own(self, browser, live_server):
        table = sample_table(samples.reviewed_of("gin"))
        context = browser.new_context(
            viewport=PHONE, java_script_enabled=False, base_url=live_server.url
        )
        try:
            page = context.new_page()
            page.goto(f"/t/{table.id}/join/{table.scorekeeper_key}/")
            page.goto(f"/t/{table.id}/hands/1/review/?step=8")
            page.get_by_test_id("step-next").click()
            expect(page).to_have_url(re.compile(r"\?step=9$"))
            expect(page.get_by_test_id("step-status")).to_contain_text("Step 9 of 9 · Hands shown")
            expect(page.get_by_test_id("step-next")).to_have_count(0)
        finally:
            context.close()

    @pytest.mark.parametrize("scheme", ["light", "dark"])
    def test_the_review_passes_axe_in_light_and_dark(self, new_phone, scheme):
        table = sample_table(samples.reviewed_of("ramino"))
        page = new_phone(viewport=PHONE, color_scheme=scheme)
        _open_review_from_the_history(page, table)
        page.get_by_test_id("costs-0").get_by_role("link", name="Turn 2").first.click()
        expect(page.get_by_test_id("turn-review")).to_be_visible()
        assert axe_violations(page, impacts=BLOCKING, best_practice=True) == []
        assert page.evaluate(SMALL_TARGETS, SMALLEST) == []
