"""The referee page asks a hand's score of a game entered one sheet a side (Burraco's pairs):
each pair's melded points, burracos by kind, pozzetto, points in hand and who closed, in
the same form as the table's sheet; the engine's refusals are said by the box they name."""

import re

import pytest
from django.test import Client

BASE = {
    "variant": "burraco",
    "burraco__target": "2005",
    "burraco__hands": "0",
    # The players' list is hidden for a game of one table size: its default is sent.
    "players": "2",
    "question": "score",
}
# Pair 1 (seats 1 and 3) closes: 235 melded, a clean burraco, its pozzetto, nothing in hand.
# Pair 2: 120 melded, no burraco, its pozzetto, 45 left in its hands.
CLOSED = {
    "burraco__s0_melded": "235",
    "burraco__s0_pulito": "1",
    "burraco__s0_pozzetto": "on",
    "burraco__s0_in_hand": "0",
    "burraco__s1_melded": "120",
    "burraco__s1_pozzetto": "on",
    "burraco__s1_in_hand": "45",
    "burraco__closed": "0",
}


@pytest.fixture
def client(db):
    return Client()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&amp;", "&")


def _answer(page: str) -> str:
    start = page.index('id="answer"')
    return _text(page[start : page.index("</section>", start)])


def _box_error(page: str, name: str) -> str:
    pattern = rf'<span class="error"[^>]*id="id_{name}_error"[^>]*>(.*?)</span>'
    found = re.search(pattern, page, re.S)
    assert found, f"no error by the box {name}"
    return _text(found.group(1)).strip()


def _points(page: str) -> dict[str, str]:
    table = re.search(r'data-testid="points">(.*?)</table>', page, re.S).group(1)
    rows = re.findall(r"<th>(.*?)</th><td>(.*?)</td>", table)
    return {name.replace("&amp;", "&"): points for name, points in rows}


class TestTheSheetScored:
    def test_a_closed_hand_scores_each_pair_by_bur_score(self, client):
        """BUR-SCORE: pair 1 235 melded + 200 pulito (BUR-BURRACO) + 100 closing (BUR-CLOSE)
        - 0 in hand = 535; pair 2 120 melded - 45 in hand = 75, its pozzetto taken."""
        response = client.post("/referee/", {**BASE, **CLOSED})
        assert response.status_code == 200, _answer(response.content.decode())
        page = response.content.decode()
        assert _points(page) == {
            "Pair 1 (seats 1 & 3)": "535",
            "Pair 2 (seats 2 & 4)": "75",
        }
        answer = _answer(page)
        assert "Pair 1 (seats 1 & 3) +200: burraco pulito" in answer
        assert "Pair 1 (seats 1 & 3) +100: closing bonus" in answer
        assert "Pair 2 (seats 2 & 4) -45: cards left in hand" in answer

    def test_the_same_hand_in_italian(self, client):
        response = client.post("/referee/", {**BASE, **CLOSED}, HTTP_ACCEPT_LANGUAGE="it")
        assert response.status_code == 200
        page = response.content.decode()
        assert _points(page) == {
            "Coppia 1 (posti 1 & 3)": "535",
            "Coppia 2 (posti 2 & 4)": "75",
        }
        assert "Punti calati" in page and "Chi ha chiuso?" in page

    def test_a_pair_without_its_pozzetto_loses_100_and_no_one_closed(self, client):
        """BUR-POZZETTO, BUR-STOCK: the stock ran out (nobody closed); pair 2 never took its
        pozzetto: 120 - 45 - 100 = -25. Pair 1: 235 + 200 = 435, no closing bonus."""
        data = {**BASE, **CLOSED, "burraco__closed": "", "burraco__s1_pozzetto": ""}
        page = client.post("/referee/", data).content.decode()
        assert _points(page) == {
            "Pair 1 (seats 1 & 3)": "435",
            "Pair 2 (seats 2 & 4)": "-25",
        }


