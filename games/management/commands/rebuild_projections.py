"""Drop every table's cached state and replay it from the log."""

from django.core.management.base import BaseCommand

from games.tables import services
from games.tables.models import Table


class Command(BaseCommand):
    help = "Rebuild the cached projections (totals, hands, winner) of tables from their logs."

    def add_arguments(self, parser):
        parser.add_argument("table_ids", nargs="*", help="Only these tables (default: all).")

    def handle(self, *args, table_ids, **options):
        tables = Table.objects.all()
        if table_ids:
            tables = tables.filter(pk__in=table_ids)
        count = 0
        for table_id in tables.values_list("pk", flat=True).iterator():
            services.projection_rebuild(table_id=table_id)
            count += 1
        self.stdout.write(self.style.SUCCESS(f"Rebuilt {count} table projection(s)."))
