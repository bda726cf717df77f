"""A real gunicorn with several worker processes, for tests of what must hold across the
app's processes (throttles counted in the shared cache)."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def gunicorn_serving(log_dir: Path, *, workers: int = 3, **env: str):
    """Serve the app with ``workers`` processes on a free loopback port, with ``env`` on top
    of this process's environment; yield its base address."""
    environment = {**os.environ, **env}
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    port = _free_port()
    log_path = log_dir / "gunicorn.log"
    with open(log_path, "w") as log:
        command = [sys.executable, "-m", "gunicorn", "rummyref.wsgi", "--workers", str(workers)]
        command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/static/css/app.css", timeout=5).close()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    pytest.fail(log_path.read_text())
                time.sleep(0.2)
        try:
            yield base
        finally:
            server.terminate()
            server.wait(timeout=20)
