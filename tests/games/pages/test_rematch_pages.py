"""A rematch the whole table follows: one per finished table whoever taps it, every phone on
the finished table moved on at its next poll with the role it held, the old page's way on
without JavaScript, the room screen, the account's claim, a night's table (none), the API."""

import html
import re
import uuid

import pytest
from django.test import Client

from games.models import KeyClaim, Table
from games.tables import heads
from games.tables import services as table_services
from tests.games.pages.test_pages import _create, _hand_data
from tests.games.sharing import join_from

pytestmark = pytest.mark.django_db


def _poll(phone: Client, table, name: str = "board") -> str:
    """Return the address the page's board (or room screen) polls, as htmx asks it."""
    path = f"/t/{table.id}/" if name == "board" else f"/t/{table.id}/tv/"
    page = phone.get(path).content.decode()
    return html.unescape(re.search(rf'id="{name}"[^>]*hx-get="([^"]+)"', page, re.S).group(1))


def _finish(phone: Client, table) -> None:
    """Anna's gin with Bruno on 30: 25 + 30 = 55, past the target of 50 (GIN-SCORE-GIN)."""
    page = phone.get(f"/t/{table.id}/").content.decode()
    data = _hand_data(page, knocker="0", ending="gin", defender_count="30")
    assert phone.post(f"/t/{table.id}/hands/", data).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def _role(phone: Client, table) -> str | None:
    """Return what ``phone`` may do at ``table``: record, watch, or nothing."""
    page = phone.get(f"/t/{table.id}/")
    if page.status_code == 404:
        return None
    return "scorekeeper" if "Record a hand" in page.content.decode() else "viewer"


@pytest.fixture
def table_of_three(db):
    """A finished Classic match to 50 followed by three phones: Anna's (which made it),
    Bruno's (joined as scorekeeper) and Carla's (joined as viewer), each with its poll."""
    anna, bruno, carla = Client(), Client(), Client()
    table = _create(anna, preset="classic", target="50")
    join_from(anna, bruno, table, "scorekeeper")
    join_from(anna, carla, table, "viewer")
    _finish(anna, table)
    polls = [_poll(phone, table) for phone in (anna, bruno, carla)]
    return table, (anna, bruno, carla), polls


class TestEveryPhoneFollows:
    def test_one_poll_moves_each_phone_on_with_the_role_it_held(self, table_of_three):
        table, (anna, bruno, carla), polls = table_of_three
        response = anna.post(f"/t/{table.id}/rematch/")
        rematch = Table.objects.get(rematch_of=table)
        assert response.status_code == 302 and response.url == f"/t/{rematch.id}/"
        for phone, poll in zip((bruno, carla), polls[1:], strict=True):
            moved = phone.get(poll, HTTP_HX_REQUEST="true")
            assert moved.status_code == 200
            assert moved["HX-Redirect"] == f"/t/{rematch.id}/"
        assert _role(anna, rematch) == "scorekeeper"
        assert _role(bruno, rematch) == "scorekeeper"
        assert _role(carla, rematch) == "viewer"
        assert carla.post(f"/t/{rematch.id}/hands/preview/", {}).status_code == 403

    def test_a_phone_without_access_gets_none_from_the_poll(self, table_of_three):
        table, (anna, _bruno, _carla), polls = table_of_three
        anna.post(f"/t/{table.id}/rematch/")
        rematch = Table.objects.get(rematch_of=table)
        stranger = Client()  # the watch token alone, as a copied address would carry
        assert stranger.get(polls[0], HTTP_HX_REQUEST="true").status_code == 404
        assert _role(stranger, rematch) is None

    def test_a_second_tap_from_a_stale_page_or_twice_opens_the_same_rematch(self, table_of_three):
        table, (anna, bruno, _carla), _polls = table_of_three
        first = anna.post(f"/t/{table.id}/rematch/").url
        assert anna.post(f"/t/{table.id}/rematch/").url == first
        # Bruno's page still shows the button: his tap posts the old form.
        assert bruno.post(f"/t/{table.id}/rematch/").url == first
        assert Table.objects.count() == 2
        assert _role(bruno, Table.objects.get(rematch_of=table)) == "scorekeeper"

    def test_the_idle_poll_cache_lets_the_rematch_through(self, table_of_three):
        table, (anna, bruno, _carla), polls = table_of_three
        heads.head_publish(table.id, table.head_seq)
        assert Client().get(polls[1], HTTP_HX_REQUEST="true").status_code == 204
        anna.post(f"/t/{table.id}/rematch/")
        assert bruno.get(polls[1], HTTP_HX_REQUEST="true").status_code == 200
        # A full view of the old page does not put its head back for idle polls.
        anna.get(f"/t/{table.id}/")
        assert heads.head_cached(table.id) == heads.RETIRED

    def test_the_old_page_shows_the_way_on_and_polls_no_more(self, table_of_three):
        table, (anna, _bruno, carla), _polls = table_of_three
        page = anna.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="rematch"' in page and 'data-testid="rematch-on"' not in page
        anna.post(f"/t/{table.id}/rematch/")
        rematch = Table.objects.get(rematch_of=table)
        page = carla.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="rematch-on"' in page and "The rematch is on" in page
        assert 'data-testid="rematch"' not in page
        board = re.search(r'<section id="board"[^>]*>', page).group(0)
        assert "hx-trigger" not in board
        # Without JavaScript the link opens it, with the viewer's role carried over.
        response = carla.get(f"/t/{table.id}/next/")
        assert response.status_code == 302 and response.url == f"/t/{rematch.id}/"
        assert _role(carla, rematch) == "viewer"

    def test_the_way_on_without_a_rematch_leads_back_to_the_table(self, table_of_three):
        table, (anna, _bruno, _carla), _polls = table_of_three
        response = anna.get(f"/t/{table.id}/next/")
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        assert Client().get(f"/t/{table.id}/next/").status_code == 404

    def test_the_room_screen_moves_on_too(self, table_of_three):
        table, (anna, _bruno, carla), _polls = table_of_three
        poll = _poll(carla, table, "tv-board")
        anna.post(f"/t/{table.id}/rematch/")
        rematch = Table.objects.get(rematch_of=table)
        moved = carla.get(poll, HTTP_HX_REQUEST="true")
        assert moved["HX-Redirect"] == f"/t/{rematch.id}/tv/"
        assert carla.get(moved["HX-Redirect"]).status_code == 200

    def test_an_accounts_claim_follows_the_phone(self, table_of_three, django_user_model):
        table, (anna, bruno, _carla), polls = table_of_three
        user = django_user_model.objects.create_user("bruno", password="pw-12345-xyz")
        bruno.force_login(user)
        bruno.post("/keys/claim/")
        assert KeyClaim.objects.get(user=user, table=table).role == "scorekeeper"
        anna.post(f"/t/{table.id}/rematch/")
        bruno.get(polls[1], HTTP_HX_REQUEST="true")
        rematch = Table.objects.get(rematch_of=table)
        assert KeyClaim.objects.get(user=user, table=rematch).role == "scorekeeper"


