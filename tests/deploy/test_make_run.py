"""README.md's `make run` lines, run as written: each serves the app with its demo, plain or
over HTTPS with this machine's own certificate, on the port it names.

Two things are changed, so that nothing is written into the checkout and no port is taken
twice: the database, the cache and the certificate authority's folder are this test's own
(DATABASE_URL, CACHE_DIR, LOCAL_CA_DIR), and a free port stands for 8000 and 8123.
"""

import os
import re
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.doc_commands import fenced_commands
from tests.gunicorn import ROOT
from tests.ports import free_port

README_RUNS = [
    line
    for line in fenced_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    if line.startswith("make run")
]
# The demo league's standings, which the README sends a newcomer to.
DEMO_STANDINGS = "/clubs/circolo-demo/l/gin-del-martedi/standings/"
# What the run's own environment must not take from the test's: it is the embedded defaults.
NOT_PASSED_ON = ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL")
NOT_PASSED_ON += ("ALLOWED_HOSTS", "DEBUG", "SECRET_KEY", "LOG_CHAIN_KEY", "PUSH_URL")


def _free_pair() -> int:
    """A free port whose next port is free too (HTTPS=1 also serves on PORT + 1)."""
    for _ in range(50):
        port = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    pytest.fail("no two free ports in a row")


def _command(line: str, port: int) -> str:
    """The README's line on a free port: its own PORT= replaced, or one added."""
    if "PORT=" in line:
        return re.sub(r"PORT=\d+", f"PORT={port}", line)
    return f"{line} PORT={port}"


def _get(url: str) -> tuple[int, str]:
    unverified = ssl._create_unverified_context()  # the run's own authority signed it
    try:
        with urllib.request.urlopen(url, timeout=10, context=unverified) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _serving(url: str, run: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + 180  # the first migrate of a new database
    while time.monotonic() < deadline:
        try:
            if _get(url)[0] == 200:
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError, ssl.SSLError):
            pass
        assert run.poll() is None, log.read_text()
        time.sleep(0.5)
    pytest.fail(f"{url} did not answer:\n{log.read_text()}")


def test_the_readme_names_each_way_to_run():
    assert README_RUNS == ["make run", "make run HTTPS=1", "make run PORT=8123 HTTPS=1", "make run"]


@pytest.mark.parametrize("line", sorted(set(README_RUNS)))
def test_a_readme_run_serves_the_demo(line, tmp_path):
    port = _free_pair()
    env = {key: value for key, value in os.environ.items() if key not in NOT_PASSED_ON}
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CACHE_DIR": str(tmp_path / "cache"),
        "LOCAL_CA_DIR": str(tmp_path / "ca"),
    }
    log = tmp_path / "run.log"
    with open(log, "w") as output:
        run = subprocess.Popen(
            ["bash", "-c", f"exec {_command(line, port)}"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make, the servers and runserver's reloader, all stopped
        )
    https = "HTTPS=1" in line
    base = f"{'https' if https else 'http'}://127.0.0.1:{port}"
    try:
        _serving(f"{base}/", run, log)
        status, page = _get(f"{base}{DEMO_STANDINGS}")
        assert status == 200, page
        assert "Circolo Demo" in page
        printed = log.read_text()
        assert f":{port}/" in printed  # the address phones open, with its QR code
        if https:
            # The plain-HTTP port next to it hands phones the certificate.
            status, page = _get(f"http://127.0.0.1:{port + 1}/ca/")
            assert status == 200, page
            assert (tmp_path / "ca" / "rootCA.pem").exists()
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        run.wait(timeout=30)
