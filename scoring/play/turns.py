"""Moves of a turn: draws, passes, discards, and the turn passing on."""

from __future__ import annotations

from dataclasses import replace

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import OUT, STOCK, WALL
from scoring.melds import check_meld
from scoring.payloads import (
    DISCARD_SOURCE,
    STOCK_SOURCE,
    CardDiscarded,
    CardDrawn,
    TurnPassed,
)
from scoring.play.melding import _judge_opening
from scoring.play.rules import (
    JOKER_DISCARD_NEVER,
    JOKER_DISCARD_OPENED,
)
from scoring.play.state import (
    DRAW,
    FINAL,
    FIRST,
    PLAY,
    Play,
    _check_rediscard,
    _draw_again,
    _finish,
    _give,
    _joker_unused,
    _name,
    _next_seat,
    _not_your_turn,
    _phase_refusal,
    _pickup_unused,
    _take,
    _take_kitty,
    _turn_complete,
    _with_hand,
    kitty_waiting,
)


def _draw(play: Play, move: CardDrawn) -> Play:
    rules = play.rules
    seat, source, card = move.seat, move.source, move.card
    if (
        rules.rearrange
        and seat == _next_seat(play, play.turn)
        and play.phase == PLAY
        and play.final_turns == 0
    ):
        # Knock Rummy has no discard to end a turn: the next seat's draw ends it.
        play = _end_turn(play)
    if play.owed_draws:
        return _replacement(play, seat, source, card)
    _check_may_draw(play, seat, source)
    if source == DISCARD_SOURCE:
        play = _draw_discard(play, seat, card)
    else:
        if play.stock <= 0:
            raise _phase_refusal(play, "stock_empty", "The stock is empty.")
        hand = _give(play.hands[seat], (card,) if card else (), unknown=0 if card else 1)
        play = replace(play, stock=play.stock - 1, hands=_with_hand(play, seat, hand))
    play = replace(play, phase=PLAY, draws=play.draws + 1, claimable=False)
    if rules.rearrange and play.stock == 0:
        # KR-STOCK: the stock is used up; after this turn every player melds once more.
        play = replace(play, final_turns=len(play.seats))
    return play


def _replacement(play: Play, seat: int, source: str, card: Card | None) -> Play:
    """Return the play after the stock card that replaces a bonus card laid down
    (PlayRules.bonus_card): from the stock, whatever the turn drew or melded before."""
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if source != STOCK_SOURCE:
        raise _refuse(
            play.rules.bonus_rule,
            "replacement_from_stock",
            f"{_name(play, seat)} laid down a red 3: its replacement is drawn from the stock.",
            player=_name(play, seat),
        )
    if play.stock <= 0:
        raise _phase_refusal(play, "stock_empty", "The stock is empty.")
    hand = _give(play.hands[seat], (card,) if card else (), unknown=0 if card else 1)
    return replace(
        play,
        stock=play.stock - 1,
        hands=_with_hand(play, seat, hand),
        owed_draws=play.owed_draws - 1,
    )


def _check_may_draw(play: Play, seat: int, source: str) -> None:
    """Refuse a draw out of turn, or one the phase of the turn does not allow."""
    rules = play.rules
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase == FINAL:
        raise _phase_refusal(
            play, "stock_out", "The stock is used up: this last turn is for melding only."
        )
    if play.phase == FIRST:
        if source == STOCK_SOURCE:
            raise _refuse(
                rules.first_turn_rule or rules.turn_rule,
                "stock_on_first_turn",
                f"On the first turn {_name(play, seat)} may take the face-up card or pass, "
                "not draw from the stock.",
                player=_name(play, seat),
            )
    elif play.phase == PLAY and play.draws >= rules.max_draws:
        if rules.max_draws == 1:
            raise _phase_refusal(play, "already_drawn", "One draw per turn; now discard.")
        raise _phase_refusal(
            play, "third_draw", "After the third draw the turn is over: no more cards."
        )
    elif play.phase == PLAY and play.melded_now:
        raise _phase_refusal(play, "drew_after_meld", "After melding the turn draws no more.")
    if play.phase == DRAW and play.passes == 2 and source == DISCARD_SOURCE:
        raise _refuse(
            rules.first_turn_rule or rules.turn_rule,
            "both_passed",
            "Both players passed the face-up card: the first draw is from the stock.",
        )


