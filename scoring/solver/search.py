"""The search: a hand read as a state, its candidates grouped by lowest card, and the
memoised recursion that finds the best packing (and every packing reaching it).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from scoring.cards import JOKER, Card, DeckSpec, check_copies
from scoring.errors import refusal as _refuse
from scoring.solver.bits import (
    FIRST_TOKEN,
    GAIN_SCALE,
    JOKERS,
    NATURAL_BITS,
    NEVER,
    PRESENT,
    SUIT_BASE,
    UNIT,
    Candidate,
    Piece,
    as_piece,
    by_order,
)
from scoring.solver.jokers import joker_candidates
from scoring.solver.results import Value
from scoring.solver.tables import Ceilings, Tables, ceiling_sum, natural_candidates

# The most states one search may memoise. The largest hands a game allows (GameRules
# .most_in_hand) need at most a few thousand; a hand far past them could need millions
# (jokers and repeated cards multiply the packings), so the search refuses it instead of
# holding a worker for seconds.
STATE_BUDGET = 50_000


class Search(NamedTuple):
    """Hold a hand as the search needs it."""

    tables: Tables
    cards: Sequence[Card]
    mask: int  # natural cards held at least once, by card bit
    total: int  # value of the natural cards
    state: int  # card counts and jokers (0 for a simple hand: see whole_state)
    jokers: int
    joker_value: int
    simple: bool  # one copy of each card and no jokers: Gin's hands
    candidates: list[Candidate]


def held_mask(cards: Sequence[Card], values: Sequence[int]) -> tuple[int, int]:
    """Return the bits of the cards held (each card once, jokers on bit 64) and their value."""
    mask = 0
    total = 0
    base = SUIT_BASE
    for card in cards:
        bit = base[card.suit] + card.rank
        mask |= 1 << bit
        total += values[bit]
    return mask, total


# The last hand read for a search with jokers or copies, in one slot read and replaced whole:
# the referee asks several questions of one hand (going out, then the best opening), and
# reading a hand with jokers is most of what a question costs.
_recent_start: list[tuple[tuple, Search | None]] = [((None, None, None, ()), None)]


def read_hand(cards: Sequence[Card], tables: Tables, value: Value, deck: DeckSpec) -> Search:
    """Return the hand read for the search, refusing more copies than the deck holds (CARD-2)."""
    # A copy: the hand read last is kept for the next question (below), and a caller's list
    # changed after this call must not change the hand kept under its old cards.
    cards = tuple(cards)
    mask, total = held_mask(cards, tables.values)
    if not mask >> 64 and mask.bit_count() == len(cards):
        return Search(tables, cards, mask, total, 0, 0, 0, True, natural_candidates(mask, tables))
    key = (tables, value, deck, cards)
    last_key, search = _recent_start[0]
    # The tables and values are the same objects call after call (see tables_for); comparing
    # them by identity spares comparing their contents.
    if (
        search is not None
        and last_key[0] is tables
        and last_key[1] is value
        and last_key[2:] == key[2:]
    ):
        return search
    search = _start_counted(cards, tables, value, deck, mask, total)
    _recent_start[0] = (key, search)
    return search


def _start_counted(
    cards: Sequence[Card], tables: Tables, value: Value, deck: DeckSpec, mask: int, total: int
) -> Search:
    """Return a hand with jokers or copies read for the search (see read_hand)."""
    check_copies(cards, deck)
    state = 0
    for card in cards:
        state += UNIT[SUIT_BASE[card.suit] + card.rank]
    jokers = state & JOKERS
    mask &= NATURAL_BITS
    joker_value = value(JOKER) if jokers else 0
    candidates = natural_candidates(mask, tables)
    if jokers:
        candidates += joker_candidates(mask, jokers, tables, joker_value)
    return Search(tables, cards, mask, total, state, jokers, joker_value, False, candidates)


def whole_state(search: Search) -> int:
    """Return the whole hand as a search state."""
    if not search.simple:
        return search.state
    state = 0
    mask = search.mask
    while mask:
        low = mask & -mask
        mask ^= low
        state += UNIT[low.bit_length() - 1]
    return state


def within_candidates(search: Search, candidates: Sequence[Candidate], tables: int = 0) -> int:
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
# card (None: one copy left out), the state left after that choice, and whether the packing
# chosen melds every card and joker of the state (see best_gain).
_Step = tuple[int, Piece | None, int, bool]
_Memo = dict[int, _Step]


class _Group(NamedTuple):
    """Hold the candidates whose lowest card is one card, and how to tell which fit a state.

    A candidate fits when the state holds each of its cards: it is out when it holds a card
    the state lacks, so the search looks up those few cards (``holding``) rather than test
    every candidate. Sets of candidates are ints, bit i standing for candidates[i].
    """

    candidates: list[Candidate]  # in tie-break order
    allowed: tuple[int, ...]  # by number of jokers left: the candidates that many allow
    cards: int  # the units (and tokens) some candidate takes
    holding: dict[int, int]  # unit (or token) -> the candidates that take it
    bounds: _Bounds | None = None  # with ceilings (see Tables.ceilings): what bounds a search


class _Bounds(NamedTuple):
    """Hold what bounds the search of a group's candidates (see best_gain).

    A candidate's *weight* is the most its cards could gain (their ceilings); its *loss* is
    its weight less its gain. Taken where the state can gain at most ``bound``, a candidate
    reaches at most bound - loss, so once the best found is ``found`` only the candidates
    losing less than bound - found can beat it: ``under[k]`` holds those losing less than
    ``losses[k]`` (under[len(losses)]: every candidate).
    """

    weights: tuple[int, ...]  # by candidate
    losses: tuple[int, ...]  # every loss some candidate has, ascending
    under: tuple[int, ...]
    ceiling: int  # the lowest card's, left out


_Groups = dict[int, _Group]


# The last candidates grouped and their groups, in one slot read and replaced whole: going
# out and the best opening ask about the same candidates (those of the hand read last).
_recent_groups: list[tuple[Sequence[Candidate] | None, int, Ceilings | None, _Groups]] = [
    (None, 0, None, {})
]


def group_candidates(
    candidates: Sequence[Candidate], jokers: int, ceilings: Ceilings | None = None
) -> _Groups:
    """Group candidates by lowest card, in tie-break order (see _Group); with ceilings
    (Tables.ceilings), bounded."""
    last, last_jokers, last_ceilings, groups = _recent_groups[0]
    # The groups are never changed once made, so the same list may share them.
    if last is candidates and last_jokers == jokers and last_ceilings is ceilings:
        return groups
    groups = {low: group_of(found, jokers) for low, found in by_lowest(candidates).items()}
    if ceilings is not None:
        groups = {
            low: group._replace(
                bounds=_bounds_of(group.candidates, ceiling_sum(low, ceilings), ceilings)
            )
            for low, group in groups.items()
        }
    _recent_groups[0] = (candidates, jokers, ceilings, groups)
    return groups


def by_lowest(candidates: Sequence[Candidate]) -> dict[int, list[Candidate]]:
    """Return the candidates by lowest card, each list in tie-break order."""
    found: dict[int, list[Candidate]] = {}
    for candidate in sorted(candidates, key=by_order):
        mask = candidate[1]
        found.setdefault(mask & -mask, []).append(candidate)
    return found


class LazyGroups(dict):
    """Groups made as a search first asks for them (``get``): for a search that visits few
    of its lowest cards, as the layoff search bounded (bounded.py) does, where thousands of
    layoffs would otherwise be grouped for a handful of states."""

    def __init__(self, candidates: dict[int, list[Candidate]], jokers: int):
        super().__init__()
        self.candidates = candidates  # by lowest card (by_lowest)
        self.jokers = jokers

    def get(self, low: int, default: _Group | None = None) -> _Group | None:
        group = dict.get(self, low)
        if group is None:
            found = self.candidates.get(low)
            if found is None:
                return default
            group = self[low] = group_of(found, self.jokers)
        return group


def _bounds_of(candidates: list[Candidate], ceiling: int, ceilings: Ceilings) -> _Bounds:
    """Return the weights of a group's candidates and its candidates by loss (see _Bounds)."""
    weights = [
        ceiling_sum(mask, ceilings) + (take - mask) * ceilings.joker
        for _, mask, take, _, _ in candidates
    ]
    by_loss: dict[int, list[int]] = {}
    for index, (weight, candidate) in enumerate(zip(weights, candidates, strict=True)):
        by_loss.setdefault(weight - candidate[3], []).append(index)
    losses = tuple(sorted(by_loss))
    under = [0]
    for loss in losses:
        under.append(under[-1] | sum(1 << index for index in by_loss[loss]))
    return _Bounds(tuple(weights), losses, tuple(under), ceiling)


