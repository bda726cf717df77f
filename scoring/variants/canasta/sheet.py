"""A Canasta hand entered per side: the sheet a side's score is written on, read from a hand
entry and checked against the rules before it is scored (CAN-SCORE-1 and the rules it sums).

Two modes. ``"sheet"``: each side's figures as the players count them at the table,
``{"melded", "natural", "mixed", "red_threes", "went_out", "concealed", "in_hand"}``.
``"cards"``: each side's melds in card notation, each partner's cards left in hand and its
red 3s laid down, ``{"melds": [...], "hands": [first partner's, second's], "red_threes",
"went_out", "concealed"}``; the engine checks every meld (CAN-MELD-1 to 3) and works the
sheet out from the cards. Side 0 (seats 0 and 2) comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, check_copies, parse_cards
from scoring.errors import RuleViolation, Violation
from scoring.options import is_int, json_value
from scoring.variants.canasta.cards import (
    DECK,
    DECK_VALUE,
    RED_THREES,
    VALUE_STEP,
    card_value,
    is_red_three,
)
from scoring.variants.canasta.melds import (
    CANASTA_LENGTH,
    MIN_MELD,
    MIXED,
    NATURAL,
    CanastaMeld,
    check_meld,
)
from scoring.variants.canasta.options import CanastaOptions

SHEET, CARDS = "sheet", "cards"
ENTRY_FIELDS = ("mode", "pairs")
SHEET_FIELDS = ("melded", "natural", "mixed", "red_threes", "went_out", "concealed", "in_hand")
CARDS_FIELDS = ("melds", "hands", "red_threes", "went_out", "concealed")
# The cards that meld: the deck less its four red 3s, 104.
MELDABLE = len(DECK.cards()) - RED_THREES
# The most canastas the deck makes: 104 cards, 7 a canasta, 14 (104 // 7).
MOST_CANASTAS = MELDABLE // CANASTA_LENGTH
# A natural canasta is 7 cards of one rank without a wild: ace, 4 to king, 11 ranks, and
# two of one rank would need 14 of its 8 copies.
MOST_NATURAL = 11
# A mixed canasta holds a wild at least: 4 jokers and 8 twos.
MOST_WILDS = DECK.jokers + 4 * DECK.decks
# The least a canasta's cards are worth, bounding the melded points from below:
# natural: seven 4s to 7s at 5 = 35; mixed: six of them at 5 and a 2 at 20 = 50.
LEAST_CANASTA_VALUE = {NATURAL: 35, MIXED: 50}
MOST_MELDS = MELDABLE // MIN_MELD


@dataclass(frozen=True, slots=True)
class SideSheet:
    """Hold one side's hand as its sheet says it: the value of its melded cards, its
    canastas by kind, its red 3s, whether it went out (concealed), and the value of the
    cards both partners hold at the end."""

    melded: int = 0
    natural: int = 0
    mixed: int = 0
    red_threes: int = 0
    went_out: bool = False
    concealed: bool = False
    in_hand: int = 0

    @property
    def canastas(self) -> int:
        """Return how many canastas the side made, both kinds together."""
        return self.natural + self.mixed

    def to_dict(self) -> dict[str, Any]:
        """Return the sheet ready for JSON, in the entry's own fields."""
        return {name: getattr(self, name) for name in SHEET_FIELDS}


