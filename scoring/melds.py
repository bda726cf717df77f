"""Meld rules and meld validation (MELD-SET, MELD-RUN, ACE-LOW, ACE-HIGH, ACE-WRAP)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import SUIT_SYMBOLS, Card, card_sort_key

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse

MIN_MELD = 3
MAX_RUN = 13


@dataclass(frozen=True, slots=True)
class MeldRules:
    """Describe which melds a variant allows; the defaults are Gin's (GIN-MELDS)."""

    ace_low: bool = True
    ace_high: bool = False
    wrap: bool = False  # ACE-WRAP off; RAM-OPT-CIRCULAR turns it on (runs still <= 13 cards)
    max_set: int = 4
    # Jokers. Gin has none; each variant with jokers sets these from its options.
    max_jokers: int | None = 0  # per meld; None = no count limit (R40-RUNS: 1)
    jokers_within_naturals: bool = False  # RAM-JOKER: never more jokers than natural cards
    adjacent_jokers: bool = True  # RAM-OPT-FIXEDJOKER: False, no two jokers side by side
    fixed_groups: bool = False  # RAM-OPT-FIXEDGROUPS: set suits in order C S H D, no gaps

    def run_positions(self) -> tuple[int, ...]:
        """Return the ranks of a suit in run order (an ace-high ace is 14), wrapping aside."""
        low = (1,) if self.ace_low else ()
        high = (14,) if self.ace_high else ()
        return (*low, *range(2, 14), *high)


@dataclass(frozen=True, slots=True)
class Meld:
    """Hold a legal set or run; a run's cards are in rank order, a set's in suit order."""

    kind: str
    cards: tuple[Card, ...]
    # The card each position stands for: a natural card stands for itself, a joker for the
    # card it replaces (JOKER-1). Empty for melds without jokers, where it equals ``cards``.
    represents: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    @property
    def label(self) -> str:
        """Return the meld for people, e.g. 7♠ 8♠ 9♠."""
        return " ".join(card.label for card in self.cards)


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(card.label for card in cards)


def check_meld(cards: Sequence[Card], rules: MeldRules) -> Meld:
    """Return the meld the cards form under the rules, or refuse it citing the rule."""
    cards = tuple(cards)
    if any(card.is_joker for card in cards):
        # Joker melds (JOKER-1) arrive with the variants that have jokers.
        raise _refuse(
            "JOKER-1",
            "unsupported",
            "These rules have no jokers in melds.",
            cards=_names(cards),
        )
    ranks = {card.rank for card in cards}
    suits = {card.suit for card in cards}
    if len(ranks) <= 1:
        return _check_set(cards, rules)
    if len(suits) == 1:
        return _check_run(cards, rules)
    # Mixed ranks and suits: report against the kind the cards look most like.
    most_of_a_rank = max(Counter(card.rank for card in cards).values())
    most_of_a_suit = max(Counter(card.suit for card in cards).values())
    if most_of_a_rank >= most_of_a_suit:
        raise _refuse(
            "MELD-SET",
            "mixed_ranks",
            f"{_labels(cards)} is not a set: a set holds cards of one rank.",
            cards=_names(cards),
        )
    raise _refuse(
        "MELD-RUN",
        "mixed_suits",
        f"{_labels(cards)} is not a run: a run holds cards of one suit.",
        cards=_names(cards),
    )


def _check_set(cards: tuple[Card, ...], rules: MeldRules) -> Meld:
    if len(cards) < MIN_MELD:
        raise _refuse(
            "MELD-SET",
            "too_few",
            f"{_labels(cards) or 'No cards'}: a set needs at least {MIN_MELD} cards.",
            cards=_names(cards),
            count=len(cards),
            minimum=MIN_MELD,
        )
    repeated = sorted(suit for suit, n in Counter(card.suit for card in cards).items() if n > 1)
    if repeated:
        raise _refuse(
            "MELD-SET",
            "repeated_suit",
            f"{_labels(cards)} is not a set: {SUIT_SYMBOLS[repeated[0]]} appears twice.",
            cards=_names(cards),
            suit=repeated[0],
        )
    if len(cards) > rules.max_set:
        raise _refuse(
            "MELD-SET",
            "too_many",
            f"{_labels(cards)} is not a set: a set holds at most {rules.max_set} cards.",
            cards=_names(cards),
            count=len(cards),
            limit=rules.max_set,
        )
    return Meld("set", tuple(sorted(cards, key=card_sort_key)))


def _check_run(cards: tuple[Card, ...], rules: MeldRules) -> Meld:
    if len(cards) < MIN_MELD:
        raise _refuse(
            "MELD-RUN",
            "too_few",
            f"{_labels(cards)}: a run needs at least {MIN_MELD} cards.",
            cards=_names(cards),
            count=len(cards),
            minimum=MIN_MELD,
        )
    repeated = sorted(rank for rank, n in Counter(card.rank for card in cards).items() if n > 1)
    if repeated:
        card = next(card for card in cards if card.rank == repeated[0])
        raise _refuse(
            "MELD-RUN",
            "repeated_rank",
            f"{_labels(cards)} is not a run: {card.label} appears twice.",
            cards=_names(cards),
            card=str(card),
        )
    # Distinct ranks of one suit: at most 13 cards, so MAX_RUN needs no check of its own.
    by_rank = {card.rank: card for card in cards}
    ordered = _run_order(sorted(by_rank), rules)
    if ordered is not None:
        return Meld("run", tuple(by_rank[rank] for rank in ordered))
    low_order = sorted(by_rank)
    if _run_order(low_order, MeldRules(ace_low=True)) is not None:
        raise _refuse(
            "ACE-LOW",
            "not_allowed",
            f"{_labels(cards)} is not a run here: the ace may not come before the 2.",
            cards=_names(cards),
        )
    if _run_order(low_order, MeldRules(ace_high=True)) is not None:
        raise _refuse(
            "ACE-HIGH",
            "not_allowed",
            f"{_labels(cards)} is not a run here: the ace may not follow the king.",
            cards=_names(cards),
        )
    if _run_order(low_order, MeldRules(wrap=True)) is not None:
        raise _refuse(
            "ACE-WRAP",
            "not_allowed",
            f"{_labels(cards)} is not a run: a run may not go round the corner (K-A-2).",
            cards=_names(cards),
        )
    suit = cards[0].suit
    missing = [
        Card(rank, suit) for rank in range(low_order[0], low_order[-1] + 1) if rank not in by_rank
    ]
    raise _refuse(
        "MELD-RUN",
        "gap",
        f"{_labels(cards)} is not a run: {_labels(missing)} missing.",
        cards=_names(cards),
        missing=_names(missing),
    )


def _run_order(ranks: list[int], rules: MeldRules) -> list[int] | None:
    """Return distinct sorted ranks in run order if they form a run under the rules."""
    n = len(ranks)
    if rules.wrap:
        # Round the corner: the ranks lie on a circle of 13 with at most one gap; start after it.
        gaps = [i for i in range(n) if (ranks[i] - ranks[i - 1]) % MAX_RUN != 1]
        if len(gaps) > 1:
            return None
        return ranks[gaps[0] :] + ranks[: gaps[0]] if gaps else ranks
    if ranks[-1] - ranks[0] == n - 1 and (ranks[0] != 1 or rules.ace_low):
        return ranks
    if rules.ace_high and ranks[0] == 1:
        high = [*ranks[1:], 14]
        if high[-1] - high[0] == n - 1:
            return [*ranks[1:], 1]
    return None
