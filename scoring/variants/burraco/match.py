"""A Burraco match (BUR-MATCH) and how a league reads it: the pairs' totals, when the match
ends, who won, and each hand's counts.

To a target (2005 unless chosen): the match is over after the hand in which a pair's total
reaches it, and the higher total wins; should both pairs stand level at or over the target,
the match plays on until one is ahead after a hand. By a number of hands (``hands``): over
after that many, the higher total winning; level totals then share the match (all four
seats win), as a tournament's even match scores both pairs alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from scoring.hands import MatchOutcome
from scoring.side_scores import match_result as side_match_result
from scoring.side_scores import side_points as side_seat_points
from scoring.side_scores import side_totals as totals_by_side
from scoring.variants.burraco.cards import PAIRS
from scoring.variants.burraco.melds import PULITO, SEMIPULITO, SPORCO
from scoring.variants.burraco.options import BurracoOptions
from scoring.variants.burraco.scoring import BurracoHand, pair_of

COUNTS = (
    "closings",
    "burraco_pulito",
    "burraco_semipulito",
    "burraco_sporco",
    "pozzetti_missed",
)


def pair_totals(totals: Sequence[int]) -> tuple[int, ...]:
    """Return each pair's total, read from its first seat (both partners hold the same)."""
    return totals_by_side(totals, PAIRS)


def may_end(options: BurracoOptions, totals: Sequence[int], hands: int) -> bool:
    """Tell whether the match is over with these seat totals after ``hands`` hands: the
    number of hands played, or a pair at the target and ahead."""
    if options.hands:
        return hands >= options.hands
    first, second = pair_totals(totals)
    return max(first, second) >= options.target and first != second


def match_result(options: BurracoOptions, hand_results: Sequence[BurracoHand]) -> MatchOutcome:
    """Walk the hands in order and say whether the match is over and who won (BUR-MATCH):
    both partners of the pair with the higher total; a hand after the match's end is
    refused."""
    return side_match_result(
        hand_results, lambda totals, hands: may_end(options, totals, hands), "BUR-MATCH", PAIRS
    )


def hand_winners(result: BurracoHand) -> tuple[int, ...]:
    """Return both seats of the pair that scored more in the hand (none on a tie)."""
    return result.winners


def hand_counts(result: BurracoHand, seat: int) -> Counter[str]:
    """Count, for one seat, its pair's closing, burracos by kind and missed pozzetto."""
    sheet = result.pairs[pair_of(seat)].sheet
    return Counter(
        closings=int(sheet.closed),
        burraco_pulito=getattr(sheet, PULITO),
        burraco_semipulito=getattr(sheet, SEMIPULITO),
        burraco_sporco=getattr(sheet, SPORCO),
        pozzetti_missed=int(not sheet.pozzetto),
    )


def pair_points(
    totals: Sequence[int], results: Sequence[BurracoHand], seat: int
) -> tuple[Fraction, Fraction]:
    """Return the seat's pair's total as points for, and the other pair's as against."""
    return side_seat_points(totals, seat, PAIRS)
