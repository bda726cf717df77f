"""Table melds as layoffs see them (Shape), every mix of cards and jokers each can take,
and the table after the layoffs of a packing.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import NamedTuple

from scoring.cards import JOKER, SUITS, Card, DeckSpec, check_copies
from scoring.melds import MAX_RUN, Meld, MeldRules, check_meld
from scoring.solver.bits import (
    BASES,
    CARD_AT,
    FIRST_TOKEN,
    GAIN_SCALE,
    LAYOFF,
    MAX_TABLE_MELDS,
    SUIT_BASE,
    UNIT,
    Candidate,
    Piece,
    make_candidate,
    position_rank,
    run_bounds,
)
from scoring.solver.jokers import set_piece
from scoring.solver.tables import Tables, meld_gain


def _distinct(
    pieces: Iterator[Piece], tables: Tables, joker_value: int, token: int
) -> list[Candidate]:
    """Return a candidate per (naturals, jokers) taken: the highest gain, then reaching highest."""
    kept: dict[int, Candidate] = {}
    for piece in pieces:
        candidate = make_candidate(piece, meld_gain(piece, tables, joker_value), token)
        # The take (cards, jokers, token) names what the candidate uses from the hand.
        other = kept.get(candidate[2])
        if other is None or (candidate[3], piece.last) > (other[3], other[4].last):
            kept[candidate[2]] = candidate
    return list(kept.values())


class Shape(NamedTuple):
    """Describe a table meld as layoffs see it."""

    meld: Meld  # in meld order, jokers with what they stand for
    slots: tuple[int, ...]  # the card bit each position stands for
    jokers: tuple[bool, ...]  # which positions hold a joker
    first: int  # runs: the line positions of the ends
    last: int


def _shape(meld: Meld, rules: MeldRules) -> Shape:
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
    slots = tuple(SUIT_BASE[card.suit] + card.rank for card in shown)
    first = shown[0].rank if checked.kind == "run" else 0
    return Shape(checked, slots, flags, first, first + len(shown) - 1)


# A chain of cards and jokers laid at one end of a table run, read as it grows: (length,
# jokers, natural cards as bits, their units, their value, the chain as (card bit, joker?)).
_Chain = tuple[int, int, int, int, int, tuple[tuple[int, bool], ...]]


def _chains(
    mask: int,
    base: int,
    start: int,
    step: int,
    stop: int,
    most: int,
    after_joker: bool,
    rules: MeldRules,
    values: Sequence[int],
) -> list[_Chain]:
    """Return every way to extend a run outward from a position, shortest first."""
    chains: list[_Chain] = [(0, 0, 0, 0, 0, ())]
    frontier = [(chains[0], after_joker)]
    position = start
    length = 0
    while frontier and (position - stop) * step <= 0:
        bit = base + position_rank(position)
        held = mask >> bit & 1
        card, unit, value = 1 << bit, UNIT[bit], values[bit]
        natural, joker = (bit, False), (bit, True)
        length += 1
        grown = []
        for (_, used, naturals, units, total, laid), joker_before in frontier:
            if held:
                longer = (*laid, natural)
                chain = (length, used, naturals | card, units + unit, total + value, longer)
                grown.append((chain, False))
            if used < most and (rules.adjacent_jokers or not joker_before):
                grown.append(((length, used + 1, naturals, units, total, (*laid, joker)), True))
        chains.extend(chain for chain, _ in grown)
        frontier = grown
        position += step
    return chains


def _most_jokers(jokers: int, shape: Shape, rules: MeldRules) -> int:
    """Return the jokers the hand may lay onto one table meld (max_jokers counts its own)."""
    if rules.max_jokers is None:
        return jokers
    return max(0, min(jokers, rules.max_jokers - sum(shape.jokers)))


def _set_layoffs(
    mask: int, jokers: int, shape: Shape, index: int, rules: MeldRules
) -> Iterator[Piece]:
    """Yield every legal mix of the hand's cards and jokers that one table set can take."""
    shown_jokers = sum(shape.jokers)
    naturals = len(shape.slots) - shown_jokers
    most = _most_jokers(jokers, shape, rules)
    if not rules.adjacent_jokers and not rules.fixed_groups:
        # RAM-OPT-FIXEDJOKER: two jokers in a set count as side by side (see set_piece).
        most = max(0, min(most, 1 - shown_jokers))
    rank = CARD_AT[shape.slots[0]].rank
    shown = [slot // 16 for slot in shape.slots]
    joker_suits = [
        slot // 16 for slot, joker in zip(shape.slots, shape.jokers, strict=True) if joker
    ]
    limit = min(rules.max_set, len(SUITS))
    free = [i for i in range(len(SUITS)) if i not in shown and mask >> (BASES[i] + rank) & 1]
    for size in range(len(free) + 1):
        for suits in combinations(free, size):
            for added in range(0 if size else 1, most + 1):
                total = len(shown) + size + added
                over = rules.jokers_within_naturals and shown_jokers + added > naturals + size
                if total > limit or over:
                    break
                yield from set_piece(suits, shown, added, rank, total, rules, index, joker_suits)


# Listing the layoffs onto a table run pairs every chain down with every chain up.
# long: thousands of pairs, with jokers; split, the pairs paid a call each.
def _run_candidates(
    mask: int, jokers: int, shape: Shape, index: int, tables: Tables, joker_value: int
) -> list[Candidate]:
    """Return the candidates of the cards and jokers a table run can take at its two ends.

    Layoffs of the same cards and number of jokers differ only in where they reach, and the
    search keeps the one reaching highest: only that one is kept, in the order each is first
    found (the down chains in turn, each with the up chains, shortest first). Each is a
    candidate at once (its units, value and cards summed from its two chains) and a piece
    only when the search takes it (see as_piece).
    """
    rules = tables.rules
    most = _most_jokers(jokers, shape, rules)
    shown_jokers = sum(shape.jokers)
    naturals = len(shape.slots) - shown_jokers
    base = shape.slots[0] & ~15
    room = MAX_RUN - len(shape.slots)
    bottom, top = run_bounds(rules)
    first, last = shape.first, shape.last
    values = tables.values
    down_to = max(bottom, first - room)
    downs = _chains(mask, base, first - 1, -1, down_to, most, shape.jokers[0], rules, values)
    up_to = min(top, last + room)
    ups = _chains(mask, base, last + 1, 1, up_to, most, shape.jokers[-1], rules, values)
    # The up chains with at most j jokers, shortest first, and their lengths: each down
    # chain meets only the up chains it can take (those that fit: a prefix).
    by_jokers = [[up for up in ups if up[1] <= j] for j in range(most + 1)]
    lengths = [[up[0] for up in fit] for fit in by_jokers]
    within = rules.jokers_within_naturals
    best: dict[int, tuple[_Chain, _Chain]] = {}
    for down in downs:
        down_length, down_jokers, down_naturals = down[0], down[1], down[2]
        spare = most - down_jokers  # the jokers an up chain may still add
        fits = bisect_right(lengths[spare], room - down_length)
        for up in by_jokers[spare][:fits]:
            added = down_jokers + up[1]
            laid = down_length + up[0]
            if not laid or (within and shown_jokers + added > naturals + laid - added):
                continue
            # The naturals and jokers laid; jokers fit in 4 bits, as in the search state.
            key = (down_naturals | up[2]) << 4 | added
            kept = best.get(key)
            if kept is None or up[0] > kept[1][0]:
                best[key] = (down, up)
    token = _token(index)
    found = []
    for down, up in best.values():
        down_length, added = down[0], down[1] + up[1]
        cards = down_length + up[0]
        units = token + down[3] + up[3]
        gain = (down[4] + up[4] + added * joker_value) * GAIN_SCALE + cards
        made = (down[5] + up[5], base, first - down_length, last + up[0], index)
        found.append((LAYOFF - 4 * cards, units, units + added, gain, made))
    return found


def _token(index: int) -> int:
    return FIRST_TOKEN << (2 * index)


def all_tokens(melds: int) -> int:
    """Return the tokens of that many table melds: each may still take a layoff."""
    return sum(_token(index) for index in range(melds))


def layoff_candidates(
    mask: int, jokers: int, shapes: Sequence[Shape], tables: Tables, joker_value: int
) -> list[Candidate]:
    """Return the layoffs the hand can make, one candidate per table meld and cards taken.

    Layoffs are asked with card values (tables_for), never an opening's VALUE: a layoff's
    gain is the value of what it lays.
    """
    found: list[Candidate] = []
    # Two decks put the same run on the table twice: its layoffs are listed once.
    runs: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[int, list[Candidate]]] = {}
    for index, shape in enumerate(shapes):
        # Each table meld's token is its own, so no two melds' layoffs take the same.
        if shape.meld.kind == "set":
            pieces = _set_layoffs(mask, jokers, shape, index, tables.rules)
            found += _distinct(pieces, tables, joker_value, _token(index))
            continue
        like = runs.get((shape.slots, shape.jokers))
        if like is None:
            listed = _run_candidates(mask, jokers, shape, index, tables, joker_value)
            runs[shape.slots, shape.jokers] = (index, listed)
        else:
            listed = _onto_another(*like, index)
        found += listed
    return found


