"""Canasta through the phone pages and the API: a table of two sides, partners across, each
hand entered one sheet a side from the boxes Canasta declares (games/pages/entries/
pairs_sheet.py reads scoring/variants/canasta/__init__.py's SIDE_SHEET), a match of five
hands to 5000 (CAN-SCORE-1, CAN-MATCH-1), once in Italian."""

import re

from django.test import Client
from rest_framework.test import APIClient

from games.models import Event, Table
from games.tables import selectors
from tests.games.pages.pairs_pages import (
    api_table,
    create_table,
    hand_form,
    post_sheet,
    shown_total,
)

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it"}


def _create(phone: Client, **options) -> Table:
    options = {"target": "5000", "concealed_bonus": "on", "canastas_to_go_out": "1", **options}
    return create_table(phone, "canasta", options)


# Hand B, CAN-SCORE-1: Anna & Carla go out with 300 melded and a natural canasta:
# 300 + 500 + 100 = 900. Bruno & Dario melded 150, laid two red 3s, hold 45:
# 150 + 200 - 45 = 305.
HAND_B = {
    "s0_melded": "300",
    "s0_natural": "1",
    "s0_in_hand": "0",
    "s1_melded": "150",
    "s1_red_threes": "2",
    "s1_in_hand": "45",
    "went_out": "0",
}
# Hand A: Anna & Carla go out with 600 melded, two natural canastas and a mixed one, a red 3:
# 600 + 1000 + 300 + 100 + 100 = 2100. Bruno & Dario 200 melded, a mixed canasta, a red 3,
# 30 held: 200 + 300 + 100 - 30 = 570.
HAND_A = {
    "s0_melded": "600",
    "s0_natural": "2",
    "s0_mixed": "1",
    "s0_red_threes": "1",
    "s0_in_hand": "0",
    "s1_melded": "200",
    "s1_mixed": "1",
    "s1_red_threes": "1",
    "s1_in_hand": "30",
    "went_out": "0",
}


def _post(phone, table, fields, **headers):
    page = phone.get(f"/t/{table.id}/", **headers).content.decode()
    response = phone.post(f"/t/{table.id}/hands/", hand_form(page, **fields), **headers)
    assert response.status_code == 302, response.content.decode()[:3000]


