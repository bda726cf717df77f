"""The log's hash chain is keyed (HMAC with LOG_CHAIN_KEY, outside the database): a log
rewritten with a chain recomputed without the key does not verify."""

import hashlib
import importlib
import json
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from games.tables import audit
from games.tables.log import canonical_event, hashed_fields
from tests.factories import TableFactory
from tests.payloads import quick

pytestmark = pytest.mark.django_db
rechain_migration = importlib.import_module("games.migrations.0007_keyed_log_chain")


def _rewrite(table, *, payloads: dict[int, dict] | None = None, rehash: bool = True) -> None:
    """Rewrite a table's rows as someone with the database but not the key could: change
    payloads, then (``rehash``) recompute the whole chain with plain SHA-256."""
    prev = ""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The append-only trigger refuses every UPDATE; a superuser steps round it.
            cursor.execute("SET LOCAL session_replication_role = replica")
        for event in table.events.order_by("seq"):
            event.payload = (payloads or {}).get(event.seq, event.payload)
            plain = hashlib.sha256(
                (prev + canonical_event(**hashed_fields(event))).encode()
            ).hexdigest()
            new_prev, new_hash = (prev, plain) if rehash else (event.prev_hash, event.hash)
            cursor.execute(
                "UPDATE games_event SET payload = %s, prev_hash = %s, hash = %s WHERE id = %s",
                [json.dumps(event.payload), new_prev, new_hash, event.pk],
            )
            prev = plain
        if rehash:
            cursor.execute(
                "UPDATE games_table SET head_hash = %s WHERE id = %s", [prev, table.pk.hex]
            )


def _chain_ok(table) -> bool:
    return audit.table_verify(table_id=table.pk, whole=True).chain_ok


class TestKeyedChain:
    def test_a_log_verifies_under_its_key_and_not_under_another(
        self, gin_table_with_two_hands, settings
    ):
        assert _chain_ok(gin_table_with_two_hands)
        settings.LOG_CHAIN_KEY = "another-key-that-nobody-was-given"
        assert not _chain_ok(gin_table_with_two_hands)

    def test_a_log_rewritten_with_a_recomputed_unkeyed_chain_is_reported(
        self, gin_table_with_two_hands
    ):
        # Bruno's 30 becomes 3: a smaller gin bonus, with every hash recomputed to match.
        _rewrite(gin_table_with_two_hands, payloads={3: quick(1, "gin", 0, 3)})
        [failure] = audit.tables_audit()["failures"]
        assert failure["table"] == str(gin_table_with_two_hands.id)
        assert failure["chain_ok"] is False


class TestRechainMigration:
    def test_plain_logs_get_the_keyed_chain_and_a_changed_one_stays_broken(
        self, gin_table_with_two_hands, append
    ):
        changed = TableFactory(players=("Carla", "Dario"))
        append(changed, "hand_recorded", quick(0, "knock", 7, 25))
        _rewrite(gin_table_with_two_hands)  # as written before the key: a plain, intact chain
        _rewrite(changed)
        _rewrite(changed, payloads={2: quick(0, "knock", 1, 25)}, rehash=False)
        assert not _chain_ok(gin_table_with_two_hands) and not _chain_ok(changed)

        if connection.vendor == "postgresql":
            # Migrate runs it in a transaction of its own, with no deferred check pending.
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        # What migrate hands the migration; only its connection is used.
        rechain_migration.rechain(apps, SimpleNamespace(connection=connection))

        gin_table_with_two_hands.refresh_from_db()
        assert _chain_ok(gin_table_with_two_hands)
        assert gin_table_with_two_hands.head_hash == gin_table_with_two_hands.events.get(seq=3).hash
        assert not _chain_ok(changed)