def _onto_another(index: int, listed: list[Candidate], other: int) -> list[Candidate]:
    """Return the layoffs onto table meld ``index`` as layoffs onto a like meld, ``other``."""
    moved = _token(other) - _token(index)
    return [
        (order, units + moved, take + moved, gain, (*made[:4], other))
        for order, units, take, gain, made in listed
    ]


def _grown(shape: Shape, piece: Piece | None) -> Meld:
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
    represents = tuple(CARD_AT[bit] for bit, _ in slots)
    cards = tuple(
        JOKER if joker else card for (_, joker), card in zip(slots, represents, strict=True)
    )
    return Meld(shape.meld.kind, cards, represents if JOKER in cards else ())


def _laid_cards(piece: Piece) -> list[Card]:
    naturals = set(piece.bits)
    return [CARD_AT[bit] if bit in naturals else JOKER for bit in piece.places or piece.bits]


def table_shapes(
    cards: Sequence[Card], onto: Sequence[Meld], rules: MeldRules, deck: DeckSpec
) -> list[Shape]:
    """Return the shapes of the table melds, refusing cards shown too often (CARD-2)."""
    shapes = [_shape(meld, rules) for meld in onto]
    shown = [card for shape in shapes for card in shape.meld.cards]
    check_copies([*cards, *shown], deck)
    if len(shapes) > MAX_TABLE_MELDS:
        raise ValueError(f"at most {MAX_TABLE_MELDS} table melds")
    return shapes


def laid_out(
    pieces: Sequence[Piece], shapes: Sequence[Shape]
) -> tuple[tuple[tuple[Card, int], ...], tuple[Meld, ...]]:
    """Return the layoffs of a packing, (card, table meld index) as laid, and the grown melds."""
    laid = sorted((piece for piece in pieces if piece.kind == LAYOFF), key=lambda p: p.target)
    by_target = {piece.target: piece for piece in laid}
    layoffs = tuple((card, piece.target) for piece in laid for card in _laid_cards(piece))
    grown = tuple(_grown(shape, by_target.get(index)) for index, shape in enumerate(shapes))
    return layoffs, grown
