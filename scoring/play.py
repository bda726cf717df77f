"""A hand recorded play by play: draws, discards, melds, adds, joker swaps, knocks.

``start`` deals a hand (``hand_started``) and ``apply`` folds one move into the hand's
state, refusing a move that breaks a rule with the rule's ID. When the hand ends, the
state carries a ``HandEnd`` with every seat's end state, which the table's variant scores
exactly as a hand recorded by hand (scoring/variants.py), so both paths share one scoring.

A phone at a real table does not see the players' cards. The state therefore keeps, per
seat, how many cards are held and which of them are known (taken from the discard pile,
drawn and named, given back by a failed opening, a joker taken from the table). A card a
player lays down that is not known to be in their hand comes out of the unknown ones,
as long as there are any. Everything face up in the hand — discards, melds, known cards,
the hands shown at the end — is counted against the decks after every move (CARD-2).

Payloads (JSON; ``seat`` is the seat's index, cards in RULES.md notation)::

    hand_started     {"dealer": 0, "upcard": "7S"}   dealer optional (the table's next
                                                     dealer); upcard: the card that starts
                                                     the discard pile (none in Knock Rummy)
    card_drawn       {"seat": 1, "source": "stock", "card": "QH"}
                     source "stock" (card optional: unknown) or "discard" (the top card)
    card_discarded   {"seat": 1, "card": "QH"}
    turn_passed      {"seat": 1}      Gin's first turn (GIN-FIRST); in Knock Rummy the end
                                      of a turn (the next seat's draw also ends it)
    melds_laid       {"seat": 1, "melds": ["7H 8H 9H", "QS QD JK=QC"]}   new melds; a
                                      player's first are their opening
    cards_added      {"seat": 1, "meld": 2, "cards": "10H"}   onto table meld 2 (1-based)
    joker_swapped    {"seat": 1, "meld": 2, "card": "QC"}   the card the joker stands for
                                      goes in, the joker comes to the hand
    table_rearranged {"seat": 1, "melds": ["...", "..."]}   Knock Rummy: the whole table
                                      after the move
    discard_claimed  {"seat": 2, "card": "5D"}   Ramino knock claim (RAM-OPT-KNOCKCLAIM):
                                      the last discard, then a stock card (optional)
    knocked          {"seat": 0, "card": "9C", "hand": "<10 cards>"}   Gin: the discard
                                      (none for Big Gin) and the cards kept, shown;
                                      Knock Rummy: {"seat": 0}
    hands_shown      {"mode": "cards", "players": [{"hand": "KS 7D"}, null, ...]}
                     or {"mode": "points", "players": [{"points": 17}, null, ...]}: every
                     seat's cards left at the end; null for a seat whose cards the log
                     already shows (the one who went out, the Gin knocker)
    move_undone      {"reason": "wrong card"}   takes back the hand's last move

The hand ends when a player goes out (the last card discarded, or melded where the game
allows it), knocks, or the stock runs out (after the turn that took its last card; in
Knock Rummy after one more melding turn each, KR-STOCK); Gin's hand is void at the wall
(GIN-WALL: two stock cards left, or none with the option off). Then ``hands_shown``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring import events as ev
from scoring import gin, knock_rummy, ramino, rummy40
from scoring.cards import JOKER, Card, DeckSpec, check_copies, gin_value, split_declared
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    TABLE_REARRANGED,
    TURN_PASSED,
)
from scoring.hands import PlayerEnd
from scoring.melds import Meld, MeldRules, check_meld, opening_value
from scoring.rearrange import check_rearrangement
from scoring.solver import min_arrangements

# Phases of a hand.
FIRST = "first"  # Gin's first turn: take the upcard or pass (GIN-FIRST)
DRAW = "draw"  # the seat to move has not drawn yet
PLAY = "play"  # the seat to move has drawn: meld, add, discard, knock
FINAL = "final"  # Knock Rummy, stock used up: one more melding turn each (KR-STOCK)
SHOW = "show"  # the hand is over: the hands left are to be shown
DONE = "done"  # scored (or void at Gin's wall)

# How a hand ended.
OUT = "out"
KNOCK = "knock"
STOCK = "stock"
WALL = "wall"

# When a joker may be discarded.
JOKER_DISCARD_ANY = "any"
JOKER_DISCARD_OPENED = "opened_not_last"
JOKER_DISCARD_NEVER = "never"

STOCK_SOURCE = "stock"
DISCARD_SOURCE = "discard"
KR_MAX_DRAWS = 3
MAX_MELDS = 40  # a table holds at most 110 cards: 36 melds of three
MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Hold what one game's table allows in play, read from its variant and options."""

    game: str
    deck: DeckSpec
    hand_size: int
    melds: MeldRules
    turn_rule: str
    setup_rule: str
    discard_pile: bool = True
    first_turn: bool = False  # GIN-FIRST
    no_rediscard: bool = False  # GIN-NOREDISCARD
    wall: int | None = None  # GIN-WALL: the stock count at which the hand is void
    opening_rule: str | None = None  # R40-OPEN / RAM-OPEN
    opening_minimum: int = 0
    opening_penalty: bool = False  # R40-OPEN-PENALTY: a short opening costs, not refused
    add_rule: str = ""
    add_to_any: bool = True
    swap_rule: str | None = None  # who may swap a table joker, and when
    joker_use_rule: str | None = None  # a joker taken must be used this turn
    joker_out_discard: bool = False  # RAM-JOKER-SWAP: ... or discarded as the last card
    joker_from_discard_owed: bool = False  # R40-JOKER-STEAL: also a joker from the pile
    # R40-JOKER-DISCARD: not before opening nor as the closing discard; RAM-OPT-FIXEDJOKER:
    # never. None: a joker is discarded like any card.
    joker_discard_rule: str | None = None
    joker_discard: str = JOKER_DISCARD_ANY
    swap_set_needs_four: bool = False  # RAM-OPT-FIXEDJOKER
    out_rule: str = ""
    meld_out: bool = False  # going out by melding the last card (RAM-OPT-NODISCARDWIN, KR)
    max_draws: int = 1  # Knock Rummy: up to three (KR-TURN)
    knock_claim: bool = False  # RAM-OPT-KNOCKCLAIM
    rearrange: bool = False  # Knock Rummy's shared table (KR-MELDING, KR-MANIP)
    knock: str | None = None  # "gin" or "kr"
    big_gin: bool = False  # GIN-BIGGIN: going out with 11 cards and no discard
    hand_closure: bool = False  # RAM-HANDCLOSE


