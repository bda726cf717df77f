"""Scala 40 matches that run past the seat count, worked by hand from docs/rules.md.

S40-MATCH: a player whose score reaches the limit (101 here) is out and sits every later
hand out; when one player is left in, the match ends and that player wins; the others
place in the reverse order they went out, players out in the same hand by their scores,
the lower first; if every player left goes out in the same hand, the lowest score wins.
While the match goes on, every player still in places above every player out.

Each hand is written as one row, a column a seat: ``c`` closed (adds nothing, S40-SCORE),
``c+1`` closed after one failed opening (adds the 20 of S40-OPEN-PENALTY), a number the
points left in hand, ``-`` sat the hand out (out of the match), a number ending in ``x``
the points left by a player who declines a re-entry (S40-REENTRY). The running totals after
each hand are worked in the comment beside it.
"""

import pytest

from tests.scoring.play_helpers import Table, record


def hand(row: str) -> dict:
    players = []
    for cell in row.split():
        if cell == "-":
            players.append({"points": 0, "sitting_out": True})
        elif cell.startswith("c"):
            failed = int(cell[2:] or 0)
            players.append({"points": 0, "went_out": True, "opening_penalty": failed})
        elif cell.endswith("x"):
            players.append({"points": int(cell[:-1]), "declines_reentry": True})
        else:
            players.append({"points": int(cell)})
    return {"mode": "points", "players": players, "stock_exhausted": False}


def played(seats: list[str], rows: list[str], options: dict | None = None) -> Table:
    table = Table("scala40", seats, options or {})
    for row in rows:
        table.play(record(hand(row)))
    return table


def places_after(seats: list[str], rows: list[str], options: dict | None = None):
    match = played(seats, rows, options).view["match"]
    return match["places"], match["totals"], match["finished"], match["winners"]


TWO = ["Anna", "Bruno"]
TWO_ROWS = [
    "c 30",  # 0 30
    "40 c",  # 40 30
    "c 40",  # 40 70
    "60 c",  # 100 70
    "c 31",  # 100 101: Bruno is out after hand 5, Anna is the last one in
]

THREE = ["Anna", "Bruno", "Carla"]
THREE_ROWS = [
    "c 20 30",  # 0 20 30
    "10 c 30",  # 10 20 60
    "c 10 20",  # 10 30 80
    "15 10 c",  # 25 40 80
    "c 5 25",  # 25 45 105: Carla out after hand 5
    "30 c -",  # 55 45 105
    "c 40 -",  # 55 85 105
    "c 20 -",  # 55 105 105: Bruno out after hand 8; Anna wins
]

FOUR = ["Anna", "Bruno", "Carla", "Dario"]
FOUR_ROWS = [
    "c 30 30 30",  # 0 30 30 30
    "30 c 30 30",  # 30 30 60 60
    "30 30 c 30",  # 60 60 60 90
    "30 30 30 c",  # 90 90 90 90
    "c 5 5 15",  # 90 95 95 105: Dario out after hand 5
    "5 c 10 -",  # 95 95 105 105: Carla out after hand 6
    "c 20 - -",  # 95 115 105 105: Bruno out after hand 7; Anna wins
]

