"""Arrangement solver: minimum deadwood (GIN-DEADWOOD) and best layoffs (GIN-LAYOFF).

A hand is a bitmask: card (rank r, suit s) is bit 16*s + r, suits in display order, so the
bits of a suit are its ranks 1..13 and runs are stretches of adjacent bits. Every meld a hand
can hold is a *candidate*: each run of 3 to 5 cards (a longer run splits into such pieces with
the same deadwood, and pieces that touch are merged again for display), each set of 4 and
each of its sets of 3. The search takes the lowest card still undecided and either leaves it
as deadwood or puts it in a candidate that fits the cards left; results are memoised on the
mask of cards left, local to one call. Layoffs are candidates of the same search: a card
completing a set of 3, or a chain of cards extending a run end outward.

The bitmask holds one copy of each card and no jokers, which is all Gin needs; a hand outside
that is refused with CARD-2. The multi-deck variants with jokers will need copies and joker
candidates, but the search over candidates stays the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from typing import NamedTuple

from scoring.cards import FULL_DECK, SUITS, Card, DeckSpec, check_copies
from scoring.melds import MAX_RUN, Meld, MeldRules, check_meld

Value = Callable[[Card], int]

_SUIT_BASE: dict[str, int] = {suit: 16 * i for i, suit in enumerate(SUITS)}
# A joker lands on bit 64, outside every suit, where the solver notices and refuses it.
_SUIT_BASE[""] = 64
_BASES: tuple[int, ...] = tuple(_SUIT_BASE[suit] for suit in SUITS)
_RANK_BITS = 0x3FFE  # bits 1..13 of a suit
_CARD_AT: dict[int, Card] = {_SUIT_BASE[card.suit] + card.rank: card for card in FULL_DECK}
_ONE_DECK = DeckSpec(decks=1, jokers=0)
# Runs are found in a "line" bitmask with 32 bits per suit: positions 1..13 are the ranks,
# 14 is a high ace, and with wrapping 14..26 go round the suit a second time.
_LINE = 32
_LINE_ACES = sum(1 << (_LINE * i + 1) for i in range(len(SUITS)))
_FIRST_LAP = sum(_RANK_BITS << (_LINE * i) for i in range(len(SUITS)))
# Multiplying a rank's bit by this spreads it to the same rank of every suit.
_ALL_SUITS = sum(1 << base for base in _BASES)
# A gain is value * _GAIN_SCALE + cards: the search maximises the value of the cards it melds
# and, among equal values, the number of cards, so ties leave fewer deadwood cards.
_GAIN_SCALE = 64
_RUN, _SET, _LAYOFF = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Hold one way to arrange a hand: its melds, its deadwood and the deadwood count."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    count: int


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """Hold the defender's outcome: own melds, layoffs (card, knocker meld index), deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    deadwood: tuple[Card, ...]
    count: int


class _Piece(NamedTuple):
    """Describe a candidate: a run piece, a set, or cards laid off onto a knocker meld."""

    kind: int  # _RUN, _SET or _LAYOFF; also the tie-break order between kinds
    bits: tuple[int, ...]  # in meld order; for a layoff, in the order the cards are laid
    suit_base: int = 0  # runs: which suit
    first: int = 0  # runs: line positions of the ends (see _position_rank)
    last: int = 0
    target: int = -1  # layoffs: index of the knocker meld
    meld: Meld | None = None  # runs and sets: the meld, made once per table


# A candidate as the search sees it: (order, mask, gain, piece). Between equally good choices
# for the lowest card the lower order wins: longer candidates first, then runs before sets
# before layoffs, then the order they were found in (by card).
_Candidate = tuple[int, int, int, _Piece]
_by_order = itemgetter(0)


def _position_rank(position: int) -> int:
    """Return the rank at a line position: 1..13, then round again (14 is the ace)."""
    return (position - 1) % MAX_RUN + 1


def _candidate(piece: _Piece, values: Sequence[int]) -> _Candidate:
    mask = 0
    value = 0
    for bit in piece.bits:
        mask |= 1 << bit
        value += values[bit]
    return (piece.kind - 4 * len(piece.bits), mask, value * _GAIN_SCALE + len(piece.bits), piece)


