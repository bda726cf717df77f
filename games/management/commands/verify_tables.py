"""Check every table's hash chain, cached state, seating and checkpoints against its log."""

from django.core.management.base import BaseCommand, CommandError

from games.tables import audit
from games.tables.models import Table


class Command(BaseCommand):
    help = (
        "Verify hash chains, cached projections, seating and checkpoints of all tables; say "
        "what is off and exit 1 if anything is."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--checkpoint",
            action="store_true",
            help=(
                "also keep a signed checkpoint of every table that verifies, as the nightly "
                "audit does (e.g. once after upgrading, to anchor the older tables now)"
            ),
        )

    def handle(self, *args, checkpoint=False, **options):
        bad = kept = 0
        taken_at = audit.checkpoint_time() if checkpoint else None
        for table_id in Table.objects.order_by("pk").values_list("pk", flat=True).iterator():
            result, new = audit.table_audit(table_id=table_id, checkpoint_at=taken_at)
            kept += new
            if result.ok:
                continue
            bad += 1
            problems = []
            if not result.chain_ok:
                problems.append("hash chain broken")
            if result.replay_failed_at:
                problems.append(
                    f"replay stops at seq {result.replay_failed_at}: {result.replay_error}"
                )
            elif not result.projection_ok:
                problems.append("cached state differed from the log's (rebuilt)")
            problems += result.findings
            for problem in problems:
                self.stderr.write(f"table {result.table_id}: {problem}")
        if checkpoint:
            self.stdout.write(f"{kept} table(s) checkpointed.")
        if bad:
            raise CommandError(f"{bad} table(s) failed verification.")
        self.stdout.write(self.style.SUCCESS("All tables verify."))