def _draw_discard(play: Play, seat: int, card: Card | None) -> Play:
    """Return the play after the seat takes the top of the discard pile."""
    if not play.discard:
        raise _phase_refusal(play, "empty_discard", "The discard pile is empty.")
    top = play.discard[-1]
    if card is not None and card != top:
        raise _phase_refusal(
            play,
            "not_the_top",
            f"The top of the discard pile is {top.label}, not {card.label}.",
            card=str(card),
            top=str(top),
        )
    rules = play.rules
    if rules.pile_take_check is not None:
        refusal = rules.pile_take_check(play, seat)
        if refusal is not None:
            raise refusal
    # Where a draw takes the whole pile (PlayRules.take_whole_pile), every card of it comes
    # to the hand, known, the top card last.
    taken = play.discard if rules.take_whole_pile else (top,)
    hand = _give(play.hands[seat], taken)
    owed = play.owed_jokers + (top.is_joker and rules.joker_from_discard_owed)
    bonus = rules.bonus_card
    return replace(
        play,
        discard=play.discard[: -len(taken)],
        hands=_with_hand(play, seat, hand),
        taken_from_discard=top,
        owed_jokers=owed,
        owed_card=top if rules.pickup_to_table else None,
        pile_taken=taken,
        pile_hand=play.hands[seat],
        bonus_free=sum(1 for c in taken if bonus(c)) if bonus is not None else 0,
    )


def _pass(play: Play, move: TurnPassed) -> Play:
    seat = move.seat
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase == FIRST:
        passes = play.passes + 1
        if passes == 1:
            return replace(play, passes=1, turn=play.dealer)
        return replace(play, passes=2, turn=(play.dealer + 1) % 2, phase=DRAW)
    if play.rules.rearrange and play.phase in (PLAY, FINAL):
        if play.phase == PLAY and not _turn_complete(play):
            raise _draw_again(play)
        return _end_turn(play)
    raise _phase_refusal(
        play,
        "cannot_pass",
        "A turn is passed only on a first turn offering the face-up card, or to end a turn "
        "where the game allows it.",
    )


def _end_turn(play: Play) -> Play:
    """Pass the turn to the next seat, closing Knock Rummy's last round when it is done."""
    if play.phase == PLAY and play.rules.rearrange and not _turn_complete(play):
        raise _draw_again(play)
    final = play.final_turns
    phase = DRAW
    if final:
        if play.phase == FINAL:
            final -= 1
        phase = FINAL
        if final == 0:
            return _finish(play, STOCK, None)
    return replace(
        play,
        turn=_next_seat(play, play.turn),
        turn_number=play.turn_number + 1,
        phase=phase,
        draws=0,
        passes=0,
        opening_value=0,
        opening_melds=0,
        melded_now=False,
        taken_from_discard=None,
        owed_jokers=0,
        owed_card=None,
        pile_taken=(),
        pile_hand=None,
        owed_draws=0,
        bonus_free=0,
        final_turns=final,
    )


def _discard(play: Play, move: CardDiscarded) -> Play:
    # apply_move has refused a discard where there is no pile (Knock Rummy), before reading.
    return _discard_card(play, move.seat, move.card)


def _discard_card(play: Play, seat: int, card: Card) -> Play:
    rules = play.rules
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before discarding.")
    play = _closed_in_hand(play, seat)
    play = _judge_opening(play, seat)
    _check_rediscard(play, card)
    hand = play.hands[seat]
    # The last card goes out, unless the side's kitty waits for the seat (PlayRules.kitty_size).
    last = hand.count == 1 and not kitty_waiting(play, seat)
    if play.owed_card is not None:
        raise _pickup_unused(play, seat)
    _check_pile_used(play, seat)
    if rules.bonus_card is not None:
        _check_no_bonus_kept(play, seat, card)
    if rules.discard_check is not None:
        refusal = rules.discard_check(play, seat, card, last)
        if refusal is not None:
            raise refusal
    if last and rules.out_check is not None:
        refusal = rules.out_check(play, seat, card)
        if refusal is not None:
            raise refusal
    if card.is_joker and rules.joker_discard_rule:
        _check_joker_discard(play, seat, last)
    owed = play.owed_jokers
    if owed and card.is_joker and last and rules.joker_out_discard:
        owed -= 1  # RAM-JOKER-SWAP: a swapped joker may go out as the last card
    if owed:
        raise _joker_unused(play, seat, owed)
    bound = hand.opened or rules.attachable_check_unopened
    if rules.attachable_discard_rule is not None and bound and not last:
        _check_not_attachable(play, seat, card, rules.attachable_discard_rule)
    hand = _take(play, seat, (card,))
    play = replace(
        play, hands=_with_hand(play, seat, hand), discard=(*play.discard, card), claimable=True
    )
    if hand.count == 0 and last:
        return _finish(play, OUT, seat)
    if hand.count == 0:
        play = _take_kitty(play, seat)
    if rules.wall is not None and play.stock <= rules.wall:
        # The wall: the player who drew the last allowed card did not knock.
        return _finish(play, WALL, None)
    if play.stock <= rules.stock_end:
        if not rules.reshuffle or len(play.discard) < 2:
            return _finish(play, STOCK, None)
        # S40-STOCK: the pile but its top card, turned and shuffled, is the new stock.
        play = replace(play, stock=len(play.discard) - 1, discard=play.discard[-1:])
    return _end_turn(play)


