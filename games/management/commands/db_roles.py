"""Set up the runtime role that may only read and append the event log (rummyref.dbroles)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from rummyref import dbroles


class Command(BaseCommand):
    help = (
        "Create (if missing) the PostgreSQL role the app runs as, with SELECT and INSERT only "
        "on the event log. Run as the owner role that runs migrate, after migrate."
    )

    def add_arguments(self, parser):
        parser.add_argument("runtime", help="name of the role the app servers connect as")
        parser.add_argument(
            "--print", action="store_true", help="print the SQL instead of running it"
        )

    def handle(self, *args, runtime, **options):
        if connection.vendor != "postgresql":
            raise CommandError("The two roles are a PostgreSQL setup (DATABASE_URL=postgres://…).")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user, current_database()")
            owner, database = cursor.fetchone()
            if runtime == owner:
                raise CommandError("The runtime role must not be the owner that runs migrate.")
            statements = dbroles.grants(runtime=runtime, owner=owner, database=database)
            for statement in statements:
                if options["print"]:
                    self.stdout.write(statement.as_string(cursor.connection) + ";")
                else:
                    cursor.execute(statement)
        if not options["print"]:
            self.stdout.write(
                self.style.SUCCESS(
                    f"{runtime} may read every table, and only read and append "
                    f"{dbroles.EVENT_TABLE}."
                )
            )
