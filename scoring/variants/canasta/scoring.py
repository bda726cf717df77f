"""A Canasta hand's score, side by side (CAN-SCORE-1): what the side melded, its canastas,
its going out, its red 3s, less the cards both partners hold.

Both partners carry their side's score as their own points, so running totals, the match's
end and the standings read a seat's points as in every other game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.cards import Card
from scoring.hands import OUT, HandEnd, ScoreItem, hand_value
from scoring.side_scores import hand_dict, score_sides, side_items
from scoring.side_scores import side_of as side_of_seat
from scoring.variants.canasta.cards import PAIRS, RED_THREES, card_value, is_red_three
from scoring.variants.canasta.melds import (
    CANASTA_BONUS,
    MIXED,
    NATURAL,
    NO_CANASTA,
    check_meld,
)
from scoring.variants.canasta.options import CanastaOptions
from scoring.variants.canasta.sheet import CARDS, HandSheet, SideSheet, melds_sheet

OUT_BONUS = 100  # CAN-OUT-1
CONCEALED_BONUS = 200  # CAN-OUT-2
RED_THREE_BONUS = 100  # CAN-RED3-1: each red 3
ALL_RED_THREES_BONUS = 800  # CAN-RED3-1: all four to one side


def red_three_bonus(sheet: SideSheet) -> int:
    """Return the side's red 3s' worth: 100 each, 800 for all four; a penalty of as much
    for a side that melded nothing by the hand's end (CAN-RED3-1)."""
    worth = (
        ALL_RED_THREES_BONUS
        if sheet.red_threes == RED_THREES
        else RED_THREE_BONUS * sheet.red_threes
    )
    return worth if sheet.melded else -worth


def out_bonus(options: CanastaOptions, sheet: SideSheet) -> int:
    """Return the going out's bonus: 100, 200 concealed where the table plays it (CAN-OUT-1,
    CAN-OUT-2, CAN-OPT-CONCEALED); 0 for a side that did not go out."""
    if not sheet.went_out:
        return 0
    return CONCEALED_BONUS if sheet.concealed and options.concealed_bonus else OUT_BONUS


