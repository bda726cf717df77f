"""Canasta played move by move: what the shared play engine (scoring/play/) reads of a
Canasta table, and the rulings of play a side's sheet cannot see (CAN-TURN-1,
CAN-MELD-1 to 3, CAN-RED3-1, CAN-PILE-1, CAN-OPEN-1, CAN-OUT-1, CAN-OUT-2, CAN-STOCK-1).

What the engine checks, move by move:

- CAN-TURN-1: a turn draws one card from the stock or takes the whole discard pile, melds
  (new melds of the side, or cards added to the side's own melds, never the opponents'),
  and discards one card. Partners share their side's melds.
- CAN-MELD-1, CAN-MELD-2: every meld, and every table meld with cards added, is read by
  Canasta's own check (melds.py): one rank, two naturals at least, three wilds at most; a
  side holds one meld of a rank, so a second is refused (add to the first).
- CAN-MELD-3: black 3s meld only in the turn their player goes out: a discard that is not
  the last card is refused while black 3s are on the table.
- CAN-OPEN-1: the side's first melds of the hand, in one turn, are worth at least what its
  total before the hand asks (the replay passes the totals in); cards at their value,
  no bonus counted.
- CAN-RED3-1: a red 3 is laid face up as a group of its own (``melds_laid`` with the red
  3s alone), never melded, kept nor discarded; each is replaced at once by a card drawn
  from the stock (``card_drawn``, source "stock", before any other move), but a red 3 the
  pile brought. A red 3 the log does not name and a hand shows at the end was dealt and
  never laid: it scores as laid down (scoring.py).
- CAN-PILE-1: who takes the pile takes all of it, and the top card must go to the table
  that turn with what the pile asks, frozen or not (pile.py).
- CAN-OUT-1: a side goes out, discarding its last card, only with the canastas the table
  asks (one, or two by CAN-OPT-CANASTAS) on the table.
- CAN-OUT-2: a player going out whose first melds of the hand are this turn's, a canasta
  among them, goes out concealed (scoring.py reads it).
- CAN-STOCK-1: the hand ends once the stock is spent, after that player's discard.

Left to the players: the pile cards other than the top counting toward the first meld (the
engine counts every meld of the opening turn), and taking the last discard when the stock is
spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.melds import Meld, MeldRules
from scoring.play.rules import PlayRules
from scoring.play.state import Play, side_of
from scoring.variants.canasta.cards import (
    PAIRS,
    THREE_RANK,
    card_value,
    deck,
    hand_size,
    is_red_three,
    is_wild,
)
from scoring.variants.canasta.match import first_meld_minimum
from scoring.variants.canasta.melds import MOST_WILDS, NO_CANASTA, check_meld
from scoring.variants.canasta.options import CanastaOptions
from scoring.variants.canasta.pile import pile_take_check, pile_top_check


def meld_rules(options: CanastaOptions) -> MeldRules:
    """Return the nearest the shared meld checker comes to Canasta's melds (the solver and
    the referee read it): sets only, jokers wild, three at most. Canasta's own check is
    melds.check_meld, which the play engine reads through ``meld_reader``."""
    return MeldRules(
        ace_low=True,
        ace_high=True,
        wrap=False,
        max_set=11,
        max_jokers=MOST_WILDS,
        no_jokers_rule="CAN-SETUP",
        joker_limit_rule="CAN-MELD-2",
    )


def table_meld(cards: Sequence[Card]) -> Meld:
    """Return the cards as a group on the table: red 3s laid down (CAN-RED3-1), or a meld
    checked by Canasta's rules, black 3s read as going out (CAN-MELD-3: the discard that
    follows must go out, discard_check)."""
    if cards and all(is_red_three(card) for card in cards):
        return Meld("set", tuple(cards))
    return Meld("set", check_meld(cards).cards)


def _is_meld(cards: Sequence[Card]) -> bool:
    """Tell whether a group on the table is a meld, not red 3s laid down."""
    return not all(is_red_three(card) for card in cards)


def _rank(cards: Sequence[Card]) -> int:
    return next(card.rank for card in cards if not is_wild(card))


def new_melds_check(play: Play, seat: int, melds: Sequence[Meld]) -> RuleViolation | None:
    """Refuse a meld of a rank the side already holds (CAN-MELD-1: add to it instead)."""
    ranks = {
        _rank(item.meld.cards)
        for item in play.table
        if item.owner in PAIRS[side_of(play.rules, seat)] and _is_meld(item.meld.cards)
    }
    for number, meld in enumerate(melds, start=1):
        if not _is_meld(meld.cards):
            continue
        rank = _rank(meld.cards)
        if rank in ranks:
            name = play.seats[seat]
            return _refuse(
                "CAN-MELD-1",
                "rank_melded",
                f"{name}'s side already has a meld of {meld.cards[0].rank_name}s: add the "
                "cards to it.",
                player=name,
                meld=number,
                rank=meld.cards[0].rank_name,
            )
        ranks.add(rank)
    return None


def discard_check(play: Play, seat: int, card: Card, last: bool) -> RuleViolation | None:
    """Refuse a discard that does not go out while black 3s are melded (CAN-MELD-3)."""
    if last:
        return None
    if not any(
        _is_meld(item.meld.cards) and _rank(item.meld.cards) == THREE_RANK for item in play.table
    ):
        return None
    name = play.seats[seat]
    return _refuse(
        "CAN-MELD-3",
        "black_threes_go_out",
        f"Black 3s are melded only by a player going out: {name} must go out this turn.",
        player=name,
    )


def side_canastas(play: Play, side: int) -> int:
    """Return how many canastas the side has on the table."""
    return sum(
        1
        for item in play.table
        if item.owner in PAIRS[side]
        and not all(is_red_three(card) for card in item.meld.cards)
        and check_meld(item.meld.cards).canasta != NO_CANASTA
    )


@dataclass(frozen=True, slots=True)
class MeldReader:
    """Read a group on the table by Canasta's rules (PlayRules.meld_reader); a value, so
    the play rules of two replays of one table compare equal."""

    def __call__(self, cards: Sequence[Card]) -> Meld:
        return table_meld(cards)


@dataclass(frozen=True, slots=True)
class OutCheck:
    """Check a going out by Canasta's rules (PlayRules.out_check), as a value likewise."""

    options: CanastaOptions

    def __call__(self, play: Play, seat: int, card: Card) -> RuleViolation | None:
        needed = self.options.canastas_to_go_out
        have = side_canastas(play, side_of(play.rules, seat))
        if have >= needed:
            return None
        name = play.seats[seat]
        return _refuse(
            "CAN-OUT-1",
            "out_without_canasta",
            f"{name}'s side has {have} canasta(s); it goes out only with {needed}.",
            player=name,
            needed=needed,
            count=have,
        )


def play_rules(options: CanastaOptions, players: int) -> PlayRules:
    """Return what the play engine reads of a Canasta table (this module's docstring)."""
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_value,
        turn_rule="CAN-TURN-1",
        setup_rule="CAN-SETUP",
        add_rule="CAN-MELD-1",
        add_to_any=False,
        out_rule="CAN-OUT-1",
        show_by_points=True,
        meld_reader=MeldReader(),
        take_whole_pile=True,
        pickup_to_table=True,
        pickup_rule="CAN-PILE-1",
        sides=PAIRS,
        out_check=OutCheck(options),
        opening_rule="CAN-OPEN-1",
        opening_by_total=first_meld_minimum,
        pile_take_check=pile_take_check,
        pile_top_check=pile_top_check,
        new_melds_check=new_melds_check,
        discard_check=discard_check,
        bonus_card=is_red_three,
        bonus_rule="CAN-RED3-1",
        # CAN-OUT-2: a going out in the turn of the player's first melds (scoring.py).
        hand_closure=True,
    )
