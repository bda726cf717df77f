"""Live updates in the production topology (docs/live.md): the shipped nginx site sends the
streams to Pushpin (its location for them) and everything else to two gunicorn instances;
Pushpin asks the same two (the second its fallback), which both publish to it. A stream
opened through nginx hears every save at once, whichever instance took it: nginx does not
buffer it, and every instance publishes to the one Pushpin."""

import http.client
import json
import ssl
import urllib.request
import uuid

import pytest
from django.db import connection

from games.tables import heads
from tests.deploy.nginx import nginx_serving
from tests.e2e.pushpin import Pushpin
from tests.gunicorn import gunicorn_instance
from tests.ports import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

TLS = ssl._create_unverified_context()  # the test's own self-signed certificate
SAVES = 4  # two through each instance
# A bound on waiting for an event, never a measure of speed: nginx buffering the stream
# would hold the events until the keep-alive (20 s) or the end.
READ_SECONDS = 10


def _api(base: str, path: str, body: dict, key: str = "") -> dict:
    headers = {"Content-Type": "application/json", "X-Table-Key": key}
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30, context=TLS) as answer:
        assert answer.status == 201
        return json.loads(answer.read())


def _next_id(stream) -> int:
    """Read the stream up to its next event id and return it."""
    while line := stream.readline():
        if line.startswith(b"id: "):
            return int(line[4:])
    raise AssertionError("the stream ended")


def test_a_stream_through_nginx_hears_every_save_from_either_app_server(transactional_db, tmp_path):
    engine = Pushpin(folder=tmp_path / "pushpin", app="")
    found = connection.settings_dict
    env = {
        "DATABASE_URL": f"postgres://{found['USER']}@{found['HOST']}:{found['PORT']}/{found['NAME']}",
        "TRUSTED_PROXIES": "127.0.0.1",
        "CELERY_BROKER_URL": "",
        "GUNICORN_THREADS": "4",
        "PUSH_URL": engine.publish_url,
        "PUSH_SIG_KEY": engine.sig_key,
    }
    port_a, port_b = free_port(), free_port()
    engine.app = f"127.0.0.1:{port_a},127.0.0.1:{port_b}"
    engine.write_config()
    with (
        gunicorn_instance(tmp_path, workers=1, port=port_a, name="app-a", **env) as (_a, a),
        gunicorn_instance(tmp_path, workers=1, port=port_b, name="app-b", **env) as (_b, b),
    ):
        engine.start()
        try:
            apps = [f"127.0.0.1:{port_a}", f"127.0.0.1:{port_b}"]
            push = f"127.0.0.1:{engine.http_port}"
            with nginx_serving(tmp_path, apps, push=push) as nginx:
                table = _api(
                    nginx.base,
                    "/api/v1/tables/",
                    {"variant": "gin", "players": ["Anna", "Bruno"], "options": {"target": 500}},
                )
                browser = http.client.HTTPSConnection(
                    "localhost", nginx.https_port, timeout=READ_SECONDS, context=TLS
                )
                token = heads.watch_token(table["id"])
                browser.request("GET", f"/t/{table['id']}/live/?w={token}")
                stream = browser.getresponse()
                assert stream.status == 200, stream.read()[:500]
                assert stream.getheader("Content-Type") == "text/event-stream"
                assert _next_id(stream) == 1  # the head: the table's creation
                for seq in range(2, 2 + SAVES):
                    _api(
                        (a, b)[seq % 2],  # each instance's publisher in turn
                        f"/api/v1/tables/{table['id']}/events/",
                        {
                            "event_id": str(uuid.uuid4()),
                            "expected_seq": seq - 1,
                            "type": "hand_recorded",
                            "payload": {"mode": "quick", "ending": "wall"},
                        },
                        key=table["scorekeeper_key"],
                    )
                    assert _next_id(stream) == seq
                browser.close()
        finally:
            engine.close()
