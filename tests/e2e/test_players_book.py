"""A family's players' book on a phone: a group started once, three Sundays of two games
seated in one or two taps, the stats and head-to-head worked by hand from the hands, and
every table and the group brought back after the browser forgets them — by an account, by a
move code on a second phone, and by a recovery file."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import record_gin_hand, record_hand

# The live server works the stats out in-process (eager), whatever broker CI configures.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]


def _start_group(page) -> str:
    page.goto("/")
    page.get_by_test_id("start-group").click()
    page.get_by_label("Group name").fill("Sunday at Nonna's")
    page.get_by_label("Players, one a line").fill("Anna\nBruno\nCarla")
    page.get_by_role("button", name="Start the group").click()
    expect(page.get_by_test_id("group-name")).to_have_text("Sunday at Nonna's")
    return page.url


def _seat_and_start(page, group_url: str, names: list[str], game_options=None) -> None:
    """Tick who plays (the chips), set the game if it changes, and start the table."""
    page.goto(group_url)
    picker = page.get_by_test_id("seat-picker")
    for box in picker.get_by_role("checkbox").all():
        box.set_checked(False)
    for name in names:
        picker.get_by_label(name, exact=True).check()
    if game_options is not None:
        page.locator("#new-table details summary").first.click()
        game_options(page)
    page.locator("#new-table").get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def _single_hand(page) -> None:
    page.get_by_test_id("gin-target").select_option("1")


def _knock_rummy_to_20(page) -> None:
    page.get_by_label("Knock Rummy", exact=True).check()
    page.get_by_label("Game ends at").fill("20")


def _kr_hand(page, seats: dict[int, str], knocker: int) -> None:
    fields = {seat: {"Cards still in hand": hand} for seat, hand in seats.items()}
    fields[knocker]["knocked"] = True
    record_hand(page, fields)


def _play_three_sundays(page, group_url: str) -> None:
    # Sunday 1, Gin, a single hand: Anna goes gin, Bruno holds 20.
    # GIN-SCORE-GIN: 25 + 20 = 45 to Anna, who wins.
    _seat_and_start(page, group_url, ["Anna", "Bruno"], _single_hand)
    record_gin_hand(page, "Anna", "Gin", defender=20)
    expect(page.get_by_test_id("winner")).to_contain_text("Anna")
    expect(page.get_by_test_id("total-0")).to_have_text("45")

    # Sunday 2, Gin again: the last seating is offered first, one tap. Bruno knocks with 5,
    # Anna holds 30: GIN-SCORE-KNOCK, 30 - 5 = 25 to Bruno, who wins.
    page.goto(group_url)
    same = page.get_by_test_id("same-seats")
    expect(same).to_contain_text("Anna – Bruno")
    same.get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
    record_gin_hand(page, "Bruno", "Knock", knocker=5, defender=30)
    expect(page.get_by_test_id("winner")).to_contain_text("Bruno")
    expect(page.get_by_test_id("total-1")).to_have_text("25")

    # Sunday 3, Knock Rummy to 20 for the three of them (seats Anna, Bruno, Carla).
    # KR-SCORE: Anna knocks with A♣ 2♦ = 3: (5 - 3) + (7 - 3) = 6 to Anna.
    # Bruno knocks with 2♠ against K♥ Q♥ = 20 and 9♣: (20 - 2) + (9 - 2) = 25, which passes
    # 20 and ends the game (KR-MATCH): Bruno 25 + 100 = 125, Anna 6 + 25 = 31, Carla 0.
    _seat_and_start(page, group_url, ["Anna", "Bruno", "Carla"], _knock_rummy_to_20)
    _kr_hand(page, {0: "AC 2D", 1: "5C", 2: "4D 3C"}, knocker=0)
    expect(page.get_by_test_id("total-0")).to_have_text("6")
    _kr_hand(page, {0: "KH QH", 1: "2S", 2: "9C"}, knocker=1)
    expect(page.get_by_test_id("winner")).to_contain_text("Bruno wins the match!")
    expect(page.get_by_test_id("total-1")).to_have_text("125")


def _expect_group_back(page, group_url: str) -> None:
    page.goto("/keys/")
    expect(page.get_by_test_id("held-groups")).to_contain_text("Sunday at Nonna's")
    page.goto(group_url)
    expect(page.get_by_test_id("group-name")).to_have_text("Sunday at Nonna's")
    expect(page.get_by_test_id("group-tables").get_by_role("listitem")).to_have_count(3)


def _forget(page) -> None:
    """Clear what the browser holds for the site: its cookies (the session and its keys)."""
    page.context.clear_cookies()
    page.goto("/keys/")
    expect(page.get_by_test_id("keys-none")).to_be_visible()


class TestAFamilysBook:
    def test_three_sundays_then_the_phone_forgets_and_everything_comes_back(
        self, new_phone, tmp_path
    ):
        page = new_phone()
        group_url = _start_group(page)
        assert not axe_violations(page)
        _play_three_sundays(page, group_url)

        # The group's page: its three tables, newest first.
        page.goto(group_url)
        expect(page.get_by_test_id("group-tables").get_by_role("listitem")).to_have_count(3)
        self._check_stats(page, group_url)

        # (c) first, while the phone still holds the keys: the recovery file.
        page.goto("/keys/")
        assert not axe_violations(page)
        with page.expect_download() as download:
            page.get_by_test_id("keys-download").click()
        recovery = tmp_path / "rummyref-keys.json"
        download.value.save_as(recovery)

        # (b) a move code, typed on a second phone (its own browser context).
        page.get_by_test_id("keys-move").click()
        code = page.get_by_test_id("move-code").inner_text()
        expect(page.get_by_test_id("move-qr").locator("svg")).to_be_visible()
        second = new_phone()
        second.goto("/keys/receive/")
        second.get_by_label("Type the move code the other phone shows").fill(code)
        second.get_by_test_id("keys-take").click()
        expect(second.get_by_test_id("keys-received")).to_contain_text(
            "1 group came to this phone."
        )
        _expect_group_back(second, group_url)
        # The second phone is a member too: it can seat a new table.
        expect(second.get_by_test_id("seat-picker")).to_be_visible()

        # (a) an account: sign up, keep the keys in it, forget them, sign in again.
        page.goto("/accounts/signup/?next=/keys/")
        page.get_by_label("Username").fill("nonna")
        page.get_by_label("Password", exact=True).fill("a-long-family-pass-42")
        page.get_by_label("Password confirmation").fill("a-long-family-pass-42")
        page.get_by_role("button", name="Create the account").click()
        expect(page).to_have_url(re.compile(r"/keys/$"))
        page.get_by_test_id("keys-claim").click()
        expect(page.get_by_test_id("keys-claimed")).to_contain_text("holds 1 table or group")
        _forget(page)
        page.goto("/accounts/login/?next=/keys/")
        page.get_by_label("Username").fill("nonna")
        page.get_by_label("Password").fill("a-long-family-pass-42")
        page.get_by_role("button", name="Log in").click()
        _expect_group_back(page, group_url)

        # (c) the recovery file, on a browser that forgot everything and has no account.
        _forget(page)
        page.goto("/keys/")
        page.get_by_label("Load a recovery file").set_input_files(recovery)
        page.get_by_test_id("keys-load").click()
        expect(page.get_by_test_id("keys-received")).to_contain_text("1 group came to this phone.")
        _expect_group_back(page, group_url)

    def _check_stats(self, page, group_url: str) -> None:
        """The stats page against the three matches, worked by hand (see the comments)."""
        page.goto(group_url)
        page.get_by_test_id("group-stats-link").click()
        expect(page).to_have_url(re.compile(r"/g/\d+/stats/"))
        # The address changes as the page starts to load: axe reads it once its styles apply.
        page.wait_for_load_state("load")
        assert not axe_violations(page)
        tabs = page.get_by_test_id("stats-games")
        expect(tabs.locator('[data-game="gin"] .count')).to_have_text("2")
        expect(tabs.locator('[data-game="knock_rummy"] .count')).to_have_text("1")

        # Gin: Anna won Sunday 1, Bruno Sunday 2: each 2 played, 1 won, 50 %.
        tabs.locator('[data-game="gin"]').click()
        book = page.get_by_test_id("book-key")
        for name in ("Anna", "Bruno"):
            row = book.locator(f'tr[data-player="{name}"]')
            expect(row.locator('[data-col="played"]')).to_have_text("2")
            expect(row.locator('[data-col="won"]')).to_have_text("1")
            expect(row.locator('[data-col="win-percent"]')).to_have_text("50%")
        # Carla played no Gin.
        expect(book.locator('tr[data-player="Carla"]')).to_have_count(0)
        # Head to head: one each; each other's rival (2 matches) and nemesis (1 defeat).
        grid = page.get_by_test_id("head-to-head")
        expect(grid.locator('tr[data-player="Anna"] [data-cell]')).to_have_text("1–1")
        players = page.get_by_test_id("book-players")
        anna = players.locator('tr[data-player="Anna"]')
        expect(anna.get_by_test_id("rival")).to_have_text("Bruno (2)")
        expect(anna.get_by_test_id("nemesis")).to_have_text("Bruno (1)")
        # Best match: Anna's gin, 45 to 0; Bruno's knock, 25 to 0.
        expect(anna.get_by_test_id("best")).to_contain_text("+45 v Bruno")
        bruno = players.locator('tr[data-player="Bruno"]')
        expect(bruno.get_by_test_id("best")).to_contain_text("+25 v Anna")

        # Knock Rummy: Bruno 125, Anna 31, Carla 0 — Bruno 1 of 1, Anna and Carla 0 of 1.
        page.get_by_test_id("stats-games").locator('[data-game="knock_rummy"]').click()
        book = page.get_by_test_id("book-key")
        bruno = book.locator('tr[data-player="Bruno"]')
        expect(bruno.locator('[data-col="won"]')).to_have_text("1")
        expect(bruno.locator('[data-col="win-percent"]')).to_have_text("100%")
        for name in ("Anna", "Carla"):
            row = book.locator(f'tr[data-player="{name}"]')
            expect(row.locator('[data-col="played"]')).to_have_text("1")
            expect(row.locator('[data-col="won"]')).to_have_text("0")
        # Places 1, 2, 3: Anna finished above Carla and below Bruno.
        anna_row = page.get_by_test_id("head-to-head").locator('tr[data-player="Anna"]')
        expect(anna_row.locator("[data-cell]")).to_have_text(["0–1", "1–0"])
        expect(page.get_by_test_id("wins-chart").locator("svg").first).to_be_visible()
        assert not axe_violations(page)


class TestAPlayersPage:
    def test_a_players_page_on_a_phone_light_and_dark(self, new_phone):
        page = new_phone()
        group_url = _start_group(page)
        # Two Gin matches of a single hand. GIN-SCORE-GIN: Anna goes gin against Bruno's 20,
        # 25 + 20 = 45 to Anna. GIN-SCORE-KNOCK: Bruno knocks with 5 against Anna's 30,
        # 30 - 5 = 25 to Bruno.
        _seat_and_start(page, group_url, ["Anna", "Bruno"], _single_hand)
        record_gin_hand(page, "Anna", "Gin", defender=20)
        expect(page.get_by_test_id("winner")).to_contain_text("Anna")
        _seat_and_start(page, group_url, ["Anna", "Bruno"], _single_hand)
        record_gin_hand(page, "Bruno", "Knock", knocker=5, defender=30)
        expect(page.get_by_test_id("winner")).to_contain_text("Bruno")

        # From the group's stats, Anna's name opens her page.
        page.goto(group_url)
        page.get_by_test_id("group-stats-link").click()
        page.get_by_test_id("book-key").get_by_role("link", name="Anna", exact=True).click()
        expect(page).to_have_url(re.compile(r"/g/\d+/players/\d+/$"))
        expect(page.get_by_test_id("player-name")).to_have_text("Anna")
        # Anna: 2 played, 1 won, no draw, 1 lost, 50 %.
        record = page.get_by_test_id("player-record")
        for col, value in (("played", "2"), ("won", "1"), ("drawn", "0"), ("lost", "1")):
            expect(record.locator(f'[data-col="{col}"]')).to_have_text(value)
        expect(record.locator('[data-col="win-percent"]')).to_have_text("50%")
        # With Bruno: 2 matches, above him once, below once.
        bruno = page.get_by_test_id("player-opponents").locator('tr[data-player="Bruno"]')
        expect(bruno.locator('[data-col="record"]')).to_have_text("1–1–0")
        # Gin: (45 + 0) / 2 = 22.5 a match; against 0 + 25 = 25; margin (45 - 25) / 2 = +10.
        gin = page.locator('[data-testid="player-game"][data-game="gin"]')
        expect(gin.locator('[data-col="average-for"]')).to_have_text("22.5")
        expect(gin.locator('[data-col="points-against"]')).to_have_text("25")
        expect(gin.locator('tr[data-player="Bruno"] [data-col="margin"]')).to_have_text("+10")
        # Nothing wider than the phone.
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"]
        page.wait_for_load_state("load")
        assert not axe_violations(page, impacts=BLOCKING, best_practice=True)
        page.emulate_media(color_scheme="dark")
        assert not axe_violations(page, impacts=BLOCKING, best_practice=True)
        # The stats page's every-game summary, in the dark too.
        page.get_by_test_id("player-back").click()
        expect(page.get_by_test_id("every-game")).to_contain_text("Anna")
        page.wait_for_load_state("load")
        # The record's key, now with draws and defeats, still fits the phone's width.
        for cell in (
            page.get_by_test_id("book-key").locator("tbody tr").first.locator("td, th").all()
        ):
            expect(cell).to_be_in_viewport()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"]
        assert not axe_violations(page)
