"""Gin options, the hands the Gin scoring tests use (test_gin*.py) and the calls that score
them.
"""

import pytest

from scoring.errors import RuleViolation
from scoring.variants.gin import GinOptions, score_cards, score_quick

BIG_GIN = GinOptions()
CLASSIC = GinOptions.from_dict({"preset": "classic"})

# Knocker: 2♣3♣4♣, K♣K♥K♦, 7♠8♠9♠ and 5♥ as deadwood: a knock with 5.
KNOCK_5 = "7S 8S 9S KC KH KD 2C 3C 4C 5H"
# Defender: 8♣8♥8♦ of their own; 6♠ 5♠ go below 7♠8♠9♠, 10♠ J♠ above it, K♠ onto the kings;
# Q♥ and 2♦ are left: 12.
LAYS_OFF_TO_12 = "5S 6S 10S JS KS 8C 8H 8D QH 2D"
# The seed page's gin: 9-9-9-9, 4-4-4, 3-3-3.
SEED_GIN = "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H"
# J♣J♠J♥ and 5♦6♦7♦; 6♣ A♥ A♠ 2♠ are deadwood: 6 + 1 + 1 + 2 = 10 (the seed page's count).
SEED_DEFENDER = "6C AH AS 2S 5D 6D 7D JC JS JH"


def refused(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.violations


def cards_score(hand_k: str, hand_d: str, options=BIG_GIN, knocker=0, ending=None):
    return score_cards(
        options, knocker=knocker, knocker_cards=hand_k, defender_cards=hand_d, ending=ending
    )


def quick(options=BIG_GIN, knocker=0, ending="knock", k=0, d=0):
    return score_quick(options, knocker=knocker, ending=ending, knocker_count=k, defender_count=d)


def item_summary(result):
    return [(i.rule, i.code, i.seat, i.points) for i in result.items]
