"""Fold a table's event log into its state: ``apply(state, event)`` and ``replay(events)``.

The log is the only source of truth. Every check replays it from the first event, so a
correction (void or amendment) is just another event whose effect the fold applies.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoring.errors import RuleViolation, Violation
from scoring.events import (
    HAND_AMENDED,
    HAND_RECORDED,
    HAND_STARTED,
    HAND_VOIDED,
    MOVE_TYPES,
    MOVE_UNDONE,
    POINTS_ADJUSTED,
    RESULT_CONFIRMED,
    TABLE_CREATED,
    TABLE_DECIDED,
    LogEvent,
)
from scoring.game import GameRules, HandResult
from scoring.hands import MatchOutcome
from scoring.payloads import (
    HandAmended,
    HandRecorded,
    HandStarted,
    HandVoided,
    PointsAdjusted,
    ResultConfirmed,
    TableCreated,
    TableDecided,
    read_payload,
)
from scoring.play import DONE, SHOW, Play, apply_move, start
from scoring.play.state import next_in
from scoring.variants import game_get


@dataclass(frozen=True, slots=True)
class Correction:
    """A later event that voided or amended a hand; ``result`` is None for a void."""

    seq: int
    kind: str  # "voided" | "amended"
    result: HandResult | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of the history: what was first recorded and every correction since."""

    number: int
    seq: int
    original: HandResult
    corrections: tuple[Correction, ...] = ()
    started: int | None = None  # the hand_started seq of a hand recorded play by play

    @property
    def current(self) -> HandResult | None:
        """Return the result in force: the last correction's, or the original."""
        return self.corrections[-1].result if self.corrections else self.original

    @property
    def voided(self) -> bool:
        """Tell whether the hand no longer counts."""
        return self.current is None


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A director's points added to (or taken from) one seat's total, with the reason."""

    seq: int
    seat: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything the log says about a table after some prefix of it."""

    variant: GameRules  # the table's game ("variant" on the wire)
    options: Any
    seats: tuple[str, ...]
    hands: tuple[Hand, ...] = ()
    head_seq: int = 0
    play: Play | None = None  # the hand being recorded play by play
    next_dealer: int = 0
    # The match result over ``hands``, worked out once whenever the hands change (so a long
    # log replays in time linear in its moves, not in hands times moves).
    standing: MatchOutcome | None = None
    standing_results: tuple[HandResult, ...] = ()  # the counted results it was worked from
    # Seats that agreed with the finished match's result, and a director's decision.
    confirmed: tuple[int, ...] = ()
    decision: TableDecided | None = None
    # A director's adjustments of the totals (NIGHT-ADJUST): they move the totals, hence the
    # places that follow them, and count no hand nor end a match.
    adjustments: tuple[Adjustment, ...] = ()

    @property
    def counted(self) -> tuple[HandResult, ...]:
        """Return the results in force, in the order the hands were played."""
        if self.standing is not None:
            return self.standing_results
        return tuple(h.current for h in self.hands if h.current is not None)

    @property
    def hand_totals(self) -> tuple[int, ...]:
        """Return each seat's sum of the hands in force, and nothing else: no re-entry
        (S40-REENTRY), end-of-match bonus (KR-MATCH) or director's adjustment."""
        sums = [0] * len(self.seats)
        for result in self.counted:
            for seat, points in enumerate(result.points):
                sums[seat] += points
        return tuple(sums)

    @property
    def totals(self) -> tuple[int, ...]:
        """Return each seat's score as the rules give it: the match's totals, which add to
        the hands the re-entries, the end-of-match bonuses and the director's adjustments."""
        match_totals = self.match.totals
        if len(match_totals) == len(self.seats):
            return tuple(match_totals)
        sums = list(self.hand_totals)
        for adjustment in self.adjustments:
            sums[adjustment.seat] += adjustment.points
        return tuple(sums)

    @property
    def match(self) -> MatchOutcome:
        """Return where the match stands: over or not, end-of-match bonuses, winners, loser;
        its totals moved by the director's adjustments (its end and winners are its hands')."""
        if self.standing is not None:
            outcome = self.standing
        else:
            outcome = self.variant.match_result(self.options, self.counted)
        if not self.adjustments or not outcome.totals:
            return outcome
        totals = list(outcome.totals)
        for adjustment in self.adjustments:
            totals[adjustment.seat] += adjustment.points
        return replace(outcome, totals=tuple(totals))

    @property
    def winner(self) -> int | None:
        """Return the seat that has won the match: None while it goes on or on a tie.

        A tie (equal best totals, e.g. two Ramino players level after the last hand) is a
        finished match with several winners: ``match.winners`` and the "match" entry list
        them all, and ``winner`` stays None, as no one seat won.
        """
        return self.match.winner

    @property
    def dealer(self) -> int:
        """Return the seat that deals the hand in play, or else the next hand.

        The seats are listed in play order and seat 0 deals the first hand; the deal then
        passes to the next seat after every hand entered, a voided one too (its cards were
        dealt). A hand started play by play may name another dealer; the deal passes on
        from them. docs/rules.md names no dealer rule for these games beyond "clockwise".
        A seat out of the match (S40-MATCH) deals no more: the deal passes over it.
        """
        if self.play is not None:
            return self.play.dealer
        out = self.match.out
        if self.next_dealer in out and len(out) < len(self.seats):
            return next_in(self.next_dealer - 1, len(self.seats), out)
        return self.next_dealer

    @property
    def turn(self) -> int | None:
        """Return the seat to move in the hand in play, if one is being played."""
        if self.play is None or self.play.phase in (SHOW, DONE):
            return None
        return self.play.turn

    @property
    def finished(self) -> bool:
        """Tell whether the match is over."""
        return self.match.finished

    @property
    def closed(self) -> bool:
        """Tell whether the table takes no more hands: its match is over, or decided."""
        return self.decision is not None or self.match.finished

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready projection the server caches and the API returns; its
        hands' entries are shared with other projections of the same hands (read-only).

        ``totals`` is each seat's score as the rules give it (the match's totals: the hands
        in force with the re-entries, end-of-match bonuses and director's adjustments), and
        ``hand_totals``, only where it differs, the hands' sums alone. Variants with a match
        entry (all but Gin, whose cached projections predate it) add "match": the match
        result, which names every winner and the loser (R40-MATCH with two players).
        """
        match = self.match
        totals, hand_totals = self.totals, self.hand_totals
        projection = {
            "variant": self.variant.key,
            "options": self.variant.options_to_dict(self.options),
            "seats": list(self.seats),
            "head_seq": self.head_seq,
            "totals": list(totals),
            "winner": match.winner,
            "finished": match.finished,
            "dealer": self.dealer,
            "turn": self.turn,
            "play": self.play.to_dict() if self.play is not None else None,
            "hands": [_hand_dict(h) for h in self.hands],
        }
        # Only where they differ, so the projections of tables without re-entries, bonuses
        # or adjustments stay as cached tables hold them.
        if hand_totals != totals:
            projection["hand_totals"] = list(hand_totals)
        # Only where partners score as one (Burraco's pairs): the seats of each side.
        if self.variant.partners:
            projection["sides"] = [list(team) for team in self.variant.teams(len(self.seats))]
        entry = self.variant.match_entry
        if entry(self.options) if callable(entry) else entry:
            projection["match"] = match.to_dict()
        # Only where a result was confirmed or decided, so the projections cached before
        # these events existed stay equal to a fresh replay.
        if self.confirmed:
            projection["confirmed"] = list(self.confirmed)
        if self.decision is not None:
            projection["decision"] = _decision_dict(self.decision)
        if self.adjustments:
            projection["adjustments"] = [
                {"seq": a.seq, "seat": a.seat, "points": a.points, "reason": a.reason}
                for a in self.adjustments
            ]
        return projection


# A Hand never changes and is carried on from state to state, so its JSON form is worked out
# once: keyed by the object's id, the entry holding the object so the id stays its own. The
# dicts are shared by every projection that holds the hand: read them, never change them.
_HAND_DICTS: dict[int, tuple[Hand, dict[str, Any]]] = {}
HAND_DICTS_KEPT = 50_000


def _hand_dict(hand: Hand) -> dict[str, Any]:
    kept = _HAND_DICTS.get(id(hand))
    if kept is not None and kept[0] is hand:
        return kept[1]
    made = _hand_dict_made(hand)
    if len(_HAND_DICTS) >= HAND_DICTS_KEPT:
        _HAND_DICTS.clear()
    _HAND_DICTS[id(hand)] = (hand, made)
    return made


def _hand_dict_made(hand: Hand) -> dict[str, Any]:
    current = hand.current
    return {
        "number": hand.number,
        "seq": hand.seq,
        "voided": current is None,
        "played": hand.started is not None,
        "amended": any(c.kind == "amended" for c in hand.corrections),
        "result": current.to_dict() if current is not None else None,
        "original": hand.original.to_dict(),
        "corrections": [
            {
                "seq": c.seq,
                "kind": c.kind,
                "reason": c.reason,
                "result": c.result.to_dict() if c.result is not None else None,
            }
            for c in hand.corrections
        ],
    }


def _decision_dict(decision: TableDecided | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    return {"kind": decision.decision, "reason": decision.reason, "points": list(decision.points)}


def _event_violation(code: str, message: str, **params: Any) -> RuleViolation:
    return RuleViolation(Violation(rule="EVENT", code=code, message=message, params=params))


def _create(event: LogEvent) -> TableState:
    created: TableCreated = read_payload(TABLE_CREATED, event.payload, games=game_get)
    return TableState(
        variant=created.game, options=created.options, seats=created.seats, head_seq=event.seq
    )


def _entry_reader(state: TableState) -> Callable[[Mapping[str, Any]], Any]:
    """Return the table's game's reader of a hand entry, with the table's options and seats."""
    return lambda payload: state.variant.read_entry(state.options, payload, state.seats)


