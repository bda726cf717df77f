"""Every rule a refusal cites is a link to its entry, in the phone's language."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _refused_knock(page, start, names):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label(names["player"] + " 1").fill("Anna")
    page.get_by_label(names["player"] + " 2").fill("Bruno")
    page.get_by_role("button", name=start).click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
    form = page.locator("#hand-form")
    form.get_by_label("Anna", exact=True).check()
    form.locator("input[name=ending][value=knock]").check()
    form.locator("input[name=knocker_count]").fill("14")
    form.locator("input[name=defender_count]").fill("20")
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize(
    ("locale", "start", "names", "title"),
    [
        ("en-US", "Start the table", {"player": "Player"}, "Knocking"),
        ("it-IT", "Inizia la partita", {"player": "Giocatore"}, "Bussare"),
    ],
)
def test_a_refusal_links_to_its_rule_in_the_phones_language(new_phone, locale, start, names, title):
    page = new_phone(locale=locale)
    _refused_knock(page, start, names)
    link = page.get_by_test_id("form-alert").get_by_role("link", name="GIN-KNOCK")
    link.click()
    expect(page).to_have_url(re.compile(r"/rules/gin/#GIN-KNOCK$"))
    entry = page.locator("#GIN-KNOCK")
    expect(entry).to_be_in_viewport()
    expect(entry.locator("h3")).to_contain_text(title)


def test_a_referee_answer_links_to_its_rule(new_phone):
    page = new_phone(locale="it-IT")
    page.goto("/referee/")
    page.get_by_label("Questa combinazione è regolare?").check()
    page.locator("input[name=cards]").fill("QS KS AS")
    page.get_by_role("button", name="Chiedi all'arbitro").click()
    page.get_by_test_id("answer").get_by_role("link", name="ACE-HIGH").first.click()
    expect(page).to_have_url(re.compile(r"/rules/#ACE-HIGH$"))
    expect(page.locator("#ACE-HIGH")).to_be_in_viewport()
    expect(page.locator("#ACE-HIGH")).to_contain_text("asso")
