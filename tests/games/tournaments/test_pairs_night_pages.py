"""A 16-pair Burraco night run wholly on the pages: the director creates it and enters its
pairs, starts each round and closes the night on the night's page; each match's three
hands are entered on its table's page, one sheet a pair, and confirmed there by its four
players. The night is the one tests/scoring/tournaments/test_burraco_pairs_night.py
(TestSixteenPairs) works by hand, with a Danese round's results added here."""

import re

import pytest

from games.tournaments.models import Tournament
from tests.games.tournaments.pairs_helpers import (
    enter_match,
    meetings,
    pair_ids,
    pairs_night,
    standings_rows,
    tables_of,
)

# Pairs nights are Burraco nights: Burraco in the registry for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("burraco_game")]


def _name(number: int) -> str:
    return f"P{number} a & P{number} b"


@pytest.mark.slow
class TestSixteenPairsThroughThePages:
    """16 pairs, "3 Mitchell + 1 Danese", matches of 3 hands, the federation's 3-hand table
    (10–10 to 50, 11–9 to 150, 12–8 to 250, 13–7 to 350, 14–6 to 500, 15–5 to 650, 16–4 to
    800, 17–3 to 1000, 18–2 to 1250, 19–1 to 1500, 20–0 above).

    Lines from the entry order: NS 1 3 … 15 at tables 1–8, EW 2 4 … 16 starting there and
    moving a table up each round. In every Mitchell round table 1's NS win by 1600 (20–0),
    2's by 1300 (19–1), 3's by 1100 (18–2), 4's by 900 (17–3), 5's by 700 (16–4), 6's by 600
    (15–5), 7's by 400 (14–6), and at table 8 EW win by 300 (13–7 to EW).

    After 3 rounds (the scoring test's figures): NS 1: 60 VP, 3: 57, 5: 54, 7: 51, 9: 48,
    11: 45, 13: 42, 15: 7 × 3 = 21. EW visit tables s, s+1, s+2: 2: 0+1+2 = 3, 4: 6, 6: 9,
    8: 12, 10: 15, 12: 5+6+13 = 24, 14: 6+13+0 = 19, 16: 13+0+1 = 14.
    Differences: NS three times their table's: 1: +4800, 3: +3900, 5: +3300, 7: +2700,
    9: +2100, 11: +1800, 13: +1200, 15: −900. EW: 2: −(1600+1300+1100) = −4000,
    4: −(1300+1100+900) = −3300, 6: −2700, 8: −2200, 10: −(700+600+400) = −1700,
    12: −600−400+300 = −700, 14: −400+300−1600 = −1700, 16: +300−1600−1300 = −2600.
    Standing: 1 3 5 7 9 11 13 12 15 14 10 16 8 6 4 2 (no two level on VP).

    Round 4, Danese: 1–3, 5–7, 9–11; 13 met 12 in round 2, so 13–15; 12–14, 10–16, 8–6, 4–2.
    Results (the first pair's points less the second's → VP): 1–3 +200 → 12–8; 5–7 −400 →
    6–14; 9–11 0 → 10–10; 13–15 +1000 → 17–3; 12–14 −100 → 9–11; 10–16 +250 → 12–8;
    8–6 +50 → 10–10; 4–2 −700 → 4–16.

    Final (VP; difference): 1: 72, +5000. 3: 65, +3700. 7: 51+14 = 65, +2700+400 = +3100.
    5: 60, +2900. 13: 59, +2200. 9: 58, +2100. 11: 55, +1800. 12: 33, −800. 14: 30, −1600.
    10: 27, −1450. 15: 24, −1900. 8: 22, −2150. 16: 22, −2850. 6: 19, −2750.
    2: 3+16 = 19, −4000+700 = −3300. 4: 10, −4000.
    3 and 7 level on 65: 3's difference is better, 2nd. 8 and 16 on 22: 8 first; 6 and 2 on
    19: 6 first. 32 matches × 20 = 640 VP in all, and the differences sum to 0.
    """

    MITCHELL = {1: 1600, 2: 1300, 3: 1100, 4: 900, 5: 700, 6: 600, 7: 400, 8: -300}
    ROUNDS = {
        1: {t: (2 * t - 1, 2 * t) for t in range(1, 9)},
        2: {1: (1, 16), **{t: (2 * t - 1, 2 * t - 2) for t in range(2, 9)}},
        3: {1: (1, 14), 2: (3, 16), **{t: (2 * t - 1, 2 * t - 4) for t in range(3, 9)}},
        4: {1: (1, 3), 2: (5, 7), 3: (9, 11), 4: (13, 15), 5: (12, 14), 6: (10, 16)}
        | {7: (8, 6), 8: (4, 2)},
    }
    DANESE = {1: 200, 2: -400, 3: 0, 4: 1000, 5: -100, 6: 250, 7: 50, 8: -700}
    FINAL = [
        (1, 72, 5000),
        (3, 65, 3700),
        (7, 65, 3100),
        (5, 60, 2900),
        (13, 59, 2200),
        (9, 58, 2100),
        (11, 55, 1800),
        (12, 33, -800),
        (14, 30, -1600),
        (10, 27, -1450),
        (15, 24, -1900),
        (8, 22, -2150),
        (16, 22, -2850),
        (6, 19, -2750),
        (2, 19, -3300),
        (4, 10, -4000),
    ]

    def test_the_night_comes_out_as_worked_by_hand(self, world, director):
        tournament, url = pairs_night(world, director, 16)
        numbers = pair_ids(tournament)
        for number, margins in ((1, self.MITCHELL), (2, self.MITCHELL), (3, self.MITCHELL)):
            assert director.post(url + "rounds/").status_code == 302
            assert meetings(tournament, number, numbers) == self.ROUNDS[number]
            for table, pairing in tables_of(tournament, number).items():
                enter_match(director, pairing, margins[table])
        assert director.post(url + "rounds/").status_code == 302
        assert meetings(tournament, 4, numbers) == self.ROUNDS[4]
        for table, pairing in tables_of(tournament, 4).items():
            enter_match(director, pairing, self.DANESE[table])
        assert director.post(url + "finish/").status_code == 302
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        expected = [
            (str(rank), _name(pair), str(vp), str(difference))
            for rank, (pair, vp, difference) in enumerate(self.FINAL, start=1)
        ]
        assert standings_rows(director.get(url).content.decode()) == expected
        assert sum(vp for _, vp, _ in self.FINAL) == 32 * 20
        assert sum(difference for *_, difference in self.FINAL) == 0
        results = director.get(url + "results/").content.decode()
        # The Danese's table 4: three hands of 100 each, pair 13 1000 ahead: 1300 to 300.
        assert "P13 a &amp; P13 b 1300 – P15 a &amp; P15 b 300" in results
        # Each table's VP printed with it: the Danese's table 4, 1000 ahead, 17–3 (805–1000).
        given = re.findall(r'data-testid="result-vp">([^<]+)<', results)
        assert len(given) == 32
        assert given[-5] == "P13 a &amp; P13 b 17 VP, P15 a &amp; P15 b 3 VP"
