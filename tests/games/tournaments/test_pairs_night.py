"""A Burraco pairs night run from the director's pages: pairs of club players, Mitchell and
Danese rounds by the night's plan, each match three hands turned into victory points (VP) by
the federation's 3-hand table, the standings by VP, points difference and head to head."""

import csv
import io
import re

import pytest
from django.test import Client

from games.tournaments import selectors
from games.tournaments.models import Tournament
from tests.games.tournaments.pairs_helpers import (
    meetings,
    pair_ids,
    pairs_night,
    play_match,
    tables_of,
)

# Pairs nights are Burraco nights: Burraco in the registry for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("burraco_game")]


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

    def _run(self, world, director, rounds=4):
        tournament, url = pairs_night(world, director, 8)
        numbers = pair_ids(tournament)
        for number in range(1, rounds + 1):
            tables, differences = self.ROUNDS[number]
            response = director.post(url + "rounds/")
            assert response.status_code == 302, response.content.decode()[:2000]
            assert meetings(tournament, number, numbers) == tables
            _play_round(tournament, number, differences)
        return tournament, url

    def test_the_rounds_pair_as_worked_and_the_standings_come_out_as_worked(self, world, director):
        _tournament, url = self._run(world, director)
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

    def test_the_director_s_page_shows_each_table_s_sides_and_vp(self, world, director):
        tournament, url = self._run(world, director, rounds=1)
        # Table 1's Burraco table: pair 1 at seats 0 and 2 (North, South), pair 2 at 1 and 3.
        seats = tables_of(tournament, 1)[1].table.seats.order_by("position")
        assert [seat.player.name for seat in seats] == ["P1 a", "P2 a", "P1 b", "P2 b"]
        page = director.get(url).content.decode()
        assert "3 Mitchell + 1 Danese, matches of 3 hands, VP by “FIBur 3 hands”" in page
        tables = re.findall(r'data-testid="round-table".*?</li>', page, re.S)
        assert len(tables) == 4
        # Table 1: pair 1 North–South beat pair 2 by 300, 13–7 (band 255–350).
        sides = re.findall(r'data-testid="side">([^<]+)<', tables[0])
        assert sides == ["North–South", "East–West"]
        assert f"{_name(1)} 13 VP, {_name(2)} 7 VP".replace("&", "&amp;") in tables[0]
        # Its running totals, one a pair: 3 hands of 100 each, North–South 300 ahead.
        assert f"{_name(1)} 600, {_name(2)} 300".replace("&", "&amp;") in tables[0]
        # Table 3: pair 6 (East–West) won by 600, 15–5.
        assert f"{_name(5)} 5 VP, {_name(6)} 15 VP".replace("&", "&amp;") in tables[2]

    def test_the_cards_room_screen_and_results_files_name_the_pairs(self, world, director):
        tournament, url = self._run(world, director)
        cards = director.get(url + "cards/").content.decode()
        # One score sheet a table: a column a pair, a line a hand (3), its total, the points
        # difference and its VP; under it the night's VP table, a line a band (11).
        assert cards.count('data-testid="score-sheet"') == 4
        sheet = cards.split('data-testid="score-sheet"')[1]
        assert sheet.count('data-testid="sheet-entrant"') == 2
        assert sheet.count('class="hand"') == 1 + 3 + 3
        vp_card = sheet.split('data-testid="card-vp-table"')[1].split("</table>")[0]
        assert "VP by the points difference (“FIBur 3 hands”)" in vp_card
        bands = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td></tr>", vp_card)
        assert len(bands) == 11
        assert bands[0] == ("0–50", "10–10") and bands[3] == ("255–350", "13–7")
        assert bands[-1] == ("≥ 1505", "20–0")
        assert "North–South: " + _name(7).replace("&", "&amp;") in cards
        director.post(url + "room-link/")
        tournament.refresh_from_db()
        board = Client().get(f"/room/{tournament.room_token}/").content.decode()
        assert _name(6).replace("&", "&amp;") in board and 'data-testid="room-seat"' in board
        assert director.post(url + "finish/").status_code == 302
        rows = list(csv.reader(io.StringIO(director.get(url + "results.csv").content.decode())))
        assert rows[0] == [
            "rank",
            "pair",
            "name",
            "victory_points",
            "points_difference",
            "played",
            "byes",
            "withdrawn",
        ]
        assert rows[1] == ["1", "6", _name(6), "53", "1600", "4", "0", "0"]
        assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4", "5", "5", "7", "8"]
        document = director.get(url + "results.json").json()
        assert document["night"]["plan"] == "3 Mitchell + 1 Danese"
        assert document["night"]["hands"] == 3
        assert document["night"]["vp_table"]["name"] == "FIBur 3 hands"
        first = document["standings"][0]
        assert first["pair"] == {"number": 6, "players": ["P6 a", "P6 b"]}
        assert (first["player"], first["victory_points"]) == (_name(6), 53)
        table = document["rounds"][0]["tables"][0]
        assert table["seats"] == [
            {"player": _name(1), "total": 600},
            {"player": _name(2), "total": 300},
        ]


def _difference(ns: int, ew: int) -> int:
    """A made-up but fixed result for a meeting of pairs ``ns`` and ``ew``: −300 to +300."""
    return 50 * ((ns * 7 + ew * 3) % 13 - 6)


