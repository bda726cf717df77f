"""The brute-force oracle for the solver's joker tests (test_solver_jokers*.py).

It shares nothing with scoring.solver or scoring.melds' joker readings: a meld is legal when
some *reading* of it is, a reading being what every card stands for, listed by trying every
window of ranks (runs) or every choice of missing suits (sets) and checking the joker options
of MeldRules one by one. Brute force then tries every subset of a small hand as a meld and
every packing of those melds.
"""

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations, pairwise

from hypothesis import strategies as st

from scoring.cards import JOKER, Card, DeckSpec, parse_cards
from scoring.melds import Meld, MeldRules
from scoring.solver import Closing, best_arrangement, can_go_out

SUIT_ORDER = "CSHD"
TWO_DECKS = DeckSpec(decks=2, jokers=6)

RAMINO = MeldRules(
    ace_low=True, ace_high=True, max_jokers=None, jokers_within_naturals_rule="RAM-JOKER"
)
RUMMY40 = MeldRules(ace_low=True, ace_high=True, max_jokers=1, joker_limit_rule="R40-RUNS")
KNOCK = MeldRules(ace_low=True, ace_high=True, max_jokers=None)
CIRCULAR = MeldRules(wrap=True, max_jokers=None, jokers_within_naturals_rule="RAM-JOKER")
FIXED_JOKERS = MeldRules(
    ace_low=True,
    ace_high=True,
    max_jokers=None,
    jokers_within_naturals_rule="RAM-JOKER",
    apart_jokers_rule="RAM-OPT-FIXEDJOKER",
)
FIXED_GROUPS = MeldRules(
    ace_low=True,
    ace_high=True,
    max_jokers=None,
    jokers_within_naturals_rule="RAM-JOKER",
    fixed_groups_rule="RAM-OPT-FIXEDGROUPS",
)
SMALL_SETS = MeldRules(ace_low=False, ace_high=True, max_set=3, max_jokers=2)
ALL_RULES = [RAMINO, RUMMY40, KNOCK, CIRCULAR, FIXED_JOKERS, FIXED_GROUPS, SMALL_SETS]


def ramino_value(card: Card) -> int:
    # RAM-VALUE, written out again: 2-9 face, 10 J Q K 10, ace 11, joker 20.
    if card.is_joker:
        return 20
    return 11 if card.rank == 1 else min(card.rank, 10)


def knock_value(card: Card) -> int:
    # KR-VALUE / R40-VALUE: ace 1, 2-10 face, J Q K 10, joker 25.
    return 25 if card.is_joker else min(card.rank, 10)


# A reading: (card stood for, is it a joker?) for every position, in meld order.
Reading = tuple[tuple[Card, bool], ...]


def windows(length: int, rules: MeldRules) -> Iterator[tuple[int, ...]]:
    """Yield the ranks of every run of the length the rules allow, in run order."""
    if rules.wrap:
        for start in range(1, 14):
            yield tuple((start - 1 + i) % 13 + 1 for i in range(length))
        return
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13
    for start in range(lowest, highest - length + 2):
        yield tuple(1 if p == 14 else p for p in range(start, start + length))


