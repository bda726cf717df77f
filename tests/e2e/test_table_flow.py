"""The flow at a real table: two phones taking turns, conflicts, errors by the thumb, and
a quick hand in a handful of taps with the totals in view."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import share_link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin_table(page):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def _second_phone(new_phone, first):
    second = new_phone()
    second.goto(share_link(first, "scorekeeper"))
    expect(second.get_by_test_id("total-0")).to_be_visible()
    return second


class Taps:
    """Count what the player does: each tap, and each field typed in."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator):
        locator.click()
        self.count += 1

    def type(self, locator, text):
        locator.fill(text)
        self.count += 1


def _gin(page, taps, who, defender):
    """A gin by ``who``, the defender left with ``defender`` points: 25 + defender (GIN-GIN)."""
    form = page.locator("#hand-form")
    taps.tap(form.get_by_label(who, exact=True))
    taps.tap(form.get_by_label("Gin", exact=True))
    taps.type(form.get_by_label("Defender's deadwood, after lay-offs"), str(defender))
    taps.tap(form.get_by_role("button", name="Record hand"))


def test_two_phones_take_turns_for_six_hands_and_every_save_works_first_time(new_phone):
    anna_phone = new_phone()
    _start_gin_table(anna_phone)
    bruno_phone = _second_phone(new_phone, anna_phone)
    phones = [anna_phone, bruno_phone]
    totals = [0, 0]
    hands = [("Anna", 4), ("Bruno", 6), ("Anna", 1), ("Bruno", 3), ("Anna", 2), ("Bruno", 5)]
    for number, (who, defender) in enumerate(hands, start=1):
        phone, other = phones[(number - 1) % 2], phones[number % 2]
        seat = 0 if who == "Anna" else 1
        totals[seat] += 25 + defender
        with phone.expect_response(re.compile(r"/hands/$")) as saved:
            _gin(phone, Taps(phone), who, defender)
        # Answered with the board and the news (the history not sent again whole), landing
        # where the form says: no header moves it.
        assert saved.value.request.headers.get("hx-target") == "board"
        assert "hx-retarget" not in saved.value.headers
        assert len(saved.value.body()) <= 8 * 1024
        # The save worked on the first tap: the total moved, no conflict, no refusal.
        expect(phone.get_by_test_id(f"total-{seat}")).to_have_text(str(totals[seat]))
        expect(phone.get_by_test_id("conflict")).to_have_count(0)
        expect(phone.get_by_test_id("form-alert")).to_have_count(0)
        # The other phone's board shows it before that phone records the next hand.
        expect(other.get_by_test_id(f"total-{seat}")).to_have_text(str(totals[seat]))
    assert totals == [25 * 3 + 7, 25 * 3 + 14]
    for phone in phones:
        # Each hand once, newest first, whether it came with a save or with a poll's news.
        expect(phone.locator("#history li.hand")).to_have_count(6)
        numbers = phone.locator("#history li.hand").evaluate_all(
            "items => items.map(li => li.dataset.hand)"
        )
        assert numbers == ["6", "5", "4", "3", "2", "1"]


def _both_record_hand_one(new_phone):
    anna_phone = new_phone()
    _start_gin_table(anna_phone)
    bruno_phone = _second_phone(new_phone, anna_phone)
    # Bruno starts typing hand 1 before Anna's save reaches his board.
    form = bruno_phone.locator("#hand-form")
    form.get_by_label("Bruno", exact=True).check()
    form.get_by_label("Gin", exact=True).check()
    form.get_by_label("Defender's deadwood, after lay-offs").fill("9")
    _gin(anna_phone, Taps(anna_phone), "Anna", 10)
    expect(anna_phone.get_by_test_id("total-0")).to_have_text("35")
    form.get_by_role("button", name="Record hand").click()
    conflict = bruno_phone.get_by_test_id("conflict")
    expect(conflict).to_contain_text("Another phone has just recorded hand 1")
    expect(conflict).to_contain_text("Anna")
    expect(conflict).to_be_in_viewport()
    expect(conflict).to_be_focused()
    return anna_phone, bruno_phone


def test_a_real_conflict_kept_theirs_in_one_tap(new_phone):
    _anna_phone, bruno_phone = _both_record_hand_one(new_phone)
    bruno_phone.get_by_test_id("keep-theirs").click()
    expect(bruno_phone.get_by_test_id("conflict")).to_have_count(0)
    expect(bruno_phone.get_by_test_id("total-0")).to_have_text("35")
    expect(bruno_phone.get_by_test_id("total-1")).to_have_text("0")
    expect(bruno_phone.locator("#history li.hand")).to_have_count(1)


