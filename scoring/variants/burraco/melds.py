"""Burraco's melds: sequences and combinations, their one wild, and the burraco a meld of
seven or more cards makes (BUR-MELDS, BUR-WILD, BUR-BURRACO, BUR-OPT-SEMIPULITO,
BUR-OPT-INTL).

The shared meld checker (scoring/melds.py) knows jokers but not pinelle, a 2 that is wild
out of its place and natural in it, so Burraco checks its melds here.

Readings of the sources (see the package's docstring for where they come from):

- A sequence holds each rank once, so one ace, low (A-2-3) or high (Q-K-A), never both and
  never between K and 2: at most 13 natural cards. The federation's code lets the wild be
  the fourteenth card beside a whole suit (A..K and a wild): it then stands for the other
  ace. Two natural aces (A-2-...-K-A) are refused.
- A combination is 3 or more cards of one rank, 8 naturals at most (two decks) and the
  wild: 9 at most. 2s and jokers make no combination of their own.
- Semipulito, where the table plays it: the meld with its wild left out would still be a
  clean burraco. A sequence: seven or more natural cards in unbroken order with the wild
  at one end (a wild filling a gap inside makes it sporco); a combination: seven or more
  naturals and the wild, eight cards or more.
- International code: combinations only of aces and of 3s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from scoring.cards import Card, card_sort_key
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.variants.burraco.cards import PINELLA_RANK, card_value, is_wild

SEQUENCE, COMBINATION = "sequence", "combination"
# What burraco a meld makes, from best to worst, and none under seven cards (BUR-BURRACO).
PULITO, SEMIPULITO, SPORCO, NO_BURRACO = "pulito", "semipulito", "sporco", "none"
BURRACO_KINDS = (PULITO, SEMIPULITO, SPORCO)
BURRACO_BONUS = {PULITO: 200, SEMIPULITO: 150, SPORCO: 100, NO_BURRACO: 0}
BURRACO_LENGTH = 7
MIN_MELD = 3
MOST_NATURALS_OF_A_RANK = 8  # two decks
ACE_HIGH = 14  # an ace's place above the king
INTERNATIONAL_COMBINATION_RANKS = (1, 3)  # the "extreme" cards: aces and 3s


@dataclass(frozen=True, slots=True)
class BurracoMeld:
    """Hold a legal meld: its kind, its cards in order (the wild in its place), the wild
    and what it stands for ("5H" in a sequence, a rank such as "Q" in a combination), and
    the burraco it makes."""

    kind: str
    cards: tuple[Card, ...]
    wild: Card | None
    stands_for: str
    burraco: str

    @property
    def value(self) -> int:
        """Return what the meld's cards are worth (BUR-VALUES)."""
        return sum(card_value(card) for card in self.cards)

    @property
    def bonus(self) -> int:
        """Return the burraco's bonus, 0 when the meld makes none (BUR-BURRACO)."""
        return BURRACO_BONUS[self.burraco]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def check_meld(
    cards: Iterable[Card], *, semipulito: bool = False, international: bool = False
) -> BurracoMeld:
    """Return the meld the cards make, or refuse them citing BUR-MELDS, BUR-WILD or
    BUR-OPT-INTL. ``semipulito`` and ``international`` are the table's options."""
    cards = tuple(cards)
    if len(cards) < MIN_MELD:
        raise _refuse(
            "BUR-MELDS",
            "too_short",
            f"A meld needs at least {MIN_MELD} cards, not {len(cards)}.",
            count=len(cards),
            min=MIN_MELD,
        )
    plain = [card for card in cards if not is_wild(card)]
    if not plain:
        raise _refuse(
            "BUR-MELDS",
            "wilds_alone",
            "Jollies and 2s make no meld on their own: no combination of 2s or of jokers.",
            cards=_names(cards),
        )
    if len({card.rank for card in plain}) == 1 and len(plain) > 1:
        meld = _combination(cards, plain, international)
    else:
        meld = _sequence(cards, plain)
    return _with_burraco(meld, semipulito=semipulito and not international)


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _two_wilds(wilds: Sequence[Card]) -> RuleViolation:
    return _refuse(
        "BUR-WILD",
        "two_wilds",
        "A meld holds one wild at most (a jolly, or a 2 out of its natural place); "
        f"these are wild: {' '.join(_names(wilds))}.",
        cards=_names(wilds),
        count=len(wilds),
    )


def _combination(cards: tuple[Card, ...], plain: list[Card], international: bool) -> BurracoMeld:
    """Return the combination the cards make: one rank, every 2 and jolly wild."""
    rank = plain[0].rank
    wilds = [card for card in cards if is_wild(card)]
    if len(wilds) > 1:
        raise _two_wilds(wilds)
    if len(plain) > MOST_NATURALS_OF_A_RANK:
        raise _refuse(
            "BUR-MELDS",
            "too_long",
            f"A combination holds {MOST_NATURALS_OF_A_RANK} cards of its rank at most "
            f"and its wild, not {len(plain)}.",
            count=len(plain),
            max=MOST_NATURALS_OF_A_RANK,
        )
    if international and rank not in INTERNATIONAL_COMBINATION_RANKS:
        raise _refuse(
            "BUR-OPT-INTL",
            "combination_rank",
            "Under the international code only aces and 3s make combinations.",
            rank=plain[0].rank_name,
        )
    wild = wilds[0] if wilds else None
    ordered = (*sorted(plain, key=card_sort_key), *wilds)
    return BurracoMeld(COMBINATION, ordered, wild, plain[0].rank_name if wild else "", NO_BURRACO)


