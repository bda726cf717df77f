"""A fresh PostgreSQL database for a bench section, dropped after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

PG_SERVER = "postgresql://postgres@127.0.0.1:5432"


class Unavailable(Exception):
    """A server the section needs does not answer: it is skipped, which is no failure."""


def first_line(exc: Exception) -> str:
    """Return the first line of an error's message, or its type's name."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@contextmanager
def postgres_database(name: str) -> Iterator[str]:
    """Create a fresh database, yield its URL and drop it; Unavailable if PostgreSQL does
    not answer (127.0.0.1:5432, user postgres) or refuses to create it."""
    import psycopg
    from psycopg import sql

    try:
        server = psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        raise Unavailable(f"{PG_SERVER} does not answer: {first_line(exc)}") from None
    ident = sql.Identifier(name)
    # FORCE: a server process or worker killed mid-way may leave its connection behind.
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(ident)
    with server:
        try:
            server.execute(drop)
            server.execute(sql.SQL("CREATE DATABASE {}").format(ident))
        except psycopg.Error as exc:
            raise Unavailable(f"cannot create {name}: {first_line(exc)}") from None
        try:
            yield f"{PG_SERVER}/{name}"
        finally:
            server.execute(drop)
