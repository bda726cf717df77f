"""This machine's addresses on the local network, so phones on the same Wi-Fi can open a
local run (``make run``): the development settings allow them as hosts, and ``manage.py
lan_url`` prints the address to open and its QR code."""

import contextlib
import ipaddress
import socket


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 address on the network of its default route (the Wi-Fi a
    phone shares with it), or none without a network. Nothing is sent: connecting a UDP
    socket only asks the system which address it would use. No name lookup either, so a
    machine whose hostname does not resolve starts as fast as any other."""
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        found.append(probe.getsockname()[0])
    return [address for address in found if _usable(address)]


def terminal_qr(url: str) -> str:
    """Return a QR code of ``url`` drawn for a terminal (phones scan it off the screen)."""
    import io

    import segno  # here, not at the top: settings import this module in every web worker

    drawn = io.StringIO()
    segno.make(url, error="l").terminal(out=drawn, compact=True)
    return drawn.getvalue()


def machine_hostnames() -> list[str]:
    """Return this machine's hostname and its mDNS name (``<hostname>.local``, which iPhones
    and most Android phones resolve on the same Wi-Fi), or none if it is not a plain name."""
    host = socket.gethostname().split(".")[0]
    if not (host and host.isascii() and host.replace("-", "").isalnum()):
        return []
    return [host.lower(), f"{host.lower()}.local"]