def _correct(state: TableState, event: LogEvent) -> TableState:
    """Apply a void or an amendment to the hand it names."""
    if not state.hands:
        raise _event_violation("no_such_hand", "No hand has been recorded yet.", hand=None)
    correction: HandVoided | HandAmended
    if event.event_type == HAND_VOIDED:
        correction = read_payload(HAND_VOIDED, event.payload, recorded=len(state.hands))
    else:
        correction = read_payload(
            HAND_AMENDED, event.payload, recorded=len(state.hands), entry=_entry_reader(state)
        )
    index = correction.hand - 1
    hand = state.hands[index]
    if isinstance(correction, HandVoided):
        if hand.voided:
            raise _event_violation(
                "already_voided", f"Hand {hand.number} is already void.", hand=hand.number
            )
        kind, result = "voided", None
    else:
        kind = "amended"
        result = state.variant.score_entry(state.options, correction.entry, state.seats)
    fixed = replace(
        hand,
        corrections=(
            *hand.corrections,
            Correction(event.seq, kind, result, correction.reason),
        ),
    )
    hands = (*state.hands[:index], fixed, *state.hands[index + 1 :])
    return replace(state, hands=hands)


def _match_over(state: TableState) -> RuleViolation:
    return RuleViolation(
        Violation(
            rule=state.variant.match_rule,
            code="match_over",
            message="The match is over; no more hands can be recorded.",
        )
    )


