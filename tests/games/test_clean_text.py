"""Every text input is clean text: NUL, other control characters and lone surrogates are a
400 naming the field and the character's position (never the text), nothing is stored, and
no such input makes a 500 anywhere (games/shared/clean_text.py)."""

import io
import json
import uuid
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory

from games.api.parsers import BadText, CleanMultiPartParser
from games.models import Club, Event, Group, League, Player, Table
from games.shared.clean_text import Kind, json_flaw, text_flaw, urlencoded_flaw
from scoring import samples
from tests.games.clubs_setup import club_world

GIN = samples.played_of("gin")

NUL = "\x00"
LONE = "\ud800"  # what json.loads gives for "\ud800": a lone (high) surrogate
BAD = [pytest.param(NUL, id="nul"), pytest.param(LONE, id="lone-surrogate")]
# Around each bad character, so a test can tell that the answer never echoes the value.
MARK = "§Zq§"
STORED = (Club, Event, Group, League, Player, Table)


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in STORED}


def _spoiled(bad: str) -> str:
    return f"{MARK}{bad}{MARK}"


def _spoil(value, bad: str):
    """Put the spoiled text wherever ``value`` (JSON-like) says {bad}, in keys as in values."""
    return json.loads(json.dumps(value).replace("{bad}", json.dumps(_spoiled(bad))[1:-1]))


class TestTheCheck:
    @pytest.mark.parametrize(
        ("text", "position", "kind", "code"),
        [
            ("A\x00", 2, Kind.CONTROL, 0),
            ("\x07bell", 1, Kind.CONTROL, 7),
            ("ab\x1b[0m", 3, Kind.CONTROL, 0x1B),
            ("x\ud800", 2, Kind.SURROGATE, 0xD800),
            ("\udfb4\ud83c", 1, Kind.SURROGATE, 0xDFB4),  # a pair the wrong way round
        ],
    )
    def test_control_characters_and_lone_surrogates_are_found_where_they_are(
        self, text, position, kind, code
    ):
        flaw = text_flaw(text, field="name")
        assert (flaw.position, flaw.kind, flaw.code) == (position, kind, code)

    @pytest.mark.parametrize(
        "text",
        ["Niccolò", "perché è già così", "Àgata 🎴", "ä漢字", "two\r\nlines\tand a tab", ""],
    )
    def test_real_text_passes(self, text):
        assert text_flaw(text, field="name") is None

    def test_a_surrogate_pair_in_json_is_one_character_and_passes(self):
        parsed = json.loads('{"name": "\\ud83c\\udfb4"}')
        assert parsed == {"name": "🎴"}
        assert json_flaw(parsed) is None

    def test_a_lone_surrogate_in_json_is_refused(self):
        flaw = json_flaw(json.loads('{"name": "x\\ud800"}'))
        assert (flaw.field, flaw.position, flaw.kind) == ("name", 2, Kind.SURROGATE)

    def test_names_may_hold_no_control_character_at_all(self):
        assert text_flaw("a\tb", field="x") is None
        assert text_flaw("a\tb", field="x", name=True).position == 2

    def test_the_json_path_names_the_first_flaw_in_document_order(self):
        body = {
            "payload": {"players": [{"hand": "7S"}, {"hand": "8S\x01", "x": "\x02"}]},
            "z": "\x03",
        }
        assert json_flaw(body).field == "payload.players[1].hand"
        assert json_flaw(["ok", ["\x00"]]).field == "[1][0]"
        assert json_flaw("\x00").field == "body"

    def test_a_bad_key_is_named_by_where_it_is(self):
        flaw = json_flaw({"payload": {"reason": "ok", "x\ud800": 1}})
        assert (flaw.field, flaw.in_name, flaw.position) == ("payload", True, 2)
        assert json_flaw({"\x00": 1}).field == "body"

    def test_a_long_key_is_cut_in_the_path(self):
        flaw = json_flaw({"k" * 500: "\x00"})
        assert flaw.field == "k" * 40 + "…"

    def test_a_deep_body_is_walked_without_recursion(self):
        body: object = "\x00"
        for _ in range(5000):
            body = [body]
        assert json_flaw(body).field == "[0]" * 5000

    @pytest.mark.parametrize(
        ("raw", "field", "kind"),
        [
            (b"q=%00", "q", Kind.CONTROL),
            (b"q=%ED%A0%80", "q", Kind.ENCODING),  # a lone surrogate sent as UTF-8 bytes
            (b"q=caf\xff", "q", Kind.ENCODING),
            (b"a=1&%00=2", "query", Kind.CONTROL),
            (b"a=1&b%ED%A0%80=2", "query", Kind.ENCODING),
            (b"names=Anna%0ABruno&x=%0A", "x", None),
        ],
    )
    def test_query_strings_are_read_from_their_bytes(self, raw, field, kind):
        flaw = urlencoded_flaw(raw, container="query")
        if kind is None:
            assert flaw is None
        else:
            assert (flaw.field, flaw.kind) == (field, kind)

    def test_good_query_strings_pass(self):
        assert urlencoded_flaw(b"q=caf%C3%A9+%F0%9F%8E%B4&empty=&flag", container="query") is None

    def test_the_position_counts_characters_not_bytes(self):
        flaw = urlencoded_flaw(b"q=%C3%A8%C3%A8%ED%A0%80", container="query")
        assert flaw.position == 3

    def test_messages_name_the_field_and_position_never_the_text(self):
        flaw = text_flaw("ok\x00ok", field="payload.reason")
        assert flaw.api_body() == {
            "error": "bad_text",
            "detail": "“payload.reason”: Character 3 is a control character (U+0000), "
            "which text may not hold.",
            "fields": {
                "payload.reason": [
                    "Character 3 is a control character (U+0000), which text may not hold."
                ]
            },
        }


