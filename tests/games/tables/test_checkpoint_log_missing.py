"""A checkpoint log configured but not there: after an upgrade that brought it (the database
already holds checkpoints), on the first run with CHECKPOINT_LOG set, or moved or deleted.
Each verification says so once for the whole run, never once per table; the nightly audit
says so once and starts the log, and the next verification is clean."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from games.tables import audit
from games.tables.tasks import tables_audit
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db

TABLES = 3


def _verify() -> tuple[str, str]:
    """Run verify_tables; return its error (if it failed) and what it wrote to stderr."""
    err = StringIO()
    try:
        call_command("verify_tables", stderr=err, stdout=StringIO())
    except CommandError as error:
        return str(error), err.getvalue()
    return "", err.getvalue()


@pytest.fixture
def upgraded(settings):
    """Tables checkpointed by nightly audits before the upgrade that brought the log (no
    CHECKPOINT_LOG then); now it is set, and no file is there yet."""
    path = settings.CHECKPOINT_LOG
    settings.CHECKPOINT_LOG = ""
    for n in range(TABLES):
        TableFactory(players=(f"Anna{n}", f"Bruno{n}"))
    audit.tables_audit(checkpoint=True)
    settings.CHECKPOINT_LOG = path
    assert not Path(path).exists()
    return Path(path)


def test_verification_says_the_log_is_missing_once_not_once_per_table(upgraded):
    failed, said = _verify()
    assert failed == "0 table(s) failed verification, 1 other finding(s)."
    [line] = said.splitlines()
    assert line.startswith(f"checkpoint log missing: there is no file at {upgraded}, though")
    assert f"holds {TABLES} checkpoint(s)" in line
    assert "verify_tables --checkpoint" in line  # what to do
    assert not re.search(r"^table ", said, re.M)


def test_the_nightly_audit_says_so_once_starts_the_log_and_the_next_run_is_clean(
    upgraded, settings
):
    settings.ADMINS = [("Ops", "ops@example.org")]
    report = tables_audit.apply().get()
    assert report["failures"] == []
    [finding] = report["findings"]
    assert finding.startswith("checkpoint log missing:")
    assert finding.endswith("This run started it again.")
    assert len(mail.outbox) == 1 and mail.outbox[0].body.count("checkpoint log missing") == 1
    assert len(upgraded.read_text().splitlines()) == 1
    assert _verify() == ("", "")


def test_a_first_run_with_no_checkpoint_yet_says_nothing(settings):
    for n in range(TABLES):
        TableFactory(players=(f"Anna{n}", f"Bruno{n}"))
    assert _verify() == ("", "")
    assert not Path(settings.CHECKPOINT_LOG).exists()