def _check_dealer_in(state: TableState, dealer: int | None) -> None:
    """Refuse a deal by a seat out of the match (S40-MATCH), citing the game's match rule."""
    if dealer is not None and dealer in state.match.out:
        raise RuleViolation(
            Violation(
                rule=state.variant.match_rule,
                code="dealer_out",
                message=f"{state.seats[dealer]} is out of the match and cannot deal.",
                params={"player": state.seats[dealer]},
            )
        )


def _check_not_decided(state: TableState) -> None:
    if state.decision is not None:
        raise _event_violation(
            "decided", "The director has decided this table: nothing more can be recorded."
        )


def _confirm(state: TableState, event: LogEvent) -> TableState:
    """Record that a seat agrees with the finished match's result."""
    _check_not_decided(state)
    confirmed: ResultConfirmed = read_payload(
        RESULT_CONFIRMED, event.payload, seats=len(state.seats)
    )
    if not state.finished:
        raise _event_violation(
            "not_finished", "The match is not over: its result cannot be confirmed yet."
        )
    if confirmed.seat in state.confirmed:
        name = state.seats[confirmed.seat]
        raise _event_violation(
            "already_confirmed", f"{name} has already confirmed the result.", name=name
        )
    return replace(state, confirmed=tuple(sorted((*state.confirmed, confirmed.seat))))


