"""A real Chromium (Debian's) driven by Playwright against the live test server."""

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; the test itself only reads
# the database through the live server, so Django's async guard has nothing to protect here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser, live_server):
    """Open a fresh phone-sized browser (its own cookies) in the given language."""
    contexts = []

    def open_phone(locale: str = "en-US"):
        context = browser.new_context(
            viewport=PHONE, locale=locale, is_mobile=True, has_touch=True, base_url=live_server.url
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