class TestASheetASide:
    def test_the_sheet_has_canastas_boxes(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Anna &amp; Carla" in page and 'data-players="2"' in page
        for name in ("s0_natural", "s0_mixed", "s1_red_threes", "s1_concealed", "s0_in_hand"):
            assert f'name="{name}"' in page, name
        assert 'name="went_out"' in page and 'name="s0_pulito"' not in page

    def test_the_sheet_in_italian_names_canastas_terms(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/", **ITALIAN).content.decode()
        assert "Canaste pulite" in page and "Chi ha chiuso?" in page

    def test_going_out_without_a_canasta_is_refused_and_nothing_stored_can_out_1(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        fields = {**HAND_B, "s0_natural": "0"}
        response = phone.post(f"/t/{table.id}/hands/", hand_form(page, **fields))
        assert response.status_code == 422
        assert "CAN-OUT-1" in response.content.decode()
        assert Event.objects.filter(table=table).count() == 1

    def test_red_threes_count_against_a_side_that_melded_nothing_can_red3_1(self, phone):
        table = _create(phone)
        fields = {**HAND_B, "s1_melded": "0", "s1_red_threes": "1", "s1_in_hand": "60"}
        _post(phone, table, fields)
        page = phone.get(f"/t/{table.id}/").content.decode()
        # 900 for Anna & Carla; Bruno & Dario melded nothing: -100 - 60 = -160.
        assert (shown_total(page, 0), shown_total(page, 1)) == ("900", "-160")

    def test_a_match_of_five_hands_to_5000_can_match_1(self, phone):
        table = _create(phone)
        for number in range(4):
            _post(phone, table, HAND_B, **(ITALIAN if number == 2 else {}))
        page = phone.get(f"/t/{table.id}/").content.decode()
        # Four hands B: 4 x 900 = 3600 and 4 x 305 = 1220; no side at 5000 yet.
        assert (shown_total(page, 0), shown_total(page, 1)) == ("3600", "1220")
        assert "wins the match" not in page
        _post(phone, table, HAND_A, **ITALIAN)
        # Hand A: 3600 + 2100 = 5700 and 1220 + 570 = 1790: Anna & Carla pass 5000 and win.
        page = phone.get(f"/t/{table.id}/", **ITALIAN).content.decode()
        assert (shown_total(page, 0), shown_total(page, 1)) == ("5700", "1790")
        table.refresh_from_db()
        state = selectors.table_board(table=table).state
        assert state["totals"] == [5700, 1790, 5700, 1790]
        assert state["finished"]

    def test_a_hand_is_corrected_with_its_sheet_filled_in(self, phone):
        table = _create(phone)
        _post(phone, table, HAND_A)
        page = phone.get(f"/t/{table.id}/hands/1/amend/").content.decode()
        assert 'value="600"' in page and 'value="30"' in page
        assert re.search(r'name="went_out" value="0"[^>]*checked', page)


class TestTheAPI:
    def test_a_match_of_five_hands_to_5000_through_the_api_can_match_1(self, db):
        api, table = api_table("canasta", {"target": 5000})
        b = [
            {"melded": 300, "natural": 1, "went_out": True, "in_hand": 0},
            {"melded": 150, "red_threes": 2, "in_hand": 45},
        ]
        a = [
            {"melded": 600, "natural": 2, "mixed": 1, "red_threes": 1, "went_out": True},
            {"melded": 200, "mixed": 1, "red_threes": 1, "in_hand": 30},
        ]
        a[0]["in_hand"] = 0
        for seq, pairs in enumerate([b, b, b, b, a], start=1):
            event_id = f"6c2a1d2e-5b7f-4f0c-9a61-2f1b3c4d5e{seq:02d}"
            appended = post_sheet(api, table, seq, pairs, event_id)
            assert appended.status_code == 201, appended.content
        state = api.get(f"/api/v1/tables/{table['id']}/state/").json()
        # As on the pages: 4 x 900 + 2100 = 5700; 4 x 305 + 570 = 1790; over at hand 5.
        assert state["sides"] == [[0, 2], [1, 3]]
        assert state["totals"] == [5700, 1790, 5700, 1790]
        assert state["finished"] and sorted(state["match"]["winners"]) == [0, 2]

    def test_a_sheet_past_the_deck_is_refused_with_its_rule(self, db):
        api, table = api_table("canasta")
        pairs = [{"melded": 100, "red_threes": 3}, {"melded": 100, "red_threes": 2}]
        pairs = [{**p, "in_hand": 0} for p in pairs]
        response = post_sheet(api, table, 1, pairs, "6c2a1d2e-5b7f-4f0c-9a61-2f1b3c4d5e99")
        assert response.status_code in (400, 409, 422)
        assert "CAN-RED3-1" in response.content.decode()


class TestRefereeFirstMeld:
    """CAN-OPEN-1 asked of the referee: the page asks the side's score before the hand,
    which the API reads as ``total``."""

    ASK = {"variant": "canasta", "players": "4", "question": "opening"}

    def test_the_page_asks_the_sides_score_for_canasta_only(self, phone):
        page = phone.get("/referee/").content.decode()
        field = re.search(r'<div id="opening-total"[^>]*>', page).group(0)
        assert 'data-game="canasta"' in field and 'data-testid="opening-total"' in page

    def test_a_side_on_1600_needs_90_can_open_1(self, phone):
        # K K K 3 x 10 + 2 20 = 50, short of 90; with A A A 3 x 20 = 60 more, 110.
        ask = {**self.ASK, "melds": "KS KD KC 2H", "total": "1600"}
        page = phone.post("/referee/", ask).content.decode()
        assert "Not legal" in page and 'data-testid="value">50<' in page
        assert "<dt>Minimum</dt><dd>90</dd>" in page
        page = phone.post("/referee/", {**ask, "melds": "KS KD KC 2H\nAC AD AS"}).content.decode()
        assert "✓ Legal" in page and 'data-testid="value">110<' in page

    def test_a_missing_score_is_said_beside_its_field_and_nothing_answered(self, phone):
        response = phone.post("/referee/", {**self.ASK, "melds": "KS KD KC"})
        page = response.content.decode()
        assert response.status_code == 400 and "Not legal" not in page
        error = re.search(r'<span class="error"[^>]*id="id_total_error"[^>]*>([^<]*)<', page)
        assert "score before the hand" in error.group(1)
        assert 'aria-describedby="id_total_error"' in page

    def test_a_score_out_of_bounds_is_refused_beside_it_in_italian(self, phone):
        ask = {**self.ASK, "melds": "KS KD KC", "total": "2000000"}
        response = phone.post("/referee/", ask, HTTP_HX_REQUEST="true", **ITALIAN)
        page = response.content.decode()
        assert response.status_code == 400
        # The htmx answer sends the field again, out of band, its error beside it.
        assert re.search(r'<div id="opening-total"[^>]*hx-swap-oob="true"', page)
        assert 'data-testid="opening-total-error"' in page and "1000000" in page

    def test_the_api_reads_the_sides_total_can_open_1(self, db):
        body = {"variant": "canasta", "melds": ["KS KD KC 2H"], "total": 1600}
        response = APIClient().post("/api/v1/referee/opening/", body, format="json")
        # 50 against the 90 of a side on 1600 (50 would do on 0).
        answer = response.json()
        assert (answer["valid"], answer["value"], answer["minimum"]) == (False, 50, 90)
        body["total"] = 10_000_000
        assert APIClient().post("/api/v1/referee/opening/", body, format="json").status_code == 400
