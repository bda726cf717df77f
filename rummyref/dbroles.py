"""Two PostgreSQL roles, so that the running app cannot rewrite a table's log.

The owner role owns the schema and runs ``migrate``. The runtime role, which the app
servers and workers connect as, may read and write every table but the event log, where it
may only SELECT and INSERT: no UPDATE, DELETE or TRUNCATE, and, owning nothing, no ALTER,
DROP or CREATE OR REPLACE of the log's table, triggers or functions. The triggers refuse
UPDATE, DELETE and TRUNCATE for the owner too (migrations 0002 and 0006). The audit's
checkpoints (``games_checkpoint``, migration 0014) are guarded the same way.
"""

from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import sql

EVENT_TABLE = "games_event"
# The nightly audit's signed checkpoints of every table's head and seating (migration 0014):
# append-only as the log is, so the runtime role may only read and insert them too.
CHECKPOINT_TABLE = "games_checkpoint"
APPEND_ONLY_TABLES = (EVENT_TABLE, CHECKPOINT_TABLE)


def grants(*, runtime: str, owner: str, database: str) -> list[sql.Composed]:
    """Return the statements that create the runtime role (if missing) and set its rights."""
    role, owner_role = sql.Identifier(runtime), sql.Identifier(owner)
    return [
        sql.SQL(
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = {name}) "
            "THEN CREATE ROLE {role} LOGIN; END IF; END $$"
        ).format(name=sql.Literal(runtime), role=role),
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database), role),
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}").format(
            role
        ),
        sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {} FROM {}").format(
            sql.Identifier(EVENT_TABLE), role
        ),
        # The checkpoints exist once migration 0014 has run (which revokes the same rights
        # from the roles it finds); a schema from before it has none to revoke.
        sql.SQL(
            "DO $$ BEGIN IF to_regclass({name}) IS NOT NULL THEN "
            "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {table} FROM {role}; "
            "END IF; END $$"
        ).format(
            name=sql.Literal(CHECKPOINT_TABLE), table=sql.Identifier(CHECKPOINT_TABLE), role=role
        ),
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(role),
        # Tables a later migration creates get the same rights; the log's stay as revoked.
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA public "
            "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}"
        ).format(owner_role, role),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA public "
            "GRANT USAGE, SELECT ON SEQUENCES TO {}"
        ).format(owner_role, role),
    ]


def log_rewritable_by(connection: BaseDatabaseWrapper) -> str | None:
    """Say how the connected role could change the event log, or None if it cannot."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_user, pg_get_userbyid(c.relowner) = current_user, "
            "has_table_privilege(c.oid, 'UPDATE'), has_table_privilege(c.oid, 'DELETE'), "
            "has_table_privilege(c.oid, 'TRUNCATE') "
            "FROM pg_class c WHERE c.relname = %s AND c.relkind = 'r'",
            [EVENT_TABLE],
        )
        row = cursor.fetchone()
    if row is None:
        return None  # not migrated yet
    user, owns, *rights = row
    found = [
        name for name, held in zip(("UPDATE", "DELETE", "TRUNCATE"), rights, strict=True) if held
    ]
    if owns:
        found.insert(0, "owns it (ALTER, DROP TRIGGER)")
    if not found:
        return None
    return f"the database role {user} can change the event log {EVENT_TABLE}: {', '.join(found)}"