class _Tables(NamedTuple):
    """Hold what one (rules, value) pair needs: card values and every meld of the deck."""

    rules: MeldRules
    values: tuple[int, ...]  # by card bit; 0 where no card is
    runs: tuple[dict[int, _Candidate], ...]  # runs of 3, 4, 5 by line start (a one-bit mask)
    sets: dict[int, tuple[_Candidate, ...]]  # the cards held of one rank -> their sets


@lru_cache(maxsize=32)
def _build_tables(rules: MeldRules, value: Value) -> _Tables:
    values = tuple(value(_CARD_AT[bit]) if bit in _CARD_AT else 0 for bit in range(65))
    positions = set(rules.run_positions())
    starts = sorted(positions)
    if rules.wrap:
        positions = set(range(1, 2 * MAX_RUN + 1))
        starts = list(range(1, MAX_RUN + 1))
    runs: tuple[dict[int, _Candidate], ...] = ({}, {}, {})
    for suit, base in enumerate(_BASES):
        for first in starts:
            for length in range(3, 6):
                last = first + length - 1
                if not all(p in positions for p in range(first, last + 1)):
                    break
                bits = tuple(base + _position_rank(p) for p in range(first, last + 1))
                meld = Meld("run", tuple(_CARD_AT[bit] for bit in bits))
                piece = _Piece(_RUN, bits, base, first, last, meld=meld)
                runs[length - 3][1 << (_LINE * suit + first)] = _candidate(piece, values)
    sets: dict[int, tuple[_Candidate, ...]] = {}
    for rank in range(1, MAX_RUN + 1):
        for held in (h for n in (3, 4) for h in combinations(_BASES, n)):
            pieces = [
                _Piece(_SET, bits, meld=Meld("set", tuple(_CARD_AT[bit] for bit in bits)))
                for size in range(min(len(held), rules.max_set), 2, -1)
                for bits in combinations([base + rank for base in held], size)
            ]
            sets[sum(1 << (base + rank) for base in held)] = tuple(
                _candidate(piece, values) for piece in pieces
            )
    return _Tables(rules, values, runs, sets)


# The last (rules, value, tables) used, in one slot that is read and replaced whole.
_recent: list[tuple[MeldRules | None, Value | None, _Tables | None]] = [(None, None, None)]


def _tables(rules: MeldRules, value: Value) -> _Tables:
    """Return the tables for the rules and values, made once per pair."""
    # The same two objects come back call after call; checking identity is cheaper than the
    # hashing the lru_cache does.
    last_rules, last_value, tables = _recent[0]
    if last_rules is rules and last_value is value and tables is not None:
        return tables
    tables = _build_tables(rules, value)
    _recent[0] = (rules, value, tables)
    return tables


def prepare(rules: MeldRules, value: Value) -> None:
    """Build the tables for these rules and values now, not on the first hand."""
    _tables(rules, value)


def _candidates(hand: int, tables: _Tables) -> list[_Candidate]:
    """Return every candidate meld the hand holds, in the order of its cards."""
    rules = tables.rules
    c = hand & _RANK_BITS
    s = (hand >> 16) & _RANK_BITS
    h = (hand >> 32) & _RANK_BITS
    d = (hand >> 48) & _RANK_BITS
    found: list[_Candidate] = []
    line = c | s << _LINE | h << (2 * _LINE) | d << (3 * _LINE)
    if rules.wrap:
        line |= line << MAX_RUN
    else:
        if rules.ace_high:
            line |= (line & _LINE_ACES) << MAX_RUN
        if not rules.ace_low:
            line &= ~_LINE_ACES
    starts = line & (line >> 1) & (line >> 2)
    if rules.wrap:
        starts &= _FIRST_LAP
    if starts:
        runs3, runs4, runs5 = tables.runs
        while starts:
            low = starts & -starts
            starts ^= low
            found.append(runs3[low])
            if line & (low << 3):
                found.append(runs4[low])
                if line & (low << 4):
                    found.append(runs5[low])
    threes = (c & s & (h | d)) | (h & d & (c | s))
    while threes:
        low = threes & -threes
        threes ^= low
        found.extend(tables.sets[hand & (low * _ALL_SUITS)])
    return found


