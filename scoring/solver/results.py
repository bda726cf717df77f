"""What the solver's questions return, and how a variant says it goes out (Closing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.cards import Card, DeckSpec
from scoring.errors import Violation
from scoring.melds import Meld

Value = Callable[[Card], int]
OpeningValue = Callable[[Meld], int]

# The default deck: one, no jokers. A game passes its own (its rule for a joker entered).
ONE_DECK = DeckSpec(decks=1, jokers=0)
DISCARDS = ("required", "optional", "none")


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Hold one way to arrange a hand: its melds, its deadwood and the deadwood count."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    count: int


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """Hold the defender's outcome: own melds, layoffs (card, table meld index), deadwood.

    A joker laid off shows as JOKER in ``layoffs``; ``grown`` holds every table meld after the
    layoffs, each joker with the card it stands for (Meld.represents).
    """

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    deadwood: tuple[Card, ...]
    count: int
    grown: tuple[Meld, ...] = ()


@dataclass(frozen=True, slots=True)
class Opening:
    """Hold the most valuable opening of a hand: its melds, their VALUE, the cards laid and kept."""

    melds: tuple[Meld, ...]
    value: int
    cards: tuple[Card, ...]
    kept: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Closing:
    """Describe how a variant goes out: the final discard, the opening, and the rules cited.

    ``discard`` is "required" (a last card is discarded: R40-HAND, RAM-OUT), "optional" (or
    the last card is melded too: RAM-OPT-NODISCARDWIN) or "none" (every card is melded:
    KR-OUT, GIN-BIGGIN). ``rule`` is cited when the cards cannot all be melded,
    ``opening_rule`` when a player who had not opened falls short of ``opening_minimum``
    (RAM-OPEN, R40-OPEN), and ``joker_discard_rule``, when set, forbids a joker as the last
    discard (R40-JOKER-DISCARD, RAM-OPT-FIXEDJOKER); ``barred_discard`` says which cards it
    forbids where they are more than the jokers (BUR-CLOSE: every wild, a 2 as well), the
    game's play engine asking the same function. ``hand_closure_free``: a player who
    has not opened goes out in one turn whatever the melds are worth (S40-HANDCLOSE), so
    ``opening_minimum`` binds only an opening that does not go out.
    """

    discard: str
    rule: str
    opening_minimum: int = 0
    opening_rule: str = ""
    joker_discard_rule: str | None = None
    hand_closure_free: bool = False
    barred_discard: Callable[[Card], bool] | None = None

    def __post_init__(self) -> None:
        if self.discard not in DISCARDS:
            raise ValueError(f"discard must be one of {DISCARDS}, not {self.discard!r}")

    def bars(self, card: Card) -> bool:
        """Tell whether the card may not be the last discard (``joker_discard_rule``)."""
        if self.joker_discard_rule is None:
            return False
        return self.barred_discard(card) if self.barred_discard else card.is_joker


@dataclass(frozen=True, slots=True)
class GoOut:
    """Hold how a hand goes out (melds, cards added to table melds, the discard), or why not.

    ``discards`` lists every discard that goes out (None: going out without one); ``value``
    is the VALUE of the melds laid when the player had not opened (the search then takes the
    most valuable way), else 0. ``violation`` says why the hand cannot go out.
    """

    melds: tuple[Meld, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    grown: tuple[Meld, ...] = ()
    discard: Card | None = None
    value: int = 0
    discards: tuple[Card | None, ...] = ()
    violation: Violation | None = None

    @property
    def possible(self) -> bool:
        """Tell whether the hand goes out."""
        return self.violation is None
