"""Canasta played move by move: what the shared play engine (scoring/play/) reads of a
Canasta table, and the rulings of play a side's sheet cannot see (CAN-TURN-1,
CAN-MELD-1 to 3, CAN-RED3-1, CAN-PILE-1, CAN-OUT-1, CAN-STOCK-1).

What the engine checks, move by move:

- CAN-TURN-1: a turn draws one card from the stock or takes the whole discard pile, melds
  (new melds of the side, or cards added to the side's own melds, never the opponents'),
  and discards one card. Partners share their side's melds.
- CAN-MELD-1, CAN-MELD-2: every meld, and every table meld with cards added, is read by
  Canasta's own check (melds.py): one rank, two naturals at least, three wilds at most.
- CAN-RED3-1: a red 3 is laid face up on the table as a group of its own (``melds_laid``
  with the red 3s alone), never in a meld; its replacement draw is the next
  ``card_drawn``'s business: the log names moves, not the deal's order.
- CAN-PILE-1: who takes the pile takes all of it, and the top card must go to the table
  that turn (the play engine's ``pickup_to_table``).
- CAN-OUT-1: a side goes out, discarding its last card, only with the canastas the table
  asks (one, or two by CAN-OPT-CANASTAS) on the table.
- CAN-STOCK-1: the hand ends once the stock is spent, after that player's discard.

What a hand played move by move leaves to the players (a sheet enters a hand where these
decided it): the first meld's minimum (CAN-OPEN-1), which turns on the side's total before
the hand; the pile frozen by a wild, by a black 3 on top, or for a side that has not
melded, and the natural pair a frozen pile asks for (CAN-PILE-1); black 3s melded going out
(CAN-MELD-3: the engine refuses them in play); a concealed going out (CAN-OUT-2).
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
from scoring.variants.canasta.cards import PAIRS, card_value, deck, hand_size, is_red_three
from scoring.variants.canasta.melds import MOST_WILDS, NO_CANASTA, check_meld
from scoring.variants.canasta.options import CanastaOptions


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
    checked by Canasta's rules, black 3s refused (CAN-MELD-3: only going out)."""
    if cards and all(is_red_three(card) for card in cards):
        return Meld("set", tuple(cards))
    return Meld("set", check_meld(cards, going_out=False).cards)


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
    )
