"""The layoff search, bounded: the search of search.py, cut short by a bound on what each
state can still gain, for packings of a hand with layoffs onto table melds.

Why: each table meld's token multiplies the states (a state is the cards left *and* the
table melds that still take layoffs), and where no packing melds every card (two copies of
a card that only one meld can take, say) no state stops at a whole packing, so the full
search visits them all: over 10,000 for 15 Ramino cards onto five runs. The bound is the
best gain of the same candidates with the tokens of layoffs of cards never used up (each
table meld takes any number of them): that relaxed search sees only the cards left, a
fraction of the states, and gains at least what the true one does. The bounded search
skips every choice that cannot beat the best found so far even at its bound, and stops at
a state once it reaches its bound; what it says of a state is exact whenever it beats the
floor the state was asked for, so the packing it finds is the full search's, tie-breaks
included (bounded_gain says why).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from scoring.errors import refusal as _refuse
from scoring.solver.bits import FIRST_TOKEN, JOKERS, NEVER, PRESENT, Candidate, Piece, as_piece
from scoring.solver.search import (
    STATE_BUDGET,
    LazyGroups,
    _Groups,
    _Memo,
    best_gain,
    by_lowest,
    group_of,
    new_memo,
)

# The counts of cards and jokers in a state: every bit below the tokens.
CARD_PART = FIRST_TOKEN - 1


class _Bounded(NamedTuple):
    """Hold one bounded search: its groups, memos, and the relaxed search bounding it."""

    groups: _Groups
    memo: _Memo  # exact states only, as best_gain keeps them
    failed: dict[int, int]  # state -> a floor it cannot beat: its gain is at most that
    relaxed_groups: _Groups
    relaxed_memo: _Memo
    tokens: int  # every token of the start: the relaxed states hold them all


def _relaxed(candidates: dict[int, list[Candidate]], jokers: int) -> _Groups:
    """Return the groups of the candidates (by lowest card) with layoffs of cards leaving
    their table meld's token in place.

    Candidates taking the same cards and jokers are then alike (the same cards laid onto
    either of two like table melds, or melded in the hand), so each group keeps one of
    each: the relaxed search only says what a state can gain. Layoffs of jokers alone come
    after every card (tokens are the highest units) and use their token up as ever, so the
    relaxed search still ends.
    """
    relaxed = {}
    for low, listed in candidates.items():
        if low >= FIRST_TOKEN:
            relaxed[low] = group_of(listed, jokers)
            continue
        distinct: dict[int, Candidate] = {}
        for order, mask, take, gain, piece in listed:
            cards = mask & CARD_PART
            distinct.setdefault(take & CARD_PART, (order, cards, take & CARD_PART, gain, piece))
        relaxed[low] = group_of(list(distinct.values()), jokers)
    return relaxed


def bounded_path(start: int, candidates: Sequence[Candidate], jokers: int) -> list[Piece]:
    """Return the first best packing of the candidates from start (a state holding tokens),
    as best_path does with a loose search of additive gains: same gain, same pieces, fewer
    states. The search itself visits few states, so its groups are made as it asks."""
    by_low = by_lowest(candidates)
    relaxed_groups = _relaxed(by_low, jokers)
    tokens = start & ~CARD_PART
    memo = new_memo(jokers, True)
    groups = LazyGroups(by_low, jokers)
    bounds = _Bounded(groups, memo, {}, relaxed_groups, new_memo(jokers, True), tokens)
    # Gains of a loose search are never negative, so every state is worked out exactly.
    bounded_gain(start, -1, bounds)
    chosen: list[Piece] = []
    rem = start
    while rem > JOKERS:
        piece, rem = memo[rem][1:3]
        if piece is not None:
            chosen.append(as_piece(piece))
    return chosen


def _bound(state: int, bounds: _Bounded) -> int:
    """Return the relaxed best gain of a state's cards: at least the state's own best."""
    relaxed = (state & CARD_PART) | bounds.tokens
    step = bounds.relaxed_memo.get(relaxed)
    if step is not None:
        return step[0]
    return best_gain(relaxed, bounds.relaxed_groups, bounds.relaxed_memo, True, True)


# The hot loop of the layoff search, as best_gain is of every search.
# long: run once per state; split, it paid two calls a state (as best_gain would).
def bounded_gain(rem: int, floor: int, bounds: _Bounded) -> int:
    """Return the best gain from rem if above floor, memoised as best_gain does; else a gain
    at most floor, the state remembered as failing that floor.

    Exact above the floor: a choice is skipped or fails only when it cannot beat the best
    found before it, or the floor; so the best found above the floor is the best there is,
    and its choice the first reaching it, as in best_gain (a later choice replaces an
    earlier one only by gaining more). The search is loose with additive gains, so it stops
    at the first choice reaching the state's bound, as best_gain does at a whole packing.
    """
    memo = bounds.memo
    step = memo.get(rem)
    if step is not None:
        return step[0]
    failed = bounds.failed.get(rem)
    if failed is not None and failed <= floor:
        return failed
    if len(memo) + len(bounds.failed) > STATE_BUDGET:
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
    groups = bounds.groups
    group = groups.get(low)
    kept = True  # as in best_gain
    while group is None or not group.allowed[jokers]:
        if low < FIRST_TOKEN:
            kept = False
        rem &= ~(low | low << 1)
        present ^= low
        if not present:
            step = memo[rem]
            memo[key] = (step[0], None, rem, kept and step[3])
            return step[0]
        low = present & -present
        group = groups.get(low)
    bound = _bound(rem, bounds)
    if bound <= floor:
        bounds.failed[key] = bound
        return bound
    found = NEVER
    choice = None
    after = 0
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
        _, _, take, gain, piece = candidates[index.bit_length() - 1]
        left = rem - take
        step = memo.get(left)
        if step is not None:
            total = gain + step[0]
        else:
            beat = floor if floor > found else found
            if gain + _bound(left, bounds) <= beat:
                continue
            total = gain + bounded_gain(left, beat - gain, bounds)
        if total > found:
            found, choice, after = total, piece, left
            if found >= bound:
                break
    else:
        # Leave one copy of the lowest card (or a table meld's token) out, as best_gain does.
        left = rem - low
        beat = floor if floor > found else found
        if _bound(left, bounds) > beat:
            total = bounded_gain(left, beat, bounds)
            if total > found:
                found, choice, after = total, None, left
    if found <= floor:
        bounds.failed[key] = floor
        return found
    whole = kept and memo[after][3] and (choice is not None or low >= FIRST_TOKEN)
    memo[key] = (found, choice, after, whole)
    return found
