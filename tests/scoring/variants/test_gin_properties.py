"""Properties of Gin Rummy scoring (docs/rules.md), both presets: over drawn hands the points
add up to the items and at most one seat scores.
"""

import json
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK
from scoring.errors import RuleViolation
from scoring.melds import check_meld
from scoring.solver import best_arrangement
from scoring.variants.gin import ENDINGS, GIN_MELDS, MAX_COUNT, GinOptions, score_cards
from scoring.variants.gin.cards import gin_value
from tests.scoring.variants.gin_hands import quick


def assert_points_add_up(result) -> None:
    assert all(points >= 0 for points in result.points)
    assert sum(1 for points in result.points if points > 0) <= 1
    for seat in (0, 1):
        assert result.points[seat] == sum(i.points for i in result.items if i.seat == seat)
    expected_winner = next((s for s in (0, 1) if result.points[s] > 0), None)
    assert result.winner == expected_winner
    json.dumps(result.to_dict())


def score_unless_over_knock_limit(options, knocker_cards, defender_cards):
    """Score the cards, or return None when the knocker may not knock (GIN-KNOCK)."""
    try:
        return score_cards(
            options, knocker=0, knocker_cards=knocker_cards, defender_cards=defender_cards
        )
    except RuleViolation as exc:
        if exc.rule != "GIN-KNOCK":
            raise
        return None


options_strategy = st.builds(
    lambda preset, bonus, tie: GinOptions.from_dict(
        {"preset": preset, "undercut_bonus": bonus, "undercut_on_tie": tie}
    ),
    st.sampled_from(["big_gin", "classic"]),
    st.integers(0, 50),
    st.booleans(),
)


class TestScoringProperties:
    @settings(max_examples=300, deadline=None)
    @given(
        options_strategy,
        st.integers(0, 1),
        st.sampled_from(ENDINGS),
        st.integers(0, 10),
        st.integers(0, MAX_COUNT),
    )
    def test_quick_points_are_never_negative_one_seat_at_most_and_itemised(
        self, options, knocker, ending, k, d
    ):
        """GIN-SCORE-*: a hand's points add up to its items, and only one seat scores."""
        if ending != "knock":
            k = 0
        assume(ending != "big_gin" or options.preset == "big_gin")
        assert_points_add_up(quick(options, knocker=knocker, ending=ending, k=k, d=d))

    @settings(max_examples=200, deadline=None)
    @given(options_strategy, st.permutations([c for c in FULL_DECK if c.rank <= 6]))
    def test_hands_scored_from_cards_show_every_card_once_and_add_up(self, options, deck):
        """GIN-DEADWOOD, GIN-LAYOFF: every card shown once, counts from the cards shown."""
        knocker_cards, defender_cards = deck[:10], deck[10:20]
        result = score_unless_over_knock_limit(options, knocker_cards, defender_cards)
        assume(result is not None)
        assert_points_add_up(result)
        own = best_arrangement(knocker_cards, rules=GIN_MELDS, value=gin_value)
        assert result.knocker_count == own.count
        knocker_shown = [c for m in result.knocker_melds for c in m.cards]
        assert Counter(knocker_shown + list(result.knocker_deadwood)) == Counter(knocker_cards)
        defender_shown = [c for m in result.defender_melds for c in m.cards]
        defender_shown += [c for c, _ in result.defender_layoffs]
        assert Counter(defender_shown + list(result.defender_deadwood)) == Counter(defender_cards)
        assert result.defender_count == sum(gin_value(c) for c in result.defender_deadwood)
        defender_alone = best_arrangement(defender_cards, rules=GIN_MELDS, value=gin_value)
        assert result.defender_count <= defender_alone.count
        grown = [list(m.cards) for m in result.knocker_melds]
        for card, index in result.defender_layoffs:
            grown[index].append(card)
            check_meld(grown[index], GIN_MELDS)