def _decide(state: TableState, event: LogEvent) -> TableState:
    """Record a director's decision on the table (a later one replaces it)."""
    decided: TableDecided = read_payload(TABLE_DECIDED, event.payload, seats=len(state.seats))
    if state.play is not None:
        raise _event_violation(
            "hand_in_play",
            "A hand is being played move by move: finish it, or take its moves back.",
        )
    return replace(state, decision=decided)


def _adjust(state: TableState, event: LogEvent) -> TableState:
    """Add a director's adjustment to the totals; players who agreed to the result agree
    again, as after a correction (NIGHT-ADJUST)."""
    adjusted: PointsAdjusted = read_payload(POINTS_ADJUSTED, event.payload, seats=len(state.seats))
    adjustment = Adjustment(event.seq, adjusted.seat, adjusted.points, adjusted.reason)
    return replace(state, adjustments=(*state.adjustments, adjustment), confirmed=())


def _check_can_start(state: TableState) -> None:
    """Refuse a new hand while the match is over or a hand is still being played."""
    _check_not_decided(state)
    if state.finished:
        raise _match_over(state)
    if state.play is not None:
        raise _event_violation(
            "hand_in_play",
            "A hand is being played move by move: finish it, or take its moves back.",
        )


def _move(state: TableState, event: LogEvent) -> TableState:
    """Apply one move to the hand in play; a hand that is over is scored and joins the list."""
    if state.play is None:
        raise _event_violation(
            "no_hand_in_play", "No hand is being played: start one first.", type=event.event_type
        )
    if event.event_type == MOVE_UNDONE and state.play.previous is None:
        # Taking back the deal itself: the hand was never played.
        read_payload(MOVE_UNDONE, event.payload)
        return replace(state, play=None)
    played = apply_move(state.play, event.event_type, event.payload)
    if not played.over:
        return replace(state, play=played)
    result = state.variant.score_play(state.options, played.end, state.seats)
    hand = Hand(number=len(state.hands) + 1, seq=event.seq, original=result, started=played.seq)
    return replace(
        state,
        hands=(*state.hands, hand),
        play=None,
        next_dealer=(played.dealer + 1) % len(state.seats),
    )


def _new_hand(state: TableState, event: LogEvent) -> TableState:
    """Return the state after a hand starts being played or is recorded whole."""
    if event.event_type == HAND_STARTED:
        rules = state.variant.play_rules(state.options, len(state.seats))
        deal: HandStarted = read_payload(
            HAND_STARTED,
            event.payload,
            seats=len(state.seats),
            discard_pile=rules.discard_pile,
        )
        _check_dealer_in(state, deal.dealer)
        started = start(
            rules,
            state.seats,
            deal,
            dealer=state.dealer,
            seq=event.seq,
            out=state.match.out,
            # The totals before the hand, where an opening's minimum turns on them (CAN-OPEN-1).
            totals=state.totals if rules.opening_by_total is not None else (),
        )
        return replace(state, play=started)
    recorded: HandRecorded = read_payload(HAND_RECORDED, event.payload, entry=_entry_reader(state))
    result = state.variant.score_entry(state.options, recorded.entry, state.seats)
    hand = Hand(number=len(state.hands) + 1, seq=event.seq, original=result)
    return replace(
        state,
        hands=(*state.hands, hand),
        next_dealer=(state.dealer + 1) % len(state.seats),
    )


