"""What one game's table allows in play: the data a game module gives the move checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.cards import Card, DeckSpec
from scoring.errors import RuleViolation
from scoring.melds import Meld, MeldRules
from scoring.rearrange import RearrangeRules

if TYPE_CHECKING:
    # Only named in annotations: scoring.play.state imports this module.
    from scoring.play.state import Play

# When a joker may be discarded.
JOKER_DISCARD_ANY = "any"
JOKER_DISCARD_OPENED = "opened_not_last"
JOKER_DISCARD_NEVER = "never"

# How a player knocks: showing the cards kept after a discard, or at the end of a turn
# without showing anything.
KNOCK_SHOWING = "showing"
KNOCK_AT_TURN_END = "at_turn_end"


@dataclass(frozen=True, slots=True)
class OutWithoutDiscard:
    """Say whether a knock that shows every card held and discards none may end a hand (each
    card then in a meld), and the rule its refusals cite, allowed or not."""

    rule: str
    allowed: bool


@dataclass(frozen=True, slots=True)
class KnockClaim:
    """Say whether a player out of turn may knock to claim the last discard before the next
    player draws, and the rule its refusals cite, allowed or not."""

    rule: str
    allowed: bool


@dataclass(frozen=True, slots=True)
class KnockLimitByDeal:
    """Hold the knock limit each deal sets by the card it turns up (the deal must name it):
    the limit a card gives, and the rule a knock over it cites."""

    rule: str
    limit: Callable[[Card], int]


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Hold what one game's table allows in play, read from its game and options."""

    deck: DeckSpec
    hand_size: int
    melds: MeldRules
    value: Callable[[Card], int]  # a card's value in hand (a knock's count adds these)
    turn_rule: str
    setup_rule: str
    discard_pile: bool = True
    # The rule of a first turn that takes the face-up card or passes, before any stock draw
    # (None: the first turn draws as any other).
    first_turn_rule: str | None = None
    # The rule that keeps the card just taken from the discard pile from going back on it
    # the same turn (None: it may).
    no_rediscard_rule: str | None = None
    wall: int | None = None  # the stock count at which the hand is void (None: never)
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
    # The rule that lets a joker be taken from a set only when the set holds 4 cards
    # (RAM-OPT-FIXEDJOKER); None: from any set.
    swap_from_four_rule: str | None = None
    out_rule: str = ""
    meld_out: bool = False  # going out by melding the last card (RAM-OPT-NODISCARDWIN, KR)
    max_draws: int = 1  # Knock Rummy: up to three (KR-TURN)
    # Knocking for the last discard (RAM-OPT-KNOCKCLAIM): None where no rule speaks of it.
    knock_claim: KnockClaim | None = None
    # A shared table that a turn rearranges (Knock Rummy's), and the rules its refusals cite;
    # None: melds are laid and added to, never rearranged.
    rearrange: RearrangeRules | None = None
    knock: str | None = None  # KNOCK_SHOWING or KNOCK_AT_TURN_END
    knock_rule: str = ""  # the rule of a knock: its timing, its cards, its count's limit
    knock_limit: int = 0  # the highest count a knock may keep
    # Melds are shown when knocking, never laid nor added to in play; ``melds_in_play_code``
    # is the code a meld laid in play is refused with (the game's sentence is keyed by it).
    melds_at_knock: bool = False
    melds_in_play_code: str = "melds_at_knock"
    show_by_points: bool = True  # the hands left may be shown by their value
    # A showing knock (KNOCK_SHOWING) that discards nothing: None where no rule speaks of it.
    out_without_discard: OutWithoutDiscard | None = None
    # Each deal's turned-up card sets the hand's ``knock_limit``; None: the limit is fixed.
    knock_limit_by_deal: KnockLimitByDeal | None = None
    hand_closure: bool = False  # RAM-HANDCLOSE, S40-HANDCLOSE
    # S40-HANDCLOSE: going out in the turn of the first meld needs no opening minimum.
    hand_closure_free: bool = False
    # S40-PICKUP: the top discard taken must reach the table in the same turn, before
    # opening among the melds of the opening.
    pickup_to_table: bool = False
    # The rule a pickup still owed to the table cites (S40-PICKUP; Canasta's pile: CAN-PILE-1).
    pickup_rule: str = ""
    # The rule by which a player who has opened may not discard a card a table meld could
    # take, but for the last one (S40-DISCARD); None: any card may be discarded.
    attachable_discard_rule: str | None = None
    # S40-DISCARD as the regulations have it: a player who has not opened is bound too.
    attachable_check_unopened: bool = False
    # S40-STOCK: an empty stock is made again from the discard pile but its top card; the
    # hand ends only when that pile has nothing to give.
    reshuffle: bool = False
    # A game's own meld check, used instead of ``melds`` (check_meld) where set: it reads a
    # meld's cards (a new meld, or a table meld with the cards added, every wild placed
    # afresh) and returns the Meld, or refuses it citing the game's rules. Declarations
    # ("JK=7H") are not read: the game places its wilds itself.
    meld_reader: Callable[[Sequence[Card]], Meld] | None = None
    # A draw from the discard pile takes the whole pile into the hand, not only its top.
    take_whole_pile: bool = False
    # The seats that play as one side (partners), each a tuple of seats; empty: every seat
    # is a side of its own. A meld belongs to its layer's side: with ``add_to_any`` off a
    # player adds to their side's melds only, and a side has opened once any of its seats has.
    sides: tuple[tuple[int, ...], ...] = ()
    # Kitties: each side has one of this many cards set aside at the deal (0: none), which
    # the first of its seats to empty the hand takes, once: at once after melding the last
    # card (the turn goes on), or after discarding it (the turn passes). With the kitty
    # taken, emptying the hand goes out.
    kitty_size: int = 0
    # The hand ends (STOCK) after the discard that leaves the stock holding this many cards.
    stock_end: int = 0
    # A game's own condition to go out by the last discard: given the hand before the
    # discard, the seat and the card, the refusal (citing its rule), or None to let it go.
    out_check: Callable[[Play, int, Card], RuleViolation | None] | None = None
    # The rule that makes a turn that took from the discard pile meld or add before it
    # ends (None: no such duty).
    pile_meld_rule: str | None = None
    # The least an opening is worth by the seat's total before the hand (Play.totals), in
    # place of ``opening_minimum`` (CAN-OPEN-1's bands); an opening then counts each card at
    # ``value``, and a side (``sides``) opens once, with its first meld.
    opening_by_total: Callable[[int], int] | None = None
    # A game's own condition to take the discard pile (given the hand before the draw and the
    # seat), and to place its top card: given the hand, the seat, the cards the move lays
    # with the top among them and the table meld they go on (None: a new meld). Each returns
    # the refusal citing its rule, or None (CAN-PILE-1's frozen pile).
    pile_take_check: Callable[[Play, int], RuleViolation | None] | None = None
    pile_top_check: (
        Callable[[Play, int, Sequence[Card], Meld | None], RuleViolation | None] | None
    ) = None
    # A game's own check of the new melds of a move against the table (given the hand, the
    # seat and the melds read), e.g. CAN-MELD-1's one meld of a rank a side.
    new_melds_check: Callable[[Play, int, Sequence[Meld]], RuleViolation | None] | None = None
    # A game's own check of every discard (given the hand before it, the seat, the card and
    # whether it is the last card), e.g. CAN-MELD-3's black 3s only when going out.
    discard_check: Callable[[Play, int, Card, bool], RuleViolation | None] | None = None
    # Bonus cards (Canasta's red 3s, CAN-RED3-1): never kept nor discarded; laid down alone,
    # each is replaced by a card drawn from the stock at once, but one the pile brought.
    bonus_card: Callable[[Card], bool] | None = None
    bonus_rule: str = ""

    @property
    def solver_weighs(self) -> bool:
        """Tell whether the shared solver (scoring/solver.py) can weigh a hand of these rules
        for the review: not where the game reads its melds its own way (``meld_reader``),
        whose melds the solver does not know; such a turn is shown but left unweighed."""
        return self.meld_reader is None

    @property
    def claims_discards(self) -> bool:
        """Tell whether a player may knock to claim the last discard out of turn."""
        return self.knock_claim is not None and self.knock_claim.allowed

    @property
    def goes_out_without_discard(self) -> bool:
        """Tell whether a knock may discard nothing, every card held in melds."""
        return self.out_without_discard is not None and self.out_without_discard.allowed
