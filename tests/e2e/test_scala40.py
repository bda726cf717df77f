"""Play a Scala 40 match of three to elimination through the pages on a phone-sized screen:
one re-entry each, a hand by cards and the others by points, a player out of the match
sitting the next hands out, a closing in hand, and the last one in winning (docs/rules.md:
S40-VALUE, S40-SCORE, S40-HANDCLOSE, S40-MATCH, S40-REENTRY).

The match worked by hand, to 101:

- hand 1, by cards: Anna closes; Bruno holds K♥ Q♦ J♣ 10♠ 9♦ 8♣ = 10+10+10+10+9+8 = 57,
  Carla A♠ 2♣ = 11+2 = 13. Totals 0, 57, 13.
- hand 2: Carla closes; Anna 40, Bruno 45: Bruno reaches 102 and re-enters at the highest
  total still in, Anna's 40 (an item of -62). Totals 40, 40, 13.
- hand 3: Anna closes; Bruno 70 (110, no re-entry left: out), Carla 20. Totals 40, 110, 33.
- hand 4: Bruno sits out; Carla closes in hand, so Anna's 40 counts twice: 120, out with
  only Carla left in. Carla wins; Anna is second, Bruno third.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import fill_seats, start_table, tap_in_view

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _by_points(page, seats: dict[int, dict[str, str | bool]]) -> None:
    form = page.locator("#hand-form")
    form.locator("input[name=mode][value=points]").check()
    fill_seats(page, seats)
    form.get_by_role("button", name="Record hand").click()


class TestScala40Match:
    def test_three_players_play_to_elimination_with_a_re_entry(self, new_phone):
        page = new_phone()
        start_table(
            page,
            "Scala 40",
            ["Anna", "Bruno", "Carla"],
            lambda page: page.get_by_label("Re-entries").fill("1"),
        )
        totals = [page.get_by_test_id(f"total-{seat}") for seat in range(3)]
        expect(page.locator("#board")).to_contain_text("Limit 101")
        expect(page.locator("#board")).to_contain_text("1 re-entry")

        # Hand 1, by cards (S40-VALUE): Bruno 57, Carla 13.
        fill_seats(
            page,
            {
                0: {"Cards melded this hand": "7S 8S 9S 4H 4D 4C 10H JH QH KH", "went out": True},
                1: {"Cards still in hand": "KH QD JC 10S 9D 8C"},
                2: {"Cards still in hand": "AS 2C"},
            },
        )
        page.locator("#hand-form").get_by_role("button", name="Record hand").click()
        expect(totals[1]).to_have_text("57")
        expect(totals[2]).to_have_text("13")

        # Hand 2: Bruno reaches 102 and re-enters at Anna's 40 (S40-REENTRY).
        _by_points(
            page,
            {
                0: {"Points in hand": "40"},
                1: {"Points in hand": "45"},
                2: {"went out": True},
            },
        )
        expect(totals[0]).to_have_text("40")
        expect(totals[1]).to_have_text("40")
        expect(page.get_by_test_id("match-bonuses")).to_contain_text("Bruno -62")
        expect(page.get_by_test_id("match-bonuses")).to_contain_text("S40-REENTRY")

        # Hand 3: Bruno reaches 110 with no re-entry left: out of the match (S40-MATCH).
        _by_points(
            page,
            {
                0: {"went out": True},
                1: {"Points in hand": "70"},
                2: {"Points in hand": "20"},
            },
        )
        expect(totals[1]).to_have_text("110")
        expect(page.get_by_test_id("out-1")).to_have_text("out of the match")
        bruno = page.locator('#hand-form [data-seat-row="1"]')
        expect(bruno).to_contain_text("out of the match: sits this hand out")
        expect(bruno.get_by_label("Points in hand")).to_have_count(0)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page, "#board", impacts=BLOCKING) == []
            assert axe_violations(page, "#hand-form", impacts=BLOCKING) == []

        # Hand 4: Carla closes in hand, doubling Anna's 40 (S40-HANDCLOSE): Anna is out at
        # 120 and Carla, the last one in, wins.
        _by_points(
            page,
            {
                0: {"Points in hand": "40"},
                2: {"went out": True, "closed in one turn": True},
            },
        )
        expect(page.get_by_test_id("winner")).to_contain_text("Carla wins the match!")
        expect(totals[0]).to_have_text("120")
        expect(page.get_by_test_id("place-2")).to_have_text("place 1")
        expect(page.get_by_test_id("place-0")).to_have_text("place 2")
        expect(page.get_by_test_id("place-1")).to_have_text("place 3")
        expect(page.locator("#hand-form")).to_have_count(0)

    def test_the_new_table_form_shows_only_scala40s_options_in_italian(self, new_phone):
        page = new_phone("it-IT")
        page.goto("/")
        page.get_by_label("Scala 40", exact=True).check()
        options = page.get_by_test_id("options-scala40")
        expect(options).to_be_visible()
        expect(page.get_by_test_id("options-gin")).to_be_hidden()
        expect(options.get_by_label("Rientri")).to_be_visible()
        expect(options.get_by_label("Punteggio di uscita")).to_have_value("101")
        # Two to six players: the number is asked, and names follow it.
        page.get_by_label("Giocatori", exact=True).select_option("5")
        expect(page.get_by_label("Giocatore 5")).to_be_visible()
        expect(page.get_by_label("Giocatore 6")).to_be_hidden()
        assert axe_violations(page, "#new-table", impacts=BLOCKING) == []


class TestScala40MoveByMove:
    """Turns of a Scala 40 hand entered on the phone, the referee checking each (S40-OPEN,
    S40-OPEN-PENALTY, S40-ADD)."""

    def _turn(self, page, meld: tuple[str, ...], discard: str) -> None:
        form = page.get_by_test_id("move-form")
        page.evaluate("window.scrollTo(0, 0)")
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        for face in meld:
            form.get_by_role("checkbox", name=face, exact=True).click()
        with page.expect_response(lambda response: "/moves/" in response.url):
            form.get_by_role("button", name="Lay melds").click()
        form.get_by_role("checkbox", name=discard, exact=True).click()
        with page.expect_response(lambda response: "/moves/" in response.url):
            form.get_by_role("button", name=f"Discard {discard}").click()

    def test_a_short_opening_goes_back_with_a_penalty_and_adding_waits_for_an_opening(
        self, new_phone
    ):
        page = new_phone(viewport={"width": 390, "height": 844})
        start_table(page, "Scala 40", ["Anna", "Bruno", "Carla"])
        page.get_by_text("Play the next hand move by move").click()
        page.get_by_test_id("upcard").fill("9D")
        page.get_by_role("button", name="Deal").click()
        form = page.get_by_test_id("move-form")
        expect(page.get_by_test_id("turn")).to_have_text("Bruno to draw.")

        # Bruno lays 10♠ J♠ Q♠: 30, short of 40 (S40-OPEN), and ends his turn on it: the
        # three go back into his hand, seen by all, and a failed opening is marked
        # (S40-OPEN-PENALTY). The table holds no meld.
        self._turn(page, ("10♠", "J♠", "Q♠"), "5♣")
        expect(page.get_by_test_id("turn")).to_have_text("Carla to draw.")
        bruno = page.get_by_test_id("play-seat-1")
        expect(bruno).to_contain_text("1 failed opening")
        expect(bruno).to_contain_text("13 cards")
        expect(page.get_by_test_id("table-melds")).to_have_text("No melds on the table yet.")

        # Carla opens with 10♥ J♥ Q♥ K♥ = 40 (S40-OPEN, VALUE).
        self._turn(page, ("10♥", "J♥", "Q♥", "K♥"), "2♦")
        expect(page.get_by_test_id("play-seat-2")).to_contain_text("opened")
        expect(page.get_by_test_id("turn")).to_have_text("Anna to draw.")

        # Anna has not opened: her 9♥ on Carla's run is refused where her thumb is (S40-ADD).
        tap_in_view(page, page.get_by_test_id("draw-stock"), posts=True)
        expect(page.get_by_test_id("meld-1")).to_have_text("#110♥J♥Q♥K♥")
        form.get_by_test_id("meld-1").click()
        form.get_by_role("checkbox", name="9♥", exact=True).click()
        form.get_by_role("button", name="Add to #1").click()
        alert = form.get_by_role("alert")
        expect(alert).to_contain_text("Anna has not opened yet: first lay an opening.")
        expect(alert.get_by_role("link", name="S40-ADD")).to_be_visible()
        expect(alert).to_be_in_viewport()
        expect(page.get_by_test_id("meld-1")).to_have_text("#110♥J♥Q♥K♥")