def play_rules(game: str, options: Any, players: int) -> PlayRules:
    """Return the play rules of a table of ``game`` with ``options`` and ``players`` seats."""
    if game == "gin":
        return PlayRules(
            game=game,
            deck=gin.GIN_DECK,
            hand_size=gin.HAND_SIZE,
            melds=gin.GIN_MELDS,
            turn_rule="GIN-TURN",
            setup_rule="GIN-SETUP",
            first_turn=True,
            no_rediscard=options.no_rediscard,
            wall=2 if options.wall else 0,
            knock="gin",
            big_gin=options.preset == gin.BIG_GIN_PRESET,
        )
    if game == "rummy40":
        return PlayRules(
            game=game,
            deck=rummy40.deck(options, players),
            hand_size=rummy40.hand_size(options, players),
            melds=rummy40.meld_rules(options),
            turn_rule="R40-TURN",
            setup_rule="R40-SETUP",
            opening_rule="R40-OPEN",
            opening_minimum=options.opening_minimum,
            opening_penalty=bool(options.opening_minimum),
            add_rule="R40-ADD",
            add_to_any=options.add_to_any_meld,
            swap_rule="R40-JOKER-STEAL",
            joker_use_rule="R40-JOKER-STEAL",
            joker_from_discard_owed=True,
            joker_discard_rule="R40-JOKER-DISCARD",
            joker_discard=JOKER_DISCARD_OPENED,
            out_rule="R40-HAND",
        )
    if game == "ramino":
        fixed = options.fixed_jokers
        return PlayRules(
            game=game,
            deck=ramino.deck(options, players),
            hand_size=ramino.hand_size(options, players),
            melds=ramino.meld_rules(options),
            turn_rule="RAM-TURN",
            setup_rule="RAM-SETUP",
            opening_rule="RAM-OPEN",
            opening_minimum=options.opening_minimum,
            add_rule="RAM-ADD",
            swap_rule="RAM-JOKER-SWAP",
            joker_use_rule="RAM-OPT-FIXEDJOKER" if fixed else "RAM-JOKER-SWAP",
            joker_out_discard=not fixed,
            joker_discard_rule="RAM-OPT-FIXEDJOKER" if fixed else None,
            joker_discard=JOKER_DISCARD_NEVER if fixed else JOKER_DISCARD_ANY,
            swap_set_needs_four=fixed,
            out_rule="RAM-OUT",
            meld_out=options.no_discard_win,
            knock_claim=options.knock_claim,
            hand_closure=True,
        )
    if game == "knock_rummy":
        return PlayRules(
            game=game,
            deck=knock_rummy.deck(options, players),
            hand_size=knock_rummy.hand_size(options, players),
            melds=knock_rummy.meld_rules(options),
            turn_rule="KR-TURN",
            setup_rule="KR-SETUP",
            discard_pile=False,
            out_rule="KR-OUT",
            meld_out=True,
            max_draws=KR_MAX_DRAWS,
            rearrange=True,
            knock="kr",
        )
    raise ValueError(f"no play rules for {game!r}")


