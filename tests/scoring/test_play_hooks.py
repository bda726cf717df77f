"""A showing knock's checks read the hooks a game's play rules set, never a game's name.

Gin's Classic play rules with each hook citing a rule of a made-up game ("T-"): the refusals
cite those rules, and the deal's card sets the knock limit by the hook's own reading of it.
Gin's own citations (GIN-FIRST, GIN-KNOCK, GIN-BIGGIN, GIN-OKLAHOMA) are tested with Gin in
tests/scoring/test_play_gin.py and test_gin_american.py.
"""

from dataclasses import replace

import pytest

from scoring.cards import Card, parse_cards
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    DISCARD_CLAIMED,
    KNOCKED,
    MELDS_LAID,
    TURN_PASSED,
)
from scoring.payloads import HandStarted
from scoring.play import SHOW, Play, PlayRules, apply_move, start
from scoring.play.rules import KnockClaim, KnockLimitByDeal, OutWithoutDiscard
from scoring.variants import gin
from tests.scoring.play_helpers import rule_and_code

ANNA, BRUNO = 0, 1
# A♥2♥3♥, 4♦5♦6♦, 8♣8♠8♥ melded; 7♣ left: a count of 7 (values as Gin's, GIN-VALUE).
KEEPS_7 = "AH 2H 3H 4D 5D 6D 8C 8S 8H 7C"
# A♥2♥3♥, 4♦5♦6♦ melded; 8♣ 8♠ 5♣ 9♦ left: 8 + 8 + 5 + 9 = 30.
KEEPS_30 = "AH 2H 3H 4D 5D 6D 8C 8S 5C 9D"
# Eleven cards: A♥..4♥, 4♦5♦6♦, the four 8s, every one melded.
ALL_11 = "AH 2H 3H 4H 4D 5D 6D 8C 8S 8H 8D"
# Eleven cards with 9♣ out of the melds: 9.
LEAVES_9 = "AH 2H 3H 4H 4D 5D 6D 8C 8S 8H 9C"


def _rank_less_four(card: Card) -> int:
    """The made-up game's reading of the deal's card: a knock keeps its rank less 4."""
    return card.rank - 4


def _rules(**hooks) -> PlayRules:
    classic = gin.options_from_dict({"preset": "classic"}, 2)
    return replace(
        gin.play_rules(classic, 2),
        knock_rule="T-KNOCK",
        first_turn_rule="T-FIRST",
        melds_in_play_code="t_melds",
        **{"out_without_discard": OutWithoutDiscard("T-OUT", allowed=False), **hooks},
    )


def _dealt(rules: PlayRules) -> Play:
    """Deal with the 7♠ face up, Anna dealing: Bruno takes it or passes first."""
    (upcard,) = parse_cards("7S")
    deal = HandStarted(dealer=ANNA, upcard=upcard)
    return start(rules, ("Anna", "Bruno"), deal, dealer=ANNA, seq=1)


def _drawn(rules: PlayRules) -> Play:
    """Both pass the 7♠; Bruno draws from the stock and holds 11 cards."""
    play = _dealt(rules)
    for seat in (BRUNO, ANNA):
        play = apply_move(play, TURN_PASSED, {"seat": seat})
    return apply_move(play, CARD_DRAWN, {"seat": BRUNO, "source": "stock"})


def _refused(play: Play, event_type: str, payload: dict) -> tuple[tuple[str, str], dict]:
    with pytest.raises(RuleViolation) as caught:
        apply_move(play, event_type, payload)
    (violation,) = caught.value.violations
    return rule_and_code(violation), dict(violation.params)


