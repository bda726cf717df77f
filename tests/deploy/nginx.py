"""A real nginx serving deploy/nginx/rummyref.conf, the site file we ship, for the tests of
what it does in front of gunicorn.

The site file is used as shipped, but for what any site changes in it (its host name and
certificate, its app servers, its static files) and what a test must change (loopback
ports, logs in the test's folder). Each of those is replaced where it is expected exactly;
a site file that no longer has one fails here, so the tests always run the file we ship.
nginx runs in the foreground as this test's child, with its configuration, pid file, logs
and temporary files in the test's folder; /etc/nginx is never read or written.
"""

import os
import re
import resource
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.gunicorn import ROOT
from tests.ports import free_port

SITE_FILE = ROOT / "deploy" / "nginx" / "rummyref.conf"
HOST = "rummyref.example.org"
STATIC_ROOT = "/srv/rummyref/staticfiles/"
UPSTREAM_LINE = "    server 127.0.0.1:8000;\n"
PUSH_LINE = "    server 127.0.0.1:7999;\n"


def nginx_binary() -> str:
    """Return nginx's path; fail the test (never skip it) if it is not installed."""
    found = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    if found is None:
        pytest.fail(
            "nginx is not installed: these tests serve the app through deploy/nginx/"
            "rummyref.conf in a real nginx. Install Debian's package: apt-get install nginx"
        )
    return found


def _replaced(text: str, old: str, new: str, *, count: int = 1) -> str:
    found = text.count(old)
    assert found == count, f"{SITE_FILE.name}: expected {old!r} {count} time(s), found {found}"
    return text.replace(old, new)


def rendered_site(
    *,
    folder: Path,
    upstreams: list[str],
    http_port: int,
    https_port: int,
    cert: Path,
    key: Path,
    push: str = "",
) -> str:
    """Return the shipped site file with this test's values in place of a site's (``push``:
    the test's Pushpin, host:port, for the live streams; else a port nothing listens on)."""
    site = SITE_FILE.read_text()
    site = _replaced(site, PUSH_LINE, f"    server {push or f'127.0.0.1:{free_port()}'};\n")
    site = _replaced(site, f"/etc/letsencrypt/live/{HOST}/fullchain.pem", str(cert))
    site = _replaced(site, f"/etc/letsencrypt/live/{HOST}/privkey.pem", str(key))
    site = _replaced(site, f"server_name {HOST};", "server_name localhost;", count=2)
    site = _replaced(site, UPSTREAM_LINE, "".join(f"    server {u};\n" for u in upstreams))
    site = _replaced(site, f"alias {STATIC_ROOT};", f"alias {ROOT / 'static'}/;")
    site = _replaced(site, "/var/log/nginx/rummyref.access.log", str(folder / "access.log"))
    site = _replaced(site, "/var/log/nginx/rummyref.error.log", str(folder / "site-error.log"))
    site = _replaced(site, "    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n")
    site = _replaced(site, "    listen [::]:80;\n", "")
    site = _replaced(
        site, "    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{https_port} ssl http2;\n"
    )
    site = _replaced(site, "    listen [::]:443 ssl http2;\n", "")
    return site


def documented_nginx_conf() -> tuple[int, int]:
    """Return the worker_rlimit_nofile and worker_connections the site file's comments tell
    a site to set in nginx.conf, which the tests' nginx.conf uses too."""
    text = SITE_FILE.read_text()
    rlimit = re.search(r"^#\s+worker_rlimit_nofile (\d+);$", text, re.MULTILINE)
    connections = re.search(r"^#\s+events \{ worker_connections (\d+); \}$", text, re.MULTILINE)
    assert rlimit and connections, f"{SITE_FILE.name} no longer documents nginx.conf's values"
    return int(rlimit[1]), int(connections[1])


def _open_files_allowed(wanted: int) -> int:
    """Raise this process's open-files limit towards ``wanted`` (nginx, its child, inherits
    it; only root may pass the hard limit); return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def _main_config(folder: Path, site: Path) -> str:
    """Return an nginx.conf that, as Debian's does, includes the site inside its http block,
    with the worker values the site file documents."""
    rlimit, connections = documented_nginx_conf()
    allowed = _open_files_allowed(rlimit)
    rlimit = rlimit if os.geteuid() == 0 else allowed
    # As root (CI), workers would switch to "nobody", who cannot write this test's folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\n"
        f"worker_rlimit_nofile {rlimit};\n"
        f"pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} info;\n"
        f"events {{ worker_connections {connections}; }}\n"
        "http {\n"
        "    types { text/html html; text/css css; application/javascript js; }\n"
        "    default_type application/octet-stream;\n"
        f"{temp}"
        f"    access_log {folder / 'default-access.log'};\n"
        f"    include {site};\n"
        "}\n"
    )


def _certificate(folder: Path) -> tuple[Path, Path]:
    """Make a self-signed certificate for localhost (openssl, which Debian always has)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("openssl is not installed (apt-get install openssl): the site serves TLS.")
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    subprocess.run(
        [openssl, *request, "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


@dataclass(frozen=True)
class Nginx:
    https_port: int
    http_port: int
    folder: Path

    @property
    def base(self) -> str:
        return f"https://localhost:{self.https_port}"

    def access_log(self) -> str:
        return (self.folder / "access.log").read_text()

    def error_logs(self) -> str:
        """Return both error logs: the site's, and nginx.conf's (at info level here)."""
        return "".join((self.folder / name).read_text() for name in ("site-error.log", "error.log"))


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def nginx_serving(folder: Path, upstreams: list[str], push: str = ""):
    """Serve the shipped site in front of ``upstreams`` (host:port each), its live streams
    in front of ``push`` (Pushpin's host:port) if given; yield an Nginx."""
    binary = nginx_binary()
    folder = folder / "nginx"
    folder.mkdir()
    cert, key = _certificate(folder)
    ports = Nginx(https_port=free_port(), http_port=free_port(), folder=folder)
    site = folder / "rummyref.conf"
    site.write_text(
        rendered_site(
            folder=folder,
            upstreams=upstreams,
            http_port=ports.http_port,
            https_port=ports.https_port,
            cert=cert,
            key=key,
            push=push,
        )
    )
    config = folder / "nginx.conf"
    config.write_text(_main_config(folder, site))
    command = [binary, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    output = folder / "stderr.log"
    with open(output, "w") as stderr:
        server = subprocess.Popen(
            [*command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=stderr
        )
    try:
        deadline = time.monotonic() + 15
        while not _listening(ports.https_port):
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"nginx did not start: {output.read_text()}")
            time.sleep(0.1)
        yield ports
    finally:
        if server.poll() is None:
            server.terminate()  # SIGTERM: nginx's fast shutdown
            server.wait(timeout=20)