@dataclass(frozen=True, slots=True)
class SeatHand:
    """Hold one seat's hand in play: how many cards, which are known, what it did."""

    count: int
    known: tuple[Card, ...] = ()
    opened: bool = False
    opened_turn: int | None = None  # the turn number of the seat's first meld
    melded: tuple[Card, ...] = ()  # every card this seat put on the table this hand
    penalties: int = 0  # failed openings (R40-OPEN-PENALTY)
    shown: tuple[Card, ...] | None = None  # the cards shown at the end
    points: int | None = None  # or their value, shown by points

    @property
    def unknown(self) -> int:
        """Return how many of the held cards the log does not name."""
        return self.count - len(self.known)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """Hold a meld on the table and the seat that laid it."""

    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class HandEnd:
    """Hold how a hand played by play ended, ready for the variant to score."""

    ending: str  # OUT, KNOCK, STOCK or WALL
    players: tuple[PlayerEnd, ...]
    seat: int | None = None  # who went out or knocked


@dataclass(frozen=True, slots=True)
class Play:
    """Hold a hand in play after some prefix of its moves."""

    rules: PlayRules
    seats: tuple[str, ...]
    dealer: int
    turn: int
    phase: str
    hands: tuple[SeatHand, ...]
    stock: int
    discard: tuple[Card, ...] = ()
    table: tuple[TableMeld, ...] = ()
    turn_number: int = 1
    moves: int = 0
    passes: int = 0  # GIN-FIRST passes so far
    draws: int = 0  # draws this turn
    melded_now: bool = False  # this turn laid or moved cards on the table
    taken_from_discard: Card | None = None  # GIN-NOREDISCARD
    owed_jokers: int = 0  # jokers taken this turn that must still be used
    # An opening laid in several moves of one turn (R40-OPEN, RAM-OPEN: "several melds in the
    # same turn may be summed"): its value so far and how many melds it put on the table.
    opening_value: int = 0
    opening_melds: int = 0
    claimable: bool = False  # the last discard may be claimed (RAM-OPT-KNOCKCLAIM)
    final_turns: int = 0  # Knock Rummy turns left after the stock ran out
    ending: str | None = None
    ender: int | None = None
    end: HandEnd | None = None
    seq: int = 0  # the hand_started event's seq
    previous: Play | None = None  # the state before the last move, for move_undone

    @property
    def over(self) -> bool:
        """Tell whether every move of the hand has been recorded and it can be scored."""
        return self.phase == DONE

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready view of the hand in play (what a phone shows)."""
        return {
            "seq": self.seq,
            "dealer": self.dealer,
            "turn": self.turn if self.phase not in (SHOW, DONE) else None,
            "phase": self.phase,
            "stock": self.stock,
            "discard_top": str(self.discard[-1]) if self.discard else None,
            "discard_count": len(self.discard),
            "draws": self.draws,
            "owed_jokers": self.owed_jokers,
            "melded_now": self.melded_now,
            "claimable": self.claimable and self.rules.knock_claim,
            "ending": self.ending,
            "ender": self.ender,
            "moves": self.moves,
            "table": [
                {
                    "number": number,
                    "owner": item.owner,
                    "kind": item.meld.kind,
                    "cards": [str(card) for card in item.meld.cards],
                    "meld": str(item.meld),
                }
                for number, item in enumerate(self.table, start=1)
            ],
            "hands": [
                {
                    "count": hand.count,
                    "known": [str(card) for card in hand.known],
                    "opened": hand.opened,
                    "penalties": hand.penalties,
                    "to_show": self.phase == SHOW and _must_show(self, seat),
                }
                for seat, hand in enumerate(self.hands)
            ],
        }


# Reading payloads ---------------------------------------------------------------------------


def _seat(play: Play, payload: Mapping[str, Any]) -> int:
    return ev.field_int(payload, "seat", low=0, high=len(play.seats) - 1)


def _one_card(payload: Mapping[str, Any], name: str) -> Card:
    cards = ev.cards_field(payload, name)
    if len(cards) != 1:
        raise ev.payload_error(name, "exactly one card, such as '7S'", "one_card")
    return cards[0]


def _meld_list(payload: Mapping[str, Any], name: str) -> list[tuple[Card, ...]]:
    """Return each meld's cards and keep the declarations of jokers (JK=4C) beside them."""
    raw = payload.get(name)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_MELDS:
        raise ev.payload_error(
            name, f"a list of 1 to {MAX_MELDS} melds", "bad_melds", max=MAX_MELDS
        )
    return [ev.declared_field({name: text}, name) for text in raw]


