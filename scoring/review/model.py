"""What a hand review holds: frozen dataclasses, each with its JSON form (``to_dict``).

The review is built once (scoring/review/build.py) and never changes; it holds cards and
melds, not payloads, so it pickles as it is (a cache may keep it). ``to_dict`` writes cards
in the notation of CARD-3 and melds as their cards, each joker with the card it stands for
(``JK=9S``), under keys that do not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card
from scoring.melds import Meld

# How a hand reached the table: played move by move, or entered whole by the cards each
# player held, or entered by counts or points (nothing to review but the score).
PLAYED = "played"
CARDS = "cards"
POINTS = "points"

# Missed chances (Chance.kind), each flagged on the turn it happened.
KNOCK = "knock"  # could knock (GIN-KNOCK, KR-KNOCK) and did not
# Could knock with every card melded, after a discard (GIN-GIN) or without one (GIN-BIGGIN),
# and did not. A game names these in its own words (GameWords.chances).
ALL_MELDED = "all_melded"
ALL_MELDED_NO_DISCARD = "all_melded_no_discard"
OUT = "out"  # could go out (R40-HAND, RAM-OUT, KR-OUT) and did not
OPEN = "open"  # could reach the opening minimum (R40-OPEN, RAM-OPEN) and did not open
LAYOFF = "layoff"  # kept cards a table meld could take (R40-ADD, RAM-ADD)
SWAP = "swap"  # could take a table joker back and use it (R40-JOKER-STEAL, RAM-JOKER-SWAP)
FED = "fed"  # a discard the next player picked up and melded
CHANCE_KINDS = (KNOCK, ALL_MELDED, ALL_MELDED_NO_DISCARD, OUT, OPEN, LAYOFF, SWAP, FED)

# Decisions weighed by the game's measure (Cost.kind beside the chances').
DISCARD = "discard"
DRAW = "draw"
MELDING = "melding"


def _cards(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [str(card) for card in cards]


def _meld(meld: Meld) -> list[str]:
    return str(meld).split()


@dataclass(frozen=True, slots=True)
class SeatView:
    """Hold one seat's hand at one step, as the whole log shows it in hindsight.

    ``count`` is what the log says the seat holds; ``cards`` the ones the log names, in
    hindsight, for that moment; ``unknown`` how many more it holds that no one can name:
    cards never seen, or seen later but held since a draw nobody named, so that which of
    them it held then cannot be told. ``shown`` marks cards laid open at the end (a Gin
    knock, the hands shown).
    """

    count: int
    cards: tuple[Card, ...]
    unknown: int
    opened: bool = False
    shown: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the seat's hand ready for JSON."""
        return {
            "count": self.count,
            "cards": _cards(self.cards),
            "unknown": self.unknown,
            "opened": self.opened,
            "shown": self.shown,
        }


@dataclass(frozen=True, slots=True)
class TableMeldView:
    """Hold a meld on the table at one step: its number (as moves name it), owner, cards."""

    number: int
    owner: int
    meld: Meld

    def to_dict(self) -> dict[str, Any]:
        """Return the meld ready for JSON."""
        return {
            "number": self.number,
            "owner": self.owner,
            "kind": self.meld.kind,
            "cards": _meld(self.meld),
        }


@dataclass(frozen=True, slots=True)
class Step:
    """Hold the hand after one move (``index`` 0: after the deal), for the replay stepper.

    ``move`` is the log entry's type and ``seq`` its place in the table's log; ``seat`` who
    moved (None for the deal and the hands shown); ``cards`` the cards the move put in play
    or took, in hindsight (a draw's card when it is known; a discard; the cards laid);
    ``source`` a draw's ("stock" or "discard"). ``turn`` is the number of the review's turn
    the move belongs to (None: the deal, a claim out of turn, the hands shown) and
    ``to_move`` whose turn it is after it (None once the hand is over).
    """

    index: int
    seq: int
    move: str
    seat: int | None
    cards: tuple[Card, ...]
    source: str | None
    turn: int | None
    to_move: int | None
    phase: str
    hands: tuple[SeatView, ...]
    table: tuple[TableMeldView, ...]
    discard_top: Card | None
    discard_count: int
    stock: int

    def to_dict(self, previous: Step | None = None) -> dict[str, Any]:
        """Return the step ready for JSON: whole, or with ``previous`` (the step before it)
        only what changed since (``hands``: the seats whose hand changed, each with its
        ``seat``; ``table``: the melds new or changed; ``table_count`` how many there are).
        A hand of a hundred moves so answers each seat's cards once a change, not once a
        step; ``with_changes`` puts a whole step back together."""
        hands = [
            {"seat": seat, **hand.to_dict()}
            for seat, hand in enumerate(self.hands)
            if previous is None or previous.hands[seat] != hand
        ]
        before = previous.table if previous is not None else ()
        table = [
            meld.to_dict()
            for at, meld in enumerate(self.table)
            if at >= len(before) or before[at] != meld
        ]
        return {
            "index": self.index,
            "seq": self.seq,
            "move": self.move,
            "seat": self.seat,
            "cards": _cards(self.cards),
            "source": self.source,
            "turn": self.turn,
            "to_move": self.to_move,
            "phase": self.phase,
            "hands": hands,
            "table": table,
            "table_count": len(self.table),
            "discard_top": str(self.discard_top) if self.discard_top is not None else None,
            "discard_count": self.discard_count,
            "stock": self.stock,
        }


