"""Table melds as layoffs see them (Shape), every mix of cards and jokers each can take,
and the table after the layoffs of a packing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import chain, combinations
from typing import NamedTuple

from scoring.cards import JOKER, SUITS, Card, DeckSpec, check_copies
from scoring.melds import MAX_RUN, Meld, MeldRules, check_meld
from scoring.solver.bits import (
    BASES,
    CARD_AT,
    FIRST_TOKEN,
    LAYOFF,
    MAX_TABLE_MELDS,
    SUIT_BASE,
    Candidate,
    Piece,
    make_candidate,
    position_rank,
    run_bounds,
)
from scoring.solver.jokers import set_piece
from scoring.solver.tables import Tables, meld_gain


def _distinct(
    pieces: Iterator[Piece], tables: Tables, joker_value: int, token: Callable[[Piece], int]
) -> list[Candidate]:
    """Return a candidate per (naturals, jokers) taken: the highest gain, then reaching highest."""
    kept: dict[int, Candidate] = {}
    for piece in pieces:
        candidate = make_candidate(piece, meld_gain(piece, tables, joker_value), token(piece))
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
        bit = base + position_rank(position)
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
    mask: int, jokers: int, shape: Shape, index: int, rules: MeldRules
) -> Iterator[Piece]:
    """Yield every legal mix of the hand's cards and jokers that one table meld can take."""
    shown_jokers = sum(shape.jokers)
    naturals = len(shape.slots) - shown_jokers
    most = jokers
    if rules.max_jokers is not None:
        most = max(0, min(most, rules.max_jokers - shown_jokers))
    if shape.meld.kind == "set":
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
                    yield from set_piece(
                        suits, shown, added, rank, total, rules, index, joker_suits
                    )
        return
    yield from _run_layoffs(mask, shape, index, most, rules)


def _run_layoffs(
    mask: int, shape: Shape, index: int, most: int, rules: MeldRules
) -> Iterator[Piece]:
    """Yield the cards and up to ``most`` jokers a table run can take at its two ends."""
    shown_jokers = sum(shape.jokers)
    naturals = len(shape.slots) - shown_jokers
    base = shape.slots[0] & ~15
    room = MAX_RUN - len(shape.slots)
    bottom, top = run_bounds(rules)
    first, last = shape.first, shape.last
    downs = _chains(
        mask, base, first - 1, -1, max(bottom, first - room), most, shape.jokers[0], rules
    )
    ups = _chains(mask, base, last + 1, 1, min(top, last + room), most, shape.jokers[-1], rules)
    # Each end's chains with their jokers and naturals counted once; the inner loop stops at
    # the first up chain too long to fit beside the down one (chains come shortest first).
    # Layoffs of the same cards and number of jokers differ only in where they reach, and
    # the search keeps the one reaching highest (see _distinct): only that one is made.
    ups_read = [(len(up), up, *_chain_read(up)) for up in ups]
    within = rules.jokers_within_naturals
    best: dict[tuple[int, int], tuple[tuple, tuple]] = {}
    for down in downs:
        down_jokers, down_naturals = _chain_read(down)
        down_length = len(down)
        fits = room - down_length
        spare = most - down_jokers  # the jokers an up chain may still add
        for up_length, up, up_jokers, up_naturals in ups_read:
            if up_length > fits:
                break
            if up_jokers > spare or not (down_length or up_length):
                continue
            added = down_jokers + up_jokers
            laid = down_length + up_length
            if within and shown_jokers + added > naturals + laid - added:
                continue
            key = (down_naturals | up_naturals, added)
            kept = best.get(key)
            if kept is None or up_length > len(kept[1]):
                best[key] = (down, up)
    for down, up in best.values():
        laid = down + up
        yield Piece(
            LAYOFF,
            tuple(bit for bit, joker in laid if not joker),
            base,
            first - len(down),
            last + len(up),
            target=index,
            jokers=sum(joker for _, joker in laid),
            places=tuple(bit for bit, _ in laid),
        )


def _chain_read(chain: tuple[tuple[int, bool], ...]) -> tuple[int, int]:
    """Return a chain's jokers and the mask of its natural cards."""
    jokers = naturals = 0
    for bit, joker in chain:
        if joker:
            jokers += 1
        else:
            naturals |= 1 << bit
    return jokers, naturals


def _token(index: int) -> int:
    return FIRST_TOKEN << (2 * index)


def all_tokens(melds: int) -> int:
    """Return the tokens of that many table melds: each may still take a layoff."""
    return sum(_token(index) for index in range(melds))


def layoff_candidates(
    mask: int, jokers: int, shapes: Sequence[Shape], tables: Tables, joker_value: int
) -> list[Candidate]:
    """Return the layoffs the hand can make, one candidate per table meld and cards taken."""
    pieces = chain.from_iterable(
        _layoffs_onto(mask, jokers, shape, index, tables.rules)
        for index, shape in enumerate(shapes)
    )
    return _distinct(pieces, tables, joker_value, lambda piece: _token(piece.target))


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
