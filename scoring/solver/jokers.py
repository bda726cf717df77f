"""Melds with jokers, listed per hand: runs grown one natural at a time and sets of one rank.

Only the naturals and the number of jokers matter to the search, so each such pair keeps
one placement of its jokers: for openings the most valuable, otherwise the one reaching
highest. Runs carry their units and value as they grow, so a candidate costs a few
additions and only the kept ones become pieces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise
from typing import NamedTuple

from scoring.cards import JOKER, RANKS, SUITS
from scoring.melds import MAX_RUN, MIN_MELD, Meld, MeldRules
from scoring.solver.bits import (
    BASES,
    CARD_AT,
    GAIN_SCALE,
    LAYOFF,
    RUN,
    SET,
    UNIT,
    Candidate,
    Piece,
    make_candidate,
    position_rank,
    run_bounds,
    run_places,
)
from scoring.solver.tables import Tables, meld_gain


def _suit_line(mask: int, base: int, rules: MeldRules) -> list[int]:
    """Return the line positions of the naturals of one suit a run may use, in order."""
    ranks = [rank for rank in RANKS if mask >> (base + rank) & 1]
    if not ranks:
        return []
    if rules.wrap:
        return ranks + [rank + MAX_RUN for rank in ranks]
    line = [rank for rank in ranks if rank >= run_bounds(rules)[0]]
    if rules.ace_high and ranks[0] == 1:
        line.append(14)
    return line


# Candidates with jokers as they are found: take -> (gain, highest line position reached,
# what makes the piece). See _keep.
_Kept = dict[int, tuple[int, int, tuple]]


class _RunLimits(NamedTuple):
    """Hold what bounds the runs with jokers of one hand: read once, used for every group."""

    most: int  # jokers a run may take
    bottom: int  # line positions a run may reach
    top: int
    end_room: int  # jokers beyond the naturals at each end (1 without adjacent jokers)
    joker_value: int
    within: bool  # jokers_within_naturals: no more jokers than naturals
    every: bool  # for openings: every placement of the jokers is valued


def _joker_runs(mask: int, most: int, tables: Tables, joker_value: int, kept: _Kept) -> None:
    """Keep the runs with 1 to most jokers the natural cards of the mask allow.

    Each group of naturals and number of jokers comes once (see joker_candidates), its
    jokers reaching as high as they can; for openings, placed where they are worth most. The
    groups of naturals grow one position at a time, carrying their units and value, so a
    candidate costs a few additions and only the kept ones become pieces.
    """
    rules = tables.rules
    bottom, top = run_bounds(rules)
    end_room = MAX_RUN if rules.adjacent_jokers else 1
    every = tables.opening is not None
    limits = _RunLimits(
        most, bottom, top, end_room, joker_value, rules.jokers_within_naturals, every
    )
    for base in BASES:
        line = _suit_line(mask, base, rules)
        # The card bit at each position of the line, looked up rather than worked out for
        # every group of naturals that grows to it.
        bits = [base + position_rank(position) for position in line]
        for start, first in enumerate(line):
            if rules.wrap and first > MAX_RUN:
                # The second lap only continues runs started on the first.
                break
            _runs_from((line, bits), start, base, limits, tables, kept)


# The inner loop of listing runs with jokers, once for every group of naturals (thousands for
# a long run); a call per group to keep its runs and another to grow it cost a third more.
# long: see above.
def _runs_from(
    suit: tuple[Sequence[int], Sequence[int]],
    start: int,
    base: int,
    limits: _RunLimits,
    tables: Tables,
    kept: _Kept,
) -> None:
    """Keep the runs with jokers whose lowest natural is at line[start] (see _joker_runs).

    Groups of naturals grow depth first, each followed by those one natural longer that the
    jokers can still bridge; each group keeps its runs with every number of jokers the rules
    allow (the tie-break (gain, last) compared field by field, the bounds as locals).
    """
    line, line_bits = suit
    values = tables.values
    most_jokers, end_room, joker_value = limits.most, limits.end_room, limits.joker_value
    top, within, every = limits.top, limits.within, limits.every
    placements = tables.placements
    adjacent = end_room > 1
    size = len(line)
    first = line[start]
    room_low = first - limits.bottom
    room_low = room_low if room_low < end_room else end_room
    bit = line_bits[start]
    # A group: its card bits, the line position and index of its last natural, the gaps
    # inside, and the units and value of its naturals.
    stack = [((bit,), first, start, 0, UNIT[bit], values[bit])]
    while stack:
        bits, end, last, inner, units, value = stack.pop()
        naturals = len(bits)
        room_high = top - end
        room_high = room_high if room_high < end_room else end_room
        # Past inner + room_low + room_high jokers there is no room left to place them.
        most = most_jokers
        if most > MAX_RUN - naturals:
            most = MAX_RUN - naturals
        if most > inner + room_low + room_high:
            most = inner + room_low + room_high
        if within and most > naturals:
            most = naturals
        fewest = MIN_MELD - naturals if naturals + inner < MIN_MELD else inner or 1
        for jokers in range(fewest, most + 1):
            extra = jokers - inner
            if every:
                # For openings, the jokers beyond the naturals where worth most (_placement).
                found = placements and placements.get((base, first, end, extra))
                if not found:
                    span = (bits, first, end)
                    found = _placement(tables, base, span, extra, (room_low, room_high))
                worth, low = found
                gain = worth * GAIN_SCALE + naturals + jokers
                reach = end + extra - low
            else:
                # Otherwise reaching highest: as many as there is room for above.
                high = extra if extra < room_high else room_high
                gain = (value + jokers * joker_value) * GAIN_SCALE + naturals + jokers
                reach = end + high
            take = units + jokers
            other = kept.get(take)
            if other is None or gain > other[0] or (gain == other[0] and reach > other[1]):
                made = (bits, base, reach - extra - (end - first), reach, jokers, units)
                kept[take] = (gain, reach, made)
        for k in range(last + 1, size):
            position = line[k]
            gap = position - end - 1
            # Positions only grow, so once one is out of reach every later one is too.
            if position - first >= MAX_RUN or inner + gap > most_jokers:
                break
            if not adjacent and gap > 1:
                break
            bit = line_bits[k]
            grown = (*bits, bit)
            stack.append((grown, position, k, inner + gap, units + UNIT[bit], value + values[bit]))


def _placement(
    tables: Tables,
    base: int,
    span: tuple[tuple[int, ...], int, int],
    extra: int,
    room: tuple[int, int],
) -> tuple[int, int]:
    """Return the most valuable run of a group of naturals and ``extra`` jokers beyond it,
    (VALUE, jokers below its first natural): the first of equals reaching highest.

    With VALUE (tables.placements) the answer depends on the positions alone, and is kept.
    """
    bits, first, end = span
    room_low, room_high = room
    high = min(extra, room_high)
    best = None
    for low in range(extra - high, min(extra, room_low) + 1):
        value = _stretch_value(tables, base, first - low, end + extra - low, bits)
        if best is None or value > best[0]:
            best = (value, low)
    assert best is not None  # the caller leaves room for the jokers it places
    if tables.placements is not None:
        tables.placements[(base, first, end, extra)] = best
    return best


def _stretch_value(
    tables: Tables, base: int, first: int, last: int, naturals: tuple[int, ...]
) -> int:
    """Return the opening value of the run of one suit from line position first to last.

    VALUE reads what the cards stand for (a joker counts as the card it stands for), so with
    it a stretch is valued once per rules and kept with the tables; any other opening value
    is asked of the run itself, its jokers where the naturals leave gaps.
    """
    places = run_places(base, first, last)
    if tables.stretches is None:
        represents = tuple(CARD_AT[bit] for bit in places)
        shown = tuple(CARD_AT[bit] if bit in naturals else JOKER for bit in places)
        assert tables.opening is not None
        return tables.opening(Meld("run", shown, represents))
    key = (base, first, last)
    found = tables.stretches.get(key)
    if found is None:
        assert tables.opening is not None
        found = tables.opening(Meld("run", tuple(CARD_AT[bit] for bit in places)))
        tables.stretches[key] = found
    return found


def _joker_sets(mask: int, most: int, rules: MeldRules) -> Iterator[Piece]:
    """Yield the sets with 1 to most jokers the natural cards of the mask allow."""
    if not rules.adjacent_jokers and not rules.fixed_groups:
        # RAM-OPT-FIXEDJOKER: two jokers in one set count as side by side (unless the suit
        # order of fixed groups places them apart: set_piece checks that).
        most = min(most, 1)
    limit = min(rules.max_set, len(SUITS))
    for rank in RANKS:
        held = [i for i, base in enumerate(BASES) if mask >> (base + rank) & 1]
        for size in range(1, len(held) + 1):
            for suits in combinations(held, size):
                for jokers in range(max(1, MIN_MELD - size), most + 1):
                    total = size + jokers
                    if total > limit or (rules.jokers_within_naturals and jokers > size):
                        break
                    yield from set_piece(suits, (), jokers, rank, total, rules, -1)


def set_piece(
    suits: Sequence[int],
    shown: Sequence[int],
    jokers: int,
    rank: int,
    total: int,
    rules: MeldRules,
    target: int,
    shown_jokers: Sequence[int] = (),
) -> Iterator[Piece]:
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
    bits = tuple(BASES[i] + rank for i in suits)
    places = tuple(BASES[i] + rank for i in sorted((*suits, *missing)))
    kind = SET if target < 0 else LAYOFF
    yield Piece(kind, bits, target=target, jokers=jokers, places=places)


def _neighbours(suits: Sequence[int]) -> bool:
    """Tell whether two of the suit places (0..3 for C S H D) are side by side."""
    return any(b - a == 1 for a, b in pairwise(sorted(suits)))


def joker_candidates(mask: int, jokers: int, tables: Tables, joker_value: int) -> list[Candidate]:
    """Return the melds with jokers the hand holds, one per naturals and number of jokers.

    Each take (naturals and jokers) keeps the highest gain, then the one reaching highest: a
    high ace reaches highest, so A♣ and four jokers show as 10 J Q K A, not A 2 3 4 5. The
    order is that in which takes are first found: runs, then sets.
    """
    rules = tables.rules
    most = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    if most <= 0:
        return []
    kept: _Kept = {}
    _joker_runs(mask, most, tables, joker_value, kept)
    for piece in _joker_sets(mask, most, rules):
        gain = meld_gain(piece, tables, joker_value)
        take = make_candidate(piece, gain)[2]
        other = kept.get(take)
        if other is None or (gain, piece.last) > (other[0], other[1]):
            kept[take] = (gain, piece.last, piece)
    # A run's candidate, made inline as a hand keeps thousands: its order, units and take,
    # its gain, and what makes its piece (bits, suit base, first, last, jokers, units: see
    # as_piece).
    return [
        make_candidate(made, gain)
        if type(made) is Piece
        else (RUN - 4 * (len(made[0]) + made[4]), made[5], made[5] + made[4], gain, made)
        for gain, _, made in kept.values()
    ]
