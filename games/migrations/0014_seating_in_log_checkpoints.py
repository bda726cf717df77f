"""Checkpoints: each table's head and seating, signed with the log's key, append-only.

A table's first event now logs its seating (``games.tables.services.table_create``); a
table made before keeps a first event without it, and its log cannot be rewritten, so its
seating is anchored by its first checkpoint instead (``games.tables.audit``).

On PostgreSQL the checkpoints are guarded as the log is (migrations 0002 and 0006): a
trigger refuses UPDATE, DELETE and TRUNCATE for every role, the owner too, and the rights
to them that default privileges gave other roles (the runtime role of ``db_roles``) are
revoked here, so the runtime role may only read and insert them.
"""

import django.db.models.deletion
from django.db import migrations, models

CREATE = """
CREATE OR REPLACE FUNCTION games_checkpoint_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_checkpoint is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'A checkpoint is never changed; the nightly audit takes a new one.';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_checkpoint_append_only
    BEFORE UPDATE OR DELETE ON games_checkpoint
    FOR EACH ROW EXECUTE FUNCTION games_checkpoint_refuse_change();

CREATE TRIGGER games_checkpoint_no_truncate
    BEFORE TRUNCATE ON games_checkpoint
    FOR EACH STATEMENT EXECUTE FUNCTION games_checkpoint_refuse_change();

DO $$
DECLARE grantee text;
BEGIN
    REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON games_checkpoint FROM PUBLIC;
    FOR grantee IN
        SELECT DISTINCT g.grantee FROM information_schema.role_table_grants g
        WHERE g.table_name = 'games_checkpoint' AND g.grantee <> current_user
            AND g.grantee <> 'PUBLIC'
    LOOP
        EXECUTE format(
            'REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON games_checkpoint FROM %I',
            grantee
        );
    END LOOP;
END $$;
"""

DROP = """
DROP TRIGGER IF EXISTS games_checkpoint_no_truncate ON games_checkpoint;
DROP TRIGGER IF EXISTS games_checkpoint_append_only ON games_checkpoint;
DROP FUNCTION IF EXISTS games_checkpoint_refuse_change();
"""


def _on_postgres(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0013_players_book")]

    operations = [
        migrations.CreateModel(
            name="Checkpoint",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("taken_at", models.DateTimeField()),
                ("seq", models.PositiveIntegerField()),
                ("head_hash", models.CharField(max_length=64)),
                ("seating", models.JSONField()),
                ("signature", models.CharField(max_length=64)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="checkpoints",
                        to="games.table",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "-taken_at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("table", "taken_at"), name="checkpoint_unique_time"
                    )
                ],
            },
        ),
        migrations.RunPython(_on_postgres(CREATE), _on_postgres(DROP)),
    ]
