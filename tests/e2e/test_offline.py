"""The installable app in a real Chromium: installable, and a table opened once still opens
with the browser's own offline switch on."""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import record_gin_hand, share_link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin_table(page):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


WORKER_STATE = """async () => {
  const found = await navigator.serviceWorker.getRegistration();
  if (!found) return "no registration";
  return ["installing", "waiting", "active"]
    .map((slot) => slot + ": " + (found[slot] ? found[slot].state : "-")).join(", ");
}"""


def _wait_for_the_worker(page):
    # The worker takes over once it is active; from then on it sees every navigation. Its
    # install caches the app shell first, which a busy machine (CI) can take a long time to
    # do, and which fails whole if one file's fetch does: then the next page load registers
    # it again, as on a phone, so the wait reloads the page before giving up.
    for _ in range(3):
        try:
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", timeout=20_000
            )
            return
        except PlaywrightTimeoutError:
            page.reload()
    raise AssertionError(f"The service worker never took control ({page.evaluate(WORKER_STATE)}).")


def test_chromium_finds_nothing_missing_to_install_the_app(new_phone):
    page = new_phone()
    page.goto("/")
    _wait_for_the_worker(page)
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where no browser installs apps; any other reason
    # (no manifest, no icon of 192 or 512 pixels, no worker answering offline) is the site's.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == []


def test_a_table_opened_once_opens_again_offline(new_phone):
    page = new_phone()
    _start_gin_table(page)
    table_url = page.url
    _wait_for_the_worker(page)
    page.reload()  # this visit goes through the worker, which keeps the page

    page.context.set_offline(True)
    page.goto("/")  # the home page was kept too; then back to the table, as a player would
    page.goto(table_url)
    expect(page.get_by_text("Anna").first).to_be_visible()
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    expect(page.get_by_role("status").filter(has_text="Offline")).to_be_visible()

    # A page never opened on this phone: the offline page, listing the table kept here.
    page.goto("/clubs/")
    expect(page.get_by_test_id("offline-page")).to_be_visible()
    expect(page.get_by_role("link", name="Anna – Bruno")).to_have_attribute(
        "href", re.compile(r"^/t/[0-9a-f-]+/$")
    )

    page.context.set_offline(False)
    page.goto(table_url)
    expect(page.get_by_role("status").filter(has_text="Offline")).to_be_hidden()


def _table(page):
    from games.models import Table

    return Table.objects.get(pk=page.url.rstrip("/").split("/")[-1])


def _hands(page):
    from games.models import Event

    events = Event.objects.filter(table=_table(page), type="hand_recorded").order_by("seq")
    return [(event.payload["knocker"], event.payload.get("defender_count")) for event in events]


def _record_offline(page, who, defender):
    form = page.locator("#hand-form")
    form.get_by_label(who, exact=True).check()
    form.get_by_label("Gin", exact=True).check()
    form.get_by_label("Defender's deadwood, after lay-offs").fill(str(defender))
    form.get_by_role("button", name="Record hand").click()


def _writes_fail_as_offline(route):
    """A table's write, refused as a dead network refuses it (see below)."""
    if route.request.method == "POST":
        route.abort("internetdisconnected")
    else:
        route.fallback()


TABLE_WRITES = re.compile(r"/t/[0-9a-f-]+/")


