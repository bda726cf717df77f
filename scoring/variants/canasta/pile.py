"""Canasta's discard pile in move-by-move play (CAN-PILE-1): when it may be taken, and what
its top card must go to the table with.

Readings (the classic rules, as the package's sources give them):

- The pile is frozen for everyone while it holds a wild card or a red 3 (one turned up as
  the first upcard), and frozen for a side that has not melded before this turn. Frozen,
  the top card goes to the table with two natural cards of its rank from the hand.
- Unfrozen, the top card goes to the table with two cards of the hand, one natural of its
  rank at least and one wild at most (a natural pair, or a natural and a wild), or onto
  the side's meld of its rank.
- A wild card or a 3 on top cannot be taken: no meld takes it as its rank (a black 3 is
  discarded to stop the next player, CAN-MELD-3).
- "From the hand" is the hand as it was before the pile came to it; the cards the log does
  not name count as any card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.melds import Meld
from scoring.play.state import Play, side_seats
from scoring.variants.canasta.cards import THREE_RANK, is_red_three, is_wild

PAIR = 2


def frozen(play: Play, seat: int, pile: Sequence[Card]) -> bool:
    """Tell whether the pile is frozen for the seat's side (CAN-PILE-1): it holds a wild or
    a red 3, or the side had melded nothing before this turn."""
    if any(is_wild(card) or is_red_three(card) for card in pile):
        return True
    return not any(
        play.hands[s].opened and (s != seat or (play.hands[s].opened_turn or 0) < play.turn_number)
        for s in side_seats(play.rules, seat)
    )


def pile_take_check(play: Play, seat: int) -> RuleViolation | None:
    """Refuse taking a pile whose top no meld can take: a wild, a red 3 or a black 3."""
    top = play.discard[-1]
    if not (is_wild(top) or top.rank == THREE_RANK):
        return None
    name = play.seats[seat]
    if top.rank == THREE_RANK and not is_red_three(top):
        return _refuse(
            "CAN-PILE-1",
            "black_three_on_top",
            f"A black 3 ({top.label}) tops the discard pile: {name} cannot take it.",
            player=name,
            card=str(top),
        )
    return _refuse(
        "CAN-PILE-1",
        "wild_on_top",
        f"{top.label} tops the discard pile: no meld takes it, so {name} cannot take the pile.",
        player=name,
        card=str(top),
    )


def from_hand(play: Play, cards: Sequence[Card]) -> list[Card]:
    """Return those of ``cards`` the hand held before it took the pile (its named cards
    first, then any of the cards the log does not name)."""
    hand = play.pile_hand
    if hand is None:
        return []
    known, unknown, held = Counter(hand.known), hand.unknown, []
    for card in cards:
        if known[card]:
            known[card] -= 1
            held.append(card)
        elif unknown:
            unknown -= 1
            held.append(card)
    return held


def pile_top_check(
    play: Play, seat: int, cards: Sequence[Card], meld: Meld | None
) -> RuleViolation | None:
    """Refuse placing the pile's top card without what the pile asks (module docstring)."""
    top = play.owed_card
    if top is None:
        return None
    others = list(cards)
    others.remove(top)
    held = from_hand(play, others)
    naturals = sum(1 for card in held if not is_wild(card) and card.rank == top.rank)
    wilds = sum(1 for card in held if is_wild(card))
    name = play.seats[seat]
    if frozen(play, seat, play.pile_taken):
        if naturals >= PAIR:
            return None
        return _refuse(
            "CAN-PILE-1",
            "frozen_pile",
            f"The pile is frozen for {name}'s side: its top card {top.label} goes to the "
            "table with two natural cards of its rank from the hand.",
            player=name,
            card=str(top),
        )
    if meld is not None or naturals >= PAIR or (naturals and wilds):
        return None
    return _refuse(
        "CAN-PILE-1",
        "pile_pair",
        f"{top.label} from the pile goes onto the side's meld of its rank, or with a natural "
        "pair, or a natural and a wild, from the hand.",
        player=name,
        card=str(top),
    )