FIVE = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
FIVE_ROWS = [
    "c 20 20 20 20",  # 0 20 20 20 20
    "20 c 20 20 20",  # 20 20 40 40 40
    "20 20 c 20 20",  # 40 40 40 60 60
    "20 20 20 c 20",  # 60 60 60 60 80
    "10 10 10 10 c",  # 70 70 70 70 80
    "c 10 10 10 25",  # 70 80 80 80 105: Elena out after hand 6
    "c 30 5 5 -",  # 70 110 85 85 105: Bruno out after hand 7
    "20 - c 20 -",  # 90 110 85 105 105: Dario out after hand 8
    # Anna closes after a failed opening (+20): 110; Carla holds 30: 115. Both go out in
    # hand 9, so nobody is left in: the lower score, Anna's, wins.
    "c+1 - 30 - -",
]

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
SIX_ROWS = [
    "c 10 10 10 10 10",  # 0 10 10 10 10 10
    "10 c 10 10 10 10",  # 10 10 20 20 20 20
    "10 10 c 10 10 10",  # 20 20 20 30 30 30
    "10 10 10 c 10 10",  # 30 30 30 30 40 40
    "10 10 10 10 c 10",  # 40 40 40 40 40 50
    "10 10 10 10 10 c",  # 50 50 50 50 50 50
    "c 60 10 10 10 10",  # 50 110 60 60 60 60: Bruno out after hand 7
    "5 - c 5 5 45",  # 55 110 60 65 65 105: Fabio out after hand 8
    "c - 45 41 10 -",  # 55 110 105 106 75 105: Carla and Dario out after hand 9
    "20 - - - c -",  # 75 110 105 106 75 105
    "30 - - - c -",  # 105 110 105 106 75 105: Anna out after hand 11; Elena wins
]


class TestTheLastOneInWins:
    def test_two_players_the_one_who_reaches_101_in_hand_5_loses_s40_match(self):
        assert places_after(TWO, TWO_ROWS) == ([1, 2], [100, 101], True, [0])

    def test_three_players_out_in_hands_5_and_8_s40_match(self):
        # Anna never went out: 1; Bruno out after hand 8: 2; Carla after hand 5: 3.
        assert places_after(THREE, THREE_ROWS) == ([1, 2, 3], [55, 105, 105], True, [0])

    def test_four_players_out_in_hands_5_6_and_7_s40_match(self):
        # Anna 1; Bruno (hand 7) 2; Carla (hand 6) 3; Dario (hand 5) 4. Carla's and
        # Dario's equal totals do not matter: they went out in different hands.
        assert places_after(FOUR, FOUR_ROWS) == ([1, 2, 3, 4], [95, 115, 105, 105], True, [0])

    def test_five_players_the_last_two_out_together_the_lower_wins_s40_match(self):
        # Anna 110 and Carla 115 out in hand 9: Anna 1, Carla 2; Dario (hand 8) 3;
        # Bruno (hand 7) 4; Elena (hand 6) 5.
        assert places_after(FIVE, FIVE_ROWS) == (
            [1, 4, 2, 3, 5],
            [110, 110, 115, 105, 105],
            True,
            [0],
        )

    def test_six_players_over_eleven_hands_s40_match(self):
        # Elena, never out: 1; Anna (hand 11) 2; Carla 105 and Dario 106, out together
        # in hand 9, the lower first: 3 and 4; Fabio (hand 8) 5; Bruno (hand 7) 6.
        assert places_after(SIX, SIX_ROWS) == (
            [2, 6, 3, 4, 1, 5],
            [105, 110, 105, 106, 75, 105],
            True,
            [4],
        )


class TestPlacesWhileTheMatchGoesOn:
    """A match stopped early (a night's table locked at the bell) ranks by the same rule:
    every player still in above every player out, whatever the hand they went out in."""

    @pytest.mark.parametrize(
        ("seats", "rows", "expected"),
        [
            # After hand 5 of the three: Anna 25 and Bruno 45 in, Carla out.
            (THREE, THREE_ROWS[:5], [1, 2, 3]),
            # After hand 6 of the four: Anna and Bruno in on 95 (a shared place), then
            # Carla (out in hand 6), then Dario (hand 5).
            (FOUR, FOUR_ROWS[:6], [1, 1, 3, 4]),
            # After hand 7 of the five: Anna 70, Carla 85, Dario 85 in; Bruno out in
            # hand 7 above Elena out in hand 6.
            (FIVE, FIVE_ROWS[:7], [1, 4, 2, 2, 5]),
            # After hand 10 of the six: Anna 75 and Elena 75 in; Carla 105 and Dario 106
            # (hand 9), Fabio (hand 8), Bruno (hand 7).
            (SIX, SIX_ROWS[:10], [1, 6, 3, 4, 1, 5]),
        ],
    )
    def test_players_still_in_place_above_every_player_out_s40_match(self, seats, rows, expected):
        places, _, finished, winners = places_after(seats, rows)
        assert (places, finished, winners) == (expected, False, [])


