"""Drop the plaintext table keys and invite tokens (step 2 of 2), and add join tokens.

From here on the database holds only digests: a copy of it opens no table and accepts no
invite. Undoing this cannot bring the old keys back (they are kept nowhere): every table
and invite gets new random ones, so links shared before are lost.
"""

import secrets

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
from django.db import migrations, models


def new_keys(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Invite = apps.get_model("games", "Invite")
    for pk in Table.objects.values_list("pk", flat=True).iterator():
        Table.objects.filter(pk=pk).update(
            scorekeeper_key=secrets.token_urlsafe(32), viewer_key=secrets.token_urlsafe(32)
        )
    for pk in Invite.objects.values_list("pk", flat=True).iterator():
        Invite.objects.filter(pk=pk).update(token=secrets.token_urlsafe(32))


def _plain(unique=False):
    return models.CharField(editable=False, max_length=64, null=True, unique=unique)


def _digest():
    return models.CharField(editable=False, max_length=64, unique=True)


def _full(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=django.db.models.lookups.Exact(
            django.db.models.functions.text.Length(field), 64
        ),
        name=name,
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0008_table_keys_hashed")]

    operations = [
        migrations.RemoveConstraint(model_name="table", name="table_keys_differ"),
        # Nullable and not unique first, so that undoing this can add the columns back
        # empty and fill each row with keys of its own (new_keys) before they are required.
        migrations.AlterField(model_name="table", name="scorekeeper_key", field=_plain()),
        migrations.AlterField(model_name="table", name="viewer_key", field=_plain()),
        migrations.AlterField(model_name="invite", name="token", field=_plain()),
        migrations.RunPython(migrations.RunPython.noop, new_keys),
        migrations.RemoveField(model_name="table", name="scorekeeper_key"),
        migrations.RemoveField(model_name="table", name="viewer_key"),
        migrations.RemoveField(model_name="invite", name="token"),
        migrations.AlterField(model_name="table", name="scorekeeper_digest", field=_digest()),
        migrations.AlterField(model_name="table", name="viewer_digest", field=_digest()),
        migrations.AlterField(model_name="invite", name="token_digest", field=_digest()),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("scorekeeper_digest", models.F("viewer_digest")), _negated=True
                ),
                name="table_keys_differ",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=_full("scorekeeper_digest", "table_scorekeeper_digest_full"),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=_full("viewer_digest", "table_viewer_digest_full"),
        ),
        migrations.AddConstraint(
            model_name="invite",
            constraint=_full("token_digest", "invite_token_digest_full"),
        ),
        migrations.CreateModel(
            name="JoinToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[("scorekeeper", "scorekeeper"), ("viewer", "viewer")],
                        max_length=12,
                    ),
                ),
                (
                    "kind",
                    models.CharField(choices=[("link", "link"), ("code", "code")], max_length=4),
                ),
                ("digest", _digest()),
                ("expires_at", models.DateTimeField(db_index=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="join_tokens",
                        to="games.table",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("role__in", ["scorekeeper", "viewer"])),
                        name="join_token_role",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["link", "code"])),
                        name="join_token_kind",
                    ),
                    _full("digest", "join_token_digest_full"),
                ],
            },
        ),
    ]
