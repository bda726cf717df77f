"""docs/operations.md's commands, run as an operator runs them: each shell block of the guide,
in the guide's order, on this machine's PostgreSQL and Redis.

Only names change, each by one replacement that must still find its text in the guide: the
hosts `db` and `redis` become this test's servers, PostgreSQL's superuser the test's own
database user; the owner `rummyref`, the databases `rummyref` and `rummyref_restored` and
the role `rummyref_app` take names of this run, and the Redis databases numbers no test
process uses. Four settings are added, so that nothing is written into the checkout:
`STATIC_ROOT`, `CHECKPOINT_LOG`, `BEAT_SCHEDULE_FILE` and `GUNICORN_BIND` (a free port).
Between the blocks the test does what the prose asks: after `db_roles`, `DATABASE_URL` names
the runtime role for the processes and the rebuilds.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.doc_commands import shell_blocks
from tests.gunicorn import ROOT
from tests.ports import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

GUIDE = ROOT / "docs" / "operations.md"
# Each block of the guide by its first command, in the guide's order. A new block fails here
# until this test runs it too.
BLOCKS = (
    "export DEBUG=0",
    "createuser -h db -U postgres --createdb --createrole rummyref",
    "make install",
    ".venv/bin/gunicorn rummyref.wsgi",
    ".venv/bin/python manage.py db_roles rummyref_app",
    ".venv/bin/python manage.py recompute_standings",
    "pg_dump -Fc -h db -U rummyref -d rummyref -f rummyref.dump",
    "createdb -h db -U rummyref rummyref_restored",
)
# Redis databases no test process takes (tests/parallel_workers.py: CI's cache 11, 12 and
# broker 13, 14; a developer's 0 and 1).
CACHE_DATABASE, BROKER_DATABASE = 15, 10
SITE = "rummyref.example.org"
SECONDS = 240  # the longest a command of the guide may take here (migrate on a new database)


def _replacements(name: str, tmp_path: Path) -> list[tuple[str, str]]:
    """The guide's names → this run's, as (pattern, replacement) pairs."""
    found = connection.settings_dict
    server = f"-h {found['HOST']} -p {found['PORT']}"
    return [
        (r"-h db -U postgres", f"{server} -U {found['USER']}"),
        (r"postgres://rummyref@db/", f"postgres://{name}_owner@{found['HOST']}:{found['PORT']}/"),
        (r"-h db -U rummyref", f"{server} -U {name}_owner"),
        (r"(?<=-O )rummyref(?= )|(?<=--createrole )rummyref$", f"{name}_owner"),
        (r"(?<=[/ ])rummyref_restored\b", f"{name}_restored"),
        (r"(?<=/)rummyref$|(?<=-d )rummyref(?= )|(?<=_owner )rummyref$", name),
        (r"\brummyref_app\b", f"{name}_app"),
        (r"redis://redis:6379/0", f"redis://127.0.0.1:6379/{BROKER_DATABASE}"),
        (r"redis://redis:6379/1", f"redis://127.0.0.1:6379/{CACHE_DATABASE}"),
        (r"-h redis -n 1", f"-h 127.0.0.1 -n {CACHE_DATABASE}"),
        (r"\brummyref\.dump\b", str(tmp_path / "rummyref.dump")),
        (r"(?<![\w/])\.venv/bin/", f"{Path(sys.executable).parent}/"),
    ]


def _guide_blocks(name: str, tmp_path: Path) -> list[list[str]]:
    """The guide's blocks with this run's names; fail if a replacement no longer applies."""
    blocks = shell_blocks(GUIDE.read_text(encoding="utf-8"))
    assert tuple(block[0] for block in blocks) == BLOCKS, "the guide's blocks changed"
    used = set()
    for pattern, replacement in _replacements(name, tmp_path):
        for block in blocks:
            for number, line in enumerate(block):
                block[number], count = re.subn(pattern, replacement, line)
                used |= {pattern} if count else set()
    unused = [p for p, _ in _replacements(name, tmp_path) if p not in used]
    assert not unused, f"the guide no longer says {unused}"
    return blocks


def _run(line: str, env: dict) -> str:
    """Run one line of the guide as a shell would; return what it printed."""
    done = subprocess.run(
        ["bash", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=SECONDS
    )
    assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def _exported(block: list[str], env: dict) -> dict:
    """The environment after the block's exports."""
    printed = _run("set -e\n" + "\n".join(block) + "\nenv -0", env)
    return dict(item.split("=", 1) for item in printed.split("\0") if "=" in item)


