"""Scala 40 on the pages, registered through its GameRules alone (docs/design.md, "Adding a
game"): the new-table form offers its five options, a hand is entered by points with its
flags, a seat out of the match is shown out and asked nothing, a re-entry is an item of the
match, the places come with the end, and the rules, the referee, a league and the room
screen read it like any other game (docs/rules.md, S40-*).

The match worked by hand (S40-SCORE, S40-HANDCLOSE, S40-MATCH, S40-REENTRY), to 101 with one
re-entry each, three players:

- hand 1: Anna closes; Bruno holds 60, Carla 30. Totals 0, 60, 30.
- hand 2: Carla closes; Anna 40, Bruno 45. Bruno reaches 105: he re-enters at the highest
  total still in, Anna's 40 (an item of -65). Totals 40, 40, 30.
- hand 3: Anna closes; Bruno 70, Carla 20. Bruno reaches 110 with no re-entry left: out.
  Totals 40, 110, 50.
- hand 4: Bruno sits out; Carla closes in hand, so Anna's 40 counts twice, 80: Anna reaches
  120, and with one player left in she cannot re-enter. Carla wins; Anna is second (out
  later), Bruno third.
"""

import re

from django.test import Client
from django.utils import translation

from games.models import League, Table
from games.rules.text import table_rules

OPTIONS = {
    "scala40__target": "101",
    "scala40__reentries": "1",
    "scala40__failed_opening_penalty": "20",
    "scala40__max_jokers_per_meld": "1",
}


