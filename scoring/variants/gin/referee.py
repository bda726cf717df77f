"""The referee's answers for Gin Rummy (docs/rules.md): melds without jokers, a hand of 10 or
11 cards, layoffs and a scored hand, each citing Gin's rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.cards import Card, parse_cards
from scoring.errors import RuleViolation, Violation
from scoring.errors import refusal as _refuse
from scoring.melds import check_meld
from scoring.payloads.fields import cards_field
from scoring.questions import (
    INPUT_RULES,
    RefereeTable,
    card_names,
    meld_out,
    seat_name,
    table_cards,
)
from scoring.solver import best_arrangement, best_layoff, deadwood_count
from scoring.variants.gin.options import BIG_GIN_SIZE, HAND_SIZE, KNOCK_LIMIT
from scoring.variants.gin.scores import knock_limit, score_cards


def meld_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = table_cards(table, data["cards"])
    try:
        meld = check_meld(cards, table.rules)
    except RuleViolation as exc:
        return {"valid": False, "violations": list(exc.violations), "rules": ["GIN-MELDS"]}
    rule = "MELD-SET" if meld.kind == "set" else "MELD-RUN"
    return {
        "valid": True,
        "kind": meld.kind,
        "cards": meld_out(meld),
        "value": sum(table.value(card) for card in meld.cards),
        "jokers": {},
        "rules": ["GIN-MELDS", rule, "GIN-VALUE"],
    }


def hand_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = table_cards(table, data["cards"])
    if len(cards) not in (HAND_SIZE, BIG_GIN_SIZE):
        raise RuleViolation(
            Violation(
                rule="GIN-SETUP",
                code="wrong_count",
                message=f"A Gin hand holds 10 cards, or 11 after drawing; not {len(cards)}.",
                params={"player": "player", "count": len(cards), "expected": 10},
            )
        )
    best = best_arrangement(cards, rules=table.rules, value=table.value, deck=table.deck)
    answer: dict[str, Any] = {
        "deadwood": best.count,
        "melds": [meld_out(m) for m in best.melds],
        "unmelded": card_names(best.deadwood),
        "rules": ["GIN-DEADWOOD", "GIN-KNOCK", "GIN-GIN"],
    }
    if len(cards) == HAND_SIZE:
        answer["can_knock"] = best.count <= KNOCK_LIMIT
        answer["gin"] = best.count == 0
        return answer
    # Eleven cards: the player has drawn; knocking and gin come after the best discard.
    # Only the counts matter here: the discard leaving the least deadwood, the higher card
    # first between equals.
    kept_count, discard = min(
        (
            (
                deadwood_count(
                    cards[:i] + cards[i + 1 :],
                    rules=table.rules,
                    value=table.value,
                    deck=table.deck,
                ),
                card,
            )
            for i, card in enumerate(cards)
        ),
        key=lambda pair: (pair[0], -table.value(pair[1])),
    )
    answer.update(
        {
            "discard": str(discard),
            "deadwood_after_discard": kept_count,
            "can_knock": kept_count <= KNOCK_LIMIT,
            "gin": kept_count == 0,
        }
    )
    if table.options.big_gin:
        answer["big_gin"] = best.count == 0
        answer["rules"].append("GIN-BIGGIN")
    return answer


def layoff_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    melds = [parse_cards(text) for text in data["melds"]]
    shown = tuple(card for meld in melds for card in meld)
    cards = table_cards(table, data["cards"], shown=shown)
    violations = []
    onto = []
    for index, meld_cards in enumerate(melds):
        try:
            onto.append(check_meld(meld_cards, table.rules))
        except RuleViolation as exc:
            violations.extend(
                Violation(v.rule, v.message, {**v.params, "meld": index + 1}, v.code)
                for v in exc.violations
            )
    if violations:
        return {"valid": False, "violations": violations, "rules": ["GIN-LAYOFF"]}
    result = best_layoff(cards, onto, rules=table.rules, value=table.value, deck=table.deck)
    return {
        "valid": True,
        "layoffs": [{"card": str(card), "meld": index} for card, index in result.layoffs],
        "melds": [meld_out(m) for m in result.melds],
        "remaining": card_names(result.deadwood),
        "deadwood": result.count,
        "rules": ["GIN-LAYOFF", "GIN-DEADWOOD"],
    }


def _upcard(text: object) -> Card | None:
    """Read the hand's first upcard, which an Oklahoma table's score needs (GIN-OKLAHOMA)."""
    if not text:
        return None
    cards = cards_field({"upcard": str(text)}, "upcard")  # a refusal names the field
    if len(cards) != 1:
        raise _refuse("REFEREE", "one_upcard", "Give one card as the upcard.", count=len(cards))
    return cards[0]


def score_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    players = data["players"]
    if len(players) != 2:
        raise _refuse(
            "GIN-SETUP",
            "players",
            f"Gin Rummy is for 2 players, not {len(players)}.",
            count=len(players),
            min=2,
            max=2,
        )
    ended = [i for i, p in enumerate(players) if p.get("knocked") or p.get("went_out")]
    if len(ended) != 1:
        raise _refuse(
            "GIN-KNOCK",
            "one_knocker",
            "Exactly one player ends a Gin hand: mark who knocked.",
            count=len(ended),
        )
    knocker = ended[0]
    upcard = _upcard(data.get("upcard"))
    # An Oklahoma question without its upcard, or an upcard where the table plays none, asks
    # nothing the referee can answer: a refused question (400), not a hand "not legal".
    knock_limit(table.options, upcard)
    try:
        result = score_cards(
            table.options,
            knocker=knocker,
            knocker_cards=players[knocker].get("hand", ""),
            defender_cards=players[1 - knocker].get("hand", ""),
            upcard=upcard,
        )
    except RuleViolation as exc:
        if all(v.rule in INPUT_RULES or v.rule == "GIN-SETUP" for v in exc.violations):
            raise
        return {"valid": False, "violations": list(exc.violations), "rules": [exc.rule]}
    body = result.to_dict()
    names = [p["name"] for p in players]
    return {
        "valid": True,
        "points": {names[seat]: points for seat, points in enumerate(result.points)},
        "items": [{**item, "player": seat_name(names, item["seat"])} for item in body["items"]],
        "ending": body["ending"],
        "counts": {names[knocker]: result.knocker_count, names[1 - knocker]: result.defender_count},
        "melds": {
            names[knocker]: body["knocker_melds"],
            names[1 - knocker]: body["defender_melds"],
        },
        "layoffs": [{"card": card, "meld": index} for card, index in body["defender_layoffs"]],
        "deadwood": {
            names[knocker]: body["knocker_deadwood"],
            names[1 - knocker]: body["defender_deadwood"],
        },
        "rules": sorted({item["rule"] for item in body["items"]} | {"GIN-DEADWOOD"}),
    }
