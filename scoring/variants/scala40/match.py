"""Scala 40's match (docs/rules.md, S40-MATCH, S40-REENTRY): who is out after each hand,
who re-enters and at what cost, when the match ends, and each seat's place.

A player whose total reaches the table's limit is out, or re-enters at the highest total
still in play where the table allows it; the last player in wins, and the others place in
the reverse order they went out, which can be in any hand of a match, however long.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import refusal as _refuse
from scoring.hands import HandScore, MatchOutcome, ScoreItem

if TYPE_CHECKING:
    from scoring.variants.scala40 import Scala40Options

MIN_PLAYERS = 2
# The zero item that says a seat sat a hand out, which the match checks against its
# eliminations (S40-MATCH).
SAT_OUT = "sitting_out"
# The zero item that says a seat declines its re-entry in that hand (S40-REENTRY).
DECLINED = "declined"


def sat_out(result: HandScore) -> frozenset[int]:
    """Return the seats that sat the hand out, being out of the match."""
    return frozenset(
        item.seat for item in result.items if item.rule == "S40-MATCH" and item.code == SAT_OUT
    )


def match_result(options: Scala40Options, hand_results: Sequence[HandScore]) -> MatchOutcome:
    """Walk the hands in order: who is out, who re-enters, whether the match is over, and
    each seat's place (S40-MATCH, S40-REENTRY).

    After each hand, a player in play whose total reaches the limit is out, unless the
    table allows a re-entry they have left and two players or more are still in: they then
    play on from the highest total still in play (an item of the match, so the totals show
    it). The match ends when one player or none is left in; the last one in wins, and if
    the last players all go out in the same hand the lowest total among them wins. Places
    follow the order of elimination, the later the better, and the totals among players
    out in the same hand. Every hand must seat exactly the players still in (sitting_out).
    """
    seats = len(hand_results[0].points) if hand_results else 0
    totals = [0] * seats
    out: dict[int, int] = {}  # seat -> the hand (0-based) it went out after
    used = [0] * seats
    items: list[ScoreItem] = []
    finished_at: int | None = None
    for index, result in enumerate(hand_results):
        if finished_at is not None:
            raise _refuse(
                "S40-MATCH",
                "match_over",
                f"The match ended after hand {finished_at + 1}; no more hands can be recorded.",
                hands=finished_at + 1,
            )
        _check_seated(result, out, index)
        totals = [total + points for total, points in zip(totals, result.points, strict=True)]
        reached = [s for s in range(seats) if s not in out and totals[s] >= options.target]
        still_in = [s for s in range(seats) if s not in out and s not in reached]
        declined = _declined(result, index, reached, used, options.reentries, len(still_in))
        for seat in reached:
            if used[seat] < options.reentries and len(still_in) >= MIN_PLAYERS:
                if seat in declined:
                    out[seat] = index
                    continue
                used[seat] += 1
                back = max(totals[s] for s in still_in)
                params = {"hand": index + 1, "total": back, "count": used[seat]}
                cost = back - totals[seat]
                items.append(ScoreItem("S40-REENTRY", seat, cost, params, code="reentry"))
                totals[seat] = back
            else:
                out[seat] = index
        if seats - len(out) <= 1:
            finished_at = index
    places = _places(totals, out, len(hand_results))
    finished = finished_at is not None
    winners = tuple(seat for seat, place in enumerate(places) if place == 1) if finished else ()
    return MatchOutcome(
        finished=finished,
        hands=len(hand_results),
        totals=tuple(totals),
        items=tuple(items),
        winners=winners,
        loser=(1 - winners[0]) if finished and seats == 2 and len(winners) == 1 else None,
        out=tuple(sorted(out)),
        places=tuple(places) if seats else (),
    )


def declined_item(seat: int) -> ScoreItem:
    """Return the zero item that says the seat goes out rather than re-enter if it reaches
    the limit in this hand (S40-REENTRY), which the match reads."""
    return ScoreItem("S40-REENTRY", seat, 0, {}, code=DECLINED)


def _declined(
    result: HandScore,
    index: int,
    reached: Sequence[int],
    used: Sequence[int],
    reentries: int,
    still_in: int,
) -> frozenset[int]:
    """Return the seats that decline their re-entry after this hand; refuse a decline where
    there is no re-entry to decline: the seat did not reach the limit, has used every
    re-entry, or fewer than two players stay in (S40-REENTRY)."""
    declined = frozenset(
        item.seat for item in result.items if item.rule == "S40-REENTRY" and item.code == DECLINED
    )
    for seat in sorted(declined):
        if seat not in reached or used[seat] >= reentries or still_in < MIN_PLAYERS:
            name = result.players[seat]
            raise _refuse(
                "S40-REENTRY",
                "nothing_to_decline",
                f"{name} has no re-entry to decline after hand {index + 1}: only a player "
                "who reaches the limit while a re-entry is allowed can decline it.",
                player=name,
                hand=index + 1,
            )
    return declined


def _check_seated(result: HandScore, out: Mapping[int, int], index: int) -> None:
    """Refuse a hand that does not seat exactly the players still in the match."""
    sat = sat_out(result)
    for seat in range(len(result.points)):
        name = result.players[seat]
        if seat in out and seat not in sat:
            raise _refuse(
                "S40-MATCH",
                "is_out",
                f"{name} is out of the match since hand {out[seat] + 1}: mark them as sitting out.",
                player=name,
                hand=out[seat] + 1,
            )
        if seat in sat and seat not in out:
            raise _refuse(
                "S40-MATCH",
                "is_in",
                f"{name} is still in the match and plays hand {index + 1}.",
                player=name,
                hand=index + 1,
            )


def _places(totals: Sequence[int], out: Mapping[int, int], hands: int) -> list[int]:
    """Return each seat's place: players in first, then the later out, then the lower.

    ``out`` maps a seat to the hand (0-based) it went out after, which can be any hand of
    the match, so a player still in is taken to go out after ``hands``, a hand later than
    every hand played.
    """

    def key(seat: int) -> tuple[int, int]:
        return (-out.get(seat, hands), totals[seat])

    seats = range(len(totals))
    return [1 + sum(key(other) < key(seat) for other in seats) for seat in seats]
