"""Long runs with jokers: the hands that cost the referee most (a run of n naturals and j
jokers packs in ~n^j ways). The solver must stay exact on them (against the brute force of
solver_oracle, on runs short enough for it) and bounded (the states its search memoises,
counted against a budget far below STATE_BUDGET, on the longest runs a hand can hold)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import referee
from scoring.cards import JOKER, RANKS, Card, parse_cards
from scoring.errors import RuleViolation
from scoring.solver import Closing, best_arrangement, best_opening, can_go_out, search
from scoring.solver.tables import build_tables, count_one, default_opening_value, tables_for
from tests.hypothesis_profiles import examples
from tests.scoring.solver_oracle import (
    ALL_RULES,
    TWO_DECKS,
    brute_deadwood,
    brute_go_out,
    brute_opening,
    ramino_value,
)

OUT = Closing("required", "RAM-OUT", opening_minimum=30, opening_rule="RAM-OPEN")
# The most states one referee question about a 15-card Ramino hand may memoise in one search
# (the longest runs with every number of jokers need under 4,000 today; STATE_BUDGET, the
# refusal for hands past any game's limit, is 50,000).
STATES = 8_000


@st.composite
def long_run_hands(draw) -> list[Card]:
    """Draw a run of 4 to 7 cards of one suit, a copy of one of its cards or one of its ranks
    in another suit (two decks), and 1 to 3 jokers: at most 9 cards, for the brute force."""
    length = draw(st.integers(4, 7))
    start = draw(st.integers(1, len(RANKS) - length + 1))
    suit, other = draw(st.sampled_from([("S", "H"), ("C", "D"), ("H", "S")]))
    run = [Card(start + i, suit) for i in range(length)]
    extra = draw(st.lists(st.sampled_from(run + [Card(c.rank, other) for c in run]), max_size=1))
    jokers = draw(st.integers(1, min(3, 9 - length - len(extra))))
    return run + extra + [JOKER] * jokers


@settings(max_examples=examples(40), deadline=None)
@given(long_run_hands(), st.sampled_from(ALL_RULES))
def test_long_runs_with_jokers_reach_the_brute_force_minimum(hand, rules):
    """GIN-DEADWOOD, RAM-SCORE: the least deadwood, every joker placed as the rules allow."""
    result = best_arrangement(hand, rules=rules, value=ramino_value, deck=TWO_DECKS)
    assert result.count == brute_deadwood(hand, rules, ramino_value)


@settings(max_examples=examples(30), deadline=None)
@given(long_run_hands(), st.sampled_from(ALL_RULES), st.integers(0, 1))
def test_long_runs_with_jokers_open_for_the_brute_force_maximum(hand, rules, keep):
    """RAM-OPEN: a joker in a long run is placed where it is worth most (ace high after K)."""
    result = best_opening(hand, rules=rules, keep=keep, deck=TWO_DECKS)
    assert result.value == brute_opening(hand, rules, keep)


@settings(max_examples=examples(30), deadline=None)
@given(long_run_hands(), st.sampled_from(ALL_RULES), st.booleans())
def test_long_runs_with_jokers_go_out_as_the_brute_force_says(hand, rules, opened):
    """RAM-OUT, RAM-OPEN: going out, with the 30-point opening when not opened."""
    result = can_go_out(hand, rules=rules, closing=OUT, opened=opened, deck=TWO_DECKS)
    assert result.possible == brute_go_out(hand, rules, OUT, opened)


def test_a_question_asked_again_after_another_hand_gets_the_same_answer():
    """The solver keeps the last hand it read; another hand in between changes nothing."""
    first = {"variant": "ramino", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S JK JK 5H 5D KC QC"}
    other = {"variant": "ramino", "cards": "7H 8H 9H JK 2C 2D 2S KD KH"}
    answer = referee.answer("hand", first)
    assert referee.answer("hand", other) != answer
    assert referee.answer("hand", first) == answer


def _long_run_hands(most_jokers: int) -> list[str]:
    """Return 15-card hands: a run of 9, 11 or 13 spades from the ace or up to the king, 2 to
    most_jokers jokers, the rest copies of the run's cards (the quoted hand is among them)."""
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    hands = []
    for length in (9, 11, 13):
        for start in (1, len(RANKS) - length + 1):
            run = [f"{names.get(start + i, start + i)}S" for i in range(length)]
            for jokers in range(2, min(most_jokers, 15 - length) + 1):
                hands.append(" ".join(run + run[: 15 - length - jokers] + ["JK"] * jokers))
    return hands


