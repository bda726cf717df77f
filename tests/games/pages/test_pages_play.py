"""A hand recorded move by move through the phone pages (Django's test client)."""

import html
import re
import uuid

import pytest
from django.test import Client

from games.models import Event, Table
from games.pages.forms.play import MOVES
from scoring import samples
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HAND_STARTED,
    HANDS_SHOWN,
    MELDS_LAID,
    MOVE_UNDONE,
)
from scoring.game import TABLE_FORM
from scoring.variants import GAMES
from tests.games.sharing import join_from

RAMINO = samples.played_of("ramino")
SAMPLES = samples.played()

# What the home form needs for a game, unless a test says otherwise: these games' choices
# here, any other game's the defaults its options offer (GameRules.options), as the form
# shows them filled in.
GAME_FIELDS = {
    "gin": {"gin__preset": "big_gin", "gin__target": "100"},
    "rummy40": {"rummy40__opening_minimum": "40", "rummy40__target": "100"},
    "ramino": {"ramino__hands": "3"},
    "knock_rummy": {"knock_rummy__target": "150"},
    "scala40": {
        "scala40__target": "101",
        "scala40__reentries": "0",
        "scala40__failed_opening_penalty": "20",
        "scala40__max_jokers_per_meld": "1",
    },
}


def _offered_defaults(variant: str) -> dict[str, str]:
    game = GAMES[variant]
    return {
        f"{variant}__{spec.key}": "on" if spec.default is True else str(spec.default)
        for spec in game.options_offered(TABLE_FORM)
        if spec.default is not None and spec.default is not False
    }


def _create(client: Client, variant: str, names: list[str], **options) -> Table:
    fields = GAME_FIELDS.get(variant) or _offered_defaults(variant)
    data = {"variant": variant, "players": str(len(names)), **fields, **options}
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

    @pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.variant)
    def test_every_move_of_a_worked_hand_goes_through_the_move_buttons(self, phone, sample):
        fields = {f"player_{n}": name for n, name in enumerate(sample.players, start=1)}
        options = {
            f"{sample.variant}__{k}": ("on" if v is True else v) for k, v in sample.options.items()
        }
        table = _create(phone, sample.variant, list(sample.players), **options, **fields)
        for event_type, payload in sample.events:
            response = _post_move(phone, table, event_type, payload)
            assert response.status_code == 302, (event_type, response.content.decode()[:2000])
        events = list(Event.objects.filter(table=table).order_by("seq"))
        assert [e.type for e in events[1:]] == [t for t, _ in sample.events]
        assert [e.payload for e in events[1:]] == [p for _, p in sample.events]
        page = phone.get(f"/t/{table.id}/").content.decode()
        # One box a seat, or a side where partners score as one (under its first seat).
        for team in GAMES[sample.variant].teams(len(sample.points)):
            total = re.search(rf'data-testid="total-{team[0]}">([^<]*)<', page).group(1)
            assert int(total) == sample.points[team[0]]

    def test_the_view_shows_whose_turn_the_stock_the_discard_and_hand_sizes(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ramino__knock_claim="on")
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

    def test_a_knock_rummy_knock_button_says_knock(self, phone):
        # KR-KNOCK: a knock at the end of the turn shows nothing; the page's own word.
        table = _create(phone, "knock_rummy", ["Anna", "Bruno"])
        _post_move(phone, table, HAND_STARTED, {"dealer": 0})
        _post_move(phone, table, CARD_DRAWN, {"seat": 1, "source": "stock"})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="move-knock">Knock</button>' in page

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
            phone,
            "ramino",
            ["Anna", "Bruno", "Carla"],
            ramino__fixed_jokers="on",
            ramino__hands="4",
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
                "gin__preset": "classic",
                "gin__target": "50",
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
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"], ramino__scala40="on")
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
        assert "taken back by phone 1 at" in page
        assert "Last move taken back" in page


class TestAnOpeningLaidOverSeveralMoves:
    def test_the_play_area_shows_the_opening_so_far_against_the_minimum(self, phone):
        table = _create(phone, "rummy40", ["Anna", "Bruno"], rummy40__opening_minimum="40")
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


def _moves(phone: Client, table: Table, *fields: dict, **headers):
    """Post the move form's fields as a phone does, one move after the other; return the
    last answer."""
    response = None
    for data in fields:
        table.refresh_from_db()
        data = {"event_id": str(uuid.uuid4()), "expected_seq": table.head_seq, **data}
        response = phone.post(f"/t/{table.id}/moves/", data, **headers)
    return response


# What htmx sends with a tap of a move button: the form's id says where a refusal goes.
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "move-form"}


