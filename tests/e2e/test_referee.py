"""The referee page on a phone, in English and in Italian, with the tap card picker."""

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _tap(page, cards: str):
    for card in cards.split():
        page.locator(f"[data-tap-picker] [data-card='{card}']").click()


class TestRefereePage:
    def test_an_english_phone_asks_about_a_gin_hand_by_tapping_cards(self, new_phone):
        page = new_phone()
        page.goto("/referee/")
        page.get_by_label("Best arrangement and count").check()
        page.locator("input[name=cards]").click()
        _tap(page, "AS 2S 3S 4C 5C 6C 7H 8H 9H KD")
        expect(page.locator("input[name=cards]")).to_have_value("AS 2S 3S 4C 5C 6C 7H 8H 9H KD")
        page.get_by_role("button", name="Ask the referee").click()
        answer = page.get_by_test_id("answer")
        expect(answer.get_by_test_id("deadwood")).to_have_text("10")
        expect(answer).to_contain_text("GIN-DEADWOOD")

    def test_an_italian_phone_is_told_why_a_meld_is_illegal(self, new_phone):
        page = new_phone(locale="it-IT")
        page.goto("/referee/")
        page.get_by_label("Questa combinazione è regolare?").check()
        page.locator("input[name=cards]").fill("QS KS AS")
        page.get_by_role("button", name="Chiedi all'arbitro").click()
        answer = page.get_by_test_id("answer")
        expect(answer.get_by_test_id("verdict")).to_contain_text("Non regolare")
        expect(answer).to_contain_text("ACE-HIGH")
        expect(answer).to_contain_text("asso")

    def test_a_knock_rummy_round_is_scored_for_three_players(self, new_phone):
        page = new_phone()
        page.goto("/referee/")
        page.get_by_label("Knock Rummy").check()
        page.get_by_label("What does this hand score?").check()
        page.get_by_label("Players").select_option("3")
        expect(page.locator('[data-player="3"]')).to_be_hidden()
        for index, (name, hand) in enumerate([("Anna", "4C"), ("Bruno", "2C"), ("Carla", "9D")]):
            row = page.locator(f'[data-player="{index}"]')
            row.get_by_label("Name").fill(name)
            row.get_by_label("Cards still in hand").fill(hand)
        page.locator('[data-player="0"]').get_by_label("knocked").check()
        page.get_by_role("button", name="Ask the referee").click()
        # KR-SCORE: Bruno's 2 beats 4 and 9 by 2 + 7 = 9; KR-UNDERCUT: he did not knock, +10.
        points = page.get_by_test_id("points")
        expect(points.locator("tr", has_text="Bruno")).to_contain_text("19")
        expect(page.get_by_test_id("answer")).to_contain_text("KR-UNDERCUT")

    def test_an_oklahoma_hand_asks_for_its_upcard_and_doubles_under_a_spade(self, new_phone):
        page = new_phone()
        page.goto("/referee/")
        page.get_by_label("What does this hand score?").check()
        upcard = page.get_by_label("Upcard at the deal")
        expect(upcard).to_be_hidden()  # Big Gin, the default, turns nothing up that counts
        page.get_by_label("Oklahoma", exact=True).check()
        expect(upcard).to_be_visible()
        for index, (name, hand) in enumerate(
            [("Anna", "7S 8S 9S KC KH KD 2C 3C 4C 5H"), ("Bruno", "5S 6S 10S JS KS 8C 8H 8D QH 2D")]
        ):
            row = page.locator(f'[data-player="{index}"]')
            row.get_by_label("Name").fill(name)
            row.get_by_label("Cards still in hand").fill(hand)
        page.locator('[data-player="0"]').get_by_label("knocked").check()
        upcard.fill("QS")
        page.get_by_role("button", name="Ask the referee").click()
        # GIN-OKLAHOMA, GIN-LAYOFF, GIN-SPADES: Bruno lays off to Q♥ 2♦ = 12; 12 - 5 = 7, x2.
        points = page.get_by_test_id("points")
        expect(points.locator("tr", has_text="Anna")).to_contain_text("14")
        expect(page.get_by_test_id("answer")).to_contain_text("GIN-SPADES")
        page.get_by_label("American", exact=True).check()
        expect(upcard).to_be_hidden()


