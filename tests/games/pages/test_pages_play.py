"""A hand recorded move by move through the phone pages (Django's test client)."""

import re
import uuid

import pytest
from django.test import Client

from games.api.examples import KNOCK_RUMMY, RAMINO
from games.models import Event, Table
from games.pages.forms.play import MOVES
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    DISCARD_CLAIMED,
    HAND_STARTED,
    HANDS_SHOWN,
    MELDS_LAID,
    MOVE_UNDONE,
)
from tests.games.sharing import join_from

# What the home form needs for each game, unless a test says otherwise.
GAME_FIELDS = {
    "rummy40": {"r40_opening_minimum": "40", "r40_target": "100"},
    "ramino": {"ram_hands": "3"},
    "knock_rummy": {"kr_target": "150"},
}


def _create(client: Client, variant: str, names: list[str], **options) -> Table:
    data = {"variant": variant, "players": str(len(names)), **GAME_FIELDS[variant], **options}
    data.update({f"player_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _form_fields(event_type: str, payload: dict) -> dict:
    """Return the move form's fields that make the event, as a phone's buttons send them."""
    move = {
        (CARD_DRAWN, "stock"): "draw_stock",
        (CARD_DRAWN, "discard"): "draw_discard",
    }.get((event_type, payload.get("source")))
    if move is None:
        move = next(key for key, (kind, _) in MOVES.items() if kind == event_type)
    fields = {"move": move, "seat": payload.get("seat", "")}
    if event_type == HAND_STARTED:
        fields.update(dealer=payload.get("dealer", ""), upcard=payload.get("upcard", ""))
    elif event_type == DISCARD_CLAIMED:
        fields.update(claimer=payload["seat"], card=payload.get("card", ""))
    elif event_type == HANDS_SHOWN:
        fields["mode"] = payload["mode"]
        for seat, entry in enumerate(payload["players"]):
            if entry:
                fields[f"show_{seat}"] = entry.get("hand", "")
                fields[f"points_{seat}"] = entry.get("points", "")
    else:
        fields["card"] = payload.get("card", "")
        fields["cards"] = "\n".join(payload["melds"]) if "melds" in payload else ""
        fields["cards"] = fields["cards"] or payload.get("cards", payload.get("hand", ""))
        fields["meld"] = payload.get("meld", "")
    return fields


def _post_move(phone: Client, table: Table, event_type: str, payload: dict, **headers):
    table.refresh_from_db()
    data = {
        "event_id": str(uuid.uuid4()),
        "expected_seq": table.head_seq,
        **_form_fields(event_type, payload),
    }
    return phone.post(f"/t/{table.id}/moves/", data, **headers)


@pytest.fixture
def phone(db):
    return Client()


class TestAHandMoveByMove:
    def test_the_table_page_offers_to_deal_a_hand_to_play_move_by_move(self, phone):
        table = _create(phone, "rummy40", ["Anna", "Bruno"])
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="deal-form"' in page and 'name="upcard"' in page

    @pytest.mark.parametrize("sample", [RAMINO, KNOCK_RUMMY], ids=lambda s: s.variant)
    def test_every_move_of_a_worked_hand_goes_through_the_move_buttons(self, phone, sample):
        fields = {f"player_{n}": name for n, name in enumerate(sample.players, start=1)}
        prefix = {"ramino": "ram_", "knock_rummy": "kr_"}[sample.variant]
        options = {f"{prefix}{k}": ("on" if v is True else v) for k, v in sample.options.items()}
        table = _create(phone, sample.variant, list(sample.players), **options, **fields)
        for event_type, payload in sample.events:
            response = _post_move(phone, table, event_type, payload)
            assert response.status_code == 302, (event_type, response.content.decode()[:2000])
        events = list(Event.objects.filter(table=table).order_by("seq"))
        assert [e.type for e in events[1:]] == [t for t, _ in sample.events]
        assert [e.payload for e in events[1:]] == [p for _, p in sample.events]
        page = phone.get(f"/t/{table.id}/").content.decode()
        for seat, points in enumerate(sample.points):
            total = re.search(rf'data-testid="total-{seat}">([^<]*)<', page).group(1)
            assert int(total) == points

    def test_the_view_shows_whose_turn_the_stock_the_discard_and_hand_sizes(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ram_knock_claim="on")
        for event_type, payload in RAMINO.events[:4]:
            assert _post_move(phone, table, event_type, payload).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        # 110 cards - 3 x 13 dealt - the upcard - Anna's draw = 69 in the stock.
        assert re.search(r'data-testid="stock">69<', page)
        # Anna drew (14), laid Q K JK (11) and discarded 5C (10).
        assert re.search(r'data-testid="hand-size-0">10 cards<', page)
        assert "Bruno to draw." in page
        assert 'data-testid="discard-top"' in page and "5♣" in page
        # Carla may knock for Anna's discard before Bruno draws (RAM-OPT-KNOCKCLAIM).
        assert 'value="claim"' in page
        assert 'data-meld="1"' in page

    def test_a_refused_move_names_the_rule_and_stores_nothing(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 2, "upcard": "9D"})
        _post_move(phone, table, CARD_DRAWN, {"seat": 0, "source": "stock"})
        _post_move(phone, table, MELDS_LAID, {"seat": 0, "melds": ["2H 3H 4H"]})
        before = Event.objects.filter(table=table).count()
        # 2 + 3 + 4 = 9 points: below Ramino's 30 (RAM-OPEN), and the turn cannot end so.
        response = _post_move(phone, table, CARD_DISCARDED, {"seat": 0, "card": "KD"})
        assert response.status_code == 422
        assert "RAM-OPEN" in response.content.decode()
        assert Event.objects.filter(table=table).count() == before

    def test_a_move_by_the_wrong_seat_is_refused_with_the_turn_rule(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 2, "upcard": "9D"})
        response = _post_move(phone, table, CARD_DRAWN, {"seat": 1, "source": "stock"})
        assert response.status_code == 422
        assert "RAM-TURN" in response.content.decode()

    def test_taking_back_a_move_restores_the_hand(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 2, "upcard": "9D"})
        _post_move(phone, table, CARD_DRAWN, {"seat": 0, "source": "discard"})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="hand-size-0">14 cards<' in page
        response = _post_move(phone, table, MOVE_UNDONE, {"reason": "wrong pile"})
        assert response.status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="hand-size-0">13 cards<' in page
        assert Event.objects.filter(table=table, type=MOVE_UNDONE).count() == 1

    def test_while_a_hand_is_played_move_by_move_the_whole_hand_form_is_hidden(self, phone):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 0})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'id="hand-form"' not in page and 'data-testid="move-form"' in page

    def test_a_viewer_sees_the_hand_but_no_buttons(self, phone, client):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 0})
        join_from(phone, client, table, "viewer")
        page = client.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="play"' in page and 'data-testid="move-form"' not in page
        assert "Bruno to draw." in page
        response = _post_move(client, table, CARD_DRAWN, {"seat": 1, "source": "stock"})
        assert response.status_code == 403

    def test_a_stale_phone_is_told_someone_else_just_recorded(self, phone):
        table = _create(phone, "knock_rummy", ["Anna", "Bruno"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 0})
        data = {
            "event_id": str(uuid.uuid4()),
            "expected_seq": 1,
            **_form_fields(CARD_DRAWN, {"seat": 1, "source": "stock"}),
        }
        response = phone.post(f"/t/{table.id}/moves/", data, HTTP_HX_REQUEST="true")
        assert response.status_code == 409
        assert "Someone else just recorded" in response.content.decode()


