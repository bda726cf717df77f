"""Moves that end a hand or reach across turns: knock claims, knocks, hands shown."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from scoring.cards import Card
from scoring.errors import refusal as _refuse
from scoring.hands import KNOCK
from scoring.payloads import DiscardClaimed, HandsShown, Knocked
from scoring.play.rules import KNOCK_AT_TURN_END, PlayRules
from scoring.play.state import (
    DRAW,
    FINAL,
    PLAY,
    Play,
    _check_rediscard,
    _draw_again,
    _finish,
    _give,
    _name,
    _not_your_turn,
    _phase_refusal,
    _take,
    _turn_complete,
    _with_hand,
    with_end,
)
from scoring.solver import deadwood_count


def _claim(play: Play, move: DiscardClaimed) -> Play:
    seat, card = move.seat, move.card
    claim = play.rules.knock_claim
    if claim is None or not claim.allowed:
        # A game whose rules never speak of claiming refuses it under its turn rule.
        raise _refuse(
            play.rules.turn_rule if claim is None else claim.rule,
            "not_on",
            "Claiming a discard by knocking is a house rule this table does not play.",
        )
    discarder = (play.turn - 1) % len(play.seats)
    if play.phase != DRAW or not play.claimable:
        raise _refuse(
            claim.rule,
            "too_late",
            "Only the last discard can be claimed, before the next player draws.",
        )
    if seat == discarder:
        raise _refuse(
            claim.rule,
            "own_discard",
            f"{_name(play, seat)} cannot claim their own discard.",
            player=_name(play, seat),
        )
    if seat == play.turn:
        raise _refuse(
            claim.rule,
            "own_turn",
            f"It is {_name(play, seat)}'s turn: they simply draw the discard.",
            player=_name(play, seat),
        )
    if play.stock <= 0:
        raise _phase_refusal(play, "stock_empty", "The stock is empty.")
    top = play.discard[-1]
    hand = _give(play.hands[seat], (top, *((card,) if card else ())), unknown=0 if card else 1)
    return replace(
        play,
        hands=_with_hand(play, seat, hand),
        discard=play.discard[:-1],
        stock=play.stock - 1,
        claimable=False,
    )


def _knock(play: Play, move: Knocked) -> Play:
    # apply_move has refused a knock where the game has none, before reading.
    rules = play.rules
    seat = move.seat
    if rules.knock == KNOCK_AT_TURN_END:
        if seat != play.turn:
            raise _not_your_turn(play, seat)
        if play.phase == PLAY and not _turn_complete(play):
            raise _draw_again(play)
        if play.phase not in (PLAY, FINAL):
            raise _refuse(
                rules.knock_rule, "before_turn", "A player knocks after playing their turn."
            )
        return _finish(play, KNOCK, seat)
    kept = move.kept
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before knocking.")
    # The discard's own refusal (if its notation is wrong) comes after the turn's.
    discard = move.discard.get() if move.discard is not None else None
    if discard is not None:
        _check_rediscard(play, discard)
        played: tuple[Card, ...] = (discard,)
    else:
        played = ()
    held = play.hands[seat].count
    if len(kept) + len(played) != held:
        raise _refuse(
            rules.knock_rule,
            "wrong_count",
            f"{_name(play, seat)} holds {held} cards: show them all, the discard aside.",
            player=_name(play, seat),
            count=len(kept) + len(played),
            expected=held,
        )
    hand = _take(play, seat, (*played, *kept))
    _check_knock_count(
        play, deadwood_count(kept, rules=rules.melds, value=rules.value, deck=rules.deck), played
    )
    shown = replace(hand, shown=tuple(kept), known=())
    play = replace(play, hands=_with_hand(play, seat, shown), discard=(*play.discard, *played))
    return _finish(play, KNOCK, seat)


def _check_knock_count(play: Play, count: int, played: tuple[Card, ...]) -> None:
    """Refuse a showing knock whose kept cards count too much: over the knock limit (the
    deal's, where its card sets it), or any at all where it discards nothing."""
    rules = play.rules
    if not played:
        _check_out_without_discard(rules, count)
    elif count > rules.knock_limit and rules.knock_limit_by_deal is not None:
        raise _refuse(
            rules.knock_limit_by_deal.rule,
            "over_limit",
            f"The upcard {play.upcard} lets a knock keep {rules.knock_limit} or less; these "
            f"cards count {count}.",
            count=count,
            limit=rules.knock_limit,
            card=str(play.upcard),
        )
    elif count > rules.knock_limit:
        raise _refuse(
            rules.knock_rule,
            "over_limit",
            f"A knock needs a count of {rules.knock_limit} or less; these cards count {count}.",
            count=count,
            limit=rules.knock_limit,
        )


def _check_out_without_discard(rules: PlayRules, count: int) -> None:
    """Refuse a knock without a discard where the table does not allow one, or that leaves
    a card out of the melds."""
    out = rules.out_without_discard
    if out is None or not out.allowed:
        raise _refuse(
            out.rule if out is not None else rules.knock_rule,
            "not_available",
            "A knock without a discard is not played at this table.",
        )
    if count:
        raise _refuse(
            out.rule,
            "not_all_melded",
            f"A knock without a discard needs every card in melds; these leave {count} in "
            "deadwood.",
            count=count,
        )


def _show(play: Play, move: HandsShown) -> Play:
    hands = list(play.hands)
    for seat, entry in enumerate(move.players):
        # Seat by seat, as each seat's payload refusal comes after the seats before it.
        shown = entry.get()
        if shown is None:
            continue
        hand = hands[seat]
        if shown.points is not None:
            hands[seat] = replace(hand, points=shown.points)
            continue
        cards = shown.cards
        if len(cards) != hand.count:
            raise _refuse(
                play.rules.setup_rule,
                "wrong_count",
                f"{_name(play, seat)} holds {hand.count} cards, not {len(cards)}.",
                player=_name(play, seat),
                count=len(cards),
                expected=hand.count,
            )
        missing = Counter(hand.known) - Counter(cards)
        if missing:
            raise _refuse(
                play.rules.turn_rule,
                "known_missing",
                f"{_name(play, seat)} took "
                + " ".join(c.label for c in missing.elements())
                + " during the hand: the cards shown must hold it.",
                player=_name(play, seat),
                cards=[str(c) for c in missing.elements()],
            )
        hands[seat] = replace(hand, shown=cards, known=())
    return with_end(replace(play, hands=tuple(hands)))
