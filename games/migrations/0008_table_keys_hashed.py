"""Keep table keys and invite tokens as their SHA-256 digests (step 1 of 2).

Adds the digest columns and fills them from the keys and tokens stored so far, so every
link already shared keeps working: the digest of the key it holds is what is looked up
now. The next migration drops the plaintext columns; the two are separate so that, on
PostgreSQL, no ALTER TABLE runs in the transaction that updated the rows.
"""

import hashlib

from django.db import migrations, models


def _digest(secret: str) -> str:
    # games.shared.models.key_digest, as it is today (a migration keeps its own copy).
    return hashlib.sha256(secret.encode()).hexdigest()


def hash_keys(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Invite = apps.get_model("games", "Invite")
    for pk, scorekeeper, viewer in Table.objects.values_list(
        "pk", "scorekeeper_key", "viewer_key"
    ).iterator():
        Table.objects.filter(pk=pk).update(
            scorekeeper_digest=_digest(scorekeeper), viewer_digest=_digest(viewer)
        )
    for pk, token in Invite.objects.values_list("pk", "token").iterator():
        Invite.objects.filter(pk=pk).update(token_digest=_digest(token))


class Migration(migrations.Migration):
    dependencies = [("games", "0007_keyed_log_chain")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="scorekeeper_digest",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="table",
            name="viewer_digest",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="invite",
            name="token_digest",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        # Undone, the digests simply go: the next migration's undoing filled the keys.
        migrations.RunPython(hash_keys, migrations.RunPython.noop),
    ]