def state_ceiling(state: int, ceilings: Ceilings) -> int:
    """Return the most a state can gain: the sum of its cards' ceilings (Tables.ceilings)."""
    # Two copies at most (two decks): a count field reads 01 or 10.
    once = ceiling_sum(state & PRESENT, ceilings)
    twice = ceiling_sum(state >> 1 & PRESENT, ceilings)
    return once + 2 * twice + (state & JOKERS) * ceilings.joker


def group_of(candidates: list[Candidate], jokers: int) -> _Group:
    """Return the group of candidates sharing a lowest card, in tie-break order."""
    masks = [candidate[1] for candidate in candidates]
    cards = 0
    for mask in masks:
        cards |= mask
    # The candidates taking each unit: the masks written as rows of flags one after another,
    # so that a unit's flags are every size-th character, a column read by one slice: a
    # group may hold thousands of candidates, and strings do this transposition at C speed.
    shift = (cards & -cards).bit_length() - 1
    size = (cards >> shift).bit_length()
    width = f"0{size}b"
    rows = "".join([format(mask >> shift, width) for mask in masks])
    holding = {}
    units = cards
    while units:
        unit = units & -units
        units ^= unit
        column = rows[size + shift - unit.bit_length() :: size]
        holding[unit] = int(column[::-1], 2)
    # The search checks the cards of a candidate against the state, never its jokers: each
    # candidate's jokers as one digit, the digits read as flags for each number of jokers.
    needs = "".join([_DIGITS[take - mask] for _, mask, take, _, _ in candidates])[::-1]
    allowed = tuple(int(needs.translate(_AT_MOST[left]), 2) for left in range(jokers + 1))
    return _Group(candidates, allowed, cards, holding)