class TestASixteenPairNight:
    """16 pairs, 8 tables, "3 Mitchell + 1 Danese", the 3-hand table."""

    def test_mitchell_rounds_move_east_west_up_then_danese_pairs_by_the_standings(
        self, world, director
    ):
        tournament, url = pairs_night(world, director, 16)
        numbers = pair_ids(tournament)
        met = set()
        for number in (1, 2, 3):
            assert director.post(url + "rounds/").status_code == 302
            tables = meetings(tournament, number, numbers)
            # NS pair 2t − 1 stays at table t; the EW pair that started at table s (pair 2s)
            # is at table s + number − 1, round the 8 tables.
            assert tables == {
                table: (2 * table - 1, 2 * ((table - number) % 8 + 1)) for table in range(1, 9)
            }
            for ns, ew in tables.values():
                met.add(frozenset((ns, ew)))
            _play_round(tournament, number, {t: _difference(*p) for t, p in tables.items()})
        # 3 rounds of 8 tables, nobody met twice.
        assert len(met) == 24
        tournament.refresh_from_db()
        order = [line.name for line in selectors.night_standings(tournament=tournament)]
        assert director.post(url + "rounds/").status_code == 302
        danese = meetings(tournament, 4, numbers)
        assert sorted(n for pair in danese.values() for n in pair) == list(range(1, 17))
        assert not met & {frozenset(pair) for pair in danese.values()}
        # The leader plays at table 1, North–South (the higher placed pair of the table).
        assert _name(danese[1][0]) == order[0]
        _play_round(tournament, 4, {t: _difference(*p) for t, p in danese.items()})
        assert director.post(url + "finish/").status_code == 302
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        standings = selectors.night_standings(tournament=tournament)
        # 32 matches, each giving 20 VP between its two pairs; every pair played 4.
        assert sum(line.row.victory_points for line in standings) == 32 * 20
        assert {line.row.played for line in standings} == {4}
        assert standings[0].row.rank == 1


class TestAPairsTableAndItsPlayers:
    def test_the_players_page_shows_the_pairs_standings_then_their_next_tables(
        self, world, director
    ):
        tournament, url = pairs_night(world, director, 4, plan="2 Mitchell")
        director.post(url + "rounds/")
        first = tables_of(tournament, 1)
        # Round 1: 1–2 at table 1, 3–4 at table 2. Pair 1 wins by 300 (13–7), 3–4 level.
        play_match(first[1], 300)
        play_match(first[2], 0)
        table = director.get(f"/t/{first[1].table_id}/").content.decode()
        assert f"{_name(1)}: #1, 13 VP".replace("&", "&amp;") in table
        night = director.get(f"/t/{first[1].table_id}/night/").content.decode()
        assert _name(2).replace("&", "&amp;") in night and 'data-testid="standing-row"' in night
        director.post(url + "rounds/")
        night = director.get(f"/t/{first[1].table_id}/night/").content.decode()
        # Round 2: EW one table up: 1–4 at table 1, 3–2 at table 2; pair 1 and 2's tables.
        nexts = re.findall(r'data-testid="next-table">(.*?)</p>', night, re.S)
        assert len(nexts) == 2
        assert "P4 a &amp; P4 b" in nexts[0] and "P2 a &amp; P2 b" in nexts[1]

    def test_the_director_scores_a_pairs_table_one_value_a_pair(self, world, director):
        tournament, url = pairs_night(world, director, 2, plan="1 Mitchell")
        director.post(url + "rounds/")
        pairing = tables_of(tournament, 1)[1]
        page = director.get(url).content.decode()
        # One VP field a pair, named after it.
        assert f'id="id_decide_{pairing.pk}_points_1"' in page
        assert f'id="id_decide_{pairing.pk}_points_2"' not in page
        response = director.post(
            url + f"tables/{pairing.pk}/decide/",
            {"decision": "score", "reason": "a card shown", "points_0": 14, "points_1": 6},
        )
        assert response.status_code == 302
        page = director.get(url).content.decode()
        assert re.findall(r'data-testid="vp">(\d+)<', page) == ["14", "6"]
        assert director.post(url + "finish/").status_code == 302
        results = director.get(url + "results/").content.decode()
        assert "Scored by the director (“a card shown”)" in results
        assert f"{_name(1)} 14, {_name(2)} 6".replace("&", "&amp;") in results


def test_the_director_s_page_in_italian_speaks_of_coppie_and_pv(world, director):
    tournament, url = pairs_night(world, director, 2, plan="1 Mitchell")
    director.post(url + "rounds/")
    play_match(tables_of(tournament, 1)[1], 100)
    page = director.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "1 Mitchell, incontri di 3 smazzate, PV secondo “FIBur 3 hands”" in page
    assert "Nord-Sud" in page and "Est-Ovest" in page and "Coppia 1:" in page
    assert f"{_name(1)} 11 PV, {_name(2)} 9 PV".replace("&", "&amp;") in page
    assert "A parità decide la differenza punti, poi lo scontro diretto" in page


def test_the_director_adjusts_a_pair_s_total_and_its_vp_follow(world, director):
    """Pair 1 wins by 100 (11–9, band 55–150); the director takes 100 from pair 1 for a
    slow play: level, 10–10. The adjustment names the pair, wherever it is shown."""
    tournament, url = pairs_night(world, director, 2, plan="1 Mitchell")
    director.post(url + "rounds/")
    pairing = tables_of(tournament, 1)[1]
    play_match(pairing, 100)
    page = director.get(url).content.decode()
    assert f'id="id_adjust_{pairing.pk}_seat"' in page
    assert re.findall(r'data-testid="vp">(\d+)<', page) == ["11", "9"]
    response = director.post(
        url + f"tables/{pairing.pk}/adjust/", {"seat": 0, "points": -100, "reason": "slow play"}
    )
    assert response.status_code == 302
    page = director.get(url).content.decode()
    assert re.findall(r'data-testid="vp">(\d+)<', page) == ["10", "10"]
    results = director.get(url + "results/").content.decode()
    assert "P1 a &amp; P1 b: -100 points, by the director (“slow play”)" in results
