"""Knock Rummy's worked hands and short match (``GameExamples``, scoring/game.py)."""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="knock_rummy",
    title="Knock Rummy",
    players=("Anna", "Bruno"),
    options={},
    events=(
        ("hand_started", {"dealer": 0}),
        # KR-TURN: Bruno draws, cannot meld, draws a second card and melds.
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("melds_laid", {"seat": 1, "melds": ["5H 6H 7H"]}),
        # Anna's draw ends Bruno's turn; she rearranges the table: the 5H joins her 5S 5D
        # and her 8H keeps the run legal (KR-MANIP).
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("table_rearranged", {"seat": 0, "melds": ["6H 7H 8H", "5H 5S 5D"]}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        # Three draws and no meld: Bruno's turn is over.
        ("turn_passed", {"seat": 1}),
        ("card_drawn", {"seat": 0, "source": "stock"}),
        ("melds_laid", {"seat": 0, "melds": ["9C 10C JC QC", "2C 3C 4C"]}),
        ("knocked", {"seat": 0}),
        (
            "hands_shown",
            {
                "mode": "cards",
                "players": [
                    {"hand": "AS AD"},
                    {"hand": "2S 3D 6S 8S 9D JD QD KC 10S 3H 4D 6C"},
                ],
            },
        ),
    ),
    # KR-SCORE: Anna holds 1 + 1 = 2, Bruno 2+3+6+8+9+10+10+10+10+3+4+6 = 81; Anna wins
    # the difference, 79, and as the knocker gets no undercut bonus.
    points=(79, 0),
)


# Every draw names its card, so the whole log shows every hand at every step; each comment
# says what the hand holds before the move.


REVIEWED = SampleHand(
    variant="knock_rummy",
    title="Knock Rummy, reviewed",
    players=("Anna", "Bruno"),
    options={},
    events=(
        # Anna: 4S 4D 4C, 8D 9D 10D, AS AD 6C 7S. Bruno: 5H 6H 7H, 9C 10C JC, 2S AC QD KD.
        ("hand_started", {"dealer": 0}),
        ("card_drawn", {"seat": 1, "source": "stock", "card": "8H"}),
        ("melds_laid", {"seat": 1, "melds": ["5H 6H 7H 8H", "9C 10C JC"]}),
        # Anna melds but keeps 9H, which 5H..8H would take.
        ("card_drawn", {"seat": 0, "source": "stock", "card": "9H"}),
        ("melds_laid", {"seat": 0, "melds": ["4S 4D 4C", "8D 9D 10D"]}),
        # Bruno lays JD QD KD on 8D 9D 10D and keeps 2S AC, 3: he could knock (KR-KNOCK).
        ("card_drawn", {"seat": 1, "source": "stock", "card": "JD"}),
        (
            "table_rearranged",
            {"seat": 1, "melds": ["5H 6H 7H 8H", "9C 10C JC", "4S 4D 4C", "8D 9D 10D JD QD KD"]},
        ),
        ("card_drawn", {"seat": 0, "source": "stock", "card": "2C"}),
        (
            "table_rearranged",
            {
                "seat": 0,
                "melds": ["5H 6H 7H 8H 9H", "9C 10C JC", "4S 4D 4C", "8D 9D 10D JD QD KD"],
            },
        ),
        ("card_drawn", {"seat": 1, "source": "stock", "card": "7D"}),
        (
            "table_rearranged",
            {
                "seat": 1,
                "melds": ["5H 6H 7H 8H 9H", "9C 10C JC", "4S 4D 4C", "7D 8D 9D 10D JD QD KD"],
            },
        ),
        ("knocked", {"seat": 1}),
        (
            "hands_shown",
            {"mode": "cards", "players": [{"hand": "AS AD 6C 7S 2C"}, {"hand": "2S AC"}]},
        ),
    ),
    # KR-SCORE: Bruno holds 2 + 1 = 3, Anna 1 + 1 + 6 + 7 + 2 = 17; Bruno knocked and wins
    # the difference, 14.
    points=(0, 14),
)


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(3, {"target": 30}))