def with_changes(whole: dict[str, Any] | None, changes: dict[str, Any]) -> dict[str, Any]:
    """Return the whole step ``changes`` (a step's JSON with what changed, as
    ``HandReview.to_dict`` answers it) makes of ``whole`` (the whole step before it; None
    for the deal, which comes whole): every seat's hand in seat order, every table meld."""
    if whole is None:
        return changes
    hands = list(whole["hands"])
    for hand in changes["hands"]:
        hands[hand["seat"]] = hand
    table = list(whole["table"][: changes["table_count"]])
    for meld in changes["table"]:
        at = meld["number"] - 1
        table[at : at + 1] = [meld]
    return {**changes, "hands": hands, "table": table}


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """Weigh a discard by the game's count of the cards kept (``rule``).

    ``left`` is what the cards kept after the discard made count, ``best`` the discards
    that leave the least (``best_left``) and ``lost`` the difference (0 when the discard was
    among the best). ``card`` is None for a way out without a discard (Big Gin). Where the
    game has an opening, ``opening`` and ``best_opening`` are the most valuable opening
    (VALUE) the cards kept hold, after the discard made and after the first best one (None
    once the seat has opened); ``unmelded`` and ``best_unmelded`` count the cards kept that
    no meld (nor, once opened, any table meld) takes, how far from going out.
    """

    card: Card | None
    left: int
    best: tuple[Card, ...]
    best_left: int
    lost: int
    rule: str
    unmelded: int
    best_unmelded: int
    opening: int | None = None
    best_opening: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the weighing ready for JSON."""
        return {
            "card": str(self.card) if self.card is not None else None,
            "left": self.left,
            "best": _cards(self.best),
            "best_left": self.best_left,
            "lost": self.lost,
            "rule": self.rule,
            "unmelded": self.unmelded,
            "best_unmelded": self.best_unmelded,
            "opening": self.opening,
            "best_opening": self.best_opening,
        }


@dataclass(frozen=True, slots=True)
class DrawReview:
    """Weigh a draw: the card taken against the one the other source held, each by the
    count the cards kept leave after the best discard (``rule``: the game's count).

    ``other`` is the top of the discard pile for a stock draw, or for a draw from the pile
    the stock's next card (known, in hindsight, from the draw that took it).
    """

    source: str
    card: Card
    other: Card
    left: int
    other_left: int
    lost: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """Return the weighing ready for JSON."""
        return {
            "source": self.source,
            "card": str(self.card),
            "other": str(self.other),
            "left": self.left,
            "other_left": self.other_left,
            "lost": self.lost,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class MeldingReview:
    """Weigh a turn without a discard (Knock Rummy): the points left in hand after it
    (``left``) against the least its cards could leave (``best_left``), melding and laying
    off onto the table as it stood at the best moment of the turn (step ``step``)."""

    left: int
    best_left: int
    lost: int
    step: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """Return the weighing ready for JSON."""
        return {
            "left": self.left,
            "best_left": self.best_left,
            "lost": self.lost,
            "step": self.step,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Chance:
    """Hold a missed chance, flagged on the turn it happened (``kind``: CHANCE_KINDS).

    ``seat`` missed it (for FED: who discarded; ``by`` who picked the card up). ``points``
    is what was at stake, in the game's points (None where it cannot be told):

    - KNOCK, ALL_MELDED, ALL_MELDED_NO_DISCARD, OUT: the swing, from ``scores``: how much
      the seat's score less the opponents' (added up) would have gained had the hand ended
      so, over the hand as scored (turned round where lower is better);
    - OPEN: the value, in hand, of the cards the opening would have laid;
    - LAYOFF, SWAP: how much less the cards kept would count;
    - FED: how much the card taken saved the player who took it (their draw's weighing).

    ``scores`` is what the hand would have scored, seat by seat, had it ended there: worked
    out in hindsight from the other hands as the whole log shows them (None when one is
    not known). ``cards`` and ``melds`` are the chance's cards: the discard of a knock, an
    opening's or a way out's melds, the cards a layoff or a swap would move, the card fed.
    A knock's melds are those its score lays out (GIN-LAYOFF: of the least arrangements,
    the one that leaves the defender the most).
    """

    kind: str
    seat: int
    turn: int
    step: int
    rule: str
    points: int | None
    cards: tuple[Card, ...] = ()
    melds: tuple[Meld, ...] = ()
    scores: tuple[int, ...] | None = None
    by: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the chance ready for JSON."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "turn": self.turn,
            "step": self.step,
            "rule": self.rule,
            "points": self.points,
            "cards": _cards(self.cards),
            "melds": [_meld(meld) for meld in self.melds],
            "scores": list(self.scores) if self.scores is not None else None,
            "hindsight": self.scores is not None,
            "by": self.by,
        }


@dataclass(frozen=True, slots=True)
class TurnReview:
    """Hold one turn of one seat: its steps, what its decisions were worth, what it missed.

    ``known`` says whether the seat's cards were known, in hindsight, when it decided;
    where they were not (``unknown`` cards no one can name), the turn's weighings are None
    rather than guessed. ``held`` is the value of the cards in hand after the turn and
    ``left`` the game's count of them (Gin's deadwood, the points the others' melds and
    layoffs would leave), None where not known.
    """

    number: int
    seat: int
    first_step: int
    last_step: int
    known: bool
    unknown: int
    held: int | None = None
    left: int | None = None
    draw: DrawReview | None = None
    discard: DiscardReview | None = None
    melding: MeldingReview | None = None
    chances: tuple[Chance, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the turn ready for JSON."""
        return {
            "number": self.number,
            "seat": self.seat,
            "first_step": self.first_step,
            "last_step": self.last_step,
            "known": self.known,
            "unknown": self.unknown,
            "held": self.held,
            "left": self.left,
            "draw": self.draw.to_dict() if self.draw is not None else None,
            "discard": self.discard.to_dict() if self.discard is not None else None,
            "melding": self.melding.to_dict() if self.melding is not None else None,
            "chances": [chance.to_dict() for chance in self.chances],
        }


