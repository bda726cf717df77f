"""`make run HTTPS=1`'s own certificate authority (manage.py local_ca): made once and kept,
a server certificate it signs naming this machine's addresses (made again when they change),
key files only their owner reads, and the authority's certificate, never its key, handed out
at /ca/; the plain-HTTP listener sends everything else to HTTPS."""

import io
import os
import stat

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory

from rummyref import local_ca

LAN = "192.168.1.20"


@pytest.fixture
def folder(tmp_path, settings, monkeypatch):
    settings.LOCAL_CA_DIR = tmp_path / "ca"
    monkeypatch.setattr("games.management.commands.local_ca.lan_addresses", lambda: [LAN])
    return tmp_path / "ca"


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("local_ca", *args, stdout=out)
    return out.getvalue()


def _certificate(path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


class TestTheAuthority:
    def test_it_is_made_once_and_reused_by_every_later_run(self, folder):
        first = _run("--port", "8000")
        assert "Made this machine's certificate authority" in first
        authority = (folder / "rootCA.pem").read_bytes()
        key = (folder / "rootCA-key.pem").read_bytes()

        second = _run("--port", "8000")
        assert "Made this machine's certificate authority" not in second
        assert "Using the HTTPS certificate" in second
        assert (folder / "rootCA.pem").read_bytes() == authority
        assert (folder / "rootCA-key.pem").read_bytes() == key

    def test_it_is_a_certificate_authority_for_one_level_only(self, folder):
        _run()
        authority = _certificate(folder / "rootCA.pem")
        constraints = authority.extensions.get_extension_for_class(x509.BasicConstraints).value
        assert constraints.ca and constraints.path_length == 0
        assert authority.extensions.get_extension_for_class(x509.KeyUsage).value.key_cert_sign
        assert "RummyRef local CA" in authority.subject.rfc4514_string()

    def test_half_an_authority_is_refused_not_replaced(self, folder):
        _run()
        (folder / "rootCA-key.pem").unlink()
        with pytest.raises(CommandError, match="half a certificate authority"):
            _run()
        assert (folder / "rootCA.pem").exists()


class TestTheServerCertificate:
    def test_it_chains_to_the_authority_and_names_this_machines_addresses(self, folder):
        output = _run("--port", "8443", "--cert-port", "8444")
        server = _certificate(folder / "server.pem")
        authority = _certificate(folder / "rootCA.pem")
        server.verify_directly_issued_by(authority)  # raises if it does not chain
        names = set(local_ca.certificate_names(server))
        assert {"localhost", "127.0.0.1", "::1", LAN} <= names
        usage = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
        assert x509.oid.ExtendedKeyUsageOID.SERVER_AUTH in usage
        assert not server.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        # iOS refuses a TLS certificate valid for more than 825 days.
        assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 825
        assert f"open http://{LAN}:8444/ca/" in output
        assert f"open https://{LAN}:8443/" in output
        assert output.count("█") > 100  # the QR codes

    def test_its_key_matches_it(self, folder):
        _run()
        server = _certificate(folder / "server.pem")
        key = serialization.load_pem_private_key((folder / "server-key.pem").read_bytes(), None)
        assert local_ca.spki_der(server) == key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )

    def test_it_is_kept_while_the_addresses_stay_and_made_again_when_they_change(
        self, folder, monkeypatch
    ):
        _run()
        before = (folder / "server.pem").read_bytes()
        _run()
        assert (folder / "server.pem").read_bytes() == before

        monkeypatch.setattr(
            "games.management.commands.local_ca.lan_addresses", lambda: ["10.0.0.7"]
        )
        output = _run()
        assert "Made the HTTPS certificate" in output
        server = _certificate(folder / "server.pem")
        assert "10.0.0.7" in local_ca.certificate_names(server)
        assert LAN not in local_ca.certificate_names(server)
        server.verify_directly_issued_by(_certificate(folder / "rootCA.pem"))

    def test_extra_names_are_carried(self, folder):
        _run("--name", "rummy.test")
        assert "rummy.test" in local_ca.certificate_names(_certificate(folder / "server.pem"))

    def test_one_signed_by_another_authority_is_made_again(self, folder, tmp_path):
        _run()
        other = tmp_path / "other"
        names = local_ca.machine_names([LAN])
        local_ca.ensure_server_certificate(other, names)
        (folder / "server.pem").write_bytes((other / "server.pem").read_bytes())
        (folder / "server-key.pem").write_bytes((other / "server-key.pem").read_bytes())
        again = local_ca.ensure_server_certificate(folder, names)
        assert again.issued
        _certificate(folder / "server.pem").verify_directly_issued_by(
            _certificate(folder / "rootCA.pem")
        )


