"""A Rummy40 hand played move by move through the pages, watched from a second phone."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import share_link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _move(page, button: str, *, melds=(), picks=(), meld: str = ""):
    """Tap a move's cards in the picker (each of ``melds`` closed with "This meld is done",
    then ``picks``), the meld of the table it goes to, and the move's button."""
    form = page.get_by_test_id("move-form")
    for cards in melds:
        for face in cards:
            form.get_by_role("checkbox", name=face, exact=True).click()
        form.get_by_test_id("meld-done").click()
    for face in picks:
        form.get_by_role("checkbox", name=face, exact=True).click()
    if meld:
        form.get_by_test_id(f"meld-{meld}").click()
    # Wait for the answer and its swap, so the next move taps the form it brought.
    with page.expect_response(lambda response: "/moves/" in response.url):
        form.get_by_role("button", name=button, exact=True).click()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def _draw(page):
    """Draw from the stock: one tap of its button."""
    with page.expect_response(lambda response: "/moves/" in response.url):
        page.get_by_test_id("draw-stock").click()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


class TestRummy40MoveByMove:
    def test_a_hand_is_refereed_move_by_move_to_its_score(self, new_phone):
        page = new_phone()
        page.goto("/")
        page.get_by_label("Rummy40", exact=True).check()
        page.get_by_label("Player 1").fill("Anna")
        page.get_by_label("Player 2").fill("Bruno")
        page.get_by_role("button", name="Start the table").click()
        expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
        viewer_link = share_link(page, "viewer")

        page.get_by_text("Play the next hand move by move").click()
        page.get_by_test_id("upcard").fill("4C")
        page.get_by_role("button", name="Deal").click()
        turn = page.get_by_test_id("turn")
        expect(turn).to_have_text("Bruno to draw.")
        # 52 + 2 jokers - 2 x 10 dealt - the upcard = 33 (R40-SETUP).
        expect(page.get_by_test_id("stock")).to_have_text("33")

        watcher = new_phone()
        watcher.goto(viewer_link)
        expect(watcher.get_by_test_id("turn")).to_have_text("Bruno to draw.")

        _draw(page)
        expect(turn).to_have_text("Bruno to play.")
        # Q K A of hearts (10 + 10 + 11) and three fives (15): 46, enough to open at 40.
        _move(page, "Lay melds", melds=[("Q♥", "K♥", "A♥")], picks=("5♣", "5♦", "5♠"))
        expect(page.get_by_test_id("hand-size-1")).to_have_text("5 cards")
        # The melds laid are said near the thumb, to the eye and to a screen reader.
        laid = page.get_by_role("status").filter(has_text="Meld laid")
        expect(laid).to_have_text("Meld laid: Q♥ K♥ A♥ | 5♣ 5♦ 5♠")
        expect(laid).to_be_visible()
        expect(laid).to_be_in_viewport()
        page.screenshot(path="test-artifacts/phone-meld-laid.png", caret="initial")
        _move(page, "Discard 2♦", picks=("2♦",))
        expect(turn).to_have_text("Anna to draw.")
        # The second phone follows without reloading (it polls every 2 s).
        expect(watcher.get_by_test_id("turn")).to_have_text("Anna to draw.")
        expect(watcher.get_by_test_id("move-form")).to_have_count(0)

        # A slip: Anna takes the discard, then the table takes the move back.
        _move(page, "Discard pile 2♦")
        expect(page.get_by_test_id("hand-size-0")).to_have_text("11 cards")
        page.get_by_test_id("undo").scroll_into_view_if_needed()
        expect(page.get_by_test_id("draw-stock")).to_have_count(0)
        _move(page, "Take back the last move")
        expect(page.get_by_test_id("hand-size-0")).to_have_text("10 cards")
        expect(turn).to_have_text("Anna to draw.")
        # Drawing again is the next move: its buttons are brought into view.
        expect(page.get_by_test_id("draw-stock")).to_be_in_viewport()
        expect(laid).to_have_count(0)  # what the meld said is no longer the last move
        page.screenshot(path="test-artifacts/phone-after-undo.png", caret="initial")
        _draw(page)

        # Anna has not opened: adding to Bruno's meld is refused, with the rule.
        _move(page, "Add to #1", picks=("J♥",), meld="1")
        expect(page.get_by_role("alert")).to_contain_text("R40-ADD")
        # 2 + 3 + 4 = 9 is below 40: when her turn ends without more, 20 penalty points and
        # the cards go back to her hand (R40-OPEN-PENALTY). The jack, tapped again, is dropped.
        _move(page, "Lay melds", picks=("J♥", "2♠", "3♠", "4♠"))
        _move(page, "Discard 3♥", picks=("3♥",))
        expect(page.get_by_test_id("play-seat-0")).to_contain_text("1 failed opening")

        _move(page, "Discard pile 3♥")
        _move(page, "Add to #1", picks=("J♥",), meld="1")
        _move(page, "Discard 8♠", picks=("8♠",))
        _draw(page)
        _move(page, "Lay melds", melds=[("10♠", "J♠", "Q♠")], picks=("9♦", "9♥", "9♣"))
        _move(page, "Discard 2♠", picks=("2♠",))
        _draw(page)
        _move(page, "Lay melds", picks=("2♥", "3♥", "4♥"))
        _move(page, "Discard K♣", picks=("K♣",))
        expect(turn).to_have_text("The hand is over: show the cards left in hand.")
        page.get_by_test_id("show-0").fill("3S 4S KS JK")
        _move(page, "Show the hands and score")

        # R40-END: Anna adds 3 + 4 + 10 + 25 = 42 and 20 for the failed opening: 62.
        expect(page.get_by_test_id("total-0")).to_have_text("62")
        expect(page.get_by_test_id("total-1")).to_have_text("0")
        expect(watcher.get_by_test_id("total-0")).to_have_text("62")
        expect(page.locator("#hand-form")).to_be_visible()