def _request(
    base: str, path: str, body: dict | None = None, key: str = ""
) -> tuple[int, dict | str]:
    """Ask the app as nginx would pass a phone's request: the site's host, over HTTPS."""
    headers = {"Host": SITE, "X-Forwarded-Proto": "https", "Content-Type": "application/json"}
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers=headers | ({"X-Table-Key": key} if key else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode()
            return answer.status, json.loads(text) if body is not None else text
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _started(line: str, env: dict, log: Path) -> subprocess.Popen:
    with open(log, "w") as output:
        return subprocess.Popen(
            ["bash", "-c", f"exec {line}"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_for(check, process: subprocess.Popen, log: Path, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = check()
        if answer:
            return answer
        assert process.poll() is None, log.read_text()
        time.sleep(0.3)
    pytest.fail(f"not ready in {seconds} s:\n{log.read_text()}")


def _serve_and_play(block: list[str], env: dict, tmp_path: Path) -> str:
    """Start the guide's three processes; through gunicorn, open a table and record a hand;
    return the table's id once the worker and beat say they are running."""
    base = f"http://127.0.0.1:{env['GUNICORN_BIND'].rsplit(':', 1)[1]}"
    logs = [tmp_path / f"process-{n}.log" for n in range(len(block))]
    processes = [_started(line, env, log) for line, log in zip(block, logs, strict=True)]
    gunicorn, worker, beat = processes
    try:
        _wait_for(lambda: _answers(base), gunicorn, logs[0])
        status, page = _request(base, "/")
        assert status == 200, page
        status, table = _request(
            base, "/api/v1/tables/", {"variant": "gin", "players": ["Anna", "Bruno"]}
        )
        assert status == 201, table
        hand = {"mode": "quick", "knocker": 0, "ending": "knock"}
        hand |= {"knocker_count": 7, "defender_count": 20}
        event = {"event_id": str(uuid.uuid4()), "expected_seq": 1, "type": "hand_recorded"}
        status, saved = _request(
            base,
            f"/api/v1/tables/{table['id']}/events/",
            {**event, "payload": hand},
            key=table["scorekeeper_key"],
        )
        assert status == 201, saved
        _wait_for(lambda: " ready." in logs[1].read_text(), worker, logs[1])
        _wait_for(lambda: "beat: Starting" in logs[2].read_text(), beat, logs[2])
        return table["id"]
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)


def _answers(base: str) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def run_name(transactional_db):
    """This run's database and role names; both databases and the role go afterwards."""
    name = f"ops_{uuid.uuid4().hex[:8]}"
    yield name
    found = connection.settings_dict
    server = ["-h", found["HOST"], "-p", str(found["PORT"]), "-U", found["USER"]]
    for database in (name, f"{name}_restored"):
        subprocess.run([shutil.which("dropdb"), *server, "--force", "--if-exists", database])
    with connection.cursor() as cursor:
        cursor.execute(f'DROP ROLE IF EXISTS "{name}_app", "{name}_owner"')
    for database in (CACHE_DATABASE, BROKER_DATABASE):
        subprocess.run(["redis-cli", "-h", "127.0.0.1", "-n", str(database), "FLUSHDB"])


def test_the_operations_guide_runs_as_written(run_name, tmp_path):
    settings_block, owner_made, install, processes, roles, rebuilds, backup, restore = (
        _guide_blocks(run_name, tmp_path)
    )
    machine = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    added = {
        "STATIC_ROOT": str(tmp_path / "static"),
        "CHECKPOINT_LOG": str(tmp_path / "checkpoints.jsonl"),
        "BEAT_SCHEDULE_FILE": str(tmp_path / "celerybeat-schedule"),
        "GUNICORN_BIND": f"127.0.0.1:{free_port()}",
        "GUNICORN_WORKERS": "2",
    }
    owner = _exported(settings_block, machine | added)
    assert owner["DEBUG"] == "0" and len(owner["LOG_CHAIN_KEY"]) >= 32

    for line in owner_made:
        _run(line, owner)
    printed = "".join(_run(line, owner) for line in install)
    assert "System check identified no issues" in printed
    assert (tmp_path / "static" / "staticfiles.json").exists()
    for line in roles:
        _run(line, owner)
    # "Switch DATABASE_URL to it for everything below" (section 3, step 3).
    runtime_url = owner["DATABASE_URL"].replace(f"{run_name}_owner@", f"{run_name}_app@")
    runtime = owner | {"DATABASE_URL": runtime_url}
    table_id = _serve_and_play(processes, runtime, tmp_path)
    assert list(tmp_path.glob("celerybeat-schedule*")), "beat kept its schedule elsewhere"
    for line in rebuilds:
        _run(line, runtime)
    # The runtime role may append to the log, never change it.
    with psycopg.connect(runtime["DATABASE_URL"]) as conn, pytest.raises(psycopg.Error):
        conn.execute("UPDATE games_event SET payload = payload")

    for line in backup:
        _run(line, owner)
    # The restore's block is one shell: its export holds for the lines after it.
    printed = _run("set -e\n" + "\n".join(restore), owner)
    assert "All tables verify." in printed
    restored = owner["DATABASE_URL"] + "_restored"
    with psycopg.connect(restored) as conn:
        heads = conn.execute("SELECT head_seq FROM games_table WHERE id = %s", [table_id])
        assert heads.fetchone() == (2,)  # the table's start and the hand recorded through it