def test_a_real_conflict_recorded_as_the_next_hand_in_one_tap(new_phone):
    anna_phone, bruno_phone = _both_record_hand_one(new_phone)
    bruno_phone.get_by_test_id("record-mine").click()
    # Bruno's gin with Anna on 9: 25 + 9 = 34, as hand 2.
    expect(bruno_phone.get_by_test_id("total-1")).to_have_text("34")
    expect(bruno_phone.get_by_test_id("total-0")).to_have_text("35")
    expect(bruno_phone.locator("#history li.hand")).to_have_count(2)
    expect(anna_phone.get_by_test_id("total-1")).to_have_text("34")


def test_a_refused_save_is_shown_by_the_button_and_focused(new_phone):
    page = new_phone()
    _start_gin_table(page)
    form = page.locator("#hand-form")
    form.get_by_label("Anna", exact=True).check()
    form.get_by_label("Knock", exact=True).check()
    form.get_by_label("Knocker's deadwood").fill("14")
    form.get_by_label("Defender's deadwood, after lay-offs").fill("20")
    form.get_by_role("button", name="Record hand").click()
    alert = page.get_by_test_id("form-alert")
    expect(alert).to_contain_text("GIN-KNOCK")
    expect(alert).to_be_in_viewport()
    expect(alert).to_be_focused()
    expect(page.get_by_test_id("total-0")).to_have_text("0")


def test_a_quick_gin_hand_takes_five_actions_and_leaves_the_totals_in_view(new_phone):
    page = new_phone()
    _start_gin_table(page)
    taps = Taps(page)
    form = page.locator("#hand-form")
    # A knock: who, how, both counts, Record. Anna knocks with 3 against 20: 17 (GIN-KNOCK).
    taps.tap(form.get_by_label("Anna", exact=True))
    taps.tap(form.get_by_label("Knock", exact=True))
    taps.type(form.get_by_label("Knocker's deadwood"), "3")
    taps.type(form.get_by_label("Defender's deadwood, after lay-offs"), "20")
    taps.tap(form.get_by_role("button", name="Record hand"))
    assert taps.count <= 5
    expect(page.get_by_test_id("total-0")).to_have_text("17")
    expect(page.get_by_test_id("total-0")).to_be_in_viewport()
    expect(page.get_by_test_id("total-1")).to_be_in_viewport()
    # The counts are typed on the number pad.
    assert form.get_by_label("Knocker's deadwood").get_attribute("inputmode") == "numeric"


def test_the_ramino_tap_picker_marks_and_names_the_field_it_types_into(new_phone):
    from tests.e2e.conftest import start_table

    page = new_phone()
    start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
    form = page.locator("#hand-form")
    target = form.get_by_test_id("picker-target")
    # Before any touch, the first card field is the one marked.
    expect(target).to_contain_text("Anna")
    bruno = form.locator('[data-seat-row="1"] input[data-cards]').first
    bruno.click()
    expect(bruno).to_have_class(re.compile(r"\bpicking\b"))
    for card in ("KH", "QH", "5C"):
        form.locator(f"[data-tap-picker] [data-card='{card}']").click()
    expect(bruno).to_have_value("KH QH 5C")
    expect(target).to_contain_text("Bruno")
    expect(target).to_contain_text("KH QH 5C")
    # The buttons moved to Bruno's field: right below it, not below every player's fields.
    field = bruno.bounding_box()
    picker = form.locator("[data-tap-picker]").bounding_box()
    assert 0 <= picker["y"] - (field["y"] + field["height"]) < 60


def test_a_gin_hand_by_cards_takes_fifteen_taps_on_one_picker(new_phone):
    page = new_phone()
    _start_gin_table(page)
    taps = Taps(page)
    form = page.locator("#hand-form")
    picker = form.locator("[data-one-picker]")
    taps.tap(form.get_by_label("Cards", exact=True))
    taps.tap(form.get_by_label("Anna", exact=True))
    echo = picker.get_by_test_id("hand-echo")
    expect(echo).to_have_text("Knocker · Anna: —")
    taps.tap(picker.get_by_role("button", name="Runs"))
    # Anna goes gin: Q♣ Q♦ Q♥ (the four queens, then the spade taken back), 3♠–6♠, 9♥–J♥.
    for button in ("rank:Q", "QS", "3S", "6S", "9H", "JH"):
        if button.startswith("rank:"):
            taps.tap(picker.locator(f"[data-rank='{button[5:]}']"))
        else:
            taps.tap(picker.locator(f"[data-card='{button}']"))
    # Ten cards: the picker moved on to Bruno by itself, and Anna's cards are out of reach.
    expect(echo).to_have_text("Defender · Bruno: —")
    expect(picker.locator("[data-card='QH']")).to_be_disabled()
    # Bruno: four kings, 7♦–10♦, and 2♣ 5♥ loose: 7 points of deadwood.
    taps.tap(picker.locator("[data-rank='K']"))
    for card in ("7D", "10D", "2C", "5H"):
        taps.tap(picker.locator(f"[data-card='{card}']"))
    expect(echo).to_have_text("Defender · Bruno: 2♣ K♣ K♠ 5♥ K♥ 7♦ 8♦ 9♦ 10♦ K♦")
    expect(picker.locator("[data-hand='defender_cards'] [data-hand-count]")).to_have_text("10/10")
    taps.tap(form.get_by_role("button", name="Record hand"))
    assert taps.count <= 15
    # Gin: 25 + Bruno's 7 (GIN-SCORE-GIN).
    expect(page.get_by_test_id("total-0")).to_have_text("32")
    expect(page.get_by_test_id("total-0")).to_be_in_viewport()
    # The next hand starts as this one was entered, by cards; who ends it is chosen afresh.
    expect(form.get_by_label("Cards", exact=True)).to_be_checked()
    expect(form.get_by_label("Anna", exact=True)).not_to_be_checked()


