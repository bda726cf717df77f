"""The least deadwood: best_arrangement, deadwood_count, min_arrangements, and best_layoff
(own melds and layoffs onto table melds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from scoring.cards import Card, DeckSpec
from scoring.melds import MIN_MELD, Meld, MeldRules
from scoring.solver.bits import GAIN_SCALE, cards_of
from scoring.solver.layoffs import all_tokens, laid_out, layoff_candidates, table_shapes
from scoring.solver.packing import packing_arrangement, solve
from scoring.solver.results import ONE_DECK, Arrangement, LayoffResult, Value
from scoring.solver.search import (
    disjoint,
    every_path,
    group_candidates,
    held_mask,
    new_memo,
    read_hand,
    within_candidates,
)
from scoring.solver.tables import natural_candidates, tables_for


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
    search = read_hand(cards, tables_for(rules, value), value, deck)
    candidates = search.candidates
    if search.simple:
        if not candidates:
            # Most hands dealt hold no meld at all: nothing to search.
            return Arrangement((), cards_of(search.mask), search.total)
        pieces = disjoint(candidates)
        if pieces is not None:
            return packing_arrangement(search, pieces)
    return packing_arrangement(search, solve(search, candidates))


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
    tables = tables_for(rules, value)
    mask, total = held_mask(cards, tables.values)
    if mask >> 64 or mask.bit_count() != len(cards):  # jokers or copies
        return best_arrangement(cards, rules=rules, value=value, deck=deck).count
    candidates = natural_candidates(mask, tables)
    most = 0  # the highest gain of a packing (value * GAIN_SCALE + cards)
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
    return total - most // GAIN_SCALE


def min_arrangements(
    cards: Sequence[Card], *, rules: MeldRules, value: Value, deck: DeckSpec = ONE_DECK
) -> tuple[Arrangement, ...]:
    """Return every distinct arrangement (multiset of melds) that reaches the minimum deadwood.

    Fewer deadwood cards come first, then the tie-break order of best_arrangement. Melds with
    jokers count as distinct by the cards they take and the number of jokers, each shown with
    one placement of its jokers.
    """
    search = read_hand(cards, tables_for(rules, value), value, deck)
    candidates = search.candidates
    if search.simple:
        pieces = disjoint(candidates)
        if pieces is not None:
            # No two candidates share a card, so taking them all is the one minimum.
            return (packing_arrangement(search, pieces),)
    groups = group_candidates(candidates, search.jokers)
    memo = new_memo(search.jokers, True)
    found: dict[frozenset[tuple[Meld, int]], Arrangement] = {}
    start = within_candidates(search, candidates)
    for pieces in every_path(start, groups, memo, search.tables.opening is None):
        arrangement = packing_arrangement(search, pieces)
        found.setdefault(frozenset(Counter(arrangement.melds).items()), arrangement)
    return tuple(sorted(found.values(), key=lambda arrangement: len(arrangement.deadwood)))


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
    shapes = table_shapes(cards, onto, rules, deck)
    search = read_hand(cards, tables_for(rules, value), value, deck)
    candidates = search.candidates + layoff_candidates(
        search.mask, search.jokers, shapes, search.tables, search.joker_value
    )
    pieces = solve(search, candidates, all_tokens(len(shapes)))
    arrangement = packing_arrangement(search, pieces)
    layoffs, grown = laid_out(pieces, shapes)
    return LayoffResult(arrangement.melds, layoffs, arrangement.deadwood, arrangement.count, grown)