def _by_low(candidates: Sequence[_Candidate]) -> dict[int, list[_Candidate]]:
    """Group candidates by their lowest card, each group in tie-break order."""
    by_low: dict[int, list[_Candidate]] = {}
    for candidate in sorted(candidates, key=_by_order):
        mask = candidate[1]
        by_low.setdefault(mask & -mask, []).append(candidate)
    return by_low


# What the search learns about a mask of cards left: the best gain, the candidate taken for
# the lowest card (None: it is deadwood) and the mask left after that choice.
_Step = tuple[int, _Piece | None, int]
_Memo = dict[int, _Step]


# The search is a module function taking its memo, not a closure: a closure that calls
# itself is a reference cycle, and each call would leave its memo for the garbage collector.
def _best(rem: int, by_low: dict[int, list[_Candidate]], memo: _Memo) -> int:
    """Return the highest gain the candidates reach inside the cards of rem, memoising it."""
    step = memo.get(rem)
    if step is not None:
        return step[0]
    key = rem
    low = rem & -rem
    while low not in by_low:
        # A card that starts no candidate left is deadwood in every packing.
        rem ^= low
        if not rem:
            memo[key] = (0, None, 0)
            return 0
        low = rem & -rem
    found = -1
    choice = None
    after = 0
    for _, mask, gain, piece in by_low[low]:
        if mask & rem == mask:
            left = rem ^ mask
            step = memo.get(left)
            total = gain + (step[0] if step is not None else _best(left, by_low, memo))
            if total > found:
                found, choice, after = total, piece, left
    left = rem ^ low
    step = memo.get(left)
    total = step[0] if step is not None else _best(left, by_low, memo)
    if total > found:
        found, choice, after = total, None, left
    memo[key] = (found, choice, after)
    return found


def _disjoint(candidates: Sequence[_Candidate]) -> list[_Piece] | None:
    """Return all the candidates when no two share a card (then taking all is best), else None."""
    union = 0
    for _, mask, _, _ in candidates:
        if union & mask:
            return None
        union |= mask
    return [candidate[3] for candidate in candidates]


def _union(by_low: dict[int, list[_Candidate]]) -> int:
    union = 0
    for candidates in by_low.values():
        for candidate in candidates:
            union |= candidate[1]
    return union


def _first_best(by_low: dict[int, list[_Candidate]]) -> list[_Piece]:
    """Return the first packing, in tie-break order, that reaches the best gain."""
    memo: _Memo = {0: (0, None, 0)}
    rem = _union(by_low)
    _best(rem, by_low, memo)
    chosen: list[_Piece] = []
    while rem:
        _, piece, rem = memo[rem]
        if piece is not None:
            chosen.append(piece)
    return chosen


def _all_best(by_low: dict[int, list[_Candidate]]) -> Iterator[list[_Piece]]:
    """Yield every packing, in tie-break order, that reaches the best melded value."""
    return _walk(_union(by_low), by_low, {0: (0, None, 0)})


def _walk(rem: int, by_low: dict[int, list[_Candidate]], memo: _Memo) -> Iterator[list[_Piece]]:
    if not rem:
        yield []
        return
    low = rem & -rem
    target = _best(rem, by_low, memo) // _GAIN_SCALE
    for _, mask, gain, piece in by_low.get(low, ()):
        fits = mask & rem == mask
        if fits and (gain + _best(rem ^ mask, by_low, memo)) // _GAIN_SCALE == target:
            for rest in _walk(rem ^ mask, by_low, memo):
                yield [piece, *rest]
    if _best(rem ^ low, by_low, memo) // _GAIN_SCALE == target:
        yield from _walk(rem ^ low, by_low, memo)


