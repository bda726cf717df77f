"""Load the demo tables (idempotent)."""

from django.core.management.base import BaseCommand
from django.urls import reverse

from games.demo import demo_load


class Command(BaseCommand):
    help = "Create the demo tables (two Gin matches, a Ramino hand move by move) unless they exist."

    def handle(self, *args, **options):
        for table in demo_load():
            path = reverse("table-join", args=[table.id, table.scorekeeper_key])
            self.stdout.write(f"Demo table: http://127.0.0.1:8000{path}")
