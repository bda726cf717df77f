"""Worked hands played move by move, one per game: the API docs show them event by event,
the demo loads one, the bench replays them, and tests append them through the API.

Each sample is a table (game, options, players) and the events a phone appends after the
table's creation, with the hand's points worked out by hand from docs/rules.md in comments.
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SampleHand:
    """A table and the moves of one hand, with the hand's points worked out by hand."""

    variant: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    events: tuple[tuple[str, dict[str, Any]], ...]
    points: tuple[int, ...]  # what the hand scores per seat (docs/rules.md, by hand)


GIN = SampleHand(
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

RUMMY40 = SampleHand(
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

RAMINO = SampleHand(
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

KNOCK_RUMMY = SampleHand(
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

SAMPLES = (GIN, RUMMY40, RAMINO, KNOCK_RUMMY)
