"""Canasta's worked hands and short match (``GameExamples``, scoring/game.py).

North (seat 0) and South (seat 2) are side 0, East (1) and West (3) side 1; West deals,
so North moves first. Values are CAN-VALUES: joker 50, 2 and ace 20, 8 to K 10, 4 to 7 5.
"""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="canasta",
    title="Canasta",
    players=("North", "East", "South", "West"),
    options={"target": 300},
    events=(
        # CAN-SETUP: 108 - 4 x 11 - the upcard = 63 in the stock.
        ("hand_started", {"dealer": 3, "upcard": "9C"}),
        # North draws (12 cards), lays a natural canasta of seven 7s and three kings
        # (12 - 10 = 2 cards), and discards: 1 card.
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("melds_laid", {"seat": 0, "melds": ["7H 7H 7D 7D 7C 7C 7S", "KS KD KC"]}),
        ("card_discarded", {"seat": 0, "card": "4C"}),
        # East draws a red 3, lays it face up and draws its replacement from the stock
        # (CAN-RED3-1), then discards: 11 + 1 - 1 + 1 - 1 = 11 cards.
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("melds_laid", {"seat": 1, "melds": ["3H"]}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_discarded", {"seat": 1, "card": "QD"}),
        ("card_drawn", {"seat": 2, "source": "stock"}),
        ("card_discarded", {"seat": 2, "card": "JS"}),
        ("card_drawn", {"seat": 3, "source": "stock"}),
        ("card_discarded", {"seat": 3, "card": "5D"}),
        # North draws (2 cards), adds the fourth king, and goes out discarding the last
        # (CAN-OUT-1: the side has a canasta on the table).
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("cards_added", {"seat": 0, "meld": 2, "cards": "KH"}),
        ("card_discarded", {"seat": 0, "card": "9D"}),
        (
            "hands_shown",
            {
                "mode": "cards",
                "players": [
                    None,
                    {"hand": "4S 5S 6C 6D 8C 9H 10S JC QC KC AC"},
                    {"hand": "4D 5C 6H 8D 9S 10C JD QH AH 2C JK"},
                    {"hand": "JK 2D 10H 10D 8H 8S 6S 5D 4H QS AS"},
                ],
            },
        ),
    ),
    # North-South melded seven 7s 7 x 5 = 35 and KS KD KC KH 4 x 10 = 40: 75. The 7s are a
    # natural canasta, 500; going out 100 (not concealed: North melded a turn before).
    # South holds 4D 5C 6H 15, 8D 9S 10C JD QH 50, AH 20, 2C 20, JK 50 = 155.
    # 75 + 500 + 100 - 155 = 520.
    # East-West melded nothing, so East's red 3 counts against them: -100. East holds 4S 5S
    # 6C 6D 20, 8C 9H 10S JC QC KC 60, AC 20 = 100; West JK 50, 2D 20, 10H 10D 8H 8S 40,
    # 6S 5D 4H 15, QS 10, AS 20 = 155. -100 - 100 - 155 = -355.
    points=(520, -355, 520, -355),
)


# North's draws bring what he melds and discards; East's the red 3 he lays down and the 6C
# that replaces it.
REVIEWED = PLAYED.with_draws_named("4C", "3H", "6C", "JS", "5D", "KH", title="Canasta, reviewed")


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(4, {"target": 300}))
