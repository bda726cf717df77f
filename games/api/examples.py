"""The API docs' examples of hands played move by move: each game's worked hand
(scoring/samples.py).

tests/games/test_api_examples.py appends every sample through the API and checks the score
worked out by hand, so the docs cannot drift from the engine.
"""

from typing import Any

from drf_spectacular.utils import OpenApiExample

from scoring.events import TABLE_CREATED, LogEvent
from scoring.review import review_hand
from scoring.samples import played, reviewed_of

__all__ = ["move_examples", "review_example"]

# What each type of move is, for the docs.
MOVE_TITLES = {
    "hand_started": "deal a hand to play move by move",
    "card_drawn": "draw from the stock or the discard pile",
    "card_discarded": "discard",
    "turn_passed": "pass (Gin's first turn) or end a Knock Rummy turn",
    "melds_laid": "lay new melds (the first are the opening)",
    "cards_added": "add cards to a meld on the table",
    "joker_swapped": "swap a table joker for the card it stands for",
    "table_rearranged": "rearrange the shared table (Knock Rummy)",
    "discard_claimed": "claim the last discard by knocking (Ramino house rule)",
    "knocked": "knock",
    "hands_shown": "show the hands left at the end",
}


def move_examples() -> list[OpenApiExample]:
    """Return one example per game and move type, taken from the sample hands in order."""
    examples = []
    for number, sample in enumerate(played()):
        seen: set[str] = set()
        for seq, (event_type, payload) in enumerate(sample.events, start=1):
            if event_type in seen:
                continue
            seen.add(event_type)
            examples.append(
                OpenApiExample(
                    f"{sample.title}, play by play: {MOVE_TITLES[event_type]}",
                    description=f"Event {seq + 1} of a worked {sample.title} hand "
                    f"({', '.join(sample.players)}); tests replay the whole hand.",
                    value={
                        "event_id": f"00000000-0000-4000-8000-{number:04d}{seq:08d}",
                        "expected_seq": seq,
                        "type": event_type,
                        "payload": payload,
                    },
                    request_only=True,
                )
            )
    examples.append(
        OpenApiExample(
            "Any game, play by play: take back the last move",
            value={
                "event_id": "00000000-0000-4000-8000-999900000001",
                "expected_seq": 5,
                "type": "move_undone",
                "payload": {"reason": "wrong card"},
            },
            request_only=True,
        )
    )
    examples.append(
        OpenApiExample(
            "Any game, after the match: a player confirms the result",
            description="Seat 1 (the second player) agrees with the finished match's result. "
            "Each seat confirms once; a later correction of a hand asks for it again.",
            value={
                "event_id": "00000000-0000-4000-8000-999900000002",
                "expected_seq": 9,
                "type": "result_confirmed",
                "payload": {"seat": 1},
            },
            request_only=True,
        )
    )
    return examples


def review_example() -> dict[str, Any]:
    """Return the review of Gin's reviewed hand (scoring/variants/gin/samples.py), as the API
    answers it: reviewed by the engine here, so the docs' example is what the API says of it."""
    sample = reviewed_of("gin")
    created = {"variant": sample.variant, "options": sample.options, "seats": list(sample.players)}
    events = [LogEvent(1, TABLE_CREATED, created)]
    events += [LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(sample.events, 2)]
    return review_hand(events, 1).to_dict()