@dataclass(frozen=True, slots=True)
class SideScore:
    """Hold one side's hand: its seats, its sheet, and the parts of its score."""

    side: int
    seats: tuple[int, ...]
    sheet: SideSheet
    going_out: int

    @property
    def canasta_bonuses(self) -> dict[str, int]:
        """Return the bonus of each kind of canasta the side made (CAN-CANASTA-1)."""
        return {
            NATURAL: CANASTA_BONUS[NATURAL] * self.sheet.natural,
            MIXED: CANASTA_BONUS[MIXED] * self.sheet.mixed,
        }

    @property
    def red_threes(self) -> int:
        return red_three_bonus(self.sheet)

    @property
    def total(self) -> int:
        """Return the side's hand score (CAN-SCORE-1)."""
        return (
            self.sheet.melded
            + sum(self.canasta_bonuses.values())
            + self.going_out
            + self.red_threes
            - self.sheet.in_hand
        )

    def items(self) -> tuple[ScoreItem, ...]:
        """Return the parts of the side's score, each citing its rule (0s left out but the
        melded cards), about no one seat: both partners take them all."""
        concealed = self.going_out == CONCEALED_BONUS
        parts = [
            ("CAN-SCORE-1", "melded", self.sheet.melded),
            *(("CAN-CANASTA-1", kind, bonus) for kind, bonus in self.canasta_bonuses.items()),
            ("CAN-OUT-2" if concealed else "CAN-OUT-1", "going_out", self.going_out),
            ("CAN-RED3-1", "red_threes", self.red_threes),
            ("CAN-SCORE-1", "in_hand", -self.sheet.in_hand),
        ]
        return side_items(self.side, self.seats, parts)

    def to_dict(self) -> dict[str, Any]:
        """Return the side's breakdown ready for JSON."""
        return {
            "pair": self.side,
            "seats": list(self.seats),
            "sheet": self.sheet.to_dict(),
            "melded": self.sheet.melded,
            "canasta_bonuses": self.canasta_bonuses,
            "going_out": self.going_out,
            "red_threes": self.red_threes,
            "in_hand": self.sheet.in_hand,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class CanastaHand:
    """Hold a scored Canasta hand: each seat's points (its side's score), each side's
    breakdown, how the hand ended (OUT: a side went out; STOCK: the stock ran out,
    CAN-STOCK-1) and the seats of the side that scored more (none on a tie)."""

    players: tuple[str, ...]
    ending: str
    pairs: tuple[SideScore, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    sheet: HandSheet

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Return every side's parts of the score, side 0's first."""
        return tuple(item for side in self.pairs for item in side.items())

    def to_dict(self) -> dict[str, Any]:
        """Return the result ready for JSON: the seats' points and each side's breakdown."""
        went_out = next((s.side for s in self.pairs if s.sheet.went_out), None)
        return hand_dict(self, "went_out", went_out)


def score_entry(
    options: CanastaOptions, sheet: HandSheet, seats: tuple[str, ...] = ()
) -> CanastaHand:
    """Score a hand read by ``read_entry`` (CAN-SCORE-1): both partners take their side's
    score."""
    return score_sides(
        sheet,
        seats,
        PAIRS,
        lambda index, side_seats, side: SideScore(
            index, side_seats, side, out_bonus(options, side)
        ),
        lambda side: side.went_out,
        CanastaHand,
    )


def score_play(options: CanastaOptions, end: HandEnd, seats: tuple[str, ...]) -> CanastaHand:
    """Score a hand played move by move (CAN-SCORE-1) as the same hand entered by cards:
    each side's melds as the table holds them (its red 3s among them, laid down as a
    bonus), its partners' cards left, the side that went out (none at a stock end)."""
    out = side_of(end.seat) if end.ending == OUT and end.seat is not None else None
    sheets, melds, hands = [], [], [player.hand for player in end.players]
    for side, side_seats in enumerate(PAIRS):
        laid = [cards for owner, cards in end.melds if owner in side_seats]
        # A red 3 still held was dealt and never laid (play refuses keeping one it names):
        # it counts as laid all the same (CAN-RED3-1).
        held = sum(1 for seat in side_seats for card in hands[seat] if is_red_three(card))
        reds = sum(len(cards) for cards in laid if is_red_threes(cards)) + held
        side_melds = tuple(
            check_meld(cards, going_out=out == side) for cards in laid if not is_red_threes(cards)
        )
        melds.append(side_melds)
        in_hand = sum(hand_value(end.players[seat], card_value) for seat in side_seats)
        sheets.append(
            melds_sheet(
                side_melds,
                red_threes=reds,
                went_out=out == side,
                concealed=out == side and concealed_out(end),
                in_hand=in_hand - held * card_value_of_red_three(),
            )
        )
    if any(player.by_points for player in end.players):
        sheet = HandSheet(tuple(sheets))
    else:
        kept = tuple(tuple(card for card in hand if not is_red_three(card)) for hand in hands)
        sheet = HandSheet(tuple(sheets), CARDS, tuple(melds), kept)
    return score_entry(options, sheet, seats)


def concealed_out(end: HandEnd) -> bool:
    """Tell whether the player who went out went out concealed (CAN-OUT-2): their first melds
    of the hand were laid in the turn they went out (the play engine's hand_closed), a
    canasta among the melds they laid."""
    if end.seat is None or not end.players[end.seat].hand_closed:
        return False
    return any(
        owner == end.seat and not is_red_threes(cards) and check_meld(cards).canasta != NO_CANASTA
        for owner, cards in end.melds
    )


def card_value_of_red_three() -> int:
    """Return what a red 3 held would count in hand, taken off as it counts as laid."""
    return card_value(Card(3, "H"))


def is_red_threes(cards: tuple[Card, ...]) -> bool:
    """Tell whether a group on the table is red 3s laid down (CAN-RED3-1), not a meld."""
    return bool(cards) and all(is_red_three(card) for card in cards)


def side_of(seat: int) -> int:
    """Return the side a seat plays in: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return side_of_seat(seat, PAIRS)
