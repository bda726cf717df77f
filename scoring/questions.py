"""The referee's shared answers: the questions every game with a scoresheet asks alike, and
the helpers every game's answers use (scoring/referee.py says what the questions are).

A game lists the answers it gives in its ``RefereeRules.questions``; each answer reads the
game's rule IDs and values from its ``RefereeRules``, so no answer here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, DeckSpec, check_copies, parse_cards, parse_declared, split_declared
from scoring.errors import RuleViolation, Violation
from scoring.errors import refusal as _refuse
from scoring.game import GameRules
from scoring.hands import SeatEnd
from scoring.melds import Meld, MeldRules, check_meld, opening_value
from scoring.rearrange import RearrangeRules, check_rearrangement
from scoring.solver import best_arrangement, best_layoff, best_opening, can_go_out


@dataclass(frozen=True, slots=True)
class RefereeTable:
    """Hold the table a question is asked about: its game, options, deck, melds and values."""

    game: GameRules
    options: Any
    players: int
    deck: DeckSpec
    rules: MeldRules
    value: Callable[[Card], int]


def referee_table(game: GameRules, data: Mapping[str, Any]) -> RefereeTable:
    """Return the table of a request: the game reads its options and number of players.
    A question is answered under today's rules: what a new table takes where it names none
    (GameRules.new_table_defaults)."""
    named = data.get("options")
    data = {**data, "options": game.new_table_options({} if named is None else named)}
    options, players = game.referee.table(data)
    return RefereeTable(
        game=game,
        options=options,
        players=players,
        deck=game.deck(options, players),
        rules=game.meld_rules(options),
        value=game.card_value(options),
    )


def seated_table(
    check_players: Callable[[object], int],
    options_from_dict: Callable[[Mapping[str, Any], int], Any],
) -> Callable[[Mapping[str, Any]], tuple[Any, int]]:
    """Return a game's ``RefereeRules.table``: the players counted or given (2 when left out),
    checked by the game, then the options for that many."""

    def table(data: Mapping[str, Any]) -> tuple[Any, int]:
        players = check_players(player_count(data))
        return options_from_dict(dict(data.get("options") or {}), players), players

    return table


# Shared rules and codes whose refusal means the request could not be read, not a verdict
# on it; a game adds its own (RefereeRules.input_rules).
INPUT_RULES = frozenset({"CARD-1", "CARD-2", "CARD-3", "OPTIONS", "REFEREE"})
INPUT_CODES = frozenset({"flag_not_used"})


def card_names(cards) -> list[str]:
    return [str(card) for card in cards]


def meld_out(meld: Meld) -> list[str]:
    """Return a meld's cards in notation, each joker with the card it stands for (JK=9S)."""
    return str(meld).split()


def hand_cards(table: RefereeTable, text: str, *, field: str = "cards") -> tuple[Card, ...]:
    """Read a hand's cards, refusing more than one hand of the game can hold."""
    cards = parse_cards(text)
    limit = table.game.most_in_hand
    if len(cards) > limit:
        raise _refuse(
            "LIMITS",
            "too_many_cards",
            f"{field}: {len(cards)} cards, but a hand holds at most {limit} in this game.",
            field=field,
            count=len(cards),
            limit=limit,
        )
    return cards


def table_cards(
    table: RefereeTable, text: str, *, shown: tuple[Card, ...] = ()
) -> tuple[Card, ...]:
    cards = hand_cards(table, text)
    check_copies([*shown, *cards], table.deck)
    return cards


def not_in_game(question: str, table: RefereeTable) -> RuleViolation:
    return _refuse(
        "REFEREE",
        "not_in_game",
        f"The question '{question}' does not arise in {table.game.key}.",
        question=question,
        variant=table.game.key,
    )


def seat_name(names: list[str], seat: int | None) -> str | None:
    return names[seat] if seat is not None else None


def player_count(data: Mapping[str, Any]) -> int:
    players = data.get("players")
    if isinstance(players, list):
        return len(players)
    return players if isinstance(players, int) else 2


