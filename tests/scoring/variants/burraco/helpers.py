"""Shared builders for the Burraco tests: a table's options, a pair's sheet, a scored hand."""

import pytest

from scoring.errors import RuleViolation
from scoring.variants.burraco import GAME

SEATS = ("North", "East", "South", "West")


def options(**chosen):
    return GAME.options_from_dict(chosen, 4)


def pair(melded=0, *, pulito=0, sporco=0, semipulito=0, closed=False, pozzetto=True, in_hand=0):
    """One pair's sheet as a hand entry holds it."""
    return {
        "melded": melded,
        "pulito": pulito,
        "sporco": sporco,
        "semipulito": semipulito,
        "closed": closed,
        "pozzetto": pozzetto,
        "in_hand": in_hand,
    }


def entry(first, second, mode="sheet"):
    return {"mode": mode, "pairs": [first, second]}


def scored(first, second, table=None, mode="sheet"):
    """Read and score a hand as the replay does: read_entry, then score_entry."""
    table = table or options()
    sheet = GAME.read_entry(table, entry(first, second, mode), SEATS)
    return GAME.score_entry(table, sheet, SEATS)


def refused(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.violations


def refused_entry(first, second, table=None, mode="sheet"):
    """Return the violations a hand entry is refused with."""
    return refused(GAME.read_entry, table or options(), entry(first, second, mode), SEATS)
