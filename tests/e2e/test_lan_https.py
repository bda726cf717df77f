"""A phone on the table's Wi-Fi, in a real Chromium that reaches the app by a LAN name
(rummy.test, resolved to this machine's loopback so no traffic leaves it):

- over HTTPS, served as `make run HTTPS=1` serves it (gunicorn with the certificate that
  `manage.py local_ca` signed with this machine's own authority, which this Chromium trusts
  by its public key), the page is a secure context, the service worker takes it, and a table
  reopens with the network off; a hand recorded offline is sent (a POST over HTTPS from the
  LAN origin passes the CSRF check);
- over plain HTTP there is no service worker: the page says once what that costs, the note
  stays hidden once hidden, and a hand recorded offline is still kept and sent.
"""

import io
import os
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from cryptography import x509
from django.core.management import call_command
from playwright.sync_api import expect

from rummyref.local_ca import spki_sha256
from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import CHROMIUM, PHONE
from tests.e2e.test_offline import _record_offline, _start_gin_table, _wait_for_the_worker
from tests.gunicorn import ROOT
from tests.ports import free_port

pytestmark = [pytest.mark.e2e]

LAN_NAME = "rummy.test"
# What the test process's environment may hold that a local run does not: the server below
# runs on the embedded defaults, as `make run HTTPS=1` does, in a folder of its own.
NOT_PASSED_ON = (
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DATABASE_URL",
    "CACHE_URL",
    "CELERY_BROKER_URL",
    "ALLOWED_HOSTS",
    "DEBUG",
)


@pytest.fixture(scope="module")
def authority(tmp_path_factory) -> Path:
    """The local authority and a server certificate naming the LAN name, made by the command."""
    folder = tmp_path_factory.mktemp("local-ca")
    call_command("local_ca", "--folder", str(folder), "--name", LAN_NAME, stdout=io.StringIO())
    return folder


@pytest.fixture(scope="module")
def lan_browser(browser, authority):
    """A second Chromium (from the suite's Playwright) that trusts the local authority's
    certificates and resolves the LAN name to this machine's loopback address."""
    pins = [
        spki_sha256(x509.load_pem_x509_certificate((authority / name).read_bytes()))
        for name in ("server.pem", "rootCA.pem")
    ]
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--ignore-certificate-errors-spki-list={','.join(pins)}",
            f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
        ],
    )
    yield lan
    lan.close()


@pytest.fixture(scope="module")
def https_server(authority, tmp_path_factory):
    """Serve the app as `make run HTTPS=1` does: migrated, then gunicorn with --certfile and
    --keyfile from the authority's folder (on loopback here); yield its LAN address."""
    folder = tmp_path_factory.mktemp("https-run")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in NOT_PASSED_ON}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CACHE_DIR=str(folder / "cache"),
        LOCAL_CA_DIR=str(authority),
        LAN_HTTPS_PORT=str(port),
        # The LAN name stands for this machine's own (its hostname, its address), which a
        # local run allows by itself.
        ALLOWED_HOSTS=f"{LAN_NAME},localhost,127.0.0.1",
    )
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    command = [sys.executable, "-m", "gunicorn", "rummyref.wsgi", "--workers", "1"]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--no-control-socket"]
    command += ["--certfile", str(authority / "server.pem")]
    command += ["--keyfile", str(authority / "server-key.pem")]
    log_path = folder / "gunicorn.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        # Python trusts the authority's certificate for the name "localhost" it signed.
        trusted = ssl.create_default_context(cafile=str(authority / "rootCA.pem"))
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(
                    f"https://localhost:{port}/static/css/app.css", timeout=5, context=trusted
                ).close()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    pytest.fail(log_path.read_text())
                time.sleep(0.2)
        try:
            yield f"https://{LAN_NAME}:{port}"
        finally:
            server.terminate()
            server.wait(timeout=20)


