"""Natural melds, made once per (rules, values): the tables and the bit tricks that read a
hand's runs and sets from them; the gain of a meld; a piece as a Meld.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from scoring.cards import JOKER, RANKS, Card
from scoring.melds import MAX_RUN, Meld, MeldRules, check_meld, opening_value
from scoring.solver.bits import (
    ALL_SUITS,
    BASES,
    CARD_AT,
    FIRST_LAP,
    GAIN_SCALE,
    KINDS,
    LINE,
    LINE_ACES,
    RANK_BITS,
    RUN,
    SET,
    UNIT,
    Candidate,
    Piece,
    make_candidate,
    position_rank,
)
from scoring.solver.results import OpeningValue, Value


def count_one(card: Card) -> int:
    """Count every card as 1: the searches that only ask whether cards can be melded."""
    return 1


def default_opening_value(meld: Meld) -> int:
    """Return a meld's VALUE for an opening: 2-10 face, J Q K 10, ace 1 low, 11 high or in a set.

    A joker counts as the card it stands for. An ace counts 11 in a set and after a king
    (Q-K-A, and K-A-2 with circular runs: RAM-OPEN says "11 after a king"), else 1.
    """
    shown = meld.represents or meld.cards
    total = 0
    for i, card in enumerate(shown):
        if card.rank == 1:
            high = meld.kind == "set" or (i > 0 and shown[i - 1].rank == 13)
            total += 11 if high else 1
        else:
            total += min(card.rank, 10)
    return total


class Ceilings(NamedTuple):
    """Hold the most one copy of each card can gain in an opening valued by VALUE: its
    highest VALUE (an ace 11, as high or in a set; a joker 11, standing for one) and the
    card itself. A state gains at most the sum over its cards, which bounds the search
    (search.best_gain).

    The VALUEs are kept as bit planes over the units of the search state, so that the sum
    over the cards of a mask is a few bit counts (ceiling_sum), not a loop over its cards.
    """

    planes: tuple[int, int, int, int]  # planes[k]: the cards whose highest VALUE has bit k
    cards: int  # the unit of every card
    joker: int  # a joker's ceiling


def ceiling_sum(units: int, ceilings: Ceilings) -> int:
    """Return the sum of the ceilings of the cards a mask holds once each (no jokers)."""
    ones, twos, fours, eights = ceilings.planes
    value = (
        (units & ones).bit_count()
        + ((units & twos).bit_count() << 1)
        + ((units & fours).bit_count() << 2)
        + ((units & eights).bit_count() << 3)
    )
    return value * GAIN_SCALE + (units & ceilings.cards).bit_count()


class Tables(NamedTuple):
    """Hold what one (rules, values) pair needs: card values and every natural meld."""

    rules: MeldRules
    values: tuple[int, ...]  # by card bit; 0 for the joker, whose value is asked per hand
    runs: tuple[dict[int, Candidate], ...]  # runs by length from 3, by line start (one bit)
    sets: dict[int, tuple[Candidate, ...]]  # the cards held of one rank -> their sets
    opening: OpeningValue | None  # gains are VALUE for openings when set, else card values
    # Openings valued by VALUE: the value of each stretch of a run, (suit base, first, last)
    # -> VALUE, filled as hands ask (at most 4 suits x 66 starts x 13 lengths); None for any
    # other opening value, which may read more than what the cards stand for.
    stretches: dict[tuple[int, int, int], int] | None
    # With stretches: where the jokers beyond a group of naturals are worth most, (suit base,
    # first and last natural's line positions, jokers beyond) -> (VALUE, jokers below the
    # first natural), filled as hands ask (see jokers._placement).
    placements: dict[tuple[int, int, int, int], tuple[int, int]] | None
    # Openings valued by VALUE: the most each card can gain (see Ceilings); None for any
    # other gain.
    ceilings: Ceilings | None


def meld_gain(piece: Piece, tables: Tables, joker_value: int) -> int:
    cards = len(piece.bits) + piece.jokers
    if tables.opening is not None:
        return tables.opening(piece_meld(piece, tables.rules)) * GAIN_SCALE + cards
    value = piece.jokers * joker_value
    for bit in piece.bits:
        value += tables.values[bit]
    return value * GAIN_SCALE + cards


@lru_cache(maxsize=32)
def build_tables(rules: MeldRules, value: Value, opening: OpeningValue | None) -> Tables:
    values = tuple(value(CARD_AT[bit]) if bit in CARD_AT else 0 for bit in range(65))
    stretches = {} if opening in (default_opening_value, opening_value) else None
    ceilings = None if stretches is None else _value_ceilings()
    placements = None if stretches is None else {}
    tables = Tables(rules, values, (), {}, opening, stretches, placements, ceilings)
    positions = set(rules.run_positions())
    starts = sorted(positions)
    if rules.wrap:
        positions = set(range(1, 2 * MAX_RUN + 1))
        starts = list(range(1, MAX_RUN + 1))
    # An opening values an ace by its neighbours (a K-A-2 ace is high), so openings keep
    # runs whole rather than split into pieces.
    longest = MAX_RUN if opening is not None else 5
    runs: tuple[dict[int, Candidate], ...] = tuple({} for _ in range(3, longest + 1))
    for suit, base in enumerate(BASES):
        for first in starts:
            for length in range(3, longest + 1):
                last = first + length - 1
                if not all(p in positions for p in range(first, last + 1)):
                    break
                bits = tuple(base + position_rank(p) for p in range(first, last + 1))
                meld = Meld("run", tuple(CARD_AT[bit] for bit in bits))
                piece = Piece(RUN, bits, base, first, last, meld=meld)
                runs[length - 3][1 << (LINE * suit + first)] = make_candidate(
                    piece, meld_gain(piece, tables, 0)
                )
    sets: dict[int, tuple[Candidate, ...]] = {}
    for rank in RANKS:
        for held in (h for n in (3, 4) for h in combinations(BASES, n)):
            pieces = [
                Piece(SET, bits, meld=Meld("set", tuple(CARD_AT[bit] for bit in bits)))
                for size in range(min(len(held), rules.max_set), 2, -1)
                for bits in combinations([base + rank for base in held], size)
                # RAM-OPT-FIXEDGROUPS: the suits of a set follow C S H D without gaps.
                if not rules.fixed_groups or bits[-1] - bits[0] == 16 * (size - 1)
            ]
            sets[sum(1 << (base + rank) for base in held)] = tuple(
                make_candidate(piece, meld_gain(piece, tables, 0)) for piece in pieces
            )
    return tables._replace(runs=runs, sets=sets)


def _value_ceilings() -> Ceilings:
    """Return the most each card can gain in an opening valued by VALUE (see Ceilings)."""
    highest = 11  # an ace high or in a set, and a joker standing for one
    by_unit = {
        UNIT[bit]: highest if card.rank == 1 else min(card.rank, 10)
        for bit, card in CARD_AT.items()
    }
    ones, twos, fours, eights = (
        sum(unit for unit, value in by_unit.items() if value >> k & 1) for k in range(4)
    )
    return Ceilings((ones, twos, fours, eights), sum(by_unit), highest * GAIN_SCALE + 1)


# The last (rules, value, tables) used, in one slot that is read and replaced whole.
_recent: list[tuple[MeldRules | None, Value | None, Tables | None]] = [(None, None, None)]


def tables_for(rules: MeldRules, value: Value) -> Tables:
    """Return the tables for the rules and values, made once per pair."""
    # The same two objects come back call after call; checking identity is cheaper than the
    # hashing the lru_cache does.
    last_rules, last_value, tables = _recent[0]
    if last_rules is rules and last_value is value and tables is not None:
        return tables
    tables = build_tables(rules, value, None)
    _recent[0] = (rules, value, tables)
    return tables


def prepare(rules: MeldRules, value: Value) -> None:
    """Build the tables for these rules and values now, not on the first hand."""
    tables_for(rules, value)


def natural_candidates(hand: int, tables: Tables) -> list[Candidate]:
    """Return every meld of natural cards the hand holds, in the order of its cards."""
    rules = tables.rules
    c = hand & RANK_BITS
    s = (hand >> 16) & RANK_BITS
    h = (hand >> 32) & RANK_BITS
    d = (hand >> 48) & RANK_BITS
    found: list[Candidate] = []
    line = c | s << LINE | h << (2 * LINE) | d << (3 * LINE)
    if rules.wrap:
        line |= line << MAX_RUN
    else:
        if rules.ace_high:
            line |= (line & LINE_ACES) << MAX_RUN
        if not rules.ace_low:
            line &= ~LINE_ACES
    starts = line & (line >> 1) & (line >> 2)
    if rules.wrap:
        starts &= FIRST_LAP
    if starts:
        runs = tables.runs
        runs3 = runs[0]
        longest = len(runs) + 2
        while starts:
            low = starts & -starts
            starts ^= low
            found.append(runs3[low])
            length = 3
            while length < longest and line & (low << length):
                length += 1
                found.append(runs[length - 3][low])
    threes = (c & s & (h | d)) | (h & d & (c | s))
    while threes:
        low = threes & -threes
        threes ^= low
        found.extend(tables.sets[hand & (low * ALL_SUITS)])
    return found


def piece_meld(piece: Piece, rules: MeldRules) -> Meld:
    """Return the meld of a piece, jokers with the cards they stand for."""
    if piece.meld is not None:
        return piece.meld
    if not piece.jokers:
        # A merged run takes check_meld's form, so that all 13 cards of a suit round the
        # corner are one meld whichever piece they were found from.
        return check_meld([CARD_AT[bit] for bit in piece.bits], rules)
    naturals = set(piece.bits)
    represents = tuple(CARD_AT[bit] for bit in piece.places)
    cards = tuple(
        card if bit in naturals else JOKER
        for bit, card in zip(piece.places, represents, strict=True)
    )
    return Meld(KINDS[piece.kind], cards, represents)
