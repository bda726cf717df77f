"""The bounded layoff search (scoring/solver/bounded.py) finds the very packing of the full
search: the same gain, the same pieces in the same order, ties broken alike. Checked on long
runs with jokers laid off onto runs and sets of the table, with cards that no packing can
meld all together (two copies of a card only one meld can take), where the full search
visits every state and the bound does the most."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.cards import JOKER, RANKS, SUITS, Card
from scoring.errors import RuleViolation
from scoring.melds import MeldRules, check_meld
from scoring.solver import search
from scoring.solver.bits import GAIN_SCALE
from scoring.solver.bounded import bounded_path
from scoring.solver.layoffs import all_tokens, layoff_candidates, table_shapes
from scoring.solver.tables import build_tables, count_one, default_opening_value, tables_for
from tests.scoring.solver_oracle import ALL_RULES, TWO_DECKS, ramino_value


def _card(rank: int, suit: str) -> Card:
    return Card((rank - 1) % len(RANKS) + 1, suit)


@st.composite
def layoff_hands(draw) -> tuple[list[Card], list[list[Card]]]:
    """Draw a run of spades with gaps, 1 to 3 jokers, a spare card or two (a copy of another
    suit's card: often one no packing melds), and 1 to 4 table melds near the run: runs of
    spades next to it (maybe twice), sets of its ranks."""
    start = draw(st.integers(1, len(RANKS)))
    length = draw(st.integers(4, 9))
    run = [_card(start + i, "S") for i in range(length) if draw(st.booleans()) or i == 0]
    spare_rank = draw(st.integers(1, len(RANKS)))
    spare_suit = draw(st.sampled_from("HDC"))
    spares = [_card(spare_rank, spare_suit)] * draw(st.integers(0, 2))
    hand = run + spares + [JOKER] * draw(st.integers(1, 3))
    melds = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            # Touching the run below or above, one apart, or over it (two decks).
            first = start + draw(st.sampled_from([-3, -4, length, length + 1, 1]))
            melds.append([_card(first + i, "S") for i in range(3)])
        else:
            rank = start + draw(st.integers(0, length - 1))
            melds.append([_card(rank, suit) for suit in SUITS if suit != "S"])
    return hand, melds


def _both_ways(hand: list[Card], melds: list[list[Card]], rules: MeldRules) -> tuple:
    """Return the packing of the full search and of the bounded one (None, None: a table
    meld the rules refuse, or more copies of a card than two decks hold)."""
    try:
        onto = [check_meld(meld, rules) for meld in melds]
        shapes = table_shapes(hand, onto, rules, TWO_DECKS)
    except RuleViolation:
        return None, None
    tables = tables_for(rules, ramino_value)
    found = search.read_hand(hand, tables, ramino_value, TWO_DECKS)
    candidates = found.candidates + layoff_candidates(
        found.mask, found.jokers, shapes, tables, found.joker_value
    )
    groups = search.group_candidates(candidates, found.jokers)
    start = search.within_candidates(found, candidates, all_tokens(len(shapes)))
    memo = search.new_memo(found.jokers, True)
    full = search.best_path(start, groups, memo, True, True)[1]
    return full, bounded_path(start, candidates, found.jokers)


@settings(max_examples=200, deadline=None)
@given(layoff_hands(), st.sampled_from(ALL_RULES))
def test_the_bounded_layoff_search_takes_the_full_search_s_packing(drawn, rules):
    """GIN-LAYOFF, RAM-ADD, R40-ADD: the bound skips states, never changes the packing."""
    hand, melds = drawn
    full, bounded = _both_ways(hand, melds, rules)
    assume(full is not None)
    assert bounded == full


def test_the_bound_keeps_the_packing_where_no_card_set_melds_whole():
    """Two jacks of hearts only one set can take: no packing melds every card, so the full
    search visits every state; the bounded one finds the same packing."""
    hand = [_card(rank, "S") for rank in (1, 2, 3, 4, 5, 6, 10, 11, 12, 13)]
    hand += [Card(11, "H"), Card(11, "H"), JOKER, JOKER, JOKER]
    melds = [
        [_card(rank, "S") for rank in ranks]
        for ranks in ((4, 5, 6), (7, 8, 9), (7, 8, 9), (13, 1, 2))
    ] + [[Card(2, suit) for suit in "CDH"]]
    compared = 0
    for rules in ALL_RULES:
        full, bounded = _both_ways(hand, melds, rules)
        assert bounded == full
        compared += full is not None
    assert compared


@st.composite
def opening_hands(draw) -> list[Card]:
    """Draw a long run of spades with gaps, round the corner or not, 1 to 4 jokers and a
    spare card or two: the hands whose openings list the most runs with jokers."""
    start = draw(st.integers(1, len(RANKS)))
    length = draw(st.integers(5, 12))
    run = [_card(start + i, "S") for i in range(length) if draw(st.booleans()) or i == 0]
    spares = [_card(draw(st.integers(1, len(RANKS))), draw(st.sampled_from("HDCS")))]
    return run + spares * draw(st.integers(0, 2)) + [JOKER] * draw(st.integers(1, 4))


def _opening_searches(hand: list[Card], rules: MeldRules, bounded: bool) -> list | None:
    """Return, for the whole hand and the hand without each card, the best opening (the loose
    search of VALUE gains) and the best way out before opening (the strict one), searched
    with or without the ceilings' bound; None where two decks hold too few copies."""
    tables = build_tables(rules, count_one, default_opening_value)
    try:
        found = search.read_hand(hand, tables, count_one, TWO_DECKS)
    except RuleViolation:
        return None
    ceilings = tables.ceilings if bounded else None
    groups = search.group_candidates(found.candidates, found.jokers, ceilings)
    loose = search.new_memo(found.jokers, True)
    strict = search.new_memo(found.jokers, False)
    state = search.whole_state(found)
    answers = []
    for left in [state, *(search.without_cards(state, [card]) for card in set(hand))]:
        bound = search.state_ceiling(left, ceilings) if bounded else None
        search.best_gain(left, groups, loose, True, bound=bound)
        search.best_gain(left, groups, strict, False, bound=bound)
        opening = search.best_path(left, groups, loose, True)
        out = search.best_path(left, groups, strict, False)
        answers.append((opening, loose[left][3], out))
    return answers


@settings(max_examples=150, deadline=None)
@given(opening_hands(), st.sampled_from(ALL_RULES))
def test_the_opening_search_bounded_by_ceilings_takes_the_same_packings(hand, rules):
    """RAM-OPEN, R40-OPEN, RAM-OUT: the ceilings' bound skips choices, never changes the best
    opening, whether it melds every card, or the way out (ties broken alike)."""
    full = _opening_searches(hand, rules, bounded=False)
    assume(full is not None)
    assert _opening_searches(hand, rules, bounded=True) == full


def test_a_state_s_ceiling_is_the_most_its_cards_can_be_worth():
    """VALUE: an ace at most 11, a face card 10, a joker 11 (standing for an ace), each card
    one more for being melded; two copies count twice."""
    tables = build_tables(ALL_RULES[0], count_one, default_opening_value)
    hand = [Card(1, "S"), Card(1, "S"), Card(12, "H"), Card(7, "D"), JOKER]
    found = search.read_hand(hand, tables, count_one, TWO_DECKS)
    worth = 11 + 11 + 10 + 7 + 11
    assert search.state_ceiling(found.state, tables.ceilings) == worth * GAIN_SCALE + len(hand)
