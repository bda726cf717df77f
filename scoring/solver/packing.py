"""From a packing (the pieces the search took) to what people see: melds, touching natural
run pieces merged back, and the arrangement with its deadwood.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from scoring.cards import JOKER, sort_cards
from scoring.melds import MAX_RUN, Meld, MeldRules
from scoring.solver.bits import (
    CARD_AT,
    FIRST_TOKEN,
    LAYOFF,
    RUN,
    SUIT_BASE,
    Candidate,
    Piece,
    cards_of,
    position_rank,
)
from scoring.solver.bounded import bounded_path
from scoring.solver.results import Arrangement
from scoring.solver.search import Search, best_path, group_candidates, new_memo, within_candidates
from scoring.solver.tables import piece_meld


def _follows(a: Piece, b: Piece, rules: MeldRules) -> bool:
    if a.suit_base != b.suit_base:
        return False
    if rules.wrap:
        return a.last % MAX_RUN + 1 == position_rank(b.first)
    return a.last + 1 == b.first


def _touching(pieces: Sequence[Piece], rules: MeldRules) -> tuple[int, int] | None:
    """Return the positions of two natural run pieces of which the second follows the first."""
    runs = [i for i, piece in enumerate(pieces) if piece.kind == RUN and not piece.jokers]
    if len(runs) < 2:
        return None
    # A run never follows itself, not even all 13 cards of a suit round the corner; with two
    # decks the same piece may be taken twice, so pieces are told apart by position.
    return next(
        ((i, j) for i in runs for j in runs if i != j and _follows(pieces[i], pieces[j], rules)),
        None,
    )


def packing_melds(
    pieces: Sequence[Piece], rules: MeldRules, merge: bool = True
) -> tuple[Meld, ...]:
    """Return the melds of a packing, natural run pieces that touch merged back into one run."""
    pieces = [piece for piece in pieces if piece.kind != LAYOFF]
    touching = merge and len(pieces) > 1 and _touching(pieces, rules)
    while touching:
        i, j = touching
        a, b = pieces[i], pieces[j]
        merged = a._replace(bits=a.bits + b.bits, last=a.last + len(b.bits), meld=None)
        pieces = [piece for k, piece in enumerate(pieces) if k not in touching]
        pieces.append(merged)
        touching = _touching(pieces, rules)
    pieces.sort(key=_first_card)
    return tuple(piece.meld or piece_meld(piece, rules) for piece in pieces)


def _first_card(piece: Piece) -> int:
    return piece.bits[0]


def packing_arrangement(search: Search, pieces: Sequence[Piece], merge: bool = True) -> Arrangement:
    """Return the arrangement of a packing: the melds, and every card no piece takes."""
    values = search.tables.values
    melds = packing_melds(pieces, search.tables.rules, merge)
    if search.simple:
        melded = 0
        count = search.total
        for piece in pieces:
            for bit in piece.bits:
                melded |= 1 << bit
                count -= values[bit]
        return Arrangement(melds, cards_of(search.mask & ~melded), count)
    left = Counter(search.cards)
    for piece in pieces:
        left.subtract(CARD_AT[bit] for bit in piece.bits)
        left[JOKER] -= piece.jokers
    deadwood = sort_cards(left.elements())
    count = sum(
        search.joker_value if card.is_joker else values[SUIT_BASE[card.suit] + card.rank]
        for card in deadwood
    )
    return Arrangement(melds, deadwood, count)


def solve(search: Search, candidates: Sequence[Candidate], tables: int = 0) -> list[Piece]:
    """Return the first best packing of the candidates (the loose search)."""
    start = within_candidates(search, candidates, tables)
    additive = search.tables.opening is None
    if additive and start >= FIRST_TOKEN:
        # Layoffs onto table melds: the same packing, bounded (see bounded.py).
        return bounded_path(start, candidates, search.jokers)
    groups = group_candidates(candidates, search.jokers)
    return best_path(start, groups, new_memo(search.jokers, True), True, additive)[1]
