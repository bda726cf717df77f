"""The phone pages through Django's test client: keys, recording, corrections, languages."""

import re
import uuid

import pytest
from django.test import Client

from games.models import Event, Table
from tests.games.sharing import join_from, share_page


def _create(client: Client, **extra) -> Table:
    data = {
        "variant": "gin",
        "gin__preset": "big_gin",
        "gin__target": "100",
        "player_1": "Anna",
        "player_2": "Bruno",
        "gin__no_rediscard": "on",
        "gin__wall": "on",
        **{
            key if key.startswith("player_") else f"gin__{key}": value
            for key, value in extra.items()
        },
    }
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _hand_data(page: str, **fields) -> dict:
    """Read the hidden event fields from a rendered form and add the hand's fields."""
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, "mode": "quick", **fields}


class TestCreatingATable:
    def test_the_creating_browser_becomes_scorekeeper(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Record a hand" in page and "Anna" in page and "Bruno" in page
        # The share block, once opened: a QR code and a code for each role.
        assert 'data-testid="share"' in page
        shared = share_page(phone, table)
        assert 'data-testid="qr-scorekeeper"' in shared and 'data-testid="code-viewer"' in shared

    def test_a_bad_target_shows_the_rule_and_creates_nothing(self, phone):
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "big_gin",
                "gin__target": "50",
                "player_1": "A",
                "player_2": "B",
            },
        )
        assert response.status_code == 422
        assert "GIN-MATCH" in response.content.decode()
        assert not Table.objects.exists()

    def test_the_home_page_lists_this_browsers_tables_only(self, phone):
        table = _create(phone)
        assert str(table.id) in phone.get("/").content.decode()
        assert str(table.id) not in Client().get("/").content.decode()


class TestAccess:
    def test_another_browser_cannot_open_the_table(self, phone):
        table = _create(phone)
        assert Client().get(f"/t/{table.id}/").status_code == 404

    def test_the_viewer_link_lets_a_phone_watch_but_not_record(self, phone):
        table = _create(phone)
        viewer = Client()
        join_from(phone, viewer, table, "viewer")
        page = viewer.get(f"/t/{table.id}/").content.decode()
        assert "Record a hand" not in page
        assert 'data-testid="code-scorekeeper"' not in share_page(viewer, table)
        data = _hand_data(
            phone.get(f"/t/{table.id}/").content.decode(),
            knocker="0",
            ending="knock",
            knocker_count="3",
            defender_count="9",
        )
        assert viewer.post(f"/t/{table.id}/hands/", data).status_code == 403
        assert table.events.count() == 1

    def test_the_scorekeeper_link_lets_another_phone_record(self, phone):
        table = _create(phone)
        other = Client()
        join_from(phone, other, table, "scorekeeper")
        page = other.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="1", ending="knock", knocker_count="3", defender_count="9")
        assert other.post(f"/t/{table.id}/hands/", data).status_code == 302
        assert table.events.count() == 2

    def test_a_wrong_key_in_a_link_opens_nothing(self, phone):
        table = _create(phone)
        other = Client()
        response = other.get(f"/t/{table.id}/join/{'x' * 43}/")
        assert response.status_code == 302 and response.url == "/join/?refused=link"
        assert other.get(f"/t/{table.id}/").status_code == 404

    def test_writes_need_the_csrf_token(self, phone):
        table = _create(phone)
        strict = Client(enforce_csrf_checks=True)
        join_from(phone, strict, table, "scorekeeper")
        data = _hand_data(
            strict.get(f"/t/{table.id}/").content.decode(),
            knocker="0",
            ending="gin",
            defender_count="9",
        )
        assert strict.post(f"/t/{table.id}/hands/", data).status_code == 403


