"""Ramino's worked hands and short match (``GameExamples``, scoring/game.py)."""

from scoring.game import GameExamples, SampleHand

PLAYED = SampleHand(
    variant="ramino",
    title="Ramino",
    players=("Anna", "Bruno", "Carla"),
    options={"hands": 3, "knock_claim": True},
    events=(
        ("hand_started", {"dealer": 2, "upcard": "9D"}),
        ("card_drawn", {"seat": 0, "source": "stock"}),
        # Anna opens with Q K and a joker standing for the ace: 10 + 10 + 11 = 31 (RAM-OPEN).
        ("melds_laid", {"seat": 0, "melds": ["QH KH JK"]}),
        ("card_discarded", {"seat": 0, "card": "5C"}),
        # Carla knocks for Anna's discard out of turn and takes a stock card with it.
        ("discard_claimed", {"seat": 2, "card": "KS"}),
        ("card_drawn", {"seat": 1, "source": "stock"}),
        ("melds_laid", {"seat": 1, "melds": ["8S 9S 10S JS"]}),
        # Bruno, now open, swaps the ace of hearts for Anna's joker and uses it at once.
        ("joker_swapped", {"seat": 1, "meld": 1, "card": "AH"}),
        ("cards_added", {"seat": 1, "meld": 2, "cards": "JK"}),
        ("card_discarded", {"seat": 1, "card": "2D"}),
        ("card_drawn", {"seat": 2, "source": "stock"}),
        # Carla lays all but one card in one turn, having melded nothing before.
        (
            "melds_laid",
            {
                "seat": 2,
                "melds": ["2C 3C 4C 5C", "KS KD KC", "6H 7H 8H 9H 10H", "3D 4D 5D"],
            },
        ),
        ("card_discarded", {"seat": 2, "card": "QC"}),
        (
            "hands_shown",
            {
                "mode": "cards",
                "players": [
                    {"hand": "2H 3H 4H 5S 6S 7S AC AD 10C JC"},
                    {"hand": "2S 3S 4D 6D 7D 9C 9C QD"},
                    None,
                ],
            },
        ),
    ),
    # RAM-SCORE: Anna loses 2+3+4+5+6+7+11+11+10+10 = 69, Bruno 2+3+4+6+7+9+9+10 = 50;
    # Carla gains 119. RAM-HANDCLOSE doubles it all: -138, -100, +238.
    points=(-138, -100, 238),
)


# Every draw names its card, so the whole log shows every hand at every step; each comment
# says what the hand holds before the move.


REVIEWED = SampleHand(
    variant="ramino",
    title="Ramino, reviewed",
    players=("Anna", "Bruno"),
    options={"hands": 1},
    events=(
        # Anna: 3S 4S 5S, 10H JH QH, 9C 7D 7S 8D 6C KC 2D.
        # Bruno: 7C 8C JK, KS KH KD, 4D 5D, 2H 2S QC AS 6H.
        ("hand_started", {"dealer": 0, "upcard": "9S"}),
        # Bruno opens: 7 + 8 + 9 (the joker is 9C) + 30 + 3 + 4 + 5 = 66 (RAM-OPEN, VALUE).
        ("card_drawn", {"seat": 1, "source": "stock", "card": "3D"}),
        ("melds_laid", {"seat": 1, "melds": ["7C 8C JK=9C", "KS KH KD", "3D 4D 5D"]}),
        ("card_discarded", {"seat": 1, "card": "AS"}),
        # Anna's 6D makes 6D 7D 8D: 12 + 30 + 21 = 63 would open; she throws 2D instead.
        ("card_drawn", {"seat": 0, "source": "stock", "card": "6D"}),
        ("card_discarded", {"seat": 0, "card": "2D"}),
        # Bruno takes 2D for 2S 2H 2D.
        ("card_drawn", {"seat": 1, "source": "discard", "card": "2D"}),
        ("melds_laid", {"seat": 1, "melds": ["2S 2H 2D"]}),
        ("card_discarded", {"seat": 1, "card": "QC"}),
        # Anna opens and throws KC, which KS KH KD would take; the joker of 7C 8C JK stands
        # for her 9C (RAM-JOKER-SWAP) and her 6C fits before 7C (RAM-ADD).
        ("card_drawn", {"seat": 0, "source": "stock", "card": "4H"}),
        ("melds_laid", {"seat": 0, "melds": ["3S 4S 5S", "10H JH QH", "6D 7D 8D"]}),
        ("card_discarded", {"seat": 0, "card": "KC"}),
        # Bruno adds 10C to 7C 8C JK and goes out throwing 6H (RAM-OUT).
        ("card_drawn", {"seat": 1, "source": "stock", "card": "10C"}),
        ("cards_added", {"seat": 1, "meld": 1, "cards": "10C"}),
        ("card_discarded", {"seat": 1, "card": "6H"}),
        ("hands_shown", {"mode": "cards", "players": [{"hand": "9C 7S 6C 4H"}, None]}),
    ),
    # RAM-SCORE: Anna loses 9 + 7 + 6 + 4 = 26, which Bruno gains (he opened on his first
    # turn and went out on his third: no RAM-HANDCLOSE).
    points=(-26, 26),
)


EXAMPLES = GameExamples(played=PLAYED, reviewed=REVIEWED, short_match=(3, {"hands": 1}))