@pytest.fixture
def raw_client():
    return Client()


def _post_json(client, path, body, **headers):
    return client.post(path, json.dumps(body), content_type="application/json", headers=headers)


@pytest.fixture
def api_gin_table_with_a_hand(raw_client, db):
    """A Gin table with one hand recorded; its id and scorekeeper key."""
    made = _post_json(
        raw_client, "/api/v1/tables/", {"variant": "gin", "players": ["Anna", "Bruno"]}
    )
    table = made.json()
    hand = {"mode": "quick", "knocker": 0, "ending": "knock"}
    hand |= {"knocker_count": 7, "defender_count": 20}
    assert _append(raw_client, table, "hand_recorded", hand).status_code == 201
    return table


def _append(client, table, event_type, payload, **fields):
    head = Table.objects.get(pk=table["id"]).head_seq
    body = {"event_id": str(uuid.uuid4()), "expected_seq": head, "type": event_type}
    return _post_json(
        client,
        f"/api/v1/tables/{table['id']}/events/",
        {**body, "payload": payload, **fields},
        X_Table_Key=table["scorekeeper_key"],
    )


def _refused(response, field: str) -> None:
    """Check the API's 400 for bad text naming ``field``, and that it echoes nothing."""
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "bad_text"
    assert list(body["fields"]) == [field]
    assert f"“{field}”" in body["detail"] and "Character " in body["detail"]
    assert MARK not in response.content.decode()


