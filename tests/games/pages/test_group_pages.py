"""Groups through the pages: a family's circle, its players, tables seated in one tap, and
the phones that join it by the same links and codes as a table."""

import re

import pytest
from django.test import Client

from games.models import Group, Player, Table
from tests.games.sharing import join_by_link, join_from, share_link

GIN = {
    "variant": "gin",
    "gin__preset": "big_gin",
    "gin__target": "100",
    "gin__no_rediscard": "on",
    "gin__wall": "on",
}


def _start_group(phone: Client, names="Anna\nBruno\nCarla", **extra) -> Group:
    response = phone.post("/g/new/", {"name": "Sunday at Nonna's", "names": names, **GIN, **extra})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Group.objects.get(pk=response.url.split("/")[2])


def _ids(group: Group, *names: str) -> list[int]:
    return [group.players.get(name=name).pk for name in names]


def _group_share(phone: Client, group: Group) -> str:
    response = phone.get(f"/g/{group.pk}/share/")
    assert response.status_code == 200
    return response.content.decode()


class TestStartingAGroup:
    def test_the_group_keeps_its_players_and_game_and_its_maker_is_a_member(self, phone):
        group = _start_group(phone)
        assert sorted(group.players.values_list("name", flat=True)) == ["Anna", "Bruno", "Carla"]
        assert group.variant == "gin" and group.options["preset"] == "big_gin"
        page = phone.get(f"/g/{group.pk}/").content.decode()
        assert "Sunday at Nonna" in page and 'data-testid="seat-picker"' in page
        title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
        assert title == "Sunday at Nonna&#x27;s · RummyRef"
        assert page.count('data-testid="group-export"') == 1
        # The home page lists it among this browser's groups.
        assert f"/g/{group.pk}/" in phone.get("/").content.decode()

    @pytest.mark.parametrize(
        ("names", "status", "message"),
        [
            ("Anna\nanna", 422, "is in the list twice"),
            ("\n".join(f"P{n}" for n in range(41)), 422, "at most 40 players"),
            ("Anna\n" + "x" * 41, 422, "at most 40 characters"),
            # A control character is refused before the view, naming the field.
            ("Anna\nBru\x07no", 400, "names"),
        ],
    )
    def test_bad_names_are_refused_by_the_field_and_nothing_is_stored(
        self, phone, names, status, message
    ):
        response = phone.post("/g/new/", {"name": "Family", "names": names, **GIN})
        assert response.status_code == status
        assert message in response.content.decode()
        assert not Group.objects.exists() and not Player.objects.exists()

    def test_a_stranger_sees_no_group(self, phone, db):
        group = _start_group(phone)
        assert Client().get(f"/g/{group.pk}/").status_code == 404
        assert Client().get("/g/999999/").status_code == 404


class TestSeatingATable:
    def test_chosen_players_are_the_same_player_at_every_table(self, phone):
        group = _start_group(phone)
        anna, bruno = _ids(group, "Anna", "Bruno")
        first = phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": [anna, bruno]})
        assert first.status_code == 302
        second = phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": [anna, bruno]})
        tables = Table.objects.filter(group=group)
        assert tables.count() == 2
        for table in tables:
            assert [s.player_id for s in table.seats.order_by("position")] == [anna, bruno]
        # The group's member key records at its tables: the maker's browser opens them.
        assert phone.get(second.url).status_code == 200
        assert Player.objects.filter(group=group).count() == 3

    def test_a_group_table_leads_to_its_group_and_book_for_a_phone_with_the_key(self, phone):
        group = _start_group(phone)
        seated = _ids(group, "Anna", "Bruno")
        table_url = phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": seated}).url
        page = phone.get(table_url).content.decode()
        link = re.search(r'data-testid="group-link">(.*?)</p>', page).group(1)
        assert f'href="/g/{group.pk}/"' in link and f'href="/g/{group.pk}/stats/"' in link
        # A phone given only the table's key is not sent to a group it cannot open.
        table = Table.objects.get(group=group)
        other = Client()
        join_from(phone, other, table, "viewer")
        assert other.get(table_url).status_code == 200
        assert 'data-testid="group-link"' not in other.get(table_url).content.decode()

    def test_the_last_seating_is_offered_first_and_takes_one_tap(self, phone):
        group = _start_group(phone)
        carla, bruno = _ids(group, "Carla", "Bruno")
        phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": [carla, bruno]})
        page = phone.get(f"/g/{group.pk}/").content.decode()
        form = re.search(r'<form[^>]*data-testid="same-seats".*?</form>', page, re.S).group(0)
        assert "Carla – Bruno" in form
        fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
        data: dict = {}
        for name, value in fields:
            data.setdefault(name, []).append(value)
        response = phone.post(f"/g/{group.pk}/tables/", data)
        assert response.status_code == 302
        table = Table.objects.filter(group=group).order_by("-created_at").first()
        assert [s.player.name for s in table.seats.order_by("position")] == ["Carla", "Bruno"]
        assert table.options["preset"] == "big_gin" and table.target == 100

    def test_a_game_that_seats_two_refuses_three_by_its_rule(self, phone):
        group = _start_group(phone)
        response = phone.post(
            f"/g/{group.pk}/tables/", {**GIN, "seated": _ids(group, "Anna", "Bruno", "Carla")}
        )
        assert response.status_code == 422
        assert not Table.objects.exists()

    def test_one_player_is_not_a_table(self, phone):
        group = _start_group(phone)
        response = phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": _ids(group, "Anna")})
        assert response.status_code == 422
        assert "at least two players" in response.content.decode()

    def test_another_game_chosen_becomes_the_groups_next_offer(self, phone):
        group = _start_group(phone)
        seated = _ids(group, "Anna", "Bruno", "Carla")
        response = phone.post(
            f"/g/{group.pk}/tables/", {"variant": "ramino", "ramino__hands": "3", "seated": seated}
        )
        assert response.status_code == 302
        group.refresh_from_db()
        assert group.variant == "ramino" and group.options["hands"] == 3


