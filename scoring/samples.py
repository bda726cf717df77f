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

SCALA40 = SampleHand(
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

SAMPLES = (GIN, RUMMY40, RAMINO, KNOCK_RUMMY, SCALA40)


# Hands reviewed move by move (scoring/review/): every draw names its card, so the whole
# log shows every hand at every step, and tests/scoring/test_review.py checks each turn's
# weighing against the figures worked out here by hand (docs/rules.md). Each comment says
# what the hand holds before the move.

REVIEW_GIN = SampleHand(
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

REVIEW_RUMMY40 = SampleHand(
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

REVIEW_RAMINO = SampleHand(
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

REVIEW_KNOCK_RUMMY = SampleHand(
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

REVIEWED = (REVIEW_GIN, REVIEW_RUMMY40, REVIEW_RAMINO, REVIEW_KNOCK_RUMMY)
