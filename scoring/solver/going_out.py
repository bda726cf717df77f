"""Going out (can_go_out) and the most valuable opening (best_opening), with the
violations that say why a hand cannot go out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from scoring.cards import Card, DeckSpec, sort_cards
from scoring.errors import Violation
from scoring.melds import MIN_MELD, Meld, MeldRules
from scoring.solver.bits import GAIN_SCALE, NEVER, Piece
from scoring.solver.layoffs import Shape, all_tokens, laid_out, layoff_candidates, table_shapes
from scoring.solver.packing import packing_arrangement, packing_melds
from scoring.solver.results import ONE_DECK, Closing, GoOut, Opening, OpeningValue
from scoring.solver.search import (
    Search,
    best_gain,
    best_path,
    group_candidates,
    new_memo,
    opening_memo,
    read_hand,
    state_ceiling,
    whole_state,
    without_cards,
)
from scoring.solver.tables import Tables, build_tables, count_one, default_opening_value, tables_for


def best_opening(
    cards: Sequence[Card],
    *,
    rules: MeldRules,
    opening_value: OpeningValue | None = None,
    keep: int = 1,
    deck: DeckSpec = ONE_DECK,
) -> Opening:
    """Return the most valuable melds the hand can lay at once, keeping ``keep`` cards in hand.

    The value is the sum of opening_value over the melds (default: VALUE, as default_opening_value);
    a joker is placed where it is worth most. ``keep`` is 1 where a player must still
    discard (R40-HAND, RAM-TURN). Ties go to more cards laid, then to the first in the order
    of best_arrangement. With nothing to lay, the opening is empty and worth 0.
    """
    opening = opening_value or default_opening_value
    tables = build_tables(rules, count_one, opening)
    search = read_hand(cards, tables, count_one, deck)
    groups = group_candidates(search.candidates, search.jokers, tables.ceilings)
    memo = opening_memo(groups, search.jokers)
    state = whole_state(search)
    options: list[tuple[Card, ...]] = [()]
    if keep > 0:
        gain = best_gain(state, groups, memo, True, bound=_ceiling(state, tables))
        if gain % GAIN_SCALE > len(cards) - keep:
            # The best melds leave too few cards. Whichever cards a better opening keeps, it
            # is an opening of the hand without them: try each choice of cards to keep.
            options = list(dict.fromkeys(combinations(sort_cards(cards), keep)))
    top_gain, best_pieces = NEVER, []
    for kept in options:
        left = without_cards(state, kept)
        best_gain(left, groups, memo, True, bound=_ceiling(left, tables))
        gain, pieces = best_path(left, groups, memo, True)
        if gain > top_gain:
            top_gain, best_pieces = gain, pieces
    melds = packing_melds(best_pieces, rules, merge=False)
    arrangement = packing_arrangement(search, best_pieces, merge=False)
    laid = Counter(search.cards)
    laid.subtract(arrangement.deadwood)
    return Opening(
        melds,
        sum(opening(meld) for meld in melds),
        sort_cards(laid.elements()),
        arrangement.deadwood,
    )


def _ceiling(state: int, tables: Tables) -> int | None:
    """Return the most a state can gain where the tables bound the search (else None)."""
    return None if tables.ceilings is None else state_ceiling(state, tables.ceilings)


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
    opening = opening_value or default_opening_value
    if opened:
        shapes = table_shapes(cards, onto, rules, deck)
        tables = tables_for(rules, count_one)
    else:
        shapes = []
        tables = build_tables(rules, count_one, opening)
    search = read_hand(cards, tables, count_one, deck)
    outs, joker_barred = _outs(search, shapes, closing, None if opened else opening)
    if not outs:
        return GoOut(violation=_cannot_go_out(cards, closing, joker_barred))
    if not opened:
        best = max(value for _, _, value in outs)
        minimum = 0 if closing.hand_closure_free else closing.opening_minimum
        outs = [
            out
            for out in outs
            if out[2] >= minimum and len(cards) - (out[0] is not None) >= MIN_MELD
        ]
        if not outs:
            return GoOut(value=best, violation=_below_minimum(closing, best))
        # The most valuable opening goes out; the first of equals.
        outs.sort(key=lambda out: -out[2])
    discard, pieces, value = outs[0]
    layoffs, grown = laid_out(pieces, shapes)
    return GoOut(
        packing_melds(pieces, rules, merge=opened),
        layoffs,
        grown,
        discard,
        value,
        tuple(out[0] for out in outs),
    )


# A way out: the discard (None: none), the pieces laid, and the VALUE of the melds when the
# player had not opened (else 0).
_Out = tuple[Card | None, list[Piece], int]


def _outs(
    search: Search, shapes: Sequence[Shape], closing: Closing, opening: OpeningValue | None
) -> tuple[list[_Out], bool]:
    """Return every way out, in the order discards are tried, and whether a joker was barred.

    ``opening`` is set when the player has not opened: each way out is then valued.
    """
    tables = search.tables
    candidates = search.candidates
    if shapes:
        candidates = candidates + layoff_candidates(
            search.mask, search.jokers, shapes, tables, search.joker_value
        )
    ceilings = None if shapes else tables.ceilings
    groups = group_candidates(candidates, search.jokers, ceilings)
    memo = new_memo(search.jokers, False)
    # Before opening (no table melds), a loose search that melds every card says how the
    # strict one goes out, and the best opening reuses it: see opening_memo.
    loose = opening_memo(groups, search.jokers) if opening is not None and not shapes else None
    state = whole_state(search) + all_tokens(len(shapes))
    options: list[Card | None] = []
    if closing.discard != "required":
        options.append(None)
    if closing.discard != "none":
        options.extend(dict.fromkeys(sort_cards(search.cards)))
    outs: list[_Out] = []
    joker_barred = False
    for discard in options:
        left = state if discard is None else without_cards(state, [discard])
        bound = None if ceilings is None else state_ceiling(left, ceilings)
        if (
            loose is not None
            and best_gain(left, groups, loose, True, False, bound) >= 0
            and loose[left][3]
        ):
            gain, pieces = best_path(left, groups, loose, True)
        else:
            additive = tables.opening is None
            best_gain(left, groups, memo, False, additive, bound)
            gain, pieces = best_path(left, groups, memo, False, additive)
        if gain < 0:
            continue
        if discard is not None and closing.bars(discard):
            joker_barred = True
            continue
        melds = () if opening is None else packing_melds(pieces, tables.rules, False)
        outs.append((discard, pieces, sum(opening(meld) for meld in melds)))
    return outs, joker_barred


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