def split_verdicts(exc: RuleViolation, game_rules: frozenset[str] = frozenset()) -> list[Violation]:
    """Return a refusal's verdicts; raise it again if any part means unreadable input (a
    shared rule's, or one of ``game_rules``: the game's RefereeRules.input_rules)."""
    unreadable = [
        v
        for v in exc.violations
        if v.rule in INPUT_RULES or v.rule in game_rules or v.code in INPUT_CODES
    ]
    if unreadable:
        raise RuleViolation(*unreadable) from None
    return list(exc.violations)


def _declared_cards(
    table: RefereeTable, text: str, *, shown: tuple[Card, ...] = ()
) -> tuple[tuple[Card, ...], tuple[Card | None, ...]]:
    cards, declarations = split_declared(parse_declared(text))
    check_copies([*shown, *cards], table.deck)
    return cards, declarations


def _meld_verdict(table: RefereeTable, cards, declarations) -> tuple[Meld | None, list[Violation]]:
    try:
        return check_meld(cards, table.rules, declarations), []
    except RuleViolation as exc:
        return None, split_verdicts(exc, table.game.referee.input_rules)


def _jokers(meld: Meld) -> dict[str, str]:
    """Map each joker's position (from 1) to the card it stands for."""
    return {
        str(i + 1): str(stands)
        for i, (card, stands) in enumerate(zip(meld.cards, meld.stands_for, strict=True))
        if card.is_joker
    }


def meld_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    cards, declarations = _declared_cards(table, data["cards"])
    meld, violations = _meld_verdict(table, cards, declarations)
    rules = list(table.game.referee.meld_rules)
    if meld is None:
        return {"valid": False, "violations": violations, "rules": rules}
    rules.insert(0, "MELD-SET" if meld.kind == "set" else "MELD-RUN")
    if meld.represents:
        rules.append("JOKER-1")
    return {
        "valid": True,
        "kind": meld.kind,
        "cards": meld_out(meld),
        "value": opening_value(meld),
        "jokers": _jokers(meld),
        "chosen_by_referee": [str(i + 1) for i in meld.chosen],
        "rules": [*rules, "VALUE"],
    }


def _checked_melds(
    table: RefereeTable, texts, *, shown=()
) -> tuple[list[Meld], list[Violation], tuple]:
    """Check melds written one per string; violations carry the meld's number."""
    parsed = [split_declared(parse_declared(text)) for text in texts]
    on_table = tuple(card for cards, _ in parsed for card in cards)
    check_copies([*shown, *on_table], table.deck)
    melds, violations = [], []
    for number, (cards, declarations) in enumerate(parsed, start=1):
        meld, problems = _meld_verdict(table, cards, declarations)
        if meld is not None:
            melds.append(meld)
        violations += [
            Violation(v.rule, v.message, {**v.params, "meld": number}, v.code) for v in problems
        ]
    return melds, violations, on_table


def opening_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    rule = table.game.referee.opening_rule
    if rule is None:
        raise not_in_game("opening", table)
    melds, violations, _on_table = _checked_melds(table, data["melds"])
    minimum = table.options.opening_minimum
    value = sum(opening_value(meld) for meld in melds)
    if not violations and value < minimum:
        violations.append(
            Violation(
                rule,
                f"The opening is worth {value}; the table's minimum is {minimum}.",
                {"value": value, "minimum": minimum},
                "below_minimum",
            )
        )
    return {
        "valid": not violations,
        "value": value,
        "minimum": minimum,
        "melds": [meld_out(meld) for meld in melds],
        "violations": violations,
        "rules": [rule, "VALUE"],
    }


def rearrangement_answer(
    table: RefereeTable, data: Mapping[str, Any], *, cites: RearrangeRules
) -> dict[str, Any]:
    """Judge a melding turn on a shared table by the game's rearranging rules (``cites``,
    which the game binds when it lists the question)."""
    before = [parse_declared(text) for text in data["before"]]
    after = [parse_declared(text) for text in data["after"]]
    hand = hand_cards(table, data["hand"], field="hand")
    on_table = [card for meld in before for card, _ in meld]
    check_copies([*on_table, *hand], table.deck)
    check_copies([card for meld in after for card, _ in meld], table.deck)
    try:
        result = check_rearrangement(before, after, hand, table.rules, cites, first_meld=not before)
    except RuleViolation as exc:
        # The table before the move must be legal: that is the question's premise.
        raise RuleViolation(
            *(Violation("REFEREE", v.message, v.params, "bad_table") for v in exc.violations)
        ) from None
    return {
        "valid": result.valid,
        "violations": list(result.violations),
        "added": [str(card) for card in result.added],
        "melds": [meld_out(meld) for meld in result.melds_after],
        "rules": cites.cited,
    }