def _hand(cards: Sequence[Card], values: Sequence[int]) -> tuple[int, int]:
    """Return the hand's bitmask and its total value, refusing copies and jokers (CARD-2)."""
    mask = 0
    total = 0
    base = _SUIT_BASE
    for card in cards:
        bit = base[card.suit] + card.rank
        mask |= 1 << bit
        total += values[bit]
    if mask >> 64 or mask.bit_count() != len(cards):
        check_copies(cards, _ONE_DECK)
    return mask, total


def _card_table(base: int, first_rank: int, size: int) -> tuple[tuple[Card, ...], ...]:
    """Return, for every subset of `size` ranks from first_rank up, its cards in order."""
    return tuple(
        tuple(_CARD_AT[base + first_rank + i] for i in range(size) if (subset >> i) & 1)
        for subset in range(1 << size)
    )


# Cards of each suit by the set of ranks held: A-7 and 8-K looked up apart, so the tables
# stay small, are made once, and a call allocates nothing that outlives it.
_LOW_CARDS = tuple(_card_table(base, 1, 7) for base in _BASES)
_HIGH_CARDS = tuple(_card_table(base, 8, 6) for base in _BASES)


def _cards(mask: int) -> tuple[Card, ...]:
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


def _follows(a: _Piece, b: _Piece, rules: MeldRules) -> bool:
    if a.suit_base != b.suit_base:
        return False
    if rules.wrap:
        return a.last % MAX_RUN + 1 == _position_rank(b.first)
    return a.last + 1 == b.first


def _touching(runs: Sequence[_Piece], rules: MeldRules) -> tuple[_Piece, _Piece] | None:
    # A run never follows itself, not even all 13 cards of a suit round the corner.
    return next(((a, b) for a in runs for b in runs if a is not b and _follows(a, b, rules)), None)


def _melds(pieces: Sequence[_Piece], rules: MeldRules) -> tuple[Meld, ...]:
    """Return the melds of a packing, run pieces that touch merged back into one run."""
    pieces = list(pieces)
    runs = [piece for piece in pieces if piece.kind == _RUN]
    touching = len(runs) > 1 and _touching(runs, rules)
    while touching:
        a, b = touching
        merged = a._replace(bits=a.bits + b.bits, last=a.last + len(b.bits), meld=None)
        pieces = [piece for piece in pieces if piece is not a and piece is not b]
        pieces.append(merged)
        touching = _touching([piece for piece in pieces if piece.kind == _RUN], rules)
    pieces.sort(key=lambda piece: piece.bits[0])
    # A merged run takes check_meld's form, so that all 13 cards of a suit round the corner
    # are one meld whichever piece they were found from.
    return tuple(
        piece.meld or check_meld([_CARD_AT[bit] for bit in piece.bits], rules) for piece in pieces
    )


def _arrangement(
    hand: int, total: int, pieces: Sequence[_Piece], rules: MeldRules, values: Sequence[int]
) -> Arrangement:
    melded = 0
    for piece in pieces:
        for bit in piece.bits:
            melded |= 1 << bit
            total -= values[bit]
    return Arrangement(_melds(pieces, rules), _cards(hand & ~melded), total)


def _start(
    cards: Sequence[Card], rules: MeldRules, value: Value
) -> tuple[_Tables, int, int, list[_Candidate]]:
    """Return the tables, the hand's mask, its total value and the melds it holds."""
    tables = _tables(rules, value)
    hand, total = _hand(cards, tables.values)
    return tables, hand, total, _candidates(hand, tables)


def best_arrangement(cards: Sequence[Card], *, rules: MeldRules, value: Value) -> Arrangement:
    """Return an arrangement of the hand with the minimum deadwood count (GIN-DEADWOOD).

    Ties go to the arrangement with fewer deadwood cards, then to the first in a fixed order:
    the lowest card (clubs, spades, hearts, diamonds; ace to king) goes into a longer meld
    before a shorter one, a run before a set, and into a meld before the deadwood. The result
    is always min_arrangements(...)[0].
    """
    tables, hand, total, candidates = _start(cards, rules, value)
    if not candidates:
        # Most hands dealt hold no meld at all: nothing to search.
        return Arrangement((), _cards(hand), total)
    pieces = _disjoint(candidates)
    if pieces is None:
        pieces = _first_best(_by_low(candidates))
    return _arrangement(hand, total, pieces, rules, tables.values)