def test_a_hand_recorded_offline_survives_a_reload_and_a_closed_tab(new_phone):
    page = new_phone()
    _start_gin_table(page)
    table_url = page.url
    _wait_for_the_worker(page)
    page.reload()
    page.context.set_offline(True)
    # The switch reaches each page's process as Playwright attaches to it: a reload or a new
    # tab starting in a new process can run the outbox's first try before it has, and on a
    # loaded machine (CI) that try reached the app. The table's writes fail as offline for
    # as long as the switch is on, whichever process sends them.
    page.context.route(TABLE_WRITES, _writes_fail_as_offline)

    _record_offline(page, "Anna", 12)
    outbox = page.get_by_test_id("outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("Waiting for the connection")
    expect(outbox.locator("[data-outbox-count]")).to_have_text("1")
    # The form is ready for the next hand: the entry left it.
    expect(
        page.locator("#hand-form").get_by_label("Defender's deadwood, after lay-offs")
    ).to_have_value("")

    page.reload()  # offline: the worker's copy of the page, the entry still on the phone
    expect(page.get_by_test_id("outbox").locator("[data-outbox-count]")).to_have_text("1")
    page.close()
    new_page = page.context.new_page()
    new_page.goto(table_url)
    expect(new_page.get_by_test_id("outbox").locator("[data-outbox-count]")).to_have_text("1")
    assert _hands(new_page) == []

    new_page.context.unroute(TABLE_WRITES, _writes_fail_as_offline)
    new_page.context.set_offline(False)
    # Anna's gin, Bruno 12 deadwood: 25 gin bonus + 12 = 37 (GIN-GIN).
    expect(new_page.get_by_test_id("total-0")).to_have_text("37")
    expect(new_page.get_by_test_id("outbox")).to_be_hidden()
    assert _hands(new_page) == [(0, 12)]
    new_page.reload()  # nothing is sent twice
    expect(new_page.get_by_test_id("total-0")).to_have_text("37")
    assert _hands(new_page) == [(0, 12)]


def test_three_entries_made_offline_arrive_in_order(new_phone):
    page = new_phone()
    _start_gin_table(page)
    _wait_for_the_worker(page)
    page.context.set_offline(True)
    _record_offline(page, "Anna", 10)
    _record_offline(page, "Bruno", 20)
    _record_offline(page, "Anna", 5)
    expect(page.get_by_test_id("outbox").locator("[data-outbox-count]")).to_have_text("3")

    page.context.set_offline(False)
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    # Gin scores 25 + the defender's deadwood: Anna 35 + 30, Bruno 45.
    expect(page.get_by_test_id("total-0")).to_have_text("65")
    expect(page.get_by_test_id("total-1")).to_have_text("45")
    assert _hands(page) == [(0, 10), (1, 20), (0, 5)]


def test_an_offline_entry_overtaken_by_another_phone_is_shown_and_resolved(new_phone):
    phone_a = new_phone()
    _start_gin_table(phone_a)
    _wait_for_the_worker(phone_a)
    phone_b = new_phone()
    phone_b.goto(share_link(phone_a, "scorekeeper"))
    phone_a.context.set_offline(True)
    _record_offline(phone_a, "Anna", 10)

    # Meanwhile phone B records the same hand its own way.
    record_gin_hand(phone_b, "Bruno", "Gin", defender=30)
    expect(phone_b.get_by_test_id("total-1")).to_have_text("55")

    phone_a.context.set_offline(False)
    waiting = phone_a.get_by_test_id("outbox").locator("li")
    expect(waiting).to_have_attribute("data-state", "conflict")
    expect(waiting).to_contain_text("Another phone recorded")
    assert _hands(phone_a) == [(1, 30)]
    # It names the hand the other phone recorded, and sits after the history it asks to
    # check, in the page: the form above stays free to use.
    # Said from the board's data: Anna's gin on Bruno's 10 would give her 25 + 10 (GIN-GIN);
    # Bruno's gin on Anna's 30 gave him 25 + 30.
    expect(waiting.locator(".what")).to_have_text("Anna +35")
    other = waiting.get_by_test_id("outbox-other-hand")
    expect(other).to_contain_text("The other phone recorded hand 1:")
    expect(other).to_contain_text("Anna 0 · Bruno 55")
    history = phone_a.locator("#history").bounding_box()
    box = phone_a.get_by_test_id("outbox").bounding_box()
    assert box["y"] >= history["y"] + history["height"]
    record = phone_a.locator("#hand-form").get_by_role("button", name="Record hand")
    record.scroll_into_view_if_needed()
    assert record.evaluate(
        "b => { const r = b.getBoundingClientRect();"
        " return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
    )
    phone_a.screenshot(path="test-artifacts/phone-conflict.png", full_page=True, caret="initial")
    for scheme in ("light", "dark"):
        phone_a.emulate_media(color_scheme=scheme)
        assert axe_violations(phone_a, impacts=BLOCKING, best_practice=True) == [], scheme
    phone_a.emulate_media(color_scheme="light")

    # Phone A checks the hands and records its entry as the next hand, in one tap.
    waiting.get_by_role("button", name="Record it as the next").click()
    expect(phone_a.get_by_test_id("outbox")).to_be_hidden()
    expect(phone_a.get_by_test_id("total-0")).to_have_text("35")
    assert _hands(phone_a) == [(1, 30), (0, 10)]


def test_a_dropped_offline_entry_is_never_sent(new_phone):
    phone_a = new_phone()
    _start_gin_table(phone_a)
    _wait_for_the_worker(phone_a)
    phone_b = new_phone()
    phone_b.goto(share_link(phone_a, "scorekeeper"))
    phone_a.context.set_offline(True)
    _record_offline(phone_a, "Anna", 10)
    record_gin_hand(phone_b, "Anna", "Gin", defender=10)
    expect(phone_b.get_by_test_id("total-0")).to_have_text("35")

    phone_a.context.set_offline(False)
    waiting = phone_a.get_by_test_id("outbox").locator("li")
    expect(waiting).to_have_attribute("data-state", "conflict")
    waiting.get_by_role("button", name="Drop it").click()  # the same hand: B has it already
    expect(phone_a.get_by_test_id("outbox")).to_be_hidden()
    phone_a.reload()
    expect(phone_a.get_by_test_id("total-0")).to_have_text("35")
    assert _hands(phone_a) == [(0, 10)]


def test_an_entry_answered_by_a_proxy_error_waits_and_goes_again(new_phone):
    """A 502 from the proxy while an app server restarts refuses nothing: the entry stays
    on the phone, waiting, and is stored once when the app answers again."""
    page = new_phone()
    _start_gin_table(page)
    _wait_for_the_worker(page)
    page.context.set_offline(True)
    _record_offline(page, "Anna", 10)

    answered = []

    def bad_gateway(route):
        answered.append(route.request.method)
        route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")

    page.context.route(re.compile(r".*/t/[0-9a-f-]+/hands/$"), bad_gateway)
    page.context.set_offline(False)
    for _ in range(150):  # the "online" event sends it; routes run while the page waits
        if answered:
            break
        page.wait_for_timeout(100)
    assert answered == ["POST"]
    expect(page.get_by_test_id("outbox").locator("li")).to_have_attribute("data-state", "waiting")
    assert _hands(page) == []

    page.context.unroute(re.compile(r".*/t/[0-9a-f-]+/hands/$"))
    page.context.set_offline(True)
    page.context.set_offline(False)  # the next try: the app answers and stores it once
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    expect(page.get_by_test_id("total-0")).to_have_text("35")
    assert _hands(page) == [(0, 10)]
