"""Cards as bits, and the search state: the encodings every part of the solver shares.

A card is a bit of a 64-bit mask (16 per suit, so runs are stretches of adjacent bits); the
search state counts copies in 2-bit fields and carries the jokers and the table melds'
tokens (see the package docstring). A candidate (Candidate) is what the search may take.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from scoring.cards import FULL_DECK, SUITS, Card
from scoring.melds import MAX_RUN, Meld, MeldRules

# Card bits, used for the tables and bit tricks: card (rank r, suit s) is bit 16*s + r, so
# the bits of a suit are its ranks 1..13 and runs are stretches of adjacent bits.
SUIT_BASE: dict[str, int] = {suit: 16 * i for i, suit in enumerate(SUITS)}
SUIT_BASE[""] = 64  # a joker (rank 0) lands on bit 64, outside every suit
BASES: tuple[int, ...] = tuple(SUIT_BASE[suit] for suit in SUITS)
RANK_BITS = 0x3FFE  # bits 1..13 of a suit
NATURAL_BITS = (1 << 64) - 1
CARD_AT: dict[int, Card] = {SUIT_BASE[card.suit] + card.rank: card for card in FULL_DECK}
# Runs are found in a "line" bitmask with 32 bits per suit: positions 1..13 are the ranks,
# 14 is a high ace, and with wrapping 14..26 go round the suit a second time.
LINE = 32
LINE_ACES = sum(1 << (LINE * i + 1) for i in range(len(SUITS)))
FIRST_LAP = sum(RANK_BITS << (LINE * i) for i in range(len(SUITS)))
# Multiplying a rank's bit by this spreads it to the same rank of every suit.
ALL_SUITS = sum(1 << base for base in BASES)

# The search state (see the module docstring). A card's *unit* is 1 in its count field.
JOKERS = 0xF
UNIT: tuple[int, ...] = (
    *(
        1 << (4 + 2 * (13 * (bit // 16) + bit % 16 - 1)) if bit in CARD_AT else 0
        for bit in range(64)
    ),
    1,  # bit 64, the joker: its count is the low bits
)
FIRST_TOKEN = 1 << (4 + 2 * len(FULL_DECK))
MAX_TABLE_MELDS = 1024
# The low bit of every count field and token: where a state holds something.
PRESENT = sum(1 << (4 + 2 * i) for i in range(len(FULL_DECK) + MAX_TABLE_MELDS))
# The gain of a branch that leaves a card out where none may be (going out).
NEVER = -(1 << 40)

# A gain is value * GAIN_SCALE + cards: see the module docstring.
GAIN_SCALE = 64
RUN, SET, LAYOFF = 0, 1, 2
KINDS = {RUN: "run", SET: "set"}


class Piece(NamedTuple):
    """Describe a candidate: a run, a set, or cards laid off onto a table meld."""

    kind: int  # RUN, SET or LAYOFF; also the tie-break order between kinds
    bits: tuple[int, ...]  # natural cards, in meld order; for a layoff, in the order laid
    suit_base: int = 0  # runs: which suit
    first: int = 0  # runs: line positions of the ends (see position_rank)
    last: int = 0
    target: int = -1  # layoffs: index of the table meld
    meld: Meld | None = None  # melds of the tables: the meld, made once per table
    jokers: int = 0
    # With jokers: the card every position stands for, in meld order (a layoff: as laid).
    places: tuple[int, ...] = ()


# A candidate as the search sees it: (order, mask, take, gain, piece). The mask has a unit
# for each natural card (and the token of a layoff's table meld); take adds the jokers.
# Between equally good choices for the lowest card the lower order wins: longer candidates
# first, then runs before sets before layoffs, then the order they were found in.
Candidate = tuple[int, int, int, int, Piece | tuple]  # a run with jokers: see as_piece
by_order = itemgetter(0)


def position_rank(position: int) -> int:
    """Return the rank at a line position: 1..13, then round again (14 is the ace)."""
    return (position - 1) % MAX_RUN + 1


def as_piece(made: Piece | tuple) -> Piece:
    """Return the piece of a candidate: runs with jokers keep what makes their piece, a plain
    tuple (bits, suit base, first, last, jokers, units), until the search takes them, as a
    hand lists thousands and takes a few; so do layoffs onto table runs, (the cards laid as
    (bit, joker?) pairs, suit base, first, last, table meld)."""
    if type(made) is Piece:
        return made
    if len(made) == 5:
        laid, base, first, last, target = made
        bits = tuple(bit for bit, joker in laid if not joker)
        places = tuple(bit for bit, _ in laid)
        jokers = len(laid) - len(bits)
        return Piece(LAYOFF, bits, base, first, last, target, jokers=jokers, places=places)
    bits, base, first, last, jokers, _ = made
    return Piece(RUN, bits, base, first, last, jokers=jokers, places=run_places(base, first, last))


def make_candidate(piece: Piece, gain: int, token: int = 0) -> Candidate:
    mask = token
    for bit in piece.bits:
        mask += UNIT[bit]
    cards = len(piece.bits) + piece.jokers
    return (piece.kind - 4 * cards, mask, mask + piece.jokers, gain, piece)


def run_bounds(rules: MeldRules) -> tuple[int, int]:
    """Return the lowest and highest line positions a run may reach (wrapping: unbounded)."""
    if rules.wrap:
        return -2 * MAX_RUN, 3 * MAX_RUN
    return (1 if rules.ace_low else 2), (14 if rules.ace_high else 13)


# The card bit at each line position of each suit, from _LOWEST_POSITION up: a run's places
# are a slice of it.
_LOWEST_POSITION = -2 * MAX_RUN
_LINE_BITS: dict[int, tuple[int, ...]] = {
    base: tuple(base + position_rank(p) for p in range(_LOWEST_POSITION, 4 * MAX_RUN))
    for base in BASES
}


def run_places(base: int, first: int, last: int) -> tuple[int, ...]:
    """Return the card bits of a suit's line positions first to last."""
    return _LINE_BITS[base][first - _LOWEST_POSITION : last - _LOWEST_POSITION + 1]


def _card_table(base: int, first_rank: int, size: int) -> tuple[tuple[Card, ...], ...]:
    """Return, for every subset of `size` ranks from first_rank up, its cards in order."""
    return tuple(
        tuple(CARD_AT[base + first_rank + i] for i in range(size) if (subset >> i) & 1)
        for subset in range(1 << size)
    )


# Cards of each suit by the set of ranks held: A-7 and 8-K looked up apart, so the tables
# stay small, are made once, and a call allocates nothing that outlives it.
_LOW_CARDS = tuple(_card_table(base, 1, 7) for base in BASES)
_HIGH_CARDS = tuple(_card_table(base, 8, 6) for base in BASES)


def cards_of(mask: int) -> tuple[Card, ...]:
    """Return the cards of a mask in display order."""
    c_low, s_low, h_low, d_low = _LOW_CARDS
    c_high, s_high, h_high, d_high = _HIGH_CARDS
    return (
        c_low[(mask >> 1) & 127]
        + c_high[(mask >> 8) & 63]
        + s_low[(mask >> 17) & 127]
        + s_high[(mask >> 24) & 63]
        + h_low[(mask >> 33) & 127]
        + h_high[(mask >> 40) & 63]
        + d_low[(mask >> 49) & 127]
        + d_high[(mask >> 56) & 63]
    )
