"""A hand played move by move on a 390 x 844 phone: an ordinary turn is three taps (the
stock, the card, its discard) with no scrolling; cards for a meld or an add are tapped in the
same picker; a refused move says why by the thumb; the buttons read in the dark."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import start_table, tap_in_view
from tests.e2e.test_dark_theme import CONTRAST

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TALL_PHONE = {"width": 390, "height": 844}


def _phone(new_phone, **kwargs):
    return new_phone(viewport=TALL_PHONE, **kwargs)


def _deal(page, upcard: str = "9D") -> None:
    page.get_by_text("Play the next hand move by move").click()
    page.get_by_test_id("upcard").fill(upcard)
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_test_id("move-form")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")


def _card(page, face: str):
    return page.get_by_test_id("move-form").get_by_role("checkbox", name=face, exact=True)


def _ordinary_turn(page, face: str) -> int:
    """Play one ordinary turn, the way a thumb does: Stock, the card, its discard. Return the
    number of taps; fail if any was out of view or the page moved."""
    scrolled = page.evaluate("window.scrollY")
    taps = [
        (page.get_by_test_id("draw-stock"), True),
        (_card(page, face), False),
        (page.get_by_role("button", name=f"Discard {face}", exact=True), True),
    ]
    for locator, posts in taps:
        tap_in_view(page, locator, posts=posts)
        assert page.evaluate("window.scrollY") == scrolled
    return len(taps)


class TestAnOrdinaryTurnIsThreeTaps:
    def test_gin_turns_draw_pick_and_discard_without_scrolling(self, new_phone):
        page = _phone(new_phone)
        page.goto("/")
        page.get_by_label("Big Gin", exact=True).check()
        page.get_by_label("Player 1").fill("Anna")
        page.get_by_label("Player 2").fill("Bruno")
        page.get_by_role("button", name="Start the table").click()
        expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
        _deal(page)
        turn = page.get_by_test_id("turn")
        # GIN-FIRST: the face-up card or a pass, one big button each; both pass here.
        expect(turn).to_contain_text("Bruno: take the face-up card or pass.")
        tap_in_view(page, page.get_by_test_id("pass"), posts=True)
        expect(turn).to_contain_text("Anna: take the face-up card or pass.")
        tap_in_view(page, page.get_by_test_id("pass"), posts=True)
        expect(turn).to_have_text("Bruno to draw.")
        # 52 - 2 x 10 dealt - the upcard = 31 in the stock (GIN-SETUP).
        expect(page.get_by_test_id("stock")).to_have_text("31")

        assert _ordinary_turn(page, "7♠") == 3
        expect(turn).to_have_text("Anna to draw.")
        expect(page.get_by_test_id("discard-top")).to_have_text("7♠")
        assert _ordinary_turn(page, "K♦") == 3
        expect(turn).to_have_text("Bruno to draw.")
        expect(page.get_by_test_id("stock")).to_have_text("29")
        expect(page.get_by_test_id("hand-size-0")).to_have_text("10 cards")

    def test_ramino_turns_go_round_the_table_in_three_taps_each(self, new_phone):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        turn = page.get_by_test_id("turn")
        expect(turn).to_have_text("Bruno to draw.")
        for player, face, following in [
            ("Bruno", "7♠", "Carla"),
            ("Carla", "K♦", "Anna"),
            ("Anna", "2♣", "Bruno"),
        ]:
            expect(turn).to_have_text(f"{player} to draw.")
            assert _ordinary_turn(page, face) == 3
            expect(turn).to_have_text(f"{following} to draw.")
            expect(page.get_by_test_id("discard-top")).to_have_text(face)
        # 108 cards + 2 jokers - 3 x 13 dealt - the upcard - 3 draws = 67 (RAM-SETUP).
        expect(page.get_by_test_id("stock")).to_have_text("67")
        for seat in range(3):
            expect(page.get_by_test_id(f"hand-size-{seat}")).to_have_text("13 cards")

    def test_the_board_says_whose_turn_it_is_at_the_top_while_picking(self, new_phone):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        board = page.locator("#board")
        expect(board.get_by_test_id("turn")).to_have_text("Bruno to play.")
        # Scrolled down to the melds, the board (shrunk to one row) still says it on top.
        page.get_by_test_id("table-melds").scroll_into_view_if_needed()
        page.mouse.wheel(0, 400)
        expect(board.get_by_test_id("turn")).to_be_in_viewport()
        assert board.bounding_box()["height"] < 110


class TestTheBoardNeverCoversAPickersTabs:
    def test_the_quick_hands_whose_cards_tabs_stick_below_the_shrunk_board(self, new_phone):
        page = _phone(new_phone)
        page.goto("/")
        page.get_by_label("Big Gin", exact=True).check()
        page.get_by_label("Player 1").fill("Anna")
        page.get_by_label("Player 2").fill("Bruno")
        page.get_by_role("button", name="Start the table").click()
        expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
        page.locator("#hand-form").get_by_label("Cards", exact=True).check()
        tabs = page.locator(".one-picker .hand-tabs")
        expect(tabs).to_be_visible()
        # Scrolled down to the diamonds, the tabs are still there, just below the board.
        page.locator("#hand-form").get_by_role(
            "button", name="K♦", exact=True
        ).scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 200)")
        assert page.evaluate("window.scrollY") > 300
        board, below = page.locator("#board").bounding_box(), tabs.bounding_box()
        assert board["height"] < 80  # one row of names and totals while picking
        assert board["y"] + board["height"] <= below["y"] + 1 < page.viewport_size["height"]
        tab = tabs.get_by_role("button").first
        tap_in_view(page, tab)  # nothing covers it
        expect(tab).to_have_attribute("aria-pressed", "true")


class TestCardsOfAMoveArePickedInTheGrid:
    def test_melds_are_built_in_the_picker_and_a_tapped_card_is_added_to_a_tapped_meld(
        self, new_phone
    ):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        form = page.get_by_test_id("move-form")
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        # Bruno opens with two melds in one move: 8 9 10 of spades, "this meld is done",
        # then three fives: 8 + 9 + 10 + 15 = 42, at least 30 (RAM-OPEN).
        for face in ("8♠", "9♠", "10♠"):
            tap_in_view(page, _card(page, face))
        tap_in_view(page, form.get_by_test_id("meld-done"))
        expect(form.get_by_test_id("move-cards")).to_have_value("8S 9S 10S")
        for face in ("5♣", "5♦", "5♥"):
            tap_in_view(page, _card(page, face))
        expect(form.get_by_test_id("picked-echo")).to_contain_text("8♠ 9♠ 10♠")
        tap_in_view(page, form.get_by_role("button", name="Lay melds"), posts=True)
        melds = page.get_by_test_id("table-melds")
        expect(melds.locator(".meld")).to_have_count(2)
        expect(page.get_by_test_id("play-seat-1")).to_contain_text("opened")

        # Add to the meld: tap the run on the table, then the jack in the grid.
        form.get_by_test_id("meld-1").click()
        expect(form.get_by_test_id("meld-1")).to_have_attribute("aria-pressed", "true")
        _card(page, "J♠").click()
        form.get_by_role("button", name="Add to #1").click()
        expect(melds.get_by_test_id("meld-1")).to_contain_text("J♠")
        expect(page.get_by_test_id("hand-size-1")).to_have_text("7 cards")
        expect(form.get_by_role("alert")).to_have_count(0)
        _card(page, "2♦").click()
        form.get_by_role("button", name="Discard 2♦").click()
        expect(page.get_by_test_id("turn")).to_have_text("Carla to draw.")

    def test_a_joker_on_the_table_reads_as_the_card_it_stands_for(self, new_phone):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        form = page.get_by_test_id("move-form")
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        # Q K and a joker standing for the ace: 10 + 10 + 11 = 31 (RAM-OPEN, VALUE).
        for face in ("Q♥", "K♥", "🃏 joker"):
            _card(page, face).click()
        form.get_by_role("button", name="Lay melds").click()
        expect(page.get_by_test_id("meld-1")).to_have_text("#1Q♥K♥🃏(A♥)")
        options = form.get_by_test_id("move-meld").locator("option")
        expect(options.nth(1)).to_have_text("#1 Q♥ K♥ 🃏(A♥)")
        # With a joker on the table, its swap is offered.
        expect(form.get_by_test_id("move-swap")).to_be_visible()


class TestARefusedMoveIsSaidByTheThumb:
    def _in_view_and_focused(self, page, alert) -> None:
        # The text shows at the answer's swap; the focus follows at its settle, a moment later:
        # wait for the focus (a refusal never focused fails here), then for the scroll.
        page.wait_for_function(
            "() => !!document.activeElement && !!document.activeElement.closest('[role=alert]')"
        )
        expect(alert).to_be_in_viewport(ratio=1)

    def test_a_discard_without_a_card_and_a_short_opening_are_refused_in_view(self, new_phone):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        form = page.get_by_test_id("move-form")
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        tap_in_view(page, form.get_by_role("button", name="Discard"), posts=True)
        alert = form.get_by_role("alert")
        expect(alert).to_have_text("Discard needs a card: tap it in the grid.")
        self._in_view_and_focused(page, alert)

        # 2 + 3 + 4 = 9: the turn may still lay more, but not end on it (RAM-OPEN).
        for face in ("2♥", "3♥", "4♥"):
            _card(page, face).click()
        form.get_by_role("button", name="Lay melds").click()
        expect(page.get_by_test_id("opening-so-far")).to_have_text("Opening so far: 9 / 30")
        page.evaluate("window.scrollTo(0, 0)")
        tap_in_view(page, _card(page, "5♣"))
        tap_in_view(page, form.get_by_role("button", name="Discard 5♣"), posts=True)
        alert = form.get_by_role("alert")
        expect(alert).to_contain_text("The opening is worth 9; the table's minimum is 30.")
        expect(alert.get_by_role("link", name="RAM-OPEN")).to_be_visible()
        expect(alert).not_to_contain_text("EVENT")
        self._in_view_and_focused(page, alert)

    def test_add_to_the_meld_without_a_card_says_where_to_tap(self, new_phone):
        page = _phone(new_phone)
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        form = page.get_by_test_id("move-form")
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        for face in ("Q♥", "K♥", "🃏 joker"):
            _card(page, face).click()
        form.get_by_role("button", name="Lay melds").click()
        form.get_by_test_id("meld-1").click()
        form.get_by_role("button", name="Add to #1").click()
        alert = form.get_by_role("alert")
        expect(alert).to_have_text("Add to the meld needs a card: tap it in the grid.")
        self._in_view_and_focused(page, alert)


class TestTheMoveButtonsReadInTheDark:
    def test_every_move_button_shows_with_readable_text(self, new_phone):
        page = _phone(new_phone, color_scheme="dark")
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _deal(page)
        form = page.get_by_test_id("move-form")

        def readable(buttons) -> int:
            count = 0
            for index in range(buttons.count()):
                button = buttons.nth(index)
                if not button.is_visible():
                    continue
                contrast = page.evaluate(CONTRAST, button.element_handle())
                name = button.inner_text()
                assert contrast["ratio"] >= 4.5, f"{name}: {contrast['ratio']:.2f}:1"
                count += 1
            return count

        body = page.evaluate(CONTRAST, page.locator("body").element_handle())
        assert max(body["background"]) < 60, "the page is not dark"
        # The draw: Stock, the discard pile, taking back the last move.
        assert readable(form.locator("button[name=move]")) == 3
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        for face in ("Q♥", "K♥", "🃏 joker"):
            _card(page, face).click()
        form.get_by_role("button", name="Lay melds").click()
        expect(form.get_by_test_id("move-swap")).to_be_visible()
        for face in ("8♠", "9♠", "10♠"):
            _card(page, face).click()
        expect(form.get_by_test_id("meld-done")).to_be_visible()
        # Discard, lay melds, add, swap, take back; this meld is done; the meld on the table.
        assert readable(form.locator("button[name=move]")) == 5
        assert readable(form.locator("[data-meld-done], [data-meld-target]")) == 2


class TestWithoutJavaScript:
    def test_the_plain_form_plays_a_turn_and_adds_to_a_meld_chosen_in_its_list(
        self, browser, live_server
    ):
        context = browser.new_context(
            viewport=TALL_PHONE, java_script_enabled=False, base_url=live_server.url
        )
        try:
            page = context.new_page()
            start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
            page.get_by_text("Play the next hand move by move").click()
            page.get_by_test_id("upcard").fill("9D")
            page.get_by_role("button", name="Deal").click()
            form = page.get_by_test_id("move-form")
            form.get_by_test_id("draw-stock").click()
            # The checkboxes of the grid post as they are: Q K and a joker open (31, RAM-OPEN).
            for face in ("Q♥", "K♥", "🃏 joker"):
                _card(page, face).check()
            form.get_by_role("button", name="Lay melds").click()
            expect(page.get_by_test_id("meld-1")).to_contain_text("🃏(A♥)")
            _card(page, "J♥").check()
            form.get_by_text("Type the cards instead, or choose the meld").click()
            form.get_by_test_id("move-meld").select_option("1")
            form.get_by_role("button", name="Add to the meld").click()
            expect(page.get_by_test_id("meld-1")).to_contain_text("J♥")
            # A discard with no card tapped: the refusal, by the buttons, in view.
            form.get_by_role("button", name="Discard").click()
            alert = page.get_by_test_id("move-form").get_by_role("alert")
            expect(alert).to_have_text("Discard needs a card: tap it in the grid.")
            expect(alert).to_be_in_viewport()
            _card(page, "5♣").check()
            form.get_by_role("button", name="Discard").click()
            expect(page.get_by_test_id("turn")).to_have_text("Carla to draw.")
        finally:
            context.close()