@dataclass(frozen=True, slots=True)
class HandSheet:
    """Hold one hand's entry: both sides' sheets (side 0 first) and, entered by cards,
    each side's melds and each seat's cards left in hand."""

    pairs: tuple[SideSheet, ...]
    mode: str = SHEET
    melds: tuple[tuple[CanastaMeld, ...], ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()  # by seat, entered by cards


def _violation(rule: str, code: str, field: str, message: str, **params: Any) -> Violation:
    return Violation(rule, f"{field}: {message}", {"field": field, **params}, code)


def _refuse(rule: str, code: str, field: str, message: str, **params: Any) -> RuleViolation:
    return RuleViolation(_violation(rule, code, field, message, **params))


def _mapping(value: object, field: str, fields: Sequence[str]) -> Mapping[str, Any]:
    """Return the value if it is an object holding only ``fields``, else refuse it."""
    if not isinstance(value, Mapping):
        raise _refuse(
            "CAN-SCORE-1", "bad_entry", field, "an object with " + ", ".join(fields) + " is due."
        )
    unknown = [str(name) for name in value if name not in fields]
    if unknown:
        raise _refuse(
            "CAN-SCORE-1",
            "unknown_field",
            field,
            f"no field {unknown[0]!r}; it takes " + ", ".join(fields) + ".",
            unknown=unknown,
        )
    return value


def _points(data: Mapping[str, Any], name: str, field: str) -> int:
    """Return a number of points: a whole number of 0 to the deck's worth, in fives."""
    value = data.get(name)
    if value is None:
        raise _refuse("CAN-SCORE-1", "missing", field, "the points are missing.")
    if not is_int(value) or value < 0:
        raise _refuse(
            "CAN-SCORE-1",
            "bad_points",
            field,
            f"{value!r} is no number of points (0 or more).",
            value=json_value(value),
        )
    if value % VALUE_STEP:
        raise _refuse(
            "CAN-VALUES",
            "not_multiple_of_5",
            field,
            f"{value} is not a multiple of 5, as every card's value is.",
            value=value,
        )
    if value > DECK_VALUE:
        raise _refuse(
            "CAN-VALUES",
            "too_many_points",
            field,
            f"{value} is more than the whole deck is worth, {DECK_VALUE}.",
            value=value,
            max=DECK_VALUE,
        )
    return value


def _count(data: Mapping[str, Any], name: str, field: str, rule: str, most: int) -> int:
    """Return a count, 0 when left out, at most ``most``."""
    value = data.get(name, 0)
    if not is_int(value) or not 0 <= value <= most:
        raise _refuse(
            rule,
            "bad_count",
            field,
            f"{json_value(value)!r} is no count here: 0 to {most}.",
            value=json_value(value),
            max=most,
        )
    return value


def _flag(data: Mapping[str, Any], name: str, field: str, rule: str) -> bool:
    """Return a true-or-false field; one left out is false."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise _refuse(
            rule, "bad_flag", field, f"{value!r} is not true or false.", value=json_value(value)
        )
    return value


def _side_sheet(data: object, field: str) -> SideSheet:
    """Return one side's sheet read from the entry's fields, each refusal naming its field."""
    data = _mapping(data, field, SHEET_FIELDS)
    return SideSheet(
        melded=_points(data, "melded", f"{field}.melded"),
        natural=_count(data, "natural", f"{field}.natural", "CAN-CANASTA-1", MOST_NATURAL),
        mixed=_count(data, "mixed", f"{field}.mixed", "CAN-CANASTA-1", MOST_CANASTAS),
        red_threes=_count(data, "red_threes", f"{field}.red_threes", "CAN-RED3-1", RED_THREES),
        went_out=_flag(data, "went_out", f"{field}.went_out", "CAN-OUT-1"),
        concealed=_flag(data, "concealed", f"{field}.concealed", "CAN-OUT-2"),
        in_hand=_points(data, "in_hand", f"{field}.in_hand"),
    )


def _pairs(payload: Mapping[str, Any]) -> list[object]:
    pairs = payload.get("pairs")
    if not isinstance(pairs, list) or len(pairs) != 2:
        raise _refuse(
            "CAN-SETUP",
            "two_pairs",
            "pairs",
            "a Canasta hand has two sides' entries, side 0 (seats 0 and 2) first.",
        )
    return pairs


def read_entry(
    options: CanastaOptions, payload: Mapping[str, Any], seats: tuple[str, ...] = ()
) -> HandSheet:
    """Read a hand entry (either mode) into its sheet, refusing anything the rules forbid."""
    payload = _mapping(payload, "entry", ENTRY_FIELDS)
    mode = payload.get("mode", SHEET)
    if mode not in (SHEET, CARDS):
        raise _refuse(
            "CAN-SCORE-1",
            "bad_mode",
            "mode",
            f"{json_value(mode)!r} is no mode: 'sheet' or 'cards'.",
        )
    pairs = _pairs(payload)
    if mode == CARDS:
        sheet = _cards_sheet(pairs)
    else:
        sheet = HandSheet(tuple(_side_sheet(data, f"pairs[{i}]") for i, data in enumerate(pairs)))
    problems = sheet_problems(options, sheet.pairs)
    if problems:
        raise RuleViolation(*problems)
    return sheet


def sheet_problems(options: CanastaOptions, pairs: Sequence[SideSheet]) -> list[Violation]:
    """Return what the rules refuse in two sides' sheets taken together."""
    problems = [
        problem
        for index, side in enumerate(pairs)
        for problem in _side_problems(options, side, f"pairs[{index}]")
    ]
    held = sum(side.melded + side.in_hand for side in pairs)
    if held > DECK_VALUE:
        problems.append(
            _violation(
                "CAN-VALUES",
                "over_deck",
                "pairs",
                f"the cards melded and held add up to {held}, more than the deck's {DECK_VALUE}.",
                value=held,
                max=DECK_VALUE,
            )
        )
    problems += _deck_problems(pairs)
    outs = [index for index, side in enumerate(pairs) if side.went_out]
    if len(outs) > 1:
        problems.append(
            _violation(
                "CAN-OUT-1",
                "two_outs",
                f"pairs[{outs[-1]}].went_out",
                "only one side can go out: the hand ends when a player goes out.",
            )
        )
    return problems


def _deck_problems(pairs: Sequence[SideSheet]) -> list[Violation]:
    """Return what two sides' counts ask of the deck beyond what it holds."""
    problems = []
    checks = (
        ("CAN-RED3-1", "too_many_red_threes", sum(s.red_threes for s in pairs), RED_THREES),
        ("CAN-CANASTA-1", "too_many_natural", sum(s.natural for s in pairs), MOST_NATURAL),
        ("CAN-MELD-2", "too_many_mixed", sum(s.mixed for s in pairs), MOST_WILDS),
        ("CAN-CANASTA-1", "too_many_canastas", sum(s.canastas for s in pairs), MOST_CANASTAS),
    )
    for rule, code, count, most in checks:
        if count > most:
            problems.append(
                _violation(
                    rule,
                    code,
                    "pairs",
                    f"both sides together count {count}; the deck allows {most} at most.",
                    count=count,
                    max=most,
                )
            )
    return problems


def _side_problems(options: CanastaOptions, side: SideSheet, field: str) -> list[Violation]:
    """Return what the rules refuse in one side's sheet."""
    problems = []
    least = LEAST_CANASTA_VALUE[NATURAL] * side.natural + LEAST_CANASTA_VALUE[MIXED] * side.mixed
    if side.melded < least:
        problems.append(
            _violation(
                "CAN-CANASTA-1",
                "canasta_points",
                f"{field}.melded",
                f"{side.melded} melded cannot hold these canastas, whose cards are worth "
                f"{least} at least (7 cards or more each).",
                value=side.melded,
                min=least,
            )
        )
    if side.went_out and side.canastas < options.canastas_to_go_out:
        problems.append(
            _violation(
                "CAN-OUT-1",
                "out_without_canasta",
                f"{field}.went_out",
                f"a side goes out only with {options.canastas_to_go_out} canasta(s) on the "
                f"table; it has {side.canastas}.",
                needed=options.canastas_to_go_out,
                count=side.canastas,
            )
        )
    if side.concealed and not side.went_out:
        problems.append(
            _violation(
                "CAN-OUT-2",
                "concealed_not_out",
                f"{field}.concealed",
                "only the side that went out can have gone out concealed.",
            )
        )
    return problems


def _cards_sheet(pairs: list[object]) -> HandSheet:
    """Return the sheet worked out from each side's melds and each seat's cards in hand."""
    read = [_side_cards(data, f"pairs[{index}]") for index, data in enumerate(pairs)]
    every_card = [
        card
        for melds, hands, _ in read
        for cards in (*(meld.cards for meld in melds), *hands)
        for card in cards
    ]
    check_copies(every_card, DECK)
    sheets = tuple(sheet for _, _, sheet in read)
    melds = tuple(melds for melds, _, _ in read)
    (first, third), (second, fourth) = (hands for _, hands, _ in read)
    return HandSheet(sheets, CARDS, melds, (first, second, third, fourth))


def _side_cards(
    data: object, field: str
) -> tuple[tuple[CanastaMeld, ...], tuple[tuple[Card, ...], ...], SideSheet]:
    """Return one side's checked melds, its partners' hands and the sheet they make."""
    data = _mapping(data, field, CARDS_FIELDS)
    went_out = _flag(data, "went_out", f"{field}.went_out", "CAN-OUT-1")
    texts = data.get("melds", [])
    if not isinstance(texts, list) or len(texts) > MOST_MELDS:
        raise _refuse(
            "CAN-MELD-1",
            "bad_melds",
            f"{field}.melds",
            f"a list of melds in card notation, {MOST_MELDS} at most, is due.",
        )
    melds = tuple(
        _meld(text, f"{field}.melds[{index}]", going_out=went_out)
        for index, text in enumerate(texts)
    )
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise _refuse(
            "CAN-SCORE-1",
            "bad_hands",
            f"{field}.hands",
            "both partners' cards left in hand are due, each in card notation ('' for none).",
        )
    held = tuple(_cards(text, f"{field}.hands[{index}]") for index, text in enumerate(hands))
    if went_out and all(held):
        raise _refuse(
            "CAN-OUT-1",
            "out_holds_cards",
            f"{field}.hands",
            "the partner who went out holds no card, yet both partners hold some.",
        )
    sheet = melds_sheet(
        melds,
        red_threes=_count(data, "red_threes", f"{field}.red_threes", "CAN-RED3-1", RED_THREES),
        went_out=went_out,
        concealed=_flag(data, "concealed", f"{field}.concealed", "CAN-OUT-2"),
        in_hand=sum(card_value(card) for hand in held for card in hand),
    )
    return melds, held, sheet


def melds_sheet(
    melds: Sequence[CanastaMeld], *, red_threes: int, went_out: bool, concealed: bool, in_hand: int
) -> SideSheet:
    """Return the sheet of a side whose melds are known: their value and their canastas."""
    kinds = [meld.canasta for meld in melds]
    return SideSheet(
        melded=sum(meld.value for meld in melds),
        natural=kinds.count(NATURAL),
        mixed=kinds.count(MIXED),
        red_threes=red_threes,
        went_out=went_out,
        concealed=concealed,
        in_hand=in_hand,
    )


def _parsed(text: object, field: str) -> tuple[Card, ...]:
    """Return the cards written in ``text``, refusals naming the field."""
    if not isinstance(text, str | list):
        raise _refuse("CARD-3", "bad_cards", field, "cards in notation such as '7S 7H 7D'.")
    try:
        cards = parse_cards(text)
    except RuleViolation as exc:
        raise _named(exc, field) from None
    check_copies(cards, DECK)
    return cards


def _cards(text: object, field: str) -> tuple[Card, ...]:
    """Return a partner's cards left in hand; a red 3 is never held (CAN-RED3-1: laid down
    at once)."""
    cards = _parsed(text, field)
    red = [card for card in cards if is_red_three(card)]
    if red:
        raise _refuse(
            "CAN-RED3-1",
            "red_three_held",
            field,
            f"{red[0]} is a red 3: it is laid down at once, never held; count it in red_threes.",
        )
    return cards


def _meld(text: object, field: str, *, going_out: bool) -> CanastaMeld:
    """Return the meld written in ``text``, checked; refusals name the field."""
    cards = _parsed(text, field)
    try:
        return check_meld(cards, going_out=going_out)
    except RuleViolation as exc:
        raise _named(exc, field) from None


def _named(exc: RuleViolation, field: str) -> RuleViolation:
    """Return the refusal with each violation naming the field it was found in."""
    return RuleViolation(
        *(
            Violation(v.rule, f"{field}: {v.message}", {**v.params, "field": field}, v.code)
            for v in exc.violations
        )
    )
