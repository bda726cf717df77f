"""Build a table's log and play a hand move by move through the replay (scoring/play/).

A ``Table`` holds the events written so far (``table_created`` at seq 1, then 2, 3, …) and the
state ``scoring.replay.apply`` folded them into. The move builders below return ``(type,
payload)`` pairs in the payloads scoring/play/ documents, so a test reads like the moves a
phone sends: ``table.play(draw(1), discard(1, "KD"))``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from scoring.errors import RuleViolation, Violation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HAND_AMENDED,
    HAND_RECORDED,
    HAND_STARTED,
    HAND_VOIDED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    TABLE_CREATED,
    TABLE_REARRANGED,
    TURN_PASSED,
    LogEvent,
)
from scoring.replay import TableState, apply, replay

Move = tuple[str, Mapping[str, Any]]


class Table:
    """Hold a table's log and the state it replays to; moves are applied one by one."""

    def __init__(self, variant: str, seats: list[str], options: Mapping[str, Any] | None = None):
        created = LogEvent(
            1,
            TABLE_CREATED,
            {"variant": variant, "options": dict(options or {}), "seats": list(seats)},
        )
        self.events: list[LogEvent] = [created]
        self.state: TableState = apply(None, created)

    def play(self, *moves: Move) -> Table:
        """Apply each move in order, as the next event of the log."""
        for kind, payload in moves:
            event = LogEvent(len(self.events) + 1, kind, dict(payload))
            self.state = apply(self.state, event)
            self.events.append(event)
        return self

    def refused(self, move: Move) -> Violation:
        """Apply a move that must be refused; return its first violation.

        The state must stay as it was, and the log does not grow.
        """
        kind, payload = move
        before = self.state.to_dict()
        with pytest.raises(RuleViolation) as caught:
            apply(self.state, LogEvent(len(self.events) + 1, kind, dict(payload)))
        assert self.state.to_dict() == before
        return caught.value.violations[0]

    def violations(self, move: Move) -> list[tuple[str, str]]:
        """Return every (rule, code) a move is refused with, or [] if it would be accepted.

        The move is not kept either way.
        """
        kind, payload = move
        try:
            apply(self.state, LogEvent(len(self.events) + 1, kind, dict(payload)))
        except RuleViolation as exc:
            return [(v.rule, v.code) for v in exc.violations]
        return []

    def replayed(self) -> TableState:
        """Return the state the whole log replays to from its first event."""
        return replay(self.events)

    @property
    def view(self) -> dict[str, Any]:
        """Return the table's JSON projection."""
        return self.state.to_dict()

    @property
    def hand(self) -> dict[str, Any]:
        """Return the JSON view of the hand in play."""
        view = self.state.to_dict()["play"]
        assert view is not None, "no hand is in play"
        return view

    @property
    def last(self) -> dict[str, Any]:
        """Return the last hand of the history, as the projection shows it."""
        return self.state.to_dict()["hands"][-1]

    def counts(self) -> list[int]:
        """Return how many cards each seat holds in the hand in play."""
        return [seat["count"] for seat in self.hand["hands"]]


def rule_and_code(violation: Violation) -> tuple[str, str]:
    """Return what a refusal cites: its rule ID and its code."""
    return violation.rule, violation.code


# Moves ---------------------------------------------------------------------------------------


def deal(upcard: str | None = None, dealer: int | None = None) -> Move:
    payload: dict[str, Any] = {}
    if upcard is not None:
        payload["upcard"] = upcard
    if dealer is not None:
        payload["dealer"] = dealer
    return HAND_STARTED, payload


def draw(seat: int, card: str | None = None) -> Move:
    """Draw from the stock, naming the card or not."""
    return CARD_DRAWN, {"seat": seat, "source": "stock", **({"card": card} if card else {})}


def take(seat: int, card: str | None = None) -> Move:
    """Take the top of the discard pile."""
    return CARD_DRAWN, {"seat": seat, "source": "discard", **({"card": card} if card else {})}


def discard(seat: int, card: str) -> Move:
    return CARD_DISCARDED, {"seat": seat, "card": card}


def pass_turn(seat: int) -> Move:
    return TURN_PASSED, {"seat": seat}


def lay(seat: int, *melds: str) -> Move:
    return MELDS_LAID, {"seat": seat, "melds": list(melds)}


def add(seat: int, meld: int, cards: str) -> Move:
    return CARDS_ADDED, {"seat": seat, "meld": meld, "cards": cards}


def swap(seat: int, meld: int, card: str) -> Move:
    return JOKER_SWAPPED, {"seat": seat, "meld": meld, "card": card}


def rearrange(seat: int, *melds: str) -> Move:
    return TABLE_REARRANGED, {"seat": seat, "melds": list(melds)}


def claim(seat: int, card: str | None = None) -> Move:
    return DISCARD_CLAIMED, {"seat": seat, **({"card": card} if card else {})}


def knock(seat: int, card: str | None = None, hand: str | None = None) -> Move:
    """Knock: Gin with the discard (none for Big Gin) and the cards kept; Knock Rummy bare."""
    payload: dict[str, Any] = {"seat": seat}
    if card is not None:
        payload["card"] = card
    if hand is not None:
        payload["hand"] = hand
    return KNOCKED, payload


def show(*hands: str | int | None) -> Move:
    """Show every seat's cards left (a string), or their points (an int); None: already known."""
    if any(isinstance(h, int) for h in hands):
        players = [None if h is None else {"points": h} for h in hands]
        return HANDS_SHOWN, {"mode": "points", "players": players}
    players = [None if h is None else {"hand": h} for h in hands]
    return HANDS_SHOWN, {"mode": "cards", "players": players}


def undo(reason: str = "wrong entry") -> Move:
    return MOVE_UNDONE, {"reason": reason}


def record(payload: Mapping[str, Any]) -> Move:
    return HAND_RECORDED, payload


def void(number: int, reason: str = "misdeal") -> Move:
    return HAND_VOIDED, {"hand": number, "reason": reason}


def amend(number: int, payload: Mapping[str, Any], reason: str = "card missed") -> Move:
    return HAND_AMENDED, {"hand": number, "reason": reason, **payload}
