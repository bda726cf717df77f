"""A Burraco hand's score, pair by pair (BUR-SCORE): what the pair melded, its burracos,
its closing, less the cards both partners hold and the pozzetto it never took.

Both partners carry their pair's score as their own points, so running totals, the match's
end and the standings read a seat's points as in every other game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.hands import OUT, HandEnd, ScoreItem, hand_value
from scoring.side_scores import hand_dict, score_sides, side_items, side_of
from scoring.variants.burraco.cards import PAIRS, card_value
from scoring.variants.burraco.melds import BURRACO_BONUS, BURRACO_KINDS, SEMIPULITO, check_meld
from scoring.variants.burraco.options import BurracoOptions
from scoring.variants.burraco.sheet import CARDS, HandSheet, PairSheet, melds_sheet

CLOSING_BONUS = 100  # BUR-CLOSE
POZZETTO_PENALTY = 100  # BUR-POZZETTO: a pair that never took its pozzetto


@dataclass(frozen=True, slots=True)
class PairScore:
    """Hold one pair's hand: its seats, its sheet, and the parts of its score."""

    pair: int
    seats: tuple[int, ...]
    sheet: PairSheet

    @property
    def burraco_bonuses(self) -> dict[str, int]:
        """Return the bonus of each kind of burraco the pair made (BUR-BURRACO)."""
        return {kind: BURRACO_BONUS[kind] * getattr(self.sheet, kind) for kind in BURRACO_KINDS}

    @property
    def closing_bonus(self) -> int:
        """Return the closing's 100 if the pair closed, else 0 (BUR-CLOSE, BUR-STOCK)."""
        return CLOSING_BONUS if self.sheet.closed else 0

    @property
    def pozzetto_penalty(self) -> int:
        """Return the 100 a pair loses for never taking its pozzetto (BUR-POZZETTO)."""
        return 0 if self.sheet.pozzetto else POZZETTO_PENALTY

    @property
    def total(self) -> int:
        """Return the pair's hand score (BUR-SCORE)."""
        return (
            self.sheet.melded
            + sum(self.burraco_bonuses.values())
            + self.closing_bonus
            - self.sheet.in_hand
            - self.pozzetto_penalty
        )

    def items(self) -> tuple[ScoreItem, ...]:
        """Return the parts of the pair's score, each citing its rule (0s left out but the
        melded cards), about no one seat: both partners take them all."""
        parts = [
            ("BUR-SCORE", "melded", self.sheet.melded),
            *(
                ("BUR-OPT-SEMIPULITO" if kind == SEMIPULITO else "BUR-BURRACO", kind, bonus)
                for kind, bonus in self.burraco_bonuses.items()
            ),
            ("BUR-CLOSE", "closing", self.closing_bonus),
            ("BUR-SCORE", "in_hand", -self.sheet.in_hand),
            ("BUR-POZZETTO", "pozzetto_missed", -self.pozzetto_penalty),
        ]
        return side_items(self.pair, self.seats, parts)

    def to_dict(self) -> dict[str, Any]:
        """Return the pair's breakdown ready for JSON."""
        return {
            "pair": self.pair,
            "seats": list(self.seats),
            "sheet": self.sheet.to_dict(),
            "melded": self.sheet.melded,
            "burraco_bonuses": self.burraco_bonuses,
            "closing_bonus": self.closing_bonus,
            "in_hand": self.sheet.in_hand,
            "pozzetto_penalty": self.pozzetto_penalty,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class BurracoHand:
    """Hold a scored Burraco hand: each seat's points (its pair's score), each pair's
    breakdown, how the hand ended (OUT: a pair closed; STOCK: the stock ran out,
    BUR-STOCK) and the seats of the pair that scored more (none on a tie)."""

    players: tuple[str, ...]
    ending: str
    pairs: tuple[PairScore, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    sheet: HandSheet

    @property
    def closer(self) -> int | None:
        """Return the pair that closed, or None at a stock end."""
        return next((pair.pair for pair in self.pairs if pair.sheet.closed), None)

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Return every pair's parts of the score, pair 0's first."""
        return tuple(item for pair in self.pairs for item in pair.items())

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON: the seats' points and each pair's breakdown."""
        return hand_dict(self, "closer", self.closer)


def score_entry(
    options: BurracoOptions, sheet: HandSheet, seats: tuple[str, ...] = ()
) -> BurracoHand:
    """Score a hand read by ``read_entry`` (BUR-SCORE): both partners take their pair's
    score."""
    return score_sides(sheet, seats, PAIRS, PairScore, lambda pair: pair.closed, BurracoHand)


def score_play(options: BurracoOptions, end: HandEnd, seats: tuple[str, ...]) -> BurracoHand:
    """Score a hand played move by move (BUR-SCORE) as the same hand entered by cards: each
    pair's melds as the table holds them, its partners' cards left (or their points), the
    pair that closed (BUR-CLOSE; none at a stock end, BUR-STOCK) and the pozzetti taken
    (BUR-POZZETTO)."""
    closer = pair_of(end.seat) if end.ending == OUT and end.seat is not None else None
    melds = tuple(
        tuple(
            check_meld(cards, semipulito=options.semipulito, international=options.international)
            for owner, cards in end.melds
            if owner in pair_seats
        )
        for pair_seats in PAIRS
    )
    pairs = tuple(
        melds_sheet(
            melds[pair],
            closed=closer == pair,
            pozzetto=end.kitties[pair],
            in_hand=sum(hand_value(end.players[seat], card_value) for seat in pair_seats),
        )
        for pair, pair_seats in enumerate(PAIRS)
    )
    if any(player.by_points for player in end.players):
        sheet = HandSheet(pairs)
    else:
        sheet = HandSheet(pairs, CARDS, melds, tuple(player.hand for player in end.players))
    return score_entry(options, sheet, seats)


def pair_of(seat: int) -> int:
    """Return the pair a seat plays in: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return side_of(seat, PAIRS)
