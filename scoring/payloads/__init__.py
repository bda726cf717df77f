"""Event payloads read once, at the edge, into typed values the engine works on.

Every event type has a frozen dataclass here whose ``read(payload, ...)`` makes all the
checks of its payload that need no table or hand and raises the refusals the engine has
always given (rule EVENT, same codes, params and wording); ``read_payload`` finds the
reader by event type. The wire format is the JSON dict: these values are never stored.

Some checks of a field depend on the table or the hand. Each reader takes, as keyword
arguments, the small context it needs, rather than the state:

- ``table_created``: ``games``, the lookup of the game "variant" names, as the seat count and
  the options are checked against that game;
- ``hand_recorded``/``hand_amended``: ``entry``, the table's game's reader of a hand entry
  (GameRules.read_entry with the table's options and seats). A hand entry's fields are the
  game's own, so its typed value is too: scoring/scoresheet.py's ScoresheetEntry
  (Rummy40, Ramino, Knock Rummy) and scoring/variants/gin/'s entries;
- ``hand_voided``/``hand_amended``: ``recorded``, the number of hands, which bounds "hand"
  (whether there is any hand at all is the replay's check, made before reading);
- ``hand_started``: ``seats`` and ``discard_pile`` (whether the game has an upcard);
- the moves: ``hand``, a HandContext: the number of seats, whether there is a discard pile,
  how a player knocks, whether hands may be shown by points, and which hands
  ``hands_shown`` still needs.

The engine reads a payload where it has always started checking it, after the state checks
that come first (a match over, no hand in play, a phase that refuses the move), so the first
refusal of an event does not change. Checks that need more of the state stay with the
state and are applied to the typed value: a table meld's number (``CardsAdded.meld``,
``JokerSwapped.meld`` are kept as sent, since even their type is refused against the
table), whether a discard pile holds a card, a hand already void, counts of cards held.
Where a payload check has always come after such a state check, the reader keeps that
field's refusal in a ``Pending`` for the state side to raise in turn (Gin's knock discard;
each seat of ``hands_shown``, checked seat by seat with the cards it holds).
"""

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

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
    POINTS_ADJUSTED,
    RESULT_CONFIRMED,
    TABLE_CREATED,
    TABLE_DECIDED,
    TABLE_REARRANGED,
    TURN_PASSED,
)
from scoring.payloads.fields import (
    Pending,
    cards_field,
    check_fields,
    declared_field,
    field_bool,
    field_choice,
    field_int,
    field_seat,
    field_str,
    payload_error,
    whole_number,
)
from scoring.payloads.moves import (
    DISCARD_SOURCE,
    STOCK_SOURCE,
    CardDiscarded,
    CardDrawn,
    CardsAdded,
    DiscardClaimed,
    HandContext,
    HandsShown,
    HandStarted,
    JokerSwapped,
    Knocked,
    MeldsLaid,
    MoveUndone,
    ShownHand,
    TableRearranged,
    TurnPassed,
)
from scoring.payloads.outcome import PointsAdjusted, ResultConfirmed, TableDecided
from scoring.payloads.table import HandAmended, HandRecorded, HandVoided, TableCreated

__all__ = [
    "DISCARD_SOURCE",
    "READERS",
    "STOCK_SOURCE",
    "CardDiscarded",
    "CardDrawn",
    "CardsAdded",
    "DiscardClaimed",
    "HandAmended",
    "HandContext",
    "HandRecorded",
    "HandStarted",
    "HandVoided",
    "HandsShown",
    "JokerSwapped",
    "Knocked",
    "MeldsLaid",
    "MoveUndone",
    "Pending",
    "PointsAdjusted",
    "ResultConfirmed",
    "ShownHand",
    "TableCreated",
    "TableDecided",
    "TableRearranged",
    "TurnPassed",
    "cards_field",
    "check_fields",
    "declared_field",
    "field_bool",
    "field_choice",
    "field_int",
    "field_seat",
    "field_str",
    "payload_error",
    "read_payload",
    "whole_number",
]

READERS: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {
        TABLE_CREATED: TableCreated.read,
        HAND_RECORDED: HandRecorded.read,
        HAND_VOIDED: HandVoided.read,
        HAND_AMENDED: HandAmended.read,
        HAND_STARTED: HandStarted.read,
        CARD_DRAWN: CardDrawn.read,
        CARD_DISCARDED: CardDiscarded.read,
        TURN_PASSED: TurnPassed.read,
        MELDS_LAID: MeldsLaid.read,
        CARDS_ADDED: CardsAdded.read,
        JOKER_SWAPPED: JokerSwapped.read,
        TABLE_REARRANGED: TableRearranged.read,
        DISCARD_CLAIMED: DiscardClaimed.read,
        KNOCKED: Knocked.read,
        HANDS_SHOWN: HandsShown.read,
        MOVE_UNDONE: MoveUndone.read,
        RESULT_CONFIRMED: ResultConfirmed.read,
        TABLE_DECIDED: TableDecided.read,
        POINTS_ADJUSTED: PointsAdjusted.read,
    }
)


def read_payload(event_type: str, payload: Mapping[str, Any], **context: Any) -> Any:
    """Read an event's payload into its typed value, given the context its reader takes."""
    reader = READERS.get(event_type)
    if reader is None:
        raise RuleViolation(
            Violation(
                rule="EVENT",
                code="unknown_type",
                message=f"Unknown event type '{event_type}'.",
                params={"type": event_type},
            )
        )
    return reader(payload, **context)
