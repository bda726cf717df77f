"""What a phone needs to show provisional totals while hands wait in its outbox.

A hand recorded with no connection stays on the phone (static/js/outbox.js) until it can be
sent, and meanwhile the board shows each seat's total with the hand's points beside it,
marked as pending ("52 (+25 pending)"). With no connection the phone cannot ask the engine,
so the page carries, with the hand form, each quick entry's scoring *shape* (which seat gains
what from the numbers typed: static/js/provisional.js, a few lines a game) and its numbers,
which this module reads from the engine itself: it scores a handful of sample entries through
the game's own ``read_entry``/``score_entry`` (the path a save takes) and keeps what they
show, the bonuses, the penalty, the tie rule. No game's value is typed here or in the script.

A table whose quick entries the shape cannot follow (a game without one, a Gin table whose
hand points depend on the upcard, three games on one sheet) gets no model: its pending
hands are marked without a number. The totals are the hands' sum; bonuses the match adds at
its end come with the server's answer. tests/games/pages/test_provisional.py runs the script
in Chromium against the engine on random entries of every game, so the two cannot part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import RuleViolation
from scoring.game import (
    SEVERAL_GAMES,
    SHEET_COUNT,
    SHEET_FLAG,
    SHEET_POINTS,
    GameRules,
    SheetField,
    SideSheet,
)
from scoring.variants import GAMES

# The endings of a hand entered by its ender (KNOCKER_DEFENDER_ENTRY) whose meaning the
# shape knows; the game names its other ways out (GameRules.hand_endings).
KNOCK, WALL = "knock", "wall"


def _points(game: GameRules, options: Any, seats: int, payload: dict) -> tuple[int, ...] | None:
    """Return each seat's points for ``payload`` as the engine scores it, or None if refused."""
    names = tuple(f"seat {seat}" for seat in range(seats))
    try:
        entry = game.read_entry(options, payload, names)
        return tuple(game.score_entry(options, entry, names).points)
    except (RuleViolation, TypeError, ValueError, KeyError):
        return None


def _knocker_defender_quick(knocker: int, ending: str, k: int, d: int) -> dict:
    return {
        "mode": "quick",
        "knocker": knocker,
        "ending": ending,
        "knocker_count": k,
        "defender_count": d,
    }


def _knock_difference(game: GameRules, options: Any, seats: int) -> dict | None:
    if game.switched_on(SEVERAL_GAMES, game.options_to_dict(options)):
        return None  # several games on one sheet: the board's totals are not one running sum

    def scored(ending: str, k: int, d: int) -> tuple[int, ...] | None:
        return _points(game, options, seats, _knocker_defender_quick(0, ending, k, d))

    # Each way out but a knock and the wall scores a bonus and the defender's count: the
    # bonus is what it scores against a count of 0.
    outs = {
        ending: scored(ending, 0, 0)
        for ending in game.hand_endings(options)
        if ending not in (KNOCK, WALL)
    }
    clean = scored(KNOCK, 0, 3)
    knock, undercut, tie = scored(KNOCK, 1, 3), scored(KNOCK, 3, 1), scored(KNOCK, 2, 2)
    if None in (clean, knock, undercut, tie, *outs.values()):
        return None  # a quick entry needs more than the counts here (a hand's upcard)
    if knock != (2, 0) or undercut[0] != 0 or tie[0] != 0:
        return None  # not the shape provisional.js knows
    return {
        "shape": "knock_difference",
        "outs": {ending: points[0] for ending, points in outs.items()},
        "clean_knock": clean[0] - 3,  # a knock keeping nothing, less the defender's count
        "undercut": undercut[1] - 2,
        "undercut_on_tie": tie[1] > 0,
    }


def _seat(points: int, **flags: Any) -> dict:
    return {"points": points, **flags}


def _penalty_seats(game: GameRules, options: Any, seats: int) -> dict | None:
    rest = [_seat(10) for _ in range(seats - 1)]
    plain = _points(game, options, seats, _sheet([_seat(0, went_out=True), *rest]))
    failed = [_seat(10, opening_penalty=1), *rest[1:]]
    penalised = _points(game, options, seats, _sheet([_seat(0, went_out=True), *failed]))
    if plain is None or penalised is None or plain[:2] != (0, 10):
        return None
    # Where the game doubles the others' hands for a closing in hand (S40-HANDCLOSE); a game
    # that has no such closing refuses the flag, and doubles nothing.
    closed = _seat(0, went_out=True, hand_closed=True)
    doubled = _points(game, options, seats, _sheet([closed, *rest]))
    return {
        "shape": "penalty",
        "opening_penalty": penalised[1] - plain[1],
        "closed_factor": doubled[1] // plain[1] if doubled else 1,
    }


