"""Saying how a stored projection differs from its recompute, one sentence a difference:
what the audits (standings, a club night's standings) report by name."""

from collections.abc import Mapping
from typing import Any

# A projection's differences show at most this many sentences; the rest are counted.
SHOWN = 10


def fields_differing(stored: Mapping[str, Any], computed: Mapping[str, Any]) -> list[str]:
    """Say each field whose stored value is not the recomputed one."""
    return [
        f"{field} stored {stored.get(field)!r}, recomputed {computed.get(field)!r}"
        for field in sorted(stored.keys() | computed.keys())
        if stored.get(field) != computed.get(field)
    ]


def capped(found: list[str], label: str) -> list[str]:
    """Return the first SHOWN sentences about one projection, and how many more there are."""
    if len(found) <= SHOWN:
        return found
    return [*found[:SHOWN], f"{label}: and {len(found) - SHOWN} more difference(s)"]
