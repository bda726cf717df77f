"""Idle polls answered from the cached head, before the session and the database
(games.pages.idle_polls), and never in place of news or of the access check."""

import html
import re

import pytest
from django.core.cache import cache
from django.test import Client

from games.tables import heads
from tests.games.pages.test_pages import _create, _hand_data


def _poll_address(page: str, name: str = "board") -> str:
    """Return the address the page's board polls, as htmx will ask it."""
    element = re.search(rf'id="{name}"[^>]*hx-get="([^"]+)"', page, re.S)
    return html.unescape(element.group(1))


def _record_hand(phone: Client, table) -> None:
    page = phone.get(f"/t/{table.id}/").content.decode()
    data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
    assert phone.post(f"/t/{table.id}/hands/", data).status_code == 302


class TestIdlePolls:
    def test_an_idle_poll_needs_no_query_and_no_session(self, phone, django_assert_num_queries):
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        assert "since=1&w=" in poll
        stranger = Client()  # no session at all: the token alone is asked for
        with django_assert_num_queries(0):
            response = stranger.get(poll, HTTP_HX_REQUEST="true")
        assert response.status_code == 204
        assert "no-cache" in response["Cache-Control"]
        assert "sessionid" not in response.cookies

    def test_news_goes_through_the_view_and_its_key_check(self, phone):
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        _record_hand(phone, table)
        assert heads.head_cached(table.id) == 2
        news = phone.get(poll, HTTP_HX_REQUEST="true")
        assert news.status_code == 200 and 'id="history"' in news.content.decode()
        # Without the table's key the token tells a phone nothing but "no news".
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 404

    def test_a_forged_expired_or_other_tables_token_goes_through_the_view(self, phone, monkeypatch):
        table = _create(phone)
        other = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        token = poll.split("w=")[1]
        stranger = Client()
        forged = poll.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
        assert stranger.get(forged, HTTP_HX_REQUEST="true").status_code == 404
        elsewhere = f"/t/{other.id}/?since=1&w={token}"
        assert stranger.get(elsewhere, HTTP_HX_REQUEST="true").status_code == 404
        monkeypatch.setattr(heads, "WATCH_SECONDS", -1)
        assert stranger.get(poll, HTTP_HX_REQUEST="true").status_code == 404
        # The phone with the key still gets its 204, from the view.
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204

    def test_a_head_lost_from_the_cache_is_put_back_by_the_view(self, phone):
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
        cache.delete(f"table-head:{table.id}")
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 404
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204
        assert heads.head_cached(table.id) == 1
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204

    def test_a_cache_that_is_down_sends_polls_through_the_view(self, phone, monkeypatch):
        table = _create(phone)
        poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())

        class Down:
            def __getattr__(self, name):
                raise ConnectionError("cache down")

        monkeypatch.setattr(heads, "cache", Down())
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 404
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 204
        _record_hand(phone, table)  # the append is stored all the same
        assert table.events.count() == 2

    def test_the_room_screen_polls_the_same_way(self, phone):
        table = _create(phone)
        page = phone.get(f"/t/{table.id}/tv/").content.decode()
        poll = _poll_address(page, "tv-board")
        assert f"/t/{table.id}/tv/?since=1&w=" in poll
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204
        _record_hand(phone, table)
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 404
        assert phone.get(poll, HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize("since", ["²", "9" * 10, "9" * 5000, "-1"])
def test_a_since_that_is_no_seq_is_never_an_error(phone, since):
    """A poll's seq is read bounded: odd digits or thousands of them are no 500."""
    table = _create(phone)
    poll = _poll_address(phone.get(f"/t/{table.id}/").content.decode())
    token = poll.split("w=")[1]
    for path in (f"/t/{table.id}/", f"/t/{table.id}/tv/"):
        response = phone.get(path, {"since": since, "w": token}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200


def test_a_shown_seq_that_is_no_seq_gets_the_whole_history(phone):
    table = _create(phone)
    page = phone.get(f"/t/{table.id}/").content.decode()
    data = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
    data["shown_seq"] = "9" * 5000
    response = phone.post(f"/t/{table.id}/hands/", data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<section id="history" class="card" hx-swap-oob="true">' in body
    assert table.events.count() == 2