class TestRecording:
    def test_a_quick_hand_updates_the_scoreboard(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
        phone.post(f"/t/{table.id}/hands/", data)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="total-0">13<' in page

    def test_an_htmx_post_answers_with_the_fresh_table_part(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="1", ending="gin", defender_count="12")
        response = phone.post(f"/t/{table.id}/hands/", data, HTTP_HX_REQUEST="true")
        body = response.content.decode()
        assert response.status_code == 200
        assert body.lstrip().startswith('<section id="board"') and "<html" not in body
        assert 'data-testid="total-1">37<' in body

    def test_an_illegal_knock_shows_the_rule_and_keeps_what_was_typed(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(
            page, knocker="0", ending="knock", knocker_count="14", defender_count="20"
        )
        response = phone.post(
            f"/t/{table.id}/hands/", data, HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER="hand-form"
        )
        body = response.content.decode()
        # htmx: the refusal goes to the form's alert slot; the form, as typed, stays put.
        assert response.status_code == 422 and response["HX-Retarget"] == "#hand-form-alert"
        assert "GIN-KNOCK" in body and 'id="hand-form"' not in body
        # A full page draws the form again with what was typed.
        response = phone.post(f"/t/{table.id}/hands/", data)
        body = response.content.decode()
        assert response.status_code == 422
        assert "GIN-KNOCK" in body and 'value="14"' in body
        assert table.events.count() == 1

    def test_sending_the_same_form_twice_records_one_hand(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
        phone.post(f"/t/{table.id}/hands/", data)
        phone.post(f"/t/{table.id}/hands/", data)
        assert table.events.filter(type="hand_recorded").count() == 1

    def test_two_phones_on_the_same_head_the_second_is_told_and_can_resend(self, phone):
        table = _create(phone)
        other = Client()
        join_from(phone, other, table, "scorekeeper")
        page_a = phone.get(f"/t/{table.id}/").content.decode()
        page_b = other.get(f"/t/{table.id}/").content.decode()
        phone.post(
            f"/t/{table.id}/hands/",
            _hand_data(page_a, knocker="0", ending="knock", knocker_count="7", defender_count="20"),
        )
        response = other.post(
            f"/t/{table.id}/hands/",
            _hand_data(page_b, knocker="1", ending="gin", defender_count="10"),
            HTTP_HX_REQUEST="true",
            HTTP_HX_TRIGGER="hand-form",
        )
        body = response.content.decode()
        assert response.status_code == 409 and response["HX-Retarget"] == "#hand-form-alert"
        # Both entries: the hand the other phone recorded, and this one kept in the form
        # (which this answer leaves as it is).
        assert 'data-testid="conflict"' in body and 'id="hand-form"' not in body
        assert "Another phone has just recorded hand 1" in body
        assert "Record mine as the next hand" in body
        assert 'name="expected_seq" value="2"' in body  # redrawn on the new head
        assert table.events.count() == 2

        # One tap records it as hand 2.
        resend = re.search(r'name="event_id" value="([^"]+)"', body).group(1)
        again = other.post(
            f"/t/{table.id}/hands/",
            {
                **_hand_data(page_b, knocker="1", ending="gin", defender_count="10"),
                "event_id": resend,
                "expected_seq": "2",
            },
        )
        assert again.status_code == 302
        assert table.events.filter(type="hand_recorded").count() == 2

    def test_a_form_drawn_before_a_correction_is_re_based_and_saves_first_time(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(
            f"/t/{table.id}/hands/",
            _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20"),
        )
        other = Client()
        join_from(phone, other, table, "scorekeeper")
        page_b = other.get(f"/t/{table.id}/").content.decode()  # drawn at head 2
        # Meanwhile phone A voids hand 1: no hand is recorded, so hand 2 is still next.
        void_form = phone.get(f"/t/{table.id}/hands/1/void/").content.decode()
        void = _hand_data(void_form, reason="typo")
        del void["mode"]
        assert phone.post(f"/t/{table.id}/hands/1/void/", void).status_code == 302
        assert table.events.count() == 3
        response = other.post(
            f"/t/{table.id}/hands/",
            _hand_data(page_b, knocker="1", ending="gin", defender_count="10"),
        )
        assert response.status_code == 302
        assert [e.type for e in table.events.order_by("seq")][-1] == "hand_recorded"
        assert table.events.filter(type="hand_recorded").count() == 2

    def test_a_hand_by_cards_is_scored_by_the_engine(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(
            page,
            mode="cards",
            knocker="1",
            knocker_cards=["9C", "9S", "9H", "9D", "4C", "4S", "4H"],
            knocker_typed="3C 3S 3H",
            defender_typed="6C AH AS 2S 5D 6D 7D KC KS KH",
        )
        assert phone.post(f"/t/{table.id}/hands/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="total-1">35<' in page  # GIN-SCORE-GIN: 25 + 10

    def test_polling_answers_204_until_something_changes(self, phone):
        table = _create(phone)
        poll = f"/t/{table.id}/?since=1"
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(
            f"/t/{table.id}/hands/",
            _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20"),
        )
        response = phone.get(poll, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        body = response.content.decode()
        assert 'id="board"' in body and 'id="history"' in body and "<html" not in body


class TestCorrections:
    def _with_hand(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(
            f"/t/{table.id}/hands/",
            _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20"),
        )
        return table

    def test_voiding_keeps_the_hand_in_the_history_struck_through(self, phone):
        table = self._with_hand(phone)
        form = phone.get(f"/t/{table.id}/hands/1/void/").content.decode()
        data = _hand_data(form, reason="misdeal")
        del data["mode"]
        assert phone.post(f"/t/{table.id}/hands/1/void/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'class="hand voided"' in page and "misdeal" in page
        assert 'data-testid="total-0">0<' in page

    def test_amending_shows_the_original_beside_the_correction(self, phone):
        table = self._with_hand(phone)
        form = phone.get(f"/t/{table.id}/hands/1/amend/").content.decode()
        assert 'value="7"' in form and 'value="20"' in form  # prefilled from the entry
        data = _hand_data(
            form,
            knocker="0",
            ending="knock",
            knocker_count="5",
            defender_count="20",
            reason="recount",
        )
        assert phone.post(f"/t/{table.id}/hands/1/amend/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="total-0">15<' in page
        assert "<s>" in page and "recount" in page
        assert Event.objects.filter(table=table, type="hand_amended").count() == 1


class TestLanguages:
    def test_the_page_follows_the_browser_language(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert 'lang="it"' in page and "Registra una mano" in page

    def test_the_switch_sets_the_language(self, phone):
        phone.post("/i18n/setlang/", {"language": "it", "next": "/"})
        assert 'lang="it"' in phone.get("/").content.decode()


class TestWinner:
    def test_reaching_the_target_shows_the_winner_and_closes_the_form(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        phone.post(
            f"/t/{table.id}/hands/",
            _hand_data(page, knocker="1", ending="big_gin", defender_count="70"),
        )
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Bruno wins the match!" in page and "Record a hand" not in page


@pytest.mark.parametrize("path", ["/t/{id}/hands/9/void/", "/t/{id}/hands/0/amend/"])
def test_a_correction_of_a_hand_that_does_not_exist_is_not_found(phone, path):
    table = _create(phone)
    assert phone.get(path.format(id=table.id)).status_code == 404


def test_unknown_table_ids_are_not_found(phone):
    assert phone.get(f"/t/{uuid.uuid4()}/").status_code == 404


def test_a_ramino_table_page_shows_its_hands(phone):
    from games.tables import services as table_services

    table = table_services.table_create(
        variant="ramino", options={"hands": 3}, players=["Anna", "Bruno", "Carla"]
    )
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=1,
        event_type="hand_recorded",
        payload={
            "mode": "cards",
            "players": [
                {"hand": "", "melded": "7S 8S 9S", "went_out": True},
                {"hand": "KH QH 5C"},
                {"hand": "JK 2D"},
            ],
        },
    )
    phone.get(f"/t/{table.id}/join/{table.viewer_key}/")
    page = phone.get(f"/t/{table.id}/").content.decode()
    assert "Anna went out" in page and "Bruno -25" in page
    assert 'data-testid="total-2">-22<' in page


class TestPreview:
    def test_the_preview_itemises_the_score_and_stores_nothing(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "Preview the score" in page
        data = _hand_data(page, knocker="1", ending="gin", defender_count="12")
        response = phone.post(f"/t/{table.id}/hands/preview/", data, HTTP_HX_REQUEST="true")
        body = response.content.decode()
        # GIN-SCORE-GIN: 25 bonus + the defender's 12 = 37 for Bruno.
        assert response.status_code == 200
        assert "Bruno +37" in body and "GIN-GIN" in body and "GIN-SCORE-GIN" in body
        assert table.events.count() == 1

    def test_the_preview_names_the_rule_an_illegal_hand_breaks(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(
            page, knocker="0", ending="knock", knocker_count="14", defender_count="20"
        )
        body = phone.post(f"/t/{table.id}/hands/preview/", data).content.decode()
        assert "GIN-KNOCK" in body
        assert table.events.count() == 1

    def test_a_viewer_cannot_preview(self, phone):
        table = _create(phone)
        viewer = Client()
        join_from(phone, viewer, table, "viewer")
        assert viewer.post(f"/t/{table.id}/hands/preview/", {}).status_code == 403


class TestOnlyLegalOptions:
    def test_big_gin_is_not_offered_fifty_and_a_sent_fifty_is_a_field_error(self, phone):
        page = phone.get("/").content.decode()
        # GIN-MATCH: Big Gin plays to 100, 200 or 500; Classic to 50, 100 or 200.
        assert '<option value="50" data-by="classic"' in page
        assert '<option value="500" data-by="big_gin"' in page
        # The stylesheet made from the registry hides a length the preset does not play.
        styles = phone.get("/games.css").content.decode()
        assert (
            'form:has(input[name="gin__preset"][value="big_gin"]:checked) '
            'select[name="gin__target"] option:not([data-by~="big_gin"])'
        ) in styles
        response = phone.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "big_gin",
                "gin__target": "50",
                "player_1": "A",
                "player_2": "B",
            },
        )
        assert response.status_code == 422
        assert "Big Gin plays to 100, 200, 500, or a single hand." in response.content.decode()
        assert 'value="A"' in response.content.decode()  # the names typed are kept
        assert not Table.objects.exists()


class TestPhoneNames:
    def test_each_entry_says_which_phone_recorded_it(self, phone):
        table = _create(phone)
        response = phone.post(
            "/phone-name/", {"name": "  Anna's phone ", "next": f"/t/{table.id}/"}
        )
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
        phone.post(f"/t/{table.id}/hands/", data)
        assert table.events.get(type="hand_recorded").entered_by == "Anna's phone"
        assert "Anna&#x27;s phone ·" in phone.get(f"/t/{table.id}/").content.decode()

    def test_an_unnamed_phone_is_numbered_in_the_readers_language(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
        phone.post(f"/t/{table.id}/hands/", data)
        # The log keeps no word of the recording phone's language, only its number...
        assert table.events.get(type="hand_recorded").entered_by == "#phone-1"
        # ...so an Italian reader reads "telefono 1", an English one "phone 1".
        italian = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        english = phone.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "telefono 1 ·" in italian and "scorekeeper ·" not in italian
        assert "phone 1 ·" in english and "scorekeeper ·" not in english

    def test_a_second_unnamed_phone_is_phone_2_and_the_first_stays_phone_1(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/").content.decode()
        first = _hand_data(
            page, knocker="0", ending="knock", knocker_count="7", defender_count="20"
        )
        phone.post(f"/t/{table.id}/hands/", first)
        second = Client()
        join_from(phone, second, table, "scorekeeper")
        page = second.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="1", ending="knock", knocker_count="3", defender_count="9")
        assert second.post(f"/t/{table.id}/hands/", data).status_code in (200, 302)
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="knock", knocker_count="5", defender_count="9")
        phone.post(f"/t/{table.id}/hands/", data)
        recorded = table.events.filter(type="hand_recorded").order_by("seq")
        assert [event.entered_by for event in recorded] == ["#phone-1", "#phone-2", "#phone-1"]

    def test_older_logs_unnamed_phone_is_the_scorekeeper_in_the_readers_language(self):
        from django.utils import translation

        from games.templatetags.rummy import recorder

        with translation.override("en"):
            assert recorder("") == "scorekeeper"
            assert recorder("#phone-2") == "phone 2"
            assert recorder("#phone-x") == "#phone-x"  # not a number: a name someone typed

    def test_older_entries_in_the_recording_phones_words_read_in_the_readers(self):
        from django.utils import translation

        from games.templatetags.rummy import recorder

        with translation.override("it"):
            # Logs written before kept the recording phone's own word for an unnamed phone.
            assert [recorder(w) for w in ("scorekeeper", "creator", "", None)] == ["segnapunti"] * 4
            assert recorder("Anna's phone") == "Anna's phone"

    def test_a_name_with_control_characters_or_too_long_is_refused(self, phone):
        assert phone.post("/phone-name/", {"name": "Anna\x00"}).status_code == 400
        assert phone.post("/phone-name/", {"name": "x" * 41}).status_code == 400
        assert "phone_name" not in phone.session

    def test_the_way_back_never_leaves_the_site(self, phone):
        response = phone.post("/phone-name/", {"name": "Bruno", "next": "https://evil.example/"})
        assert response.url == "/"

    @pytest.mark.parametrize("back", ["x", "home", "table", ""])
    def test_a_way_back_that_is_a_word_is_no_page_name_but_home(self, phone, back):
        # A word is not looked up as a view's name (that answered 500 when none had it).
        response = phone.post("/phone-name/", {"name": "Bruno", "next": back})
        assert (response.status_code, response.url) == (302, "/")


class TestRematch:
    def test_a_finished_match_starts_again_with_the_same_players_and_the_next_dealer(self, phone):
        table = _create(phone, target="1", undercut_on_tie="on")  # a single hand
        page = phone.get(f"/t/{table.id}/").content.decode()
        data = _hand_data(page, knocker="0", ending="gin", defender_count="10")
        assert phone.post(f"/t/{table.id}/hands/", data).status_code == 302
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="rematch"' in page
        response = phone.post(f"/t/{table.id}/rematch/")
        assert response.status_code == 302
        rematch = Table.objects.exclude(pk=table.pk).get()
        assert response.url == f"/t/{rematch.id}/"
        # Seat 0 deals first: Bruno, the player after Anna, who dealt the last match first.
        seats = [s.player.name for s in rematch.seats.order_by("position")]
        assert seats == ["Bruno", "Anna"]
        assert rematch.options == table.options and rematch.options["undercut_on_tie"] is True
        assert 'id="hand-form"' in phone.get(f"/t/{rematch.id}/").content.decode()

    def test_a_match_in_play_has_no_rematch(self, phone):
        table = _create(phone)
        assert 'data-testid="rematch"' not in phone.get(f"/t/{table.id}/").content.decode()
        # A refusal, answered as on every page (games/pages/errors.py).
        assert phone.post(f"/t/{table.id}/rematch/").status_code == 403
        assert Table.objects.count() == 1

    def test_a_viewer_cannot_start_one(self, phone):
        table = _create(phone, target="1")
        viewer = Client()
        join_from(phone, viewer, table, "viewer")
        assert viewer.post(f"/t/{table.id}/rematch/").status_code == 403


def test_styles_and_scripts_are_linked_in_the_head_only(phone):
    """The share block's style and script come with the page's head, not mid-body."""
    table = _create(phone)
    for path in (f"/t/{table.id}/", f"/t/{table.id}/share/", "/join/"):
        page = phone.get(path).content.decode()
        head, body = page.split("<body", 1)
        assert "<link" not in body and "<script" not in body, path
        if path != "/join/":
            assert "js/share" in head and "css/share" in head, path