def _create(client: Client, names=("Anna", "Bruno", "Carla"), **options) -> Table:
    data = {"variant": "scala40", "players": str(len(names)), **OPTIONS, **options}
    data.update({f"player_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _record(client: Client, table: Table, **fields):
    page = client.get(f"/t/{table.id}/").content.decode()
    data = {
        "event_id": re.search(r'name="event_id" value="([^"]+)"', page).group(1),
        "expected_seq": re.search(r'name="expected_seq" value="([^"]+)"', page).group(1),
        "mode": "points",
        **fields,
    }
    return client.post(f"/t/{table.id}/hands/", data)


def _total(page: str, seat: int) -> str:
    return re.search(rf'data-testid="total-{seat}">([^<]*)<', page).group(1)


def _to_elimination(phone, table):
    hands = [
        {"p0_went_out": "on", "p1_points": "60", "p2_points": "30"},
        {"p2_went_out": "on", "p0_points": "40", "p1_points": "45"},
        {"p0_went_out": "on", "p1_points": "70", "p2_points": "20"},
        {"p2_went_out": "on", "p2_hand_closed": "on", "p0_points": "40"},
    ]
    pages = []
    for fields in hands:
        response = _record(phone, table, **fields)
        assert response.status_code == 302, response.content.decode()[:3000]
        pages.append(phone.get(f"/t/{table.id}/").content.decode())
    return pages


class TestNewTable:
    def test_the_form_offers_scala40_with_its_five_options_and_rules(self, phone):
        page = phone.get("/").content.decode()
        assert 'name="variant" value="scala40"' in page and "Scala 40" in page
        options = page[page.index('data-testid="options-scala40"') :]
        options = options[: options.index("</details>")]
        for name in ("target", "reentries", "failed_opening_penalty", "max_jokers_per_meld"):
            assert f'name="scala40__{name}"' in options
        assert 'name="scala40__free_discard"' in options
        # S40-DISCARD binds a player not yet opened at a new table, unless unticked.
        check = options[options.index('name="scala40__unopened_discard_check"') :]
        assert "checked" in check[: check.index(">")]
        for value in ("101", "151", "201", "301", "501"):
            assert f'<option value="{value}"' in options
        for rule in ("S40-MATCH", "S40-REENTRY", "S40-OPEN-PENALTY", "S40-JOKER", "S40-DISCARD"):
            assert rule in options
        assert "Scala 40: 2 to 6 players." in page

    def test_a_table_plays_the_options_chosen(self, phone):
        table = _create(phone, scala40__target="151", scala40__free_discard="on")
        assert table.variant == "scala40" and table.seats.count() == 3
        assert table.options["target"] == 151 and table.options["reentries"] == 1
        assert table.options["free_discard"] is True
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Limit 151" in page and "1 re-entry" in page
        assert "Penalty points: lower is better." in page

    def test_an_option_out_of_its_bounds_is_refused_by_its_field(self, phone):
        data = {"variant": "scala40", "players": "3", **OPTIONS, "scala40__reentries": "4"}
        data |= {"player_1": "A", "player_2": "B", "player_3": "C"}
        response = phone.post("/", data)
        assert response.status_code == 422
        assert "Re-entries" in response.content.decode()
        assert not Table.objects.exists()

    def test_seven_players_are_refused(self, phone):
        # The form offers at most six names: a seventh player cannot even be asked for.
        page = phone.get("/").content.decode()
        assert 'name="player_6"' in page and 'name="player_7"' not in page


class TestAMatchToElimination:
    def test_the_match_worked_by_hand(self, phone):
        table = _create(phone)
        first, second, third, last = _to_elimination(phone, table)
        assert [_total(first, seat) for seat in range(3)] == ["0", "60", "30"]
        # S40-REENTRY: Bruno re-entered at Anna's 40, an item of the match shown at once.
        assert [_total(second, seat) for seat in range(3)] == ["40", "40", "30"]
        assert "Bruno -65: re-entry at the highest score still in" in second
        assert "S40-REENTRY" in second
        # S40-MATCH: Bruno is out, and the next hand's form asks nothing of him.
        assert [_total(third, seat) for seat in range(3)] == ["40", "110", "50"]
        assert 'data-testid="out-1"' in third and 'data-testid="out-0"' not in third
        assert 'data-testid="sits-out-1"' in third and 'name="p1_points"' not in third
        assert 'name="p0_points"' in third and 'name="p2_points"' in third
        # S40-HANDCLOSE doubled Anna's 40: she is out at 120, and Carla wins.
        assert [_total(last, seat) for seat in range(3)] == ["120", "110", "50"]
        assert "Carla wins the match!" in last
        places = {
            seat: re.search(rf'data-testid="place-{seat}">([^<]*)<', last).group(1)
            for seat in range(3)
        }
        assert places == {0: "place 2", 1: "place 3", 2: "place 1"}
        state = table.projection.state if hasattr(table, "projection") else None
        assert state is None or state["finished"]

    def test_a_declined_re_entry_puts_the_player_out_s40_reentry(self, phone):
        """As the match above, but in hand 2 Bruno (60 + 45 = 105) declines his re-entry:
        he is out on 105 and the next form asks nothing of him."""
        table = _create(phone)
        first = _record(phone, table, p0_went_out="on", p1_points="60", p2_points="30")
        assert first.status_code == 302
        form = phone.get(f"/t/{table.id}/").content.decode()
        assert 'name="p1_declines_reentry"' in form
        second = _record(
            phone, table, p2_went_out="on", p0_points="40", p1_points="45", p1_declines_reentry="on"
        )
        assert second.status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert [_total(page, seat) for seat in range(3)] == ["40", "105", "30"]
        assert "re-entry declined: out of the match" in page
        assert 'data-testid="out-1"' in page and 'name="p1_points"' not in page

    def test_a_table_without_re_entries_asks_for_no_decline(self, phone):
        table = _create(phone, scala40__reentries="0")
        assert 'declines_reentry"' not in phone.get(f"/t/{table.id}/").content.decode()
        assert "declines_reentry" not in phone.get("/referee/").content.decode()

    def test_amending_the_last_hand_keeps_the_seat_that_sat_out_out(self, phone):
        table = _create(phone)
        _to_elimination(phone, table)
        form = phone.get(f"/t/{table.id}/hands/4/amend/").content.decode()
        # Bruno sat hand 4 out: the correction asks nothing of him either.
        assert 'data-testid="sits-out-1"' in form and 'name="p1_points"' not in form
        data = {
            "event_id": re.search(r'name="event_id" value="([^"]+)"', form).group(1),
            "expected_seq": re.search(r'name="expected_seq" value="([^"]+)"', form).group(1),
            "mode": "points",
            "p0_points": "10",
            "p2_went_out": "on",
            "p2_hand_closed": "on",
            "reason": "recount",
        }
        assert phone.post(f"/t/{table.id}/hands/4/amend/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        # Anna's 10, doubled: 60, still in; the match goes on between Anna and Carla.
        assert [_total(page, seat) for seat in range(3)] == ["60", "110", "50"]
        assert 'data-testid="winner"' not in page and 'data-testid="out-1"' in page

    def test_a_seat_out_that_is_sent_points_anyway_is_ignored(self, phone):
        table = _create(phone)
        _to_elimination(phone, table)  # over after four hands
        fresh = _create(phone)
        for fields in (
            {"p0_went_out": "on", "p1_points": "60", "p2_points": "30"},
            {"p2_went_out": "on", "p0_points": "40", "p1_points": "45"},
            {"p0_went_out": "on", "p1_points": "70", "p2_points": "20"},
        ):
            assert _record(phone, fresh, **fields).status_code == 302
        # A forged post for Bruno, out of the match: the form knows he sits out.
        response = _record(phone, fresh, p0_points="10", p1_points="99", p2_went_out="on")
        assert response.status_code == 302
        page = phone.get(f"/t/{fresh.id}/").content.decode()
        assert [_total(page, seat) for seat in range(3)] == ["50", "110", "50"]

    def test_a_failed_opening_costs_the_tables_penalty(self, phone):
        table = _create(phone, scala40__failed_opening_penalty="30")
        response = _record(
            phone, table, p0_went_out="on", p1_points="12", p1_opening_penalty="1", p2_points="5"
        )
        assert response.status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        # S40-OPEN-PENALTY: 12 + 30.
        assert [_total(page, seat) for seat in range(3)] == ["0", "42", "5"]

    def test_the_tables_rules_list_its_options(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/rules/").content.decode()
        assert 'data-testid="at-table-S40-MATCH"' in page
        assert "Scala 40 match: out at 101; the last one in wins" in page
        assert 'data-testid="at-table-S40-REENTRY"' in page
        with translation.override("en"):
            lines = {rule: value for _title, value, rule in table_rules("scala40", table.options)}
        assert lines["S40-MATCH"] == "101" and lines["S40-REENTRY"] == "1"
        assert lines["S40-OPEN-PENALTY"] == "20" and "S40-DISCARD" not in lines

    def test_the_room_screen_shows_who_is_out(self, phone):
        table = _create(phone)
        for fields in (
            {"p0_went_out": "on", "p1_points": "60", "p2_points": "30"},
            {"p2_went_out": "on", "p0_points": "40", "p1_points": "45"},
            {"p0_went_out": "on", "p1_points": "70", "p2_points": "20"},
        ):
            _record(phone, table, **fields)
        page = phone.get(f"/t/{table.id}/tv/").content.decode()
        assert 'data-testid="tv-out-1"' in page and "Scala 40" in page


class TestEverywhereElse:
    def test_the_rules_pages_list_scala40_in_both_languages(self, db):
        for language, title in (("en", "Rules of Scala 40"), ("it", "Scala 40")):
            client = Client(headers={"accept-language": language})
            index = client.get("/rules/").content.decode()
            assert 'href="/rules/scala40/"' in index
            page = client.get("/rules/scala40/").content.decode()
            assert title in page and 'id="S40-REENTRY"' in page
            # Only its own rules and the shared ones: no other game's.
            assert 'id="RAM-OPEN"' not in page and 'id="MELD-SET"' in page
        # And no other game's page holds Scala 40's rules.
        assert 'id="S40-MATCH"' not in Client().get("/rules/ramino/").content.decode()

    def test_the_referee_page_asks_about_a_scala40_meld_with_its_options(self, client, db):
        page = client.get("/referee/").content.decode()
        assert 'value="scala40"' in page and 'name="scala40__max_jokers_per_meld"' in page
        data = {"variant": "scala40", "players": "3", "question": "meld", "cards": "7S JK JK"}
        one = client.post("/referee/", data).content.decode()
        two = client.post("/referee/", {**data, "scala40__max_jokers_per_meld": "2"})
        assert "S40-JOKER" in one and "Not legal" in one
        assert "Legal" in two.content.decode() and "Not legal" not in two.content.decode()

    def test_the_referee_scores_a_hand_closed_in_hand(self, client, db):
        data = {
            "variant": "scala40",
            "players": "2",
            "question": "score",
            "p0_name": "Anna",
            "p0_melded": "7S 8S 9S",
            "p0_went_out": "on",
            "p0_hand_closed": "on",
            "p1_name": "Bruno",
            "p1_hand": "KH 5C",
        }
        page = client.post("/referee/", data).content.decode()
        # S40-HANDCLOSE: Bruno's K♥ 5♣ = 15, doubled: 30.
        assert re.search(r"<th>Bruno</th><td>30</td>", page), page[-3000:]
        # Said in sentences, player by player.
        anna = re.search(r'data-testid="score-seat-0".*?</section>', page, re.S).group(0)
        bruno = re.search(r'data-testid="score-seat-1".*?</section>', page, re.S).group(0)
        assert "Anna: 0 points" in anna and "Anna went out." in anna
        assert "Bruno: 30 points" in bruno and "Left in hand: 15 points." in bruno
        assert "{'" not in page and "Legal" not in page

    def test_a_league_plays_scala40(self, db, django_user_model):
        from tests.games.clubs_setup import club_world

        world = club_world()
        admin = Client()
        admin.force_login(world.admin)
        response = admin.post(
            f"/clubs/{world.club.slug}/leagues/new/",
            {"name": "Scala del lunedì", "variant": "scala40", "players": "4", **OPTIONS},
        )
        assert response.status_code == 302, response.content.decode()[:3000]
        league = League.objects.get(name="Scala del lunedì")
        assert (league.variant, league.players) == ("scala40", 4)
        assert league.options["reentries"] == 1

    def test_the_stylesheet_shows_scala40s_fields_when_it_is_chosen(self, client, db):
        styles = client.get("/games.css")
        assert styles["Content-Type"].startswith("text/css")
        assert (
            'form:has(input[name=variant][value="scala40"]:checked) '
            '[data-game]:not([data-game~="scala40"])'
        ) in styles.content.decode()
