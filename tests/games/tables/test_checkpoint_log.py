"""The checkpoint log kept outside the database: one signed line per checkpointing run,
compared with the database by every verification (tamperings on PostgreSQL:
test_tampering_found.py)."""

import json
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.tables import audit, checkpoint_log
from tests.factories import TableFactory
from tests.payloads import quick

pytestmark = pytest.mark.django_db


def _lines(settings) -> list[dict]:
    return [json.loads(line) for line in Path(settings.CHECKPOINT_LOG).read_text().splitlines()]


def test_each_checkpointing_run_appends_one_signed_line_of_every_head(append, settings):
    first, second = TableFactory(), TableFactory(players=("Carla", "Dario"))
    append(first, "hand_recorded", quick(0, "knock", 5, 20))
    audit.tables_audit()  # verifying only: no line
    assert not Path(settings.CHECKPOINT_LOG).exists()
    audit.tables_audit(checkpoint=True)
    append(second, "hand_recorded", quick(1, "knock", 3, 9))
    audit.tables_audit(checkpoint=True)
    one, two = _lines(settings)
    first.refresh_from_db()
    second.refresh_from_db()
    ids = sorted([str(first.pk), str(second.pk)])
    assert one["count"] == two["count"] == 2
    assert one["digest"] == two["digest"] == checkpoint_log.ids_digest(ids)
    # Seq 2 after one hand; the second table moved on to seq 2 and got a second checkpoint.
    assert two["tables"] == {
        str(first.pk): [2, first.head_hash, 1],
        str(second.pk): [2, second.head_hash, 2],
    }
    assert one["tables"][str(second.pk)][0] == 1
    assert checkpoint_log.newest_line()[1] == ""


def test_a_table_in_the_newest_line_and_not_in_the_database_is_reported(settings):
    table = TableFactory()
    audit.tables_audit(checkpoint=True)
    gone = str(uuid.uuid4())
    line, _ = checkpoint_log.newest_line()
    checkpoint_log.line_append(timezone.now(), {**line["tables"], gone: (7, "ab" * 32, 1)})
    err = StringIO()
    with pytest.raises(CommandError, match="1 table"):
        call_command("verify_tables", stderr=err, stdout=StringIO())
    assert err.getvalue().startswith(
        f"table {gone}: the table is gone from the database: its row, its log (seq 7 at the "
        "checkpoint log's line of "
    )
    assert str(table.pk) not in err.getvalue()


def test_no_checkpoint_log_setting_writes_and_compares_nothing(settings):
    settings.CHECKPOINT_LOG = ""
    TableFactory()
    assert audit.tables_audit(checkpoint=True) == {"checked": 1, "failures": [], "checkpointed": 1}
    assert audit.tables_audit() == {"checked": 1, "failures": []}