# Refusals -----------------------------------------------------------------------------------


def _name(play: Play, seat: int) -> str:
    return play.seats[seat]


def _not_your_turn(play: Play, seat: int) -> RuleViolation:
    return _refuse(
        play.rules.turn_rule,
        "not_your_turn",
        f"It is {_name(play, play.turn)}'s turn, not {_name(play, seat)}'s.",
        player=_name(play, seat),
        turn=_name(play, play.turn),
    )


def _phase_refusal(play: Play, code: str, message: str, **params: Any) -> RuleViolation:
    return _refuse(play.rules.turn_rule, code, message, player=_name(play, play.turn), **params)


def _hand_over(play: Play) -> RuleViolation:
    return _refuse(
        play.rules.turn_rule,
        "hand_over",
        "The hand is over: show the hands left (or take back the last move).",
    )


# Cards in hand ------------------------------------------------------------------------------


def _take(play: Play, seat: int, cards: Sequence[Card]) -> SeatHand:
    """Return the seat's hand without ``cards``, refusing cards it cannot hold."""
    hand = play.hands[seat]
    known = Counter(hand.known)
    unknown = hand.unknown
    for card in cards:
        if known[card]:
            known[card] -= 1
        elif unknown:
            unknown -= 1
        else:
            held = " ".join(c.label for c in hand.known) or "-"
            raise _refuse(
                play.rules.turn_rule,
                "not_in_hand",
                f"{_name(play, seat)} cannot play {card.label}: the hand's {hand.count} cards"
                f" are all known ({held}).",
                player=_name(play, seat),
                card=str(card),
                cards=[str(c) for c in hand.known],
            )
    kept = tuple(known.elements())
    return replace(hand, count=hand.count - len(cards), known=_in_order(hand.known, kept))