def readings(
    naturals: Sequence[Card], jokers: int, rules: MeldRules, fixed: Sequence[tuple[Card, bool]] = ()
) -> Iterator[Reading]:
    """Yield every legal reading of natural cards and jokers added to fixed positions."""
    known = [card for card, _ in fixed] + list(naturals)
    total = len(known) + jokers
    joker_count = jokers + sum(joker for _, joker in fixed)
    natural_count = total - joker_count
    if natural_count == 0 or total < 3:
        return
    if rules.max_jokers is not None and joker_count > rules.max_jokers:
        return
    if rules.jokers_within_naturals and joker_count > natural_count:
        return
    fixed_jokers = {card for card, joker in fixed if joker}
    ranks = {card.rank for card in known}
    suits = {card.suit for card in known}
    if len(ranks) == 1 and len(suits) == len(known) and total <= min(rules.max_set, 4):
        (rank,) = ranks
        missing = [suit for suit in SUIT_ORDER if suit not in suits]
        for extra in combinations(missing, jokers):
            held = suits | set(extra)
            places = sorted(SUIT_ORDER.index(suit) for suit in held)
            # RAM-OPT-FIXEDGROUPS: a stretch of C S H D without gaps, not only from clubs.
            if rules.fixed_groups and places != list(range(places[0], places[0] + total)):
                continue
            joker_places = sorted(
                SUIT_ORDER.index(suit)
                for suit in held
                if suit in extra or Card(rank, suit) in fixed_jokers
            )
            # RAM-OPT-FIXEDJOKER: two jokers in a set touch, unless fixed groups part them.
            if not rules.adjacent_jokers and (
                any(b - a == 1 for a, b in pairwise(joker_places))
                if rules.fixed_groups
                else joker_count > 1
            ):
                continue
            yield tuple(
                (Card(rank, suit), suit in extra or Card(rank, suit) in fixed_jokers)
                for suit in SUIT_ORDER
                if suit in held
            )
    if len(suits) == 1 and len(ranks) == len(known):
        (suit,) = suits
        for window in windows(total, rules):
            if not ranks <= set(window):
                continue
            reading = tuple(
                (Card(r, suit), r not in ranks or Card(r, suit) in fixed_jokers) for r in window
            )
            flags = [joker for _, joker in reading]
            if not rules.adjacent_jokers and any(a and b for a, b in pairwise(flags)):
                continue
            yield reading


def split(cards: Iterable[Card]) -> tuple[list[Card], int]:
    cards = list(cards)
    return [c for c in cards if not c.is_joker], sum(c.is_joker for c in cards)


def reading_value(reading: Reading, kind_is_set: bool) -> int:
    """Return VALUE: ace 11 in a set or after a king, else 1; 2-10 face; J Q K 10."""
    total = 0
    for i, (card, _) in enumerate(reading):
        if card.rank == 1:
            total += 11 if kind_is_set or (i > 0 and reading[i - 1][0].rank == 13) else 1
        else:
            total += min(card.rank, 10)
    return total


def is_set_reading(reading: Reading) -> bool:
    return len({card.rank for card, _ in reading}) == 1


@cache
def meld_info(key: tuple[str, ...], rules: MeldRules) -> int | None:
    """Return the best opening value of a multiset of cards, None when it is no meld."""
    naturals, jokers = split(parse_cards(" ".join(key)))
    values = [reading_value(r, is_set_reading(r)) for r in readings(naturals, jokers, rules)]
    return max(values, default=None)


def key_of(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in cards))


def legal_melds(hand: Sequence[Card], rules: MeldRules) -> list[frozenset[int]]:
    """Return every subset of hand positions that is a meld (distinct multisets once each)."""
    seen: dict[tuple[str, ...], frozenset[int]] = {}
    for size in range(3, len(hand) + 1):
        for subset in combinations(range(len(hand)), size):
            key = key_of(hand[i] for i in subset)
            if key not in seen and meld_info(key, rules) is not None:
                seen[key] = frozenset(subset)
    # Another subset with the same cards is the same meld with other copies: list those too,
    # as a packing may need both copies of a card in two melds.
    found = []
    for size in range(3, len(hand) + 1):
        for subset in combinations(range(len(hand)), size):
            if key_of(hand[i] for i in subset) in seen:
                found.append(frozenset(subset))
    return found


def packings(melds: list[frozenset[int]]) -> Iterator[list[frozenset[int]]]:
    """Yield every set of pairwise disjoint melds."""

    def walk(start: int, used: frozenset[int], chosen: list[frozenset[int]]):
        yield chosen
        for i in range(start, len(melds)):
            if not melds[i] & used:
                yield from walk(i + 1, used | melds[i], [*chosen, melds[i]])

    return walk(0, frozenset(), [])


def brute_deadwood(hand: Sequence[Card], rules: MeldRules, value) -> int:
    total = sum(value(card) for card in hand)
    return min(
        total - sum(value(hand[i]) for meld in packing for i in meld)
        for packing in packings(legal_melds(hand, rules))
    )


