"""Build a hand's review from a table's log: the stepper, the turns, the end, the summary."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from scoring.errors import RuleViolation, Violation
from scoring.events import (
    CARD_DRAWN,
    DISCARD_CLAIMED,
    HAND_AMENDED,
    HAND_STARTED,
    HAND_VOIDED,
    MOVE_TYPES,
    MOVE_UNDONE,
    LogEvent,
)
from scoring.game import GameRules, HandResult
from scoring.play import DONE, SHOW, Play, apply_move
from scoring.replay import TableState, apply
from scoring.review.ending import entered_end, played_end, shown_melds_end
from scoring.review.hindsight import Hindsight
from scoring.review.judge import Judge
from scoring.review.model import (
    CARDS,
    DISCARD,
    DRAW,
    MELDING,
    PLAYED,
    POINTS,
    Chance,
    ChartPoint,
    Cost,
    EndReview,
    HandReview,
    PlayerSummary,
    Step,
    TableMeldView,
    TurnReview,
)
from scoring.review.turns import Rules, TurnReader, segments


def _no_such_hand(number: int, recorded: int) -> RuleViolation:
    return RuleViolation(
        Violation(
            rule="EVENT",
            code="no_such_hand",
            message=f"This table has no finished hand {number}: it has {recorded}.",
            params={"hand": number, "recorded": recorded},
        )
    )


def review_hand(
    events: Iterable[LogEvent], number: int, *, start: TableState | None = None
) -> HandReview:
    """Return the review of hand ``number`` (from 1, as the history numbers hands) of the
    table whose whole log is ``events``, first event first.

    The log is replayed up to the hand, never changed; a hand that is not recorded (yet)
    is refused (EVENT, ``no_such_hand``), as is a log the engine refuses. A caller holding
    a state of the table from before the hand was dealt (a snapshot) passes it as
    ``start`` and only the events after it, sparing the replay of a long log's beginning.
    """
    if start is not None and (len(start.hands) >= number or start.play is not None):
        raise ValueError(f"start from a state between hands, before hand {number}")
    state: TableState | None = start
    started: Play | None = None
    # The hand's standing moves, each with the state after it (a take-back pops one).
    standing: list[tuple[LogEvent, Play]] = []
    scored_by: LogEvent | None = None
    rest = iter(events)
    for event in rest:
        before = state
        state = apply(state, event)
        if event.event_type == HAND_STARTED:
            started, standing = state.play, []
        elif event.event_type == MOVE_UNDONE:
            if standing:
                standing.pop()
        elif event.event_type in MOVE_TYPES and before is not None and before.play is not None:
            after = state.play
            if after is None:  # the move scored the hand: its last state, once more
                after = apply_move(before.play, event.event_type, event.payload)
            standing.append((event, after))
        if before is not None and len(state.hands) > len(before.hands) == number - 1:
            scored_by = event
            break
    if state is None or scored_by is None:
        raise _no_such_hand(number, len(state.hands) if state is not None else 0)
    hand = state.hands[number - 1]
    game, options, seats = state.variant, state.options, state.seats
    if hand.started is not None and started is not None:
        sight = Hindsight.played(started, standing)
        review = _review_sight(game, options, sight, number=number, result=hand.original)
    else:
        entry = game.read_entry(options, scored_by.payload, seats)
        review = review_entered(game, options, seats, entry, hand.original, number=number)
    return _corrected(review, rest, number)


def _corrected(review: HandReview, events: Iterable[LogEvent], number: int) -> HandReview:
    """Return the review flagged with the corrections later events made to its hand."""
    kind = None
    for event in events:
        if event.event_type in (HAND_VOIDED, HAND_AMENDED) and event.payload.get("hand") == number:
            kind = event.event_type
    if kind is None:
        return review
    return replace(review, voided=kind == HAND_VOIDED, amended=kind == HAND_AMENDED)


def _closing(game: GameRules, options: Any) -> Any:
    return game.referee.closing(options) if game.referee.closing is not None else None


def review_played(
    game: GameRules,
    options: Any,
    started: Play,
    events: Sequence[LogEvent],
    *,
    number: int,
    result: HandResult | None = None,
) -> HandReview:
    """Return the review of a hand played move by move: ``started`` is the hand as dealt
    (the table's state right after its hand_started), ``events`` its moves and take-backs
    after that, in order. ``result`` is what it scored (worked out again when None)."""
    sight = Hindsight.of(started, events)
    return _review_sight(game, options, sight, number=number, result=result)


def _turns(
    reader: TurnReader, sight: Hindsight
) -> tuple[list[tuple[TurnReview, list]], dict[int, int]]:
    """Return each turn weighed with its moves, and each move's turn number."""
    turns: list[tuple[TurnReview, list]] = []
    turn_of: dict[int, int] = {}
    for moves in segments(sight.moves):
        if moves[0].event.event_type == DISCARD_CLAIMED:
            continue
        number_of_turn = len(turns) + 1
        turns.append((reader.turn(number_of_turn, moves), moves))
        for move in moves:
            turn_of[move.index] = number_of_turn
    return turns, turn_of


def _review_sight(
    game: GameRules,
    options: Any,
    sight: Hindsight,
    *,
    number: int,
    result: HandResult | None,
) -> HandReview:
    """Return the review of a hand played move by move, read in hindsight."""
    started = sight.plays[0]
    final = sight.plays[-1]
    if result is None and final.end is not None:
        result = game.score_play(options, final.end, started.seats)
    seats = started.seats
    points = tuple(result.points) if result is not None else (0,) * len(seats)
    judge = Judge(started.rules, _closing(game, options))
    reader = TurnReader(game, options, sight, judge, points)
    turns, turn_of = _turns(reader, sight)
    # The chances and the end are the solver's: none where a game reads its own melds.
    weighed = started.rules.solver_weighs
    for chance in reader.fed(turns) if weighed else ():
        at = chance.turn - 1
        turn, moves = turns[at]
        turns[at] = (replace(turn, chances=(*turn.chances, chance)), moves)
    reviewed = tuple(turn for turn, _ in turns)
    cite = Rules.of(game, started)
    end = None
    if final.phase in (SHOW, DONE) and weighed:
        end = (shown_melds_end(result, cite.layoff) if final.rules.melds_at_knock else None) or (
            played_end(
                judge,
                final,
                [_end_cards(sight, seat) for seat in range(len(seats))],
                [reader._addable(final, seat) for seat in range(len(seats))],
                cite.layoff,
            )
        )
    return HandReview(
        variant=game.key,
        seats=seats,
        number=number,
        kind=PLAYED,
        points=points,
        count_rule=cite.count,
        lower_is_better=game.standings.lower_is_better,
        complete=all(turn.known for turn in reviewed),
        dealer=started.dealer,
        steps=_steps(sight, turn_of),
        turns=reviewed,
        chances=tuple(chance for turn in reviewed for chance in turn.chances),
        end=end,
        players=_summaries(seats, reviewed),
    )


def _end_cards(sight: Hindsight, seat: int) -> Any:
    """Return the seat's cards at the end (its last state), None if not known."""
    last = len(sight.plays) - 1
    hand = sight.plays[last].hands[seat]
    if hand.points is not None:
        return None
    return sight.cards(last, seat)


def _steps(sight: Hindsight, turn_of: dict[int, int]) -> tuple[Step, ...]:
    """Return the stepper's steps: the deal, then the state after each standing move."""
    steps = []
    for index, play in enumerate(sight.plays):
        over = play.phase in (SHOW, DONE)
        if index == 0:
            seq, move_type, seat, cards, source = play.seq, HAND_STARTED, None, (), None
        else:
            move = sight.moves[index - 1]
            seq, move_type, seat = move.event.seq, move.event.event_type, move.seat
            cards = sight.moved_cards(move)
            source = move.event.payload.get("source") if move_type == CARD_DRAWN else None
        steps.append(
            Step(
                index=index,
                seq=seq,
                move=move_type,
                seat=seat,
                cards=cards,
                source=source,
                turn=turn_of.get(index),
                to_move=None if over else play.turn,
                phase=play.phase,
                hands=tuple(sight.view(index, s) for s in range(len(play.hands))),
                table=tuple(
                    TableMeldView(number, item.owner, item.meld)
                    for number, item in enumerate(play.table, start=1)
                ),
                discard_top=play.discard[-1] if play.discard else None,
                discard_count=len(play.discard),
                stock=play.stock,
            )
        )
    return tuple(steps)


def _weighed(turns: Sequence[TurnReview]) -> list[Any]:
    """Return the turns' weighed decisions: draws, discards, meldings."""
    found = [(turn.draw, turn.discard, turn.melding) for turn in turns]
    return [review for trio in found for review in trio if review is not None]


def _summaries(seats: Sequence[str], turns: Sequence[TurnReview]) -> tuple[PlayerSummary, ...]:
    """Return each player's costliest decisions, worst first, and turn-by-turn chart."""
    summaries = []
    for seat, name in enumerate(seats):
        mine = [turn for turn in turns if turn.seat == seat]
        decisions = _weighed(mine)
        costs: list[Cost] = []
        lost = 0
        previous: tuple[Chance, ...] = ()
        for turn in mine:
            weighed = [
                (turn.first_step, DRAW, turn.draw),
                (turn.last_step, DISCARD, turn.discard),
                (turn.last_step, MELDING, turn.melding),
            ]
            for step, kind, review in weighed:
                if review is not None and review.lost > 0:
                    costs.append(Cost(turn.number, step, kind, review.rule, review.lost))
                    lost += review.lost
            listed = {(c.kind, c.cards) for c in previous}
            costs += [
                Cost(turn.number, chance.step, chance.kind, chance.rule, chance.points)
                for chance in turn.chances
                if chance.seat == seat
                and chance.points is not None
                and chance.points > 0
                and (chance.kind, chance.cards) not in listed
            ]
            previous = turn.chances
        costs.sort(key=lambda cost: (-cost.points, cost.turn, cost.step))
        chart = tuple(
            ChartPoint(turn.number, turn.last_step, turn.held, turn.left) for turn in mine
        )
        summaries.append(
            PlayerSummary(
                seat=seat,
                name=name,
                lost=lost,
                costs=tuple(costs),
                chart=chart,
                turns=len(mine),
                unknown_turns=sum(not turn.known for turn in mine),
                decisions=len(decisions),
                matched=sum(review.lost == 0 for review in decisions),
            )
        )
    return tuple(summaries)


def review_entered(
    game: GameRules,
    options: Any,
    seats: tuple[str, ...],
    entry: Any,
    result: HandResult,
    *,
    number: int,
) -> HandReview:
    """Return the review of a hand entered whole: what its cards show (each hand's best
    arrangement, a knocker's count against the best, the layoffs made or missed); a hand
    entered by counts or points shows only its score."""
    rules = game.play_rules(options, len(seats))
    judge = Judge(rules, _closing(game, options))
    cite_layoff = game.review.layoff_rule or rules.add_rule or game.referee.layoff_rule
    end: EndReview | None = shown_melds_end(result, cite_layoff)
    players = getattr(entry, "players", None)
    if end is None and getattr(entry, "mode", None) == "cards" and players is not None:
        ending = result.to_dict().get("ending")
        any_meld = rules.add_to_any or rules.rearrange is not None
        end = entered_end(judge, players, ending, cite_layoff, any_meld=any_meld)
    return HandReview(
        variant=game.key,
        seats=seats,
        number=number,
        kind=CARDS if end is not None else POINTS,
        points=tuple(result.points),
        count_rule=game.review.count_rule or game.referee.value_rule,
        lower_is_better=game.standings.lower_is_better,
        end=end,
        players=_summaries(seats, ()),
    )