def hand_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = table_cards(table, data["cards"])
    if not cards:
        raise _refuse("REFEREE", "no_cards", "Enter the cards of the hand.")
    best = best_arrangement(cards, rules=table.rules, value=table.value, deck=table.deck)
    closing = table.game.referee.closing(table.options)
    opened = bool(data.get("opened"))
    out = can_go_out(
        cards,
        rules=table.rules,
        closing=closing,
        opened=opened,
        opening_value=opening_value,
        deck=table.deck,
    )
    answer: dict[str, Any] = {
        "deadwood": best.count,
        "melds": [meld_out(m) for m in best.melds],
        "unmelded": card_names(best.deadwood),
        "can_go_out": out.possible,
        "rules": [table.game.referee.value_rule, closing.rule],
    }
    if out.possible:
        answer["going_out"] = {
            "melds": [meld_out(m) for m in out.melds],
            "discard": str(out.discard) if out.discard is not None else None,
        }
    else:
        answer["violations"] = [out.violation]
    referee = table.game.referee
    if referee.knock_limit is not None:
        answer["can_knock"] = best.count <= referee.knock_limit
        answer["rules"].append(referee.knock_rule)
    elif not opened:
        opening = best_opening(
            cards, rules=table.rules, opening_value=opening_value, deck=table.deck
        )
        answer["best_opening"] = opening.value
        answer["opening_melds"] = [meld_out(m) for m in opening.melds]
        answer["opening_minimum"] = closing.opening_minimum
        answer["rules"].append(closing.opening_rule)
    return answer


def layoff_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    onto, violations, on_table = _checked_melds(table, data["melds"])
    cards = hand_cards(table, data["cards"])
    check_copies([*on_table, *cards], table.deck)
    rules = [table.game.referee.layoff_rule]
    if violations:
        return {"valid": False, "violations": violations, "rules": rules}
    result = best_layoff(cards, onto, rules=table.rules, value=table.value, deck=table.deck)
    return {
        "valid": True,
        "layoffs": [{"card": str(card), "meld": index} for card, index in result.layoffs],
        "melds": [meld_out(m) for m in result.melds],
        "table": [meld_out(m) for m in result.grown],
        "remaining": card_names(result.deadwood),
        "deadwood": result.count,
        "rules": rules,
    }


def score_answer(table: RefereeTable, data: Mapping[str, Any]) -> dict[str, Any]:
    players = [
        SeatEnd(
            name=p["name"],
            hand=hand_cards(table, p.get("hand", ""), field=f"players[{seat}].hand"),
            melded=parse_cards(p.get("melded", "")),
            knocked=p.get("knocked", False),
            went_out=p.get("went_out", False),
            hand_closed=p.get("hand_closed", False),
            opening_penalty=p.get("opening_penalty", 0),
        )
        for seat, p in enumerate(data["players"])
    ]
    try:
        result = table.game.referee.score_ends(
            table.options, players, stock_exhausted=bool(data.get("stock_exhausted"))
        )
    except RuleViolation as exc:
        return {
            "valid": False,
            "violations": split_verdicts(exc, table.game.referee.input_rules),
            "rules": [],
        }
    body = result.to_dict()
    names = [p.name for p in players]
    return {
        "valid": True,
        "points": {names[seat]: points for seat, points in enumerate(result.points)},
        "items": [{**item, "player": seat_name(names, item["seat"])} for item in body["items"]],
        "ending": body["ending"],
        "winners": [names[seat] for seat in result.winners],
        "hand_values": dict(zip(names, result.hand_values, strict=True)),
        "rules": sorted({item["rule"] for item in body["items"]}),
    }
