"""The engine's work is bounded: a hand holds no more cards than the game allows, and the
solver refuses a search that would run long instead of running it."""

import pytest

from scoring import referee
from scoring.cards import DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.melds import MeldRules
from scoring.solver import STATE_BUDGET, best_opening
from scoring.variants import game_get

# The 34 cards in 101 characters that held a worker for 32 s.
HEAVY = (
    "JK JK JK JK JK JK AS AH AD AC AS AH AD AC 2S 2H 2D 2C 2S 2H 2D 2C "
    "3S 3H 3D 3C 3S 3H 3D 3C 4S 4H 4D 4C"
)


class TestMostCardsInAHand:
    @pytest.mark.parametrize(
        ("game", "most"),
        [
            ("gin", 11),  # GIN-SETUP: 10 dealt, one drawn
            ("rummy40", 11),  # R40-SETUP: 10 dealt, one drawn
            ("ramino", 15),  # RAM-SETUP: 13 dealt, one drawn, one discard claimed
            ("knock_rummy", 16),  # KR-SETUP: 10 dealt, draws of 2 and 3 (KR-TURN)
        ],
    )
    def test_each_game_states_the_most_cards_a_hand_holds(self, game, most):
        assert game_get(game).most_in_hand == most

    def test_the_heavy_ramino_hand_is_refused_at_once_naming_the_limit(self):
        with pytest.raises(RuleViolation) as refused:
            referee.answer("hand", {"variant": "ramino", "cards": HEAVY})
        # too_many_cards is the count's refusal, given before any search (a search stopped
        # by its budget answers too_complex).
        violation = refused.value.violations[0]
        assert (violation.rule, violation.code) == ("LIMITS", "too_many_cards")
        assert violation.params == {"field": "cards", "count": 34, "limit": 15}

    @pytest.mark.parametrize(
        ("game", "cards"),
        [
            ("ramino", "JK JK JK JK AS AH AD AC AS AH AD AC 2S 2H 2D"),
            ("knock_rummy", "JK AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D"),
        ],
    )
    def test_a_hand_of_the_most_cards_is_answered(self, game, cards):
        answer = referee.answer("hand", {"variant": game, "cards": cards})
        assert answer["deadwood"] == 0

    @pytest.mark.parametrize(
        ("question", "data", "field"),
        [
            ("layoff", {"variant": "gin", "melds": ["7S 8S 9S"], "cards": "2D " * 12}, "cards"),
            (
                "rearrangement",
                {"variant": "knock_rummy", "before": [], "after": [], "hand": "2D " * 17},
                "hand",
            ),
            (
                "score",
                {
                    "variant": "rummy40",
                    "players": [{"name": "A", "hand": "2D " * 12}, {"name": "B"}],
                },
                "players[0].hand",
            ),
        ],
    )
    def test_every_question_with_a_hand_bounds_it(self, question, data, field):
        with pytest.raises(RuleViolation) as refused:
            referee.answer(question, data)
        violation = refused.value.violations[0]
        assert (violation.code, violation.params["field"]) == ("too_many_cards", field)


class TestSearchBudget:
    def test_a_search_past_the_budget_is_refused(self):
        # Two decks and four jokers, forty low cards: millions of packings. The best opening
        # tries them (the least deadwood stops at the first packing that melds every card).
        cards = parse_cards(HEAVY + " 4S 4H 4D 4C 5S 5H")
        with pytest.raises(RuleViolation) as refused:
            best_opening(cards, rules=MeldRules(max_jokers=None), deck=DeckSpec(decks=2, jokers=6))
        violation = refused.value.violations[0]
        assert (violation.rule, violation.code) == ("LIMITS", "too_complex")
        assert violation.params == {"budget": STATE_BUDGET}
