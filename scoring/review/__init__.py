"""The review of a finished hand: every move again, and where points were lost.

``review_hand(events, number)`` reads a table's log (never changing it) and returns a
``HandReview`` (scoring/review/model.py) of its hand ``number``: for a hand played move by
move, a stepper (each seat's cards at each step, as the whole log shows them in hindsight,
the table's melds with their owners, the pile's top, whose turn), each turn weighed by the
game's own measure (the discard, the draw, the melding) with the chances it missed, the
end of the hand and each player's summary; for a hand entered by cards, what the cards
show. Everything comes through the game's protocol (GameRules, its play rules and review
rules), so every game gets a review without code of its own. See docs/design.md, "Hand
review", for the public shape.
"""

from scoring.review.build import review_entered, review_hand, review_played
from scoring.review.model import (
    ALL_MELDED,
    ALL_MELDED_NO_DISCARD,
    CARDS,
    CHANCE_KINDS,
    DISCARD,
    DRAW,
    FED,
    KNOCK,
    LAYOFF,
    MELDING,
    OPEN,
    OUT,
    PLAYED,
    POINTS,
    SWAP,
    Chance,
    ChartPoint,
    Cost,
    DiscardReview,
    DrawReview,
    EndReview,
    EndSeat,
    HandReview,
    Layoff,
    MeldingReview,
    PlayerSummary,
    SeatView,
    Step,
    TableMeldView,
    TurnReview,
    with_changes,
)

__all__ = [
    "ALL_MELDED",
    "ALL_MELDED_NO_DISCARD",
    "CARDS",
    "CHANCE_KINDS",
    "DISCARD",
    "DRAW",
    "FED",
    "KNOCK",
    "LAYOFF",
    "MELDING",
    "OPEN",
    "OUT",
    "PLAYED",
    "POINTS",
    "SWAP",
    "Chance",
    "ChartPoint",
    "Cost",
    "DiscardReview",
    "DrawReview",
    "EndReview",
    "EndSeat",
    "HandReview",
    "Layoff",
    "MeldingReview",
    "PlayerSummary",
    "SeatView",
    "Step",
    "TableMeldView",
    "TurnReview",
    "review_entered",
    "review_hand",
    "review_played",
    "with_changes",
]