def _sequence(cards: tuple[Card, ...], plain: list[Card]) -> BurracoMeld:
    """Return the sequence the cards make, its wild (if any) chosen so the meld is best:
    no wild where a 2 can stand in its place, else the one wild."""
    suit = plain[0].suit
    if any(card.suit != suit for card in plain):
        raise _refuse(
            "BUR-MELDS",
            "mixed",
            "A meld is one rank (a combination) or one suit in order (a sequence); "
            "these cards are neither.",
            cards=_names(cards),
        )
    forced = [card for card in cards if card.is_joker or (is_wild(card) and card.suit != suit)]
    if len(forced) > 1:
        raise _two_wilds(forced)
    found: list[BurracoMeld] = []
    problem: RuleViolation | None = None
    for wild, naturals in _wild_choices(cards, forced, suit):
        try:
            found.append(_run(naturals, wild))
        except RuleViolation as exc:
            problem = problem or exc
    if not found:
        assert problem is not None  # at least one choice is always tried
        raise problem
    # A 2 in its place is no wild: the clean reading wins, then one whose wild is at an end.
    return min(found, key=lambda meld: (meld.wild is not None, _gaps_filled(meld)))


def _wild_choices(
    cards: tuple[Card, ...], forced: list[Card], suit: str
) -> Iterator[tuple[Card | None, list[Card]]]:
    """Yield each way to read the cards: which one is the wild (None: none), and the rest."""
    if forced:
        rest = list(cards)
        rest.remove(forced[0])
        yield forced[0], rest
        return
    yield None, list(cards)
    own_twos = {card for card in cards if card.rank == PINELLA_RANK and card.suit == suit}
    for two in own_twos:
        rest = list(cards)
        rest.remove(two)
        yield two, rest


def _gaps_filled(meld: BurracoMeld) -> int:
    """Return 1 where the meld's wild stands inside it, 0 at an end or without a wild."""
    if meld.wild is None:
        return 0
    place = meld.cards.index(meld.wild)
    return int(0 < place < len(meld.cards) - 1)


def _run(naturals: list[Card], wild: Card | None) -> BurracoMeld:
    """Return the sequence of these natural cards (one suit) and the wild, or refuse it."""
    ranks = [card.rank for card in naturals]
    repeated = sorted({rank for rank in ranks if ranks.count(rank) > 1})
    if repeated:
        raise _refuse(
            "BUR-MELDS",
            "repeated_rank",
            "A sequence holds each rank once, and one ace, low or high.",
            ranks=[Card(rank, naturals[0].suit).rank_name for rank in repeated],
        )
    for places in _ace_readings(ranks):
        low, high = min(places), max(places)
        gaps = [place for place in range(low, high + 1) if place not in places]
        if not gaps and wild is None:
            return _ordered(naturals, places, None, 0)
        if wild is not None and len(gaps) <= 1:
            stand = gaps[0] if gaps else (high + 1 if high < ACE_HIGH else low - 1)
            return _ordered(naturals, places, wild, stand)
    wraps = 1 in ranks and ACE_HIGH - 1 in ranks and any(rank in (2, 3) for rank in ranks)
    raise _refuse(
        "BUR-MELDS",
        "wrap" if wraps else "not_in_order",
        "An ace goes low (A-2-3) or high (Q-K-A), never between K and 2."
        if wraps
        else "A sequence's cards follow one another; one wild may fill one gap.",
        cards=_names(naturals),
    )


def _ace_readings(ranks: list[int]) -> list[list[int]]:
    """Return the places of the ranks in the suit's order: the ace low, then high."""
    if 1 not in ranks:
        return [ranks]
    return [ranks, [ACE_HIGH if rank == 1 else rank for rank in ranks]]


def _ordered(naturals: list[Card], places: list[int], wild: Card | None, stand: int) -> BurracoMeld:
    """Return the sequence in order of place, the wild at the place ``stand`` it takes."""
    suit = naturals[0].suit
    by_place = dict(zip(places, naturals, strict=True))
    if wild is not None:
        by_place[stand] = wild
    ordered = tuple(by_place[place] for place in sorted(by_place))
    stands_for = str(Card(1 if stand == ACE_HIGH else stand, suit)) if wild is not None else ""
    return BurracoMeld(SEQUENCE, ordered, wild, stands_for, NO_BURRACO)


def _with_burraco(meld: BurracoMeld, *, semipulito: bool) -> BurracoMeld:
    """Return the meld with the burraco it makes (BUR-BURRACO, BUR-OPT-SEMIPULITO)."""
    if len(meld.cards) < BURRACO_LENGTH:
        kind = NO_BURRACO
    elif meld.wild is None:
        kind = PULITO
    elif semipulito and len(meld.cards) > BURRACO_LENGTH and not _gaps_filled(meld):
        kind = SEMIPULITO
    else:
        kind = SPORCO
    return BurracoMeld(meld.kind, meld.cards, meld.wild, meld.stands_for, kind)
