"""Check every table's hash chain, cached state, seating and checkpoints against its log,
the database against the checkpoint log kept outside it, and the standings and results
and club nights' kept standings against the logs read again."""

from django.core.management.base import BaseCommand, CommandError

from games.standings.audit import derived_differences
from games.tables import audit
from games.tournaments.audit import night_differences


def _problems(failure: dict) -> list[str]:
    """Say what is wrong with one table, one sentence each."""
    problems = []
    if not failure["chain_ok"]:
        problems.append("hash chain broken")
    if failure["replay_failed_at"]:
        problems.append(
            f"replay stops at seq {failure['replay_failed_at']}: {failure['replay_error']}"
        )
    elif not failure["projection_ok"]:
        problems.append("cached state differed from the log's (rebuilt)")
    return problems + failure["findings"]


class Command(BaseCommand):
    help = (
        "Verify hash chains, cached projections, seating and checkpoints of all tables, the "
        "database against the checkpoint log, and the standings against the logs; say what "
        "is off and exit 1 if anything is."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--checkpoint",
            action="store_true",
            help=(
                "also keep a signed checkpoint of every table that verifies, and the run's "
                "line in the checkpoint log, as the nightly audit does (e.g. once after "
                "upgrading, to anchor the older tables now)"
            ),
        )

    def handle(self, *args, checkpoint=False, **options):
        report = audit.tables_audit(checkpoint=checkpoint)
        for failure in report["failures"]:
            for problem in _problems(failure):
                self.stderr.write(f"table {failure['table']}: {problem}")
        others = [report["checkpoint_log"]] if "checkpoint_log" in report else []
        # Compared, never repaired here: the nightly audit repairs them.
        others += derived_differences(repair=False) + night_differences(repair=False)
        for problem in others:
            self.stderr.write(problem)
        if checkpoint:
            self.stdout.write(f"{report['checkpointed']} table(s) checkpointed.")
        bad = len(report["failures"])
        if bad or others:
            raise CommandError(
                f"{bad} table(s) failed verification, {len(others)} other finding(s)."
                if others
                else f"{bad} table(s) failed verification."
            )
        self.stdout.write(self.style.SUCCESS("All tables verify."))
