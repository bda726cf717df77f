"""Burraco through the phone pages: a table of two pairs, partners across, each hand entered
one sheet a pair (games/pages/entries/pairs_sheet.py), the scoreboard one box a pair."""

import re

import pytest
from django.test import Client

from games.models import Event, Table
from games.tables import selectors
from tests.games.pages.pairs_pages import (
    api_table,
    create_table,
    hand_form,
    post_sheet,
    shown_total,
)


def _create(phone: Client, **options) -> Table:
    # The form offers every option filled in; a number of hands 0 plays to the target.
    return create_table(phone, "burraco", {"target": "2005", "hands": "0", **options})


# Anna & Carla close: 355 melded, a clean burraco, their pozzetto, nothing left in hand.
# Bruno & Dario: 180 melded, a dirty burraco, their pozzetto, 45 left in their hands.
CLOSED_HAND = {
    "s0_melded": "355",
    "s0_pulito": "1",
    "s0_pozzetto": "on",
    "s0_in_hand": "0",
    "s1_melded": "180",
    "s1_sporco": "1",
    "s1_pozzetto": "on",
    "s1_in_hand": "45",
    "closed": "0",
}


class TestASheetAPair:
    def test_the_board_shows_one_box_a_pair(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Anna &amp; Carla" in page and "Bruno &amp; Dario" in page
        assert 'data-players="2"' in page and 'name="s1_in_hand"' in page
        # Anna deals the first hand: her side's box says it is she who deals.
        assert re.search(r'data-testid="dealer">Anna: deals next<', page)
        # The semi-clean burraco is asked for only where the table plays it.
        assert 'name="s0_semipulito"' not in page

    def test_a_closed_hand_scores_each_pair_and_both_partners_carry_it(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        response = phone.post(f"/t/{table.id}/hands/", hand_form(page, **CLOSED_HAND))
        assert response.status_code == 302, response.content.decode()[:3000]
        # BUR-SCORE: Anna & Carla 355 + 200 (pulito, BUR-BURRACO) + 100 (BUR-CLOSE) = 655;
        # Bruno & Dario 180 + 100 (sporco) - 45 in hand = 235.
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert (shown_total(page, 0), shown_total(page, 1)) == ("655", "235")
        table.refresh_from_db()
        assert selectors.table_board(table=table).state["totals"] == [655, 235, 655, 235]

    def test_a_closing_without_a_burraco_is_refused_and_nothing_is_stored(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        fields = {**CLOSED_HAND, "s1_sporco": "0", "closed": "1"}
        response = phone.post(f"/t/{table.id}/hands/", hand_form(page, **fields))
        assert response.status_code == 422
        assert "BUR-CLOSE" in response.content.decode()
        assert Event.objects.filter(table=table).count() == 1

    def test_a_missing_count_is_asked_for_by_the_pairs_names(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        fields = {key: value for key, value in CLOSED_HAND.items() if key != "s1_in_hand"}
        response = phone.post(f"/t/{table.id}/hands/", hand_form(page, **fields))
        assert response.status_code == 422
        assert "Bruno &amp; Dario" in response.content.decode()
        assert Event.objects.filter(table=table).count() == 1

    def test_the_match_to_2005_is_won_by_the_pair(self, phone):
        table = _create(phone, target="600")
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", hand_form(page, **CLOSED_HAND))
        # BUR-MATCH: 655 reaches 600 after the first hand: Anna & Carla win together.
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Anna &amp; Carla wins the match!" in page

    def test_a_hand_is_corrected_with_its_sheet_filled_in(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", hand_form(page, **CLOSED_HAND))
        page = phone.get(f"/t/{table.id}/hands/1/amend/").content.decode()
        assert 'name="s0_melded"' in page and 'value="355"' in page and 'value="45"' in page

    @pytest.mark.parametrize("path", ["", "history/", "tv/", "chart/", "hands.csv", "rules/"])
    def test_every_page_of_the_table_answers_after_a_hand(self, phone, path):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", hand_form(page, **CLOSED_HAND))
        response = phone.get(f"/t/{table.id}/{path}")
        assert response.status_code == 200, path
        if path in ("", "history/"):
            # The hand's line names each pair once with its points, not each partner.
            page = response.content.decode()
            assert "Anna &amp; Carla +655 · Bruno &amp; Dario +235" in page
            # How it scored: each item names its pair (BUR-BURRACO: Anna & Carla's pulito).
            assert "Anna &amp; Carla +200:" in page and "Bruno &amp; Dario -45:" in page

    def test_the_chart_and_the_summary_speak_of_the_pairs(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", hand_form(page, **CLOSED_HAND))
        page = phone.get(f"/t/{table.id}/").content.decode()
        # The running totals' table: one column a pair, 655 and 235 after hand 1.
        chart = page[page.index("<table") : page.index("</table>")]
        assert chart.count("Anna &amp; Carla") == 1 and chart.count("655") == 1
        # A number of hands 0 plays to the target: the summary names the target alone.
        assert "Playing to 2005" in page and "0 hands" not in page

    def test_the_preview_scores_the_sheet_before_it_is_saved(self, phone):
        table = _create(phone, target="2005")
        page = phone.get(f"/t/{table.id}/").content.decode()
        response = phone.post(f"/t/{table.id}/hands/preview/", hand_form(page, **CLOSED_HAND))
        assert response.status_code == 200 and "655" in response.content.decode()
        assert Event.objects.filter(table=table).count() == 1


class TestTheApi:
    def test_a_pairs_table_is_played_through_the_api_and_names_its_sides(self, db):
        api, table = api_table("burraco", {"target": 600})
        sheet = {"melded": 355, "pulito": 1, "closed": True, "pozzetto": True, "in_hand": 0}
        other = {"melded": 180, "sporco": 1, "pozzetto": True, "in_hand": 45}
        event_id = "6c2a1d2e-5b7f-4f0c-9a61-2f1b3c4d5e6f"
        appended = post_sheet(api, table, 1, [sheet, other], event_id)
        assert appended.status_code == 201, appended.content
        state = api.get(f"/api/v1/tables/{table['id']}/state/").json()
        # BUR-SCORE: 355 + 200 + 100 = 655 and 180 + 100 - 45 = 235; BUR-MATCH: 655 passes
        # 600, and the pair wins: both partners' seats.
        assert state["sides"] == [[0, 2], [1, 3]]
        assert state["totals"] == [655, 235, 655, 235]
        assert state["finished"] and sorted(state["match"]["winners"]) == [0, 2]


def _pair_hand(winner_melded: int) -> dict:
    """A hand that pair 0 closes with a clean burraco; pair 1 melds 100 and keeps 50."""
    return {
        "mode": "sheet",
        "pairs": [
            {"melded": winner_melded, "pulito": 1, "closed": True, "pozzetto": True, "in_hand": 0},
            {"melded": 100, "pozzetto": True, "in_hand": 50},
        ],
    }


class TestTheBook:
    def test_a_players_page_gives_their_record_beside_each_partner(
        self, db, eager_celery, django_capture_on_commit_callbacks
    ):
        from tests.games.book_setup import group_make, play

        group, (ada, bea, cal, dan) = group_make("Ada", "Bea", "Cal", "Dan", variant="burraco")
        with django_capture_on_commit_callbacks(execute=True):
            # BUR-SCORE: pair 0 makes 300 + 200 + 100 = 600, reaching the target of 600;
            # pair 1 100 - 50 = 50. Ada & Cal win the first, Ada & Bea the second.
            play(
                [ada, bea, cal, dan],
                [_pair_hand(300)],
                group=group,
                variant="burraco",
                options={"target": 600},
            )
            play(
                [ada, cal, bea, dan],
                [_pair_hand(300)],
                group=group,
                variant="burraco",
                options={"target": 600},
            )
        page = (
            Client()
            .get(f"/g/{group.pk}/players/{ada.pk}/", HTTP_X_TABLE_KEY=group.viewer_key)
            .content.decode()
        )
        partners = page[page.index('class="standings book-partners"') :]
        rows = re.findall(r'data-partner="([^"]+)".*?data-col="record">([^<]+)<', partners, re.S)
        # Ada won once beside Bea and once beside Cal; Dan was always across.
        assert sorted(rows) == [("Bea", "1–0"), ("Cal", "1–0")]
        opponents = page[
            page.index('class="standings book-players"') : page.index(
                'class="standings book-partners"'
            )
        ]
        assert 'data-player="Dan"' in opponents


class TestTheReferee:
    def test_the_api_names_a_clean_burraco(self, db):
        from rest_framework.test import APIClient

        body = {"variant": "burraco", "cards": "7H 8H 9H 10H JH QH KH"}
        answer = APIClient().post("/api/v1/referee/meld/", body, format="json").json()
        # BUR-BURRACO: seven hearts in sequence, no wild: a clean burraco, 200.
        assert answer["valid"] and answer["burraco"] == "pulito" and answer["bonus"] == 200

    def test_the_api_refuses_a_second_wild(self, db):
        from rest_framework.test import APIClient

        body = {"variant": "burraco", "cards": "7H JK 9H 2C"}
        answer = APIClient().post("/api/v1/referee/meld/", body, format="json").json()
        # BUR-WILD: the joker stands for 8H; the 2 of clubs would be a second wild.
        assert not answer["valid"] and "BUR-WILD" in str(answer["violations"])

    def test_the_page_answers_a_meld_question(self, phone):
        data = {
            "variant": "burraco",
            "burraco__target": "2005",
            "burraco__hands": "0",
            "players": "4",
            "question": "meld",
            "cards": "7H 8H 9H 10H JH QH KH",
        }
        response = phone.post("/referee/", data)
        assert response.status_code == 200, response.content.decode()[-3000:]
        assert "BUR-BURRACO" in response.content.decode()
