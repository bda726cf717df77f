"""Scoring a hand side by side, for the games played in pairs (Burraco, Canasta).

Both partners carry their side's score as their own points, so running totals, the match's
end and the standings read a seat's points as in every other game. What makes a side's score
(its bonuses, its penalties and the rules they cite) stays with the game; this module turns
the sides' scores into the seats' points, the winners, the parts of the score and the JSON a
hand is reported in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import OUT, STOCK, MatchOutcome, ScoreItem, names, running_totals
from scoring.questions import split_verdicts
from scoring.side_sheets import ENTRY_FIELDS, HandSheet


class SideResult(Protocol):
    """What every side's score holds, whatever its game counts in it."""

    @property
    def seats(self) -> tuple[int, ...]: ...

    @property
    def sheet(self) -> Any: ...

    @property
    def total(self) -> int: ...


SideResultT = TypeVar("SideResultT", bound=SideResult)
HandT = TypeVar("HandT")


class HandResult(Protocol):
    """What every side-by-side hand holds for its report."""

    players: tuple[str, ...]
    ending: str
    points: tuple[int, ...]
    winners: tuple[int, ...]
    sheet: HandSheet

    @property
    def pairs(self) -> Sequence[Any]: ...

    @property
    def items(self) -> tuple[ScoreItem, ...]: ...


def side_items(
    index: int, seats: tuple[int, ...], parts: Iterable[tuple[str, str, int]]
) -> tuple[ScoreItem, ...]:
    """Return a side's parts of the score, each ``(rule, code, points)`` citing its rule, 0s
    left out but the melded cards, about no one seat: both partners take them all."""
    params = {"pair": index, "seats": list(seats)}
    return tuple(
        ScoreItem(rule, None, points, params, code=code)
        for rule, code, points in parts
        if points or code == "melded"
    )


def score_sides(
    sheet: HandSheet,
    seats: tuple[str, ...],
    partners: Sequence[tuple[int, ...]],
    side_score: Callable[[int, tuple[int, ...], Any], SideResultT],
    ended: Callable[[Any], bool],
    hand: Callable[..., HandT],
) -> HandT:
    """Score an entered hand side by side: ``side_score`` scores one side's sheet, and
    ``hand`` holds the result: the players' names (``seat 1``... where none are given), each
    seat's points (its side's score), the seats of the side that scored more (none on a tie)
    and the ending, OUT where a side's sheet says it ``ended`` the hand, else STOCK."""
    sides = tuple(
        side_score(index, side_seats, side_sheet)
        for index, (side_seats, side_sheet) in enumerate(zip(partners, sheet.pairs, strict=True))
    )
    points = [0] * sum(len(side.seats) for side in sides)
    for side in sides:
        for seat in side.seats:
            points[seat] = side.total
    totals = [side.total for side in sides]
    best = [side for side in sides if side.total == max(totals)]
    return hand(
        players=tuple(seats) or tuple(f"seat {seat + 1}" for seat in range(len(points))),
        ending=OUT if any(ended(side.sheet) for side in sides) else STOCK,
        pairs=sides,
        points=tuple(points),
        winners=tuple(sorted(best[0].seats)) if len(best) == 1 else (),
        sheet=sheet,
    )


def hand_dict(hand: HandResult, ender: str, ended_by: int | None) -> dict[str, Any]:
    """Return a hand ready for JSON: the seats' points, the side that ended it under
    ``ender``, each side's breakdown and, entered by cards, the melds and hands."""
    result: dict[str, Any] = {
        "players": list(hand.players),
        "ending": hand.ending,
        "points": list(hand.points),
        "winners": list(hand.winners),
        ender: ended_by,
        "mode": hand.sheet.mode,
        "pairs": [side.to_dict() for side in hand.pairs],
        "items": [item.to_dict() for item in hand.items],
    }
    if hand.sheet.melds:
        result["melds"] = [[str(meld) for meld in melds] for melds in hand.sheet.melds]
        result["hands"] = [names(cards) for cards in hand.sheet.hands]
    return result


def side_of(seat: int, sides: Sequence[tuple[int, ...]]) -> int:
    """Return the side a seat plays in: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return next(index for index, side_seats in enumerate(sides) if seat in side_seats)


def side_totals(totals: Sequence[int], sides: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Return each side's total, read from its first seat (both partners hold the same)."""
    return tuple(totals[seats[0]] for seats in sides)


def side_points(
    totals: Sequence[int], seat: int, sides: Sequence[tuple[int, ...]]
) -> tuple[Fraction, Fraction]:
    """Return the seat's side's total as points for, and the other side's as against."""
    own = side_of(seat, sides)
    own_total, other_total = (side_totals(totals, sides)[index] for index in (own, 1 - own))
    return Fraction(own_total), Fraction(other_total)


def match_result(
    hand_results: Sequence[Any],
    may_end: Callable[[Sequence[int], int], bool],
    rule: str,
    sides: Sequence[tuple[int, ...]],
) -> MatchOutcome:
    """Walk the hands in order and say whether the match is over (``may_end`` with the seats'
    totals after so many hands) and who won: both partners of the side with the higher total,
    all four where level; a hand after the match's end is refused by ``rule``."""
    totals_after = running_totals(hand_results)
    for index, totals in enumerate(totals_after):
        if not may_end(totals, index + 1):
            continue
        if index + 1 < len(hand_results):
            raise _refuse(
                rule,
                "match_over",
                f"The match ended after hand {index + 1}; no more hands can be recorded.",
                hands=index + 1,
            )
        by_side = side_totals(totals, sides)
        best = max(by_side)
        winners = sorted(
            seat for side, total in enumerate(by_side) if total == best for seat in sides[side]
        )
        return MatchOutcome(
            finished=True, hands=index + 1, totals=tuple(totals), winners=tuple(winners)
        )
    return MatchOutcome(
        finished=False,
        hands=len(hand_results),
        totals=totals_after[-1] if totals_after else (),
    )


def score_answer(
    data: Mapping[str, Any],
    score: Callable[[Mapping[str, Any]], Any],
    rule: str,
) -> dict[str, Any]:
    """Answer a referee's question of what a hand's sheet (or cards) scores, side by side:
    ``score`` reads and scores the entry; every answer cites ``rule``."""
    entry = {key: data[key] for key in ENTRY_FIELDS if key in data}
    try:
        result = score(entry)
    except RuleViolation as exc:
        return {"valid": False, "violations": split_verdicts(exc), "rules": [rule]}
    body = result.to_dict()
    return {
        "valid": True,
        "points": list(result.points),
        "pairs": body["pairs"],
        "ending": result.ending,
        "winners": list(result.winners),
        "items": body["items"],
        "rules": sorted({item.rule for item in result.items} | {rule}),
    }
