"""Moves that end a hand or reach across turns: knock claims, knocks, hands shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scoring.cards import Card
from scoring.errors import refusal as _refuse
from scoring.events import cards_field, check_fields, field_choice, field_int, payload_error
from scoring.hands import KNOCK
from scoring.play.rules import (
    KNOCK_AT_TURN_END,
)
from scoring.play.state import (
    DRAW,
    FINAL,
    PLAY,
    Play,
    _check_rediscard,
    _draw_again,
    _ended,
    _finish,
    _give,
    _must_show,
    _name,
    _not_your_turn,
    _one_card,
    _phase_refusal,
    _seat,
    _take,
    _turn_complete,
    _with_hand,
)
from scoring.solver import min_arrangements


def _claim(play: Play, payload: Mapping[str, Any]) -> Play:
    check_fields(payload, ("seat", "card"))
    seat = _seat(play, payload)
    card = _one_card(payload, "card") if "card" in payload else None
    if not play.rules.knock_claim:
        raise _refuse(
            "RAM-OPT-KNOCKCLAIM",
            "not_on",
            "Claiming a discard by knocking is a house rule this table does not play.",
        )
    discarder = (play.turn - 1) % len(play.seats)
    if play.phase != DRAW or not play.claimable:
        raise _refuse(
            "RAM-OPT-KNOCKCLAIM",
            "too_late",
            "Only the last discard can be claimed, before the next player draws.",
        )
    if seat == discarder:
        raise _refuse(
            "RAM-OPT-KNOCKCLAIM",
            "own_discard",
            f"{_name(play, seat)} cannot claim their own discard.",
            player=_name(play, seat),
        )
    if seat == play.turn:
        raise _refuse(
            "RAM-OPT-KNOCKCLAIM",
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


def _knock(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    if rules.knock is None:
        raise _phase_refusal(play, "no_knock", "This game does not end by knocking.")
    if rules.knock == KNOCK_AT_TURN_END:
        check_fields(payload, ("seat",))
        seat = _seat(play, payload)
        if seat != play.turn:
            raise _not_your_turn(play, seat)
        if play.phase == PLAY and not _turn_complete(play):
            raise _draw_again(play)
        if play.phase not in (PLAY, FINAL):
            raise _refuse("KR-KNOCK", "before_turn", "A player knocks after playing their turn.")
        return _finish(play, KNOCK, seat)
    check_fields(payload, ("seat", "card", "hand"))
    seat = _seat(play, payload)
    kept = cards_field(payload, "hand")
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before knocking.")
    if "card" in payload:
        discard = _one_card(payload, "card")
        _check_rediscard(play, discard)
        played: tuple[Card, ...] = (discard,)
    else:
        played = ()
    held = play.hands[seat].count
    if len(kept) + len(played) != held:
        raise _refuse(
            "GIN-KNOCK",
            "wrong_count",
            f"{_name(play, seat)} holds {held} cards: show them all, the discard aside.",
            player=_name(play, seat),
            count=len(kept) + len(played),
            expected=held,
        )
    hand = _take(play, seat, (*played, *kept))
    count = min_arrangements(kept, rules=rules.melds, value=rules.value)[0].count
    if not played:
        # GIN-BIGGIN: going out without a discard needs all 11 cards in melds.
        if not rules.big_gin:
            raise _refuse("GIN-BIGGIN", "not_available", "Big Gin is not played at this table.")
        if count:
            raise _refuse(
                "GIN-BIGGIN",
                "not_all_melded",
                f"Big Gin needs all 11 cards in melds; these leave {count} in deadwood.",
                count=count,
            )
    elif count > rules.knock_limit:
        raise _refuse(
            "GIN-KNOCK",
            "over_limit",
            f"A knock needs a count of {rules.knock_limit} or less; these cards count {count}.",
            count=count,
            limit=rules.knock_limit,
        )
    shown = replace(hand, shown=tuple(kept), known=())
    play = replace(play, hands=_with_hand(play, seat, shown), discard=(*play.discard, *played))
    return _finish(play, KNOCK, seat)


def _show(play: Play, payload: Mapping[str, Any]) -> Play:
    check_fields(payload, ("mode", "players"))
    mode = field_choice(
        payload, "mode", ("cards", "points") if play.rules.show_by_points else ("cards",)
    )
    raw = payload.get("players")
    if not isinstance(raw, list) or len(raw) != len(play.seats):
        raise payload_error(
            "players", f"a list of {len(play.seats)} entries, one per seat", "bad_players"
        )
    hands = list(play.hands)
    for seat, entry in enumerate(raw):
        name = f"players[{seat}]"
        if entry is None:
            if _must_show(play, seat):
                raise payload_error(name, "the cards this player holds", "missing_hand")
            continue
        if not isinstance(entry, Mapping):
            raise payload_error(name, "an object", "bad_players")
        hand = hands[seat]
        if not _must_show(play, seat):
            raise payload_error(name, "null: the log already shows this hand", "known_hand")
        if mode == "points":
            check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.points",))
            points = field_int({"points": entry.get("points")}, "points", low=0, high=500)
            hands[seat] = replace(hand, points=points)
            continue
        check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.hand",))
        cards = cards_field({f"{name}.hand": entry.get("hand")}, f"{name}.hand")
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
    return _ended(replace(play, hands=tuple(hands)))