class TestKeyFiles:
    def test_keys_are_read_by_their_owner_alone_whatever_the_umask(self, folder):
        previous = os.umask(0)
        try:
            _run()
        finally:
            os.umask(previous)
        for name in ("rootCA-key.pem", "server-key.pem"):
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
        assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0

    def test_a_key_loosened_by_hand_is_tightened_at_the_next_run(self, folder):
        _run()
        os.chmod(folder / "server-key.pem", 0o644)
        os.chmod(folder / "rootCA-key.pem", 0o644)
        _run()
        for name in ("rootCA-key.pem", "server-key.pem"):
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name

    def test_the_folder_is_ignored_by_git(self):
        from pathlib import Path

        ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text().split()
        assert "/.local-ca/" in ignored


@pytest.mark.django_db
class TestHandedOut:
    def test_the_authoritys_certificate_is_served_alone_never_a_key(self, folder, settings):
        settings.DEBUG = True
        _run()
        response = Client().get("/ca/rummyref-local-ca.crt")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/x-x509-ca-cert"
        assert "rummyref-local-ca.crt" in response["Content-Disposition"]
        served = x509.load_der_x509_certificate(response.content)
        assert served == _certificate(folder / "rootCA.pem")
        body = response.content
        for name in ("rootCA-key.pem", "server-key.pem"):
            key = serialization.load_pem_private_key((folder / name).read_bytes(), None)
            secret = key.private_numbers().private_value.to_bytes(32, "big")
            assert secret not in body
            assert b"PRIVATE KEY" not in body

    def test_android_gets_a_file_to_save_and_iphone_a_profile_to_install(self, folder, settings):
        settings.DEBUG = True
        _run()
        android = Client(headers={"user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8)"})
        saved = android.get("/ca/rummyref-local-ca.crt")
        assert saved["Content-Type"] == "application/octet-stream"
        assert saved["Content-Disposition"] == 'attachment; filename="rummyref-local-ca.crt"'
        iphone = Client(headers={"user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0)"})
        profile = iphone.get("/ca/rummyref-local-ca.crt")
        assert profile["Content-Type"] == "application/x-x509-ca-cert"
        assert profile["Content-Disposition"].startswith("inline;")
        assert saved.content == profile.content

    @pytest.mark.parametrize(
        "path",
        [
            "/ca/rootCA-key.pem",
            "/ca/server-key.pem",
            "/ca/rootCA.pem",
            "/.local-ca/rootCA-key.pem",
            "/static/rootCA-key.pem",
            "/static/../.local-ca/rootCA-key.pem",
        ],
    )
    def test_no_other_file_of_the_folder_is_served(self, folder, settings, path):
        settings.DEBUG = True
        _run()
        assert Client().get(path).status_code == 404

    def test_a_deployed_site_hands_out_no_authority(self, folder, settings):
        _run()
        settings.DEBUG = False
        assert Client().get("/ca/rummyref-local-ca.crt").status_code == 404
        page = Client().get("/ca/")
        assert page.status_code == 200
        assert b'rummyref-local-ca.crt"' not in page.content

    def test_the_page_says_how_to_install_it_on_android_and_iphone(self, folder, settings):
        settings.DEBUG = True
        settings.LAN_HTTPS_PORT = 8443
        settings.ALLOWED_HOSTS = [LAN]
        _run()
        page = Client().get("/ca/", HTTP_HOST=LAN).content.decode()
        assert "Encryption & credentials → Install a certificate → CA certificate" in page
        assert "Certificate Trust Settings" in page
        assert 'href="/ca/rummyref-local-ca.crt"' in page
        assert f'href="https://{LAN}:8443/"' in page

    def test_the_page_speaks_italian(self, folder, settings):
        settings.DEBUG = True
        _run()
        page = Client(headers={"accept-language": "it"}).get("/ca/").content.decode()
        assert "Scarica il certificato di questo computer" in page

    def test_without_an_authority_it_says_how_to_make_one(self, settings, tmp_path):
        settings.DEBUG = True
        settings.LOCAL_CA_DIR = tmp_path / "none"
        page = Client().get("/ca/")
        assert page.status_code == 200
        assert b"make run HTTPS=1" in page.content
        assert Client().get("/ca/rummyref-local-ca.crt").status_code == 404


