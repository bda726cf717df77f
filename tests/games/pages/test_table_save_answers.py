"""What the pages answer: one answer for each kind of domain error on every page
(games/pages/errors.py), JSON for the offline outbox, and small htmx answers to a save."""

import re
import uuid
from dataclasses import dataclass

import pytest
from django.test import Client

from games.models import Table
from games.tournaments.models import Tournament
from tests.factories import PlayerFactory
from tests.games.pages.hand_form_keys import hand_form_keys as _keys
from tests.games.sharing import join_from
from tests.games.tournaments.helpers import NIGHT_FORM

# The most a stored save's htmx answer may weigh: the board, the history's new line and
# the form's fresh keys, never the whole form again (issue 22).
SAVE_ANSWER_BYTES = 8 * 1024

GIN = ("gin", ["Anna", "Bruno"], {"gin__preset": "big_gin", "gin__target": "100"})
GIN_HAND = {
    "mode": "quick",
    "knocker": "0",
    "ending": "knock",
    "knocker_count": "7",
    "defender_count": "20",
}
ILLEGAL_KNOCK = {**GIN_HAND, "knocker_count": "14"}  # GIN-KNOCK: 10 at most
RAMINO = ("ramino", ["Anna", "Bruno", "Carla", "Dario"], {"ramino__hands": "5"})
RAMINO_HAND = {
    "mode": "points",
    "p0_points": "0",
    "p0_went_out": "on",
    "p1_points": "25",
    "p2_points": "12",
    "p3_points": "40",
}


