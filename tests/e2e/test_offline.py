"""The installable app in a real Chromium: installable, and a table opened once still opens
with the browser's own offline switch on."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_gin_table(page):
    page.goto("/")
    page.get_by_label("Big Gin", exact=True).check()
    page.get_by_label("Player 1").fill("Anna")
    page.get_by_label("Player 2").fill("Bruno")
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def _wait_for_the_worker(page):
    # The worker takes over once it is active; from then on it sees every navigation.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_chromium_finds_nothing_missing_to_install_the_app(new_phone):
    page = new_phone()
    page.goto("/")
    _wait_for_the_worker(page)
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where no browser installs apps; any other reason
    # (no manifest, no icon of 192 or 512 pixels, no worker answering offline) is the site's.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == []


def test_a_table_opened_once_opens_again_offline(new_phone):
    page = new_phone()
    _start_gin_table(page)
    table_url = page.url
    _wait_for_the_worker(page)
    page.reload()  # this visit goes through the worker, which keeps the page

    page.context.set_offline(True)
    page.goto("/")  # the home page was kept too; then back to the table, as a player would
    page.goto(table_url)
    expect(page.get_by_text("Anna").first).to_be_visible()
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    expect(page.get_by_role("status").filter(has_text="Offline")).to_be_visible()

    # A page never opened on this phone: the offline page, listing the table kept here.
    page.goto("/clubs/")
    expect(page.get_by_test_id("offline-page")).to_be_visible()
    expect(page.get_by_role("link", name="Anna – Bruno")).to_have_attribute(
        "href", re.compile(r"^/t/[0-9a-f-]+/$")
    )

    page.context.set_offline(False)
    page.goto(table_url)
    expect(page.get_by_role("status").filter(has_text="Offline")).to_be_hidden()


def test_a_save_with_no_connection_says_nothing_was_saved(new_phone):
    page = new_phone()
    _start_gin_table(page)
    _wait_for_the_worker(page)
    page.context.set_offline(True)
    form = page.locator("#hand-form")
    form.get_by_label("Anna", exact=True).check()
    form.get_by_label("Gin", exact=True).check()
    form.get_by_label("Defender's deadwood, after lay-offs").fill("12")
    form.get_by_role("button", name="Record hand").click()

    notice = page.get_by_role("alert").filter(has_text="nothing was saved")
    expect(notice).to_be_visible()
    expect(notice).to_be_in_viewport()
    # What was typed is still in the form, ready to send again.
    expect(form.get_by_label("Defender's deadwood, after lay-offs")).to_have_value("12")
