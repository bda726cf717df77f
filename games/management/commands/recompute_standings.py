"""Rebuild standings from the logs here and now, without a worker (operators, after a fix)."""

from django.core.management.base import BaseCommand, CommandError

from games.clubs.models import League
from games.standings import services


class Command(BaseCommand):
    help = (
        "Read every league table's log again and rebuild the standings and ratings of every "
        "season (or of one league's seasons with --league)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, help="Only this league (its id).")

    def handle(self, *args, league=None, **options):
        leagues = League.objects.filter(seasons__isnull=False).distinct().order_by("pk")
        if league is not None:
            leagues = leagues.filter(pk=league)
            if not leagues.exists():
                raise CommandError(f"No league {league} with seasons.")
        for each in leagues:
            written = services.league_standings_recompute(league_id=each.pk, fresh=True)
            matches = sum(standing.matches for standing in written)
            self.stdout.write(f"{each}: {len(written)} season(s), {matches} match(es) counted")
        self.stdout.write(self.style.SUCCESS("Standings rebuilt from the logs."))