def test_the_one_picker_takes_every_card_where_the_ending_keeps_them(new_phone):
    # GIN-BIGGIN: going out with all 11 cards, no discard, so the knocker's hand holds 11
    # (the 10 dealt and the one drawn); any other ending keeps the 10 after the discard.
    page = new_phone()
    _start_gin_table(page)
    form = page.locator("#hand-form")
    picker = form.locator("[data-one-picker]")
    form.get_by_label("Cards", exact=True).click()
    form.get_by_label("Anna", exact=True).click()
    count = picker.locator("[data-hand='knocker_cards'] [data-hand-count]")
    expect(count).to_have_text("0/10")
    form.get_by_label("Big Gin", exact=True).click()
    expect(count).to_have_text("0/11")
    picker.get_by_role("button", name="Runs").click()
    # A♠–10♠ is ten cards: short of Big Gin's eleven, the picker stays on Anna's hand.
    picker.locator("[data-card='AS']").click()
    picker.locator("[data-card='10S']").click()
    echo = picker.get_by_test_id("hand-echo")
    expect(count).to_have_text("10/11")
    expect(echo).to_contain_text("Knocker · Anna")
    picker.get_by_role("button", name="Runs").click()
    picker.locator("[data-card='JS']").click()
    expect(count).to_have_text("11/11")
    expect(echo).to_have_text("Defender · Bruno: —")
    # Back to a gin: the same eleven are one more than the hand holds.
    form.get_by_label("Gin", exact=True).click()
    expect(count).to_have_text("11/10")


def test_only_a_knock_asks_for_the_knockers_count(new_phone):
    # GIN-KNOCK scores the difference of two counts; gin and Big Gin score the defender's
    # count alone (GIN-SCORE-GIN, the knocker keeps 0), and the wall scores nothing.
    page = new_phone()
    _start_gin_table(page)
    form = page.locator("#hand-form")
    knocker, defender = (
        form.get_by_label("Knocker's deadwood"),
        form.get_by_label("Defender's deadwood, after lay-offs"),
    )
    for ending, knocker_shown, defender_shown in (
        ("Knock", True, True),
        ("Gin", False, True),
        ("Big Gin", False, True),
        ("Wall (no score)", False, False),
    ):
        form.get_by_label(ending, exact=True).click()
        expect(knocker).to_be_visible(visible=knocker_shown)
        expect(defender).to_be_visible(visible=defender_shown)


def test_the_one_picker_undoes_a_whole_run_and_can_switch_hands(new_phone):
    page = new_phone()
    _start_gin_table(page)
    form = page.locator("#hand-form")
    picker = form.locator("[data-one-picker]")
    form.get_by_label("Cards", exact=True).click()
    form.get_by_label("Bruno", exact=True).click()
    picker.get_by_role("button", name="Runs").click()
    picker.locator("[data-card='AC']").click()
    picker.locator("[data-card='4C']").click()
    echo = picker.get_by_test_id("hand-echo")
    expect(echo).to_have_text("Knocker · Bruno: A♣ 2♣ 3♣ 4♣")
    picker.get_by_role("button", name="Undo").click()
    expect(echo).to_have_text("Knocker · Bruno: A♣")
    # A tap on the other hand makes it the one cards go to; the form posts both hands.
    picker.locator("[data-hand='defender_cards']").click()
    picker.locator("[data-card='AS']").click()
    expect(echo).to_have_text("Defender · Anna: A♠")
    assert form.locator("[data-picker='knocker_cards'] input:checked").evaluate_all(
        "boxes => boxes.map(b => b.value)"
    ) == ["AC"]
    assert form.locator("[data-picker='defender_cards'] input:checked").evaluate_all(
        "boxes => boxes.map(b => b.value)"
    ) == ["AS"]
