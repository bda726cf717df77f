"""Arrangement solver: one exact search answers every melding question of every variant.

The questions: the least value a hand leaves unmelded (GIN-DEADWOOD, and the hand values of
R40-END, RAM-SCORE, KR-SCORE) and every arrangement reaching it; the best layoffs onto table
melds (GIN-LAYOFF, R40-ADD, RAM-ADD); whether a hand can go out (R40-HAND, RAM-OUT,
RAM-OPT-NODISCARDWIN, KR-OUT, GIN-BIGGIN); the most valuable opening (RAM-OPEN, R40-OPEN).

The search sees a hand as a *state*, one int: the number of jokers left in its low 4 bits,
then a 2-bit count (0, 1 or 2 copies: two decks) for each card in display order (clubs ace
to king, then spades, hearts, diamonds), then one bit for each table meld that may still
take layoffs (its *token*). A *candidate* is a meld the hand can form, or what it can lay
onto one table meld: the natural cards it takes (one copy each, as a set never holds two
identical cards and a run never a rank twice), the jokers it takes, and its *gain*. The
search takes the lowest card still undecided and either leaves one copy of it out or puts it
in a candidate whose lowest card it is and that fits what is left; table melds come after
every card, where jokers alone may still be laid on them. Results are memoised on the state,
local to one question. That recursion is the whole search for every variant; only the
candidates differ:

- melds of natural cards come from tables made once per rules: each run of 3 to 5 cards (a
  longer run splits into such pieces with the same deadwood, and pieces that touch are merged
  again for display), each set; they are found with bit tricks on a mask of the cards held.
  A Gin hand (one deck, no jokers) needs nothing else, which keeps it fast;
- melds with jokers are listed per hand: every group of naturals of one rank, or of one suit
  close enough for the jokers to bridge, with every number of jokers the rules allow
  (MeldRules: max_jokers, jokers_within_naturals, adjacent_jokers, fixed_groups, the ace and
  wrap rules), at any length. Only the naturals and the number of jokers matter to the
  search, so each such pair keeps one placement of its jokers: for openings the most
  valuable, otherwise the one reaching highest;
- layoffs are, for each table meld, every mix of cards and jokers its ends (runs) or its
  missing suits (sets) can take, holding the meld's token so that each meld is extended once.

A gain is value * 64 + cards: the search maximises the value melded (card values, or the
VALUE of an opening) and, among equal values, the cards melded. Jokers left out are deadwood.
Going out forbids leaving cards out (the *strict* search), so whole branches end at once.
Questions about cards kept back (an opening keeps one to discard) or discarded (going out)
ask the same memo about the hand without those cards, once for each choice of them.

The joker options are read as check_meld reads them (scoring.melds): fixed_groups asks a
set's suits to be a stretch of the order C S H D without gaps (S H D too), its jokers
standing for the missing suits of the stretch, the set laid in that order; adjacent_jokers=False
forbids jokers on neighbouring ranks of a run and more than one joker in a set, except under
fixed_groups, where jokers on suits that are not neighbours in the order stand apart;
max_jokers and jokers_within_naturals count table jokers too when cards are added.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations, pairwise
from operator import itemgetter
from typing import NamedTuple

from scoring.cards import (
    FULL_DECK,
    JOKER,
    RANKS,
    SUITS,
    Card,
    DeckSpec,
    check_copies,
    sort_cards,
)
from scoring.errors import Violation
from scoring.errors import refusal as _refuse
from scoring.melds import MAX_RUN, MIN_MELD, Meld, MeldRules, check_meld

Value = Callable[[Card], int]
OpeningValue = Callable[[Meld], int]

# The default deck: Gin's (GIN-SETUP). Variants with two decks or jokers pass their own.
ONE_DECK = DeckSpec(decks=1, jokers=0)

# Card bits, used for the tables and bit tricks: card (rank r, suit s) is bit 16*s + r, so
# the bits of a suit are its ranks 1..13 and runs are stretches of adjacent bits.
_SUIT_BASE: dict[str, int] = {suit: 16 * i for i, suit in enumerate(SUITS)}
_SUIT_BASE[""] = 64  # a joker (rank 0) lands on bit 64, outside every suit
_BASES: tuple[int, ...] = tuple(_SUIT_BASE[suit] for suit in SUITS)
_RANK_BITS = 0x3FFE  # bits 1..13 of a suit
_NATURAL_BITS = (1 << 64) - 1
_CARD_AT: dict[int, Card] = {_SUIT_BASE[card.suit] + card.rank: card for card in FULL_DECK}
# Runs are found in a "line" bitmask with 32 bits per suit: positions 1..13 are the ranks,
# 14 is a high ace, and with wrapping 14..26 go round the suit a second time.
_LINE = 32
_LINE_ACES = sum(1 << (_LINE * i + 1) for i in range(len(SUITS)))
_FIRST_LAP = sum(_RANK_BITS << (_LINE * i) for i in range(len(SUITS)))
# Multiplying a rank's bit by this spreads it to the same rank of every suit.
_ALL_SUITS = sum(1 << base for base in _BASES)

# The search state (see the module docstring). A card's *unit* is 1 in its count field.
_JOKERS = 0xF
_UNIT: tuple[int, ...] = (
    *(
        1 << (4 + 2 * (13 * (bit // 16) + bit % 16 - 1)) if bit in _CARD_AT else 0
        for bit in range(64)
    ),
    1,  # bit 64, the joker: its count is the low bits
)
_FIRST_TOKEN = 1 << (4 + 2 * len(FULL_DECK))
_MAX_TABLE_MELDS = 1024
# The low bit of every count field and token: where a state holds something.
_PRESENT = sum(1 << (4 + 2 * i) for i in range(len(FULL_DECK) + _MAX_TABLE_MELDS))
# The gain of a branch that leaves a card out where none may be (going out).
_NEVER = -(1 << 40)

# The most states one search may memoise. The largest hands a game allows (GameRules
# .most_in_hand) need at most a few thousand; a hand far past them could need millions
# (jokers and repeated cards multiply the packings), so the search refuses it instead of
# holding a worker for seconds.
STATE_BUDGET = 50_000

# A gain is value * _GAIN_SCALE + cards: see the module docstring.
_GAIN_SCALE = 64
_RUN, _SET, _LAYOFF = 0, 1, 2
_KINDS = {_RUN: "run", _SET: "set"}
DISCARDS = ("required", "optional", "none")


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Hold one way to arrange a hand: its melds, its deadwood and the deadwood count."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    count: int


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """Hold the defender's outcome: own melds, layoffs (card, table meld index), deadwood.

    A joker laid off shows as JOKER in ``layoffs``; ``grown`` holds every table meld after the
    layoffs, each joker with the card it stands for (Meld.represents).
    """

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    deadwood: tuple[Card, ...]
    count: int
    grown: tuple[Meld, ...] = ()


@dataclass(frozen=True, slots=True)
class Opening:
    """Hold the most valuable opening of a hand: its melds, their VALUE, the cards laid and kept."""

    melds: tuple[Meld, ...]
    value: int
    cards: tuple[Card, ...]
    kept: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Closing:
    """Describe how a variant goes out: the final discard, the opening, and the rules cited.

    ``discard`` is "required" (a last card is discarded: R40-HAND, RAM-OUT), "optional" (or
    the last card is melded too: RAM-OPT-NODISCARDWIN) or "none" (every card is melded:
    KR-OUT, GIN-BIGGIN). ``rule`` is cited when the cards cannot all be melded,
    ``opening_rule`` when a player who had not opened falls short of ``opening_minimum``
    (RAM-OPEN, R40-OPEN), and ``joker_discard_rule``, when set, forbids a joker as the last
    discard (R40-JOKER-DISCARD, RAM-OPT-FIXEDJOKER).
    """

    discard: str
    rule: str
    opening_minimum: int = 0
    opening_rule: str = ""
    joker_discard_rule: str | None = None

    def __post_init__(self) -> None:
        if self.discard not in DISCARDS:
            raise ValueError(f"discard must be one of {DISCARDS}, not {self.discard!r}")


@dataclass(frozen=True, slots=True)
class GoOut:
    """Hold how a hand goes out (melds, cards added to table melds, the discard), or why not.

    ``discards`` lists every discard that goes out (None: going out without one); ``value``
    is the VALUE of the melds laid when the player had not opened (the search then takes the
    most valuable way), else 0. ``violation`` says why the hand cannot go out.
    """

    melds: tuple[Meld, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    grown: tuple[Meld, ...] = ()
    discard: Card | None = None
    value: int = 0
    discards: tuple[Card | None, ...] = ()
    violation: Violation | None = None

    @property
    def possible(self) -> bool:
        """Tell whether the hand goes out."""
        return self.violation is None


class _Piece(NamedTuple):
    """Describe a candidate: a run, a set, or cards laid off onto a table meld."""

    kind: int  # _RUN, _SET or _LAYOFF; also the tie-break order between kinds
    bits: tuple[int, ...]  # natural cards, in meld order; for a layoff, in the order laid
    suit_base: int = 0  # runs: which suit
    first: int = 0  # runs: line positions of the ends (see _position_rank)
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
_Candidate = tuple[int, int, int, int, _Piece]
_by_order = itemgetter(0)


def _position_rank(position: int) -> int:
    """Return the rank at a line position: 1..13, then round again (14 is the ace)."""
    return (position - 1) % MAX_RUN + 1


def _unit(card: Card) -> int:
    """Count every card as 1: the searches that only ask whether cards can be melded."""
    return 1


def _opening_value(meld: Meld) -> int:
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


def _candidate(piece: _Piece, gain: int, token: int = 0) -> _Candidate:
    mask = token
    for bit in piece.bits:
        mask += _UNIT[bit]
    cards = len(piece.bits) + piece.jokers
    return (piece.kind - 4 * cards, mask, mask + piece.jokers, gain, piece)


class _Tables(NamedTuple):
    """Hold what one (rules, values) pair needs: card values and every natural meld."""

    rules: MeldRules
    values: tuple[int, ...]  # by card bit; 0 for the joker, whose value is asked per hand
    runs: tuple[dict[int, _Candidate], ...]  # runs by length from 3, by line start (one bit)
    sets: dict[int, tuple[_Candidate, ...]]  # the cards held of one rank -> their sets
    opening: OpeningValue | None  # gains are VALUE for openings when set, else card values


def _meld_gain(piece: _Piece, tables: _Tables, joker_value: int) -> int:
    cards = len(piece.bits) + piece.jokers
    if tables.opening is not None:
        return tables.opening(_piece_meld(piece, tables.rules)) * _GAIN_SCALE + cards
    value = piece.jokers * joker_value
    for bit in piece.bits:
        value += tables.values[bit]
    return value * _GAIN_SCALE + cards


@lru_cache(maxsize=32)
def _build_tables(rules: MeldRules, value: Value, opening: OpeningValue | None) -> _Tables:
    values = tuple(value(_CARD_AT[bit]) if bit in _CARD_AT else 0 for bit in range(65))
    tables = _Tables(rules, values, (), {}, opening)
    positions = set(rules.run_positions())
    starts = sorted(positions)
    if rules.wrap:
        positions = set(range(1, 2 * MAX_RUN + 1))
        starts = list(range(1, MAX_RUN + 1))
    # An opening values an ace by its neighbours (a K-A-2 ace is high), so openings keep
    # runs whole rather than split into pieces.
    longest = MAX_RUN if opening is not None else 5
    runs: tuple[dict[int, _Candidate], ...] = tuple({} for _ in range(3, longest + 1))
    for suit, base in enumerate(_BASES):
        for first in starts:
            for length in range(3, longest + 1):
                last = first + length - 1
                if not all(p in positions for p in range(first, last + 1)):
                    break
                bits = tuple(base + _position_rank(p) for p in range(first, last + 1))
                meld = Meld("run", tuple(_CARD_AT[bit] for bit in bits))
                piece = _Piece(_RUN, bits, base, first, last, meld=meld)
                runs[length - 3][1 << (_LINE * suit + first)] = _candidate(
                    piece, _meld_gain(piece, tables, 0)
                )
    sets: dict[int, tuple[_Candidate, ...]] = {}
    for rank in RANKS:
        for held in (h for n in (3, 4) for h in combinations(_BASES, n)):
            pieces = [
                _Piece(_SET, bits, meld=Meld("set", tuple(_CARD_AT[bit] for bit in bits)))
                for size in range(min(len(held), rules.max_set), 2, -1)
                for bits in combinations([base + rank for base in held], size)
                # RAM-OPT-FIXEDGROUPS: the suits of a set follow C S H D without gaps.
                if not rules.fixed_groups or bits[-1] - bits[0] == 16 * (size - 1)
            ]
            sets[sum(1 << (base + rank) for base in held)] = tuple(
                _candidate(piece, _meld_gain(piece, tables, 0)) for piece in pieces
            )
    return tables._replace(runs=runs, sets=sets)


# The last (rules, value, tables) used, in one slot that is read and replaced whole.
_recent: list[tuple[MeldRules | None, Value | None, _Tables | None]] = [(None, None, None)]


def _tables(rules: MeldRules, value: Value) -> _Tables:
    """Return the tables for the rules and values, made once per pair."""
    # The same two objects come back call after call; checking identity is cheaper than the
    # hashing the lru_cache does.
    last_rules, last_value, tables = _recent[0]
    if last_rules is rules and last_value is value and tables is not None:
        return tables
    tables = _build_tables(rules, value, None)
    _recent[0] = (rules, value, tables)
    return tables


def prepare(rules: MeldRules, value: Value) -> None:
    """Build the tables for these rules and values now, not on the first hand."""
    _tables(rules, value)


def _candidates(hand: int, tables: _Tables) -> list[_Candidate]:
    """Return every meld of natural cards the hand holds, in the order of its cards."""
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
        found.extend(tables.sets[hand & (low * _ALL_SUITS)])
    return found


def _spans(line: Sequence[int], start: int, most: int, adjacent: bool) -> Iterator[tuple[int, ...]]:
    """Yield the groups of line positions from line[start] up that most jokers can bridge."""
    first = line[start]
    stack = [((first,), start, 0)]
    while stack:
        positions, last, gaps = stack.pop()
        yield positions
        for k in range(last + 1, len(line)):
            gap = line[k] - positions[-1] - 1
            # Positions only grow, so once one is out of reach every later one is too.
            if line[k] - first >= MAX_RUN or gaps + gap > most or (not adjacent and gap > 1):
                break
            stack.append(((*positions, line[k]), k, gaps + gap))


def _run_bounds(rules: MeldRules) -> tuple[int, int]:
    """Return the lowest and highest line positions a run may reach (wrapping: unbounded)."""
    if rules.wrap:
        return -2 * MAX_RUN, 3 * MAX_RUN
    return (1 if rules.ace_low else 2), (14 if rules.ace_high else 13)


def _joker_runs(mask: int, most: int, rules: MeldRules, every: bool) -> Iterator[_Piece]:
    """Yield the runs with 1 to most jokers the natural cards of the mask allow.

    Each group of naturals and number of jokers comes once, its jokers reaching as high as
    they can; with ``every``, once for each placement of the jokers at the ends.
    """
    bottom = _run_bounds(rules)[0]
    for base in _BASES:
        ranks = [rank for rank in RANKS if mask >> (base + rank) & 1]
        if not ranks:
            continue
        if rules.wrap:
            line = ranks + [rank + MAX_RUN for rank in ranks]
        else:
            line = [rank for rank in ranks if rank >= bottom]
            if rules.ace_high and ranks[0] == 1:
                line.append(14)
        for start, first in enumerate(line):
            if rules.wrap and first > MAX_RUN:
                # The second lap only continues runs started on the first.
                break
            for positions in _spans(line, start, most, rules.adjacent_jokers):
                yield from _run_placements(positions, base, most, rules, every)


def _run_placements(
    positions: tuple[int, ...], base: int, most: int, rules: MeldRules, every: bool
) -> Iterator[_Piece]:
    naturals = len(positions)
    inner = positions[-1] - positions[0] + 1 - naturals
    bottom, top = _run_bounds(rules)
    room_low, room_high = positions[0] - bottom, top - positions[-1]
    if not rules.adjacent_jokers:
        # A joker at an end touches the natural beside it; a second one would touch it.
        room_low, room_high = min(room_low, 1), min(room_high, 1)
    most = min(most, MAX_RUN - naturals)
    if rules.jokers_within_naturals:
        most = min(most, naturals)
    bits = tuple(base + _position_rank(p) for p in positions)
    for jokers in range(max(1, inner, MIN_MELD - naturals), most + 1):
        extra = jokers - inner
        if extra > room_low + room_high:
            break
        high = min(extra, room_high)
        lows = range(extra - high, min(extra, room_low) + 1) if every else (extra - high,)
        for low in lows:
            first, last = positions[0] - low, positions[-1] + extra - low
            places = tuple(base + _position_rank(p) for p in range(first, last + 1))
            yield _Piece(_RUN, bits, base, first, last, jokers=jokers, places=places)


def _joker_sets(mask: int, most: int, rules: MeldRules) -> Iterator[_Piece]:
    """Yield the sets with 1 to most jokers the natural cards of the mask allow."""
    if not rules.adjacent_jokers and not rules.fixed_groups:
        # RAM-OPT-FIXEDJOKER: two jokers in one set count as side by side (unless the suit
        # order of fixed groups places them apart: _set_piece checks that).
        most = min(most, 1)
    limit = min(rules.max_set, len(SUITS))
    for rank in RANKS:
        held = [i for i, base in enumerate(_BASES) if mask >> (base + rank) & 1]
        for size in range(1, len(held) + 1):
            for suits in combinations(held, size):
                for jokers in range(max(1, MIN_MELD - size), most + 1):
                    total = size + jokers
                    if total > limit or (rules.jokers_within_naturals and jokers > size):
                        break
                    yield from _set_piece(suits, (), jokers, rank, total, rules, -1)


def _set_piece(
    suits: Sequence[int],
    shown: Sequence[int],
    jokers: int,
    rank: int,
    total: int,
    rules: MeldRules,
    target: int,
    shown_jokers: Sequence[int] = (),
) -> Iterator[_Piece]:
    """Yield the set (or the layoff onto a set showing ``shown``) adding suits and jokers.

    ``shown_jokers`` are the suits the table set's jokers stand for. As check_meld reads
    RAM-OPT-FIXEDGROUPS, the suits are a stretch of C S H D without gaps (not necessarily
    from clubs), the jokers standing for the missing ones there: the first stretch that holds
    every suit taken and, with adjacent_jokers off, puts no two jokers on neighbouring suits.
    """
    taken = {*suits, *shown}
    if rules.fixed_groups:
        for low in range(max(0, max(taken) - total + 1), min(min(taken), len(SUITS) - total) + 1):
            missing = [i for i in range(low, low + total) if i not in taken]
            if rules.adjacent_jokers or not _neighbours([*missing, *shown_jokers]):
                break
        else:
            return
    else:
        missing = [i for i in range(len(SUITS)) if i not in taken][:jokers]
    bits = tuple(_BASES[i] + rank for i in suits)
    places = tuple(_BASES[i] + rank for i in sorted((*suits, *missing)))
    kind = _SET if target < 0 else _LAYOFF
    yield _Piece(kind, bits, target=target, jokers=jokers, places=places)


def _neighbours(suits: Sequence[int]) -> bool:
    """Tell whether two of the suit places (0..3 for C S H D) are side by side."""
    return any(b - a == 1 for a, b in pairwise(sorted(suits)))


def _joker_candidates(
    mask: int, jokers: int, tables: _Tables, joker_value: int
) -> list[_Candidate]:
    """Return the melds with jokers the hand holds, one per naturals and number of jokers."""
    rules = tables.rules
    most = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    if most <= 0:
        return []
    every = tables.opening is not None
    pieces = chain(_joker_runs(mask, most, rules, every), _joker_sets(mask, most, rules))
    return _distinct(pieces, tables, joker_value, lambda piece: 0)


def _distinct(
    pieces: Iterator[_Piece], tables: _Tables, joker_value: int, token: Callable[[_Piece], int]
) -> list[_Candidate]:
    """Return a candidate per (naturals, jokers) taken: the highest gain, then reaching highest.

    A high ace reaches highest, so A♣ and four jokers show as 10 J Q K A, not A 2 3 4 5.
    """
    kept: dict[int, _Candidate] = {}
    for piece in pieces:
        candidate = _candidate(piece, _meld_gain(piece, tables, joker_value), token(piece))
        # The take (cards, jokers, token) names what the candidate uses from the hand.
        other = kept.get(candidate[2])
        if other is None or (candidate[3], piece.last) > (other[3], other[4].last):
            kept[candidate[2]] = candidate
    return list(kept.values())


class _Shape(NamedTuple):
    """Describe a table meld as layoffs see it."""

    meld: Meld  # in meld order, jokers with what they stand for
    slots: tuple[int, ...]  # the card bit each position stands for
    jokers: tuple[bool, ...]  # which positions hold a joker
    first: int  # runs: the line positions of the ends
    last: int


def _shape(meld: Meld, rules: MeldRules) -> _Shape:
    """Return a table meld's shape, refusing a meld that is not legal (jokers as declared)."""
    if not any(card.is_joker for card in meld.cards):
        checked = check_meld(meld.cards, rules)
        shown = checked.cards
        flags = (False,) * len(shown)
    else:
        represents = meld.represents
        if (
            len(represents) != len(meld.cards)
            or any(card.is_joker for card in represents)
            or any(c != r for c, r in zip(meld.cards, represents, strict=True) if not c.is_joker)
        ):
            # Melds from check_meld always say what their jokers stand for: this is a caller's
            # mistake, not a player's.
            raise ValueError(f"{meld}: a table meld's jokers need what they stand for")
        # The shape is that of the cards the jokers stand for (JOKER-1).
        natural = check_meld(represents, rules)
        shown = natural.cards
        stand_ins = {r for c, r in zip(meld.cards, represents, strict=True) if c.is_joker}
        flags = tuple(card in stand_ins for card in shown)
        cards = tuple(JOKER if joker else card for card, joker in zip(shown, flags, strict=True))
        checked = Meld(natural.kind, cards, shown)
    slots = tuple(_SUIT_BASE[card.suit] + card.rank for card in shown)
    first = shown[0].rank if checked.kind == "run" else 0
    return _Shape(checked, slots, flags, first, first + len(shown) - 1)


