"""A Burraco hand entered per pair: the sheet a pair's score is written on, read from a
hand entry and checked against the rules before it is scored (BUR-SCORE and the rules it
sums).

Two modes. ``"sheet"``: each pair's figures as the players count them at the table,
``{"melded", "pulito", "sporco", "semipulito", "closed", "pozzetto", "in_hand"}``.
``"cards"``: each pair's melds in card notation and each partner's cards left in hand,
``{"melds": [...], "hands": [first partner's, second partner's], "closed", "pozzetto"}``;
the engine checks every meld (BUR-MELDS, BUR-WILD) and works the sheet out from the cards.
Pair 0 (seats 0 and 2) comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card, check_copies, parse_cards
from scoring.errors import RuleViolation, Violation
from scoring.options import is_int, json_value
from scoring.variants.burraco.cards import DECK, DECK_VALUE, VALUE_STEP, card_value
from scoring.variants.burraco.melds import (
    BURRACO_LENGTH,
    MIN_MELD,
    PULITO,
    SEMIPULITO,
    SPORCO,
    BurracoMeld,
    check_meld,
)
from scoring.variants.burraco.options import BurracoOptions

SHEET, CARDS = "sheet", "cards"
ENTRY_FIELDS = ("mode", "pairs")
SHEET_FIELDS = ("melded", "pulito", "sporco", "semipulito", "closed", "pozzetto", "in_hand")
CARDS_FIELDS = ("melds", "hands", "closed", "pozzetto")
COUNT_FIELDS = ((PULITO, "BUR-BURRACO"), (SPORCO, "BUR-BURRACO"), (SEMIPULITO, "BUR-BURRACO"))
# The most burracos the deck makes: 108 cards, 7 a burraco, 15 at most (108 // 7).
MOST_BURRACOS = len(DECK.cards()) // BURRACO_LENGTH
# The wilds of the deck, each in one burraco at most: 4 jollies and 8 pinelle.
MOST_WILDS = DECK.jokers + 4 * DECK.decks
# The least a burraco's cards are worth, to bound the melded points from below:
# pulito: 7 naturals at 5 at least (seven 3s) = 7 x 5 = 35;
# sporco: 6 naturals at 5 (six 3s) and the cheapest wild, a pinella at 20 = 30 + 20 = 50;
# semipulito: 8 cards, 7 naturals at 5 and a pinella = 35 + 20 = 55.
LEAST_BURRACO_VALUE = {PULITO: 35, SPORCO: 50, SEMIPULITO: 55}
# A bound on a pair's list of melds: 108 cards, 3 a meld at least, 108 // 3 = 36.
MOST_MELDS = len(DECK.cards()) // MIN_MELD


@dataclass(frozen=True, slots=True)
class PairSheet:
    """Hold one pair's hand as its sheet says it: the value of its melded cards, its
    burracos by kind, whether it closed and took its pozzetto, and the value of the cards
    both partners hold at the end."""

    melded: int = 0
    pulito: int = 0
    sporco: int = 0
    semipulito: int = 0
    closed: bool = False
    pozzetto: bool = False
    in_hand: int = 0

    @property
    def burracos(self) -> int:
        """Return how many burracos the pair made, every kind together."""
        return self.pulito + self.sporco + self.semipulito

    def to_dict(self) -> dict[str, Any]:
        """Return the sheet ready for JSON, in the entry's own fields."""
        return {name: getattr(self, name) for name in SHEET_FIELDS}


