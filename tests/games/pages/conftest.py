"""What the page tests share: a phone, the browser-less client that opens the pages."""

import pytest
from django.test import Client

from tests.push_engine import SIG_KEY


@pytest.fixture
def phone(db):
    """A phone with no session yet: a plain test client on the test database."""
    return Client()


@pytest.fixture
def phone_with_push_on(db, settings):
    """A phone at a site with live updates on (docs/live.md); nothing is published for real:
    the address is a closed port, and tests that count pushes catch the sender."""
    settings.PUSH_URL = "http://127.0.0.1:9"
    settings.PUSH_SIG_KEY = SIG_KEY
    return Client()