class TestTableRules:
    def test_a_ramino_table_lists_its_house_rules_with_their_ids(self, phone):
        table = _create(
            phone, "ramino", ["Anna", "Bruno", "Carla"], ram_fixed_jokers="on", ram_hands="4"
        )
        page = phone.get(f"/t/{table.id}/").content.decode()
        rules = page[page.index('data-testid="table-rules"') :]
        assert "RAM-OPT-FIXEDJOKER" in rules and "RAM-OPT-CASINO" not in rules
        # Each value beside its rule, linked to the rule's entry in the rules reference.
        link = '<a class="rule" href="/rules/ramino/#{}">{}</a>'
        assert "<strong>4</strong> " + link.format("RAM-MATCH", "RAM-MATCH") in rules
        assert "<strong>30</strong> " + link.format("RAM-OPEN", "RAM-OPEN") in rules

    def test_a_gin_table_lists_its_preset_target_and_switches(self, phone):
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "preset": "classic",
                "target": "50",
                "player_1": "Anna",
                "player_2": "Bruno",
            },
        )
        page = phone.get(response.url).content.decode()
        rules = page[page.index('data-testid="table-rules"') :]
        assert "<strong>Classic</strong>" in rules and "<strong>50</strong>" in rules
        assert "GIN-WALL" in rules and "GIN-NOREDISCARD" in rules