class TestThePlainHttpListener:
    def _call(self, path: str, host: str, settings, query: str = ""):
        from rummyref import lan_http

        settings.LAN_HTTPS_PORT = 8443
        settings.ALLOWED_HOSTS = [LAN, "localhost"]
        environ = RequestFactory().get(path, HTTP_HOST=host).environ
        environ["QUERY_STRING"] = query
        answered = {}

        def start_response(status, headers):
            answered["status"], answered["headers"] = status, dict(headers)

        body = b"".join(lan_http.application(environ, start_response))
        return answered["status"], answered["headers"], body

    def test_pages_are_sent_to_the_same_path_over_https(self, settings):
        status, headers, _body = self._call("/t/abc/", f"{LAN}:8444", settings, "x=1")
        assert status.startswith("307")
        assert headers["Location"] == f"https://{LAN}:8443/t/abc/?x=1"

    def test_a_host_the_app_does_not_allow_is_refused(self, settings):
        status, headers, _body = self._call("/", "evil.example:8444", settings)
        assert status.startswith("400") and "Location" not in headers

    @pytest.mark.django_db
    def test_the_certificates_page_stays_on_plain_http(self, settings, folder):
        settings.DEBUG = True
        _run()
        status, _headers, body = self._call("/ca/", f"{LAN}:8444", settings)
        assert status.startswith("200")
        assert b"rummyref-local-ca.crt" in body


class TestSettingsForTheLan:
    def test_a_local_run_allows_this_machines_names_which_the_certificate_carries(self):
        from rummyref.lan import machine_hostnames
        from tests.games.tables.test_joining_lan import _allowed_hosts

        hosts = _allowed_hosts(DEBUG="1")
        assert set(machine_hostnames()) <= set(hosts) and "*" not in hosts
        assert set(machine_hostnames()) <= set(local_ca.machine_names([]))

    @pytest.mark.django_db
    def test_a_form_posted_over_https_from_the_lan_address_passes_the_csrf_check(self, settings):
        settings.ALLOWED_HOSTS = [LAN]
        settings.CSRF_TRUSTED_ORIGINS = []
        client = Client(enforce_csrf_checks=True)
        page = client.get("/join/", HTTP_HOST=f"{LAN}:8443", secure=True)
        token = page.cookies["csrftoken"].value
        origin = f"https://{LAN}:8443"
        answer = client.post(
            "/join/",
            {"code": "ABCDEF", "csrfmiddlewaretoken": token},
            HTTP_HOST=f"{LAN}:8443",
            HTTP_ORIGIN=origin,
            HTTP_REFERER=f"{origin}/join/",
            secure=True,
        )
        assert answer.status_code != 403
        forged = client.post(
            "/join/",
            {"code": "ABCDEF", "csrfmiddlewaretoken": token},
            HTTP_HOST=f"{LAN}:8443",
            HTTP_ORIGIN="https://evil.example",
            secure=True,
        )
        assert forged.status_code == 403