def _in_order(before: Sequence[Card], kept: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``kept`` in the order the cards first became known."""
    left = Counter(kept)
    ordered = []
    for card in before:
        if left[card]:
            left[card] -= 1
            ordered.append(card)
    return tuple(ordered)


def _give(hand: SeatHand, cards: Sequence[Card], unknown: int = 0) -> SeatHand:
    return replace(hand, count=hand.count + len(cards) + unknown, known=(*hand.known, *cards))


def _with_hand(play: Play, seat: int, hand: SeatHand) -> tuple[SeatHand, ...]:
    return (*play.hands[:seat], hand, *play.hands[seat + 1 :])


def _check_visible(play: Play) -> None:
    """Refuse a state that shows more copies of a card than the decks hold (CARD-2)."""
    shown: list[Card] = [*play.discard]
    for item in play.table:
        shown += item.meld.cards
    for hand in play.hands:
        shown += hand.shown if hand.shown is not None else hand.known
    check_copies(shown, play.rules.deck)


# Starting a hand ----------------------------------------------------------------------------


def start(
    game: str,
    options: Any,
    seats: tuple[str, ...],
    payload: Mapping[str, Any],
    *,
    dealer: int,
    seq: int,
) -> Play:
    """Deal a hand: everybody holds the game's hand, the upcard starts the pile."""
    rules = play_rules(game, options, len(seats))
    ev.check_fields(payload, ("dealer", "upcard") if rules.discard_pile else ("dealer",))
    if "dealer" in payload:
        dealer = ev.field_int(payload, "dealer", low=0, high=len(seats) - 1)
    upcard: tuple[Card, ...] = ()
    if rules.discard_pile:
        upcard = (_one_card(payload, "upcard"),)
    dealt = rules.hand_size * len(seats)
    first = (dealer + 1) % len(seats)
    play = Play(
        rules=rules,
        seats=seats,
        dealer=dealer,
        turn=first,
        phase=FIRST if rules.first_turn else DRAW,
        hands=tuple(SeatHand(count=rules.hand_size) for _ in seats),
        stock=rules.deck.size - dealt - len(upcard),
        discard=upcard,
        seq=seq,
    )
    _check_visible(play)
    return play


# Moves --------------------------------------------------------------------------------------


def apply(play: Play, event_type: str, payload: Mapping[str, Any]) -> Play:
    """Return the hand after one move, or refuse the move citing the rule it breaks."""
    if event_type == MOVE_UNDONE:
        check_undo(payload)
        if play.previous is None:
            raise _refuse("EVENT", "nothing_to_undo", "No move of this hand is left to undo.")
        return play.previous
    if event_type == HANDS_SHOWN:
        if play.phase != SHOW:
            raise _phase_refusal(
                play, "hand_not_over", "The hands are shown when the hand is over."
            )
        after = _show(play, payload)
    else:
        if play.phase in (SHOW, DONE):
            raise _hand_over(play)
        handler = _HANDLERS[event_type]
        after = handler(play, payload)
    _check_visible(after)
    return replace(after, moves=play.moves + 1, previous=play)


def check_undo(payload: Mapping[str, Any]) -> None:
    """Check a move_undone payload: only a reason."""
    ev.check_fields(payload, ("reason",))
    ev.field_str(payload, "reason", max_length=MAX_REASON)


def _draw(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    ev.check_fields(payload, ("seat", "source", "card"))
    seat = _seat(play, payload)
    source = ev.field_choice(
        payload, "source", (STOCK_SOURCE, DISCARD_SOURCE) if rules.discard_pile else (STOCK_SOURCE,)
    )
    card = _one_card(payload, "card") if "card" in payload else None
    if (
        rules.rearrange
        and seat == (play.turn + 1) % len(play.seats)
        and play.phase == PLAY
        and play.final_turns == 0
    ):
        # Knock Rummy has no discard to end a turn: the next seat's draw ends it.
        play = _end_turn(play)
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase == FINAL:
        raise _phase_refusal(
            play, "stock_out", "The stock is used up: this last turn is for melding only."
        )
    if play.phase == FIRST:
        if source == STOCK_SOURCE:
            raise _refuse(
                "GIN-FIRST",
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
            "GIN-FIRST",
            "both_passed",
            "Both players passed the face-up card: the first draw is from the stock.",
        )
    if source == DISCARD_SOURCE:
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
        hand = _give(play.hands[seat], (top,))
        owed = play.owed_jokers + (top.is_joker and rules.joker_from_discard_owed)
        play = replace(
            play,
            discard=play.discard[:-1],
            hands=_with_hand(play, seat, hand),
            taken_from_discard=top,
            owed_jokers=owed,
        )
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


def _pass(play: Play, payload: Mapping[str, Any]) -> Play:
    ev.check_fields(payload, ("seat",))
    seat = _seat(play, payload)
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
        "A turn is passed only on Gin's first turn or to end a Knock Rummy turn.",
    )


def _turn_complete(play: Play) -> bool:
    """Tell whether a Knock Rummy turn may end: it melded, drew three, or the stock is out."""
    return play.melded_now or play.draws >= KR_MAX_DRAWS or play.stock == 0


def _draw_again(play: Play) -> RuleViolation:
    return _phase_refusal(
        play,
        "draw_again",
        f"{_name(play, play.turn)} drew {play.draws} and did not meld: draw another card.",
        draws=play.draws,
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
        turn=(play.turn + 1) % len(play.seats),
        turn_number=play.turn_number + 1,
        phase=phase,
        draws=0,
        passes=0,
        opening_value=0,
        opening_melds=0,
        melded_now=False,
        taken_from_discard=None,
        owed_jokers=0,
        final_turns=final,
    )


def _discard(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    if not rules.discard_pile:
        raise _phase_refusal(play, "no_discard_pile", "Knock Rummy has no discard pile.")
    ev.check_fields(payload, ("seat", "card"))
    seat = _seat(play, payload)
    card = _one_card(payload, "card")
    return _discard_card(play, seat, card)


def _check_rediscard(play: Play, card: Card) -> None:
    """Refuse throwing back the card just taken from the discard pile (GIN-NOREDISCARD)."""
    if play.rules.no_rediscard and card == play.taken_from_discard:
        raise _refuse(
            "GIN-NOREDISCARD",
            "rediscard",
            f"{card.label} was just taken from the discard pile: it cannot go back this turn.",
            card=str(card),
        )


def _joker_unused(play: Play, seat: int, count: int) -> RuleViolation:
    """Refuse ending a turn (discard, going out) with a joker taken this turn still unused."""
    rules = play.rules
    return _refuse(
        rules.joker_use_rule or rules.turn_rule,
        "joker_unused",
        f"{_name(play, seat)} took a joker this turn and must use it in a meld first.",
        player=_name(play, seat),
        count=count,
    )


def _discard_card(play: Play, seat: int, card: Card) -> Play:
    rules = play.rules
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before discarding.")
    play = _judge_opening(play, seat)
    _check_rediscard(play, card)
    hand = play.hands[seat]
    last = hand.count == 1
    if card.is_joker and rules.joker_discard_rule:
        _check_joker_discard(play, seat, last)
    owed = play.owed_jokers
    if owed and card.is_joker and last and rules.joker_out_discard:
        owed -= 1  # RAM-JOKER-SWAP: a swapped joker may go out as the last card
    if owed:
        raise _joker_unused(play, seat, owed)
    hand = _take(play, seat, (card,))
    play = replace(
        play, hands=_with_hand(play, seat, hand), discard=(*play.discard, card), claimable=True
    )
    if hand.count == 0:
        return _finish(play, OUT, seat)
    if rules.wall is not None and play.stock <= rules.wall:
        # GIN-WALL: the player who drew the last allowed card did not knock.
        return _finish(play, WALL, None)
    if play.stock == 0:
        return _finish(play, STOCK, None)
    return _end_turn(play)


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


def _ready_to_meld(play: Play, seat: int) -> None:
    if seat != play.turn:
        raise _not_your_turn(play, seat)
    if play.phase == FINAL:
        return
    if play.phase != PLAY:
        raise _phase_refusal(play, "draw_first", "Draw a card before melding.")
    if play.rules.max_draws > 1 and play.draws >= play.rules.max_draws:
        raise _phase_refusal(
            play, "no_meld_after_third", "After the third draw a player may not meld this turn."
        )


def _check_keeps_one(play: Play, seat: int, hand: SeatHand) -> None:
    """Refuse melding the last card where the game wants a discard to go out."""
    if hand.count == 0 and not play.rules.meld_out:
        raise _refuse(
            play.rules.out_rule,
            "keep_one",
            f"{_name(play, seat)} must keep a card to discard: a player goes out by "
            "discarding the last card.",
            player=_name(play, seat),
        )


def _melds(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    ev.check_fields(payload, ("seat", "melds"))
    seat = _seat(play, payload)
    laid = _meld_list(payload, "melds")
    _ready_to_meld(play, seat)
    if rules.rearrange:
        before = [item.meld for item in play.table]
        return _rearranged(play, seat, [*[m.declared() for m in before], *laid])
    if rules.game == "gin":
        raise _phase_refusal(
            play, "gin_melds", "Gin melds are shown when knocking, not laid during play."
        )
    melds = []
    for number, pairs in enumerate(laid, start=1):
        cards, declarations = split_declared(pairs)
        try:
            melds.append(check_meld(cards, rules.melds, declarations))
        except RuleViolation as exc:
            raise RuleViolation(
                *(replace(v, params={**v.params, "meld": number}) for v in exc.violations)
            ) from None
    cards = [card for meld in melds for card in meld.cards]
    hand = _take(play, seat, cards)
    _check_keeps_one(play, seat, hand)
    table = (*play.table, *(TableMeld(seat, meld) for meld in melds))
    if not play.hands[seat].opened and rules.opening_rule:
        value = play.opening_value + sum(opening_value(meld) for meld in melds)
        if value < rules.opening_minimum:
            # Short so far: the melds wait on the table for the rest of the opening, which
            # the end of the turn judges (_judge_opening).
            if hand.count == 0:
                raise _short_opening(play, value)
            play = replace(play, opening_value=value, opening_melds=play.opening_melds + len(melds))
            return _after_meld(play, seat, hand, cards, table, opens=False)
        play = replace(play, opening_value=0, opening_melds=0)
    return _after_meld(play, seat, hand, cards, table)


def _short_opening(play: Play, value: int) -> RuleViolation:
    rules = play.rules
    return _refuse(
        rules.opening_rule or rules.turn_rule,
        "below_minimum",
        f"An opening needs {rules.opening_minimum} points; these melds make {value}.",
        value=value,
        minimum=rules.opening_minimum,
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
        play,
        hands=_with_hand(play, seat, hand),
        table=table,
        melded_now=True,
        owed_jokers=max(0, play.owed_jokers - jokers),
    )
    if hand.count == 0:
        if play.owed_jokers:
            raise _joker_unused(play, seat, play.owed_jokers)
        return _finish(play, OUT if play.rules.knock != "kr" else KNOCK, seat)
    return play


def _table_meld(play: Play, payload: Mapping[str, Any]) -> tuple[int, TableMeld]:
    if not play.table:
        raise ev.payload_error("meld", "the number of a meld on the table", "no_melds")
    number = ev.field_int(payload, "meld", low=1, high=len(play.table))
    return number - 1, play.table[number - 1]


def _must_have_opened(play: Play, seat: int, rule: str) -> None:
    if not play.hands[seat].opened:
        raise _refuse(
            rule,
            "not_opened",
            f"{_name(play, seat)} has not opened yet: first lay an opening.",
            player=_name(play, seat),
        )


def _add(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    ev.check_fields(payload, ("seat", "meld", "cards"))
    seat = _seat(play, payload)
    added = ev.cards_field(payload, "cards")
    if not added:
        raise ev.payload_error("cards", "one card or more", "bad_cards")
    _ready_to_meld(play, seat)
    if rules.rearrange or rules.game == "gin":
        raise _phase_refusal(
            play,
            "no_adds",
            "Cards are added by rearranging the table."
            if rules.rearrange
            else "Gin has no melds on the table during play.",
        )
    index, item = _table_meld(play, payload)
    _must_have_opened(play, seat, rules.add_rule)
    if item.owner != seat and not rules.add_to_any:
        raise _refuse(
            rules.add_rule,
            "not_own_meld",
            f"At this table a player adds only to their own melds; meld {index + 1} is "
            f"{_name(play, item.owner)}'s.",
            meld=index + 1,
            owner=_name(play, item.owner),
        )
    meld = _extended(play, item.meld, added, index)
    hand = _take(play, seat, added)
    _check_keeps_one(play, seat, hand)
    table = (*play.table[:index], TableMeld(item.owner, meld), *play.table[index + 1 :])
    return _after_meld(play, seat, hand, added, table)


def _extended(play: Play, meld: Meld, added: Sequence[Card], index: int) -> Meld:
    """Return the table meld with cards added; a joker keeps standing for its card."""
    declarations = [stands for _, stands in meld.declared()] + [None] * len(added)
    try:
        return check_meld((*meld.cards, *added), play.rules.melds, declarations)
    except RuleViolation as exc:
        raise RuleViolation(
            *(replace(v, params={**v.params, "meld": index + 1}) for v in exc.violations)
        ) from None


def _swap(play: Play, payload: Mapping[str, Any]) -> Play:
    rules = play.rules
    ev.check_fields(payload, ("seat", "meld", "card"))
    seat = _seat(play, payload)
    card = _one_card(payload, "card")
    _ready_to_meld(play, seat)
    if rules.swap_rule is None:
        raise _phase_refusal(
            play,
            "no_swaps",
            "A joker moves by rearranging the table (KR-JOKER)."
            if rules.rearrange
            else "This game has no jokers.",
        )
    index, item = _table_meld(play, payload)
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
    if rules.swap_set_needs_four and meld.kind == "set" and len(meld.cards) < 4:
        raise _refuse(
            "RAM-OPT-FIXEDJOKER",
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
        play,
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


def _rearrange(play: Play, payload: Mapping[str, Any]) -> Play:
    ev.check_fields(payload, ("seat", "melds"))
    seat = _seat(play, payload)
    after = _meld_list(payload, "melds")
    if not play.rules.rearrange:
        raise _phase_refusal(play, "no_rearranging", "Only Knock Rummy's table may be rearranged.")
    _ready_to_meld(play, seat)
    return _rearranged(play, seat, after)


def _rearranged(play: Play, seat: int, after: Sequence[Sequence[tuple[Card, Card | None]]]) -> Play:
    """Apply a Knock Rummy melding move: the table's melds after it (KR-MELDING, KR-MANIP)."""
    hand = play.hands[seat]
    before = [item.meld for item in play.table]
    # What the hand could have held: the known cards plus any card for the unknown ones.
    shown_before = Counter(card for meld in before for card in meld.cards)
    shown_after = Counter(card for meld in after for card, _ in meld)
    from_unknown = list((shown_after - shown_before - Counter(hand.known)).elements())
    possible = [*hand.known, *from_unknown[: hand.unknown]]
    result = check_rearrangement(before, after, possible, play.rules.melds, first_meld=not before)
    if not result.valid:
        raise RuleViolation(*result.violations)
    taken = list(result.added)
    hand = _take(play, seat, taken)
    # A meld left as it was keeps who laid it; any meld the move made or changed is the mover's.
    owners = {item.meld.declared(): item.owner for item in play.table}
    table = tuple(TableMeld(owners.get(meld.declared(), seat), meld) for meld in result.melds_after)
    return _after_meld(play, seat, hand, taken, table)


def _claim(play: Play, payload: Mapping[str, Any]) -> Play:
    ev.check_fields(payload, ("seat", "card"))
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
    if rules.knock == "kr":
        ev.check_fields(payload, ("seat",))
        seat = _seat(play, payload)
        if seat != play.turn:
            raise _not_your_turn(play, seat)
        if play.phase == PLAY and not _turn_complete(play):
            raise _draw_again(play)
        if play.phase not in (PLAY, FINAL):
            raise _refuse("KR-KNOCK", "before_turn", "A player knocks after playing their turn.")
        return _finish(play, KNOCK, seat)
    ev.check_fields(payload, ("seat", "card", "hand"))
    seat = _seat(play, payload)
    kept = ev.cards_field(payload, "hand")
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
    count = min_arrangements(kept, rules=gin.GIN_MELDS, value=gin_value)[0].count
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
    elif count > gin.KNOCK_LIMIT:
        raise _refuse(
            "GIN-KNOCK",
            "over_limit",
            f"A knock needs a count of {gin.KNOCK_LIMIT} or less; these cards count {count}.",
            count=count,
            limit=gin.KNOCK_LIMIT,
        )
    shown = replace(hand, shown=tuple(kept), known=())
    play = replace(play, hands=_with_hand(play, seat, shown), discard=(*play.discard, *played))
    return _finish(play, KNOCK, seat)


def _finish(play: Play, ending: str, seat: int | None) -> Play:
    play = replace(play, ending=ending, ender=seat, phase=SHOW)
    if ending == WALL:
        return replace(play, phase=DONE, end=HandEnd(WALL, (), None))
    if not any(_must_show(play, s) for s in range(len(play.seats))):
        return _ended(play)
    return play


def _must_show(play: Play, seat: int) -> bool:
    hand = play.hands[seat]
    return hand.shown is None and hand.points is None and hand.count > 0


def _show(play: Play, payload: Mapping[str, Any]) -> Play:
    ev.check_fields(payload, ("mode", "players"))
    mode = ev.field_choice(
        payload, "mode", ("cards", "points") if play.rules.knock != "gin" else ("cards",)
    )
    raw = payload.get("players")
    if not isinstance(raw, list) or len(raw) != len(play.seats):
        raise ev.payload_error(
            "players", f"a list of {len(play.seats)} entries, one per seat", "bad_players"
        )
    hands = list(play.hands)
    for seat, entry in enumerate(raw):
        name = f"players[{seat}]"
        if entry is None:
            if _must_show(play, seat):
                raise ev.payload_error(name, "the cards this player holds", "missing_hand")
            continue
        if not isinstance(entry, Mapping):
            raise ev.payload_error(name, "an object", "bad_players")
        hand = hands[seat]
        if not _must_show(play, seat):
            raise ev.payload_error(name, "null: the log already shows this hand", "known_hand")
        if mode == "points":
            ev.check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.points",))
            points = ev.field_int({"points": entry.get("points")}, "points", low=0, high=500)
            hands[seat] = replace(hand, points=points)
            continue
        ev.check_fields({f"{name}.{k}": v for k, v in entry.items()}, (f"{name}.hand",))
        cards = ev.cards_field({f"{name}.hand": entry.get("hand")}, f"{name}.hand")
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


def _ended(play: Play) -> Play:
    """Build the hand's end state for the variant to score."""
    ending = play.ending
    players = []
    for seat, hand in enumerate(play.hands):
        out = ending in (OUT, KNOCK) and seat == play.ender and hand.count == 0
        closed = (
            play.rules.hand_closure
            and out
            and hand.opened_turn == play.turn_number
            and ending == OUT
        )
        by_points = hand.points is not None
        players.append(
            PlayerEnd(
                name=play.seats[seat],
                hand=() if by_points else (hand.shown or ()),
                melded=() if by_points else hand.melded,
                knocked=ending == KNOCK and seat == play.ender and play.rules.knock == "kr",
                went_out=out,
                hand_closed=closed,
                opening_penalty=hand.penalties,
                points=hand.points,
            )
        )
    end = HandEnd(ending, tuple(players), play.ender)
    return replace(play, phase=DONE, end=end)


_HANDLERS: dict[str, Callable[[Play, Mapping[str, Any]], Play]] = {
    CARD_DRAWN: _draw,
    CARD_DISCARDED: _discard,
    TURN_PASSED: _pass,
    MELDS_LAID: _melds,
    CARDS_ADDED: _add,
    JOKER_SWAPPED: _swap,
    TABLE_REARRANGED: _rearrange,
    DISCARD_CLAIMED: _claim,
    KNOCKED: _knock,
}
