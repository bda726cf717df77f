"""Check every table's hash chain and cached state against its log."""

from django.core.management.base import BaseCommand, CommandError

from games.tables import audit
from games.tables.models import Table


class Command(BaseCommand):
    help = "Verify hash chains and cached projections of all tables; exit 1 if any is off."

    def handle(self, *args, **options):
        bad = []
        for table_id in Table.objects.values_list("pk", flat=True).iterator():
            result = audit.table_verify(table_id=table_id, whole=True)
            if not result.ok:
                bad.append(result)
                self.stderr.write(
                    f"{result.table_id}: chain_ok={result.chain_ok} "
                    f"projection_ok={result.projection_ok}"
                    + (
                        f" replay stops at seq {result.replay_failed_at}: {result.replay_error}"
                        if result.replay_failed_at
                        else ""
                    )
                )
        if bad:
            raise CommandError(f"{len(bad)} table(s) failed verification.")
        self.stdout.write(self.style.SUCCESS("All tables verify."))
