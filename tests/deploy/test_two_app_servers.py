"""Two gunicorn instances (separate processes and ports) behind the shipped nginx site, one
PostgreSQL database and one Redis cache, as docs/operations.md describes.

Phones record hands at several tables through nginx, which alternates between the two;
halfway through, one instance is killed (SIGKILL, its workers too). Every append the phones
saw acknowledged (2xx) is in its table's log exactly once; a save that got an error is sent
again with the same event_id, and is then either stored once or refused as a conflict, never
stored twice; every chain verifies. And neither instance ever serves a table's state older
than its head: after a write through one, the other reads the new head at once (each keeps
its own copy of the tables' states, games.tables.snapshots, keyed by the head's seq and hash).
"""

import http.client
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from collections import Counter

import pytest
from django.db import connection

from games.models import Event
from tests.deploy.nginx import nginx_serving
from tests.gunicorn import ROOT, gunicorn_instance
from tests.ports import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

TLS = ssl._create_unverified_context()  # the test's own self-signed certificate
WALL = {"mode": "quick", "ending": "wall"}  # a Gin hand that scores nothing: no table ends
TABLES = 3
PHONES_PER_TABLE = 2
ENTRIES_PER_PHONE = 6
KILL_AFTER = 12  # acknowledged appends, all phones together
CROSS_ROUNDS = 4  # saves through one instance, each read back through the other
TRIES = 30  # sends of one entry before the test gives up on it


def _call(url: str, *, key: str = "", body: dict | None = None) -> tuple[int, dict]:
    """Send one API request; return the status and the JSON answer. No answer, or one cut
    off (the instance died while sending it), is status 0 with an empty answer."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Table-Key"] = key
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30, context=TLS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read())
        except (ValueError, OSError, http.client.HTTPException):
            return error.code, {}
    except (OSError, ValueError, http.client.HTTPException):  # URLError is an OSError
        return 0, {}


def _new_table(base: str) -> dict:
    status, table = _call(
        f"{base}/api/v1/tables/",
        body={"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 100}},
    )
    assert status == 201, table
    return table


def _append(base: str, table: dict, *, expected_seq: int, event_id=None) -> tuple[int, dict]:
    return _call(
        f"{base}/api/v1/tables/{table['id']}/events/",
        key=table["scorekeeper_key"],
        body={
            "event_id": str(event_id or uuid.uuid4()),
            "expected_seq": expected_seq,
            "type": "hand_recorded",
            "payload": WALL,
        },
    )


def _state(base: str, table: dict) -> dict:
    status, state = _call(f"{base}/api/v1/tables/{table['id']}/state/", key=table["viewer_key"])
    assert status == 200, state
    return state


def _cross_reads(table: dict, bases: list[str], rounds: int) -> None:
    """Write through one instance, read through the other at once: the new head."""
    state = _state(bases[0], table)
    head, hands = state["head_seq"], len(state["hands"])
    for n in range(rounds):
        writer, reader = bases[n % 2], bases[(n + 1) % 2]
        status, answer = _append(writer, table, expected_seq=head)
        assert status == 201, answer
        head, hands = answer["head"]["seq"], hands + 1
        read = _state(reader, table)
        assert (read["head_seq"], len(read["hands"])) == (head, hands)
        assert read["totals"] == answer["totals"]


class _Phones:
    """Phones sharing tables, each recording hands through nginx, retrying what failed."""

    def __init__(self, base: str, tables: list[dict]):
        self.base = base
        self.tables = tables
        self.lock = threading.Lock()
        self.acknowledged: dict[str, list[str]] = {t["id"]: [] for t in tables}
        self.refused: list[str] = []
        self.enough = threading.Event()
        self.failures: list[str] = []

    def phone(self, table: dict) -> None:
        try:
            self._record(table)
        except Exception as error:  # a phone that stops is a failure the test reports
            self.failures.append(repr(error))

    def _record(self, table: dict) -> None:
        head = _state(self.base, table)["head_seq"]
        for _entry in range(ENTRIES_PER_PHONE):
            event_id = uuid.uuid4()
            for _try in range(TRIES):
                status, answer = _append(self.base, table, expected_seq=head, event_id=event_id)
                if status in (200, 201):
                    with self.lock:
                        self.acknowledged[table["id"]].append(str(event_id))
                        if sum(map(len, self.acknowledged.values())) >= KILL_AFTER:
                            self.enough.set()
                    head = answer["head"]["seq"]
                    break
                if status == 409:  # the other phone recorded first: this entry is dropped
                    with self.lock:
                        self.refused.append(str(event_id))
                    head = answer["head_seq"]
                    break
                if status not in (0, 502, 503, 504):
                    self.failures.append(f"{status}: {answer}")
                    return
                # No answer: it may or may not have been stored. Sent again, the same.
            else:
                self.failures.append(f"entry {event_id} never answered")
                return

    def run(self) -> list[threading.Thread]:
        threads = [
            threading.Thread(target=self.phone, args=(table,), daemon=True)
            for table in self.tables
            for _ in range(PHONES_PER_TABLE)
        ]
        for thread in threads:
            thread.start()
        return threads


# The site's log_format: "METHOD path PROTOCOL" status ... upstream=<tried, in order> ut=...
LOGGED = re.compile(
    r'"(?P<method>[A-Z]+) \S+ HTTP/[\d.]+" (?P<status>\d{3}) .* upstream=(?P<up>.*) ut='
)


def _logged_request(line: str) -> tuple[str, int, list[str]]:
    """Return an access log line's method, status and the instances nginx tried, in order."""
    found = LOGGED.search(line)
    assert found, line
    return found["method"], int(found["status"]), found["up"].split(", ")


