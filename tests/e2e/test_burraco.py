"""A Burraco match of two pairs on a phone, in Italian: the table started from the home
form, each hand entered one sheet a pair, the scoreboard one box a pair, the winners named
as their pair; the page axe-clean in light and dark."""

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.pairs_sheet import enter_sheet, start_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _start(page) -> None:
    start_table(page, "burraco", 1000)


def _sheet(page, pairs: list[dict], closed: int | None) -> None:
    enter_sheet(page, pairs, "closed", closed)


def _no_blocking_violations(page) -> None:
    assert axe_violations(page, impacts=BLOCKING) == []


class TestAMatchOfTwoPairs:
    def test_two_hands_by_sheet_in_italian_to_the_pairs_win(self, new_phone):
        page = new_phone("it-IT", viewport=PHONE)
        _start(page)
        board = page.locator("#board")
        expect(board).to_contain_text("Anna & Carla")
        expect(board).to_contain_text("Bruno & Dario")
        expect(page.locator("#hand-form")).to_contain_text("Chi ha chiuso?")
        _no_blocking_violations(page)
        # Hand 1, BUR-SCORE: Anna & Carla close, 355 melded + 200 (a clean burraco) + 100
        # (the closing) = 655; Bruno & Dario 180 + 100 (a dirty burraco) - 45 = 235.
        _sheet(
            page,
            [
                {"melded": 355, "pulito": 1, "pozzetto": True, "in_hand": 0},
                {"melded": 180, "sporco": 1, "pozzetto": True, "in_hand": 45},
            ],
            closed=0,
        )
        expect(page.get_by_test_id("total-0")).to_have_text("655")
        expect(page.get_by_test_id("total-1")).to_have_text("235")
        # Hand 2: Bruno & Dario close, 400 + 200 + 100 (a dirty one too) + 100 = 800, 1035 in
        # all; Anna & Carla never took their pozzetto: 150 - 60 in hand - 100 = -10, 645.
        _sheet(
            page,
            [
                {"melded": 150, "pozzetto": False, "in_hand": 60},
                {"melded": 400, "pulito": 1, "sporco": 1, "pozzetto": True, "in_hand": 0},
            ],
            closed=1,
        )
        expect(page.get_by_test_id("total-1")).to_have_text("1035")
        expect(page.get_by_test_id("total-0")).to_have_text("645")
        # BUR-MATCH: 1035 passes the target of 1000: the pair wins, named as one.
        expect(page.get_by_test_id("winner")).to_contain_text("Bruno & Dario")
        _no_blocking_violations(page)
        page.emulate_media(color_scheme="dark")
        _no_blocking_violations(page)

    def test_a_closing_without_a_burraco_is_refused_next_to_the_form(self, new_phone):
        page = new_phone("it-IT", viewport=PHONE)
        _start(page)
        _sheet(
            page,
            [
                {"melded": 100, "pozzetto": True, "in_hand": 0},
                {"melded": 100, "pozzetto": True, "in_hand": 20},
            ],
            closed=0,
        )
        expect(page.locator("#hand-form")).to_contain_text("BUR-CLOSE")
        expect(page.get_by_test_id("total-0")).to_have_text("0")
        page.emulate_media(color_scheme="dark")
        _no_blocking_violations(page)


def _move(page, move: str, *cards: str) -> None:
    """Pick the cards by their codes and send the move, as the move buttons do."""
    form = page.get_by_test_id("move-form")
    for code in cards:
        form.locator(f"input[name=picked][value='{code}']").check()
    with page.expect_response(lambda response: "/moves/" in response.url):
        form.locator(f"button[name=move][value={move}]").click()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def _draw(page, source: str) -> None:
    with page.expect_response(lambda response: "/moves/" in response.url):
        page.get_by_test_id(f"draw-{source}").click()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


class TestAHandMoveByMove:
    def test_the_whole_pile_taken_a_meld_laid_and_a_second_wild_refused(self, new_phone):
        page = new_phone("it-IT", viewport=PHONE)
        _start(page)
        page.get_by_text("Gioca la prossima mano mossa per mossa").click()
        # 9Q: the 9 of quadri (diamonds), as an Italian phone writes it (CARD-3).
        page.get_by_test_id("upcard").fill("9Q")
        with page.expect_response(lambda response: "/moves/" in response.url):
            page.locator("#deal-form button[name=move][value=deal]").click()
        expect(page.get_by_test_id("turn")).to_contain_text("Bruno")
        # Bruno draws from the stock and throws a king of clubs (BUR-TURN).
        _draw(page, "stock")
        _move(page, "discard", "KC")
        expect(page.get_by_test_id("turn")).to_contain_text("Carla")
        # Carla takes the whole discard pile, 9♦ and K♣ (BUR-TURN): 11 + 2 = 13 cards.
        _draw(page, "discard")
        expect(page.get_by_test_id("play-seat-2")).to_contain_text("13")
        # She lays 7♦ 8♦ 9♦ (BUR-MELDS), then tries a sequence with two wilds: refused.
        _move(page, "meld", "7D", "8D", "9D")
        expect(page.get_by_test_id("table-melds")).to_contain_text("7♦")
        _move(page, "meld", "4S", "JK", "2C")
        alert = page.get_by_test_id("move-form").get_by_role("alert")
        expect(alert).to_contain_text("BUR-WILD")
        expect(page.get_by_test_id("play-seat-2")).to_contain_text("10")
        _no_blocking_violations(page)
        page.emulate_media(color_scheme="dark")
        _no_blocking_violations(page)
