"""Print where phones on the same Wi-Fi open this machine's local run, with a QR code."""

from django.core.management.base import BaseCommand

from rummyref.lan import lan_addresses, terminal_qr


class Command(BaseCommand):
    help = (
        "Print the address phones on this machine's network open (make run serves on every "
        "address), and a QR code of it to scan from the terminal."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, port: int, **options):
        addresses = lan_addresses()
        if not addresses:
            self.stdout.write(f"No network found: open http://127.0.0.1:{port}/ on this machine.")
            return
        url = f"http://{addresses[0]}:{port}/"
        self.stdout.write(f"Phones on the same Wi-Fi: open {url} (or scan this code)")
        self.stdout.write(terminal_qr(url), ending="")
