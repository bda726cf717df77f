"""A real Chromium (Debian's) driven by Playwright against the live test server."""

import os
import re
import shutil

import pytest
from playwright.sync_api import expect

# Playwright's sync API runs an event loop in the test thread; the test itself only reads
# the database through the live server, so Django's async guard has nothing to protect here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
# What an assertion waits for, as long as an action (new_phone's contexts): on a loaded
# machine (CI runs its two passes side by side) a poll's answer can take seconds. How fast
# a phone sees a save is the live bench's to measure, never a test's wait.
WAIT_MS = 10_000
expect.set_options(timeout=WAIT_MS)
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser, live_server):
    """Open a fresh phone-sized browser (its own cookies) in the given language (and, if
    given, another screen size, the dark theme, or another address than the live server's,
    such as a proxy's in front of it).

    Every page the test opens is watched for Content-Security-Policy refusals: a script or
    style the policy blocks is a broken page, so the test fails on it.
    """
    contexts = []
    refused = []

    def watch(message):
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    def open_phone(
        locale: str = "en-US", *, viewport=PHONE, color_scheme="light", base_url: str = ""
    ):
        context = browser.new_context(
            viewport=viewport,
            locale=locale,
            color_scheme=color_scheme,
            is_mobile=True,
            has_touch=True,
            base_url=base_url or live_server.url,
        )
        context.set_default_timeout(WAIT_MS)
        context.on("console", watch)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
    assert not refused, f"the Content-Security-Policy refused: {refused}"


def start_table(page, game: str, names: list[str], options=None) -> None:
    """Start a Rummy40, Ramino or Knock Rummy table from the home page; ``options(page)``
    sets the game's own fields before the form is sent."""
    page.goto("/")
    page.get_by_label(game, exact=True).check()
    page.get_by_label("Players", exact=True).select_option(str(len(names)))
    for n, name in enumerate(names, start=1):
        page.get_by_label(f"Player {n}").fill(name)
    if options is not None:
        options(page)
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def fill_seats(page, seats: dict[int, dict[str, str | bool]]) -> None:
    """Fill the hand form's seat rows: each field by its label, a flag ticked or not."""
    form = page.locator("#hand-form")
    for seat, fields in seats.items():
        row = form.locator(f'[data-seat-row="{seat}"]')
        for label, value in fields.items():
            if isinstance(value, bool):
                row.get_by_label(label).set_checked(value)
            else:
                row.get_by_label(label).fill(value)


def record_gin_hand(page, who: str, ending: str, *, knocker=None, defender=None) -> None:
    """Record a Gin hand with the quick-entry form: who ended it, how, and the counts."""
    form = page.locator("#hand-form")
    form.get_by_label(who, exact=True).check()
    form.get_by_label(ending, exact=True).check()
    if knocker is not None:
        form.get_by_label("Knocker's deadwood").fill(str(knocker))
    if defender is not None:
        form.get_by_label("Defender's deadwood, after lay-offs").fill(str(defender))
    form.get_by_role("button", name="Record hand").click()


def record_hand(page, seats: dict[int, dict[str, str | bool]]) -> None:
    """Record a hand of a game scored seat by seat, as the seats' fields say.

    The form comes back with the board: wait for a total to change before the next one.
    """
    fill_seats(page, seats)
    page.locator("#hand-form").get_by_role("button", name="Record hand").click()


def void_hand(page, number: int, reason: str) -> None:
    """Void a hand from the history's link, saying why."""
    page.locator(f'[data-hand="{number}"]').get_by_role("link", name="Void").click()
    page.get_by_label("Why?").fill(reason)
    page.get_by_role("button", name="Void the hand").click()
    expect(page.locator(f'[data-hand="{number}"]')).to_have_class(re.compile("voided"))


def amend_hand(page, number: int, seats: dict[int, dict[str, str | bool]], reason: str) -> None:
    """Amend a hand from the history's link: the form comes filled in; change ``seats``."""
    page.locator(f'[data-hand="{number}"]').get_by_role("link", name="Amend").click()
    fill_seats(page, seats)
    page.get_by_label("Why?").fill(reason)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(f'[data-hand="{number}"]')).to_have_class(re.compile("amended"))


def expect_chart(page, seats: int) -> None:
    """Expect the score chart above the history, one line per seat."""
    chart = page.locator("#history").get_by_test_id("chart")
    expect(chart.get_by_role("img", name="Running totals, hand by hand")).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(seats)


def share_link(page, role: str) -> str:
    """Open the table page's share block ("Invite other phones") and return the join link it
    hands out for ``role`` (``scorekeeper`` or ``viewer``)."""
    page.get_by_text("Invite other phones").click()
    return page.get_by_test_id(f"link-{role}").input_value()


def tap_in_view(page, locator, *, posts: bool = False) -> None:
    """Tap ``locator`` as a thumb would, without scrolling: it must already be inside the
    viewport (the tap is refused if anything covers it); a tap that records a move of the
    hand waits for the answer and its swap."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{locator} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (locator, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (locator, box)
    if not posts:
        locator.tap()
        return
    with page.expect_response(lambda response: "/moves/" in response.url):
        locator.tap()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