@dataclass(frozen=True, slots=True)
class Layoff:
    """Hold a card laid (or that could be laid) on a meld: the meld's number, from 1."""

    card: Card
    meld: int

    def to_dict(self) -> dict[str, Any]:
        """Return the layoff ready for JSON."""
        return {"card": str(self.card), "meld": self.meld}


@dataclass(frozen=True, slots=True)
class EndSeat:
    """Hold one seat's cards at the end of the hand, and what they could have counted.

    ``cards`` are the cards held at the end (a Gin knocker's, those kept), None where the
    log never shows them (shown by points, a hand void at the wall). ``count`` is what they
    counted as scored (Gin: deadwood, the defender's after layoffs; the others: the points
    in hand), ``melds`` and ``deadwood`` their best arrangement, ``best`` the least they
    could have counted (their own melds and, where the seat could, layoffs onto the table's
    melds), and ``layoffs`` those layoffs: made (a Gin defender's, laid by the scoring) or
    missed (``layoffs_made`` False). ``melds_on`` numbers the melds a layoff goes on: the
    knocker's melds (Gin), or the table's at the end.
    """

    seat: int
    cards: tuple[Card, ...] | None
    count: int | None
    best: int | None
    melds: tuple[Meld, ...] = ()
    deadwood: tuple[Card, ...] = ()
    layoffs: tuple[Layoff, ...] = ()
    layoffs_made: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the seat's end ready for JSON."""
        return {
            "seat": self.seat,
            "cards": _cards(self.cards),
            "count": self.count,
            "best": self.best,
            "melds": [_meld(meld) for meld in self.melds],
            "deadwood": _cards(self.deadwood),
            "layoffs": [layoff.to_dict() for layoff in self.layoffs],
            "layoffs_made": self.layoffs_made,
        }


