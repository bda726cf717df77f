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

from scoring import side_sheets
from scoring.cards import Card
from scoring.errors import Violation
from scoring.side_sheets import CARDS, ENTRY_FIELDS, SHEET, EntryRules, HandSheet
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

__all__ = ["CARDS", "ENTRY_FIELDS", "SHEET", "HandSheet", "PairSheet", "read_entry"]

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
ENTRY = EntryRules(
    score="BUR-SCORE",
    points="BUR-SCORE",
    points_note=" (BUR-VALUES)",
    values="BUR-VALUES",
    setup="BUR-SETUP",
    sides_sentence="a Burraco hand has two pairs' entries, pair 0 (seats 0 and 2) first.",
    deck=DECK,
    deck_value=DECK_VALUE,
    value_step=VALUE_STEP,
    card_example="7S 8S 9S",
)


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


def _count_sentence(value: object, most: int) -> str:
    return f"{value!r} is no count of burracos: 0 to {most} (108 cards, 7 a burraco)."


def _pair_sheet(data: object, field: str) -> PairSheet:
    """Return one pair's sheet read from the entry's fields, each refusal naming its field."""
    data = side_sheets.read_mapping(data, field, SHEET_FIELDS, "BUR-SCORE")
    counts = {
        name: side_sheets.read_count(
            data, name, f"{field}.{name}", rule, MOST_BURRACOS, _count_sentence
        )
        for name, rule in COUNT_FIELDS
    }
    return PairSheet(
        melded=side_sheets.read_points(ENTRY, data, "melded", f"{field}.melded"),
        closed=side_sheets.read_flag(data, "closed", f"{field}.closed", "BUR-CLOSE"),
        pozzetto=side_sheets.read_flag(
            data, "pozzetto", f"{field}.pozzetto", "BUR-POZZETTO", needed=True
        ),
        in_hand=side_sheets.read_points(ENTRY, data, "in_hand", f"{field}.in_hand"),
        **counts,
    )


def read_entry(
    options: BurracoOptions, payload: Mapping[str, Any], seats: tuple[str, ...] = ()
) -> HandSheet[PairSheet, BurracoMeld]:
    """Read a hand entry (either mode) into its sheet, refusing anything the rules forbid."""
    return side_sheets.read_entry(
        ENTRY,
        payload,
        _pair_sheet,
        lambda pairs: _cards_sheet(options, pairs),
        lambda pairs: sheet_problems(options, pairs),
    )


def sheet_problems(options: BurracoOptions, pairs: Sequence[PairSheet]) -> list[Violation]:
    """Return what the rules refuse in two pairs' sheets taken together."""
    problems = [
        problem
        for index, pair in enumerate(pairs)
        for problem in _pair_problems(options, pair, f"pairs[{index}]")
    ]
    problems += side_sheets.over_deck_problems(ENTRY, pairs)
    burraco_cards = sum(
        BURRACO_LENGTH * (pair.pulito + pair.sporco) + (BURRACO_LENGTH + 1) * pair.semipulito
        for pair in pairs
    )
    if burraco_cards > len(DECK.cards()):
        problems.append(
            side_sheets.violation(
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
            side_sheets.violation(
                "BUR-WILD",
                "too_many_wilds",
                "pairs",
                f"{wilds} burracos with a wild, but the deck has {MOST_WILDS} wilds.",
                count=wilds,
                max=MOST_WILDS,
            )
        )
    return problems + side_sheets.one_ending_problems(
        [pair.closed for pair in pairs],
        "closed",
        "BUR-CLOSE",
        "two_closings",
        "only one pair can close: the hand ends at the first closing.",
    )


def _pair_problems(options: BurracoOptions, pair: PairSheet, field: str) -> list[Violation]:
    """Return what the rules refuse in one pair's sheet."""
    problems = []
    if pair.semipulito and not options.semipulito:
        problems.append(
            side_sheets.violation(
                "BUR-OPT-SEMIPULITO",
                "semipulito_off",
                f"{field}.semipulito",
                "this table plays no semipulito: count such a burraco as sporco.",
                count=pair.semipulito,
            )
        )
    least = sum(LEAST_BURRACO_VALUE[kind] * getattr(pair, kind) for kind in LEAST_BURRACO_VALUE)
    problems += side_sheets.least_melded_problems(
        pair.melded, least, field, "BUR-BURRACO", "burraco_points", "burracos"
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
            side_sheets.violation(
                "BUR-CLOSE",
                "closed_without_pozzetto",
                field,
                "a pair closes only after taking its pozzetto (pozzetto is false).",
            )
        )
    if not pair.burracos:
        problems.append(
            side_sheets.violation(
                "BUR-CLOSE",
                "closed_without_burraco",
                field,
                "a pair closes only with a burraco on the table; it has none.",
            )
        )
    elif options.international and not pair.pulito:
        problems.append(
            side_sheets.violation(
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
    return side_sheets.cards_hand_sheet(DECK, read)


def _pair_cards(
    options: BurracoOptions, data: object, field: str
) -> tuple[tuple[BurracoMeld, ...], tuple[tuple[Card, ...], ...], PairSheet]:
    """Return one pair's checked melds, its partners' hands and the sheet they make."""
    data = side_sheets.read_mapping(data, field, CARDS_FIELDS, "BUR-SCORE")
    texts = side_sheets.read_meld_texts(data, field, "BUR-MELDS", MOST_MELDS)
    melds = tuple(
        _meld(options, text, f"{field}.melds[{index}]") for index, text in enumerate(texts)
    )
    held = side_sheets.read_hands(data, field, "BUR-SCORE", _cards)
    closed = side_sheets.read_flag(data, "closed", f"{field}.closed", "BUR-CLOSE")
    if closed:
        side_sheets.check_one_holds_none(
            held,
            field,
            "BUR-CLOSE",
            "closer_holds_cards",
            "the partner who closed holds no card, yet both partners hold some.",
        )
    pozzetto = side_sheets.read_flag(
        data, "pozzetto", f"{field}.pozzetto", "BUR-POZZETTO", needed=True
    )
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
    return side_sheets.read_cards(ENTRY, text, field)


def _meld(options: BurracoOptions, text: object, field: str) -> BurracoMeld:
    """Return the meld written in ``text``, checked; refusals name the field."""
    return side_sheets.read_meld(
        _cards(text, field),
        field,
        lambda cards: check_meld(
            cards, semipulito=options.semipulito, international=options.international
        ),
    )
