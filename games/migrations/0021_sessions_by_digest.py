"""Sessions stored under their cookie's digest (games/shared/sessions.py): the rows kept so
far under the cookie's value itself are moved under its digest, so no phone loses the tables
its session holds, and the copies of the database taken from now on open nothing."""

import hashlib

from django.db import migrations

BATCH = 1000


def _digest(key: str) -> str:
    # games.shared.sessions.stored_key as of this migration (a migration keeps its own copy).
    return hashlib.sha256(key.encode()).hexdigest()[:40]


def sessions_by_digest(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    # Django's session keys are 32 characters; a digest is 40: only the former move.
    keys = list(
        Session.objects.exclude(session_key__regex=r"^[0-9a-f]{40}$").values_list(
            "session_key", flat=True
        )
    )
    for start in range(0, len(keys), BATCH):
        for key in keys[start : start + BATCH]:
            Session.objects.filter(session_key=key).update(session_key=_digest(key))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_task_outbox"),
        ("sessions", "0001_initial"),
    ]

    # Not reversible: a digest does not give back the cookie's value.
    operations = [migrations.RunPython(sessions_by_digest, migrations.RunPython.noop)]
