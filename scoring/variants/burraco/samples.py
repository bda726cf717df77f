"""Burraco's worked hands and short match (``GameExamples``, scoring/game.py).

North (seat 0) and South (seat 2) are pair 0, East (1) and West (3) pair 1; West deals,
so North moves first. Values are BUR-VALUES: jolly 30, 2 20, ace 15, 8 to K 10, 3 to 7 5.
"""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="burraco",
    title="Burraco",
    players=("North", "East", "South", "West"),
    options={"target": 300},
    events=(
        # BUR-SETUP: 108 - 4 x 11 - 2 pozzetti x 11 - the upcard = 41 in the stock.
        ("hand_started", {"dealer": 3, "upcard": "9C"}),
        # North draws (12 cards), lays a burraco pulito of 7 and a combination of kings
        # (12 - 10 = 2 cards), and discards: 1 card.
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("melds_laid", {"seat": 0, "melds": ["3H 4H 5H 6H 7H 8H 9H", "KS KD KC"]}),
        ("card_discarded", {"seat": 0, "card": "4C"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_discarded", {"seat": 1, "card": "QD"}),
        ("card_drawn", {"seat": 2, "source": "stock"}),
        ("card_discarded", {"seat": 2, "card": "JS"}),
        ("card_drawn", {"seat": 3, "source": "stock"}),
        ("card_discarded", {"seat": 3, "card": "5D"}),
        # North draws (2 cards) and adds both: the hand empties by melding, so the pair's
        # pozzetto comes at once (BUR-POZZETTO, "al volo") and the turn goes on with 11.
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("cards_added", {"seat": 0, "meld": 1, "cards": "10H"}),
        ("cards_added", {"seat": 0, "meld": 2, "cards": "KH"}),
        ("melds_laid", {"seat": 0, "melds": ["AS AC AD"]}),
        ("card_discarded", {"seat": 0, "card": "6C"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_discarded", {"seat": 1, "card": "2S"}),
        ("card_drawn", {"seat": 2, "source": "stock"}),
        ("card_discarded", {"seat": 2, "card": "3D"}),
        ("card_drawn", {"seat": 3, "source": "stock"}),
        ("card_discarded", {"seat": 3, "card": "JC"}),
        # North draws (8 cards), melds 7 and closes discarding the last (BUR-CLOSE: the
        # pozzetto taken, a burraco on the table, the discard no wild).
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("melds_laid", {"seat": 0, "melds": ["JC QC KC", "5S 6S 7S 8S"]}),
        ("card_discarded", {"seat": 0, "card": "9D"}),
        (
            "hands_shown",
            {
                "mode": "cards",
                "players": [
                    None,
                    {"hand": "4D 5C 6H 7C 8D 9H JH QD KD AC 3S"},
                    {"hand": "3C 3D 4S 6D 7D 9S JD QH QS AH 2C"},
                    {"hand": "JK 2D 10S 10C 10D 8C 8S 7S 6S 5S 4H"},
                ],
            },
        ),
    ),
    # North-South melded 3H..7H 5 x 5 = 25 + 8H 9H 10H 30 = 55; KS KD KC KH 40; AS AC AD 45;
    # JC QC KC 30; 5S 6S 7S 8S 5 + 5 + 5 + 10 = 25: 55 + 40 + 45 + 30 + 25 = 195. The 8-card
    # heart sequence is a burraco pulito, 200; closing 100. South holds 3C 3D 4S 6D 7D 25,
    # 9S JD QH QS 40, AH 15, 2C 20 = 100. 195 + 200 + 100 - 100 = 395.
    # East-West melded nothing and never took their pozzetto (-100). East holds 4D 5C 6H 7C
    # 3S 25, 8D 9H JH QD KD 50, AC 15 = 90; West JK 30, 2D 20, 10S 10C 10D 30, 8C 8S 20,
    # 7S 6S 5S 15, 4H 5 = 120. -90 - 120 - 100 = -310.
    points=(395, -310, 395, -310),
)


# North's draws bring what he melds and discards; the others' are what they throw.
REVIEWED = PLAYED.with_draws_named(
    "4C", "QD", "JS", "5D", "10H", "2S", "3D", "JC", "9D", title="Burraco, reviewed"
)


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(4, {"target": 300}))