def _create(client: Client, variant: str, names: list[str], **options) -> Table:
    data = {"variant": variant, "players": str(len(names)), **options}
    data.update({f"player_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _gin(client: Client) -> Table:
    return _create(client, *GIN[:2], **GIN[2])


@pytest.fixture
def phone(db):
    return Client()


# --- One answer for each kind of domain error, on every page ---------------------------


@dataclass(frozen=True)
class Case:
    client: Client
    url: str
    data: dict
    trigger: str  # the id of the form that sends it (htmx says so in HX-Trigger)


def _viewer_records_a_hand(world) -> Case:
    phone, viewer = Client(), Client()
    table = _gin(phone)
    join_from(phone, viewer, table, "viewer")
    return Case(viewer, f"/t/{table.id}/hands/", {**_keys(phone, table), **GIN_HAND}, "hand-form")


def _rematch_in_play(world) -> Case:
    phone = Client()
    table = _gin(phone)
    return Case(phone, f"/t/{table.id}/rematch/", {}, "rematch")


def _member_adds_a_club_player(world) -> Case:
    member = Client()
    member.force_login(world.member)
    return Case(member, f"/clubs/{world.club.slug}/players/", {"name": "Zoe"}, "player-form")


def _night(world) -> tuple[Client, str]:
    director = Client()
    director.force_login(world.admin)
    PlayerFactory(club=world.club, actor=world.admin, name="Dario")
    director.post(f"/clubs/{world.club.slug}/n/new/", {**NIGHT_FORM, "league": world.league.pk})
    tournament = Tournament.objects.get(name="Gin night")
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    players = [p.pk for p in world.club.players.all()]
    assert director.post(url + "entrants/", {"players": players}).status_code == 302
    return director, url


def _round_while_tables_play(world) -> Case:
    director, url = _night(world)
    assert director.post(url + "rounds/").status_code == 302
    return Case(director, url + "rounds/", {}, "round-form")


def _entrant_state_unknown(world) -> Case:
    director, url = _night(world)
    entrant = Tournament.objects.get().entrants.first()
    return Case(director, url + f"entrants/{entrant.pk}/", {"state": "asleep"}, "entrant-form")


def _hand_on_an_old_head(world) -> Case:
    phone = Client()
    table = _gin(phone)
    stale = _keys(phone, table)
    phone.post(f"/t/{table.id}/hands/", {**_keys(phone, table), **GIN_HAND})
    # Another hand typed on the head before that one: hand 1 is no longer the next hand.
    return Case(phone, f"/t/{table.id}/hands/", {**stale, **GIN_HAND}, "hand-form")


def _ramino_deal(phone: Client) -> Table:
    table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ramino__hands="3")
    deal = {"event_id": str(uuid.uuid4()), "expected_seq": "1", "move": "deal", "dealer": "2"}
    assert phone.post(f"/t/{table.id}/moves/", {**deal, "upcard": "9D"}).status_code == 302
    return table


def _move_on_an_old_head(world) -> Case:
    phone = Client()
    table = _ramino_deal(phone)
    draw = {"event_id": str(uuid.uuid4()), "expected_seq": "1", "move": "draw_stock", "seat": "0"}
    return Case(phone, f"/t/{table.id}/moves/", draw, "move-form")


def _illegal_knock(world) -> Case:
    phone = Client()
    table = _gin(phone)
    return Case(
        phone, f"/t/{table.id}/hands/", {**_keys(phone, table), **ILLEGAL_KNOCK}, "hand-form"
    )


def _move_out_of_turn(world) -> Case:
    phone = Client()
    table = _ramino_deal(phone)
    draw = {"event_id": str(uuid.uuid4()), "expected_seq": "2", "move": "draw_stock", "seat": "1"}
    return Case(phone, f"/t/{table.id}/moves/", draw, "move-form")


# (how to get there, status, the JSON code, a piece of the message)
ERRORS = {
    "permission: a viewer records": (
        _viewer_records_a_hand,
        403,
        "permission_denied",
        "Only scorekeepers can record.",
    ),
    "permission: rematch in play": (
        _rematch_in_play,
        403,
        "permission_denied",
        "once this match is over",
    ),
    "permission: a member's club write": (
        _member_adds_a_club_player,
        403,
        "permission_denied",
        "owner and admins",
    ),
    "permission: a round too early": (
        _round_while_tables_play,
        403,
        "permission_denied",
        "still playing",
    ),
    "refusal: an entrant's unknown state": (
        _entrant_state_unknown,
        400,
        "refused",
        "Choose in, out or withdrawn.",
    ),
    "refusal: a rule, at a hand": (_illegal_knock, 422, "rule_violation", "GIN-KNOCK"),
    "refusal: a rule, at a move": (_move_out_of_turn, 422, "rule_violation", "RAM-TURN"),
    "conflict: a hand": (_hand_on_an_old_head, 409, "conflict", "Another phone has just"),
    "conflict: a move": (_move_on_an_old_head, 409, "conflict", "Someone else just recorded"),
}


@pytest.mark.parametrize("answer", ["page", "htmx", "json"])
@pytest.mark.parametrize("error", ERRORS.values(), ids=ERRORS.keys())
def test_each_kind_of_domain_error_is_answered_the_same_way_on_every_page(world, error, answer):
    make, status, code, text = error
    case = make(world)
    headers = {
        "page": {},
        "htmx": {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": case.trigger},
        "json": {"HTTP_ACCEPT": "application/json"},
    }[answer]
    response = case.client.post(case.url, case.data, **headers)
    assert response.status_code == status, response.content.decode()[:1500]
    if answer == "json":
        body = response.json()
        assert body["error"] == code
        if code != "conflict":  # a hand's conflict is told by the outbox in its own words
            assert text in body["detail"]
        return
    body = response.content.decode()
    assert text in body and 'role="alert"' in body
    if answer == "htmx":
        # A small alert for the slot of the form that sent it; the form is left as typed.
        assert response["HX-Retarget"] == f"#{case.trigger}-alert"
        assert response["HX-Reswap"] == "innerHTML"
        assert "<html" not in body and "<form" not in body
        assert len(response.content) < 2_000
    else:
        assert body.lstrip().startswith("<!doctype html>")


def test_nothing_is_stored_by_a_refused_or_overtaken_save(world):
    for make in (_illegal_knock, _hand_on_an_old_head, _viewer_records_a_hand):
        case = make(world)
        table = Table.objects.get(pk=case.url.split("/")[2])
        before = table.events.count()
        case.client.post(case.url, case.data, HTTP_HX_REQUEST="true")
        assert table.events.count() == before


# --- The offline outbox speaks JSON ----------------------------------------------------


def test_a_stored_save_answers_the_outbox_with_its_seq_and_the_head(phone):
    table = _gin(phone)
    response = phone.post(
        f"/t/{table.id}/hands/",
        {**_keys(phone, table), **GIN_HAND},
        HTTP_ACCEPT="application/json",
    )
    table.refresh_from_db()
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    stored = table.events.get(type="hand_recorded")
    assert response.json() == {"ok": True, "seq": stored.seq, "head": table.head_seq}


def test_an_overtaken_save_tells_the_outbox_the_head_to_send_it_on(phone):
    table = _gin(phone)
    stale = _keys(phone, table)
    phone.post(f"/t/{table.id}/hands/", {**_keys(phone, table), **GIN_HAND})
    response = phone.post(
        f"/t/{table.id}/hands/", {**stale, **GIN_HAND}, HTTP_ACCEPT="application/json"
    )
    table.refresh_from_db()
    assert response.status_code == 409
    assert response.json()["head_seq"] == table.head_seq == 2
    # Sent again on that head, it is the next hand.
    again = phone.post(
        f"/t/{table.id}/hands/",
        {**stale, **GIN_HAND, "expected_seq": "2"},
        HTTP_ACCEPT="application/json",
    )
    assert again.status_code == 200 and again.json()["seq"] == 3


def test_a_form_error_names_its_field_for_the_outbox(phone):
    table = _gin(phone)
    data = {**_keys(phone, table), **GIN_HAND, "knocker": "7"}
    response = phone.post(f"/t/{table.id}/hands/", data, HTTP_ACCEPT="application/json")
    body = response.json()
    assert response.status_code == 422 and body["error"] == "invalid"
    assert list(body["fields"]) == ["knocker"] and body["fields"]["knocker"]
    assert body["detail"].startswith("Who ended the hand")


def test_the_board_gives_the_outbox_each_boxs_name_and_total_as_data(phone):
    table = _gin(phone)
    phone.post(f"/t/{table.id}/hands/", {**_keys(phone, table), **GIN_HAND})
    page = phone.get(f"/t/{table.id}/").content.decode()
    boxes = re.findall(r'data-seat="(\d)" data-name="([^"]*)" data-total="(-?\d+)"', page)
    # Anna knocked on 7 against Bruno's 20: 13 points (GIN-SCORE-KNOCK).
    assert boxes == [("0", "Anna", "13"), ("1", "Bruno", "0")]
    assert 'data-head-seq="2"' in page


# --- A save's htmx answer is small -----------------------------------------------------


@pytest.mark.parametrize(
    ("game", "hand"), [(GIN, GIN_HAND), (RAMINO, RAMINO_HAND)], ids=["gin-2", "ramino-4"]
)
def test_a_quick_hand_saves_answer_holds_the_board_and_news_not_the_form(phone, game, hand):
    variant, names, options = game
    table = _create(phone, variant, names, **options)
    for number in range(1, 5):
        response = phone.post(
            f"/t/{table.id}/hands/", {**_keys(phone, table), **hand}, HTTP_HX_REQUEST="true"
        )
        body = response.content.decode()
        assert response.status_code == 200
        assert len(response.content) <= SAVE_ANSWER_BYTES
        assert body.lstrip().startswith('<section id="board"') and f'id="hand-{number}"' in body
        # The form stays on the page: only its keys come, and the chart is asked for after.
        assert 'id="hand-form"' not in body and 'id="hand-form-keys"' in body
        assert f"/t/{table.id}/chart/?head={number + 1}" in body


def test_the_chart_a_save_asks_for_is_the_tables(phone):
    table = _gin(phone)
    phone.post(f"/t/{table.id}/hands/", {**_keys(phone, table), **GIN_HAND})
    chart = phone.get(f"/t/{table.id}/chart/?head=2", HTTP_HX_REQUEST="true")
    assert chart.status_code == 200 and 'data-testid="chart"' in chart.content.decode()
    assert Client().get(f"/t/{table.id}/chart/").status_code == 404  # no key, no chart
