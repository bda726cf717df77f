"""Load the demo tables (idempotent)."""

from django.core.management.base import BaseCommand
from django.urls import reverse

from games.demo import demo_league, demo_load


class Command(BaseCommand):
    help = (
        "Create the demo tables (two Gin matches, a Ramino hand move by move) and a club with a "
        "public Gin league, unless they exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="The port the links name.")
        parser.add_argument("--https", action="store_true", help="The links name https://.")

    def handle(self, *args, **options):
        scheme = "https" if options["https"] else "http"
        base = f"{scheme}://127.0.0.1:{options['port']}"
        for table in demo_load():
            # The demo's own way in (local runs only): nobody holds the tables' keys.
            path = reverse("demo-join", args=[table.id])
            self.stdout.write(f"Demo table: {base}{path}")
        league = demo_league()
        if league is not None:
            path = reverse("league-standings", args=[league.club.slug, league.slug])
            self.stdout.write(f"Demo league standings (public): {base}{path}")
