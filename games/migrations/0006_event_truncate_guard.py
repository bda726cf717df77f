"""Refuse TRUNCATE of the event log in PostgreSQL, for its owner too.

0002's row trigger refuses UPDATE and DELETE; TRUNCATE fires no row trigger, so a statement
trigger refuses it as well (also when a TRUNCATE of the tables cascades to the log). Only a
superuser can step round it (``session_replication_role = replica``), as the test runner
does to empty its own database between transactional tests (tests/conftest.py).
"""

from django.db import migrations

CREATE = """
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change();
"""

DROP = "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;"


def _on_postgres(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0005_standings")]

    operations = [migrations.RunPython(_on_postgres(CREATE), _on_postgres(DROP))]