def apply(state: TableState | None, event: LogEvent) -> TableState:
    """Return the state after ``event``, or raise RuleViolation if the event breaks a rule."""
    if state is None:
        if event.event_type != TABLE_CREATED:
            raise _event_violation("not_created", "A table's log must start with its creation.")
        return _create(event)
    if event.event_type == TABLE_CREATED:
        raise _event_violation("already_created", "This table has already been created.")
    if event.seq != state.head_seq + 1:
        raise _event_violation(
            "bad_seq", "Events must follow each other.", seq=event.seq, head=state.head_seq
        )
    before = state.hands
    if event.event_type in (HAND_RECORDED, HAND_STARTED):
        _check_can_start(state)
        state = _new_hand(state, event)
    elif event.event_type in (*MOVE_TYPES, MOVE_UNDONE):
        state = _move(state, event)
    elif event.event_type in (HAND_VOIDED, HAND_AMENDED):
        _check_not_decided(state)
        state = _correct(state, event)
    elif event.event_type == RESULT_CONFIRMED:
        state = _confirm(state, event)
    elif event.event_type == TABLE_DECIDED:
        state = _decide(state, event)
    elif event.event_type == POINTS_ADJUSTED:
        state = _adjust(state, event)
    else:
        raise _event_violation(
            "unknown_type", f"Unknown event type '{event.event_type}'.", type=event.event_type
        )
    if state.hands is not before:
        # An amendment may end the match at an earlier hand than the last one recorded: the
        # variant refuses that (e.g. R40-MATCH match_over), and so the event is refused.
        counted, standing = _match_after(state, before)
        state = replace(state, standing=standing, standing_results=counted)
        if state.play is not None and state.finished:
            # ... and so it may while a hand is being played, which then could never count.
            raise _match_over(state)
        if state.confirmed:
            # The result the players agreed to has changed: they must agree again.
            state = replace(state, confirmed=())
    return replace(state, head_seq=event.seq)


def _match_after(
    state: TableState, before: tuple[Hand, ...]
) -> tuple[tuple[HandResult, ...], MatchOutcome]:
    """Return the results in force after the hands changed from ``before``, and the match.

    A new hand on the end of a match in play (the usual case, and at a long table the one
    that matters) adds its result to those counted, and its points to the running totals,
    as long as the game says the match cannot be over with them; otherwise, and after any
    correction, the game works the match out from every result.
    """
    game, previous = state.variant, state.standing
    added = len(state.hands) == len(before) + 1 and state.hands[: len(before)] == before
    if added and previous is not None:
        new = state.hands[-1].current
        counted = state.standing_results + ((new,) if new is not None else ())
        if (
            new is not None
            and game.may_end is not None
            and not previous.finished
            and len(previous.totals) == len(new.points)
        ):
            totals = tuple(a + b for a, b in zip(previous.totals, new.points, strict=True))
            if not game.may_end(state.options, totals, len(counted)):
                return counted, MatchOutcome(finished=False, hands=len(counted), totals=totals)
        return counted, game.match_result(state.options, counted)
    counted = tuple(h.current for h in state.hands if h.current is not None)
    return counted, game.match_result(state.options, counted)


def replay(events: Iterable[LogEvent]) -> TableState:
    """Fold a whole log, first event first, into the table's state."""
    state: TableState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise _event_violation("empty_log", "The log is empty.")
    return state
