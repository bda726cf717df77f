"""What the page tests share: a phone, the browser-less client that opens the pages."""

import pytest
from django.test import Client


@pytest.fixture
def phone(db):
    """A phone with no session yet: a plain test client on the test database."""
    return Client()
