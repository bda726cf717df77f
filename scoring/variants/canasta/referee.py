"""Canasta's referee answers: is a meld legal and which canasta it makes ("meld"), does a
first meld reach the minimum a side's total sets ("opening", CAN-OPEN-1), and what a
hand's sheet scores, going out included ("score")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.cards import check_copies, parse_cards
from scoring.errors import RuleViolation, Violation
from scoring.errors import refusal as _refuse
from scoring.options import is_int, json_value
from scoring.questions import RefereeTable, split_verdicts
from scoring.side_scores import score_answer as side_score_answer
from scoring.side_sheets import referee_table as referee_options
from scoring.variants.canasta.match import first_meld_minimum
from scoring.variants.canasta.melds import CANASTA_KINDS, check_meld
from scoring.variants.canasta.options import MAX_TARGET, CanastaOptions, check_players
from scoring.variants.canasta.scoring import score_entry
from scoring.variants.canasta.sheet import MOST_MELDS, read_entry

MELD_RULES = ("CAN-MELD-1", "CAN-MELD-2", "CAN-MELD-3")


def referee_table(data: Mapping[str, Any]) -> tuple[CanastaOptions, int]:
    """Return a question's options and players: 4 where the request names no number."""
    return referee_options(data, check_players, CanastaOptions.from_dict)


def meld_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer whether the cards make a legal meld (as laid going out, where black 3s may
    meld), and the canasta it makes."""
    cards = parse_cards(data["cards"])
    check_copies(cards, table.deck)
    try:
        meld = check_meld(cards)
    except RuleViolation as exc:
        return {"valid": False, "violations": split_verdicts(exc), "rules": list(MELD_RULES)}
    rules = [*MELD_RULES, "CAN-VALUES"]
    if meld.canasta in CANASTA_KINDS:
        rules.append("CAN-CANASTA-1")
    return {
        "valid": True,
        "kind": "set",
        "cards": [str(card) for card in meld.cards],
        "wilds": meld.wilds,
        "canasta": meld.canasta,
        "bonus": meld.bonus,
        "value": meld.value,
        "rules": rules,
    }


def _total(data: Mapping[str, Any]) -> int:
    """Return the side's total before the hand the question names (0 if none)."""
    total = data.get("total", 0)
    if not is_int(total) or abs(total) > MAX_TARGET:
        raise _refuse(
            "CAN-OPEN-1",
            "bad_total",
            f"{json_value(total)!r} is no side's total: a whole number from "
            f"-{MAX_TARGET} to {MAX_TARGET}.",
            value=json_value(total),
            max=MAX_TARGET,
        )
    return total


def opening_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer whether melds laid as a side's first reach the minimum its total sets
    (CAN-OPEN-1): the cards' values only, no bonus counting."""
    total = _total(data)
    texts = data["melds"]
    if not isinstance(texts, list) or len(texts) > MOST_MELDS:
        raise _refuse("CAN-MELD-1", "bad_melds", f"{MOST_MELDS} melds at most.")
    parsed = [parse_cards(text) for text in texts]
    check_copies([card for cards in parsed for card in cards], table.deck)
    melds, violations = [], []
    for number, cards in enumerate(parsed, start=1):
        try:
            melds.append(check_meld(cards, going_out=False))
        except RuleViolation as exc:
            violations += [
                Violation(v.rule, v.message, {**v.params, "meld": number}, v.code)
                for v in exc.violations
            ]
    value, minimum = sum(meld.value for meld in melds), first_meld_minimum(total)
    if not violations and value < minimum:
        violations.append(
            Violation(
                "CAN-OPEN-1",
                f"The first meld is worth {value}; a side on {total} needs {minimum}.",
                {"value": value, "minimum": minimum, "total": total},
                "below_minimum",
            )
        )
    return {
        "valid": not violations,
        "value": value,
        "minimum": minimum,
        "total": total,
        "melds": [str(meld) for meld in melds],
        "violations": violations,
        "rules": ["CAN-OPEN-1", *MELD_RULES, "CAN-VALUES"],
    }


def score_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer what a hand's sheet (or cards) scores, side by side, citing the rules; a side
    said to go out without its canastas is refused by CAN-OUT-1."""
    return side_score_answer(
        data,
        lambda entry: score_entry(table.options, read_entry(table.options, entry)),
        "CAN-SCORE-1",
    )
