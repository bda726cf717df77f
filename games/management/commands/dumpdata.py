"""Django's dumpdata, refusing to dump the tables' logs (games.Event).

A fixture keeps a time to the millisecond, while every event's chained hash covers it to the
microsecond: loaded back, every log's chain would fail verification. The logs are backed up
with PostgreSQL's own tools, which keep every value as it is.
"""

from django.apps import apps
from django.core.management.base import CommandError
from django.core.management.commands import dumpdata
from django.core.management.utils import parse_apps_and_model_labels

REFUSAL = (
    "dumpdata would copy games.Event, the tables' logs: a fixture drops the microseconds "
    "that every event's chained hash covers, so after loaddata every log's chain fails "
    "verification. Back the database up with pg_dump (pg_dump -Fc, brought back with "
    "pg_restore), and keep LOG_CHAIN_KEY apart from the dump (it stays in the environment "
    "or a secrets store, never in the backup). To dump other data, add --exclude games.Event."
)


class Command(dumpdata.Command):
    help = dumpdata.Command.help + " The tables' logs (games.Event) are refused: use pg_dump."

    def handle(self, *app_labels, **options):
        if _dumps_the_log(app_labels, options["exclude"]):
            raise CommandError(REFUSAL)
        return super().handle(*app_labels, **options)


def _dumps_the_log(labels, excludes) -> bool:
    """Tell whether dumpdata with these labels and excludes would dump games.Event."""
    event = apps.get_model("games", "Event")
    games = event._meta.app_config
    excluded_models, excluded_apps = parse_apps_and_model_labels(excludes)
    if event in excluded_models or games in excluded_apps:
        return False
    if not labels:  # every app
        return True
    models, app_configs = parse_apps_and_model_labels(labels)
    return event in models or games in app_configs