def _check_no_bonus_kept(play: Play, seat: int, card: Card) -> None:
    """Refuse ending a turn owing a replacement, holding a known bonus card, or discarding
    one: a bonus card is laid down at once (PlayRules.bonus_card, CAN-RED3-1)."""
    rules, name = play.rules, _name(play, seat)
    if play.owed_draws and play.stock:
        raise _refuse(
            rules.bonus_rule,
            "replacement_owed",
            f"{name} laid down a red 3: draw its replacement from the stock before discarding.",
            player=name,
            count=play.owed_draws,
        )
    bonus = rules.bonus_card
    held = [c for c in play.hands[seat].known if bonus is not None and bonus(c)]
    if held or (bonus is not None and bonus(card)):
        shown = (held or [card])[0]
        raise _refuse(
            rules.bonus_rule,
            "red_three_kept",
            f"{shown.label} is a red 3: it is laid down at once, never kept nor discarded.",
            player=name,
            card=str(shown),
        )


def _check_pile_used(play: Play, seat: int) -> None:
    """Refuse ending a turn that took from the discard pile without melding or adding, where
    the game wants one (PlayRules.pile_meld_rule)."""
    rule = play.rules.pile_meld_rule
    if rule is None or play.taken_from_discard is None or play.melded_now:
        return
    raise _refuse(
        rule,
        "pile_unused",
        f"{_name(play, seat)} took the discard pile: they must meld or add a card this turn "
        "before discarding.",
        player=_name(play, seat),
    )


def _closed_in_hand(play: Play, seat: int) -> Play:
    """Open a player who goes out with this discard in the turn of their first melds, whatever
    those melds are worth (S40-HANDCLOSE: closing in hand needs no opening minimum)."""
    hand = play.hands[seat]
    if not play.rules.hand_closure_free or hand.opened or not play.opening_melds:
        return play
    if hand.count != 1:
        return play
    opened = replace(hand, opened=True, opened_turn=play.turn_number)
    return replace(play, hands=_with_hand(play, seat, opened), opening_value=0, opening_melds=0)


def _check_not_attachable(play: Play, seat: int, card: Card, rule: str) -> None:
    """Refuse discarding a card a table meld could take, citing the game's ``rule``
    (S40-DISCARD)."""
    for number, item in enumerate(play.table, start=1):
        declarations = [stands for _, stands in item.meld.declared()] + [None]
        try:
            check_meld((*item.meld.cards, card), play.rules.melds, declarations)
        except RuleViolation:
            continue
        raise _refuse(
            rule,
            "attachable",
            f"{card.label} can go on meld {number} ({item.meld.label}): it may not be "
            "discarded unless it is the last card.",
            player=_name(play, seat),
            card=str(card),
            meld=number,
        )


def _check_joker_discard(play: Play, seat: int, last: bool) -> None:
    """Refuse a joker discard the table's rules forbid (R40-JOKER-DISCARD, FIXEDJOKER)."""
    rules = play.rules
    rule, name = rules.joker_discard_rule or rules.turn_rule, _name(play, seat)
    if rules.joker_discard == JOKER_DISCARD_NEVER:
        raise _refuse(rule, "joker_discard", "At this table jokers are never discarded.")
    if rules.joker_discard == JOKER_DISCARD_OPENED and not play.hands[seat].opened:
        raise _refuse(
            rule,
            "joker_before_opening",
            f"{name} has not opened: a joker may not be discarded before opening.",
            player=name,
        )
    if rules.joker_discard == JOKER_DISCARD_OPENED and last:
        raise _refuse(
            rule,
            "joker_last",
            "A joker may never be the last card discarded to close.",
            player=name,
        )
