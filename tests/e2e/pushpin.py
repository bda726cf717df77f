"""A real Pushpin (Debian's package) in front of the live test server, for the tests of
live updates (docs/live.md).

It runs the shipped deploy/pushpin/pushpin.conf as this test's child, with the run folder,
logs and routes in the test's folder and free loopback ports (its proxy, its publish
endpoint and its internal sockets) in place of a site's, so tests never share one;
/etc/pushpin is never read or written. It can be stopped and started again on the same
ports: a dropped stream.
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.gunicorn import ROOT
from tests.ports import free_port
from tests.push_engine import SIG_KEY

CONFIG_FILE = ROOT / "deploy" / "pushpin" / "pushpin.conf"

START_SECONDS = 20


def pushpin_binary() -> str:
    """Return pushpin's path; fail the test (never skip it) if it is not installed."""
    found = shutil.which("pushpin")
    if found is None:
        pytest.fail(
            "pushpin is not installed: these tests stream through a real push engine. "
            "Install Debian's package: apt-get install pushpin"
        )
    return found


def _replaced(text: str, old: str, new: str) -> str:
    found = text.count(old)
    assert found == 1, f"{CONFIG_FILE.name}: expected {old!r} once, found {found}"
    return text.replace(old, new)


def config_text(
    folder: Path, *, run_folder: Path, http_port: int, publish_port: int, ports: list[int]
) -> str:
    """Return the shipped pushpin.conf with this test's folders and free ports in place of a
    site's; a line that is no longer there fails here, so the tests run the file we ship."""
    pull, sub, command = ports
    text = CONFIG_FILE.read_text()
    for old, new in (
        ("rundir=/var/run/pushpin", f"rundir={run_folder}"),
        ("logdir=/var/log/pushpin", f"logdir={folder}/log"),
        ("http_port=7999", f"http_port={http_port}"),
        ("sig_key=change-this-secret", f"sig_key={SIG_KEY}"),
        ("push_in_spec=tcp://127.0.0.1:5560", f"push_in_spec=tcp://127.0.0.1:{pull}"),
        ("push_in_sub_specs=tcp://127.0.0.1:5562", f"push_in_sub_specs=tcp://127.0.0.1:{sub}"),
        ("push_in_http_port=5561", f"push_in_http_port={publish_port}"),
        ("command_spec=tcp://127.0.0.1:5563", f"command_spec=tcp://127.0.0.1:{command}"),
    ):
        text = _replaced(text, old, new)
    return text


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _session_alive(leader: int) -> bool:
    try:
        os.killpg(leader, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class Pushpin:
    """One Pushpin serving ``app`` (host:port): browsers open ``url``, the app publishes to
    ``publish_url``."""

    folder: Path
    app: str
    # Its sockets: a Unix socket's path may hold 107 bytes, and a test's own folder (deep
    # under a parallel run's) can be longer than that with Pushpin's socket names after it.
    run_folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pushpin-")))
    http_port: int = field(default_factory=free_port)
    publish_port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    # What it signs the requests it passes on with: the app's PUSH_SIG_KEY beside it.
    sig_key: str = SIG_KEY

    @property
    def url(self) -> str:
        return f"http://localhost:{self.http_port}"

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self.publish_port}"

    def write_config(self) -> Path:
        (self.folder / "log").mkdir(parents=True, exist_ok=True)
        (self.folder / "routes").write_text(f"* {self.app}\n")
        config = self.folder / "pushpin.conf"
        ports = [free_port() for _ in range(3)]
        config.write_text(
            config_text(
                self.folder,
                run_folder=self.run_folder,
                http_port=self.http_port,
                publish_port=self.publish_port,
                ports=ports,
            )
        )
        return config

    def start(self) -> None:
        """Start it (again) and return once its proxy and publish endpoint listen."""
        config = self.folder / "pushpin.conf"
        with open(self.folder / "stderr.log", "a") as output:
            # A session of its own: stopping it stops condure, zurl and its proxy too.
            self.process = subprocess.Popen(
                [pushpin_binary(), "--config", str(config)],
                stdout=output,
                stderr=output,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_SECONDS
        while not (_listening(self.http_port) and _listening(self.publish_port)):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"pushpin did not start: {self.logs()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop it and every process it started (the browsers' streams drop)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)
        # Its children may outlive the runner by a moment, holding the ports a restart binds
        # again: wait until every process of its session is gone.
        deadline = time.monotonic() + START_SECONDS
        while _session_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.process = None

    def close(self) -> None:
        """Stop it for good and remove its sockets' folder."""
        self.stop()
        shutil.rmtree(self.run_folder, ignore_errors=True)

    def logs(self) -> str:
        texts = [p.read_text() for p in sorted(self.folder.glob("log/*.log"))]
        return "\n".join([*texts, (self.folder / "stderr.log").read_text()])


@pytest.fixture
def pushpin(live_server, settings, tmp_path):
    """A Pushpin in front of the live server, push on in the app's settings; its phones'
    timed polls set to a minute, so that what shows within the test came by the stream."""
    port = live_server.url.rsplit(":", 1)[1]
    engine = Pushpin(folder=tmp_path / "pushpin", app=f"127.0.0.1:{port}")
    engine.write_config()
    engine.start()
    settings.PUSH_URL = engine.publish_url
    settings.PUSH_SIG_KEY = SIG_KEY
    settings.TABLE_POLL_MS = 60_000
    settings.TV_POLL_MS = 60_000
    settings.NIGHT_POLL_MS = 60_000
    try:
        yield engine
    finally:
        engine.close()
