"""Burraco played move by move: what the shared play engine (scoring/play/) reads of a
Burraco table, and the rules of play a pair's sheet cannot see (BUR-TURN, BUR-MELDS,
BUR-WILD, BUR-POZZETTO, BUR-CLOSE, BUR-STOCK, BUR-OPT-INTL).

Rulings of play, as the federation's (FIBur) code reads:

- BUR-TURN: a turn draws one card from the stock or takes the whole discard pile, melds
  (new melds of the pair, or cards added to the pair's own melds, never the opponents'),
  and discards one card. Partners share their pair's melds: either adds to any of them.
- BUR-MELDS, BUR-WILD: every meld, and every table meld with cards added, is read afresh
  by Burraco's own check (melds.py): a 2 in its natural place is no wild, one wild a meld,
  and a wild's place is worked out again as cards arrive (the natural card it stood for
  moves it to an end, as the code lets it).
- BUR-POZZETTO: the first of a pair to empty the hand takes the pair's pozzetto, once: at
  once when the hand emptied by melding (the turn goes on with its 11 cards, "al volo"),
  after the discard when it emptied by discarding (the turn passes, the player holds the
  11 cards, "in differita"); the player who emptied the hand takes it, never the partner.
  A last discard while the pair's pozzetto waits is no closing, whatever the card.
- BUR-CLOSE: with its pozzetto taken, a pair closes when one of its players melds all but
  one card and discards that one; the pair needs a burraco on the table (BUR-OPT-INTL: a
  pulito). The closing discard may not be a wild: no jolly, and no 2 either, as a 2 left
  in hand has no natural place to stand in (the code's "matta"). Melding the last card
  with the pozzetto taken is refused: a closing ends with a discard. A player who melds
  down to one card the pair cannot close with is refused at the discard, and takes the
  meld back (move_undone).
- BUR-STOCK: after the 44 cards dealt, the two pozzetti of 11 and the upcard, the stock
  holds 108 - 44 - 22 - 1 = 41 cards; when a draw leaves two, the hand ends (no closing
  bonus) after that player's discard. A pozzetto taken by that discard counts as taken,
  its cards as held.
- BUR-OPT-INTL: a turn that took the discard pile melds or adds at least one card before
  its discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, parse_card
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.melds import Meld, MeldRules
from scoring.play.rules import PlayRules
from scoring.play.state import Play, side_of
from scoring.variants.burraco.cards import (
    PAIRS,
    POZZETTO_SIZE,
    card_value,
    deck,
    hand_size,
    is_wild,
)
from scoring.variants.burraco.melds import (
    COMBINATION,
    NO_BURRACO,
    PULITO,
    BurracoMeld,
    check_meld,
)
from scoring.variants.burraco.options import BurracoOptions

# BUR-STOCK: the hand ends after the discard that follows the draw leaving this many.
STOCK_END = 2


def meld_rules(options: BurracoOptions) -> MeldRules:
    """Return the nearest the shared meld checker comes to Burraco's melds (the solver and
    the referee read it): ace low or high, no wrap, one joker a meld, combinations up to 9
    cards. It does not know pinelle: Burraco's own check is melds.check_meld, which the
    play engine reads through ``table_meld``."""
    return MeldRules(
        ace_low=True,
        ace_high=True,
        wrap=False,
        max_set=9,
        max_jokers=1,
        no_jokers_rule="BUR-SETUP",
        joker_limit_rule="BUR-WILD",
    )


def table_meld(options: BurracoOptions, cards: Sequence[Card]) -> Meld:
    """Return the cards as a meld on the table, checked by Burraco's own rules (BUR-MELDS,
    BUR-WILD, BUR-OPT-INTL), in the shared shape: a sequence is a run, a combination a set,
    and a jolly says what it stands for."""
    return _shared(check_meld(cards, **_meld_options(options)))


def _meld_options(options: BurracoOptions) -> dict[str, bool]:
    return {"semipulito": options.semipulito, "international": options.international}


def _shared(meld: BurracoMeld) -> Meld:
    """Return a Burraco meld as the shared engine holds it: a jolly stands for its card (in
    a combination, the first natural card's); a pinella says nothing, as the shared
    notation declares jokers only."""
    kind = "set" if meld.kind == COMBINATION else "run"
    wild = meld.wild
    if wild is None or not wild.is_joker:
        return Meld(kind, meld.cards)
    stands = parse_card(meld.stands_for) if meld.kind != COMBINATION else None
    if stands is None:
        stands = next(card for card in meld.cards if not is_wild(card))
    represents = tuple(stands if card.is_joker else card for card in meld.cards)
    return Meld(kind, meld.cards, represents)


def pair_melds(options: BurracoOptions, play: Play, pair: int) -> tuple[BurracoMeld, ...]:
    """Return the pair's melds on the table, read as Burraco melds (their burracos)."""
    return tuple(
        check_meld(item.meld.cards, **_meld_options(options))
        for item in play.table
        if item.owner in PAIRS[pair]
    )


def barred_closing_discard(card: Card) -> bool:
    """Tell whether the card may not close a hand as its last discard (BUR-CLOSE): a wild,
    a jolly or any 2, as a 2 left alone in hand has no natural place to stand in. The play
    engine's closing check and the referee's (its ``Closing``) both ask this."""
    return is_wild(card)


def closing_refusal(
    options: BurracoOptions, play: Play, seat: int, card: Card
) -> RuleViolation | None:
    """Return why the seat may not close by discarding ``card``, its last card, or None
    (BUR-CLOSE, BUR-OPT-INTL)."""
    name = play.seats[seat]
    pair = side_of(play.rules, seat)
    if not play.kitties[pair]:
        return _refuse(
            "BUR-CLOSE",
            "closed_without_pozzetto",
            f"{name}'s pair has not taken its pozzetto: it cannot close yet.",
            player=name,
        )
    kinds = [meld.burraco for meld in pair_melds(options, play, pair)]
    if all(kind == NO_BURRACO for kind in kinds):
        return _refuse(
            "BUR-CLOSE",
            "closed_without_burraco",
            f"{name}'s pair has no burraco on the table: a pair closes only with one.",
            player=name,
        )
    if options.international and PULITO not in kinds:
        return _refuse(
            "BUR-OPT-INTL",
            "closed_without_pulito",
            f"Under the international code a pair closes only with a burraco pulito; "
            f"{name}'s pair has none.",
            player=name,
        )
    if barred_closing_discard(card):
        return _refuse(
            "BUR-CLOSE",
            "wild_discard",
            f"{card.label} is a wild: a pair never closes by discarding a jolly or a 2.",
            player=name,
            card=str(card),
        )
    return None


@dataclass(frozen=True, slots=True)
class MeldReader:
    """Read a meld on the table by Burraco's rules (PlayRules.meld_reader); a value, so the
    play rules of two replays of one table compare equal."""

    options: BurracoOptions

    def __call__(self, cards: Sequence[Card]) -> Meld:
        return table_meld(self.options, cards)


@dataclass(frozen=True, slots=True)
class ClosingCheck:
    """Check a closing by Burraco's rules (PlayRules.out_check), as a value likewise."""

    options: BurracoOptions

    def __call__(self, play: Play, seat: int, card: Card) -> RuleViolation | None:
        return closing_refusal(self.options, play, seat, card)


def play_rules(options: BurracoOptions, players: int) -> PlayRules:
    """Return what the play engine reads of a Burraco table (this module's docstring)."""
    return PlayRules(
        deck=deck(options, players),
        hand_size=hand_size(options, players),
        melds=meld_rules(options),
        value=card_value,
        turn_rule="BUR-TURN",
        setup_rule="BUR-SETUP",
        add_rule="BUR-MELDS",
        add_to_any=False,
        out_rule="BUR-CLOSE",
        show_by_points=True,
        meld_reader=MeldReader(options),
        take_whole_pile=True,
        sides=PAIRS,
        kitty_size=POZZETTO_SIZE,
        stock_end=STOCK_END,
        out_check=ClosingCheck(options),
        pile_meld_rule="BUR-OPT-INTL" if options.international else None,
    )