@pytest.mark.django_db
class TestTheApi:
    @pytest.mark.parametrize("bad", BAD)
    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"variant": "gin", "players": ["{bad}", "Bruno"]}, "players[0]"),
            ({"variant": "gin", "players": ["Anna", "{bad}"]}, "players[1]"),
            ({"variant": "gin", "players": ["Anna", "Bruno"], "options": {"{bad}": 1}}, "options"),
            ({"variant": "{bad}", "players": ["Anna", "Bruno"]}, "variant"),
        ],
    )
    def test_a_table_with_bad_text_is_refused_and_not_made(self, raw_client, db, bad, body, field):
        body = _spoil(body, bad)
        before = _counts()
        _refused(_post_json(raw_client, "/api/v1/tables/", body), field)
        assert _counts() == before

    @pytest.mark.parametrize("bad", BAD)
    @pytest.mark.parametrize(
        ("event_type", "payload", "fields", "field"),
        [
            ("hand_voided", {"hand": 1, "reason": "{bad}"}, {}, "payload.reason"),
            (
                "hand_amended",
                {"hand": 1, "mode": "quick", "ending": "wall", "reason": "{bad}"},
                {},
                "payload.reason",
            ),
            ("hand_voided", {"hand": 1, "{bad}": "x"}, {}, "payload"),
            (
                "hand_voided",
                {"hand": 1, "reason": "misdeal"},
                {"entered_by": "{bad}"},
                "entered_by",
            ),
            # A card the engine cannot read is named in its refusal: that echo was the 500.
            (
                "hand_recorded",
                {"mode": "cards", "knocker": 0, "knocker_cards": "9C {bad}"},
                {},
                "payload.knocker_cards",
            ),
            (
                "hand_recorded",
                {"mode": "cards", "players": [{"hand": "7S"}, {"hand": "{bad}"}]},
                {},
                "payload.players[1].hand",
            ),
        ],
    )
    def test_an_event_with_bad_text_is_refused_and_not_stored(
        self, raw_client, api_gin_table_with_a_hand, bad, event_type, payload, fields, field
    ):
        before = _counts()
        _refused(
            _append(
                raw_client,
                api_gin_table_with_a_hand,
                event_type,
                _spoil(payload, bad),
                **_spoil(fields, bad),
            ),
            field,
        )
        assert _counts() == before

    @pytest.mark.parametrize("bad", BAD)
    def test_taking_back_a_move_with_a_bad_reason_is_refused(self, raw_client, db, bad):
        made = _post_json(
            raw_client, "/api/v1/tables/", {"variant": "gin", "players": list(GIN.players)}
        ).json()
        event_type, payload = GIN.events[0]
        assert _append(raw_client, made, event_type, payload).status_code == 201
        before = _counts()
        response = _append(raw_client, made, "move_undone", {"reason": _spoiled(bad)})
        _refused(response, "payload.reason")
        assert _counts() == before

    @pytest.mark.parametrize("bad", BAD)
    @pytest.mark.parametrize(
        ("path", "body", "field"),
        [
            ("meld/", {"variant": "gin", "cards": "QS KS {bad}"}, "cards"),
            ("opening/", {"variant": "rummy40", "melds": ["QS KS AS", "{bad}"]}, "melds[1]"),
            ("hand/", {"variant": "gin", "cards": "QS", "options": {"{bad}": True}}, "options"),
            (
                "score/",
                {"variant": "gin", "players": [{"name": "{bad}"}, {"name": "Bruno"}]},
                "players[0].name",
            ),
        ],
    )
    def test_a_referee_question_with_bad_text_is_refused(
        self, raw_client, db, bad, path, body, field
    ):
        body = _spoil(body, bad)
        _refused(_post_json(raw_client, f"/api/v1/referee/{path}", body), field)

    def test_a_query_string_with_bad_text_is_refused_in_the_api_shape(
        self, raw_client, api_gin_table_with_a_hand
    ):
        response = raw_client.get(
            f"/api/v1/tables/{api_gin_table_with_a_hand['id']}/events/?after={MARK}%00",
            headers={"X-Table-Key": api_gin_table_with_a_hand["scorekeeper_key"]},
        )
        _refused(response, "after")

    def test_accented_italian_and_emoji_are_taken_as_they_are(self, raw_client, db):
        # The emoji as JSON writes it outside ASCII: a surrogate pair, one character.
        raw = '{"variant": "gin", "players": ["Niccol\\u00f2", "\\ud83c\\udfb4 \\u00c0gata"]}'
        made = raw_client.post("/api/v1/tables/", raw, content_type="application/json")
        assert made.status_code == 201, made.content
        table = made.json()
        assert [seat["name"] for seat in table["seats"]] == ["Niccolò", "🎴 Àgata"]
        hand = {"mode": "quick", "knocker": 0, "ending": "knock"}
        hand |= {"knocker_count": 7, "defender_count": 20}
        assert _append(raw_client, table, "hand_recorded", hand).status_code == 201
        reason = "perché è già stata contata 🎴\nseconda riga\tcon tab"
        voided = _append(raw_client, table, "hand_voided", {"hand": 1, "reason": reason})
        assert voided.status_code == 201, voided.content
        assert voided.json()["event"]["payload"]["reason"] == reason

    def test_a_multipart_body_of_the_api_is_checked_too(self, db):
        request = RequestFactory().post("/api/v1/imports/", {"target": _spoiled(NUL)})
        parser_context = {"request": request, "encoding": "utf-8"}
        with pytest.raises(BadText) as refused:
            CleanMultiPartParser().parse(
                io.BytesIO(request.body), request.META["CONTENT_TYPE"], parser_context
            )
        assert list(refused.value.detail["fields"]) == ["target"]
        assert MARK not in json.dumps(refused.value.detail)


