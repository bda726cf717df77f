"""Rummy40's worked hands and short match (``GameExamples``, scoring/game.py)."""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="rummy40",
    title="Rummy40",
    players=("Anna", "Bruno"),
    options={"opening_minimum": 40, "target": 100},
    events=(
        ("hand_started", {"dealer": 0, "upcard": "4C"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        # Bruno opens with 10 + 10 + 11 (ace high) + 15 = 46 points, at least 40 (R40-OPEN).
        ("melds_laid", {"seat": 1, "melds": ["QH KH AH", "5C 5D 5S"]}),
        ("card_discarded", {"seat": 1, "card": "2D"}),
        ("card_drawn", {"seat": 0, "source": "stock"}),
        # Anna's 2 + 3 + 4 = 9 points is below 40: 20 penalty points, the cards go back to
        # her hand (R40-OPEN-PENALTY).
        ("melds_laid", {"seat": 0, "melds": ["2S 3S 4S"]}),
        ("card_discarded", {"seat": 0, "card": "3H"}),
        ("card_drawn", {"seat": 1, "source": "discard"}),
        ("cards_added", {"seat": 1, "meld": 1, "cards": "JH"}),
        ("card_discarded", {"seat": 1, "card": "8S"}),
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("melds_laid", {"seat": 0, "melds": ["10S JS QS", "9D 9H 9C"]}),
        ("card_discarded", {"seat": 0, "card": "2S"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("melds_laid", {"seat": 1, "melds": ["2H 3H 4H"]}),
        # Bruno discards his last card: he goes out (R40-HAND).
        ("card_discarded", {"seat": 1, "card": "KC"}),
        ("hands_shown", {"mode": "cards", "players": [{"hand": "3S 4S KS JK"}, None]}),
    ),
    # R40-END: Anna adds 3 + 4 + 10 + 25 (joker) = 42, plus 20 for the failed opening.
    points=(62, 0),
)


# Every draw names its card, so the whole log shows every hand at every step; each comment
# says what the hand holds before the move.


REVIEWED = SampleHand(
    variant="rummy40",
    title="Rummy40, reviewed",
    players=("Anna", "Bruno"),
    options={"opening_minimum": 40, "target": 100},
    events=(
        # Anna: 2S 3S 4S, 9C 9H 9S, 10D JD, KC 6H. Bruno: QH KH AH, 5C 5D 5S, 9D 2C 8H JC.
        ("hand_started", {"dealer": 0, "upcard": "4C"}),
        # Bruno opens with Q K A of hearts (10 + 10 + 11) and three 5s: 46 (R40-OPEN).
        ("card_drawn", {"seat": 1, "source": "stock", "card": "7H"}),
        ("melds_laid", {"seat": 1, "melds": ["QH KH AH", "5C 5D 5S"]}),
        ("card_discarded", {"seat": 1, "card": "2C"}),
        # Anna's QD makes 10D JD QD: she could open with 9 + 27 + 30 = 66, and does not.
        ("card_drawn", {"seat": 0, "source": "stock", "card": "QD"}),
        ("card_discarded", {"seat": 0, "card": "6H"}),
        # Bruno takes 6H for 6H 7H 8H.
        ("card_drawn", {"seat": 1, "source": "discard", "card": "6H"}),
        ("melds_laid", {"seat": 1, "melds": ["6H 7H 8H"]}),
        ("card_discarded", {"seat": 1, "card": "JC"}),
        # Anna's KD: she opens with three melds, keeps KD (10D JD QD would take it).
        ("card_drawn", {"seat": 0, "source": "stock", "card": "KD"}),
        ("melds_laid", {"seat": 0, "melds": ["2S 3S 4S", "9C 9H 9S", "10D JD QD"]}),
        ("card_discarded", {"seat": 0, "card": "KC"}),
        # Bruno adds 5H to his 5s and goes out throwing 9D (R40-HAND).
        ("card_drawn", {"seat": 1, "source": "stock", "card": "5H"}),
        ("cards_added", {"seat": 1, "meld": 2, "cards": "5H"}),
        ("card_discarded", {"seat": 1, "card": "9D"}),
        ("hands_shown", {"mode": "cards", "players": [{"hand": "KD"}, None]}),
    ),
    # R40-END: Anna adds her KD, 10; Bruno, out, nothing.
    points=(10, 0),
)


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(4, {"target": 1}))
