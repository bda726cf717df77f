"""Make this machine's certificate authority (once) and its server certificate (when the
addresses change), then print where phones install the authority and open the app."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from rummyref.lan import lan_addresses, terminal_qr
from rummyref.local_ca import ensure_authority, ensure_server_certificate, machine_names


class Command(BaseCommand):
    help = (
        "For `make run HTTPS=1`: make this machine's local certificate authority the first "
        "time (kept in LOCAL_CA_DIR, .local-ca/ by default; its key never leaves it), a server "
        "certificate it signs for this machine's names and LAN addresses whenever they change, "
        "and print the addresses phones open: the authority's certificate to install once "
        "(plain HTTP), then the app over HTTPS."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="The HTTPS port.")
        parser.add_argument(
            "--cert-port",
            type=int,
            default=0,
            help="The plain-HTTP port that hands out the authority's certificate (0: none).",
        )
        parser.add_argument(
            "--name",
            action="append",
            default=[],
            help="Another DNS name the server certificate carries (repeatable).",
        )
        parser.add_argument(
            "--folder", default=None, help="Where the authority lives (LOCAL_CA_DIR)."
        )

    def handle(self, *args, port: int, cert_port: int, name: list[str], folder, **options):
        folder = Path(folder or settings.LOCAL_CA_DIR)
        addresses = lan_addresses()
        try:
            _authority, made = ensure_authority(folder)
            server = ensure_server_certificate(folder, machine_names(addresses, name))
        except (RuntimeError, OSError) as error:
            raise CommandError(str(error)) from error
        if made:
            self.stdout.write(
                f"Made this machine's certificate authority in {folder}/ (its private key "
                "stays there: never copy it anywhere)."
            )
        state = "Made" if server.issued else "Using"
        until = server.not_after.date().isoformat()
        self.stdout.write(f"{state} the HTTPS certificate for {', '.join(server.names)} ({until}).")
        host = addresses[0] if addresses else "127.0.0.1"
        if cert_port:
            help_url = f"http://{host}:{cert_port}{reverse('local-ca')}"
            self.stdout.write(
                f"Once per phone, install this machine's certificate: open {help_url} "
                "(or scan this code) and follow the steps there."
            )
            self.stdout.write(terminal_qr(help_url), ending="")
        app_url = f"https://{host}:{port}/"
        self.stdout.write(f"Then phones on the same Wi-Fi open {app_url} (or scan this code)")
        self.stdout.write(terminal_qr(app_url), ending="")