def min_arrangements(
    cards: Sequence[Card], *, rules: MeldRules, value: Value
) -> tuple[Arrangement, ...]:
    """Return every distinct arrangement (set of melds) that reaches the minimum deadwood.

    Fewer deadwood cards come first, then the tie-break order of best_arrangement.
    """
    tables, hand, total, candidates = _start(cards, rules, value)
    pieces = _disjoint(candidates)
    if pieces is not None:
        # No two candidates share a card, so taking them all is the one minimum.
        return (_arrangement(hand, total, pieces, rules, tables.values),)
    found: dict[frozenset[Meld], Arrangement] = {}
    for pieces in _all_best(_by_low(candidates)):
        arrangement = _arrangement(hand, total, pieces, rules, tables.values)
        found.setdefault(frozenset(arrangement.melds), arrangement)
    return tuple(sorted(found.values(), key=lambda arrangement: len(arrangement.deadwood)))


def _chain(hand: int, base: int, start: int, step: int, room: int, rules: MeldRules) -> list[int]:
    """Return the bits of the hand's cards that extend a run outward from a position."""
    positions = rules.run_positions()
    bits: list[int] = []
    position = start
    while len(bits) < room and (rules.wrap or position in positions):
        bit = base + _position_rank(position)
        if not (hand >> bit) & 1:
            break
        bits.append(bit)
        position += step
    return bits


def _layoff_candidates(
    hand: int, onto: Sequence[Meld], rules: MeldRules, values: Sequence[int]
) -> Iterator[_Candidate]:
    for index, meld in enumerate(onto):
        if meld.kind == "set":
            # One deck: a set of three misses one card, and a set of four takes nothing.
            if len(meld.cards) < rules.max_set:
                held = {card.suit for card in meld.cards}
                for suit in SUITS:
                    bit = _SUIT_BASE[suit] + meld.cards[0].rank
                    if suit not in held and (hand >> bit) & 1:
                        yield _candidate(_Piece(_LAYOFF, (bit,), target=index), values)
            continue
        # Positions of the run's ends: a high ace after the king is 14, as in _tables.
        first = meld.cards[0].rank
        last = first + len(meld.cards) - 1
        base = _SUIT_BASE[meld.cards[0].suit]
        for start, step in ((first - 1, -1), (last + 1, 1)):
            # The chains from one end all hold its next card, so the search takes one at most.
            chain = _chain(hand, base, start, step, MAX_RUN - len(meld.cards), rules)
            for length in range(1, len(chain) + 1):
                yield _candidate(_Piece(_LAYOFF, tuple(chain[:length]), target=index), values)


def best_layoff(
    cards: Sequence[Card], onto: Sequence[Meld], *, rules: MeldRules, value: Value
) -> LayoffResult:
    """Return the defender's best outcome: own melds and layoffs minimising deadwood (GIN-LAYOFF).

    Ties are broken as in best_arrangement, the defender's own melds before layoffs of the same
    number of cards.
    """
    onto = [check_meld(meld.cards, rules) for meld in onto]
    shown = [card for meld in onto for card in meld.cards]
    check_copies([*cards, *shown], _ONE_DECK)
    tables, hand, total, candidates = _start(cards, rules, value)
    candidates += _layoff_candidates(hand, onto, rules, tables.values)
    pieces = _first_best(_by_low(candidates))
    laid = sorted((piece for piece in pieces if piece.kind == _LAYOFF), key=lambda p: p.target)
    laid_mask = 0
    for piece in laid:
        for bit in piece.bits:
            laid_mask |= 1 << bit
            total -= tables.values[bit]
    own = [piece for piece in pieces if piece.kind != _LAYOFF]
    arrangement = _arrangement(hand & ~laid_mask, total, own, rules, tables.values)
    return LayoffResult(
        melds=arrangement.melds,
        layoffs=tuple((_CARD_AT[bit], piece.target) for piece in laid for bit in piece.bits),
        deadwood=arrangement.deadwood,
        count=arrangement.count,
    )
