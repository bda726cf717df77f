"""Burraco's referee answers: is a meld legal and which burraco it makes ("meld"), and what
a hand's sheet scores ("score"). The shared meld answer knows jokers but not pinelle, so
Burraco answers these itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.cards import check_copies, parse_cards
from scoring.errors import RuleViolation
from scoring.questions import RefereeTable, split_verdicts
from scoring.side_scores import score_answer as side_score_answer
from scoring.side_sheets import referee_table as referee_options
from scoring.variants.burraco.melds import BURRACO_KINDS, SEMIPULITO, check_meld
from scoring.variants.burraco.options import BurracoOptions, check_players
from scoring.variants.burraco.scoring import score_entry
from scoring.variants.burraco.sheet import read_entry

MELD_RULES = ("BUR-MELDS", "BUR-WILD")


def referee_table(data: Mapping[str, Any]) -> tuple[BurracoOptions, int]:
    """Return a question's options and players: 4 where the request names no number."""
    return referee_options(data, check_players, BurracoOptions.from_dict)


def meld_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer whether the cards make a legal meld, its wild and the burraco it makes."""
    cards = parse_cards(data["cards"])
    check_copies(cards, table.deck)
    options: BurracoOptions = table.options
    try:
        meld = check_meld(cards, semipulito=options.semipulito, international=options.international)
    except RuleViolation as exc:
        return {"valid": False, "violations": split_verdicts(exc), "rules": list(MELD_RULES)}
    rules = [*MELD_RULES, "BUR-VALUES"]
    if meld.burraco in BURRACO_KINDS:
        rules.append("BUR-OPT-SEMIPULITO" if meld.burraco == SEMIPULITO else "BUR-BURRACO")
    return {
        "valid": True,
        "kind": meld.kind,
        "cards": [str(card) for card in meld.cards],
        "wild": str(meld.wild) if meld.wild is not None else None,
        "stands_for": meld.stands_for or None,
        "burraco": meld.burraco,
        "bonus": meld.bonus,
        "value": meld.value,
        "rules": rules,
    }


def score_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer what a hand's sheet (or cards) scores, pair by pair, citing the rules."""
    return side_score_answer(
        data,
        lambda entry: score_entry(table.options, read_entry(table.options, entry)),
        "BUR-SCORE",
    )