class TestRematch:
    def test_a_group_tables_rematch_seats_the_same_players_at_the_group(self, phone):
        group = _start_group(phone)
        anna, bruno = _ids(group, "Anna", "Bruno")
        single = {**GIN, "gin__target": "1"}
        table_url = phone.post(f"/g/{group.pk}/tables/", {**single, "seated": [anna, bruno]}).url
        page = phone.get(table_url).content.decode()
        event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
        hand = {"event_id": event_id, "expected_seq": "1", "mode": "quick"}
        hand.update(knocker="0", ending="gin", defender_count="10")
        assert phone.post(f"{table_url}hands/", hand).status_code == 302
        response = phone.post(f"{table_url}rematch/")
        assert response.status_code == 302
        rematch = Table.objects.get(pk=response.url.split("/")[2])
        # The same people, the next dealer first, still the group's: their stats follow.
        assert rematch.group == group
        assert [s.player_id for s in rematch.seats.order_by("position")] == [bruno, anna]
        assert Player.objects.filter(group=group).count() == 3
        assert not Player.objects.filter(group__isnull=True, club__isnull=True).exists()


class TestPlayers:
    def test_rename_follows_history_and_retire_keeps_it(self, phone):
        group = _start_group(phone)
        anna, bruno = _ids(group, "Anna", "Bruno")
        table_url = phone.post(f"/g/{group.pk}/tables/", {**GIN, "seated": [anna, bruno]}).url
        phone.post(f"/g/{group.pk}/players/{anna}/rename/", {"name": "Annalisa"})
        assert Table.objects.get().seats.get(position=0).player.name == "Annalisa"
        phone.post(f"/g/{group.pk}/players/{bruno}/retire/", {"retired": "1"})
        page = phone.get(f"/g/{group.pk}/").content.decode()
        picker = re.search(r'data-testid="seat-picker".*?</fieldset>', page, re.S).group(0)
        assert "Bruno" not in picker and "Annalisa" in picker
        assert phone.get(table_url).status_code == 200  # the table is still there
        phone.post(f"/g/{group.pk}/players/{bruno}/retire/", {"retired": "0"})
        assert Player.objects.get(pk=bruno).retired_at is None

    def test_a_name_the_group_has_is_refused_whatever_the_capitals(self, phone):
        group = _start_group(phone)
        response = phone.post(f"/g/{group.pk}/players/", {"name": "  CARLA "})
        assert response.status_code == 422
        assert "already has a player called CARLA" in response.content.decode()
        assert group.players.count() == 3
        (bruno,) = _ids(group, "Bruno")
        response = phone.post(f"/g/{group.pk}/players/{bruno}/rename/", {"name": "anna"})
        assert response.status_code == 422

    def test_the_41st_player_is_refused(self, phone):
        group = _start_group(phone, names="\n".join(f"P{n}" for n in range(40)))
        response = phone.post(f"/g/{group.pk}/players/", {"name": "Zoe"})
        assert response.status_code == 422
        assert group.players.count() == 40

    def test_a_player_of_another_group_is_not_found(self, phone):
        group = _start_group(phone)
        other = _start_group(phone, name="Other")
        (anna,) = _ids(other, "Anna")
        response = phone.post(f"/g/{group.pk}/players/{anna}/rename/", {"name": "X"})
        assert response.status_code == 404


class TestOtherPhones:
    def test_a_member_link_records_and_a_viewer_link_only_watches(self, phone):
        group = _start_group(phone)
        share = _group_share(phone, group)
        member, viewer = Client(), Client()
        joined = join_by_link(member, share_link(share, "scorekeeper"))
        assert joined.status_code == 302 and joined.url == f"/g/{group.pk}/"
        join_by_link(viewer, share_link(share, "viewer"))
        seated = _ids(group, "Anna", "Bruno")
        response = member.post(f"/g/{group.pk}/tables/", {**GIN, "seated": seated})
        assert response.status_code == 302
        table = Table.objects.get()
        # The viewer sees the group and its table, and may start nothing.
        assert viewer.get(f"/g/{group.pk}/").status_code == 200
        assert viewer.get(f"/t/{table.id}/").status_code == 200
        refused = viewer.post(f"/g/{group.pk}/tables/", {**GIN, "seated": seated})
        assert refused.status_code == 403
        assert Table.objects.count() == 1

    def test_a_group_code_typed_at_join_opens_the_group(self, phone):
        group = _start_group(phone)
        share = _group_share(phone, group)
        code = re.search(r'data-testid="code-viewer">([^<]+)<', share).group(1)
        other = Client()
        response = other.post("/join/", {"code": code.lower()})
        assert response.status_code == 302 and response.url == f"/g/{group.pk}/"
