"""A real gunicorn with several worker processes, for tests of what must hold across the
app's processes (throttles counted in the shared cache), and behind nginx (tests/deploy)."""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def gunicorn_serving(log_dir: Path, *, workers: int = 3, **env: str):
    """Serve the app with ``workers`` processes on a free loopback port, with ``env`` on top
    of this process's environment; yield its base address."""
    with gunicorn_instance(log_dir, workers=workers, **env) as (_server, base):
        yield base


@contextmanager
def gunicorn_instance(
    log_dir: Path, *, workers: int = 3, port: int | None = None, name: str = "gunicorn", **env: str
):
    """As gunicorn_serving, on ``port`` if given; yield the server (its master process, which
    leads a process group of its own with its workers) and its base address."""
    environment = {**os.environ, **env}
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    port = port or free_port()
    log_path = log_dir / f"{name}.log"
    with open(log_path, "w") as log:
        command = [sys.executable, "-m", "gunicorn", "rummyref.wsgi", "--workers", str(workers)]
        command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=log,
            # So that a test can kill the whole instance at once (os.killpg), workers too.
            start_new_session=True,
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
            yield server, base
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=20)
