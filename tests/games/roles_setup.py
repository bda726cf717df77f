"""The runtime database role as `manage.py db_roles` makes it, and connections as it
(PostgreSQL only), for the tests of what that role can and cannot change."""

import psycopg
from django.db import connection


def connect_as(role: str) -> psycopg.Connection:
    """Connect to the test database as ``role``, each statement committed on its own."""
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    )
