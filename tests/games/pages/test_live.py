"""A table's live stream (games.pages.live): the GRIP answer the push engine holds open,
authorised by the watch token exactly as the idle poll it replaces."""

import html
import re

import pytest
from django.test import Client

from games.tables import heads
from tests.games.pages.test_idle_polls import _poll_address, _record_hand
from tests.games.pages.test_pages import _create
from tests.push_engine import from_the_engine

ENGINE = from_the_engine()


def _live_address(page: str, name: str = "board") -> str:
    element = re.search(rf'id="{name}"[^>]*data-live="([^"]+)"', page, re.S)
    assert element, "the page names no stream"
    return html.unescape(element.group(1))


class TestTheStream:
    def test_the_engine_is_told_to_hold_it_on_the_table_channel(
        self, phone_with_push_on, django_assert_num_queries
    ):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        assert stream.startswith(f"/t/{table.id}/live/?w=")
        with django_assert_num_queries(0):  # the head from the cache, no session
            answer = Client().get(stream, **ENGINE)  # the token alone, like the idle poll
        assert answer.status_code == 200
        assert answer["Content-Type"] == "text/event-stream"
        assert answer["Grip-Hold"] == "stream"
        assert answer["Grip-Channel"] == f"table-{table.id}"
        assert "timeout=20" in answer["Grip-Keep-Alive"]
        assert answer["X-Accel-Buffering"] == "no"  # for nginx in front of the engine
        assert "no-cache" in answer["Cache-Control"]
        # A phone that names no last event is told the head: the creation, seq 1.
        assert answer.content.decode() == "retry: 1000\n\nid: 1\nevent: head\ndata: 1\n\n"
        assert "sessionid" not in answer.cookies

    def test_a_reopened_stream_resumes_after_the_last_event_the_phone_saw(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        _record_hand(phone_with_push_on, table)  # seq 2, while this phone's stream was down
        missed = Client().get(stream, HTTP_LAST_EVENT_ID="1", **ENGINE).content.decode()
        assert missed.endswith("id: 2\nevent: head\ndata: 2\n\n")
        seen = Client().get(stream, HTTP_LAST_EVENT_ID="2", **ENGINE).content.decode()
        assert seen == "retry: 1000\n\nevent: open\ndata: \n\n"

    def test_the_head_is_read_from_the_log_when_the_cache_has_none(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        _record_hand(phone_with_push_on, table)
        heads.cache.delete(f"table-head:{table.id}")
        answer = Client().get(stream, **ENGINE).content.decode()
        assert answer.endswith("id: 2\nevent: head\ndata: 2\n\n")
        assert heads.head_cached(table.id) == 2

    def test_a_table_whose_rematch_started_tells_its_phones_to_poll(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        heads.head_retire(table.id)
        answer = Client().get(stream, **ENGINE).content.decode()
        assert answer == "retry: 1000\n\nevent: moved\ndata: \n\n"


class TestWhoMayOpenIt:
    def test_a_forged_or_other_tables_token_is_refused(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        other = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        token = stream.split("w=")[1]
        forged = stream.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
        assert Client().get(forged, **ENGINE).status_code == 403
        elsewhere = stream.replace(str(table.id), str(other.id))
        assert Client().get(elsewhere, **ENGINE).status_code == 403
        assert Client().get(f"/t/{table.id}/live/", **ENGINE).status_code == 403

    def test_without_the_engine_in_front_there_is_no_stream(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        # Straight to the app (no Grip-Sig): a held answer would only close at once.
        assert Client().get(stream).status_code == 404

    @pytest.mark.parametrize(
        "signature",
        [
            {"key": "another-signing-key-of-some-other-engine"},  # forged: not the site's key
            {"issuer": "someone-else"},
            {"seconds": -60},  # expired
        ],
        ids=["another-key", "another-issuer", "expired"],
    )
    def test_a_signature_the_engine_did_not_make_opens_no_stream(
        self, phone_with_push_on, signature
    ):
        table = _create(phone_with_push_on)
        stream = _live_address(phone_with_push_on.get(f"/t/{table.id}/").content.decode())
        assert Client().get(stream, **from_the_engine(**signature)).status_code == 404
        assert Client().get(stream, HTTP_GRIP_SIG="signed-by-the-engine").status_code == 404
        assert Client().get(stream, **ENGINE).status_code == 200


class TestPushOff:
    def test_pages_name_no_stream_and_poll_as_before(self, phone_with_push_on, settings):
        settings.PUSH_URL = ""
        table = _create(phone_with_push_on)
        page = phone_with_push_on.get(f"/t/{table.id}/").content.decode()
        assert "data-live" not in page
        assert "since=1&w=" in _poll_address(page)
        room = phone_with_push_on.get(f"/t/{table.id}/tv/").content.decode()
        assert "data-live" not in room
        token = _poll_address(page).split("w=")[1]
        assert Client().get(f"/t/{table.id}/live/?w={token}", **ENGINE).status_code == 404

    def test_the_room_screen_names_the_same_stream(self, phone_with_push_on):
        table = _create(phone_with_push_on)
        room = phone_with_push_on.get(f"/t/{table.id}/tv/").content.decode()
        stream = _live_address(room, "tv-board")
        assert Client().get(stream, **ENGINE)["Grip-Channel"] == f"table-{table.id}"
        assert 'data-live-seq="1"' in room