@dataclass(frozen=True, slots=True)
class HandSheet:
    """Hold one hand's entry: both pairs' sheets (pair 0 first) and, entered by cards, each
    pair's melds and each seat's cards left in hand."""

    pairs: tuple[PairSheet, ...]
    mode: str = SHEET
    melds: tuple[tuple[BurracoMeld, ...], ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()  # by seat, entered by cards


def _violation(rule: str, code: str, field: str, message: str, **params: Any) -> Violation:
    return Violation(rule, f"{field}: {message}", {"field": field, **params}, code)


def _refuse(rule: str, code: str, field: str, message: str, **params: Any) -> RuleViolation:
    return RuleViolation(_violation(rule, code, field, message, **params))


def _mapping(value: object, field: str, fields: Sequence[str]) -> Mapping[str, Any]:
    """Return the value if it is an object holding only ``fields``, else refuse it."""
    if not isinstance(value, Mapping):
        raise _refuse(
            "BUR-SCORE", "bad_entry", field, "an object with " + ", ".join(fields) + " is due."
        )
    unknown = [str(name) for name in value if name not in fields]
    if unknown:
        raise _refuse(
            "BUR-SCORE",
            "unknown_field",
            field,
            f"no field {unknown[0]!r}; it takes " + ", ".join(fields) + ".",
            unknown=unknown,
        )
    return value


def _points(data: Mapping[str, Any], name: str, field: str, rule: str) -> int:
    """Return a number of points: a whole number of 0 to the deck's worth, in fives."""
    value = data.get(name)
    if value is None:
        raise _refuse(rule, "missing", field, "the points are missing.")
    if not is_int(value) or value < 0:
        raise _refuse(
            rule,
            "bad_points",
            field,
            f"{value!r} is no number of points (0 or more).",
            value=json_value(value),
        )
    if value % VALUE_STEP:
        raise _refuse(
            rule,
            "not_multiple_of_5",
            field,
            f"{value} is not a multiple of 5, as every card's value is (BUR-VALUES).",
            value=value,
        )
    if value > DECK_VALUE:
        raise _refuse(
            rule,
            "too_many_points",
            field,
            f"{value} is more than the whole deck is worth, {DECK_VALUE}.",
            value=value,
            max=DECK_VALUE,
        )
    return value


def _count(data: Mapping[str, Any], name: str, field: str, rule: str) -> int:
    """Return a count of burracos, 0 when left out, at most what the deck makes."""
    value = data.get(name, 0)
    if not is_int(value) or not 0 <= value <= MOST_BURRACOS:
        raise _refuse(
            rule,
            "bad_count",
            field,
            f"{value!r} is no count of burracos: 0 to {MOST_BURRACOS} (108 cards, 7 a burraco).",
            value=json_value(value),
            max=MOST_BURRACOS,
        )
    return value


def _flag(data: Mapping[str, Any], name: str, field: str, rule: str, *, needed: bool) -> bool:
    """Return a true-or-false field; one left out is false unless it is ``needed``."""
    if name not in data and needed:
        raise _refuse(rule, "missing", field, "say true or false.")
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise _refuse(
            rule, "bad_flag", field, f"{value!r} is not true or false.", value=json_value(value)
        )
    return value


def _pair_sheet(data: object, field: str) -> PairSheet:
    """Return one pair's sheet read from the entry's fields, each refusal naming its field."""
    data = _mapping(data, field, SHEET_FIELDS)
    counts = {name: _count(data, name, f"{field}.{name}", rule) for name, rule in COUNT_FIELDS}
    return PairSheet(
        melded=_points(data, "melded", f"{field}.melded", "BUR-SCORE"),
        closed=_flag(data, "closed", f"{field}.closed", "BUR-CLOSE", needed=False),
        pozzetto=_flag(data, "pozzetto", f"{field}.pozzetto", "BUR-POZZETTO", needed=True),
        in_hand=_points(data, "in_hand", f"{field}.in_hand", "BUR-SCORE"),
        **counts,
    )


def _pairs(payload: Mapping[str, Any]) -> list[object]:
    pairs = payload.get("pairs")
    if not isinstance(pairs, list) or len(pairs) != 2:
        raise _refuse(
            "BUR-SETUP",
            "two_pairs",
            "pairs",
            "a Burraco hand has two pairs' entries, pair 0 (seats 0 and 2) first.",
        )
    return pairs


def read_entry(
    options: BurracoOptions, payload: Mapping[str, Any], seats: tuple[str, ...] = ()
) -> HandSheet:
    """Read a hand entry (either mode) into its sheet, refusing anything the rules forbid."""
    payload = _mapping(payload, "entry", ENTRY_FIELDS)
    mode = payload.get("mode", SHEET)
    if mode not in (SHEET, CARDS):
        raise _refuse(
            "BUR-SCORE", "bad_mode", "mode", f"{json_value(mode)!r} is no mode: 'sheet' or 'cards'."
        )
    pairs = _pairs(payload)
    if mode == CARDS:
        sheet = _cards_sheet(options, pairs)
    else:
        sheet = HandSheet(tuple(_pair_sheet(data, f"pairs[{i}]") for i, data in enumerate(pairs)))
    problems = sheet_problems(options, sheet.pairs)
    if problems:
        raise RuleViolation(*problems)
    return sheet


def sheet_problems(options: BurracoOptions, pairs: Sequence[PairSheet]) -> list[Violation]:
    """Return what the rules refuse in two pairs' sheets taken together."""
    problems = [
        problem
        for index, pair in enumerate(pairs)
        for problem in _pair_problems(options, pair, f"pairs[{index}]")
    ]
    held = sum(pair.melded + pair.in_hand for pair in pairs)
    if held > DECK_VALUE:
        problems.append(
            _violation(
                "BUR-VALUES",
                "over_deck",
                "pairs",
                f"the cards melded and held add up to {held}, more than the deck's {DECK_VALUE}.",
                value=held,
                max=DECK_VALUE,
            )
        )
    burraco_cards = sum(
        BURRACO_LENGTH * (pair.pulito + pair.sporco) + (BURRACO_LENGTH + 1) * pair.semipulito
        for pair in pairs
    )
    if burraco_cards > len(DECK.cards()):
        problems.append(
            _violation(
                "BUR-BURRACO",
                "too_many_burracos",
                "pairs",
                f"so many burracos need {burraco_cards} cards; the deck has {len(DECK.cards())}.",
                count=burraco_cards,
            )
        )
    wilds = sum(pair.sporco + pair.semipulito for pair in pairs)
    if wilds > MOST_WILDS:
        problems.append(
            _violation(
                "BUR-WILD",
                "too_many_wilds",
                "pairs",
                f"{wilds} burracos with a wild, but the deck has {MOST_WILDS} wilds.",
                count=wilds,
                max=MOST_WILDS,
            )
        )
    closers = [index for index, pair in enumerate(pairs) if pair.closed]
    if len(closers) > 1:
        problems.append(
            _violation(
                "BUR-CLOSE",
                "two_closings",
                f"pairs[{closers[-1]}].closed",
                "only one pair can close: the hand ends at the first closing.",
            )
        )
    return problems


def _pair_problems(options: BurracoOptions, pair: PairSheet, field: str) -> list[Violation]:
    """Return what the rules refuse in one pair's sheet."""
    problems = []
    if pair.semipulito and not options.semipulito:
        problems.append(
            _violation(
                "BUR-OPT-SEMIPULITO",
                "semipulito_off",
                f"{field}.semipulito",
                "this table plays no semipulito: count such a burraco as sporco.",
                count=pair.semipulito,
            )
        )
    least = sum(LEAST_BURRACO_VALUE[kind] * getattr(pair, kind) for kind in LEAST_BURRACO_VALUE)
    if pair.melded < least:
        problems.append(
            _violation(
                "BUR-BURRACO",
                "burraco_points",
                f"{field}.melded",
                f"{pair.melded} melded cannot hold these burracos, whose cards are worth "
                f"{least} at least (7 cards or more each).",
                value=pair.melded,
                min=least,
            )
        )
    if pair.closed:
        problems += _closing_problems(options, pair, f"{field}.closed")
    return problems


def _closing_problems(options: BurracoOptions, pair: PairSheet, field: str) -> list[Violation]:
    """Return why a pair could not have closed: no pozzetto, no burraco (BUR-CLOSE), no
    pulito under the international code (BUR-OPT-INTL)."""
    problems = []
    if not pair.pozzetto:
        problems.append(
            _violation(
                "BUR-CLOSE",
                "closed_without_pozzetto",
                field,
                "a pair closes only after taking its pozzetto (pozzetto is false).",
            )
        )
    if not pair.burracos:
        problems.append(
            _violation(
                "BUR-CLOSE",
                "closed_without_burraco",
                field,
                "a pair closes only with a burraco on the table; it has none.",
            )
        )
    elif options.international and not pair.pulito:
        problems.append(
            _violation(
                "BUR-OPT-INTL",
                "closed_without_pulito",
                field,
                "under the international code a pair closes only with a burraco pulito.",
            )
        )
    return problems


def _cards_sheet(options: BurracoOptions, pairs: list[object]) -> HandSheet:
    """Return the sheet worked out from each pair's melds and each seat's cards in hand."""
    read = [_pair_cards(options, data, f"pairs[{index}]") for index, data in enumerate(pairs)]
    every_card = [
        card
        for melds, hands, _ in read
        for cards in (*(meld.cards for meld in melds), *hands)
        for card in cards
    ]
    check_copies(every_card, DECK)
    sheets = tuple(sheet for _, _, sheet in read)
    melds = tuple(melds for melds, _, _ in read)
    # Seats 0 and 2 hold pair 0's hands, seats 1 and 3 pair 1's.
    (first, third), (second, fourth) = (hands for _, hands, _ in read)
    return HandSheet(sheets, CARDS, melds, (first, second, third, fourth))


def _pair_cards(
    options: BurracoOptions, data: object, field: str
) -> tuple[tuple[BurracoMeld, ...], tuple[tuple[Card, ...], ...], PairSheet]:
    """Return one pair's checked melds, its partners' hands and the sheet they make."""
    data = _mapping(data, field, CARDS_FIELDS)
    texts = data.get("melds", [])
    if not isinstance(texts, list) or len(texts) > MOST_MELDS:
        raise _refuse(
            "BUR-MELDS",
            "bad_melds",
            f"{field}.melds",
            f"a list of melds in card notation, {MOST_MELDS} at most, is due.",
        )
    melds = tuple(
        _meld(options, text, f"{field}.melds[{index}]") for index, text in enumerate(texts)
    )
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise _refuse(
            "BUR-SCORE",
            "bad_hands",
            f"{field}.hands",
            "both partners' cards left in hand are due, each in card notation ('' for none).",
        )
    held = tuple(_cards(text, f"{field}.hands[{index}]") for index, text in enumerate(hands))
    closed = _flag(data, "closed", f"{field}.closed", "BUR-CLOSE", needed=False)
    if closed and all(held):
        raise _refuse(
            "BUR-CLOSE",
            "closer_holds_cards",
            f"{field}.hands",
            "the partner who closed holds no card, yet both partners hold some.",
        )
    pozzetto = _flag(data, "pozzetto", f"{field}.pozzetto", "BUR-POZZETTO", needed=True)
    in_hand = sum(card_value(card) for hand in held for card in hand)
    sheet = melds_sheet(melds, closed=closed, pozzetto=pozzetto, in_hand=in_hand)
    return melds, held, sheet


def melds_sheet(
    melds: Sequence[BurracoMeld], *, closed: bool, pozzetto: bool, in_hand: int
) -> PairSheet:
    """Return the sheet of a pair whose melds are known: their value and their burracos."""
    kinds = [meld.burraco for meld in melds]
    return PairSheet(
        melded=sum(meld.value for meld in melds),
        pulito=kinds.count(PULITO),
        sporco=kinds.count(SPORCO),
        semipulito=kinds.count(SEMIPULITO),
        closed=closed,
        pozzetto=pozzetto,
        in_hand=in_hand,
    )


def _cards(text: object, field: str) -> tuple[Card, ...]:
    """Return the cards written in ``text``, refusals naming the field."""
    if not isinstance(text, str | list):
        raise _refuse("CARD-3", "bad_cards", field, "cards in notation such as '7S 8S 9S'.")
    try:
        cards = parse_cards(text)
    except RuleViolation as exc:
        raise _named(exc, field) from None
    check_copies(cards, DECK)
    return cards


def _meld(options: BurracoOptions, text: object, field: str) -> BurracoMeld:
    """Return the meld written in ``text``, checked; refusals name the field."""
    cards = _cards(text, field)
    try:
        return check_meld(cards, semipulito=options.semipulito, international=options.international)
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
