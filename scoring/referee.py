"""The referee: answer one question about cards under a game's rules, citing the rules.

Questions (the referee API and page ask them): ``meld`` (is it legal, what is it worth),
``hand`` (best arrangement and count, can the hand knock or go out, best opening),
``opening`` (does it reach the minimum), ``layoff`` (where can cards be laid off),
``rearrangement`` (Knock Rummy table moves) and ``score`` (one hand's end state).

Answers are plain dicts: cards as notation strings, ``violations`` as Violation objects and
``rules`` as rule IDs, which the caller renders in its language. A request the engine cannot
read (unknown card, too many copies, wrong card count, an option the game lacks) raises
RuleViolation: that is bad input, not a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring import gin, knock_rummy, ramino, rummy40
from scoring.cards import (
    Card,
    DeckSpec,
    check_copies,
    gin_value,
    parse_cards,
    parse_declared,
    split_declared,
)
from scoring.errors import RuleViolation, Violation
from scoring.errors import refusal as _refuse
from scoring.hands import PlayerEnd
from scoring.melds import Meld, MeldRules, check_meld, opening_value
from scoring.rearrange import check_rearrangement
from scoring.solver import Closing, best_arrangement, best_layoff, best_opening, can_go_out


@dataclass(frozen=True, slots=True)
class Game:
    """A game as the referee needs it: its deck, meld rules and card values."""

    variant: str
    options: Any
    players: int
    deck: DeckSpec
    rules: MeldRules
    value: Callable[[Card], int]


def _names(cards) -> list[str]:
    return [str(card) for card in cards]


def _meld_out(meld: Meld) -> list[str]:
    """Return a meld's cards in notation, each joker with the card it stands for (JK=9S)."""
    return str(meld).split()


