"""A real Pushpin (Debian's package) in front of the live test server, for the tests of
live updates (docs/live.md).

It runs as this test's child with a configuration, run folder and logs of its own in the
test's folder, on free loopback ports (its proxy, its publish endpoint and its internal
sockets), so helpers and other tests never share one; /etc/pushpin is never read or
written. It can be stopped and started again on the same ports: a dropped stream.
"""

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.gunicorn import _free_port

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


def config_text(folder: Path, *, http_port: int, publish_port: int, ports: list[int]) -> str:
    """Return a pushpin.conf for this test: Debian's services (zurl too, which the package
    otherwise expects as a system service), everything in ``folder``."""
    pull, sub, command = ports
    ipc = f"ipc://{folder}/run/"
    return (
        "[global]\ninclude={libdir}/internal.conf\n"
        f"rundir={folder}/run\nipc_prefix=t-\nport_offset=0\nstats_connection_ttl=120\n"
        "[runner]\nservices=condure,zurl,pushpin-proxy,pushpin-handler\n"
        f"http_port={http_port}\nlogdir={folder}/log\nlog_level=2\n"
        "client_buffer_size=8192\nclient_maxconn=20000\n"
        "[proxy]\nroutesfile=routes\nsig_iss=pushpin\nsig_key=test-only\n"
        f"zurl_out_specs={ipc}t-zurl-in\nzurl_out_stream_specs={ipc}t-zurl-in-stream\n"
        f"zurl_in_specs={ipc}t-zurl-out\n"
        f"[handler]\npush_in_spec=tcp://127.0.0.1:{pull}\n"
        f"push_in_sub_specs=tcp://127.0.0.1:{sub}\npush_in_http_addr=127.0.0.1\n"
        f"push_in_http_port={publish_port}\nstats_spec={ipc}t-stats\n"
        f"command_spec=tcp://127.0.0.1:{command}\n"
    )


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Pushpin:
    """One Pushpin serving ``app`` (host:port): browsers open ``url``, the app publishes to
    ``publish_url``."""

    folder: Path
    app: str
    http_port: int = field(default_factory=_free_port)
    publish_port: int = field(default_factory=_free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://localhost:{self.http_port}"

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self.publish_port}"

    def write_config(self) -> Path:
        for name in ("run", "log"):
            (self.folder / name).mkdir(parents=True, exist_ok=True)
        (self.folder / "routes").write_text(f"* {self.app}\n")
        config = self.folder / "pushpin.conf"
        ports = [_free_port() for _ in range(3)]
        config.write_text(
            config_text(
                self.folder, http_port=self.http_port, publish_port=self.publish_port, ports=ports
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
        # Its children may outlive the runner by a moment: wait until its port is free.
        deadline = time.monotonic() + START_SECONDS
        while _listening(self.http_port) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.process = None

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
    settings.TABLE_POLL_MS = 60_000
    settings.TV_POLL_MS = 60_000
    try:
        yield engine
    finally:
        engine.stop()
