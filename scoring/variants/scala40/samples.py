"""Scala 40's worked hands and short match (``GameExamples``, scoring/game.py)."""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="scala40",
    title="Scala 40",
    players=("Anna", "Bruno"),
    options={"target": 101},
    events=(
        ("hand_started", {"dealer": 0, "upcard": "4C"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        # Bruno opens with 10 + 10 + 11 (ace high) + 7 + 7 + 7 = 52 points, 40 or more
        # (S40-OPEN); he keeps 8 cards and throws a 2D no meld on the table takes (S40-DISCARD).
        ("melds_laid", {"seat": 1, "melds": ["QS KS AS", "7H 7C 7D"]}),
        ("card_discarded", {"seat": 1, "card": "2D"}),
        # Anna has not opened: she may discard any card.
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("card_discarded", {"seat": 0, "card": "QH"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("melds_laid", {"seat": 1, "melds": ["4S 5S 6S", "10D JD QD"]}),
        ("cards_added", {"seat": 1, "meld": 1, "cards": "JS"}),
        # Bruno throws his last card: he closes (S40-CLOSE).
        ("card_discarded", {"seat": 1, "card": "3C"}),
        (
            "hands_shown",
            {
                "mode": "cards",
                "players": [{"hand": "AH 2H 5C 6C 9S 9D KD KC 3S 8H 10C JK 4D"}, None],
            },
        ),
    ),
    # S40-SCORE with S40-VALUE: Anna adds 11 + 2 + 5 + 6 + 9 + 9 + 10 + 10 + 3 + 8 + 10 +
    # 25 (joker) + 4 = 112; Bruno, who closed, nothing.
    points=(112, 0),
)


# Every draw names its card, so the whole log shows every hand at every step: PLAYED's hand.
# Anna holds AH 2H 5C 6C 9S 9D KD KC 3S 8H 10C JK QH; Bruno QS KS AS 7H 7C 2D 4S 5S 6S 10D JD
# QD 3C. Bruno's 7D makes three 7s for his opening; after it, throwing 2D keeps 3C, 3 points,
# where throwing 3C would keep 2D, 2 (S40-VALUE): he loses 1. Anna draws 4D; Bruno JS, which
# goes on QS KS AS before he closes.
REVIEWED = PLAYED.with_draws_named("7D", "4D", "JS", title="Scala 40, reviewed")

EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(3, {}))
