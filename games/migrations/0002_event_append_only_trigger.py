"""Make the event log append-only in PostgreSQL itself, below the ORM and the admin.

A trigger refuses UPDATE and DELETE on games_event for every client, raw SQL included.
SQLite (the embedded default for ``make run``) has no such guard; there the ORM refuses.
TRUNCATE is not guarded: it needs the table owner's privilege, and the test runner uses it
to reset the database between transactional tests.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Correct a table by appending a hand_voided or hand_amended event.';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_event_append_only
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS games_event_append_only ON games_event;
DROP FUNCTION IF EXISTS games_event_refuse_change();
"""


def _on_postgres(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(_on_postgres(CREATE), _on_postgres(DROP))]
