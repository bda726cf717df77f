"""Reading a hand entered side by side, for the games played in pairs (Burraco, Canasta).

A hand is entered either as each side's figures (``"sheet"``) or as each side's melds and
each partner's cards left in hand (``"cards"``), under ``{"mode", "pairs"}``, side 0 (seats
0 and 2) first. The shape of that entry, the bounds on its points, counts and flags, the card
notation and the checks both sides' figures share are the same in every such game; what is
read from a side (its boxes, its bonuses, its melds) and which rule each refusal cites stay
with the game, handed in as ``EntryRules`` and callables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from scoring.cards import Card, DeckSpec, check_copies, parse_cards
from scoring.errors import RuleViolation, Violation, refusal
from scoring.options import is_int, json_value

SHEET, CARDS = "sheet", "cards"
ENTRY_FIELDS = ("mode", "pairs")
PLAYERS = 4  # two sides of two, partners across


class SideFigures(Protocol):
    """What every side's sheet holds, whatever else its game counts."""

    melded: int
    in_hand: int


SideT = TypeVar("SideT", bound=SideFigures)
MeldT = TypeVar("MeldT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class EntryRules:
    """Hold what a game's entry cites and is bounded by.

    ``score``: the rule an entry's shape answers to; ``points``: the rule refusing a points
    figure off the cards' step or over the deck (``points_note`` is what that sentence adds);
    ``values``: the rule refusing two sides' cards worth more than the deck; ``setup``: the
    rule refusing an entry without two sides (``sides_sentence`` says why)."""

    score: str
    points: str
    points_note: str
    values: str
    setup: str
    sides_sentence: str
    deck: DeckSpec
    deck_value: int
    value_step: int
    card_example: str


@dataclass(frozen=True, slots=True)
class HandSheet(Generic[SideT, MeldT]):
    """Hold one hand's entry: both sides' sheets (side 0 first) and, entered by cards, each
    side's melds and each seat's cards left in hand."""

    pairs: tuple[SideT, ...]
    mode: str = SHEET
    melds: tuple[tuple[MeldT, ...], ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()  # by seat, entered by cards


SideCards = tuple[tuple[MeldT, ...], tuple[tuple[Card, ...], ...], SideT]


def violation(rule: str, code: str, field: str, message: str, **params: Any) -> Violation:
    """Return a violation whose message and params name the field it was found in."""
    return Violation(rule, f"{field}: {message}", {"field": field, **params}, code)


def refuse(rule: str, code: str, field: str, message: str, **params: Any) -> RuleViolation:
    """Return the refusal of one violation, naming its field."""
    return RuleViolation(violation(rule, code, field, message, **params))


def read_mapping(value: object, field: str, fields: Sequence[str], rule: str) -> Mapping[str, Any]:
    """Return the value if it is an object holding only ``fields``, else refuse it."""
    if not isinstance(value, Mapping):
        raise refuse(rule, "bad_entry", field, "an object with " + ", ".join(fields) + " is due.")
    unknown = [str(name) for name in value if name not in fields]
    if unknown:
        raise refuse(
            rule,
            "unknown_field",
            field,
            f"no field {unknown[0]!r}; it takes " + ", ".join(fields) + ".",
            unknown=unknown,
        )
    return value


def read_points(rules: EntryRules, data: Mapping[str, Any], name: str, field: str) -> int:
    """Return a number of points: a whole number of 0 to the deck's worth, in its step."""
    value = data.get(name)
    if value is None:
        raise refuse(rules.score, "missing", field, "the points are missing.")
    if not is_int(value) or value < 0:
        raise refuse(
            rules.score,
            "bad_points",
            field,
            f"{value!r} is no number of points (0 or more).",
            value=json_value(value),
        )
    if value % rules.value_step:
        raise refuse(
            rules.points,
            "not_multiple_of_5",
            field,
            f"{value} is not a multiple of 5, as every card's value is{rules.points_note}.",
            value=value,
        )
    if value > rules.deck_value:
        raise refuse(
            rules.points,
            "too_many_points",
            field,
            f"{value} is more than the whole deck is worth, {rules.deck_value}.",
            value=value,
            max=rules.deck_value,
        )
    return value


def read_count(
    data: Mapping[str, Any],
    name: str,
    field: str,
    rule: str,
    most: int,
    sentence: Callable[[object, int], str],
) -> int:
    """Return a count, 0 when left out, at most ``most``; ``sentence(value, most)`` says why
    a value is refused."""
    value = data.get(name, 0)
    if not is_int(value) or not 0 <= value <= most:
        raise refuse(
            rule, "bad_count", field, sentence(value, most), value=json_value(value), max=most
        )
    return value


def read_flag(
    data: Mapping[str, Any], name: str, field: str, rule: str, *, needed: bool = False
) -> bool:
    """Return a true-or-false field; one left out is false unless it is ``needed``."""
    if name not in data and needed:
        raise refuse(rule, "missing", field, "say true or false.")
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise refuse(
            rule, "bad_flag", field, f"{value!r} is not true or false.", value=json_value(value)
        )
    return value


def check_players(players: object, rule: str, game: str) -> int:
    """Return the number of players if it is the four a pairs game seats, else refuse it by
    ``rule``, naming the ``game``."""
    if is_int(players) and players == PLAYERS:
        return PLAYERS
    raise refusal(
        rule,
        "players",
        f"{game} is for {PLAYERS} players in two pairs, not {players!r}.",
        count=json_value(players),
        min=PLAYERS,
        max=PLAYERS,
        choices=[PLAYERS],
    )


def referee_table(
    data: Mapping[str, Any],
    check: Callable[[object], int],
    options_from_dict: Callable[[Mapping[str, Any], int], OptionsT],
) -> tuple[OptionsT, int]:
    """Return a referee question's options and players: 4 where the request names no
    number, the number ``check``ed by the game."""
    players = data.get("players", PLAYERS)
    if isinstance(players, list):
        players = len(players)
    players = check(players)
    return options_from_dict(dict(data.get("options") or {}), players), players


def read_entry(
    rules: EntryRules,
    payload: Mapping[str, Any],
    read_sheet: Callable[[object, str], SideT],
    read_cards: Callable[[list[object]], HandSheet[SideT, MeldT]],
    problems: Callable[[tuple[SideT, ...]], list[Violation]],
) -> HandSheet[SideT, MeldT]:
    """Read a hand entry (either mode) into its sheet: ``read_sheet`` reads one side's
    figures, ``read_cards`` both sides' cards; ``problems`` is what the game refuses in the
    sheets read."""
    payload = read_mapping(payload, "entry", ENTRY_FIELDS, rules.score)
    mode = payload.get("mode", SHEET)
    if mode not in (SHEET, CARDS):
        raise refuse(
            rules.score,
            "bad_mode",
            "mode",
            f"{json_value(mode)!r} is no mode: 'sheet' or 'cards'.",
        )
    sides = payload.get("pairs")
    if not isinstance(sides, list) or len(sides) != 2:
        raise refuse(rules.setup, "two_pairs", "pairs", rules.sides_sentence)
    if mode == CARDS:
        sheet = read_cards(sides)
    else:
        sheet = HandSheet(tuple(read_sheet(data, f"pairs[{i}]") for i, data in enumerate(sides)))
    found = problems(sheet.pairs)
    if found:
        raise RuleViolation(*found)
    return sheet


def over_deck_problems(rules: EntryRules, sides: Sequence[SideFigures]) -> list[Violation]:
    """Return the refusal of two sides whose cards melded and held are worth more than the
    deck."""
    held = sum(side.melded + side.in_hand for side in sides)
    if held <= rules.deck_value:
        return []
    return [
        violation(
            rules.values,
            "over_deck",
            "pairs",
            f"the cards melded and held add up to {held}, more than the deck's {rules.deck_value}.",
            value=held,
            max=rules.deck_value,
        )
    ]


def one_ending_problems(
    ended: Sequence[bool], flag: str, rule: str, code: str, sentence: str
) -> list[Violation]:
    """Return the refusal of both sides ending the hand (closing, going out), naming the
    second side's ``flag``."""
    enders = [index for index, end in enumerate(ended) if end]
    if len(enders) <= 1:
        return []
    return [violation(rule, code, f"pairs[{enders[-1]}].{flag}", sentence)]


def least_melded_problems(
    melded: int, least: int, field: str, rule: str, code: str, noun: str
) -> list[Violation]:
    """Return the refusal of melded points too few for the side's counted bonus melds, whose
    cards are worth ``least`` at least."""
    if melded >= least:
        return []
    return [
        violation(
            rule,
            code,
            f"{field}.melded",
            f"{melded} melded cannot hold these {noun}, whose cards are worth "
            f"{least} at least (7 cards or more each).",
            value=melded,
            min=least,
        )
    ]


def cards_hand_sheet(
    deck: DeckSpec, read: Sequence[SideCards[MeldT, SideT]]
) -> HandSheet[SideT, MeldT]:
    """Return the sheet worked out from each side's melds, hands and sheet, once no card is
    there more often than the deck holds it."""
    every_card = [
        card
        for melds, hands, _ in read
        for cards in (*(meld.cards for meld in melds), *hands)  # type: ignore[attr-defined]
        for card in cards
    ]
    check_copies(every_card, deck)
    sheets = tuple(sheet for _, _, sheet in read)
    melds = tuple(melds for melds, _, _ in read)
    # Seats 0 and 2 hold side 0's hands, seats 1 and 3 side 1's.
    (first, third), (second, fourth) = (hands for _, hands, _ in read)
    return HandSheet(sheets, CARDS, melds, (first, second, third, fourth))


def read_meld_texts(data: Mapping[str, Any], field: str, rule: str, most: int) -> list[object]:
    """Return a side's melds as written, a list of ``most`` at most."""
    texts = data.get("melds", [])
    if not isinstance(texts, list) or len(texts) > most:
        raise refuse(
            rule,
            "bad_melds",
            f"{field}.melds",
            f"a list of melds in card notation, {most} at most, is due.",
        )
    return texts


def read_hands(
    data: Mapping[str, Any],
    field: str,
    rule: str,
    read_cards: Callable[[object, str], tuple[Card, ...]],
) -> tuple[tuple[Card, ...], ...]:
    """Return both partners' cards left in hand, each read by ``read_cards``."""
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise refuse(
            rule,
            "bad_hands",
            f"{field}.hands",
            "both partners' cards left in hand are due, each in card notation ('' for none).",
        )
    return tuple(read_cards(text, f"{field}.hands[{index}]") for index, text in enumerate(hands))


def check_one_holds_none(
    held: Sequence[tuple[Card, ...]], field: str, rule: str, code: str, sentence: str
) -> None:
    """Refuse a side that ended the hand while both partners still hold cards."""
    if all(held):
        raise refuse(rule, code, f"{field}.hands", sentence)


def read_cards(rules: EntryRules, text: object, field: str) -> tuple[Card, ...]:
    """Return the cards written in ``text``, refusals naming the field."""
    if not isinstance(text, str | list):
        raise refuse(
            "CARD-3", "bad_cards", field, f"cards in notation such as '{rules.card_example}'."
        )
    try:
        cards = parse_cards(text)
    except RuleViolation as exc:
        raise named(exc, field) from None
    check_copies(cards, rules.deck)
    return cards


def read_meld(
    cards: tuple[Card, ...], field: str, check: Callable[[tuple[Card, ...]], MeldT]
) -> MeldT:
    """Return the meld of these cards as ``check`` finds it; refusals name the field."""
    try:
        return check(cards)
    except RuleViolation as exc:
        raise named(exc, field) from None


def named(exc: RuleViolation, field: str) -> RuleViolation:
    """Return the refusal with each violation naming the field it was found in."""
    return RuleViolation(
        *(
            Violation(v.rule, f"{field}: {v.message}", {**v.params, "field": field}, v.code)
            for v in exc.violations
        )
    )
