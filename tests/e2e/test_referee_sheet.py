"""The referee page on a phone asks a Burraco hand's score one sheet a pair, in English and
in Italian: the answer, then a refusal said by the box it names, with axe clean."""

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAIR_1, PAIR_2 = "Pair 1 (seats 1 & 3)", "Pair 2 (seats 2 & 4)"


def _sheet(page):
    """Burraco's boxes (each sheet game's are drawn, the chosen game's shown)."""
    return page.locator('#score-sheet [data-game="burraco"]')


def _fill(page, pair: str, melded: str, in_hand: str, label_melded: str, label_hand: str):
    _sheet(page).get_by_label(f"{pair}: {label_melded}").fill(melded)
    _sheet(page).get_by_label(f"{pair}: {label_hand}").fill(in_hand)


def test_an_english_phone_scores_a_burraco_hand_and_is_told_what_is_wrong(new_phone):
    page = new_phone()
    page.goto("/referee/")
    page.get_by_role("radio", name="Burraco", exact=True).check()
    page.get_by_label("What does this hand score?").check()
    # The seats' cards are another game's question; the pairs' sheet is Burraco's.
    expect(page.locator('[data-player="0"]').get_by_label("Cards still in hand")).to_be_hidden()
    _fill(page, PAIR_1, "235", "0", "Points melded", "Points left in hand")
    _fill(page, PAIR_2, "120", "45", "Points melded", "Points left in hand")
    _sheet(page).get_by_label(f"{PAIR_1}: Clean burracos").fill("1")
    _sheet(page).get_by_label(f"{PAIR_1}: Took its pozzetto").check()
    _sheet(page).get_by_label(f"{PAIR_2}: Took its pozzetto").check()
    _sheet(page).get_by_label(PAIR_1, exact=True).check()
    page.get_by_role("button", name="Ask the referee").click()
    # BUR-SCORE: 235 + 200 (pulito) + 100 (closing) - 0 = 535; 120 - 45 = 75.
    points = page.get_by_test_id("points")
    expect(points.locator("tr", has_text=PAIR_1)).to_contain_text("535")
    expect(points.locator("tr", has_text=PAIR_2)).to_contain_text("75")
    assert axe_violations(page, impacts=BLOCKING, best_practice=True) == []

    # BUR-BURRACO: 20 melded cannot hold a clean burraco (seven cards, 35 at least).
    _sheet(page).get_by_label(f"{PAIR_1}: Points melded").fill("20")
    page.get_by_role("button", name="Ask the referee").click()
    error = page.get_by_test_id("burraco__s0_melded-error")
    expect(error).to_contain_text("35 at least")
    expect(_sheet(page).get_by_label(f"{PAIR_1}: Points melded")).to_have_attribute(
        "aria-describedby", "id_burraco__s0_melded_error"
    )
    expect(page.get_by_test_id("verdict")).to_contain_text("cannot be scored")
    assert axe_violations(page, impacts=BLOCKING, best_practice=True) == []


def test_an_italian_phone_scores_a_hand_the_stock_ended(new_phone):
    page = new_phone(locale="it-IT")
    page.goto("/referee/")
    page.get_by_role("radio", name="Burraco", exact=True).check()
    page.get_by_label("Quanti punti fa questa mano?").check()
    first, second = "Coppia 1 (posti 1 & 3)", "Coppia 2 (posti 2 & 4)"
    _fill(page, first, "150", "30", "Punti calati", "Punti rimasti in mano")
    _fill(page, second, "90", "60", "Punti calati", "Punti rimasti in mano")
    _sheet(page).get_by_label(f"{first}: Ha preso il pozzetto").check()
    page.get_by_role("button", name="Chiedi all'arbitro").click()
    # BUR-STOCK: nobody closed. 150 - 30 = 120; 90 - 60 - 100 (no pozzetto) = -70.
    points = page.get_by_test_id("points")
    expect(points.locator("tr", has_text=first)).to_contain_text("120")
    expect(points.locator("tr", has_text=second)).to_contain_text("-70")
    assert axe_violations(page, impacts=BLOCKING, best_practice=True) == []
