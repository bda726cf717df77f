"""Backup and restore as docs/operations.md tells operators: pg_dump of the
database, pg_restore into a fresh one, and `manage.py verify_tables` over every chain there.

The chain key (LOG_CHAIN_KEY) is no part of the dump: with it the restored chains all
verify; with another key every table is reported (exit 1, each table named), and nothing
crashes.
"""

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from games.tables import services
from tests.gunicorn import ROOT
from tests.payloads import quick

pytestmark = pytest.mark.postgres

HANDS = [quick(0, "knock", 7, 20), quick(1, "gin", 0, 31), {"mode": "quick", "ending": "wall"}]
RESTORE = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed (apt-get install postgresql-client).")
    return found


def _server_arguments(found: dict) -> list[str]:
    return ["-h", found["HOST"], "-p", str(found["PORT"]), "-U", found["USER"]]


def _tables_with_hands() -> None:
    for n in range(3):
        table = services.table_create(
            variant="gin", options={"target": 500}, players=["Anna", f"Bruno {n}"]
        )
        for seq, payload in enumerate(HANDS[: n + 1], start=1):
            services.event_append(
                table_id=table.id,
                event_id=uuid.uuid4(),
                expected_seq=seq,
                event_type="hand_recorded",
                payload=payload,
            )


def _log_rows(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT table_id, seq, event_id, payload, created_at, prev_hash, hash "
            "FROM games_event ORDER BY table_id, seq"
        ).fetchall()


def _verify_tables(url: str, key: str, checkpoint_log: Path) -> subprocess.Popen:
    """Start `manage.py verify_tables` on the database at ``url`` with the chain key ``key``."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "verify_tables"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": url,
            "LOG_CHAIN_KEY": key,
            "CHECKPOINT_LOG": str(checkpoint_log),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finished(run: subprocess.Popen) -> tuple[int, str, str]:
    stdout, stderr = run.communicate(timeout=120)
    return run.returncode, stdout, stderr


def test_a_restored_dump_verifies_with_the_key_and_is_reported_without_it(
    transactional_db, tmp_path
):
    _tables_with_hands()
    found = connection.settings_dict
    server = _server_arguments(found)
    base = f"postgres://{found['USER']}@{found['HOST']}:{found['PORT']}"
    dump = tmp_path / "rummyref.dump"
    subprocess.run(
        [_tool("pg_dump"), "-Fc", *server, "-d", found["NAME"], "-f", str(dump)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    # The key is in the environment only: the dump does not hold it.
    script = subprocess.run(
        [_tool("pg_restore"), "-f", "-", str(dump)], check=True, capture_output=True, timeout=120
    ).stdout
    assert settings.LOG_CHAIN_KEY.encode() not in script

    restored = f"{found['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    subprocess.run([_tool("createdb"), *server, restored], check=True, timeout=60)
    runs: list[subprocess.Popen] = []
    try:
        result = subprocess.run(
            [_tool("pg_restore"), *RESTORE, *server, "-d", restored, str(dump)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        restored_url = f"{base}/{restored}"
        original = _log_rows(f"{base}/{found['NAME']}")
        assert len(original) == 3 + 6  # three tables' first events and their hands
        assert _log_rows(restored_url) == original
        # The restored log is append-only too: its triggers came with it.
        with psycopg.connect(restored_url) as conn, pytest.raises(psycopg.Error):
            conn.execute("UPDATE games_event SET payload = payload")

        # Both at once: each is mostly Django starting.
        right = _verify_tables(restored_url, settings.LOG_CHAIN_KEY, tmp_path / "right.jsonl")
        wrong = _verify_tables(
            restored_url, "another-key-of-32-characters-or-more", tmp_path / "wrong.jsonl"
        )
        runs += [right, wrong]
        code, stdout, stderr = _finished(right)
        assert code == 0, stderr
        assert "All tables verify." in stdout

        code, stdout, stderr = _finished(wrong)
        assert code == 1
        assert "Traceback" not in stderr
        for table_id in {str(row[0]) for row in original}:
            assert f"table {table_id}: hash chain broken" in stderr
        assert "3 table(s) failed verification." in stderr
    finally:
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.communicate()
        subprocess.run(
            [_tool("dropdb"), *server, "--force", "--if-exists", restored],
            check=True,
            timeout=60,
        )