# A candidate's jokers (0 to 15, the state's field) as a digit, and for each number of
# jokers left the table turning a digit into the flag "that many allow it".
_DIGITS = tuple(chr(ord("a") + need) for need in range(JOKERS + 1))
_AT_MOST = tuple(
    str.maketrans({digit: "1" if need <= left else "0" for need, digit in enumerate(_DIGITS)})
    for left in range(JOKERS + 1)
)


def _fitting(group: _Group, present: int, jokers: int) -> int:
    """Return the candidates of the group that fit a state holding ``present`` and jokers."""
    fit = group.allowed[jokers]
    missing = group.cards & ~present
    while missing:
        unit = missing & -missing
        missing ^= unit
        fit &= ~group.holding[unit]
    return fit


def new_memo(jokers: int, loose: bool) -> _Memo:
    """Return a memo knowing the states with no card left: only jokers, which are left out."""
    if not jokers:
        return {0: (0, None, 0, True)}
    return {
        left: (0 if loose or not left else NEVER, None, left, not left)
        for left in range(jokers + 1)
    }


# The memo of the last loose search of some groups, in one slot read and replaced whole: the
# best opening (loose) and going out before opening (strict, see opening_memo) search the
# same hand without one card, once for each card.
_recent_loose: list[tuple[_Groups | None, _Memo]] = [(None, {})]


def opening_memo(groups: _Groups, jokers: int) -> _Memo:
    """Return the memo of loose searches of these groups (for openings: gains are VALUE).

    A loose state whose best packing is whole is also what the strict search finds there:
    the same packing, as every packing that beats one before it in the loose search also
    does in the strict one. So going out asks it first, and the opening reuses its states.
    """
    last, memo = _recent_loose[0]
    if last is not groups:
        memo = new_memo(jokers, True)
        _recent_loose[0] = (groups, memo)
    return memo


