"""A finished hand's review (scoring/review/), worked out once and kept in the shared cache.

A hand's review changes only when a later event voids or amends that hand; nothing else
the log gains touches it (docs/design.md, "Hand review"). So it is kept under the table,
the hand's number and the seq of the hand's last correction (the hand's own seq while it
has none), and a correction makes a new key: no review is ever served stale, and none is
ever deleted. The cache is the app's shared one: while Redis is away its reads miss and
its writes are skipped (games/shared/cache.py), so the review is worked out again from the
log, never refused. Reading a review changes nothing: the log is only read.

What is kept is the review's wire form (``HandReview.to_dict``, the API's answer), each
step and each turn as its own JSON text: a page reads one step (put back together from
the steps' changes up to it: each step after the deal holds only what changed) and one
turn of a hand of a hundred moves, and the API's answer is put together from the texts as
they are. Kept
as frozen dataclasses, or as one tree of lists and dicts, a six-player Ramino hand of 121
moves comes back from the cache as some 40,000 objects: 10 to 20 ms of unpickling, and
the collector's full passes over the whole process that so many new objects set off (up
to 90 ms), where a page opened again must answer within 50 ms.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q

from games.tables.log import engine_events
from games.tables.models import Table
from games.tables.selectors import table_state
from scoring.errors import RuleViolation
from scoring.review import review_hand, with_changes

# Bumped when scoring/review/ changes what a review says, or this module how it keeps one,
# so that older ones are not read back.
REVIEW_FORMAT = 3
# A review never goes stale under its key: it is kept as long as a cache keeps anything.
REVIEW_SECONDS = 30 * 24 * 60 * 60
# The parts of the review kept as a JSON text an item.
APART = ("steps", "turns")


class NoSuchHand(LookupError):
    """The table has no finished hand of that number (yet)."""


@dataclass(frozen=True)
class KeptReview:
    """A hand's review as kept: ``summary`` is ``HandReview.to_dict`` but its steps and
    turns, which ``steps`` and ``turns`` hold as a JSON text each; ``discard_pile`` says
    whether any step had a discard pile (a game without one shows none)."""

    summary: dict[str, Any]
    steps: tuple[str, ...]
    turns: tuple[str, ...]
    discard_pile: bool

    @classmethod
    def of(cls, review: dict[str, Any]) -> KeptReview:
        """Return the review (``HandReview.to_dict``) as kept."""
        summary = {key: value for key, value in review.items() if key not in APART}
        texts = {key: tuple(_json(item) for item in review[key]) for key in APART}
        pile = any(step["discard_count"] for step in review["steps"])
        return cls(summary, texts["steps"], texts["turns"], pile)

    def step(self, index: int) -> dict[str, Any]:
        """Return step ``index`` whole (``Step.to_dict``): each step is kept as the API
        answers it, with what changed since the step before, so the steps up to it are put
        back together (a hundred small texts: well under a millisecond)."""
        whole = None
        for text in self.steps[: index + 1]:
            whole = with_changes(whole, json.loads(text))
        assert whole is not None
        return whole

    def turn(self, number: int) -> dict[str, Any]:
        """Return turn ``number``, from 1 (``TurnReview.to_dict``)."""
        return json.loads(self.turns[number - 1])

    def json(self) -> str:
        """Return the whole review as JSON: the API's answer, put together from the texts."""
        parts = [_json(self.summary)[:-1]]
        for key in APART:
            parts.append(f', "{key}": [{", ".join(getattr(self, key))}]')
        return "".join(parts) + "}"

    def to_cache(self) -> tuple:
        # A plain tuple of texts and small dicts: quick to unpickle (a dataclass is not).
        return (REVIEW_FORMAT, self.summary, self.steps, self.turns, self.discard_pile)

    @classmethod
    def from_cache(cls, kept: Any) -> KeptReview | None:
        if isinstance(kept, tuple) and len(kept) == 5 and kept[0] == REVIEW_FORMAT:
            return cls(*kept[1:])
        return None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def review_key(*, table_id, number: int, corrected: int) -> str:
    """Return the cache key of hand ``number``'s review at the table, as of the seq of the
    hand's last correction (``corrected``; the hand's own seq while it has none)."""
    return f"hand-review:{REVIEW_FORMAT}:{table_id}:{number}:{corrected}"


def hand_review(*, table: Table, number: int) -> KeptReview:
    """Return the review of the table's finished hand ``number`` (from 1, as the history
    numbers hands): from the cache, or worked out from the log and kept there.

    NoSuchHand for a hand the table has not finished; the log is never written.
    """
    hands = table_state(table=table)["hands"]
    if not 1 <= number <= len(hands):
        raise NoSuchHand(number)
    hand = hands[number - 1]
    corrections = [correction["seq"] for correction in hand["corrections"]]
    key = review_key(table_id=table.id, number=number, corrected=max([hand["seq"], *corrections]))
    kept = KeptReview.from_cache(cache.get(key))
    if kept is not None:
        return kept
    # The log up to the event that scored the hand, and the hand's own corrections (they
    # set its voided and amended flags): nothing after it changes the review.
    rows = table.events.filter(Q(seq__lte=hand["seq"]) | Q(seq__in=corrections)).order_by("seq")
    try:
        review = review_hand(engine_events(rows), number)
    except RuleViolation as exc:  # a hand the log does not finish: none to review
        raise NoSuchHand(number) from exc
    kept = KeptReview.of(review.to_dict())
    cache.set(key, kept.to_cache(), REVIEW_SECONDS)
    return kept


@dataclass(frozen=True)
class ReviewStep:
    """What the replay stepper shows at one step of a hand played move by move: the step
    (``Step.to_dict``), the turn it belongs to (``TurnReview.to_dict``; None for the deal, a
    claim or the hands shown), its place and the steps either side (None at the ends)."""

    index: int
    count: int
    step: dict[str, Any]
    turn: dict[str, Any] | None
    previous: int | None
    next: int | None


def review_step(review: KeptReview, index: int) -> ReviewStep | None:
    """Return step ``index`` of a review's stepper; None for a hand not played move by move,
    ValueError for an index outside its steps."""
    count = len(review.steps)
    if not count:
        return None
    if not 0 <= index < count:
        raise ValueError(index)
    step = review.step(index)
    return ReviewStep(
        index=index,
        count=count,
        step=step,
        turn=review.turn(step["turn"]) if step["turn"] is not None else None,
        previous=index - 1 if index > 0 else None,
        next=index + 1 if index + 1 < count else None,
    )
