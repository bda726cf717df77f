"""Set up the runtime role that may only read and append the event log and the audit's
checkpoints (rummyref.dbroles)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from psycopg import errors, sql

from rummyref import dbroles


class Command(BaseCommand):
    help = (
        "Create (if missing) the PostgreSQL role the app runs as, with SELECT and INSERT only "
        "on the event log and the audit's checkpoints. Run as the owner role that runs "
        "migrate, after migrate."
    )

    def add_arguments(self, parser):
        parser.add_argument("runtime", help="name of the role the app servers connect as")
        parser.add_argument(
            "--print", action="store_true", help="print the SQL instead of running it"
        )

    def handle(self, *args, runtime, **options):
        if connection.vendor != "postgresql":
            raise CommandError("The two roles are a PostgreSQL setup (DATABASE_URL=postgres://…).")
        # All or nothing: a refused statement leaves no role half set up.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT current_user, current_database()")
            owner, database = cursor.fetchone()
            if runtime == owner:
                raise CommandError("The runtime role must not be the owner that runs migrate.")
            statements = dbroles.grants(runtime=runtime, owner=owner, database=database)
            for index, statement in enumerate(statements):
                text = statement.as_string(cursor.connection) + ";"
                if options["print"]:
                    self.stdout.write(text)
                    continue
                try:
                    cursor.execute(statement)
                except DatabaseError as error:
                    if not isinstance(error.__cause__, errors.InsufficientPrivilege):
                        raise
                    # The first statement is the one that creates the role.
                    if index == 0:
                        raise CommandError(_needs_createrole(owner, runtime)) from error
                    raise CommandError(
                        f"The role {owner} may not run\n    {text}\n({str(error).strip()}). "
                        "Run db_roles as the role that owns the database and ran migrate. "
                        "Nothing was changed."
                    ) from error
        if not options["print"]:
            self.stdout.write(
                self.style.SUCCESS(
                    f"{runtime} may read every table, and only read and append "
                    f"{' and '.join(dbroles.APPEND_ONLY_TABLES)}."
                )
            )


def _needs_createrole(owner: str, runtime: str) -> str:
    """Say that the owner role cannot create the runtime role, and the SQL that lets it."""
    return (
        f"The role {owner} may not create the role {runtime}: it needs CREATEROLE. As a "
        f"superuser (e.g. psql -U postgres), either give it that right:\n"
        f"    ALTER ROLE {sql.Identifier(owner).as_string()} CREATEROLE;\n"
        f"or create the runtime role yourself:\n"
        f"    CREATE ROLE {sql.Identifier(runtime).as_string()} LOGIN;\n"
        f"then run db_roles again as {owner}. Nothing was changed."
    )
