"""Live updates through a real Pushpin (docs/live.md): a save on one phone shown on the
other by the stream, not by a poll (the timed polls set to a minute here); a dropped stream
that resumes without a missed hand; and the polls again where the stream is refused."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import share_link
from tests.e2e.pushpin import pushpin  # noqa: F401 (a fixture)
from tests.e2e.test_table_flow import Taps, _start_gin_table
from tests.e2e.test_table_flow import _gin as gin

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _join(page, first, base_url: str, role: str = "viewer") -> None:
    """Open the first phone's ``role`` link on ``page``, at ``base_url``'s address."""
    link = share_link(first, role)
    origin = urlsplit(link)
    page.goto(base_url + link.removeprefix(f"{origin.scheme}://{origin.netloc}"))
    expect(page.get_by_test_id("total-0")).to_have_text("0")


def _gin(page, who: str, defender: int) -> None:
    """A gin by ``who``, the defender left with ``defender`` points: 25 + defender (GIN-GIN)."""
    gin(page, Taps(page), who, defender)


# How long a stream refused twice after it flowed may take to flow again: live.js waits 1 s,
# then 2 s (its doubling waits), and the browser's own retries come on top.
REOPENED_MS = 10_000


def _streaming(page, timeout: float | None = None) -> None:
    expect(page.locator("body")).to_have_attribute("data-live-state", "flowing", timeout=timeout)


def test_a_save_on_one_phone_shows_on_the_other_by_the_stream(new_phone, pushpin):  # noqa: F811
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    _join(bruno, anna, pushpin.url)
    _streaming(anna)
    _streaming(bruno)
    _gin(anna, "Anna", 4)  # 25 + 4
    expect(anna.get_by_test_id("total-0")).to_have_text("29")
    expect(bruno.get_by_test_id("total-0")).to_have_text("29")
    expect(bruno.locator("#history li.hand")).to_have_count(1)
    _gin(anna, "Anna", 6)  # 29 + 25 + 6
    expect(bruno.get_by_test_id("total-0")).to_have_text("60")
    expect(bruno.locator("#history li.hand")).to_have_count(2)


def test_a_failed_fetch_of_the_news_is_asked_again(new_phone, pushpin):  # noqa: F811
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    _join(bruno, anna, pushpin.url)
    _streaming(bruno)
    # The first time Bruno's board asks for the news the stream told it of, the server is
    # busy a moment (503); the timed polls rest at a minute, so only asking again brings it.
    failed = []

    def busy_once(route):
        if not failed:
            failed.append(route.request.url)
            route.fulfill(status=503)
        else:
            route.continue_()

    bruno.route(re.compile(r"/t/[0-9a-f-]+/\?since="), busy_once)
    _gin(anna, "Anna", 4)  # 25 + 4
    expect(bruno.get_by_test_id("total-0")).to_have_text("29")
    assert len(failed) == 1


def test_news_heard_while_a_save_is_on_its_way_is_fetched_once_it_lands(new_phone, pushpin):  # noqa: F811
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    carla = new_phone(base_url=pushpin.url)
    _join(carla, anna, pushpin.url, role="scorekeeper")
    _streaming(anna)
    _streaming(carla)
    # Carla's save is stored at once, but its answer is slow to reach her phone (bad Wi-Fi).
    held = []
    carla.route(re.compile(r"/hands/$"), lambda route: held.append((route, route.fetch())))
    _gin(carla, "Bruno", 6)  # hand 1: 25 + 6 to Bruno
    for _wait in range(100):
        if held:
            break
        carla.wait_for_timeout(100)
    assert held, "Carla's save never left her phone"
    # Anna's phone hears of Carla's hand, then records hand 2, of which Carla's stream tells
    # while her own save's answer is still on its way.
    expect(anna.get_by_test_id("total-1")).to_have_text("31")
    _gin(anna, "Anna", 4)  # hand 2: 25 + 4 to Anna
    expect(anna.get_by_test_id("total-0")).to_have_text("29")
    carla.wait_for_timeout(500)  # the stream's news reaches Carla's page meanwhile
    route, answer = held[0]
    route.fulfill(response=answer)
    # Her save's answer draws the board at hand 1; the news it held back (hand 2) follows,
    # with her timed polls a minute apart.
    expect(carla.get_by_test_id("total-0")).to_have_text("29")
    expect(carla.get_by_test_id("total-1")).to_have_text("31")
    expect(carla.locator("#history li.hand")).to_have_count(2)


def test_a_phone_whose_own_save_was_told_first_asks_no_poll_after_it(new_phone, pushpin):  # noqa: F811
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    _streaming(anna)
    # Anna's save is stored at once; its answer is held back until her own stream has told
    # her page of the new head (it usually overtakes the answer by a few milliseconds).
    held = []
    anna.route(re.compile(r"/hands/$"), lambda route: held.append((route, route.fetch())))
    polls = []
    anna.on("request", lambda request: "since=" in request.url and polls.append(request.url))
    _gin(anna, "Anna", 4)  # 25 + 4
    for _wait in range(100):
        if held:
            break
        anna.wait_for_timeout(100)
    assert held, "Anna's save never left her phone"
    anna.wait_for_timeout(1000)  # the stream's head reaches her page meanwhile
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(anna.get_by_test_id("total-0")).to_have_text("29")
    # Her answer shows that head already: no poll follows for it (the timed ones a minute
    # apart), where one used to follow every save.
    anna.wait_for_timeout(1500)
    assert polls == []


def test_a_dropped_stream_resumes_without_a_missed_hand(new_phone, pushpin, live_server):  # noqa: F811
    # Anna's phone talks to the app straight, so that she can save while Pushpin is down.
    anna = new_phone()
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    _join(bruno, anna, pushpin.url)
    _streaming(bruno)
    pushpin.stop()  # Bruno's stream drops: he is back to (minute-long) polls
    expect(bruno.locator("body")).to_have_attribute("data-live-state", "polling")
    _gin(anna, "Anna", 4)  # saved while no push engine listens: 25 + 4
    expect(anna.get_by_test_id("total-0")).to_have_text("29")
    pushpin.start()
    # Bruno's browser opens the stream again, saying the last event it saw (the head, 1);
    # the app answers with the head it missed, and his board fetches the hand.
    _streaming(bruno, timeout=REOPENED_MS)
    expect(bruno.get_by_test_id("total-0")).to_have_text("29")
    expect(bruno.locator("#history li.hand")).to_have_count(1)
    _gin(anna, "Bruno", 10)  # 25 + 10, pushed again now
    expect(bruno.get_by_test_id("total-1")).to_have_text("35")


def test_a_refused_stream_falls_back_to_polling(new_phone, pushpin, settings):  # noqa: F811
    settings.TABLE_POLL_MS = 500
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    # A proxy, or an old token, refuses Bruno's stream.
    bruno.route(re.compile(r"/live/"), lambda route: route.fulfill(status=403))
    _join(bruno, anna, pushpin.url)
    expect(bruno.locator("body")).to_have_attribute("data-live-state", "polling")
    _gin(anna, "Anna", 4)
    expect(bruno.get_by_test_id("total-0")).to_have_text("29")
    expect(bruno.locator("body")).to_have_attribute("data-live-state", "polling")


def test_the_room_screen_follows_the_table_by_the_stream(new_phone, pushpin):  # noqa: F811
    phone = new_phone(base_url=pushpin.url)
    _start_gin_table(phone)
    # A second window of the same phone's session, as a laptop on the room's TV would be.
    screen = phone.context.new_page()
    screen.goto(phone.url + "tv/")
    expect(screen.get_by_test_id("tv-total-0")).to_have_text("0")
    _streaming(screen)
    _gin(phone, "Anna", 4)  # 25 + 4, with the screen's timed polls a minute apart
    expect(screen.get_by_test_id("tv-total-0")).to_have_text("29")
    expect(screen.get_by_test_id("tv-last")).to_contain_text("Hand 1")


def test_a_started_rematch_moves_the_other_phone_on_by_the_stream(new_phone, pushpin):  # noqa: F811
    anna = new_phone(base_url=pushpin.url)
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    _join(bruno, anna, pushpin.url)
    finished_at = bruno.url
    _streaming(bruno)
    _gin(anna, "Anna", 30)  # 25 + 30
    expect(anna.get_by_test_id("total-0")).to_have_text("55")
    _gin(anna, "Anna", 30)  # 110: past Big Gin's 100, the match is over
    expect(anna.get_by_test_id("winner")).to_be_visible()
    expect(bruno.get_by_test_id("winner")).to_be_visible()
    anna.get_by_test_id("rematch").click()
    expect(anna).not_to_have_url(finished_at)
    # Bruno's board hears "moved", polls, and is sent on to the rematch with his role.
    expect(bruno).to_have_url(anna.url)
    expect(bruno.get_by_test_id("total-0")).to_have_text("0")


def test_a_stream_refused_after_it_flowed_is_opened_again_at_the_boards_address(
    new_phone,
    pushpin,  # noqa: F811
):
    anna = new_phone()  # straight to the app: she saves while Pushpin is down
    _start_gin_table(anna)
    bruno = new_phone(base_url=pushpin.url)
    _join(bruno, anna, pushpin.url)
    _streaming(bruno)
    refused = []

    def refuse(route):
        refused.append(route.request.url)
        route.fulfill(status=403)

    # The browser's next try is refused, as an expired watch token would be: closed for good;
    # and so is live.js's first new stream, as by an engine answering while it restarts.
    bruno.route(re.compile(r"/live/"), refuse, times=2)
    with bruno.expect_request(re.compile(r"/live/")):
        pushpin.stop()
    expect(bruno.locator("body")).to_have_attribute("data-live-state", "polling")
    _gin(anna, "Anna", 4)  # 25 + 4
    pushpin.start()
    # live.js opened new streams at the board's address, a second later and two after that:
    # the last flows again.
    _streaming(bruno, timeout=REOPENED_MS)
    expect(bruno.get_by_test_id("total-0")).to_have_text("29")
    assert len(refused) == 2
