"""Moves that put cards on the table: melds, adds, joker swaps, rearrangements."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from scoring.cards import JOKER, Card, Declared, split_declared
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import KNOCK, OUT
from scoring.melds import Meld, check_meld, opening_value
from scoring.payloads import CardsAdded, JokerSwapped, MeldsLaid, TableRearranged
from scoring.play.rules import (
    KNOCK_AT_TURN_END,
)
from scoring.play.state import (
    FINAL,
    PLAY,
    Play,
    SeatHand,
    TableMeld,
    _finish,
    _joker_unused,
    _must_have_opened,
    _name,
    _not_your_turn,
    _phase_refusal,
    _pickup_unused,
    _placed,
    _table_meld,
    _take,
    _take_kitty,
    _with_hand,
    kitty_waiting,
    opening_minimum,
    side_opened,
    side_seats,
)
from scoring.rearrange import RearrangeRules, check_rearrangement


def _ready_to_meld(play: Play, seat: int) -> None:
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase == FINAL:
        return
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before melding.")
    if play.owed_draws and play.stock:
        raise _refuse(
            play.rules.bonus_rule,
            "replacement_owed",
            f"{_name(play, seat)} laid down a red 3: draw its replacement from the stock first.",
            player=_name(play, seat),
            count=play.owed_draws,
        )
    if play.rules.max_draws > 1 and play.draws >= play.rules.max_draws:
        raise _phase_refusal(
            play, "no_meld_after_third", "After the third draw a player may not meld this turn."
        )


def _check_keeps_one(play: Play, seat: int, hand: SeatHand) -> None:
    """Refuse melding the last card where the game wants a discard to go out (and no kitty
    waits for the seat's side, PlayRules.kitty_size)."""
    if hand.count == 0 and not play.rules.meld_out and not kitty_waiting(play, seat):
        raise _refuse(
            play.rules.out_rule,
            "keep_one",
            f"{_name(play, seat)} must keep a card to discard: a player goes out by "
            "discarding the last card.",
            player=_name(play, seat),
        )


def _melds(play: Play, move: MeldsLaid) -> Play:
    rules = play.rules
    seat, laid = move.seat, move.melds
    _ready_to_meld(play, seat)
    if rules.rearrange:
        before = [item.meld for item in play.table]
        return _rearranged(play, seat, [*[m.declared() for m in before], *laid], rules.rearrange)
    if rules.melds_at_knock:
        raise _phase_refusal(
            play, rules.melds_in_play_code, "Melds are shown when knocking, not laid in play."
        )
    melds = []
    for number, pairs in enumerate(laid, start=1):
        cards, declarations = split_declared(pairs)
        try:
            melds.append(_read_meld(play, cards, declarations))
        except RuleViolation as exc:
            raise RuleViolation(
                *(replace(v, params={**v.params, "meld": number}) for v in exc.violations)
            ) from None
    _check_new_melds(play, seat, melds)
    cards = [card for meld in melds for card in meld.cards]
    hand = _take(play, seat, cards)
    _check_keeps_one(play, seat, hand)
    table = (*play.table, *(TableMeld(seat, meld) for meld in melds))
    play = _bonus_laid(play, melds)
    melds = [meld for meld in melds if not _all_bonus(play, meld.cards)]
    if melds and not side_opened(play, seat) and rules.opening_rule:
        value = play.opening_value + sum(_opening_value(play, meld) for meld in melds)
        if value < opening_minimum(play, seat):
            # Short so far: the melds wait on the table for the rest of the opening, which
            # the end of the turn judges (_judge_opening).
            if hand.count == 0:
                raise _short_opening(play, value)
            play = replace(play, opening_value=value, opening_melds=play.opening_melds + len(melds))
            return _after_meld(play, seat, hand, cards, table, opens=False)
        play = replace(play, opening_value=0, opening_melds=0)
    # Bonus cards laid alone (PlayRules.bonus_card) open nothing.
    return _after_meld(play, seat, hand, cards, table, opens=bool(melds))


def _check_new_melds(play: Play, seat: int, melds: Sequence[Meld]) -> None:
    """Refuse new melds the game's own checks rule out: against the table
    (PlayRules.new_melds_check), or placing the pile's top card short of what the pile asks
    (PlayRules.pile_top_check)."""
    rules = play.rules
    if rules.new_melds_check is not None:
        refusal = rules.new_melds_check(play, seat, melds)
        if refusal is not None:
            raise refusal
    for meld in melds:
        _check_pile_top(play, seat, meld.cards, None)


def _check_pile_top(play: Play, seat: int, cards: Sequence[Card], meld: Meld | None) -> None:
    """Refuse a move placing the pile's top card as the game's pile check does not allow."""
    check = play.rules.pile_top_check
    if check is None or play.owed_card is None or play.owed_card not in cards:
        return
    refusal = check(play, seat, cards, meld)
    if refusal is not None:
        raise refusal


def _all_bonus(play: Play, cards: Sequence[Card]) -> bool:
    bonus = play.rules.bonus_card
    return bonus is not None and bool(cards) and all(bonus(card) for card in cards)


def _bonus_laid(play: Play, melds: Sequence[Meld]) -> Play:
    """Return the play owing a stock card for each bonus card laid (PlayRules.bonus_card),
    but those the pile brought this turn, and as many as the stock holds."""
    laid = sum(len(meld.cards) for meld in melds if _all_bonus(play, meld.cards))
    if not laid:
        return play
    free = min(laid, play.bonus_free)
    owed = min(play.owed_draws + laid - free, play.stock)
    return replace(play, owed_draws=owed, bonus_free=play.bonus_free - free)


def _opening_value(play: Play, meld: Meld) -> int:
    """Return what a meld counts toward an opening: its cards at their value in hand where
    the minimum turns on the total (PlayRules.opening_by_total), else the opening's values."""
    if play.rules.opening_by_total is not None:
        return sum(play.rules.value(card) for card in meld.cards)
    return opening_value(meld)


def _read_meld(play: Play, cards: Sequence[Card], declarations: Sequence[Card | None]) -> Meld:
    """Return the meld the cards make: by the game's own check where it has one
    (PlayRules.meld_reader), else by the shared one."""
    if play.rules.meld_reader is not None:
        return play.rules.meld_reader(cards)
    return check_meld(cards, play.rules.melds, declarations)


def _short_opening(play: Play, value: int) -> RuleViolation:
    rules = play.rules
    minimum = opening_minimum(play, play.turn)
    # Where the minimum turns on the seat's total, the refusal names it.
    total = {"total": play.totals[play.turn]} if rules.opening_by_total and play.totals else {}
    return _refuse(
        rules.opening_rule or rules.turn_rule,
        "below_minimum",
        f"An opening needs {minimum} points; these melds make {value}.",
        value=value,
        minimum=minimum,
        **total,
    )


def _judge_opening(play: Play, seat: int) -> Play:
    """End a turn's short opening: refused (RAM-OPEN), or 20 penalty points and the melds
    back in the hand, now known (R40-OPEN-PENALTY)."""
    if play.hands[seat].opened or not play.opening_melds:
        return play
    if not play.rules.opening_penalty:
        raise _short_opening(play, play.opening_value)
    laid = play.table[-play.opening_melds :]
    cards = [card for item in laid for card in item.meld.cards]
    hand = play.hands[seat]
    melded = list(hand.melded)
    for card in cards:
        melded.remove(card)
    taken = play.taken_from_discard
    if play.rules.pickup_to_table and taken is not None and taken in cards:
        # S40-PICKUP: the discard taken went into the opening, and came back with it.
        play = replace(play, owed_card=taken)
    back = replace(
        hand,
        penalties=hand.penalties + 1,
        known=(*hand.known, *cards),
        count=hand.count + len(cards),
        melded=tuple(melded),
    )
    return replace(
        play,
        hands=_with_hand(play, seat, back),
        table=play.table[: -play.opening_melds],
        opening_value=0,
        opening_melds=0,
    )


def _after_meld(
    play: Play,
    seat: int,
    hand: SeatHand,
    cards: Sequence[Card],
    table: tuple[TableMeld, ...],
    *,
    opens: bool = True,
) -> Play:
    """Record cards gone from hand to table; a hand emptied by melding goes out."""
    jokers = sum(card.is_joker for card in cards)
    if not hand.opened and opens:
        hand = replace(hand, opened=True, opened_turn=play.turn_number)
    hand = replace(hand, melded=(*hand.melded, *cards))
    play = replace(
        _placed(play, cards),
        hands=_with_hand(play, seat, hand),
        table=table,
        melded_now=True,
        owed_jokers=max(0, play.owed_jokers - jokers),
    )
    if hand.count == 0:
        if play.owed_jokers:
            raise _joker_unused(play, seat, play.owed_jokers)
        if play.owed_card is not None:
            raise _pickup_unused(play, seat)
        if kitty_waiting(play, seat):
            # The side's kitty comes to the seat at once, and the turn goes on.
            return _take_kitty(play, seat)
        return _finish(play, KNOCK if play.rules.knock == KNOCK_AT_TURN_END else OUT, seat)
    return play


def _add(play: Play, move: CardsAdded) -> Play:
    rules = play.rules
    seat, added = move.seat, move.cards
    _ready_to_meld(play, seat)
    if rules.rearrange or rules.melds_at_knock:
        raise _phase_refusal(
            play,
            "no_adds",
            "Cards are added by rearranging the table."
            if rules.rearrange
            else "No melds are on the table during play.",
        )
    index, item = _table_meld(play, move.meld)
    if rules.opening_rule is not None:
        # A game without an opening has nobody to wait for.
        _must_have_opened(play, seat, rules.add_rule)
    if item.owner not in side_seats(rules, seat) and not rules.add_to_any:
        whose = "side's" if rules.sides else "own"
        raise _refuse(
            rules.add_rule,
            "not_own_meld",
            f"At this table a player adds only to their {whose} melds; meld {index + 1} is "
            f"{_name(play, item.owner)}'s.",
            meld=index + 1,
            owner=_name(play, item.owner),
        )
    meld = _extended(play, item.meld, added, index)
    _check_pile_top(play, seat, added, item.meld)
    hand = _take(play, seat, added)
    _check_keeps_one(play, seat, hand)
    table = (*play.table[:index], TableMeld(item.owner, meld), *play.table[index + 1 :])
    return _after_meld(play, seat, hand, added, table)


def _extended(play: Play, meld: Meld, added: Sequence[Card], index: int) -> Meld:
    """Return the table meld with cards added; a joker keeps standing for its card."""
    declarations = [stands for _, stands in meld.declared()] + [None] * len(added)
    try:
        return _read_meld(play, (*meld.cards, *added), declarations)
    except RuleViolation as exc:
        raise RuleViolation(
            *(replace(v, params={**v.params, "meld": index + 1}) for v in exc.violations)
        ) from None


def _swap(play: Play, move: JokerSwapped) -> Play:
    rules = play.rules
    seat, card = move.seat, move.card
    _ready_to_meld(play, seat)
    if rules.swap_rule is None:
        if rules.rearrange:
            message = f"A joker moves by rearranging the table ({rules.rearrange.joker})."
        elif rules.deck.jokers:
            message = "A joker on the table stays there: it is never taken back to a hand."
        else:
            message = "This game has no jokers."
        raise _phase_refusal(play, "no_swaps", message)
    index, item = _table_meld(play, move.meld)
    _must_have_opened(play, seat, rules.swap_rule)
    meld = item.meld
    positions = [
        p for p, (c, stands) in enumerate(meld.declared()) if c.is_joker and stands == card
    ]
    if not positions:
        raise _refuse(
            rules.swap_rule,
            "no_such_joker",
            f"No joker in meld {index + 1} ({meld.label}) stands for {card.label}.",
            meld=index + 1,
            card=str(card),
        )
    if rules.swap_from_four_rule is not None and meld.kind == "set" and len(meld.cards) < 4:
        raise _refuse(
            rules.swap_from_four_rule,
            "set_of_three",
            "A joker can be taken from a set only when the set holds 4 cards.",
            meld=index + 1,
        )
    position = positions[0]
    cards = (*meld.cards[:position], card, *meld.cards[position + 1 :])
    declarations = [
        None if p == position else stands for p, (_, stands) in enumerate(meld.declared())
    ]
    new_meld = check_meld(cards, rules.melds, declarations)
    play = replace(play, hands=_without_melded_joker(play, item.owner))
    hand = _take(play, seat, (card,))
    hand = replace(hand, known=(*hand.known, JOKER), count=hand.count + 1)
    hand = replace(hand, melded=(*hand.melded, card))
    table = (*play.table[:index], TableMeld(item.owner, new_meld), *play.table[index + 1 :])
    return replace(
        _placed(play, (card,)),
        hands=_with_hand(play, seat, hand),
        table=table,
        owed_jokers=play.owed_jokers + 1,
        melded_now=True,
    )


def _without_melded_joker(play: Play, owner: int) -> tuple[SeatHand, ...]:
    """Return the hands with the swapped joker no longer counted as melded by whoever laid it.

    A joker leaves the table by a swap, so it must stop counting among the cards its layer
    melded this hand (casino scoring, CARD-2 across the end state); the meld's owner laid it,
    unless someone else added it, who is then the first other seat that melded a joker.
    """
    order = [owner, *(s for s in range(len(play.hands)) if s != owner)]
    for seat in order:
        melded = list(play.hands[seat].melded)
        if JOKER in melded:
            melded.reverse()
            melded.remove(JOKER)
            melded.reverse()
            return _with_hand(play, seat, replace(play.hands[seat], melded=tuple(melded)))
    return play.hands


def _rearrange(play: Play, move: TableRearranged) -> Play:
    if not play.rules.rearrange:
        raise _phase_refusal(play, "no_rearranging", "Only Knock Rummy's table may be rearranged.")
    _ready_to_meld(play, move.seat)
    return _rearranged(play, move.seat, move.melds, play.rules.rearrange)


def _rearranged(
    play: Play, seat: int, after: Sequence[Sequence[Declared]], cites: RearrangeRules
) -> Play:
    """Apply a melding move on a shared table: the table's melds after it, judged by the
    game's rearranging rules (KR-MELDING, KR-MANIP, KR-JOKER)."""
    hand = play.hands[seat]
    before = [item.meld for item in play.table]
    # What the hand could have held: the known cards plus any card for the unknown ones.
    shown_before = Counter(card for meld in before for card in meld.cards)
    shown_after = Counter(card for meld in after for card, _ in meld)
    from_unknown = list((shown_after - shown_before - Counter(hand.known)).elements())
    possible = [*hand.known, *from_unknown[: hand.unknown]]
    result = check_rearrangement(
        before, after, possible, play.rules.melds, cites, first_meld=not before
    )
    if not result.valid:
        raise RuleViolation(*result.violations)
    taken = list(result.added)
    hand = _take(play, seat, taken)
    # A meld left as it was keeps who laid it; any meld the move made or changed is the mover's.
    owners = {item.meld.declared(): item.owner for item in play.table}
    table = tuple(TableMeld(owners.get(meld.declared(), seat), meld) for meld in result.melds_after)
    return _after_meld(play, seat, hand, taken, table)
