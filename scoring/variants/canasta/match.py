"""A Canasta match (CAN-MATCH-1) and how a league reads it: the sides' totals, when the
match ends, who won, each hand's counts; and the first meld's minimum a side's total sets
(CAN-OPEN-1).

The match is over after the hand in which a side's total reaches the target (5000 unless
chosen), the higher total winning; should both sides stand level at or over it, the match
plays on until one is ahead after a hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from scoring.hands import MatchOutcome
from scoring.side_scores import match_result as side_match_result
from scoring.side_scores import side_points as side_seat_points
from scoring.side_scores import side_totals as totals_by_side
from scoring.variants.canasta.cards import PAIRS
from scoring.variants.canasta.options import CanastaOptions
from scoring.variants.canasta.scoring import CanastaHand, side_of

COUNTS = ("went_out", "canasta_natural", "canasta_mixed", "red_threes")
# CAN-OPEN-1: the first meld's least worth by the side's total before the hand, as
# (the least total of the band, the minimum): negative 15, 0 to 1495 50, 1500 to 2995 90,
# 3000 and more 120.
OPENING_BANDS = ((3000, 120), (1500, 90), (0, 50))
NEGATIVE_OPENING = 15


def first_meld_minimum(total: int) -> int:
    """Return the least a side's first meld of the hand must be worth, by its total before
    the hand (CAN-OPEN-1); red 3s and canasta bonuses never count toward it."""
    return next((least for floor, least in OPENING_BANDS if total >= floor), NEGATIVE_OPENING)


def side_totals(totals: Sequence[int]) -> tuple[int, ...]:
    """Return each side's total, read from its first seat (both partners hold the same)."""
    return totals_by_side(totals, PAIRS)


def may_end(options: CanastaOptions, totals: Sequence[int], hands: int) -> bool:
    """Tell whether the match is over with these seat totals: a side at the target and
    ahead."""
    first, second = side_totals(totals)
    return max(first, second) >= options.target and first != second


def match_result(options: CanastaOptions, hand_results: Sequence[CanastaHand]) -> MatchOutcome:
    """Walk the hands in order and say whether the match is over and who won (CAN-MATCH-1):
    both partners of the side with the higher total; a hand after the end is refused."""
    return side_match_result(
        hand_results, lambda totals, hands: may_end(options, totals, hands), "CAN-MATCH-1", PAIRS
    )


def hand_winners(result: CanastaHand) -> tuple[int, ...]:
    """Return both seats of the side that scored more in the hand (none on a tie)."""
    return result.winners


def hand_counts(result: CanastaHand, seat: int) -> Counter[str]:
    """Count, for one seat, its side's going out, canastas by kind and red 3s."""
    sheet = result.pairs[side_of(seat)].sheet
    return Counter(
        went_out=int(sheet.went_out),
        canasta_natural=sheet.natural,
        canasta_mixed=sheet.mixed,
        red_threes=sheet.red_threes,
    )


def side_points(
    totals: Sequence[int], results: Sequence[CanastaHand], seat: int
) -> tuple[Fraction, Fraction]:
    """Return the seat's side's total as points for, and the other side's as against."""
    return side_seat_points(totals, seat, PAIRS)