def _gain_loss_seats(game: GameRules, options: Any, seats: int) -> dict | None:
    rest = [_seat(10) for _ in range(seats - 1)]
    plain = _points(game, options, seats, _sheet([_seat(0, went_out=True), *rest]))
    closed = _seat(0, went_out=True, hand_closed=True)
    doubled = _points(game, options, seats, _sheet([closed, *rest]))
    if plain is None or doubled is None or plain[:2] != (10 * (seats - 1), -10):
        return None
    return {"shape": "gain_loss", "closed_factor": doubled[1] // plain[1]}


def _lowest_wins_seats(game: GameRules, options: Any, seats: int) -> dict | None:
    others = [_seat(20) for _ in range(seats - 2)]
    knocked = _points(game, options, seats, _sheet([_seat(5, knocked=True), _seat(3), *others]))
    out = _points(
        game, options, seats, _sheet([_seat(0, knocked=True, went_out=True), _seat(10), *others])
    )
    if knocked is None or out is None:
        return None
    # The winner's differences: (5 - 3) + (20 - 3) a seat; (10 - 0) + (20 - 0) a seat.
    knocked_spread = 5 - 3 + 17 * len(others)
    out_spread = 10 + 20 * len(others)
    return {
        "shape": "lowest_wins",
        "undercut": knocked[1] - knocked_spread,
        "out": out[0] - out_spread,
    }


def _side_values(sheet: SideSheet, **figures: Any) -> dict:
    """Return one side's sheet: each box at its probe value unless told, nobody out."""
    return {
        **{
            box.key: bool(box.probe) if box.kind == SHEET_FLAG else box.probe
            for box in sheet.fields
        },
        sheet.out_key: False,
        **figures,
    }


def _empty_side(sheet: SideSheet) -> dict:
    """Return the other side's sheet while one is probed: nothing melded, nothing held."""
    return {
        **{box.key: False if box.kind == SHEET_FLAG else 0 for box in sheet.fields},
        sheet.out_key: False,
    }


def _side_sheets(game: GameRules, options: Any, seats: int) -> dict | None:
    """Read each box's worth from the engine: a number's sign, a count's points by count (as
    far as the engine takes them), a check box's difference, the going out's bonus; and
    what a side scores besides (a penalty for a check box left empty, Burraco's pozzetto)."""
    sheet = game.side_sheet
    if sheet is None:
        return None
    asked = sheet.asked(game.options_to_dict(options))

    def first(**figures: Any) -> int | None:
        pairs = [_side_values(sheet, **figures), _empty_side(sheet)]
        scored = _points(game, options, seats, {"mode": "sheet", "pairs": pairs})
        return None if scored is None else scored[0]

    base = first()
    out_base = first(**sheet.out_needs)
    went_out = first(**sheet.out_needs, **{sheet.out_key: True})
    if None in (base, out_base, went_out):
        return None
    boxes, known = [], 0
    for box in asked:
        entry = {"key": box.key, "kind": box.kind, "negated_unless": box.negated_unless}
        if box.kind == SHEET_POINTS:
            more = first(**{box.key: box.probe + box.step})
            entry["sign"] = None if more is None else (more - base) // box.step
            known += (entry["sign"] or 0) * box.probe
        elif box.kind == SHEET_COUNT:
            entry["table"] = _count_table(first, box, base)
            known += entry["table"][box.probe] if box.probe < len(entry["table"]) else 0
        else:
            entry["only_when_out"] = box.only_when_out
            needs = {**sheet.out_needs, sheet.out_key: True} if box.only_when_out else {}
            on, off = first(**needs, **{box.key: True}), first(**needs, **{box.key: False})
            entry["on"] = None if None in (on, off) else on - off
            if box.probe and not box.only_when_out and entry["on"] is not None:
                known += entry["on"]
        if entry.get("sign", 0) is None or entry.get("on", 0) is None:
            return None
        boxes.append(entry)
    return {
        "shape": "side_sheet",
        "mode": "sheet",
        "out": sheet.out_key,
        "boxes": boxes,
        "out_bonus": went_out - out_base,
        "constant": base - known,
    }


def _count_table(first, box: SheetField, base: int) -> list[int]:
    """Return a count's points for 0, 1, ... as the engine scores them, up to the first
    count it refuses (a phone gives no number for more)."""
    table = [0]
    for count in range(1, box.high + 1):
        scored = first(**{box.key: count})
        if scored is None:
            break
        table.append(scored - base)
    return table


def _sheet(players: list[dict]) -> dict:
    return {"mode": "points", "players": players, "stock_exhausted": False}


# Each shape of GameRules.provisional, and how its numbers are read from the engine.
SHAPES = {
    "knock_difference": _knock_difference,
    "penalty": _penalty_seats,
    "gain_loss": _gain_loss_seats,
    "lowest_wins": _lowest_wins_seats,
    "side_sheet": _side_sheets,
}


def provisional_scoring(
    variant: str, options: Mapping[str, Any], seats: int, *, typed: Any = None
) -> dict | None:
    """Return what provisional.js needs to score this table's quick entries, or None;
    ``typed``, the options as the rules read them where the caller holds them (the board)."""
    game = GAMES.get(variant)
    shape = SHAPES.get(game.provisional) if game is not None else None
    if game is None or shape is None:
        return None
    if typed is None:
        try:
            typed = game.options_from_dict(options, seats)
        except RuleViolation:
            return None
    return shape(game, typed, seats)