class TestTheTablesRulesPage:
    def test_the_rules_page_shows_the_values_this_table_plays_under(self, phone):
        # Scala 40 as a house rule: the opening needs 40, not the 30 of RAM-OPEN's title.
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ram_scala40="on")
        page = phone.get(f"/t/{table.id}/rules/").content.decode()
        opening = page[page.index('id="RAM-OPEN"') :]
        opening = opening[: opening.index("</section>")]
        assert 'data-testid="at-table-RAM-OPEN"' in opening and "<strong>40</strong>" in opening
        assert 'id="RAM-OPT-SCALA40"' in page and 'id="GIN-KNOCK"' not in page
        assert 'id="MELD-SET"' in page  # the rules of every game come too

    def test_another_phone_without_a_key_cannot_read_it(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        assert Client().get(f"/t/{table.id}/rules/").status_code == 404

    def test_an_unknown_game_has_no_rules_page(self, phone):
        assert phone.get("/rules/poker/").status_code == 404


class TestTakingBackAMove:
    def test_a_taken_back_move_stays_in_the_list_struck_through_with_who_and_when(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        for event_type, payload in RAMINO.events[:4]:
            assert _post_move(phone, table, event_type, payload).status_code == 302
        table.refresh_from_db()
        undo = {"event_id": str(uuid.uuid4()), "expected_seq": table.head_seq, "move": "undo"}
        assert phone.post(f"/t/{table.id}/moves/", undo).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        taken_back = re.findall(
            r'<li class="taken-back" data-testid="taken-back"><s>(.*?)</s>', page, re.S
        )
        # Only the last move before the undo (the fourth event) is struck through.
        assert len(taken_back) == 1
        assert "taken back by scorekeeper at" in page
        assert "Last move taken back" in page


class TestAnOpeningLaidOverSeveralMoves:
    def test_the_play_area_shows_the_opening_so_far_against_the_minimum(self, phone):
        table = _create(phone, "rummy40", ["Anna", "Bruno"], r40_opening_minimum="40")
        moves = [
            ("hand_started", {"dealer": 0, "upcard": "4C"}),
            ("card_drawn", {"seat": 1, "source": "stock"}),
            # R40-OPEN: 5 + 5 + 5 = 15 of the 40 needed; the turn may lay more.
            ("melds_laid", {"seat": 1, "melds": ["5C 5D 5S"]}),
        ]
        for event_type, payload in moves:
            assert _post_move(phone, table, event_type, payload).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert re.search(r'data-testid="opening-so-far">Opening so far: 15 / 40<', page)
        # A second meld in the same turn: Q K A of hearts, 10 + 10 + 11 = 31; 46 opens.
        move = ("melds_laid", {"seat": 1, "melds": ["QH KH AH"]})
        assert _post_move(phone, table, *move).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="opening-so-far"' not in page