class TestRefusalsByTheirBoxes:
    def test_an_empty_box_is_asked_for_by_the_pairs_name(self, client):
        data = {**BASE, **CLOSED, "burraco__s1_melded": ""}
        response = client.post("/referee/", data)
        assert response.status_code == 400
        page = response.content.decode()
        assert _box_error(page, "burraco__s1_melded") == (
            "Enter points melded for Pair 2 (seats 2 & 4) (0 if none)."
        )
        assert 'aria-describedby="id_burraco__s1_melded_error"' in page
        assert 'data-testid="points"' not in page

    def test_a_box_past_its_bound_is_refused_by_the_box(self, client):
        response = client.post("/referee/", {**BASE, **CLOSED, "burraco__s0_pulito": "99"})
        assert response.status_code == 400
        assert "15" in _box_error(response.content.decode(), "burraco__s0_pulito")

    def test_the_engines_refusals_are_said_by_the_boxes_they_name(self, client):
        """BUR-BURRACO: a burraco pulito is seven cards worth 35 at least, so 20 melded cannot
        hold one; BUR-CLOSE: a pair closes only with its pozzetto taken."""
        data = {**BASE, **CLOSED, "burraco__s0_melded": "20", "burraco__s0_pozzetto": ""}
        response = client.post("/referee/", data)
        page = response.content.decode()
        assert "This hand cannot be scored as entered" in _answer(page)
        assert "worth 35 at least" in _box_error(page, "burraco__s0_melded")
        closed = re.search(r'id="id_burraco__closed_error"[^>]*>(.*?)</p>', page, re.S).group(1)
        assert "pozzetto" in _text(closed) and "BUR-CLOSE" in closed
        assert 'data-testid="points"' not in page

    def test_the_engines_refusals_in_italian(self, client):
        data = {**BASE, **CLOSED, "burraco__s0_melded": "20"}
        response = client.post("/referee/", data, HTTP_ACCEPT_LANGUAGE="it")
        page = response.content.decode()
        assert "Questa mano, così com'è scritta, non si può contare" in _answer(page)
        assert "valgono almeno 35" in _box_error(page, "burraco__s0_melded")
        assert "Coppia 1 (posti 1 &amp; 3)" in page

    def test_an_htmx_answer_brings_the_sheet_with_its_errors_out_of_band(self, client):
        data = {**BASE, **CLOSED, "burraco__s0_melded": "20"}
        response = client.post("/referee/", data, HTTP_HX_REQUEST="true")
        page = response.content.decode()
        # The answer swaps #answer; the sheet (and the side's score) come out of band.
        assert page.count('<section id="answer"') == 1 and "<html" not in page
        assert re.search(r'id="score-sheet"[^>]*hx-swap-oob="true"', page)
        assert "35" in _box_error(page, "burraco__s0_melded")


def test_a_game_entered_seat_by_seat_is_asked_each_seats_cards(client):
    """The sheet is drawn for the games entered one sheet a side only: the seat rows are
    another game's (data-game), and a Gin score still reads them."""
    page = client.get("/referee/").content.decode()
    sheet = re.search(r'id="score-sheet" data-game="([^"]*)"', page).group(1).split()
    assert sheet == ["burraco", "canasta"]
    seats = re.search(r'<div data-game="([^"]*)">\s*<label class="check"><input[^>]*stock', page)
    assert seats and "burraco" not in seats.group(1).split() and "gin" in seats.group(1).split()


def test_a_canasta_hand_is_scored_by_canastas_own_boxes(client):
    """Each sheet game brings its own boxes (GameRules.side_sheet). CAN-SCORE-1, CAN-OUT-1,
    CAN-RED3-1: pair 1 goes out with 620 melded, a natural canasta (500), one red 3 (100) and
    the going out (100): 620 + 500 + 100 + 100 = 1320. Pair 2: 150 melded, a red 3 counted for
    it since it melded (100), 85 left in hand: 150 + 100 - 85 = 165."""
    data = {
        "variant": "canasta",
        "players": "4",
        "question": "score",
        "canasta__s0_melded": "620",
        "canasta__s0_natural": "1",
        "canasta__s0_red_threes": "1",
        "canasta__s0_in_hand": "0",
        "canasta__s1_melded": "150",
        "canasta__s1_red_threes": "1",
        "canasta__s1_in_hand": "85",
        "canasta__went_out": "0",
        # Burraco's boxes, hidden for Canasta, are sent too and read by no one.
        "burraco__s0_melded": "999",
    }
    response = client.post("/referee/", data)
    assert response.status_code == 200, _answer(response.content.decode())
    assert _points(response.content.decode()) == {
        "Pair 1 (seats 1 & 3)": "1320",
        "Pair 2 (seats 2 & 4)": "165",
    }


def test_the_api_scores_the_same_sheet(client):
    """The API's score question takes the sides' sheets too (mode, pairs), the players
    naming the seats: 535 for seats 1 and 3, 75 for 2 and 4, as worked above."""
    from rest_framework.test import APIClient

    body = {
        "variant": "burraco",
        "players": [{"name": name} for name in ("Anna", "Bruno", "Carla", "Dario")],
        "mode": "sheet",
        "pairs": [
            {"melded": 235, "pulito": 1, "closed": True, "pozzetto": True, "in_hand": 0},
            {"melded": 120, "pozzetto": True, "in_hand": 45},
        ],
    }
    response = APIClient().post("/api/v1/referee/score/", body, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["valid"] and answer["points"] == [535, 75, 535, 75]