HOME_FORM = {"variant": "gin", "gin__preset": "big_gin", "gin__target": "100", "player_2": "Bruno"}


def _page_refused(response, field: str) -> str:
    """Check the short 400 page naming ``field``, and that it echoes nothing."""
    assert response.status_code == 400, response.content[:300]
    page = response.content.decode()
    assert f"The field “{field}”" in page
    assert "Character " in page
    assert MARK not in page and "\x00" not in page and "\ufffd" not in page
    return page


def _urlencoded(fields: dict[str, str]) -> str:
    """Encode a form body as a browser would, lone surrogates as their (invalid) UTF-8."""
    return "&".join(
        f"{quote(k, errors='surrogatepass')}={quote(v, errors='surrogatepass')}"
        for k, v in fields.items()
    )


@pytest.mark.django_db
class TestThePages:
    @pytest.mark.parametrize("bad", BAD)
    def test_a_new_table_with_a_bad_player_name_is_refused(self, client, bad):
        before = _counts()
        response = client.post(
            "/",
            _urlencoded({**HOME_FORM, "player_1": _spoiled(bad)}),
            content_type="application/x-www-form-urlencoded",
        )
        _page_refused(response, "player_1")
        assert _counts() == before

    def test_a_new_table_with_accents_and_an_emoji_is_made(self, client):
        response = client.post("/", {**HOME_FORM, "player_1": "Niccolò 🎴"})
        assert response.status_code == 302
        assert Player.objects.filter(name="Niccolò 🎴").exists()

    @pytest.mark.parametrize("bad", BAD)
    def test_a_club_or_league_with_a_bad_name_is_refused(self, client, bad):
        world = club_world()
        client.force_login(world.owner)
        before = _counts()
        for path in ("/clubs/", f"/clubs/{world.club.slug}/leagues/new/"):
            body = _urlencoded({"name": _spoiled(bad), "variant": "gin"})
            response = client.post(path, body, content_type="application/x-www-form-urlencoded")
            _page_refused(response, "name")
        assert _counts() == before

    def test_a_club_name_in_italian_is_taken(self, client, db):
        client.force_login(club_world().outsider)
        assert client.post("/clubs/", {"name": "Circolo Perché 🎴"}).status_code == 302
        assert Club.objects.filter(name="Circolo Perché 🎴").exists()

    def test_a_text_area_keeps_its_line_breaks_and_refuses_nul(self, client):
        form = {
            "name": "Famiglia",
            "variant": "gin",
            "gin__preset": "big_gin",
            "gin__target": "100",
        }
        refused = client.post("/g/new/", {**form, "names": f"Anna\r\n{MARK}\x00{MARK}"})
        _page_refused(refused, "names")
        assert not Group.objects.exists()
        made = client.post("/g/new/", {**form, "names": "Anna\r\nBruno\r\nCàrla"})
        assert made.status_code == 302, made.content[:500]
        assert Group.objects.get().players.count() == 3

    @pytest.mark.parametrize(
        ("query", "field"),
        [
            (f"q={MARK}%00{MARK}", "q"),
            (f"q={MARK}%ED%A0%80{MARK}", "q"),
            (f"q={MARK}%1B{MARK}", "q"),
            (f"{MARK}%00{MARK}=1", "query"),
        ],
    )
    def test_a_query_string_with_bad_text_is_refused(self, client, query, field):
        _page_refused(client.get(f"/?{query}"), field)

    def test_a_good_query_string_passes(self, client):
        assert client.get("/?q=caf%C3%A9+%F0%9F%8E%B4").status_code == 200

    def test_htmx_gets_only_the_message(self, client):
        response = client.get("/referee/?q=%00", headers={"HX-Request": "true"})
        assert response.status_code == 400
        page = response.content.decode()
        assert "<html" not in page and 'role="alert"' in page and "“q”" in page

    def test_the_page_speaks_the_users_language(self, client):
        response = client.get("/?q=%00", headers={"Accept-Language": "it"})
        assert response.status_code == 400
        page = response.content.decode()
        assert 'lang="it"' in page and "Testo rifiutato" in page
        assert "Il carattere 1 è un carattere di controllo (U+0000)" in page

    def test_a_multipart_form_is_checked_when_it_is_read(self, client):
        # The keys page reads its form before the view (CSRF does); the import page only in
        # the view, once its upload is bounded: both answer the same page.
        client.force_login(club_world().owner)
        upload = SimpleUploadedFile("keys.json", b"{}", content_type="application/json")
        response = client.post("/keys/recovery/load/", {"file": upload, "note": _spoiled(NUL)})
        _page_refused(response, "note")
        before = _counts()
        upload = SimpleUploadedFile("table.jsonl", b"{}\n")
        response = client.post("/import/", {"file": upload, "target": f"{MARK}\x1f{MARK}"})
        _page_refused(response, "target")
        assert _counts() == before

    def test_a_file_name_with_control_characters_never_arrives(self, client):
        upload = SimpleUploadedFile("ke\x00ys\n.json", b"{}", content_type="application/json")
        response = client.post("/keys/recovery/load/", {"file": upload})
        assert response.status_code < 500
        assert "\x00" not in response.content.decode()