def _verify_tables(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "verify_tables"],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_killed_app_server_loses_and_doubles_nothing(transactional_db, tmp_path):
    found = connection.settings_dict
    database = f"postgres://{found['USER']}@{found['HOST']}:{found['PORT']}/{found['NAME']}"
    env = {
        "DATABASE_URL": database,
        "TRUSTED_PROXIES": "127.0.0.1",
        "API_THROTTLE_ANON": "100000/min",
        # Each instance checks the chain after an append itself (no broker, no worker here).
        "CELERY_BROKER_URL": "",
        "GUNICORN_THREADS": "4",
    }
    port_a, port_b = free_port(), free_port()
    upstreams = [f"127.0.0.1:{port_a}", f"127.0.0.1:{port_b}"]
    with (
        gunicorn_instance(tmp_path, workers=1, port=port_a, name="app-a", **env) as (app_a, a),
        gunicorn_instance(tmp_path, workers=1, port=port_b, name="app-b", **env) as (_app_b, b),
        nginx_serving(tmp_path, upstreams) as nginx,
    ):
        tables = [_new_table(nginx.base) for _ in range(TABLES)]
        _cross_reads(tables[0], [a, b], rounds=CROSS_ROUNDS)

        phones = _Phones(nginx.base, tables)
        threads = phones.run()
        assert phones.enough.wait(timeout=120), phones.failures
        os.killpg(app_a.pid, signal.SIGKILL)  # the instance and its workers, mid-run
        app_a.wait(timeout=10)
        for thread in threads:
            thread.join(timeout=180)
        assert not any(thread.is_alive() for thread in threads)
        assert phones.failures == []

        # nginx alternated between the two, and served on after one was killed.
        requests = [_logged_request(line) for line in nginx.access_log().splitlines()]
        saved_by = Counter(up[-1] for method, status, up in requests if status in (200, 201))
        assert set(upstreams) <= set(saved_by), saved_by
        # The only errors nginx let through: saves that the killed instance was serving (a
        # POST already sent is never sent again); any other request went to the survivor.
        for method, status, tried in requests:
            if status >= 500:
                assert (method, tried) == ("POST", [upstreams[0]])

        # Every acknowledged append is in its log exactly once; no other entry is.
        for table in tables:
            logged = list(
                Event.objects.filter(table_id=table["id"], seq__gt=1)
                .order_by("seq")
                .values_list("event_id", flat=True)
            )
            logged = [str(event_id) for event_id in logged]
            acknowledged = phones.acknowledged[table["id"]]
            if table is tables[0]:
                logged = logged[CROSS_ROUNDS:]
            assert Counter(logged) == Counter(acknowledged)
            assert not set(logged) & set(phones.refused)
            # What the survivor serves is the log's head.
            state = _state(nginx.base, table)
            assert state["head_seq"] == 1 + len(logged) + (
                CROSS_ROUNDS if table is tables[0] else 0
            )

        # The killed instance comes back with nothing kept: it reads what the other wrote.
        with gunicorn_instance(tmp_path, workers=1, port=port_a, name="app-a2", **env) as (
            _app_a2,
            a2,
        ):
            for table in tables:
                _cross_reads(table, [b, a2], rounds=2)

    verified = _verify_tables(
        {"DATABASE_URL": database, "CHECKPOINT_LOG": str(tmp_path / "checkpoints.jsonl")}
    )
    assert verified.returncode == 0, verified.stderr
    assert "All tables verify." in verified.stdout