def brute_opening(hand: Sequence[Card], rules: MeldRules, keep: int) -> int:
    best = 0
    for packing in packings(legal_melds(hand, rules)):
        used = sum(len(meld) for meld in packing)
        if len(hand) - used >= keep:
            value = sum(meld_info(key_of(hand[i] for i in meld), rules) for meld in packing)
            best = max(best, value)
    return best


def brute_go_out(hand: Sequence[Card], rules: MeldRules, closing: Closing, opened: bool) -> bool:
    """Return whether the hand goes out with own melds (and an opening, if not opened)."""
    options: list[int | None] = [] if closing.discard == "required" else [None]
    if closing.discard != "none":
        options += [
            i
            for i, card in enumerate(hand)
            if closing.joker_discard_rule is None or not card.is_joker
        ]
    everything = set(range(len(hand)))
    for packing in packings(legal_melds(hand, rules)):
        used = frozenset().union(*packing)
        for option in options:
            if option in used or used | ({option} - {None}) != everything:
                continue
            value = sum(meld_info(key_of(hand[i] for i in m), rules) for m in packing)
            if opened or (value >= closing.opening_minimum and len(used) >= 3):
                return True
    return False


def reading_of(meld: Meld) -> Reading:
    stood = meld.represents or meld.cards
    return tuple((card, shown.is_joker) for card, shown in zip(stood, meld.cards, strict=True))


def assert_legal(meld: Meld, rules: MeldRules) -> None:
    """The meld's exact reading (what each joker stands for) is one of the legal ones."""
    naturals, jokers = split(meld.cards)
    if jokers:
        assert len(meld.represents) == len(meld.cards)
        for card, stood in zip(meld.cards, meld.represents, strict=True):
            assert card.is_joker or card == stood
    else:
        assert meld.represents in ((), meld.cards)
    assert reading_of(meld) in set(readings(naturals, jokers, rules)), meld


def assert_arrangement(arrangement, hand: Sequence[Card], rules: MeldRules, value) -> None:
    for meld in arrangement.melds:
        assert_legal(meld, rules)
    shown = [c for m in arrangement.melds for c in m.cards] + list(arrangement.deadwood)
    assert Counter(shown) == Counter(hand)
    assert arrangement.count == sum(value(card) for card in arrangement.deadwood)


POOLS = [
    ((1, 2, 3, 4, 5), "CS"),
    ((9, 10, 11, 12, 13), "SH"),
    ((11, 12, 13, 1, 2), "CSH"),
    ((4, 5, 6, 7), "CSHD"),
    ((1, 2, 3, 12, 13), "H"),
    ((6, 7, 8, 9, 10, 11), "D"),
]


@st.composite
def small_hands(draw, most: int = 8, jokers: int = 3) -> list[Card]:
    """Draw up to `most` cards from a few ranks and suits, two decks, with up to 3 jokers."""
    ranks, suits = draw(st.sampled_from(POOLS))
    pool = [(rank, suit, copy) for rank in ranks for suit in suits for copy in (0, 1)]
    count = draw(st.integers(0, jokers))
    picked = draw(st.lists(st.sampled_from(pool), max_size=most - count, unique=True))
    return [Card(rank, suit) for rank, suit, _ in picked] + [JOKER] * count


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def names(melds: Iterable[Meld]) -> list[str]:
    return [" ".join(str(card) for card in meld.cards) for meld in melds]


def arrange(text: str, rules: MeldRules, value=ramino_value):
    return best_arrangement(cards(text), rules=rules, value=value, deck=TWO_DECKS)


def go_out(text: str, rules: MeldRules, closing: Closing, opened: bool = True, **options):
    return can_go_out(
        cards(text), rules=rules, closing=closing, opened=opened, deck=TWO_DECKS, **options
    )


def meld_value(meld: Meld) -> int:
    reading = reading_of(meld)
    return reading_value(reading, is_set_reading(reading))


RAMINO_OUT = Closing("required", "RAM-OUT", opening_minimum=30, opening_rule="RAM-OPEN")
R40_OUT = Closing("required", "R40-HAND", 40, "R40-OPEN", joker_discard_rule="R40-JOKER-DISCARD")