@dataclass(frozen=True, slots=True)
class EndReview:
    """Hold the end of the hand: how it ended, who ended it, each seat's cards, the melds
    layoffs go on (``table``: Gin's knocker's melds, the others' table; for a hand entered
    by cards, the melded cards arranged into melds, ``table_known`` False)."""

    ending: str | None
    ender: int | None
    rule: str
    seats: tuple[EndSeat, ...]
    table: tuple[Meld, ...] = ()
    table_known: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Return the end ready for JSON."""
        return {
            "ending": self.ending,
            "ender": self.ender,
            "rule": self.rule,
            "seats": [seat.to_dict() for seat in self.seats],
            "table": [_meld(meld) for meld in self.table],
            "table_known": self.table_known,
        }


@dataclass(frozen=True, slots=True)
class Cost:
    """Hold one decision that cost points: the turn, its kind (DISCARD, DRAW, MELDING or a
    chance's kind), the rule it is weighed by and the points at stake."""

    turn: int
    step: int
    kind: str
    rule: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        """Return the cost ready for JSON."""
        return {
            "turn": self.turn,
            "step": self.step,
            "kind": self.kind,
            "rule": self.rule,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """Hold one seat's figures after one of its turns: the value of the cards in hand
    (``held``) and the game's count of them (``left``), None where not known."""

    turn: int
    step: int
    held: int | None
    left: int | None

    def to_dict(self) -> dict[str, Any]:
        """Return the point ready for JSON."""
        return {"turn": self.turn, "step": self.step, "held": self.held, "left": self.left}


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """Hold one player's review: the decisions that cost points, worst first (equal points
    by turn, then step), the turn-by-turn chart, and how many turns could not be weighed.

    ``costs`` lists the weighings that lost points (DISCARD, DRAW, MELDING) and the chances
    with points at stake; a chance passed up again on the player's next turn (the same kind,
    the same cards: a joker still not taken back) is listed once, where it first arose.
    ``lost`` sums the weighings alone: the chances overlap them (a knock passed up is also a
    discard), so they are listed, not added. ``accuracy`` is the share of the player's
    weighed decisions (``decisions``: draws, discards, Knock Rummy's meldings) that matched
    the best (``matched``: none lost a point), in whole percent rounded half up; None where
    no decision was weighed.
    """

    seat: int
    name: str
    lost: int
    costs: tuple[Cost, ...]
    chart: tuple[ChartPoint, ...]
    turns: int
    unknown_turns: int
    decisions: int = 0
    matched: int = 0

    @property
    def accuracy(self) -> int | None:
        """Return the share of weighed decisions that matched the best, in whole percent."""
        if not self.decisions:
            return None
        return (200 * self.matched + self.decisions) // (2 * self.decisions)

    def to_dict(self) -> dict[str, Any]:
        """Return the player's review ready for JSON."""
        return {
            "seat": self.seat,
            "name": self.name,
            "lost": self.lost,
            "costs": [cost.to_dict() for cost in self.costs],
            "chart": [point.to_dict() for point in self.chart],
            "turns": self.turns,
            "unknown_turns": self.unknown_turns,
            "decisions": self.decisions,
            "matched": self.matched,
            "accuracy": self.accuracy,
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """Hold the review of one finished hand: the stepper's steps, each turn weighed, the
    missed chances, the end of the hand and each player's summary.

    ``kind`` is PLAYED, CARDS or POINTS (entered by counts or points: only ``points``).
    ``points`` is what the hand scored as played or entered; ``voided`` and ``amended``
    say a later correction changed what counts (the review is of the hand as it was).
    ``complete`` says every turn was known in hindsight. A review never changes the log
    nor the score: it is read from them.
    """

    variant: str
    seats: tuple[str, ...]
    number: int
    kind: str
    points: tuple[int, ...]
    count_rule: str
    lower_is_better: bool
    voided: bool = False
    amended: bool = False
    complete: bool = True
    dealer: int | None = None
    steps: tuple[Step, ...] = ()
    turns: tuple[TurnReview, ...] = ()
    chances: tuple[Chance, ...] = ()
    end: EndReview | None = None
    players: tuple[PlayerSummary, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the review ready for JSON (the API's answer)."""
        return {
            "variant": self.variant,
            "seats": list(self.seats),
            "number": self.number,
            "kind": self.kind,
            "points": list(self.points),
            "count_rule": self.count_rule,
            "lower_is_better": self.lower_is_better,
            "voided": self.voided,
            "amended": self.amended,
            "complete": self.complete,
            "dealer": self.dealer,
            "steps": [
                step.to_dict(self.steps[at - 1] if at else None)
                for at, step in enumerate(self.steps)
            ],
            "turns": [turn.to_dict() for turn in self.turns],
            "chances": [chance.to_dict() for chance in self.chances],
            "end": self.end.to_dict() if self.end is not None else None,
            "players": [player.to_dict() for player in self.players],
        }
