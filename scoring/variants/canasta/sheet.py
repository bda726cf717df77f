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

from scoring import side_sheets
from scoring.cards import Card
from scoring.errors import Violation
from scoring.options import json_value
from scoring.side_sheets import CARDS, ENTRY_FIELDS, SHEET, EntryRules, HandSheet
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

__all__ = ["CARDS", "ENTRY_FIELDS", "SHEET", "HandSheet", "SideSheet", "read_entry"]

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
ENTRY = EntryRules(
    score="CAN-SCORE-1",
    points="CAN-VALUES",
    points_note="",
    values="CAN-VALUES",
    setup="CAN-SETUP",
    sides_sentence="a Canasta hand has two sides' entries, side 0 (seats 0 and 2) first.",
    deck=DECK,
    deck_value=DECK_VALUE,
    value_step=VALUE_STEP,
    card_example="7S 7H 7D",
)


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


def _count_sentence(value: object, most: int) -> str:
    return f"{json_value(value)!r} is no count here: 0 to {most}."


def _count(data: Mapping[str, Any], name: str, field: str, rule: str, most: int) -> int:
    return side_sheets.read_count(data, name, field, rule, most, _count_sentence)


def _side_sheet(data: object, field: str) -> SideSheet:
    """Return one side's sheet read from the entry's fields, each refusal naming its field."""
    data = side_sheets.read_mapping(data, field, SHEET_FIELDS, "CAN-SCORE-1")
    return SideSheet(
        melded=side_sheets.read_points(ENTRY, data, "melded", f"{field}.melded"),
        natural=_count(data, "natural", f"{field}.natural", "CAN-CANASTA-1", MOST_NATURAL),
        mixed=_count(data, "mixed", f"{field}.mixed", "CAN-CANASTA-1", MOST_CANASTAS),
        red_threes=_count(data, "red_threes", f"{field}.red_threes", "CAN-RED3-1", RED_THREES),
        went_out=side_sheets.read_flag(data, "went_out", f"{field}.went_out", "CAN-OUT-1"),
        concealed=side_sheets.read_flag(data, "concealed", f"{field}.concealed", "CAN-OUT-2"),
        in_hand=side_sheets.read_points(ENTRY, data, "in_hand", f"{field}.in_hand"),
    )


def read_entry(
    options: CanastaOptions, payload: Mapping[str, Any], seats: tuple[str, ...] = ()
) -> HandSheet[SideSheet, CanastaMeld]:
    """Read a hand entry (either mode) into its sheet, refusing anything the rules forbid."""
    return side_sheets.read_entry(
        ENTRY, payload, _side_sheet, _cards_sheet, lambda sides: sheet_problems(options, sides)
    )


def sheet_problems(options: CanastaOptions, pairs: Sequence[SideSheet]) -> list[Violation]:
    """Return what the rules refuse in two sides' sheets taken together."""
    problems = [
        problem
        for index, side in enumerate(pairs)
        for problem in _side_problems(options, side, f"pairs[{index}]")
    ]
    problems += side_sheets.over_deck_problems(ENTRY, pairs)
    problems += _deck_problems(pairs)
    return problems + side_sheets.one_ending_problems(
        [side.went_out for side in pairs],
        "went_out",
        "CAN-OUT-1",
        "two_outs",
        "only one side can go out: the hand ends when a player goes out.",
    )


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
                side_sheets.violation(
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
    problems += side_sheets.least_melded_problems(
        side.melded, least, field, "CAN-CANASTA-1", "canasta_points", "canastas"
    )
    if side.went_out and side.canastas < options.canastas_to_go_out:
        problems.append(
            side_sheets.violation(
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
            side_sheets.violation(
                "CAN-OUT-2",
                "concealed_not_out",
                f"{field}.concealed",
                "only the side that went out can have gone out concealed.",
            )
        )
    return problems


def _cards_sheet(pairs: list[object]) -> HandSheet:
    """Return the sheet worked out from each side's melds and each seat's cards in hand."""
    return side_sheets.cards_hand_sheet(
        DECK, [_side_cards(data, f"pairs[{index}]") for index, data in enumerate(pairs)]
    )


def _side_cards(
    data: object, field: str
) -> tuple[tuple[CanastaMeld, ...], tuple[tuple[Card, ...], ...], SideSheet]:
    """Return one side's checked melds, its partners' hands and the sheet they make."""
    data = side_sheets.read_mapping(data, field, CARDS_FIELDS, "CAN-SCORE-1")
    went_out = side_sheets.read_flag(data, "went_out", f"{field}.went_out", "CAN-OUT-1")
    texts = side_sheets.read_meld_texts(data, field, "CAN-MELD-1", MOST_MELDS)
    melds = tuple(
        _meld(text, f"{field}.melds[{index}]", going_out=went_out)
        for index, text in enumerate(texts)
    )
    held = side_sheets.read_hands(data, field, "CAN-SCORE-1", _cards)
    if went_out:
        side_sheets.check_one_holds_none(
            held,
            field,
            "CAN-OUT-1",
            "out_holds_cards",
            "the partner who went out holds no card, yet both partners hold some.",
        )
    sheet = melds_sheet(
        melds,
        red_threes=_count(data, "red_threes", f"{field}.red_threes", "CAN-RED3-1", RED_THREES),
        went_out=went_out,
        concealed=side_sheets.read_flag(data, "concealed", f"{field}.concealed", "CAN-OUT-2"),
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


def _cards(text: object, field: str) -> tuple[Card, ...]:
    """Return a partner's cards left in hand; a red 3 is never held (CAN-RED3-1: laid down
    at once)."""
    cards = side_sheets.read_cards(ENTRY, text, field)
    red = [card for card in cards if is_red_three(card)]
    if red:
        raise side_sheets.refuse(
            "CAN-RED3-1",
            "red_three_held",
            field,
            f"{red[0]} is a red 3: it is laid down at once, never held; count it in red_threes.",
        )
    return cards


def _meld(text: object, field: str, *, going_out: bool) -> CanastaMeld:
    """Return the meld written in ``text``, checked; refusals name the field."""
    return side_sheets.read_meld(
        side_sheets.read_cards(ENTRY, text, field),
        field,
        lambda cards: check_meld(cards, going_out=going_out),
    )
