"""Chain every stored log again with the keyed hash (HMAC with LOG_CHAIN_KEY).

Logs written before this migration carry a plain SHA-256 chain. Their rows are rehashed in
seq order, with the same canonical form, and each table's head (and its league match
result, where it read that head) moves to the new hash. Nothing but the hashes changes.
A log whose plain chain no longer verifies keeps it as it is, so the audit still reports it:
rechaining it would hide that it was changed.
On PostgreSQL the append-only trigger is stepped round for this one transaction, as the
owner that runs migrate may; nothing else ever updates the log.
"""

import hashlib

from django.db import migrations

from games.tables.log import canonical_event, event_hash, hashed_fields

TRIGGER = "games_event_append_only"


def _rechained(events) -> list[tuple[int, str, str]] | None:
    """Return (id, prev_hash, hash) of every event chained with the key, or None when the
    plain chain is broken somewhere."""
    rows = []
    plain_prev = keyed_prev = ""
    for event in events:
        fields = hashed_fields(event)
        plain = hashlib.sha256((plain_prev + canonical_event(**fields)).encode()).hexdigest()
        if (event.prev_hash, event.hash) != (plain_prev, plain):
            return None
        keyed = event_hash(prev_hash=keyed_prev, **fields)
        rows.append((event.pk, keyed_prev, keyed))
        plain_prev, keyed_prev = plain, keyed
    return rows


def rechain(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Event = apps.get_model("games", "Event")
    MatchResult = apps.get_model("games", "MatchResult")
    postgres = schema_editor.connection.vendor == "postgresql"
    with schema_editor.connection.cursor() as cursor:
        if postgres:
            cursor.execute(f"ALTER TABLE games_event DISABLE TRIGGER {TRIGGER}")
        for table in Table.objects.all().iterator():
            rows = _rechained(Event.objects.filter(table=table).order_by("seq"))
            if rows is None:
                continue
            for pk, prev, new in rows:
                cursor.execute(
                    "UPDATE games_event SET prev_hash = %s, hash = %s WHERE id = %s",
                    [prev, new, pk],
                )
            head = rows[-1][2] if rows else ""
            MatchResult.objects.filter(table=table, head_hash=table.head_hash).update(
                head_hash=head
            )
            Table.objects.filter(pk=table.pk).update(head_hash=head)
        if postgres:
            cursor.execute(f"ALTER TABLE games_event ENABLE TRIGGER {TRIGGER}")


class Migration(migrations.Migration):
    dependencies = [("games", "0006_event_truncate_guard")]

    operations = [migrations.RunPython(rechain, migrations.RunPython.noop)]
