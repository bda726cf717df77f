"""Three phones at one finished table (390 x 844): the rematch takes the whole table along,
each phone with its role, within one poll; and quick Gin hands, one after the other, in five
actions each with no scrolling, the totals in view after every save."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from tests.e2e.axe import BLOCKING, axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 390, "height": 844}
TABLE_URL = re.compile(r"/t/([0-9a-f-]+)/$")


def _phone(new_phone):
    page = new_phone()
    page.set_viewport_size(SCREEN)
    return page


def _start_gin(page, target: str = "100") -> str:
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Play to").select_option(target)
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(TABLE_URL)
    return page.url


def _join_links(page) -> dict[str, str]:
    """Open the share block once and read both join links (the QR codes' addresses)."""
    page.get_by_text("Invite other phones").click()
    return {
        role: page.get_by_test_id(f"link-{role}").input_value()
        for role in ("scorekeeper", "viewer")
    }


class Polls:
    """Watch a page's polls of one table (the board's hx-get, ?since=): for each answer,
    whether it was asked after the rematch had started, and whether it moved the page on."""

    def __init__(self, page, table_url: str, rematch_started: list[bool]):
        self.prefix, self.started, self.asked_after = table_url + "?since=", rematch_started, {}
        self.answers: list[tuple[bool, bool]] = []
        page.on("request", self._asked)
        page.on("response", self._answered)

    def _asked(self, request):
        if request.url.startswith(self.prefix):
            self.asked_after[request] = self.started[0]

    def _answered(self, response):
        if response.request in self.asked_after:
            moved = "hx-redirect" in response.headers
            self.answers.append((self.asked_after[response.request], moved))

    def after_the_rematch(self) -> list[bool]:
        """Return, for each poll asked after the rematch started, whether it moved on."""
        return [moved for after, moved in self.answers if after]


def test_the_rematch_takes_every_phone_along_with_its_role(new_phone):
    anna, bruno, carla = (_phone(new_phone) for _ in range(3))
    old_url = _start_gin(anna, target="1")  # a single hand: one gin ends the match
    links = _join_links(anna)
    bruno.goto(links["scorekeeper"])
    carla.goto(links["viewer"])
    for phone in (bruno, carla):
        expect(phone).to_have_url(old_url)
    form = anna.locator("#hand-form")
    form.get_by_label("Anna", exact=True).check()
    form.get_by_label("Gin", exact=True).check()
    form.get_by_label("Defender's deadwood, after lay-offs").fill("10")
    form.get_by_role("button", name="Record hand").click()
    for phone in (anna, bruno, carla):
        expect(phone.get_by_test_id("winner")).to_contain_text("Anna wins the match!")
    # Bruno's other tab stays as it was when the match ended: its polls never arrive (a
    # phone asleep), so it still offers the Rematch button.
    stale = bruno.context.new_page()
    stale.route(re.compile(r"\?since="), lambda route: route.abort())
    stale.goto(old_url)
    expect(stale.get_by_test_id("rematch")).to_be_visible()
    expect(carla.get_by_test_id("rematch")).to_have_count(0)  # a viewer has none

    tables = Table.objects.count()
    started = [False]  # set once the rematch's answer is in: polls asked later must move on

    def rematch_answered(response):
        if response.url.endswith("/rematch/") and response.request.method == "POST":
            started[0] = True

    anna.on("response", rematch_answered)
    polls = [Polls(bruno, old_url, started), Polls(carla, old_url, started)]
    anna.get_by_test_id("rematch").click()
    expect(anna).not_to_have_url(old_url)
    expect(anna).to_have_url(TABLE_URL)
    new_url = anna.url
    # Each phone follows at its next poll, with the role it held: no poll asked once the
    # rematch had started was answered without moving it on.
    expect(bruno).to_have_url(new_url)
    expect(carla).to_have_url(new_url)
    for phone_polls in polls:
        assert any(moved for _after, moved in phone_polls.answers), phone_polls.answers
        assert all(phone_polls.after_the_rematch()), phone_polls.answers
        assert len(phone_polls.after_the_rematch()) <= 1
    expect(bruno.locator("#hand-form").get_by_role("button", name="Record hand")).to_be_visible()
    expect(carla.get_by_text("You are watching this table.")).to_be_visible()
    expect(carla.locator("#hand-form")).to_have_count(0)
    # Bruno's stale tab taps Rematch (the old form, posted): the same new table.
    stale.get_by_test_id("rematch").click()
    expect(stale).to_have_url(new_url)
    assert Table.objects.count() == tables + 1

    # The old page, opened again, shows the way on (for a phone without JavaScript too).
    carla.goto(old_url)
    way_on = carla.get_by_test_id("rematch-on")
    expect(way_on).to_have_text("The rematch is on → open it")
    assert axe_violations(carla, impacts=BLOCKING) == []
    way_on.click()
    expect(carla).to_have_url(new_url)

    # The finished table's join links open the match in play, with the role they grant.
    latecomer, onlooker = _phone(new_phone), _phone(new_phone)
    latecomer.goto(links["scorekeeper"])
    expect(latecomer).to_have_url(new_url)
    expect(latecomer.locator("#hand-form")).to_be_visible()
    onlooker.goto(links["viewer"])
    expect(onlooker).to_have_url(new_url)
    expect(onlooker.get_by_text("You are watching this table.")).to_be_visible()


class Actions:
    """Count what the scorekeeper does: each tap, each field typed in, and each scroll it
    takes to reach what comes next (anything outside the screen or under the board, which
    sticks at the top with the totals)."""

    def __init__(self, page):
        self.page, self.count, self.scrolls = page, 0, 0

    def reach(self, locator):
        within = locator.evaluate(
            """el => {
              const r = (el.closest("label") || el).getBoundingClientRect();
              const board = document.querySelector("#main > .board").getBoundingClientRect();
              return r.height > 0 && r.top >= board.bottom && r.bottom <= window.innerHeight;
            }"""
        )
        if not within:
            self.scrolls += 1
            self.count += 1

    def tap(self, locator):
        self.reach(locator)
        locator.click()
        self.count += 1

    def type(self, locator, text: str):
        self.reach(locator)
        locator.fill(text)
        self.count += 1


def _knock(page, who: str, knocker: int, defender: int) -> Actions:
    """A quick knock by ``who``: who ended it, how, both counts, Record."""
    form = page.locator("#hand-form")
    actions = Actions(page)
    actions.tap(form.get_by_label(who, exact=True))
    actions.tap(form.get_by_label("Knock", exact=True))
    actions.type(form.get_by_label("Knocker's deadwood"), str(knocker))
    actions.type(form.get_by_label("Defender's deadwood, after lay-offs"), str(defender))
    actions.tap(form.get_by_role("button", name="Record hand"))
    return actions


def _ready_for_the_next_hand(page) -> None:
    """The totals and "Who ended the hand?" in view, nobody ticked as having ended it."""
    form = page.locator("#hand-form")
    for seat in (0, 1):
        expect(page.get_by_test_id(f"total-{seat}")).to_be_in_viewport()
    who = form.locator("fieldset").first
    expect(who.locator("legend")).to_have_text("Who ended the hand?")
    looking = Actions(page)
    looking.reach(who.locator("legend"))
    assert looking.scrolls == 0  # in view as it is: no scroll to reach it
    for name in ("Anna", "Bruno"):
        expect(form.get_by_label(name, exact=True)).not_to_be_checked()
    expect(form.get_by_label("Counts", exact=True)).to_be_checked()


def test_quick_gin_hands_take_five_actions_each_with_no_scrolling(new_phone):
    page = _phone(new_phone)
    _start_gin(page)
    # Anna knocks with 3 against 20: 17 (GIN-KNOCK).
    first = _knock(page, "Anna", 3, 20)
    expect(page.get_by_test_id("total-0")).to_have_text("17")
    assert (first.count, first.scrolls) == (5, 0)
    _ready_for_the_next_hand(page)
    # Straight on, with no scroll: Bruno knocks with 2 against 30: 28 (GIN-KNOCK).
    second = _knock(page, "Bruno", 2, 30)
    expect(page.get_by_test_id("total-1")).to_have_text("28")
    assert (second.count, second.scrolls) == (5, 0)
    _ready_for_the_next_hand(page)
    expect(page.get_by_test_id("total-0")).to_have_text("17")