def _cards(game: Game, text: str, *, shown: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    cards = parse_cards(text)
    check_copies([*shown, *cards], game.deck)
    return cards


def _not_in_game(question: str, game: Game) -> RuleViolation:
    return _refuse(
        "REFEREE",
        "not_in_game",
        f"The question '{question}' does not arise in {game.variant}.",
        question=question,
        variant=game.variant,
    )


# Gin Rummy ----------------------------------------------------------------------------


def _gin_game(data: Mapping[str, Any]) -> Game:
    options = dict(data.get("options") or {})
    if data.get("preset"):
        options["preset"] = data["preset"]
    return Game(
        variant="gin",
        options=gin.GinOptions.from_dict(options),
        players=2,
        deck=gin.GIN_DECK,
        rules=gin.GIN_MELDS,
        value=gin_value,
    )


def _gin_meld(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = _cards(game, data["cards"])
    try:
        meld = check_meld(cards, game.rules)
    except RuleViolation as exc:
        return {"valid": False, "violations": list(exc.violations), "rules": ["GIN-MELDS"]}
    rule = "MELD-SET" if meld.kind == "set" else "MELD-RUN"
    return {
        "valid": True,
        "kind": meld.kind,
        "cards": _meld_out(meld),
        "value": sum(game.value(card) for card in meld.cards),
        "jokers": {},
        "rules": ["GIN-MELDS", rule, "GIN-VALUE"],
    }


def _gin_hand(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = _cards(game, data["cards"])
    if len(cards) not in (gin.HAND_SIZE, gin.BIG_GIN_SIZE):
        raise RuleViolation(
            Violation(
                rule="GIN-SETUP",
                code="wrong_count",
                message=f"A Gin hand holds 10 cards, or 11 after drawing; not {len(cards)}.",
                params={"player": "player", "count": len(cards), "expected": 10},
            )
        )
    best = best_arrangement(cards, rules=game.rules, value=game.value)
    answer: dict[str, Any] = {
        "deadwood": best.count,
        "melds": [_meld_out(m) for m in best.melds],
        "unmelded": _names(best.deadwood),
        "rules": ["GIN-DEADWOOD", "GIN-KNOCK", "GIN-GIN"],
    }
    if len(cards) == gin.HAND_SIZE:
        answer["can_knock"] = best.count <= gin.KNOCK_LIMIT
        answer["gin"] = best.count == 0
        return answer
    # Eleven cards: the player has drawn; knocking and gin come after the best discard.
    after = min(
        (
            (best_arrangement(cards[:i] + cards[i + 1 :], rules=game.rules, value=game.value), card)
            for i, card in enumerate(cards)
        ),
        key=lambda pair: (pair[0].count, -game.value(pair[1])),
    )
    kept, discard = after
    answer.update(
        {
            "discard": str(discard),
            "deadwood_after_discard": kept.count,
            "can_knock": kept.count <= gin.KNOCK_LIMIT,
            "gin": kept.count == 0,
        }
    )
    if game.options.preset == gin.BIG_GIN_PRESET:
        answer["big_gin"] = best.count == 0
        answer["rules"].append("GIN-BIGGIN")
    return answer


def _gin_layoff(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    melds = [parse_cards(text) for text in data["melds"]]
    shown = tuple(card for meld in melds for card in meld)
    cards = _cards(game, data["cards"], shown=shown)
    violations = []
    onto = []
    for index, meld_cards in enumerate(melds):
        try:
            onto.append(check_meld(meld_cards, game.rules))
        except RuleViolation as exc:
            violations.extend(
                Violation(v.rule, v.message, {**v.params, "meld": index + 1}, v.code)
                for v in exc.violations
            )
    if violations:
        return {"valid": False, "violations": violations, "rules": ["GIN-LAYOFF"]}
    result = best_layoff(cards, onto, rules=game.rules, value=game.value)
    return {
        "valid": True,
        "layoffs": [{"card": str(card), "meld": index} for card, index in result.layoffs],
        "melds": [_meld_out(m) for m in result.melds],
        "remaining": _names(result.deadwood),
        "deadwood": result.count,
        "rules": ["GIN-LAYOFF", "GIN-DEADWOOD"],
    }


def _gin_score(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
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
    try:
        result = gin.score_cards(
            game.options,
            knocker=knocker,
            knocker_cards=players[knocker].get("hand", ""),
            defender_cards=players[1 - knocker].get("hand", ""),
        )
    except RuleViolation as exc:
        if all(v.rule in INPUT_RULES for v in exc.violations):
            raise
        return {"valid": False, "violations": list(exc.violations), "rules": [exc.rule]}
    body = result.to_dict()
    names = [p["name"] for p in players]
    return {
        "valid": True,
        "points": {names[seat]: points for seat, points in enumerate(result.points)},
        "items": [{**item, "player": _seat_name(names, item["seat"])} for item in body["items"]],
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


def _seat_name(names: list[str], seat: int | None) -> str | None:
    return names[seat] if seat is not None else None


# Rummy40, Ramino, Knock Rummy -----------------------------------------------------------

MODULES = {"rummy40": rummy40, "ramino": ramino, "knock_rummy": knock_rummy}
OPTIONS = {
    "rummy40": rummy40.Rummy40Options,
    "ramino": ramino.RaminoOptions,
    "knock_rummy": knock_rummy.KnockRummyOptions,
}


def _player_count(data: Mapping[str, Any]) -> int:
    players = data.get("players")
    if isinstance(players, list):
        return len(players)
    return players if isinstance(players, int) else 2


def _variant_game(variant: str) -> Callable[[Mapping[str, Any]], Game]:
    module = MODULES[variant]

    def setup(data: Mapping[str, Any]) -> Game:
        players = module.check_players(_player_count(data))
        options = OPTIONS[variant].from_dict(dict(data.get("options") or {}), players)
        # Ramino's values follow its options (casino scoring); the others' are fixed.
        values = module.card_values(options) if variant == "ramino" else module.card_value
        return Game(
            variant=variant,
            options=options,
            players=players,
            deck=module.deck(options, players),
            rules=module.meld_rules(options),
            value=values,
        )

    return setup


def _split(exc: RuleViolation) -> list[Violation]:
    """Return a refusal's verdicts; raise it again if any part means unreadable input."""
    unreadable = [v for v in exc.violations if v.rule in INPUT_RULES or v.code in INPUT_CODES]
    if unreadable:
        raise RuleViolation(*unreadable) from None
    return list(exc.violations)


# The rules a meld verdict cites besides MELD-SET / MELD-RUN, per game.
MELD_RULES = {
    "rummy40": ("R40-RUNS", "ACE-LOW", "ACE-HIGH"),
    "ramino": ("RAM-JOKER", "ACE-WRAP"),
    "knock_rummy": ("KR-MELDS",),
}
OPENING_RULES = {"rummy40": "R40-OPEN", "ramino": "RAM-OPEN"}


def _declared_cards(
    game: Game, text: str, *, shown: tuple[Card, ...] = ()
) -> tuple[tuple[Card, ...], tuple[Card | None, ...]]:
    cards, declarations = split_declared(parse_declared(text))
    check_copies([*shown, *cards], game.deck)
    return cards, declarations


def _meld_verdict(game: Game, cards, declarations) -> tuple[Meld | None, list[Violation]]:
    try:
        return check_meld(cards, game.rules, declarations), []
    except RuleViolation as exc:
        return None, _split(exc)


def _jokers(meld: Meld) -> dict[str, str]:
    """Map each joker's position (from 1) to the card it stands for."""
    return {
        str(i + 1): str(stands)
        for i, (card, stands) in enumerate(zip(meld.cards, meld.stands_for, strict=True))
        if card.is_joker
    }


def _variant_meld(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    cards, declarations = _declared_cards(game, data["cards"])
    meld, violations = _meld_verdict(game, cards, declarations)
    rules = list(MELD_RULES[game.variant])
    if meld is None:
        return {"valid": False, "violations": violations, "rules": rules}
    rules.insert(0, "MELD-SET" if meld.kind == "set" else "MELD-RUN")
    if meld.represents:
        rules.append("JOKER-1")
    return {
        "valid": True,
        "kind": meld.kind,
        "cards": _meld_out(meld),
        "value": opening_value(meld),
        "jokers": _jokers(meld),
        "chosen_by_referee": [str(i + 1) for i in meld.chosen],
        "rules": [*rules, "VALUE"],
    }


def _melds(game: Game, texts, *, shown=()) -> tuple[list[Meld], list[Violation], tuple]:
    """Check melds written one per string; violations carry the meld's number."""
    parsed = [split_declared(parse_declared(text)) for text in texts]
    on_table = tuple(card for cards, _ in parsed for card in cards)
    check_copies([*shown, *on_table], game.deck)
    melds, violations = [], []
    for number, (cards, declarations) in enumerate(parsed, start=1):
        meld, problems = _meld_verdict(game, cards, declarations)
        if meld is not None:
            melds.append(meld)
        violations += [
            Violation(v.rule, v.message, {**v.params, "meld": number}, v.code) for v in problems
        ]
    return melds, violations, on_table


def _variant_opening(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    rule = OPENING_RULES.get(game.variant)
    if rule is None:
        raise _not_in_game("opening", game)
    melds, violations, _on_table = _melds(game, data["melds"])
    minimum = game.options.opening_minimum
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
        "melds": [_meld_out(meld) for meld in melds],
        "violations": violations,
        "rules": [rule, "VALUE"],
    }


def _variant_rearrangement(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    if game.variant != "knock_rummy":
        raise _not_in_game("rearrangement", game)
    before = [parse_declared(text) for text in data["before"]]
    after = [parse_declared(text) for text in data["after"]]
    hand = parse_cards(data["hand"])
    table = [card for meld in before for card, _ in meld]
    check_copies([*table, *hand], game.deck)
    check_copies([card for meld in after for card, _ in meld], game.deck)
    try:
        result = check_rearrangement(before, after, hand, game.rules, first_meld=not before)
    except RuleViolation as exc:
        # The table before the move must be legal: that is the question's premise.
        raise RuleViolation(
            *(Violation("REFEREE", v.message, v.params, "bad_table") for v in exc.violations)
        ) from None
    return {
        "valid": result.valid,
        "violations": list(result.violations),
        "added": [str(card) for card in result.added],
        "melds": [_meld_out(meld) for meld in result.melds_after],
        "rules": ["KR-MELDING", "KR-MANIP", "KR-JOKER"],
    }


def _closing(game: Game) -> Closing:
    """Say how a player of this game goes out (RULES.md R40-HAND, RAM-OUT, KR-OUT)."""
    options = game.options
    if game.variant == "knock_rummy":
        return Closing(discard="none", rule="KR-OUT")
    if game.variant == "rummy40":
        return Closing(
            discard="required",
            rule="R40-HAND",
            opening_minimum=options.opening_minimum,
            opening_rule="R40-OPEN",
            joker_discard_rule="R40-JOKER-DISCARD",
        )
    return Closing(
        discard="optional" if options.no_discard_win else "required",
        rule="RAM-OUT",
        opening_minimum=options.opening_minimum,
        opening_rule="RAM-OPEN",
        joker_discard_rule="RAM-OPT-FIXEDJOKER" if options.fixed_jokers else None,
    )


def _variant_hand(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    cards = parse_cards(data["cards"])
    check_copies(cards, game.deck)
    if not cards:
        raise _refuse("REFEREE", "no_cards", "Enter the cards of the hand.")
    best = best_arrangement(cards, rules=game.rules, value=game.value, deck=game.deck)
    closing = _closing(game)
    opened = bool(data.get("opened"))
    out = can_go_out(
        cards,
        rules=game.rules,
        closing=closing,
        opened=opened,
        opening_value=opening_value,
        deck=game.deck,
    )
    answer: dict[str, Any] = {
        "deadwood": best.count,
        "melds": [_meld_out(m) for m in best.melds],
        "unmelded": _names(best.deadwood),
        "can_go_out": out.possible,
        "rules": [VALUE_RULES[game.variant], closing.rule],
    }
    if out.possible:
        answer["going_out"] = {
            "melds": [_meld_out(m) for m in out.melds],
            "discard": str(out.discard) if out.discard is not None else None,
        }
    else:
        answer["violations"] = [out.violation]
    if game.variant == "knock_rummy":
        answer["can_knock"] = best.count <= knock_rummy.KNOCK_LIMIT
        answer["rules"].append("KR-KNOCK")
    elif not opened:
        opening = best_opening(cards, rules=game.rules, opening_value=opening_value, deck=game.deck)
        answer["best_opening"] = opening.value
        answer["opening_melds"] = [_meld_out(m) for m in opening.melds]
        answer["opening_minimum"] = closing.opening_minimum
        answer["rules"].append(closing.opening_rule)
    return answer


def _variant_layoff(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    onto, violations, on_table = _melds(game, data["melds"])
    cards = parse_cards(data["cards"])
    check_copies([*on_table, *cards], game.deck)
    rules = [LAYOFF_RULES[game.variant]]
    if violations:
        return {"valid": False, "violations": violations, "rules": rules}
    result = best_layoff(cards, onto, rules=game.rules, value=game.value, deck=game.deck)
    return {
        "valid": True,
        "layoffs": [{"card": str(card), "meld": index} for card, index in result.layoffs],
        "melds": [_meld_out(m) for m in result.melds],
        "table": [_meld_out(m) for m in result.grown],
        "remaining": _names(result.deadwood),
        "deadwood": result.count,
        "rules": rules,
    }


VALUE_RULES = {"rummy40": "R40-VALUE", "ramino": "RAM-VALUE", "knock_rummy": "KR-VALUE"}
LAYOFF_RULES = {"rummy40": "R40-ADD", "ramino": "RAM-ADD", "knock_rummy": "KR-MELDING"}


def _variant_score(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    module = MODULES[game.variant]
    players = [
        PlayerEnd(
            name=p["name"],
            hand=parse_cards(p.get("hand", "")),
            melded=parse_cards(p.get("melded", "")),
            knocked=p.get("knocked", False),
            went_out=p.get("went_out", False),
            hand_closed=p.get("hand_closed", False),
            opening_penalty=p.get("opening_penalty", 0),
        )
        for p in data["players"]
    ]
    try:
        result = module.score_hand(
            game.options, players, stock_exhausted=bool(data.get("stock_exhausted"))
        )
    except RuleViolation as exc:
        return {"valid": False, "violations": _split(exc), "rules": []}
    body = result.to_dict()
    names = [p.name for p in players]
    return {
        "valid": True,
        "points": {names[seat]: points for seat, points in enumerate(result.points)},
        "items": [{**item, "player": _seat_name(names, item["seat"])} for item in body["items"]],
        "ending": body["ending"],
        "winners": [names[seat] for seat in result.winners],
        "hand_values": dict(zip(names, result.hand_values, strict=True)),
        "rules": sorted({item["rule"] for item in body["items"]}),
    }


# Rules and codes whose refusal means the request could not be read, not a verdict on it.
INPUT_RULES = frozenset(
    {
        "CARD-1",
        "CARD-2",
        "CARD-3",
        "OPTIONS",
        "REFEREE",
        "GIN-SETUP",
        "R40-SETUP",
        "RAM-SETUP",
        "KR-SETUP",
    }
)
INPUT_CODES = frozenset({"flag_not_used"})

GAMES: dict[str, Callable[[Mapping[str, Any]], Game]] = {
    "gin": _gin_game,
    **{variant: _variant_game(variant) for variant in MODULES},
}
QUESTIONS: dict[tuple[str, str], Callable[[Game, Mapping[str, Any]], dict[str, Any]]] = {
    ("gin", "meld"): _gin_meld,
    ("gin", "hand"): _gin_hand,
    ("gin", "layoff"): _gin_layoff,
    ("gin", "score"): _gin_score,
    **{(variant, "score"): _variant_score for variant in MODULES},
    **{(variant, "meld"): _variant_meld for variant in MODULES},
    **{(variant, "opening"): _variant_opening for variant in MODULES},
    **{(variant, "rearrangement"): _variant_rearrangement for variant in MODULES},
    **{(variant, "hand"): _variant_hand for variant in MODULES},
    **{(variant, "layoff"): _variant_layoff for variant in MODULES},
}
VARIANTS: tuple[str, ...] = tuple(GAMES)


def answer(question: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer ``question`` about the cards in ``data`` under its game's rules."""
    variant = data.get("variant")
    if variant not in GAMES:
        raise _refuse(
            "REFEREE",
            "unknown_variant",
            f"Unknown game '{variant}'; choose one of {', '.join(VARIANTS)}.",
            variant=str(variant),
            choices=list(VARIANTS),
        )
    game = GAMES[variant](data)
    handler = QUESTIONS.get((variant, question))
    if handler is None:
        raise _not_in_game(question, game)
    return handler(game, data)