@pytest.mark.parametrize(
    "options", [{}, {"circular_runs": True}, {"fixed_jokers": True}, {"fixed_groups": True}]
)
def test_the_longest_runs_with_jokers_stay_within_a_few_thousand_states(monkeypatch, options):
    """LIMITS: the referee's hardest hands are answered within STATES memoised states per
    search (a search past its budget refuses the hand as too_complex)."""
    monkeypatch.setattr(search, "STATE_BUDGET", STATES)
    hands = _long_run_hands(most_jokers=4)
    assert "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS JK JK JK JK" in hands
    for cards in hands:
        for opened in (False, True):
            request = {"variant": "ramino", "options": options, "cards": cards, "opened": opened}
            try:
                referee.answer("hand", request)
            except RuleViolation as exc:
                pytest.fail(f"{cards} ({options}): {[v.code for v in exc.violations]}")


def test_the_state_budget_does_refuse_a_search_past_it(monkeypatch):
    """The budget the test above counts against is enforced: a tiny one refuses the hand."""
    monkeypatch.setattr(search, "STATE_BUDGET", 10)
    with pytest.raises(RuleViolation) as refused:
        referee.answer("hand", {"variant": "ramino", "cards": _long_run_hands(4)[0]})
    assert refused.value.violations[0].code == "too_complex"


def _searched_both_ways(hand: list[Card], rules, strict: bool) -> tuple:
    """Return the best path of the hand's deadwood search, stopping at the first whole packing
    (additive gains) and searching every packing: (stopped, full)."""
    tables = tables_for(rules, ramino_value)
    found = search.read_hand(hand, tables, ramino_value, TWO_DECKS)
    groups = search.group_candidates(found.candidates, found.jokers)
    state = search.whole_state(found)
    paths = []
    for additive in (True, False):
        memo = search.new_memo(found.jokers, not strict)
        paths.append(search.best_path(state, groups, memo, not strict, additive))
    return tuple(paths)


@settings(max_examples=examples(60), deadline=None)
@given(long_run_hands(), st.sampled_from(ALL_RULES), st.booleans())
def test_a_whole_packing_ends_the_search_with_the_same_choice(hand, rules, strict):
    """With card values as gains the search takes the first packing that melds every card
    (search.best_gain): the gain and the packing are those of the search that tries them all."""
    stopped, full = _searched_both_ways(hand, rules, strict)
    assert stopped == full


@pytest.mark.parametrize("rules", ALL_RULES)
def test_a_whole_packing_ends_the_search_the_same_on_the_longest_runs(rules):
    """The same on hands past the brute force: 15 cards, a long run and 2 to 4 jokers."""
    for cards in _long_run_hands(most_jokers=4)[::7]:
        hand = list(parse_cards(cards))
        for strict in (False, True):
            stopped, full = _searched_both_ways(hand, rules, strict)
            assert stopped == full, cards


def _whole_loose_openings(hand: list[Card], rules) -> int:
    """Check the strict search against every whole loose one of the hand, whole or without one
    card (as going out tries each discard); return how many were whole."""
    tables = build_tables(rules, count_one, default_opening_value)
    found = search.read_hand(hand, tables, count_one, TWO_DECKS)
    groups = search.group_candidates(found.candidates, found.jokers)
    state = search.whole_state(found)
    wholes = 0
    for left in [state, *(search.without_cards(state, [card]) for card in set(hand))]:
        loose = search.new_memo(found.jokers, True)
        path = search.best_path(left, groups, loose, True)
        if loose[left][3]:
            wholes += 1
            strict = search.new_memo(found.jokers, False)
            assert path == search.best_path(left, groups, strict, False), (hand, left)
    return wholes


@settings(max_examples=examples(60), deadline=None)
@given(long_run_hands(), st.sampled_from(ALL_RULES))
def test_a_whole_loose_opening_goes_out_as_the_strict_search_does(hand, rules):
    """Going out before opening asks the loose search first (search.opening_memo): where its
    best packing melds every card, the strict search takes that same packing."""
    _whole_loose_openings(hand, rules)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_a_whole_loose_opening_goes_out_the_same_on_the_longest_runs(rules):
    """The same on 15-card hands, where most choices of a discard leave a whole packing."""
    wholes = 0
    for cards in _long_run_hands(most_jokers=4)[::5]:
        wholes += _whole_loose_openings(list(parse_cards(cards)), rules)
    assert wholes > 0