class TestTheQuickHandForm:
    def test_who_ended_the_last_hand_is_not_ticked_for_the_next(self, db):
        phone = Client()
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="1", ending="knock", knocker_count="3", defender_count="9")
        assert phone.post(f"/t/{table.id}/hands/", data).status_code == 302
        form = phone.get(f"/t/{table.id}/").content.decode()
        form = form[form.index('id="hand-form"') :]
        assert not re.search(r'name="knocker"[^>]*checked', form)
        # The way of entering it is kept: counts again.
        assert re.search(r'name="mode" value="quick"[^>]*checked', form)


def test_a_nights_table_has_no_rematch(world):
    """A night's next match is the director's next round (NIGHT-SWISS pairs it)."""
    from games.tournaments.models import RoundTable, Tournament
    from tests.factories import PlayerFactory
    from tests.games.tournaments.helpers import NIGHT_FORM, finish_gin_table

    director = Client()
    director.force_login(world.admin)
    PlayerFactory(club=world.club, actor=world.admin, name="Dario")
    url = f"/clubs/{world.club.slug}/n/"
    assert director.post(url + "new/", {**NIGHT_FORM, "league": world.league.pk}).status_code == 302
    night = Tournament.objects.get(name="Gin night")
    url = f"{url}{night.pk}/"
    director.post(url + "entrants/", {"players": [p.pk for p in world.club.players.all()]})
    assert director.post(url + "rounds/").status_code == 302
    table = RoundTable.objects.filter(round__tournament=night).first().table
    finish_gin_table(table.id)
    page = director.get(f"/t/{table.id}/").content.decode()
    assert 'data-testid="rematch"' not in page
    tables = Table.objects.count()
    refused = director.post(f"/t/{table.id}/rematch/")
    assert refused.status_code == 403
    assert "the director pairs the next round" in refused.content.decode()
    assert Table.objects.count() == tables


class TestTheApi:
    def test_a_tables_detail_names_its_rematch_and_what_it_continues(self, db):
        from tests.factories import TableFactory
        from tests.payloads import quick

        table = TableFactory(options={"preset": "classic", "target": 50})
        table_services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "gin", 0, 30),
        )
        api = Client()
        detail = api.get(f"/api/v1/tables/{table.id}/", HTTP_X_TABLE_KEY=table.viewer_key)
        assert detail.json()["rematch"] is None and detail.json()["rematch_of"] is None
        rematch = table_services.table_rematch(table_id=table.id)
        detail = api.get(f"/api/v1/tables/{table.id}/", HTTP_X_TABLE_KEY=table.viewer_key)
        assert detail.json()["rematch"] == str(rematch.id)
        mine = api.get(f"/api/v1/tables/{rematch.id}/", HTTP_X_TABLE_KEY=rematch.viewer_key)
        assert mine.json()["rematch_of"] == str(table.id) and mine.json()["rematch"] is None
        listed = api.get("/api/v1/tables/", HTTP_X_TABLE_KEY=table.viewer_key).json()
        assert [t["rematch"] for t in listed["results"]] == [str(rematch.id)]


def test_a_league_tables_rematch_is_the_seasons_and_its_watchers_follow(world):
    """Members record at the rematch as at any league table; a key's phone only watches it."""
    from tests.payloads import quick

    member, watcher = Client(), Client()
    member.force_login(world.member)
    table = world.table()
    join_from(member, watcher, table, "viewer")
    poll = _poll(watcher, table)
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=1,
        event_type="hand_recorded",
        payload=quick(0, "gin", 0, 30),
    )
    assert 'data-testid="rematch"' not in watcher.get(f"/t/{table.id}/").content.decode()
    response = member.post(f"/t/{table.id}/rematch/")
    rematch = Table.objects.get(rematch_of=table)
    assert response.url == f"/t/{rematch.id}/" and rematch.season_id == world.season.pk
    assert watcher.get(poll, HTTP_HX_REQUEST="true")["HX-Redirect"] == f"/t/{rematch.id}/"
    assert _role(watcher, rematch) == "viewer"
    assert _role(member, rematch) == "scorekeeper"
