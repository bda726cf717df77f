"""A Burraco pairs night run from the director's pages: pairs of club players, Mitchell and
Danese rounds by the night's plan, each match three hands turned into victory points (VP) by
the federation's 3-hand table, the standings by VP, points difference and head to head."""

import re

import pytest
from django.test import Client

from tests.games.tournaments.pairs_helpers import (
    meetings,
    pair_ids,
    pairs_night,
    play_match,
    tables_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(world, burraco_game):
    client = Client()
    client.force_login(world.admin)
    return client


def _play_round(tournament, number: int, differences: dict[int, int]) -> None:
    """Play round ``number``: table n's North–South ahead by ``differences[n]``."""
    tables = tables_of(tournament, number)
    assert sorted(tables) == sorted(differences)
    for table, difference in differences.items():
        play_match(tables[table], difference)


def _standings(page: str) -> list[tuple[str, str, str, str]]:
    """Return the standings table's rows: (rank, pair, VP, points difference)."""
    rows = re.findall(
        r'<td>(\d+)</td>\s*<th scope="row"><span data-testid="name">([^<]+)</span>.*?'
        r'data-testid="vp">([^<]+)<.*?data-testid="points-difference">([^<]+)<',
        page,
        re.S,
    )
    return [(rank, name.replace("&amp;", "&"), vp, diff) for rank, name, vp, diff in rows]


def _name(number: int) -> str:
    return f"P{number} a & P{number} b"


class TestAnEightPairNightWorkedByHand:
    """8 pairs, 4 tables, "3 Mitchell + 1 Danese", matches of 3 hands, FIBur 3-hand table:
    10–10 up to 50, 11–9 up to 150, 12–8 up to 250, 13–7 up to 350, 14–6 up to 500, 15–5 up
    to 650, 16–4 up to 800, 17–3 up to 1000, 18–2 up to 1250, 19–1 up to 1500, 20–0 above.

    Mitchell lines by pair number: NS 1, 3, 5, 7 stay at tables 1–4; EW 2, 4, 6, 8 start at
    tables 1–4 and move one table up each round:

    round 1: 1–2, 3–4, 5–6, 7–8    round 2: 1–8, 3–2, 5–4, 7–6    round 3: 1–6, 3–8, 5–2, 7–4

    Results (NS's points difference → NS–EW VP):
    round 1: 1–2 +300 → 13–7;  3–4 0 → 10–10;  5–6 −600 → 5–15;  7–8 +100 → 11–9
    round 2: 1–8 +1100 → 18–2; 3–2 0 → 10–10;  5–4 +400 → 14–6;  7–6 −50 → 10–10
    round 3: 1–6 −700 → 4–16;  3–8 +150 → 11–9; 5–2 0 → 10–10;   7–4 +1600 → 20–0

    After 3 rounds (VP; difference): 1: 13+18+4 = 35; +300+1100−700 = +700.
    2: 7+10+10 = 27; −300. 3: 10+10+11 = 31; +150. 4: 10+6+0 = 16; −400−1600 = −2000.
    5: 5+14+10 = 29; −600+400 = −200. 6: 15+10+16 = 41; +600+50+700 = +1350.
    7: 11+10+20 = 41; +100−50+1600 = +1650. 8: 9+2+9 = 20; −100−1100−150 = −1350.
    Order: 7 (41, +1650), 6 (41, +1350), 1, 3, 5, 2, 8, 4.

    Round 4, Danese: 7 has met 6 (round 2), so 7–1; then 6–3; 5 has met 2 (round 3), so
    5–8; 2–4 (never met). Results: 7–1 −300 → 7–13; 6–3 +250 → 12–8; 5–8 +250 → 12–8;
    2–4 +200 → 12–8.

    Final: 6: 53, +1600 → 1st. 7: 48, +1350 and 1: 48, +1000: the difference puts 7 2nd,
    1 3rd. 5: 41, +50 → 4th. 2: 27+12 = 39, −300+200 = −100 and 3: 31+8 = 39,
    +150−250 = −100: level on both, and their one meeting (round 2) was 0 points either way
    → they share 5th. 8: 28, −1600 → 7th. 4: 24, −2200 → 8th.
    """

    ROUNDS = {
        1: ({1: (1, 2), 2: (3, 4), 3: (5, 6), 4: (7, 8)}, {1: 300, 2: 0, 3: -600, 4: 100}),
        2: ({1: (1, 8), 2: (3, 2), 3: (5, 4), 4: (7, 6)}, {1: 1100, 2: 0, 3: 400, 4: -50}),
        3: ({1: (1, 6), 2: (3, 8), 3: (5, 2), 4: (7, 4)}, {1: -700, 2: 150, 3: 0, 4: 1600}),
        4: ({1: (7, 1), 2: (6, 3), 3: (5, 8), 4: (2, 4)}, {1: -300, 2: 250, 3: 250, 4: 200}),
    }

    def test_the_rounds_pair_as_worked_and_the_standings_come_out_as_worked(self, world, director):
        tournament, url = pairs_night(world, director, 8)
        numbers = pair_ids(tournament)
        for number, (tables, differences) in self.ROUNDS.items():
            response = director.post(url + "rounds/")
            assert response.status_code == 302, response.content.decode()[:2000]
            assert meetings(tournament, number, numbers) == tables
            _play_round(tournament, number, differences)
        page = director.get(url).content.decode()
        assert _standings(page) == [
            ("1", _name(6), "53", "1600"),
            ("2", _name(7), "48", "1350"),
            ("3", _name(1), "48", "1000"),
            ("4", _name(5), "41", "50"),
            ("5", _name(2), "39", "-100"),
            ("5", _name(3), "39", "-100"),
            ("7", _name(8), "28", "-1600"),
            ("8", _name(4), "24", "-2200"),
        ]
