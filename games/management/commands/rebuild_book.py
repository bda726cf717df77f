"""Rebuild the players' book from the logs here and now, without a worker (operators, after
a fix, or once to give the results stored before the book's figures their figures)."""

from django.core.management.base import BaseCommand

from games.clubs.models import League
from games.standings import services


class Command(BaseCommand):
    help = (
        "Read the log of every table the players' book follows beyond the leagues (a group's "
        "tables, a club's tables without a season) again and store its result afresh; with "
        "--leagues, the league tables' too (and their seasons' standings, as "
        "recompute_standings does)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--leagues", action="store_true", help="Read the league tables' logs again too."
        )

    def handle(self, *args, leagues=False, **options):
        count = services.book_results_rebuild()
        self.stdout.write(f"{count} table(s) outside the leagues read again")
        if leagues:
            for league in League.objects.filter(seasons__isnull=False).distinct().order_by("pk"):
                services.league_standings_recompute(league_id=league.pk, fresh=True)
                self.stdout.write(f"{league}: its tables read again")
        self.stdout.write(self.style.SUCCESS("The players' book is rebuilt from the logs."))