class TestTheHooksCiteTheGamesRules:
    def test_a_stock_draw_on_the_first_turn_cites_the_first_turn_rule(self):
        move = {"seat": BRUNO, "source": "stock"}
        (cited, _params) = _refused(_dealt(_rules()), CARD_DRAWN, move)
        assert cited == ("T-FIRST", "stock_on_first_turn")

    def test_a_knock_showing_too_few_cards_cites_the_knock_rule(self):
        # Eleven held: nine shown and the discard are ten.
        move = {"seat": BRUNO, "card": "9C", "hand": "AH 2H 3H 4D 5D 6D 8C 8S 8H"}
        (cited, params) = _refused(_drawn(_rules()), KNOCKED, move)
        assert cited == ("T-KNOCK", "wrong_count") and params["expected"] == 11

    def test_a_knock_over_the_fixed_limit_cites_the_knock_rule(self):
        # Classic's limit is 10; the cards kept count 30.
        move = {"seat": BRUNO, "card": "KC", "hand": KEEPS_30}
        (cited, params) = _refused(_drawn(_rules()), KNOCKED, move)
        assert cited == ("T-KNOCK", "over_limit") and (params["limit"], params["count"]) == (10, 30)

    def test_the_deals_card_sets_the_limit_and_a_knock_over_it_cites_the_deals_rule(self):
        # The 7♠: 7 - 4 = 3, so keeping 7 is over it, where Classic's fixed 10 allows it.
        rules = _rules(knock_limit_by_deal=KnockLimitByDeal("T-DEAL", _rank_less_four))
        play = _drawn(rules)
        assert play.rules.knock_limit == 3
        move = {"seat": BRUNO, "card": "9C", "hand": KEEPS_7}
        (cited, params) = _refused(play, KNOCKED, move)
        assert cited == ("T-DEAL", "over_limit") and (params["limit"], params["card"]) == (3, "7S")
        # Without the hook the limit is Classic's 10: the same knock ends the hand.
        assert apply_move(_drawn(_rules()), KNOCKED, move).phase == SHOW

    def test_a_knock_without_a_discard_cites_the_out_rule_allowed_or_not(self):
        move = {"seat": BRUNO, "hand": ALL_11}
        (cited, _params) = _refused(_drawn(_rules()), KNOCKED, move)
        assert cited == ("T-OUT", "not_available")
        allowed = _rules(out_without_discard=OutWithoutDiscard("T-OUT", allowed=True))
        (cited, params) = _refused(_drawn(allowed), KNOCKED, {**move, "hand": LEAVES_9})
        assert cited == ("T-OUT", "not_all_melded") and params["count"] == 9
        assert apply_move(_drawn(allowed), KNOCKED, move).hands[BRUNO].shown

    def test_melds_laid_in_play_are_refused_with_the_games_code(self):
        move = {"seat": BRUNO, "melds": ["AH 2H 3H"]}
        (cited, _params) = _refused(_drawn(_rules()), MELDS_LAID, move)
        assert cited == ("GIN-TURN", "t_melds")

    def test_a_claim_where_no_rule_speaks_of_it_cites_the_turn_rule(self):
        play = apply_move(_drawn(_rules()), CARD_DISCARDED, {"seat": BRUNO, "card": "9C"})
        (cited, _params) = _refused(play, DISCARD_CLAIMED, {"seat": ANNA})
        assert cited == ("GIN-TURN", "not_on")

    def test_a_claim_cites_the_claim_rule_allowed_or_not(self):
        off = _rules(knock_claim=KnockClaim("T-CLAIM", allowed=False))
        play = apply_move(_drawn(off), CARD_DISCARDED, {"seat": BRUNO, "card": "9C"})
        assert _refused(play, DISCARD_CLAIMED, {"seat": ANNA})[0] == ("T-CLAIM", "not_on")
        on = _rules(knock_claim=KnockClaim("T-CLAIM", allowed=True))
        # Before Bruno discards there is no discard of his to claim.
        (cited, _params) = _refused(_drawn(on), DISCARD_CLAIMED, {"seat": ANNA})
        assert cited == ("T-CLAIM", "too_late")
        # Bruno discarded: he cannot claim his own card, and Anna, next, simply draws it.
        play = apply_move(_drawn(on), CARD_DISCARDED, {"seat": BRUNO, "card": "9C"})
        assert _refused(play, DISCARD_CLAIMED, {"seat": BRUNO})[0] == ("T-CLAIM", "own_discard")
        assert _refused(play, DISCARD_CLAIMED, {"seat": ANNA})[0] == ("T-CLAIM", "own_turn")