# The search is a module function taking its memo, not a closure: a closure that calls
# itself is a reference cycle, and each call would leave its memo for the garbage collector.
# long: the hot loop of every search, run once per state; split, it paid two calls a state.
def best_gain(
    rem: int,
    groups: _Groups,
    memo: _Memo,
    loose: bool,
    additive: bool = False,
    bound: int | None = None,
) -> int:
    """Return the highest gain the candidates reach inside the state rem, memoising it.

    Loose, a card may be left out; strict (going out), every card is melded or laid off.
    The memo also tells whether the choice melds every card and joker of the state (*whole*).
    With ``additive`` gains (card values, not an opening's VALUE: a candidate gains exactly
    what its cards are worth), a whole packing gains the most any packing can, and ties go
    to the first found, so the first whole one ends the search of the state. With ``bound``
    (the most rem can gain: state_ceiling) and bounded groups, a choice that cannot beat the
    best found even at its bound is skipped (see _Bounds): an opening's VALUE gains less
    than its cards' ceilings where a joker stands low or an ace counts 1, and most choices
    of a long run with jokers do. A skipped choice could not have been the first best, so
    the memo holds the same (exact) steps, only fewer states.
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
    jokers = rem & JOKERS
    present = (rem | rem >> 1) & PRESENT
    low = present & -present
    group = groups.get(low)
    kept = True  # no card left out (a table meld left without layoffs loses nothing)
    while group is None or not group.allowed[jokers]:
        # A card that starts no candidate left is out of every packing, and so is a table
        # meld with no layoff left. (The bound, unchanged, still bounds what is left.)
        if low < FIRST_TOKEN:
            if not loose:
                memo[key] = (NEVER, None, 0, False)
                return NEVER
            kept = False
        rem &= ~(low | low << 1)
        present ^= low
        if not present:
            step = memo[rem]
            memo[key] = (step[0], None, rem, kept and step[3])
            return step[0]
        low = present & -present
        group = groups.get(low)
    found = NEVER
    choice = None
    after = 0
    whole = False
    bounds = None if bound is None else group.bounds
    # The candidates that fit: those taking no card the state lacks (see _Group).
    fit = group.allowed[jokers]
    missing = group.cards & ~present
    holding = group.holding
    while missing:
        unit = missing & -missing
        missing ^= unit
        fit &= ~holding[unit]
    candidates = group.candidates
    while fit:
        index = fit & -fit
        fit ^= index
        index = index.bit_length() - 1
        _, _, take, gain, piece = candidates[index]
        left = rem - take
        step = memo.get(left)
        if step is None:
            below = None if bounds is None else bound - bounds.weights[index]
            best_gain(left, groups, memo, loose, additive, below)
            step = memo[left]
        total = gain + step[0]
        if total > found:
            found, choice, after, whole = total, piece, left, step[3]
            if whole and additive:
                break
            if bounds is not None:
                fit &= bounds.under[bisect_left(bounds.losses, bound - found)]
    else:
        below = None if bounds is None else bound - bounds.ceiling
        if (loose or low >= FIRST_TOKEN) and (below is None or below > found):
            left = rem - low
            step = memo.get(left)
            if step is None:
                best_gain(left, groups, memo, loose, additive, below)
                step = memo[left]
            if step[0] > found:
                found, choice, after, whole = step[0], None, left, low >= FIRST_TOKEN and step[3]
    memo[key] = (found, choice, after, kept and whole)
    return found


def best_path(
    rem: int, groups: _Groups, memo: _Memo, loose: bool, additive: bool = False
) -> tuple[int, list[Piece]]:
    """Return the best gain from rem and the first packing, in tie-break order, reaching it.

    (A bounded search asks best_gain first, with its bound: the path then reads the memo.)"""
    found = best_gain(rem, groups, memo, loose, additive)
    chosen: list[Piece] = []
    if found < 0:
        return found, chosen
    while rem > JOKERS:
        piece, rem = memo[rem][1:3]
        if piece is not None:
            chosen.append(as_piece(piece))
    return found, chosen


def every_path(
    rem: int, groups: _Groups, memo: _Memo, additive: bool = False
) -> Iterator[list[Piece]]:
    """Yield every packing, in tie-break order, that reaches the best melded value."""
    if rem <= JOKERS:
        yield []
        return
    present = (rem | rem >> 1) & PRESENT
    low = present & -present
    target = best_gain(rem, groups, memo, True, additive) // GAIN_SCALE
    group = groups.get(low)
    fit = 0 if group is None else _fitting(group, present, rem & JOKERS)
    while fit:
        index = fit & -fit
        fit ^= index
        _, _, take, gain, piece = group.candidates[index.bit_length() - 1]
        if (gain + best_gain(rem - take, groups, memo, True, additive)) // GAIN_SCALE == target:
            for rest in every_path(rem - take, groups, memo, additive):
                yield [as_piece(piece), *rest]
    if best_gain(rem - low, groups, memo, True, additive) // GAIN_SCALE == target:
        yield from every_path(rem - low, groups, memo, additive)


def disjoint(candidates: Sequence[Candidate]) -> list[Piece] | None:
    """Return all the candidates when no two share a card (then taking all is best), else None."""
    union = 0
    for _, mask, _, _, _ in candidates:
        if union & mask:
            return None
        union |= mask
    return [as_piece(candidate[4]) for candidate in candidates]


def without_cards(state: int, cards: Sequence[Card]) -> int:
    for card in cards:
        state -= UNIT[SUIT_BASE[card.suit] + card.rank]
    return state