class TestTheAnswerIsAlwaysTheLastQuestions:
    def test_a_refusal_replaces_the_previous_verdict(self, new_phone):
        page = new_phone()
        page.goto("/referee/")
        page.get_by_label("Is this meld legal?").check()
        cards = page.locator("input[name=cards]")
        answer = page.get_by_test_id("answer")
        ask = page.get_by_role("button", name="Ask the referee")

        cards.fill("7S 8S 9S")
        ask.click()
        expect(answer.get_by_test_id("verdict")).to_contain_text("Legal")

        # A card that does not exist: the error names it, and "Legal" is gone.
        cards.fill("7S 8S 10X JK")
        ask.click()
        expect(answer.get_by_role("alert")).to_contain_text("10X")
        expect(answer.get_by_test_id("verdict")).to_have_count(0)

        cards.fill("7S 8S 9S")
        ask.click()
        expect(answer.get_by_test_id("verdict")).to_contain_text("Legal")

        # An empty question is answered too: what is missing, and no verdict.
        cards.fill("")
        ask.click()
        expect(answer.get_by_role("alert")).to_be_visible()
        expect(answer.get_by_test_id("verdict")).to_have_count(0)

    def test_an_oversized_hand_replaces_the_previous_answer(self, new_phone):
        page = new_phone()
        page.goto("/referee/")
        page.get_by_label("Best arrangement and count").check()
        cards = page.locator("input[name=cards]")
        answer = page.get_by_test_id("answer")
        cards.fill("AS 2S 3S 4C 5C 6C 7H 8H 9H KD")
        page.get_by_role("button", name="Ask the referee").click()
        expect(answer.get_by_test_id("deadwood")).to_have_text("10")

        cards.fill(" ".join(f"{rank}{suit}" for suit in "SHDC" for rank in "A23456789") + " 10S")
        page.get_by_role("button", name="Ask the referee").click()
        expect(answer.get_by_role("alert")).to_contain_text("LIMITS")
        expect(answer.get_by_test_id("deadwood")).to_have_count(0)


class TestUpcardPicker:
    """GIN-OKLAHOMA's upcard picked from a grid of suits and ranks, by thumb or keyboard."""

    def _oklahoma_hand(self, page):
        page.goto("/referee/")
        page.get_by_label("What does this hand score?").check()
        page.get_by_label("Oklahoma", exact=True).check()
        for index, (name, hand) in enumerate(
            [("Anna", "7S 8S 9S KC KH KD 2C 3C 4C 5H"), ("Bruno", "5S 6S 10S JS KS 8C 8H 8D QH 2D")]
        ):
            row = page.locator(f'[data-player="{index}"]')
            row.get_by_label("Name").fill(name)
            row.get_by_label("Cards still in hand").fill(hand)
        page.locator('[data-player="0"]').get_by_label("knocked").check()

    def test_the_upcard_is_picked_by_thumb_suit_then_rank(self, new_phone):
        page = new_phone()
        self._oklahoma_hand(page)
        picker = page.locator("[data-upcard-picker]")
        expect(picker).to_be_visible()
        picker.get_by_role("group", name="Suit").get_by_role("button", name="♠").click()
        expect(page.get_by_test_id("upcard")).to_have_value("")  # a suit alone is no card
        picker.get_by_role("group", name="Rank").get_by_role("button", name="Q", exact=True).click()
        expect(page.get_by_test_id("upcard")).to_have_value("Q♠")
        for button in picker.locator("button").all():
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, button.inner_text()
        page.get_by_role("button", name="Ask the referee").click()
        # GIN-OKLAHOMA, GIN-LAYOFF, GIN-SPADES: Bruno lays off to Q♥ 2♦ = 12; 12 - 5 = 7, x2.
        points = page.get_by_test_id("points")
        expect(points.locator("tr", has_text="Anna")).to_contain_text("14")
        expect(page.get_by_test_id("answer")).to_contain_text("GIN-SPADES")

    def test_the_upcard_picker_works_from_the_keyboard_in_italian(self, new_phone):
        page = new_phone(locale="it-IT")
        page.goto("/referee/")
        page.locator("input[name=question][value=score]").check()
        page.get_by_label("Oklahoma", exact=True).check()
        picker = page.locator("[data-upcard-picker]")
        picker.get_by_role("button", name="♣").focus()
        page.keyboard.press("Enter")
        picker.get_by_role("group", name="Valore").get_by_role("button", name="7").focus()
        page.keyboard.press("Space")
        # Clubs written with the symbol: in Italian 7C would be read as the 7 of cuori.
        expect(page.get_by_test_id("upcard")).to_have_value("7♣")
        expect(picker.get_by_role("button", name="♣")).to_have_attribute("aria-pressed", "true")
        expect(picker).to_contain_text("Oppure sceglila: un seme, poi un valore.")

    @pytest.mark.parametrize("scheme", ["light", "dark"])
    def test_the_page_with_its_upcard_picker_is_axe_clean(self, new_phone, scheme):
        page = new_phone(color_scheme=scheme)
        self._oklahoma_hand(page)
        page.locator("[data-upcard-picker] [data-suit='♥']").click()
        page.locator("[data-upcard-picker] [data-rank='A']").click()
        expect(page.get_by_test_id("upcard")).to_have_value("A♥")
        assert axe_violations(page, impacts=BLOCKING, best_practice=True) == []