@pytest.mark.django_db
class TestNothingElseMakesA500:
    @pytest.mark.parametrize(
        "path",
        [
            "/t/%ED%A0%80/",
            "/t/%ED%A0%80/join/%ED%A0%80/",
            "/j/%ED%A0%80/",
            "/r/%ED%A0%80/",
            "/rules/%ED%A0%80/",
            "/invite/%ED%A0%80/",
            "/api/v1/tables/%ED%A0%80/",
        ],
    )
    def test_a_lone_surrogate_in_the_path_is_refused_by_the_view(self, client, path):
        # Django keeps bytes that are not UTF-8 percent-encoded in the path: no such page.
        response = client.get(path)
        assert response.status_code in (302, 404)
        assert "\ufffd" not in response.content.decode()

    @pytest.mark.parametrize(
        "path", ["/j/a%00b/", "/r/a%00b/", "/rules/a%00b/", "/invite/a%00/", "/t/a%01/join/b/"]
    )
    def test_a_control_character_in_the_path_is_no_pages_address(self, client, path):
        # Before the view, which would look it up (PostgreSQL refuses NUL in a query).
        assert client.get(path).status_code == 404

    @pytest.mark.parametrize(
        "headers",
        [
            {"X-Table-Key": "\x00"},
            {"X-Table-Key": "\xed\xa0\x80"},  # a lone surrogate's bytes, as WSGI gives them
            {"X-Table-Key": "a,\x00,\xff"},
            {"Accept-Language": "\x00,\xed\xa0\x80;q=0.5"},
            {"HX-Request": "true", "HX-Current-URL": "http://testserver/%ED%A0%80\x00"},
            {"Cookie": "sessionid=\x00; csrftoken=\xed\xa0\x80"},
        ],
    )
    def test_bad_bytes_in_headers_make_no_500(self, client, api_gin_table_with_a_hand, headers):
        for path in (
            "/",
            f"/t/{api_gin_table_with_a_hand['id']}/",
            "/api/v1/tables/",
            f"/api/v1/tables/{api_gin_table_with_a_hand['id']}/",
        ):
            assert client.get(path, headers=headers).status_code < 500, (path, headers)
