"""What the API tests share: the OpenAPI schema the API serves."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture(scope="module")
def api_schema(django_db_blocker):
    """The API's OpenAPI schema as JSON, fetched once a module."""
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()
