"""What the project-level tests share: quick password hashing and a user who can sign in."""

import pytest

from tests.factories import UserWithPasswordFactory


@pytest.fixture
def fast_password_hashing(settings):
    """Hash passwords with MD5 for the test: tests of dozens of sign-ins check the guard, the
    lock-out or the proxies, never how slowly a password hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def mara(db):
    """A user named mara with the factories' password."""
    return UserWithPasswordFactory(username="mara")
