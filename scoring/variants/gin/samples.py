"""Gin's worked hands and short match (``GameExamples``, scoring/game.py)."""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="gin",
    title="Gin",
    players=("Anna", "Bruno"),
    options={"preset": "big_gin", "target": 100},
    events=(
        ("hand_started", {"dealer": 0, "upcard": "7S"}),
        # GIN-FIRST: Bruno (not the dealer) passes the upcard, so does Anna; Bruno draws.
        ("turn_passed", {"seat": 1}),
        ("turn_passed", {"seat": 0}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_discarded", {"seat": 1, "card": "KD"}),
        ("card_drawn", {"seat": 0, "source": "discard"}),
        ("card_discarded", {"seat": 0, "card": "2H"}),
        ("card_drawn", {"seat": 1, "source": "stock", "card": "9C"}),
        # Bruno knocks, discarding 9C and showing the 10 cards he keeps: deadwood 2C = 2.
        ("knocked", {"seat": 1, "card": "9C", "hand": "AS 2S 3S 4D 4C 4H 8C 8D 8H 2C"}),
        # Anna shows hers (with the KD she took): 7D 7C 7H, 9H 10H JH; deadwood
        # KD 5S 6S 3D = 10 + 5 + 6 + 3 = 24, nothing to lay off.
        (
            "hands_shown",
            {"mode": "cards", "players": [{"hand": "KD 7D 7C 7H 9H 10H JH 5S 6S 3D"}, None]},
        ),
    ),
    # GIN-SCORE-KNOCK: Bruno scores 24 - 2 = 22.
    points=(0, 22),
)


# Every draw names its card, so the whole log shows every hand at every step; each comment
# says what the hand holds before the move.


REVIEWED = SampleHand(
    variant="gin",
    title="Gin, reviewed",
    players=("Anna", "Bruno"),
    options={"preset": "big_gin", "target": 100},
    events=(
        # Anna: 2C 3C 4C, 7H 7S 7D, KS 4S 9C 9S (deadwood 10 + 4 + 9 + 9 = 32).
        # Bruno: AS 2S 3S, 8C 8D 8H, 4D 5D JH 9H (deadwood 4 + 5 + 10 + 9 = 28).
        ("hand_started", {"dealer": 0, "upcard": "5H"}),
        ("turn_passed", {"seat": 1}),
        ("turn_passed", {"seat": 0}),
        # Bruno's 6D makes 4D 5D 6D: deadwood JH 9H. Discarding JH keeps 9 (he could knock,
        # GIN-KNOCK); he throws 9H and keeps JH, 10.
        ("card_drawn", {"seat": 1, "source": "stock", "card": "6D"}),
        ("card_discarded", {"seat": 1, "card": "9H"}),
        # Anna takes 9H: 9C 9S 9H. Deadwood KS 4S; she throws KS and keeps 4S, 4.
        ("card_drawn", {"seat": 0, "source": "discard", "card": "9H"}),
        ("card_discarded", {"seat": 0, "card": "KS"}),
        # Bruno's 2H: deadwood JH 2H; he knocks throwing JH and shows deadwood 2H = 2.
        ("card_drawn", {"seat": 1, "source": "stock", "card": "2H"}),
        ("knocked", {"seat": 1, "card": "JH", "hand": "AS 2S 3S 8C 8D 8H 4D 5D 6D 2H"}),
        # Anna lays 4S off on AS 2S 3S: 0 in deadwood.
        (
            "hands_shown",
            {"mode": "cards", "players": [{"hand": "2C 3C 4C 7H 7S 7D 9C 9S 9H 4S"}, None]},
        ),
    ),
    # GIN-UNDERCUT: Anna's 0 is below Bruno's 2: she scores 2 - 0 = 2 and Big Gin's 25.
    points=(27, 0),
)


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(2, {"target": 1}))
