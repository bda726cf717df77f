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
    """Return this machine's IPv4 addresses on its networks, the one of its default route
    first; none when it has no network. Nothing is sent: connecting a UDP socket only asks
    the system which address it would use."""
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(info[4][0] for info in named)
    return [a for a in dict.fromkeys(found) if _usable(a)]