def _accessible_in_both_schemes(page) -> None:
    """No blocking axe finding on the page as it stands, in light and in dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, impacts=BLOCKING, best_practice=True) == [], scheme
    page.emulate_media(color_scheme="light")


@pytest.fixture
def lan_phone(lan_browser):
    """Open a phone-sized page in the LAN Chromium at ``base_url``; fail on a CSP refusal."""
    contexts, refused = [], []

    def watch(message):
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    def open_phone(base_url: str):
        context = lan_browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US", base_url=base_url
        )
        context.set_default_timeout(15_000)
        context.on("console", watch)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
    assert not refused, f"the Content-Security-Policy refused: {refused}"


class TestHttpsOnTheLan:
    def test_a_table_reopens_offline_over_https_by_a_lan_name(self, lan_phone, https_server):
        page = lan_phone(https_server)
        page.goto("/")
        assert page.url.startswith(f"https://{LAN_NAME}:")
        assert page.evaluate("window.isSecureContext") is True
        expect(page.get_by_test_id("insecure-notice")).to_be_hidden()

        _start_gin_table(page)
        table_url = page.url
        _wait_for_the_worker(page)
        page.reload()  # through the worker, which keeps the page
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL").startswith(
            f"https://{LAN_NAME}:"
        )

        page.context.set_offline(True)
        page.reload()
        expect(page.get_by_test_id("total-0")).to_have_text("0")
        expect(page.get_by_role("status").filter(has_text="Offline")).to_be_visible()
        page.goto("/")
        page.goto(table_url)
        expect(page.get_by_text("Anna").first).to_be_visible()

        # A hand recorded offline waits, marked, and is sent over HTTPS when the Wi-Fi is back.
        _record_offline(page, "Anna", 12)
        expect(page.get_by_test_id("outbox").locator("[data-outbox-count]")).to_have_text("1")
        expect(page.get_by_test_id("pending-0")).to_have_text("(+37 pending)")
        page.context.set_offline(False)
        expect(page.get_by_test_id("total-0")).to_have_text("37")
        expect(page.get_by_test_id("outbox")).to_be_hidden()

    def test_the_authoritys_certificate_is_handed_out_over_https_too(
        self, lan_phone, https_server, authority
    ):
        page = lan_phone(https_server)
        page.goto("/ca/")
        expect(page.get_by_test_id("local-ca-secure")).to_be_visible()
        status, kind, body = page.evaluate(
            """async () => {
              const answer = await fetch("/ca/rummyref-local-ca.crt");
              const body = Array.from(new Uint8Array(await answer.arrayBuffer()));
              return [answer.status, answer.headers.get("content-type"), body];
            }"""
        )
        assert (status, kind) == (200, "application/x-x509-ca-cert")
        served = x509.load_der_x509_certificate(bytes(body))
        assert served == x509.load_pem_x509_certificate((authority / "rootCA.pem").read_bytes())


@pytest.mark.django_db(transaction=True)
class TestPlainHttpOnTheLan:
    def test_the_note_shows_once_and_stays_hidden_and_the_outbox_still_works(
        self, lan_phone, live_server, settings
    ):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_NAME]
        port = live_server.url.rsplit(":", 1)[1]
        page = lan_phone(f"http://{LAN_NAME}:{port}")
        page.goto("/")
        assert page.url.startswith(f"http://{LAN_NAME}:")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'serviceWorker' in navigator") is False
        note = page.get_by_test_id("insecure-notice")
        expect(note).to_be_visible()
        expect(note).to_contain_text("no offline reopening")
        expect(note.get_by_role("link", name="Set up HTTPS")).to_have_attribute("href", "/ca/")
        # One short line on a 390 px phone, not a fifth of the first screen.
        note.screenshot(path="test-artifacts/phone-http-note.png")
        assert note.bounding_box()["height"] <= 48
        hide = note.get_by_role("button", name="Hide this note")
        box = hide.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        _accessible_in_both_schemes(page)

        _start_gin_table(page)
        expect(note).to_be_visible()  # not hidden yet: it stays until the player hides it
        note.get_by_role("button", name="Hide this note").click()
        expect(note).to_be_hidden()
        page.reload()
        expect(page.get_by_test_id("total-0")).to_have_text("0")
        expect(page.get_by_test_id("insecure-notice")).to_be_hidden()
        other = page.context.new_page()
        other.goto("/")
        expect(other.get_by_test_id("insecure-notice")).to_be_hidden()
        other.close()

        # No worker, but the outbox keeps a hand recorded offline and sends it once back.
        page.context.set_offline(True)
        _record_offline(page, "Anna", 12)
        expect(page.get_by_test_id("outbox").locator("[data-outbox-count]")).to_have_text("1")
        expect(page.get_by_test_id("pending-0")).to_have_text("(+37 pending)")
        page.context.set_offline(False)
        expect(page.get_by_test_id("total-0")).to_have_text("37")
        expect(page.get_by_test_id("outbox")).to_be_hidden()

    def test_the_help_page_it_links_to_says_how_to_install_the_certificate(
        self, lan_phone, live_server, settings
    ):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_NAME]
        port = live_server.url.rsplit(":", 1)[1]
        page = lan_phone(f"http://{LAN_NAME}:{port}")
        page.goto("/")
        page.get_by_test_id("insecure-notice").get_by_role("link").click()
        expect(page.get_by_role("heading", name="HTTPS at the table")).to_be_visible()
        expect(page.get_by_role("heading", name="Android")).to_be_visible()
        expect(page.get_by_role("heading", name="iPhone and iPad")).to_be_visible()
        _accessible_in_both_schemes(page)

    def test_plain_http_keeps_the_screen_on_with_a_looping_video_and_a_named_switch(
        self, lan_phone, live_server, settings
    ):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_NAME]
        port = live_server.url.rsplit(":", 1)[1]
        page = lan_phone(f"http://{LAN_NAME}:{port}")
        page.goto("/")
        # Plain HTTP: the browser gives no Wake Lock API, so the fallback is what keeps it on.
        assert page.evaluate("'wakeLock' in navigator") is False
        _start_gin_table(page)
        toggle = page.get_by_role("button", name="Screen on")
        expect(toggle).to_be_visible()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        video = page.get_by_test_id("screen-on-video")
        expect(video).to_have_count(1)
        page.wait_for_function(
            "() => { const v = document.querySelector('.screen-on-video');"
            " return v && !v.paused && v.muted && v.loop; }"
        )
        toggle.click()  # off: the video stops, and the choice stays on this phone
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("document.querySelector('.screen-on-video').paused") is True
        page.reload()
        expect(page.get_by_role("button", name="Screen on")).to_have_attribute(
            "aria-pressed", "false"
        )
        page.get_by_role("button", name="Screen on").click()  # on again, from the tap itself
        expect(page.get_by_role("button", name="Screen on")).to_have_attribute(
            "aria-pressed", "true"
        )
        page.wait_for_function("() => !document.querySelector('.screen-on-video').paused")
        _accessible_in_both_schemes(page)
