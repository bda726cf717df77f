"""Phones on the same Wi-Fi open a local run: its own LAN addresses are allowed hosts with
DEBUG on (never "*"), production's ALLOWED_HOSTS stays exactly what it is told, and
``lan_url`` prints the address with a QR code. The demo tables open on local runs only."""

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from games.demo import DEMO_IDS, demo_load
from rummyref import lan
from tests.factories import TableFactory

ROOT = Path(__file__).resolve().parents[3]


def _allowed_hosts(**env: str) -> list[str]:
    code = "import django; django.setup(); from django.conf import settings; "
    code += "print(','.join(settings.ALLOWED_HOSTS))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "rummyref.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split(",")


class TestLanAddresses:
    def test_only_real_ipv4_addresses_of_this_machine_are_listed(self):
        for address in lan.lan_addresses():
            assert address.count(".") == 3
            assert not address.startswith(("127.", "169.254.", "0."))

    def test_loopback_link_local_and_ipv6_are_never_usable(self):
        assert not lan._usable("127.0.0.1") and not lan._usable("169.254.1.2")
        assert not lan._usable("::1") and lan._usable("192.168.1.20")

    def test_debug_allows_this_machines_lan_addresses_and_never_any_host(self):
        hosts = _allowed_hosts(DEBUG="1")
        assert "*" not in hosts and "localhost" in hosts
        assert set(lan.lan_addresses()) <= set(hosts)

    def test_production_allows_exactly_the_hosts_it_is_given(self):
        hosts = _allowed_hosts(
            DEBUG="0",
            SECRET_KEY="k" * 30 + "-production-secret-from-the-environment",
            LOG_CHAIN_KEY="c" * 16 + "-log-chain-secret-from-the-environment",
            ALLOWED_HOSTS="rummyref.example.org",
        )
        assert hosts == ["rummyref.example.org"]


class TestLanUrlCommand:
    def test_it_prints_the_address_to_open_and_its_qr_code(self, monkeypatch):
        monkeypatch.setattr(
            "games.management.commands.lan_url.lan_addresses", lambda: ["192.168.1.20"]
        )
        out = io.StringIO()
        call_command("lan_url", "--port", "8000", stdout=out)
        text = out.getvalue()
        assert "open http://192.168.1.20:8000/" in text
        assert text.count("\n") > 15 and "█" in text

    def test_without_a_network_it_says_where_to_open_it_locally(self, monkeypatch):
        monkeypatch.setattr("games.management.commands.lan_url.lan_addresses", lambda: [])
        out = io.StringIO()
        call_command("lan_url", stdout=out)
        assert "open http://127.0.0.1:8000/" in out.getvalue()


@pytest.mark.django_db
class TestDemoTables:
    def test_a_local_run_opens_a_demo_table_as_its_scorekeeper(self, settings):
        settings.DEBUG = True
        demo_load()
        phone = Client()
        table_id = DEMO_IDS[1]
        assert phone.get(f"/demo/{table_id}/").url == f"/t/{table_id}/"
        assert "Record a hand" in phone.get(f"/t/{table_id}/").content.decode()
        assert f"/demo/{table_id}/" in phone.get("/").content.decode()

    def test_production_and_other_tables_have_no_demo_way_in(self, settings):
        demo_load()
        settings.DEBUG = False
        assert Client().get(f"/demo/{DEMO_IDS[1]}/").status_code == 404
        settings.DEBUG = True
        assert Client().get(f"/demo/{TableFactory().id}/").status_code == 404
