"""Rummy40, Ramino and Knock Rummy through the phone pages (Django's test client)."""

import re

import pytest
from django.test import Client

from games.models import Event, Table
from tests.games.sharing import join_from


def _create(client: Client, variant: str, names: list[str], **options) -> Table:
    data = {"variant": variant, "players": str(len(names)), **options}
    data.update({f"player_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _hand_data(page: str, **fields) -> dict:
    """Read the hidden event fields from a rendered form and add the seats' fields."""
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, **fields}


def _total(page: str, seat: int) -> str:
    return re.search(rf'data-testid="total-{seat}">([^<]*)<', page).group(1)


@pytest.fixture
def phone(db):
    return Client()


# Anna goes out; Bruno and Carla are caught with cards in hand.
RAMINO_HAND = {
    "p0_hand": "",
    "p0_melded": "QS KS AS 7H 7D 7C",
    "p0_went_out": "on",
    "p1_hand": "KH QH 5C",
    "p2_hand": "JK 2D",
}


class TestNewTable:
    def test_the_home_form_offers_every_game_and_its_options(self, phone):
        page = phone.get("/").content.decode()
        for value in ("gin", "rummy40", "ramino", "knock_rummy"):
            assert f'name="variant" value="{value}"' in page
        assert 'name="player_6"' in page and 'name="knock_rummy__target"' in page
        assert "RAM-OPT-CASINO" in page and "R40-OPEN" in page

    def test_a_ramino_table_of_three_with_casino_scoring(self, phone):
        table = _create(
            phone,
            "ramino",
            ["Anna", "Bruno", "Carla"],
            ramino__hands="3",
            ramino__casino_scoring="on",
        )
        assert table.variant == "ramino" and table.seats.count() == 3
        assert table.options["casino_scoring"] is True and table.options["hands"] == 3
        assert table.options["short_deck"] is False
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Record a hand" in page and 'data-testid="total-2"' in page
        assert 'data-players="3"' in page

    def test_the_names_of_extra_players_are_ignored_for_gin(self, phone):
        table = _create(
            phone, "gin", ["Anna", "Bruno", "Carla"], gin__preset="big_gin", gin__target="100"
        )
        assert table.seats.count() == 2

    def test_a_rummy40_table_of_three_is_refused_with_its_rule(self, phone):
        response = phone.post(
            "/",
            {
                "variant": "rummy40",
                "players": "3",
                "player_1": "A",
                "player_2": "B",
                "player_3": "C",
                "rummy40__opening_minimum": "40",
                "rummy40__target": "100",
            },
        )
        assert response.status_code == 422
        assert "R40-SETUP" in response.content.decode()
        assert not Table.objects.exists()

    def test_a_missing_name_is_asked_for(self, phone):
        response = phone.post(
            "/",
            {"variant": "knock_rummy", "players": "3", "player_1": "A", "player_2": "B"},
        )
        assert response.status_code == 422
        assert "Enter a name for every player." in response.content.decode()


class TestRamino:
    def test_a_hand_by_cards_with_casino_scoring(self, phone):
        table = _create(
            phone,
            "ramino",
            ["Anna", "Bruno", "Carla"],
            ramino__hands="3",
            ramino__casino_scoring="on",
        )
        page = phone.get(f"/t/{table.id}/").content.decode()
        response = phone.post(f"/t/{table.id}/hands/", _hand_data(page, **RAMINO_HAND))
        assert response.status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        # RAM-OPT-CASINO values (Q♠ 40, ace 15, 10 J Q K 10, 2-9 5, joker 0):
        # RAM-SCORE: Bruno K♥ Q♥ 5♣ = 10+10+5 = 25, Carla 🃏 2♦ = 0+5 = 5; Anna gains 30.
        # Casino: Anna melded Q♠ K♠ A♠ 7♥ 7♦ 7♣ = 40+10+15+5+5+5 = 80, gained by her and
        # split between the other two, 40 each.
        # Anna 30+80 = 110; Bruno -25-40 = -65; Carla -5-40 = -45 (sum 0).
        assert (_total(page, 0), _total(page, 1), _total(page, 2)) == ("110", "-65", "-45")

    def test_amending_a_hand_prefills_the_seats_and_rescores(self, phone):
        table = _create(
            phone,
            "ramino",
            ["Anna", "Bruno", "Carla"],
            ramino__hands="3",
            ramino__casino_scoring="on",
        )
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", _hand_data(page, **RAMINO_HAND))
        form = phone.get(f"/t/{table.id}/hands/1/amend/").content.decode()
        assert 'value="KH QH 5C"' in form and 'value="QS KS AS 7H 7D 7C"' in form
        assert re.search(r'name="p0_went_out"[^>]*checked', form)
        data = _hand_data(form, **{**RAMINO_HAND, "p1_hand": "KH 5C", "reason": "recount"})
        assert phone.post(f"/t/{table.id}/hands/1/amend/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        # Bruno now holds K♥ 5♣ = 15: Anna 15+5+80 = 100, Bruno -15-40 = -55, Carla -45.
        assert (_total(page, 0), _total(page, 1), _total(page, 2)) == ("100", "-55", "-45")
        assert "recount" in page
        assert Event.objects.filter(table=table, type="hand_amended").count() == 1

    def test_a_second_phone_on_an_old_head_gets_409_and_the_form_back(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ramino__hands="3")
        other = Client()
        join_from(phone, other, table, "scorekeeper")
        page_a = phone.get(f"/t/{table.id}/").content.decode()
        page_b = other.get(f"/t/{table.id}/").content.decode()
        phone.post(f"/t/{table.id}/hands/", _hand_data(page_a, **RAMINO_HAND))
        response = other.post(
            f"/t/{table.id}/hands/",
            _hand_data(page_b, **{**RAMINO_HAND, "p1_hand": "9C"}),
            HTTP_HX_REQUEST="true",
        )
        body = response.content.decode()
        assert response.status_code == 409
        assert "Another phone has just recorded hand 1" in body
        assert 'name="expected_seq" value="2"' in body
        assert table.events.count() == 2


class TestRummy40:
    def test_a_failed_opening_costs_twenty_and_lower_is_better(self, phone):
        table = _create(
            phone,
            "rummy40",
            ["Anna", "Bruno"],
            rummy40__opening_minimum="40",
            rummy40__target="100",
        )
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "lower is better" in page
        data = _hand_data(
            page,
            p0_hand="",
            p0_melded="7S 8S 9S",
            p0_went_out="on",
            p1_hand="KH 5C",
            p1_opening_penalty="1",
        )
        response = phone.post(f"/t/{table.id}/hands/", data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content.decode()[:3000]
        # R40-END: Bruno adds K♥ 5♣ = 10+5 (R40-VALUE); R40-OPEN-PENALTY: one failed
        # opening, +20. Anna 0, Bruno 35.
        body = response.content.decode()
        assert (_total(body, 0), _total(body, 1)) == ("0", "35")
        assert "R40-OPEN-PENALTY" in body


class TestKnockRummy:
    def test_a_knock_over_five_is_refused_and_nothing_is_stored(self, phone):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno", "Carla"], knock_rummy__target="150")
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, p0_hand="KH 2C", p0_knocked="on", p1_hand="9C 9D", p2_hand="QS JS")
        response = phone.post(f"/t/{table.id}/hands/", data)
        body = response.content.decode()
        assert response.status_code == 422
        assert "KR-KNOCK" in body and 'value="KH 2C"' in body
        assert table.events.count() == 1


def test_a_knock_rummy_hand_entered_by_points_scores_like_cards(client, db):
    from games.tables import services as table_services

    table = table_services.table_create(
        variant="knock_rummy", options={}, players=["Anna", "Bruno", "Carla"]
    )
    client.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    page = client.get(f"/t/{table.id}/").content.decode()
    assert 'name="p0_points"' in page
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    data = {
        "event_id": event_id,
        "expected_seq": "1",
        "mode": "points",
        "p0_points": "4",
        "p0_knocked": "on",
        "p1_points": "2",
        "p2_points": "9",
    }
    assert client.post(f"/t/{table.id}/hands/", data).status_code == 302
    # KR-SCORE: Bruno's 2 beats 4 and 9 by 2 + 7 = 9; KR-UNDERCUT: he did not knock, +10.
    page = client.get(f"/t/{table.id}/").content.decode()
    assert 'data-testid="total-1">19<' in page
    # The next hand's form comes in points again, as the last one was entered.
    assert re.search(r'<input type="radio" name="mode" value="points"[^>]*checked', page)


def _dealer_tags(page: str) -> dict[int, str]:
    """Return the dealer tag's text by seat, read from the scoreboard's seat boxes."""
    seats = re.findall(r'<div class="seat[^"]*" data-seat="(\d)"[^>]*>(.*?)</div>', page, re.S)
    tags = {int(seat): re.search(r'data-testid="dealer">([^<]*)<', box) for seat, box in seats}
    return {seat: tag.group(1) for seat, tag in tags.items() if tag}


def _points_hand(*points: int, knocker: int) -> dict:
    players = [{"points": p} for p in points]
    players[knocker]["knocked"] = True
    return {"mode": "points", "players": players}


class TestWhoseDeal:
    def test_the_deal_goes_round_and_voiding_a_hand_does_not_take_it_back(self, phone, append):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno", "Carla"], knock_rummy__target="150")
        url = f"/t/{table.id}/"
        # Seat 0 deals the first hand; the deal passes on after every hand entered.
        assert _dealer_tags(phone.get(url).content.decode()) == {0: "deals next"}
        append(table, "hand_recorded", _points_hand(3, 10, 8, knocker=0))
        assert _dealer_tags(phone.get(url).content.decode()) == {1: "deals next"}
        # Voiding hand 1 does not undeal it: its cards were dealt, so Bruno still deals.
        append(table, "hand_voided", {"hand": 1, "reason": "misdeal"})
        assert _dealer_tags(phone.get(url).content.decode()) == {1: "deals next"}
        append(table, "hand_recorded", _points_hand(3, 10, 8, knocker=0))
        append(table, "hand_recorded", _points_hand(3, 10, 8, knocker=0))
        assert _dealer_tags(phone.get(url).content.decode()) == {0: "deals next"}

    def test_the_dealer_of_a_hand_played_move_by_move_is_shown_dealing_it(self, phone, append):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno", "Carla"], knock_rummy__target="150")
        append(table, "hand_started", {"dealer": 2})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert _dealer_tags(page) == {2: "dealt this hand"}

    def test_nobody_deals_once_the_match_is_over(self, phone, append):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno"], knock_rummy__target="20")
        # KR-SCORE: Anna knocks 3 against 30 and scores 27, past 20: the game is over.
        append(table, "hand_recorded", _points_hand(3, 30, knocker=0))
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="winner"' in page
        assert _dealer_tags(page) == {}
        assert 'data-testid="dealer"' not in page


class TestBoundedFields:
    def test_a_huge_knock_rummy_target_is_a_form_error_and_the_names_stay(self, client, db):
        response = client.post(
            "/",
            {
                "variant": "knock_rummy",
                "players": "3",
                "player_1": "Anna",
                "player_2": "Bruno",
                "player_3": "Carla",
                "knock_rummy__target": "99999999999999999999",
            },
        )
        page = response.content.decode()
        assert response.status_code == 422
        assert "Ensure this value is less than or equal to 1000000." in page
        assert 'value="Anna"' in page and 'value="Carla"' in page
        assert Table.objects.count() == 0


def test_points_left_empty_are_asked_for_by_name_not_read_as_going_out(client, db):
    from games.tables import services as table_services

    table = table_services.table_create(
        variant="ramino", options={"hands": 3}, players=["Anna", "Bruno", "Carla"]
    )
    client.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
    page = client.get(f"/t/{table.id}/").content.decode()
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    data = {
        "event_id": event_id,
        "expected_seq": "1",
        "mode": "points",
        "p1_went_out": "on",
        "p2_points": "12",
    }
    response = client.post(f"/t/{table.id}/hands/", data)
    assert response.status_code == 422
    body = response.content.decode()
    assert "Enter the points Anna holds (0 only for who went out)." in body
    assert "Carla" not in re.findall(r"Enter the points (\w+) holds", body)
    assert table.events.count() == 1
