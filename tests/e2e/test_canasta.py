"""A Canasta match of two sides on a phone, in Italian: the table started from the home form
with a short target, each hand entered on the side's sheet Canasta declares (canastas by
kind, red 3s, going out concealed), the winners named as their side; axe-clean in light and
dark (CAN-SCORE-1, CAN-RED3-1, CAN-OUT-2, CAN-MATCH-1)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.pairs_sheet import enter_sheet, start_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _start(page) -> None:
    start_table(page, "canasta", 1500)


def _sheet(page, sides: list[dict], went_out: int | None) -> None:
    enter_sheet(page, sides, "went_out", went_out)


class TestAMatchOfTwoSides:
    def test_two_hands_by_sheet_in_italian_to_the_sides_win(self, new_phone):
        page = new_phone("it-IT", viewport=PHONE)
        _start(page)
        expect(page.locator("#board")).to_contain_text("Anna & Carla")
        expect(page.locator("#hand-form")).to_contain_text("Canaste pulite")
        assert axe_violations(page, impacts=BLOCKING) == []
        # Hand 1: Anna & Carla go out concealed, 130 melded, a natural canasta: 130 + 500 +
        # 200 = 830. Bruno & Dario melded nothing, one red 3, 40 held: -100 - 40 = -140.
        _sheet(
            page,
            [
                {"melded": 130, "natural": 1, "concealed": True, "in_hand": 0},
                {"melded": 0, "red_threes": 1, "in_hand": 40},
            ],
            went_out=0,
        )
        expect(page.get_by_test_id("total-0")).to_have_text("830")
        expect(page.get_by_test_id("total-1")).to_have_text("-140")
        # Hand 2: the stock runs out. Anna & Carla 300 melded, a mixed canasta, 20 held:
        # 300 + 300 - 20 = 580, 1410 in all. Bruno & Dario 200 melded, two red 3s:
        # 200 + 200 = 400, 260 in all. 1410 is short of 1500: the match goes on.
        _sheet(
            page,
            [
                {"melded": 300, "mixed": 1, "in_hand": 20},
                {"melded": 200, "red_threes": 2, "in_hand": 0},
            ],
            went_out=None,
        )
        expect(page.get_by_test_id("total-0")).to_have_text("1410")
        expect(page.get_by_test_id("total-1")).to_have_text("260")
        # Hand 3: Anna & Carla go out, 100 melded and a natural canasta: 100 + 500 + 100 =
        # 700, 2110; Bruno & Dario 50 melded, 10 held: 40, 300. CAN-MATCH-1: the side wins.
        _sheet(
            page,
            [
                {"melded": 100, "natural": 1, "in_hand": 0},
                {"melded": 50, "in_hand": 10},
            ],
            went_out=0,
        )
        expect(page.get_by_test_id("total-0")).to_have_text("2110")
        expect(page.get_by_test_id("winner")).to_contain_text("Anna & Carla")
        assert axe_violations(page, impacts=BLOCKING) == []
        page.emulate_media(color_scheme="dark")
        assert axe_violations(page, impacts=BLOCKING) == []


class TestTheRefereesFirstMeld:
    def test_the_sides_score_is_asked_and_its_error_said_beside_it_can_open_1(self, new_phone):
        page = new_phone("it-IT", viewport=PHONE)
        page.goto("/referee/")
        page.locator("input[name=variant][value=canasta]").check()
        page.locator("select[name=players]").select_option("4")
        page.locator("input[name=question][value=opening]").check()
        total = page.get_by_test_id("opening-total")
        expect(total).to_be_visible()
        page.locator("textarea[name=melds]").fill("KS KD KC 2H")
        page.get_by_role("button", name="Chiedi all'arbitro").click()
        # No score given: the error is beside the field, and the field names it.
        error = page.get_by_test_id("opening-total-error")
        expect(error).to_contain_text("punteggio della coppia prima della mano")
        expect(total).to_have_attribute("aria-describedby", "id_total_error")
        assert axe_violations(page, impacts=BLOCKING) == []
        # A side on 1600 needs 90: K K K 30 + 2 20 = 50 is short.
        total.fill("1600")
        page.get_by_role("button", name="Chiedi all'arbitro").click()
        answer = page.get_by_test_id("answer")
        expect(answer.get_by_test_id("verdict")).to_contain_text("Non regolare")
        expect(answer.get_by_test_id("value")).to_have_text("50")
        expect(page.get_by_test_id("opening-total-error")).to_have_count(0)
        # The field is Canasta's: under Burraco it is gone.
        page.locator("input[name=variant][value=burraco]").check()
        expect(total).to_be_hidden()
