"""Meld rules and meld validation, with jokers (MELD-SET, MELD-RUN, ACE-*, JOKER-1, VALUE).

A meld is checked by listing its *readings*: every way the cards form a legal set or run, each
joker standing for one missing card. A run's readings are the windows of consecutive ranks
that hold all its natural cards (with ACE-WRAP a window may go round the corner); a set's are
the ways its jokers take missing suits. Declared jokers (JOKER-1, KR-JOKER) keep only the
readings where they stand for what was declared. No reading at all is a refusal citing the
rule that rules them out; several readings are resolved in a fixed order (see check_meld), and
the meld says which jokers the engine placed itself (``Meld.chosen``).

Readings of the variants' joker options, each refusal citing the rule the game names for it
(MeldRules' ``*_rule`` fields), so that these checks name no game's rule themselves:

- A meld needs at least one natural card (JOKER-1 ``no_natural``); MeldRules.max_jokers caps
  the jokers of one meld, set or run (R40-RUNS); jokers_within_naturals refuses more jokers
  than natural cards (RAM-JOKER).
- adjacent_jokers off, a rule given to keep jokers apart (RAM-OPT-FIXEDJOKER): in a run no
  two jokers may stand for neighbouring ranks. A set's cards have no order the referee can
  see, so two or more jokers in a set count as side by side, except under fixed groups,
  where the suit order places every card.
- fixed_groups (RAM-OPT-FIXEDGROUPS): a set's suits follow ♣ ♠ ♥ ♦ without gaps, from any
  of them (♠ ♥ ♦ has none). Natural cards may be written in any order; a set with a joker is
  read as written, as it lies: each joker takes its place's suit, so ♣ JK ♥ is legal (the
  joker is ♠), JK ♣ ♠ is not, and the cards around a joker must be in suit order.
- One natural card and jokers may read as a set or a run (Knock Rummy has no joker limit):
  declarations decide; without them it is a set, the plainest reading of "7♠ and two jokers".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import NamedTuple

from scoring.cards import JOKER, SUIT_SYMBOLS, SUITS, Card, Declared, card_sort_key

# Call sites say _refuse(rule, code, ...): games' catalog test finds the verdicts by that name.
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse

MIN_MELD = 3
MAX_RUN = 13
_SUIT_INDEX: dict[str, int] = {suit: i for i, suit in enumerate(SUITS)}
_SUIT_ORDER_LABEL = " ".join(SUIT_SYMBOLS[suit] for suit in SUITS)


@dataclass(frozen=True, slots=True)
class MeldRules:
    """Describe which melds a variant allows; the defaults allow sets and ace-low runs, no
    jokers (Gin's melds, GIN-MELDS, with its own rule for a joker)."""

    ace_low: bool = True
    ace_high: bool = False
    wrap: bool = False  # ACE-WRAP off; RAM-OPT-CIRCULAR turns it on (runs still <= 13 cards)
    max_set: int = 4
    # Jokers. By default none; each variant with jokers sets these from its options.
    max_jokers: int | None = 0  # per meld; None = no count limit (R40-RUNS: 1)
    # Each joker option below is on when the game names the rule its refusal cites, and off
    # (None) by default: the shared checks cite what the game supplies, never a game's rule.
    # Never more jokers than natural cards (RAM-JOKER).
    jokers_within_naturals_rule: str | None = None
    # No two jokers side by side (RAM-OPT-FIXEDJOKER); None: jokers may touch.
    apart_jokers_rule: str | None = None
    # A set's suits in the order C S H D, without gaps (RAM-OPT-FIXEDGROUPS).
    fixed_groups_rule: str | None = None
    # The rule a player looks up when a joker is refused because the game has none: the
    # game's own (its setup), else the shared rule of what the cards are.
    no_jokers_rule: str = "CARD-1"
    # The rule a meld with more than max_jokers cites (R40-RUNS, S40-JOKER); by default the
    # shared rule of what a joker is.
    joker_limit_rule: str = "JOKER-1"
    # The order in which a set's undeclared jokers take the missing suits ("" for C S H D;
    # S40-JOKER: "HDCS", hearts, diamonds, clubs, spades).
    set_joker_suits: str = ""
    full_suit_run: bool = False  # S40-MELDS: the whole suit and a joker as the other ace

    @property
    def jokers_within_naturals(self) -> bool:
        """Tell whether a meld may hold no more jokers than natural cards."""
        return self.jokers_within_naturals_rule is not None

    @property
    def adjacent_jokers(self) -> bool:
        """Tell whether two jokers may stand side by side in a meld."""
        return self.apart_jokers_rule is None

    @property
    def fixed_groups(self) -> bool:
        """Tell whether a set's suits must follow C S H D without gaps."""
        return self.fixed_groups_rule is not None

    @property
    def longest_run(self) -> int:
        """Return the most cards a run may hold: 13, or 14 for the whole suit twice aced."""
        return MAX_RUN + 1 if self.full_suit_run and self.ace_low and self.ace_high else MAX_RUN

    def run_positions(self) -> tuple[int, ...]:
        """Return the ranks of a suit in run order (an ace-high ace is 14), wrapping aside."""
        low = (1,) if self.ace_low else ()
        high = (14,) if self.ace_high else ()
        return (*low, *range(2, 14), *high)


@dataclass(frozen=True, slots=True)
class Meld:
    """Hold a legal set or run; a run's cards are in rank order, a set's in suit order."""

    kind: str
    cards: tuple[Card, ...]
    # The card each position stands for: a natural card stands for itself, a joker for the
    # card it replaces (JOKER-1). Empty for melds without jokers, where it equals ``cards``.
    represents: tuple[Card, ...] = ()
    # Positions of the jokers whose card the engine picked because the meld left it open and
    # nobody declared it (JOKER-1: "picks one and says which"). Declared jokers and jokers
    # the meld determines (7♠ JK 9♠) are not listed.
    chosen: tuple[int, ...] = ()

    def __str__(self) -> str:
        return " ".join(_declared_text(card, stands) for card, stands in self.declared())

    @property
    def label(self) -> str:
        """Return the meld for people, e.g. 7♠ 8♠ 9♠ or 7♠ 8♠ JK=9♠."""
        return " ".join(
            card.label if stands is None else f"{card.label}={stands.label}"
            for card, stands in self.declared()
        )

    @property
    def stands_for(self) -> tuple[Card, ...]:
        """Return the card each position stands for, jokers replaced by their cards."""
        return self.represents or self.cards

    def declared(self) -> tuple[Declared, ...]:
        """Return the cards with every joker declared as the card it stands for."""
        return tuple(
            (card, stands if card.is_joker else None)
            for card, stands in zip(self.cards, self.stands_for, strict=True)
        )


def _declared_text(card: Card, stands: Card | None) -> str:
    return str(card) if stands is None else f"{card}={stands}"


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(card.label for card in cards)


class _Reading(NamedTuple):
    """Describe one way the cards form a meld: what each position stands for."""

    kind: str
    stands: tuple[Card, ...]  # in meld order
    jokers: tuple[int, ...]  # the positions a joker fills
    order: tuple[int, ...]  # among several readings the lowest is taken (see check_meld)

    def joker_cards(self) -> Counter[Card]:
        return Counter(self.stands[p] for p in self.jokers)


def check_meld(
    cards: Sequence[Card],
    rules: MeldRules,
    declarations: Sequence[Card | None] | None = None,
    *,
    prefer: Collection[Card] = (),
) -> Meld:
    """Return the meld the cards form under the rules, or refuse it citing the rule.

    ``declarations`` holds, position by position, the card a joker was declared to stand for
    (None for natural cards and undeclared jokers). Where the meld leaves a joker open, the
    engine takes, in this order: a reading where undeclared jokers stand for cards in
    ``prefer`` (KR-JOKER: a joker moved on the table keeps what it stood for); a set before a
    run; the most valuable place for the jokers (VALUE, as for openings, so 7♠ 8♠ JK is
    7♠ 8♠ 9♠ and Q♠ K♠ JK is Q♠ K♠ A♠); an ace at an end of the run, not inside; the jokers
    higher up the run (J♠ Q♠ JK is J♠ Q♠ K♠); a set's jokers in the first missing suits in
    the order C S H D (or MeldRules.set_joker_suits: S40-JOKER's H D C S). A whole suit,
    which every window holds, is laid from the ace: A..K.
    """
    cards = tuple(cards)
    if not cards:
        raise _refuse("MELD-SET", "empty", "A meld needs at least 3 cards; this one has none.")
    declared = _declarations(cards, declarations)
    jokers = sum(card.is_joker for card in cards)
    if jokers:
        _check_joker_count(cards, jokers, rules)
    readings = _readings(cards, rules)
    if jokers:
        readings = _honour(readings, cards, declared)
        readings = _spaced(readings, cards, rules)
    wanted = Counter(card for card in declared if card is not None)
    preferred = set(prefer)

    def preference(reading: _Reading) -> tuple[int, ...]:
        open_cards = reading.joker_cards() - wanted
        return (-sum(card in preferred for card in open_cards), *reading.order)

    best = min(readings, key=preference)
    if not jokers:
        return Meld(best.kind, best.stands)
    # A joker is the engine's choice when some legal reading gives it another card.
    forced = set.intersection(*(set(r.joker_cards() - wanted) for r in readings))
    left_open = best.joker_cards() - wanted
    chosen = tuple(
        p for p in best.jokers if best.stands[p] in left_open and best.stands[p] not in forced
    )
    return Meld(
        best.kind,
        tuple(JOKER if p in best.jokers else card for p, card in enumerate(best.stands)),
        represents=best.stands,
        chosen=chosen,
    )


def _declarations(
    cards: tuple[Card, ...], declarations: Sequence[Card | None] | None
) -> tuple[Card | None, ...]:
    """Return one declaration per card, refusing a declaration on a natural card (CARD-3)."""
    if declarations is None:
        return (None,) * len(cards)
    declared = tuple(declarations)
    if len(declared) != len(cards):
        raise ValueError("check_meld needs one declaration (or None) per card")
    for position, (card, stands) in enumerate(zip(cards, declared, strict=True), start=1):
        if stands is None:
            continue
        if not card.is_joker:
            raise _refuse(
                "CARD-3",
                "declaration_on_natural",
                f"{card}={stands} at position {position}: only a joker says what it stands for.",
                token=f"{card}={stands}",
                position=position,
            )
        if stands.is_joker:
            raise _bad_declaration(cards, position, stands)
    return declared


def _bad_declaration(cards: Sequence[Card], position: int, stands: Card) -> RuleViolation:
    return _refuse(
        "JOKER-1",
        "bad_declaration",
        f"The joker at position {position} cannot stand for {stands.label} in {_labels(cards)}.",
        cards=_names(cards),
        position=position,
        card=str(stands),
    )


def _check_joker_count(cards: tuple[Card, ...], jokers: int, rules: MeldRules) -> None:
    """Refuse jokers the rules do not allow in one meld, whatever meld the cards form."""
    naturals = len(cards) - jokers
    if rules.max_jokers == 0:
        raise _refuse(
            rules.no_jokers_rule,
            "no_jokers",
            "This game is played without jokers.",
            cards=_names(cards),
        )
    if naturals == 0:
        raise _refuse(
            "JOKER-1",
            "no_natural",
            f"{_labels(cards)} is not a meld: jokers need at least one natural card.",
            cards=_names(cards),
        )
    if rules.max_jokers is not None and jokers > rules.max_jokers:
        raise _refuse(
            rules.joker_limit_rule,
            "too_many_jokers",
            f"{_labels(cards)} has {jokers} jokers; a meld holds at most {rules.max_jokers}.",
            cards=_names(cards),
            count=jokers,
            limit=rules.max_jokers,
        )
    if rules.jokers_within_naturals_rule is not None and jokers > naturals:
        raise _refuse(
            rules.jokers_within_naturals_rule,
            "too_many_jokers",
            f"{_labels(cards)} has more jokers ({jokers}) than natural cards ({naturals}).",
            cards=_names(cards),
            jokers=jokers,
            naturals=naturals,
        )


def _readings(cards: tuple[Card, ...], rules: MeldRules) -> list[_Reading]:
    """Return every reading of the cards as a set or a run, or refuse them."""
    naturals = [card for card in cards if not card.is_joker]
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    if len(naturals) == 1 and len(cards) > 1:
        return _set_or_run(cards, naturals, rules)
    if len(ranks) <= 1:
        return _set_readings(cards, naturals, rules)
    if len(suits) == 1:
        return _run_readings(cards, naturals, rules)
    # Mixed ranks and suits: report against the kind the cards look most like.
    most_of_a_rank = max(Counter(card.rank for card in naturals).values())
    most_of_a_suit = max(Counter(card.suit for card in naturals).values())
    if most_of_a_rank >= most_of_a_suit:
        raise _refuse(
            "MELD-SET",
            "mixed_ranks",
            f"{_labels(cards)} is not a set: a set holds cards of one rank.",
            cards=_names(cards),
        )
    raise _refuse(
        "MELD-RUN",
        "mixed_suits",
        f"{_labels(cards)} is not a run: a run holds cards of one suit.",
        cards=_names(cards),
    )


def _set_or_run(cards: tuple[Card, ...], naturals: list[Card], rules: MeldRules) -> list[_Reading]:
    """Return the readings of one natural card with jokers, as a set and as a run."""
    readings: list[_Reading] = []
    refusals: list[RuleViolation] = []
    for kind in (_set_readings, _run_readings):
        try:
            readings += kind(cards, naturals, rules)
        except RuleViolation as exc:
            refusals.append(exc)
    if readings:
        return readings
    # Neither: a set's refusal says more, unless the cards are too many for any set.
    set_refusal, run_refusal = refusals
    raise run_refusal if len(cards) > rules.max_set else set_refusal


def _set_readings(
    cards: tuple[Card, ...], naturals: list[Card], rules: MeldRules
) -> list[_Reading]:
    if len(cards) < MIN_MELD:
        raise _refuse(
            "MELD-SET",
            "too_few",
            f"{_labels(cards) or 'No cards'}: a set needs at least {MIN_MELD} cards.",
            cards=_names(cards),
            count=len(cards),
            minimum=MIN_MELD,
        )
    repeated = sorted(suit for suit, n in Counter(card.suit for card in naturals).items() if n > 1)
    if repeated:
        raise _refuse(
            "MELD-SET",
            "repeated_suit",
            f"{_labels(cards)} is not a set: {SUIT_SYMBOLS[repeated[0]]} appears twice.",
            cards=_names(cards),
            suit=repeated[0],
        )
    # Four suits: even a variant allowing more could not fill a fifth place.
    limit = min(rules.max_set, len(SUITS))
    if len(cards) > limit:
        raise _refuse(
            "MELD-SET",
            "too_many",
            f"{_labels(cards)} is not a set: a set holds at most {limit} cards.",
            cards=_names(cards),
            count=len(cards),
            limit=limit,
        )
    if rules.fixed_groups_rule is not None:
        return [_fixed_group(cards, naturals, rules.fixed_groups_rule)]
    rank = naturals[0].rank
    held = {card.suit for card in naturals}
    missing = [suit for suit in SUITS if suit not in held]
    order = {suit: i for i, suit in enumerate(rules.set_joker_suits)} or _SUIT_INDEX
    readings = []
    for joker_suits in combinations(missing, len(cards) - len(naturals)):
        stands = tuple(
            sorted([*naturals, *(Card(rank, suit) for suit in joker_suits)], key=card_sort_key)
        )
        jokers = tuple(p for p, card in enumerate(stands) if card.suit in joker_suits)
        readings.append(_reading("set", stands, jokers, sorted(order[s] for s in joker_suits)))
    return readings


def _fixed_group(cards: tuple[Card, ...], naturals: list[Card], rule: str) -> _Reading:
    """Return the one reading of a set whose suits go C S H D in order, or refuse it citing
    the game's ``rule`` (RAM-OPT-FIXEDGROUPS)."""
    jokers = len(cards) - len(naturals)
    # Natural cards alone can always be laid in order; with a joker the written order is the
    # order on the table, which is what says the joker's suit.
    laid = cards if jokers else tuple(sorted(cards, key=card_sort_key))
    first = next(p for p, card in enumerate(laid) if not card.is_joker)
    offset = _SUIT_INDEX[laid[first].suit] - first
    rank = laid[first].rank
    stands = []
    for position, card in enumerate(laid):
        index = offset + position
        if card.is_joker and not 0 <= index < len(SUITS):
            raise _refuse(
                rule,
                "joker_place",
                f"{_labels(cards)} is not a set here: no suit is left for the joker at position"
                f" {position + 1} in the order {_SUIT_ORDER_LABEL}.",
                cards=_names(cards),
                position=position + 1,
            )
        if not card.is_joker and _SUIT_INDEX[card.suit] != index:
            raise _refuse(
                rule,
                "gap",
                f"{_labels(cards)} is not a set here: the suits must follow {_SUIT_ORDER_LABEL}"
                " in order, without gaps.",
                cards=_names(cards),
            )
        stands.append(Card(rank, SUITS[index]))
    joker_places = tuple(p for p, card in enumerate(laid) if card.is_joker)
    return _reading("set", tuple(stands), joker_places, [])


def _run_readings(
    cards: tuple[Card, ...], naturals: list[Card], rules: MeldRules
) -> list[_Reading]:
    if len(cards) < MIN_MELD:
        raise _refuse(
            "MELD-RUN",
            "too_few",
            f"{_labels(cards)}: a run needs at least {MIN_MELD} cards.",
            cards=_names(cards),
            count=len(cards),
            minimum=MIN_MELD,
        )
    repeated = sorted(rank for rank, n in Counter(card.rank for card in naturals).items() if n > 1)
    if repeated:
        card = next(card for card in naturals if card.rank == repeated[0])
        raise _refuse(
            "MELD-RUN",
            "repeated_rank",
            f"{_labels(cards)} is not a run: {card.label} appears twice.",
            cards=_names(cards),
            card=str(card),
        )
    if len(cards) > rules.longest_run:
        # Only jokers take a run past 13 cards: natural cards of one suit repeat a rank first.
        raise _refuse(
            "MELD-RUN",
            "too_many",
            f"{_labels(cards)} is not a run: a run holds at most {rules.longest_run} cards.",
            cards=_names(cards),
            count=len(cards),
            limit=rules.longest_run,
        )
    ranks = frozenset(card.rank for card in naturals)
    suit = naturals[0].suit
    windows = _windows(ranks, len(cards), rules)
    if not windows:
        raise _run_refusal(cards, ranks, suit, rules)
    readings = []
    for window in windows:
        stands = tuple(Card(_rank_at(p), suit) for p in window)
        for jokers in _run_jokers(stands, ranks):
            ace_inside = any(card.rank == 1 for card in stands[1:-1])
            readings.append(
                _reading(
                    "run", stands, jokers, [ace_inside, -sum(window[i] for i in jokers), window[0]]
                )
            )
    return readings


def _run_jokers(stands: tuple[Card, ...], ranks: frozenset[int]) -> list[tuple[int, ...]]:
    """Return the ways the jokers fill a run's positions: where no natural card's rank is;
    in a run of 14 (S40-MELDS) a natural ace takes one end, a joker the other."""
    missing = [i for i, card in enumerate(stands) if card.rank not in ranks]
    doubled = [i for i, card in enumerate(stands) if card.rank == 1 and 1 in ranks]
    if len(doubled) < 2:
        return [tuple(missing)]
    return [tuple(sorted((*missing, end))) for end in doubled]


def _reading(
    kind: str, stands: tuple[Card, ...], jokers: tuple[int, ...], tie: list[int]
) -> _Reading:
    """Return a reading, ordered set before run, then by its jokers' value, then by ``tie``."""
    value = sum(
        points for p, points in enumerate(_values(kind, stands, opening_card_value)) if p in jokers
    )
    return _Reading(kind, stands, jokers, (kind == "run", -value, *tie))


def _rank_at(position: int) -> int:
    """Return the rank at a run position: 1..13, then round again (14 is the ace)."""
    return (position - 1) % MAX_RUN + 1


def _windows(ranks: frozenset[int], length: int, rules: MeldRules) -> list[tuple[int, ...]]:
    """Return the positions of every run of ``length`` cards holding all the ranks."""
    if length > rules.longest_run:
        return []
    if rules.wrap:
        lines = [tuple(range(start, start + length)) for start in range(1, MAX_RUN + 1)]
    else:
        positions = rules.run_positions()
        lines = [positions[i : i + length] for i in range(len(positions) - length + 1)]
    return [line for line in lines if ranks <= {_rank_at(p) for p in line}]


def _run_refusal(
    cards: tuple[Card, ...], ranks: frozenset[int], suit: str, rules: MeldRules
) -> RuleViolation:
    """Return the refusal of one-suit cards that no run holds: an ace rule, else the gap."""
    length = len(cards)
    if _windows(ranks, length, MeldRules(ace_low=True)):
        return _refuse(
            "ACE-LOW",
            "not_allowed",
            f"{_labels(cards)} is not a run here: the ace may not come before the 2.",
            cards=_names(cards),
        )
    if _windows(ranks, length, MeldRules(ace_high=True)):
        return _refuse(
            "ACE-HIGH",
            "not_allowed",
            f"{_labels(cards)} is not a run here: the ace may not follow the king.",
            cards=_names(cards),
        )
    if _windows(ranks, length, MeldRules(wrap=True)):
        return _refuse(
            "ACE-WRAP",
            "not_allowed",
            f"{_labels(cards)} is not a run: a run may not go round the corner (K-A-2).",
            cards=_names(cards),
        )
    missing = [Card(rank, suit) for rank in _fewest_missing(ranks, rules)]
    return _refuse(
        "MELD-RUN",
        "gap",
        f"{_labels(cards)} is not a run: {_labels(missing)} missing.",
        cards=_names(cards),
        missing=_names(missing),
    )


def _fewest_missing(ranks: frozenset[int], rules: MeldRules) -> list[int]:
    """Return the ranks missing from the shortest run that would hold all the ranks."""
    # Ace-low runs hold any ranks, so the second try always finds one.
    for candidate in (rules, MeldRules()):
        for length in range(len(ranks), MAX_RUN + 1):
            windows = _windows(ranks, length, candidate)
            if windows:
                return [_rank_at(p) for p in windows[0] if _rank_at(p) not in ranks]
    raise AssertionError("an ace-low run of 13 cards holds every rank")


def _honour(
    readings: list[_Reading], cards: tuple[Card, ...], declared: tuple[Card | None, ...]
) -> list[_Reading]:
    """Keep the readings where every declared joker stands for its card (JOKER-1)."""
    wanted = [(p, card) for p, card in enumerate(declared, start=1) if card is not None]

    def fits(reading: _Reading, count: int) -> bool:
        return not Counter(card for _, card in wanted[:count]) - reading.joker_cards()

    kept = [reading for reading in readings if fits(reading, len(wanted))]
    if kept:
        return kept
    # Blame the first declaration that, with those before it, no reading can keep.
    count = next(n for n in range(1, len(wanted) + 1) if not any(fits(r, n) for r in readings))
    position, card = wanted[count - 1]
    raise _bad_declaration(cards, position, card)


def _spaced(readings: list[_Reading], cards: tuple[Card, ...], rules: MeldRules) -> list[_Reading]:
    """Keep the readings with no two jokers side by side, where the rules ask (FIXEDJOKER)."""
    if rules.apart_jokers_rule is None:
        return readings
    kept = [reading for reading in readings if not _jokers_touch(reading, rules)]
    if not kept:
        raise _refuse(
            rules.apart_jokers_rule,
            "adjacent_jokers",
            f"{_labels(cards)}: two jokers may not stand side by side in a meld.",
            cards=_names(cards),
        )
    return kept


def _jokers_touch(reading: _Reading, rules: MeldRules) -> bool:
    if reading.kind == "set" and not rules.fixed_groups:
        return len(reading.jokers) > 1
    return any(b - a == 1 for a, b in pairwise(reading.jokers))


# VALUE ---------------------------------------------------------------------------------


def opening_card_value(card: Card, high: bool) -> int:
    """Return a card's opening value (VALUE): ace 1, or 11 when high; 2-10 face; J Q K 10."""
    if card.rank == 1:
        return 11 if high else 1
    return min(card.rank, 10)


def _values(kind: str, stands: Sequence[Card], value: Callable[[Card, bool], int]) -> list[int]:
    # An ace is high in a set and after a king in a run (Q-K-A, and K-A-2 round the corner,
    # where it follows the king too); an ace starting a run (A-2-3) is low.
    return [
        value(card, kind == "set" or (p > 0 and stands[p - 1].rank == 13))
        for p, card in enumerate(stands)
    ]


def meld_value(meld: Meld, value: Callable[[Card, bool], int]) -> int:
    """Return the sum of ``value(card, high)`` over the cards the meld stands for.

    ``high`` tells whether an ace there counts high: in a set, or after a king in a run.
    A joker counts as the card it stands for.
    """
    return sum(_values(meld.kind, meld.stands_for, value))


def opening_value(meld: Meld) -> int:
    """Return the meld's value for an opening (VALUE): ace 1 low, 11 high or in a set."""
    return meld_value(meld, opening_card_value)