def _chains(
    mask: int,
    base: int,
    start: int,
    step: int,
    stop: int,
    most: int,
    after_joker: bool,
    rules: MeldRules,
) -> list[tuple[tuple[int, bool], ...]]:
    """Return every way to extend a run outward from a position: (card bit, joker?) each."""
    chains: list[tuple[tuple[int, bool], ...]] = [()]
    frontier = [((), 0, after_joker)]
    position = start
    while frontier and (position - stop) * step <= 0:
        bit = base + _position_rank(position)
        held = mask >> bit & 1
        grown = []
        for laid, used, joker_before in frontier:
            if held:
                grown.append(((*laid, (bit, False)), used, False))
            if used < most and (rules.adjacent_jokers or not joker_before):
                grown.append(((*laid, (bit, True)), used + 1, True))
        chains.extend(laid for laid, _, _ in grown)
        frontier = grown
        position += step
    return chains


def _layoffs_onto(
    mask: int, jokers: int, shape: _Shape, index: int, rules: MeldRules
) -> Iterator[_Piece]:
    """Yield every legal mix of the hand's cards and jokers that one table meld can take."""
    shown_jokers = sum(shape.jokers)
    naturals = len(shape.slots) - shown_jokers
    most = jokers
    if rules.max_jokers is not None:
        most = max(0, min(most, rules.max_jokers - shown_jokers))
    if shape.meld.kind == "set":
        if not rules.adjacent_jokers and not rules.fixed_groups:
            # RAM-OPT-FIXEDJOKER: two jokers in a set count as side by side (see _set_piece).
            most = max(0, min(most, 1 - shown_jokers))
        rank = _CARD_AT[shape.slots[0]].rank
        shown = [slot // 16 for slot in shape.slots]
        joker_suits = [
            slot // 16 for slot, joker in zip(shape.slots, shape.jokers, strict=True) if joker
        ]
        limit = min(rules.max_set, len(SUITS))
        free = [i for i in range(len(SUITS)) if i not in shown and mask >> (_BASES[i] + rank) & 1]
        for size in range(len(free) + 1):
            for suits in combinations(free, size):
                for added in range(0 if size else 1, most + 1):
                    total = len(shown) + size + added
                    over = rules.jokers_within_naturals and shown_jokers + added > naturals + size
                    if total > limit or over:
                        break
                    yield from _set_piece(
                        suits, shown, added, rank, total, rules, index, joker_suits
                    )
        return
    base = shape.slots[0] & ~15
    room = MAX_RUN - len(shape.slots)
    bottom, top = _run_bounds(rules)
    first, last = shape.first, shape.last
    downs = _chains(
        mask, base, first - 1, -1, max(bottom, first - room), most, shape.jokers[0], rules
    )
    ups = _chains(mask, base, last + 1, 1, min(top, last + room), most, shape.jokers[-1], rules)
    for down in downs:
        for up in ups:
            laid = down + up
            if not laid or len(laid) > room:
                continue
            added = sum(joker for _, joker in laid)
            if added > most:
                continue
            if rules.jokers_within_naturals and shown_jokers + added > naturals + len(laid) - added:
                continue
            yield _Piece(
                _LAYOFF,
                tuple(bit for bit, joker in laid if not joker),
                base,
                first - len(down),
                last + len(up),
                target=index,
                jokers=added,
                places=tuple(bit for bit, _ in laid),
            )


def _token(index: int) -> int:
    return _FIRST_TOKEN << (2 * index)


def _tokens(melds: int) -> int:
    """Return the tokens of that many table melds: each may still take a layoff."""
    return sum(_token(index) for index in range(melds))


def _layoff_candidates(
    mask: int, jokers: int, shapes: Sequence[_Shape], tables: _Tables, joker_value: int
) -> list[_Candidate]:
    """Return the layoffs the hand can make, one candidate per table meld and cards taken."""
    pieces = chain.from_iterable(
        _layoffs_onto(mask, jokers, shape, index, tables.rules)
        for index, shape in enumerate(shapes)
    )
    return _distinct(pieces, tables, joker_value, lambda piece: _token(piece.target))


class _Search(NamedTuple):
    """Hold a hand as the search needs it."""

    tables: _Tables
    cards: Sequence[Card]
    mask: int  # natural cards held at least once, by card bit
    total: int  # value of the natural cards
    state: int  # card counts and jokers (0 for a simple hand: see _state)
    jokers: int
    joker_value: int
    simple: bool  # one copy of each card and no jokers: Gin's hands
    candidates: list[_Candidate]


def _held(cards: Sequence[Card], values: Sequence[int]) -> tuple[int, int]:
    """Return the bits of the cards held (each card once, jokers on bit 64) and their value."""
    mask = 0
    total = 0
    base = _SUIT_BASE
    for card in cards:
        bit = base[card.suit] + card.rank
        mask |= 1 << bit
        total += values[bit]
    return mask, total


def _start(cards: Sequence[Card], tables: _Tables, value: Value, deck: DeckSpec) -> _Search:
    """Return the hand read for the search, refusing more copies than the deck holds (CARD-2)."""
    mask, total = _held(cards, tables.values)
    if not mask >> 64 and mask.bit_count() == len(cards):
        return _Search(tables, cards, mask, total, 0, 0, 0, True, _candidates(mask, tables))
    check_copies(cards, deck)
    state = 0
    for card in cards:
        state += _UNIT[_SUIT_BASE[card.suit] + card.rank]
    jokers = state & _JOKERS
    mask &= _NATURAL_BITS
    joker_value = value(JOKER) if jokers else 0
    candidates = _candidates(mask, tables)
    if jokers:
        candidates += _joker_candidates(mask, jokers, tables, joker_value)
    return _Search(tables, cards, mask, total, state, jokers, joker_value, False, candidates)


def _state(search: _Search) -> int:
    """Return the whole hand as a search state."""
    if not search.simple:
        return search.state
    state = 0
    mask = search.mask
    while mask:
        low = mask & -mask
        mask ^= low
        state += _UNIT[low.bit_length() - 1]
    return state


def _within_candidates(search: _Search, candidates: Sequence[_Candidate], tables: int = 0) -> int:
    """Return the state of what some candidate takes: the other cards are out of every meld.

    ``tables`` holds the tokens of the table melds, if any.
    """
    union = 0
    for candidate in candidates:
        union |= candidate[1]
    if search.simple:
        return union
    return (search.state | tables) & (union | union << 1) | search.jokers


# What the search learns about a state: the best gain, the candidate taken for the lowest
# card (None: one copy left out) and the state left after that choice.
_Step = tuple[int, _Piece | None, int]
_Memo = dict[int, _Step]
_Groups = tuple[dict[int, list[_Candidate]], ...]


def _groups(candidates: Sequence[_Candidate], jokers: int) -> _Groups:
    """Group candidates by lowest card, in tie-break order, for each number of jokers left."""
    by_low: dict[int, list[_Candidate]] = {}
    for candidate in sorted(candidates, key=_by_order):
        mask = candidate[1]
        by_low.setdefault(mask & -mask, []).append(candidate)
    if not jokers:
        return (by_low,)
    # One grouping per number of jokers left, holding only what that many jokers allow, so
    # the search checks the cards of a candidate and never its jokers.
    groups = []
    for left in range(jokers + 1):
        group = {}
        for low, found in by_low.items():
            fit = [candidate for candidate in found if candidate[2] - candidate[1] <= left]
            if fit:
                group[low] = fit
        groups.append(group)
    return tuple(groups)


def _memo(jokers: int, loose: bool) -> _Memo:
    """Return a memo knowing the states with no card left: only jokers, which are left out."""
    if not jokers:
        return {0: (0, None, 0)}
    return {left: (0 if loose or not left else _NEVER, None, left) for left in range(jokers + 1)}


# The search is a module function taking its memo, not a closure: a closure that calls
# itself is a reference cycle, and each call would leave its memo for the garbage collector.
def _best(rem: int, groups: _Groups, memo: _Memo, loose: bool) -> int:
    """Return the highest gain the candidates reach inside the state rem, memoising it.

    Loose, a card may be left out; strict (going out), every card is melded or laid off.
    """
    step = memo.get(rem)
    if step is not None:
        return step[0]
    if len(memo) > STATE_BUDGET:
        raise _refuse(
            "LIMITS",
            "too_complex",
            "These cards are too many to work out; no hand in play holds this many.",
            budget=STATE_BUDGET,
        )
    key = rem
    by_low = groups[rem & _JOKERS]
    present = (rem | rem >> 1) & _PRESENT
    low = present & -present
    while low not in by_low:
        # A card that starts no candidate left is out of every packing, and so is a table
        # meld with no layoff left.
        if not loose and low < _FIRST_TOKEN:
            memo[key] = (_NEVER, None, 0)
            return _NEVER
        rem &= ~(low | low << 1)
        present ^= low
        if not present:
            found = memo[rem][0]
            memo[key] = (found, None, rem)
            return found
        low = present & -present
    found = _NEVER
    choice = None
    after = 0
    for _, mask, take, gain, piece in by_low[low]:
        if mask & present == mask:
            left = rem - take
            step = memo.get(left)
            total = gain + (step[0] if step is not None else _best(left, groups, memo, loose))
            if total > found:
                found, choice, after = total, piece, left
    if loose or low >= _FIRST_TOKEN:
        left = rem - low
        step = memo.get(left)
        total = step[0] if step is not None else _best(left, groups, memo, loose)
        if total > found:
            found, choice, after = total, None, left
    memo[key] = (found, choice, after)
    return found


def _path(rem: int, groups: _Groups, memo: _Memo, loose: bool) -> tuple[int, list[_Piece]]:
    """Return the best gain from rem and the first packing, in tie-break order, reaching it."""
    found = _best(rem, groups, memo, loose)
    chosen: list[_Piece] = []
    if found < 0:
        return found, chosen
    while rem > _JOKERS:
        _, piece, rem = memo[rem]
        if piece is not None:
            chosen.append(piece)
    return found, chosen


def _walk(rem: int, groups: _Groups, memo: _Memo) -> Iterator[list[_Piece]]:
    """Yield every packing, in tie-break order, that reaches the best melded value."""
    if rem <= _JOKERS:
        yield []
        return
    present = (rem | rem >> 1) & _PRESENT
    low = present & -present
    target = _best(rem, groups, memo, True) // _GAIN_SCALE
    for _, mask, take, gain, piece in groups[rem & _JOKERS].get(low, ()):
        fits = mask & present == mask
        if fits and (gain + _best(rem - take, groups, memo, True)) // _GAIN_SCALE == target:
            for rest in _walk(rem - take, groups, memo):
                yield [piece, *rest]
    if _best(rem - low, groups, memo, True) // _GAIN_SCALE == target:
        yield from _walk(rem - low, groups, memo)


def _disjoint(candidates: Sequence[_Candidate]) -> list[_Piece] | None:
    """Return all the candidates when no two share a card (then taking all is best), else None."""
    union = 0
    for _, mask, _, _, _ in candidates:
        if union & mask:
            return None
        union |= mask
    return [candidate[4] for candidate in candidates]


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


def _piece_meld(piece: _Piece, rules: MeldRules) -> Meld:
    """Return the meld of a piece, jokers with the cards they stand for."""
    if piece.meld is not None:
        return piece.meld
    if not piece.jokers:
        # A merged run takes check_meld's form, so that all 13 cards of a suit round the
        # corner are one meld whichever piece they were found from.
        return check_meld([_CARD_AT[bit] for bit in piece.bits], rules)
    naturals = set(piece.bits)
    represents = tuple(_CARD_AT[bit] for bit in piece.places)
    cards = tuple(
        card if bit in naturals else JOKER
        for bit, card in zip(piece.places, represents, strict=True)
    )
    return Meld(_KINDS[piece.kind], cards, represents)


def _follows(a: _Piece, b: _Piece, rules: MeldRules) -> bool:
    if a.suit_base != b.suit_base:
        return False
    if rules.wrap:
        return a.last % MAX_RUN + 1 == _position_rank(b.first)
    return a.last + 1 == b.first


def _touching(pieces: Sequence[_Piece], rules: MeldRules) -> tuple[int, int] | None:
    """Return the positions of two natural run pieces of which the second follows the first."""
    runs = [i for i, piece in enumerate(pieces) if piece.kind == _RUN and not piece.jokers]
    if len(runs) < 2:
        return None
    # A run never follows itself, not even all 13 cards of a suit round the corner; with two
    # decks the same piece may be taken twice, so pieces are told apart by position.
    return next(
        ((i, j) for i in runs for j in runs if i != j and _follows(pieces[i], pieces[j], rules)),
        None,
    )


def _melds(pieces: Sequence[_Piece], rules: MeldRules, merge: bool = True) -> tuple[Meld, ...]:
    """Return the melds of a packing, natural run pieces that touch merged back into one run."""
    pieces = [piece for piece in pieces if piece.kind != _LAYOFF]
    touching = merge and len(pieces) > 1 and _touching(pieces, rules)
    while touching:
        i, j = touching
        a, b = pieces[i], pieces[j]
        merged = a._replace(bits=a.bits + b.bits, last=a.last + len(b.bits), meld=None)
        pieces = [piece for k, piece in enumerate(pieces) if k not in touching]
        pieces.append(merged)
        touching = _touching(pieces, rules)
    pieces.sort(key=_first_card)
    return tuple(piece.meld or _piece_meld(piece, rules) for piece in pieces)


def _first_card(piece: _Piece) -> int:
    return piece.bits[0]


def _arrangement(search: _Search, pieces: Sequence[_Piece], merge: bool = True) -> Arrangement:
    """Return the arrangement of a packing: the melds, and every card no piece takes."""
    values = search.tables.values
    melds = _melds(pieces, search.tables.rules, merge)
    if search.simple:
        melded = 0
        count = search.total
        for piece in pieces:
            for bit in piece.bits:
                melded |= 1 << bit
                count -= values[bit]
        return Arrangement(melds, _cards(search.mask & ~melded), count)
    left = Counter(search.cards)
    for piece in pieces:
        left.subtract(_CARD_AT[bit] for bit in piece.bits)
        left[JOKER] -= piece.jokers
    deadwood = sort_cards(left.elements())
    count = sum(
        search.joker_value if card.is_joker else values[_SUIT_BASE[card.suit] + card.rank]
        for card in deadwood
    )
    return Arrangement(melds, deadwood, count)


def _solve(search: _Search, candidates: Sequence[_Candidate], tables: int = 0) -> list[_Piece]:
    """Return the first best packing of the candidates (the loose search)."""
    groups = _groups(candidates, search.jokers)
    start = _within_candidates(search, candidates, tables)
    return _path(start, groups, _memo(search.jokers, True), True)[1]


def best_arrangement(
    cards: Sequence[Card], *, rules: MeldRules, value: Value, deck: DeckSpec = ONE_DECK
) -> Arrangement:
    """Return an arrangement of the hand with the minimum deadwood count (GIN-DEADWOOD).

    The hand may hold as many copies of a card, and jokers, as ``deck`` holds (CARD-2); a
    joker melded counts nothing, one left out counts value(JOKER). Ties go to the
    arrangement with fewer deadwood cards, then to the first in a fixed order: the lowest
    card (clubs, spades, hearts, diamonds; ace to king) goes into a longer meld before a
    shorter one, a run before a set, and into a meld before the deadwood. The result is
    always min_arrangements(...)[0].
    """
    search = _start(cards, _tables(rules, value), value, deck)
    candidates = search.candidates
    if search.simple:
        if not candidates:
            # Most hands dealt hold no meld at all: nothing to search.
            return Arrangement((), _cards(search.mask), search.total)
        pieces = _disjoint(candidates)
        if pieces is not None:
            return _arrangement(search, pieces)
    return _arrangement(search, _solve(search, candidates))


# A hand of up to this many cards holds at most three melds (a meld has MIN_MELD cards or
# more): deadwood_count tries every packing of up to three of its candidates directly.
_THREE_MELDS_AT_MOST = 4 * MIN_MELD - 1


def deadwood_count(
    cards: Sequence[Card], *, rules: MeldRules, value: Value, deck: DeckSpec = ONE_DECK
) -> int:
    """Return the minimum deadwood count of the hand: best_arrangement(...).count.

    For the questions that need the count alone (may this hand knock? which discard leaves
    the least?). A hand of one copy of each card, no joker and up to 11 cards (Gin's) is
    worked out without building its melds or the search's memo: at most three disjoint
    melds fit in it, so every packing of up to three candidates is tried. Any other hand
    goes through best_arrangement.
    """
    if len(cards) > _THREE_MELDS_AT_MOST:
        return best_arrangement(cards, rules=rules, value=value, deck=deck).count
    tables = _tables(rules, value)
    mask, total = _held(cards, tables.values)
    if mask >> 64 or mask.bit_count() != len(cards):  # jokers or copies
        return best_arrangement(cards, rules=rules, value=value, deck=deck).count
    candidates = _candidates(mask, tables)
    most = 0  # the highest gain of a packing (value * _GAIN_SCALE + cards)
    size = len(candidates)
    for i in range(size):
        first = candidates[i]
        taken, gain = first[1], first[3]
        if gain > most:
            most = gain
        for j in range(i + 1, size):
            second = candidates[j]
            if taken & second[1]:
                continue
            both, gain2 = taken | second[1], gain + second[3]
            if gain2 > most:
                most = gain2
            for k in range(j + 1, size):
                third = candidates[k]
                if not both & third[1] and gain2 + third[3] > most:
                    most = gain2 + third[3]
    return total - most // _GAIN_SCALE


def min_arrangements(
    cards: Sequence[Card], *, rules: MeldRules, value: Value, deck: DeckSpec = ONE_DECK
) -> tuple[Arrangement, ...]:
    """Return every distinct arrangement (multiset of melds) that reaches the minimum deadwood.

    Fewer deadwood cards come first, then the tie-break order of best_arrangement. Melds with
    jokers count as distinct by the cards they take and the number of jokers, each shown with
    one placement of its jokers.
    """
    search = _start(cards, _tables(rules, value), value, deck)
    candidates = search.candidates
    if search.simple:
        pieces = _disjoint(candidates)
        if pieces is not None:
            # No two candidates share a card, so taking them all is the one minimum.
            return (_arrangement(search, pieces),)
    groups = _groups(candidates, search.jokers)
    memo = _memo(search.jokers, True)
    found: dict[frozenset[tuple[Meld, int]], Arrangement] = {}
    for pieces in _walk(_within_candidates(search, candidates), groups, memo):
        arrangement = _arrangement(search, pieces)
        found.setdefault(frozenset(Counter(arrangement.melds).items()), arrangement)
    return tuple(sorted(found.values(), key=lambda arrangement: len(arrangement.deadwood)))


def _grown(shape: _Shape, piece: _Piece | None) -> Meld:
    """Return a table meld with a layoff in place."""
    if piece is None:
        return shape.meld
    naturals = set(piece.bits)
    laid = [(bit, bit not in naturals) for bit in piece.places]
    slots = list(zip(shape.slots, shape.jokers, strict=True))
    if shape.meld.kind == "set":
        slots = sorted(slots + laid)
    else:
        down = shape.first - piece.first
        slots = laid[:down][::-1] + slots + laid[down:]
    represents = tuple(_CARD_AT[bit] for bit, _ in slots)
    cards = tuple(
        JOKER if joker else card for (_, joker), card in zip(slots, represents, strict=True)
    )
    return Meld(shape.meld.kind, cards, represents if JOKER in cards else ())


def _laid_cards(piece: _Piece) -> list[Card]:
    naturals = set(piece.bits)
    return [_CARD_AT[bit] if bit in naturals else JOKER for bit in piece.places or piece.bits]


def _table(
    cards: Sequence[Card], onto: Sequence[Meld], rules: MeldRules, deck: DeckSpec
) -> list[_Shape]:
    """Return the shapes of the table melds, refusing cards shown too often (CARD-2)."""
    shapes = [_shape(meld, rules) for meld in onto]
    shown = [card for shape in shapes for card in shape.meld.cards]
    check_copies([*cards, *shown], deck)
    if len(shapes) > _MAX_TABLE_MELDS:
        raise ValueError(f"at most {_MAX_TABLE_MELDS} table melds")
    return shapes


def _laid_out(
    pieces: Sequence[_Piece], shapes: Sequence[_Shape]
) -> tuple[tuple[tuple[Card, int], ...], tuple[Meld, ...]]:
    """Return the layoffs of a packing, (card, table meld index) as laid, and the grown melds."""
    laid = sorted((piece for piece in pieces if piece.kind == _LAYOFF), key=lambda p: p.target)
    by_target = {piece.target: piece for piece in laid}
    layoffs = tuple((card, piece.target) for piece in laid for card in _laid_cards(piece))
    grown = tuple(_grown(shape, by_target.get(index)) for index, shape in enumerate(shapes))
    return layoffs, grown


def best_layoff(
    cards: Sequence[Card],
    onto: Sequence[Meld],
    *,
    rules: MeldRules,
    value: Value,
    deck: DeckSpec = ONE_DECK,
) -> LayoffResult:
    """Return the best outcome of own melds and layoffs onto table melds, minimising deadwood.

    Serves GIN-LAYOFF (the defender onto the knocker's melds) and R40-ADD / RAM-ADD (where
    cards can be added): runs take cards and jokers at either end, sets the suits they miss
    up to max_set, all within the joker rules; table melds with jokers must carry what each
    joker stands for (Meld.represents). Ties are broken as in best_arrangement, own melds
    before layoffs of the same number of cards.
    """
    shapes = _table(cards, onto, rules, deck)
    search = _start(cards, _tables(rules, value), value, deck)
    candidates = search.candidates + _layoff_candidates(
        search.mask, search.jokers, shapes, search.tables, search.joker_value
    )
    pieces = _solve(search, candidates, _tokens(len(shapes)))
    arrangement = _arrangement(search, pieces)
    layoffs, grown = _laid_out(pieces, shapes)
    return LayoffResult(arrangement.melds, layoffs, arrangement.deadwood, arrangement.count, grown)


def _without(state: int, cards: Sequence[Card]) -> int:
    for card in cards:
        state -= _UNIT[_SUIT_BASE[card.suit] + card.rank]
    return state


def best_opening(
    cards: Sequence[Card],
    *,
    rules: MeldRules,
    opening_value: OpeningValue | None = None,
    keep: int = 1,
    deck: DeckSpec = ONE_DECK,
) -> Opening:
    """Return the most valuable melds the hand can lay at once, keeping ``keep`` cards in hand.

    The value is the sum of opening_value over the melds (default: VALUE, as _opening_value);
    a joker is placed where it is worth most. ``keep`` is 1 where a player must still
    discard (R40-HAND, RAM-TURN). Ties go to more cards laid, then to the first in the order
    of best_arrangement. With nothing to lay, the opening is empty and worth 0.
    """
    opening = opening_value or _opening_value
    tables = _build_tables(rules, _unit, opening)
    search = _start(cards, tables, _unit, deck)
    groups = _groups(search.candidates, search.jokers)
    memo = _memo(search.jokers, True)
    state = _state(search)
    options: list[tuple[Card, ...]] = [()]
    if keep > 0:
        gain = _best(state, groups, memo, True)
        if gain % _GAIN_SCALE > len(cards) - keep:
            # The best melds leave too few cards. Whichever cards a better opening keeps, it
            # is an opening of the hand without them: try each choice of cards to keep.
            options = list(dict.fromkeys(combinations(sort_cards(cards), keep)))
    best_gain, best_pieces = _NEVER, []
    for kept in options:
        gain, pieces = _path(_without(state, kept), groups, memo, True)
        if gain > best_gain:
            best_gain, best_pieces = gain, pieces
    melds = _melds(best_pieces, rules, merge=False)
    arrangement = _arrangement(search, best_pieces, merge=False)
    laid = Counter(search.cards)
    laid.subtract(arrangement.deadwood)
    return Opening(
        melds,
        sum(opening(meld) for meld in melds),
        sort_cards(laid.elements()),
        arrangement.deadwood,
    )


def can_go_out(
    cards: Sequence[Card],
    *,
    rules: MeldRules,
    closing: Closing,
    opened: bool,
    onto: Sequence[Meld] = (),
    opening_value: OpeningValue | None = None,
    deck: DeckSpec = ONE_DECK,
) -> GoOut:
    """Return how the cards held (after drawing) go out, or why they cannot.

    Every card but the discard (see Closing) is melded, or, once the player has opened, added
    to the table melds ``onto``. A player who has not opened lays only own melds, which must
    hold 3 cards or more and be worth closing.opening_minimum together (opening_value,
    default VALUE); the most valuable way is taken. Otherwise the discard taken is the first
    that works: none if allowed, then by display order.
    """
    cards = tuple(cards)
    opening = opening_value or _opening_value
    if opened:
        shapes = _table(cards, onto, rules, deck)
        tables = _tables(rules, _unit)
    else:
        shapes = []
        tables = _build_tables(rules, _unit, opening)
    search = _start(cards, tables, _unit, deck)
    candidates = search.candidates + _layoff_candidates(
        search.mask, search.jokers, shapes, tables, search.joker_value
    )
    groups = _groups(candidates, search.jokers)
    memo = _memo(search.jokers, False)
    state = _state(search) + _tokens(len(shapes))
    options: list[Card | None] = []
    if closing.discard != "required":
        options.append(None)
    if closing.discard != "none":
        options.extend(dict.fromkeys(sort_cards(cards)))
    outs: list[tuple[Card | None, list[_Piece], int]] = []
    joker_barred = False
    for discard in options:
        left = state if discard is None else _without(state, [discard])
        gain, pieces = _path(left, groups, memo, False)
        if gain < 0:
            continue
        if discard is not None and discard.is_joker and closing.joker_discard_rule:
            joker_barred = True
            continue
        value = 0 if opened else sum(opening(meld) for meld in _melds(pieces, rules, False))
        outs.append((discard, pieces, value))
    if not outs:
        return GoOut(violation=_cannot_go_out(cards, closing, joker_barred))
    if not opened:
        best = max(value for _, _, value in outs)
        outs = [
            out
            for out in outs
            if out[2] >= closing.opening_minimum and len(cards) - (out[0] is not None) >= MIN_MELD
        ]
        if not outs:
            return GoOut(value=best, violation=_below_minimum(closing, best))
        # The most valuable opening goes out; the first of equals.
        outs.sort(key=lambda out: -out[2])
    discard, pieces, value = outs[0]
    layoffs, grown = _laid_out(pieces, shapes)
    return GoOut(
        _melds(pieces, rules, merge=opened),
        layoffs,
        grown,
        discard,
        value,
        tuple(out[0] for out in outs),
    )


def _cannot_go_out(cards: Sequence[Card], closing: Closing, joker_barred: bool) -> Violation:
    # The rule comes from the variant (Closing); games/rules/text.py needs its sentence.
    names = [str(card) for card in cards]
    if joker_barred and closing.joker_discard_rule:
        return Violation(
            rule=closing.joker_discard_rule,
            code="joker_discard",
            message="These cards go out only by discarding a joker, which may not be discarded.",
            params={"cards": names},
        )
    what = {
        "required": "every card but the discard",
        "optional": "every card, or every card but the discard,",
        "none": "every card",
    }[closing.discard]
    return Violation(
        rule=closing.rule,
        code="cannot_go_out",
        message=f"These cards cannot go out: {what} cannot be melded.",
        params={"cards": names, "discard": closing.discard},
    )


def _below_minimum(closing: Closing, value: int) -> Violation:
    return Violation(
        rule=closing.opening_rule or closing.rule,
        code="below_minimum",
        message=f"The opening is worth {value}; the table's minimum is {closing.opening_minimum}.",
        params={"value": value, "minimum": closing.opening_minimum},
    )