def _ramino_opened(phone: Client) -> Table:
    """Return a Ramino table where Bruno drew and opened with Q K and a joker (31, RAM-OPEN)."""
    table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
    _moves(
        phone,
        table,
        {"move": "deal", "dealer": "0", "upcard": "9D"},
        {"move": "draw_stock", "seat": "1"},
        {"move": "meld", "seat": "1", "picked": ["QH", "KH", "JK"]},
    )
    return table


def _refusal(response) -> str:
    """Return the refusal an htmx answer puts in the move form's alert slot, tags removed."""
    assert response.status_code == 422, response.content.decode()[:2000]
    assert response["HX-Retarget"] == "#move-form-alert"
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


class TestTheMoveTakesItsCardsFromWhereverTheyWerePut:
    def test_a_discard_tapped_in_the_picker_posts_without_javascript(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        response = _moves(
            phone,
            table,
            {"move": "deal", "dealer": "0", "upcard": "9D"},
            {"move": "draw_stock", "seat": "1"},
            {"move": "discard", "seat": "1", "picked": ["7S"]},
        )
        assert response.status_code == 302
        last = Event.objects.filter(table=table).order_by("seq").last()
        assert (last.type, last.payload) == (CARD_DISCARDED, {"seat": 1, "card": "7S"})

    @pytest.mark.parametrize(
        "where",
        [{"picked": ["JH"]}, {"card": "JH"}, {"cards": "JH"}, {"picked": ["JH"], "card": "jh"}],
        ids=["picker", "card field", "cards box", "picker and card field agree"],
    )
    def test_add_to_the_meld_takes_the_card_from_any_field(self, phone, where):
        table = _ramino_opened(phone)
        response = _moves(phone, table, {"move": "add", "seat": "1", "meld": "1", **where})
        assert response.status_code == 302, response.content.decode()[:2000]
        last = Event.objects.filter(table=table).order_by("seq").last()
        assert (last.type, last.payload) == (CARDS_ADDED, {"seat": 1, "meld": 1, "cards": "JH"})

    def test_melds_built_in_the_picker_join_those_done_in_the_box(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _moves(
            phone,
            table,
            {"move": "deal", "dealer": "0", "upcard": "9D"},
            {"move": "draw_stock", "seat": "1"},
            # "This meld is done" wrote the run in the box; the fives are still in the grid.
            {"move": "meld", "seat": "1", "cards": "8S 9S 10S", "picked": ["5C", "5D", "5H"]},
        )
        last = Event.objects.filter(table=table).order_by("seq").last()
        assert last.payload == {"seat": 1, "melds": ["8S 9S 10S", "5C 5D 5H"]}

    def test_a_stock_card_seen_is_named_from_its_list(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _moves(
            phone,
            table,
            {"move": "deal", "dealer": "0", "upcard": "9D"},
            {"move": "draw_stock", "seat": "1", "drawn": "QS"},
        )
        last = Event.objects.filter(table=table).order_by("seq").last()
        assert last.payload == {"seat": 1, "source": "stock", "card": "QS"}
        page = phone.get(f"/t/{table.id}/").content.decode()
        # Bruno's known card comes first in the picker.
        assert 'data-pick="QS"' in page


class TestARefusedMoveSaysWhatItLacked:
    """A move the form cannot make says so in the players' words: the move, the card, where
    to tap; never an internal field name or the EVENT rule."""

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            (
                {"move": "add", "meld": "1"},
                "Add to the meld needs a card: tap it in the grid.",
            ),
            (
                {"move": "add", "picked": ["JH"]},
                "Add to the meld needs a meld: tap it on the table, or choose it under “Meld”.",
            ),
            (
                {"move": "add", "picked": ["JH"], "meld": "7"},
                "There is no meld #7 on the table: tap one of those there.",
            ),
            ({"move": "discard"}, "Discard needs a card: tap it in the grid."),
            (
                {"move": "discard", "picked": ["7S", "8S"]},
                "Discard takes one card, and 7♠ 8♠ are given: tap the others again.",
            ),
            (
                {"move": "discard", "picked": ["7S"], "card": "8S"},
                "Discard: the grid has 7♠ but “Card” has 8♠. Keep the cards in one place.",
            ),
            (
                {"move": "swap", "meld": "1"},
                "Swap the meld's joker needs the card the joker stands for: tap it in the grid.",
            ),
            ({"move": "meld"}, "Lay melds needs the cards of a meld: tap them in the grid."),
        ],
        ids=[
            "add without a card",
            "add without a meld",
            "add to no such meld",
            "discard without a card",
            "discard of two cards",
            "two places disagree",
            "swap without a card",
            "melds without cards",
        ],
    )
    def test_a_move_missing_its_card_or_meld_is_refused_in_players_words(
        self, phone, fields, message
    ):
        table = _ramino_opened(phone)
        before = Event.objects.filter(table=table).count()
        text = _refusal(_moves(phone, table, {"seat": "1", **fields}, **HTMX))
        assert text == message
        assert "EVENT" not in text and "“cards”" not in text
        assert Event.objects.filter(table=table).count() == before

    def test_a_typed_card_that_is_no_card_names_the_field(self, phone):
        table = _ramino_opened(phone)
        response = _moves(phone, table, {"move": "discard", "seat": "1", "card": "7X"}, **HTMX)
        text = _refusal(response)
        assert text.startswith("Card: “7X” (card 1) is not a card.")
        assert "CARD-3" in text and "EVENT" not in text

    def test_a_rule_refusal_keeps_its_rule_and_names_the_card(self, phone):
        table = _ramino_opened(phone)
        _moves(phone, table, {"move": "discard", "seat": "1", "picked": ["2D"]})
        # Carla draws and adds to Bruno's meld though she has not opened (RAM-ADD).
        response = _moves(
            phone,
            table,
            {"move": "draw_stock", "seat": "2"},
            {"move": "add", "seat": "2", "meld": "1", "picked": ["JH"]},
            **HTMX,
        )
        text = _refusal(response)
        assert "Carla has not opened yet" in text and "RAM-ADD" in text

    def test_a_refusal_of_the_whole_page_is_drawn_in_the_bar_by_the_buttons(self, phone):
        table = _ramino_opened(phone)
        response = _moves(phone, table, {"move": "discard", "seat": "1"})
        page = response.content.decode()
        assert response.status_code == 422
        bar = page[page.index("data-move-bar") :]
        assert bar.index("Discard needs a card") < bar.index('value="discard"')
        assert 'role="alert"' in bar[: bar.index('value="discard"')]


class TestTheMoveFormShowsWhatTheGameAllows:
    def test_the_meld_list_and_select_show_suits_and_jokers_readably(self, phone):
        table = _ramino_opened(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert '<option value="1">#1 Q♥ K♥ 🃏(A♥)</option>' in page
        assert 'data-label="#1 Q♥ K♥ 🃏(A♥)"' in page
        assert "JK=AH" not in page

    def test_the_board_at_the_top_says_whose_turn_it_is(self, phone):
        table = _ramino_opened(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        board = page[page.index('id="board"') : page.index('id="play"')]
        assert 'data-testid="turn">Bruno to play.</div>' in board

    def test_a_gin_hand_offers_the_face_up_card_and_a_pass_then_the_stock(self, phone):
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "big_gin",
                "gin__target": "100",
                "player_1": "Anna",
                "player_2": "Bruno",
            },
        )
        table = Table.objects.get(pk=response.url.split("/")[2])
        _moves(phone, table, {"move": "deal", "dealer": "0", "upcard": "7S"})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="take-upcard"' in page and 'data-testid="pass"' in page
        assert 'data-testid="draw-stock"' not in page and "data-move-bar" not in page
        # The turn line cites the first turn's rule, as Gin's play rules name it (GIN-FIRST).
        turn = page[page.index('data-testid="turn"') :]
        assert "take the face-up card or pass." in turn[: turn.index("</div>")]
        assert "GIN-FIRST" in turn[: turn.index("</div>")]
        _moves(phone, table, {"move": "pass", "seat": "1"}, {"move": "pass", "seat": "0"})
        _moves(phone, table, {"move": "draw_stock", "seat": "1"})
        page = phone.get(f"/t/{table.id}/").content.decode()
        # Gin lays no melds in play: a discard, or a knock showing the cards kept, whose
        # button says it ends the hand by gin too (Gin's own word for it).
        assert 'value="discard"' in page and 'value="knock"' in page
        assert 'data-testid="move-knock">Knock / Gin</button>' in page
        italian = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert 'data-testid="move-knock">Bussa / Gin</button>' in italian
        assert 'value="meld"' not in page and 'value="add"' not in page
        assert 'value="JK"' not in page  # no jokers in Gin (GIN-SETUP)

    def test_the_move_form_speaks_italian(self, phone):
        table = _create(phone, "ramino", ["Anna", "Bruno", "Carla"])
        _moves(phone, table, {"move": "deal", "dealer": "0", "upcard": "9D"})
        page = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "Tallone" in page and "Pozzo" in page
        assert "Tocca a Bruno pescare." in page
        _moves(phone, table, {"move": "draw_stock", "seat": "1"})
        response = _moves(
            phone,
            table,
            {"move": "discard", "seat": "1"},
            **HTMX,
            HTTP_ACCEPT_LANGUAGE="it",
        )
        assert "Scarta" in _refusal(response)