class TestTheScoreIsTheRules:
    def test_after_a_re_entry_the_totals_are_the_score_and_the_hands_sum_is_named_apart(self):
        """Three players, one re-entry each (S40-REENTRY). Hand 2: Carla reaches 105 while
        Anna (0) and Bruno (80) are still in, so she re-enters at the highest score still
        in, 80."""
        table = played(THREE, ["c 50 60", "c 30 45"], {"reentries": 1})
        view = table.view
        assert view["totals"] == view["match"]["totals"] == [0, 80, 80]
        assert view["hand_totals"] == [0, 80, 105]
        assert table.state.totals == (0, 80, 80)
        assert table.state.hand_totals == (0, 80, 105)

    def test_without_a_re_entry_the_hands_sum_is_not_repeated(self):
        view = played(TWO, TWO_ROWS[:2]).view
        assert view["totals"] == [40, 30]
        assert "hand_totals" not in view


class TestADeclinedReEntry:
    """S40-REENTRY: three players to 101, one re-entry each. Hand 1: Anna closes, Bruno
    holds 50, Carla 60 (0 50 60). Hand 2: Anna closes, Bruno 30, Carla 45: 0 80 105."""

    def test_taken_carla_re_enters_at_the_highest_score_still_in(self):
        match = played(THREE, ["c 50 60", "c 30 45"], {"reentries": 1}).view["match"]
        assert (match["totals"], match.get("out", []), match["finished"]) == (
            [0, 80, 80],
            [],
            False,
        )

    def test_declined_carla_is_out_and_places_last_s40_reentry(self):
        """Declining, Carla keeps 105 and is out: Anna 0 and Bruno 80 play on (places 1, 2,
        3). Hand 3: Bruno closes, Anna holds 101: out; Bruno, the last one in, wins."""
        table = played(THREE, ["c 50 60", "c 30 45x"], {"reentries": 1})
        match = table.view["match"]
        assert (match["totals"], match["out"], match["places"]) == ([0, 80, 105], [2], [1, 2, 3])
        assert [
            (i["rule"], i["seat"], i["points"], i["code"]) for i in table.last["result"]["items"]
        ][-1] == (
            "S40-REENTRY",
            2,
            0,
            "declined",
        )
        table.play(record(hand("101 c -")))
        match = table.view["match"]
        assert (match["winners"], match["places"], match["totals"]) == (
            [1],
            [2, 1, 3],
            [101, 80, 105],
        )

    @pytest.mark.parametrize(
        ("options", "rows", "after_hand"),
        [
            # Bruno ends hand 2 on 80, short of 101: no re-entry to decline.
            ({"reentries": 1}, ["c 50 60", "c 30x 45"], 2),
            # No re-entries at this table.
            ({}, ["c 50 60", "c 30 45x"], 2),
            # Two players: with Carla out only Anna stays in, so nobody re-enters.
            ({"reentries": 1}, ["c 60", "c 45x"], 2),
        ],
    )
    def test_a_decline_with_no_re_entry_to_decline_is_refused_s40_reentry(
        self, options, rows, after_hand
    ):
        seats = THREE if len(rows[0].split()) == 3 else TWO
        table = Table("scala40", seats, options)
        for row in rows[:-1]:
            table.play(record(hand(row)))
        violation = table.refused(record(hand(rows[-1])))
        assert (violation.rule, violation.code, violation.params["hand"]) == (
            "S40-REENTRY",
            "nothing_to_decline",
            after_hand,
        )
        assert len(table.view["hands"]) == len(rows) - 1
