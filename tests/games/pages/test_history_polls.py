"""A poll with news brings the board and only what changed in the history; the table page
shows the latest hands and links to the rest, a page at a time."""

import re

import pytest
from django.test import Client

from tests.games.pages.test_pages import _create
from tests.payloads import quick

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def phone(db):
    return Client()


def _hands(append, table, count: int) -> None:
    """Record ``count`` one-point knocks, the seats taking turns (nobody nears 100)."""
    for number in range(count):
        append(table, "hand_recorded", quick(number % 2, "knock", 1, 2))
    table.refresh_from_db()


class TestPollNews:
    def test_the_first_hand_brings_the_whole_history(self, phone, append):
        table = _create(phone)
        _hands(append, table, 1)
        body = phone.get(f"/t/{table.id}/?since=1", **HX).content.decode()
        assert '<section id="history" class="card" hx-swap-oob="true">' in body
        assert 'id="hand-1"' in body

    def test_a_new_hand_comes_alone_on_top_of_the_list(self, phone, append):
        table = _create(phone)
        _hands(append, table, 3)
        since = table.head_seq
        _hands(append, table, 1)
        body = phone.get(f"/t/{table.id}/?since={since}", **HX).content.decode()
        assert '<ol hx-swap-oob="afterbegin:#history-list">' in body
        assert 'id="hand-4"' in body
        assert 'id="hand-3"' not in body and 'id="history"' not in body
        assert 'id="chart" hx-swap-oob="true"' in body
        # Anna won hands 1, 3 and 4 (the new hand is counted from 0 again), Bruno hand 2.
        assert 'data-testid="total-0">3<' in body and 'data-testid="total-1">1<' in body

    def test_a_corrected_hand_is_replaced_in_place(self, phone, append):
        table = _create(phone)
        _hands(append, table, 3)
        since = table.head_seq
        append(table, "hand_voided", {"hand": 2, "reason": "misdeal"})
        body = phone.get(f"/t/{table.id}/?since={since}", **HX).content.decode()
        assert 'id="hand-2" class="hand voided" data-hand="2" hx-swap-oob="true"' in body
        assert 'id="hand-1"' not in body and 'id="hand-3"' not in body
        assert "misdeal" in body

    def test_news_stays_small_on_a_long_table(self, phone, append):
        table = _create(phone)
        _hands(append, table, 40)
        since = table.head_seq
        _hands(append, table, 1)
        body = phone.get(f"/t/{table.id}/?since={since}", **HX).content
        assert len(body) < 10_000, len(body)


class TestOlderHands:
    def test_the_table_shows_the_latest_twenty_and_links_to_the_rest(self, phone, append):
        table = _create(phone)
        _hands(append, table, 26)
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'id="hand-26"' in page and 'id="hand-7"' in page
        assert 'id="hand-6"' not in page
        assert "6 older hands" in page

    def test_the_hands_page_lists_every_hand_newest_first(self, phone, append):
        table = _create(phone)
        _hands(append, table, 26)
        page = phone.get(f"/t/{table.id}/history/").content.decode()
        numbers = [int(n) for n in re.findall(r'id="hand-(\d+)"', page)]
        assert numbers == list(range(26, 0, -1))
        assert "Hands 1–26 of 26, newest first." in page

    def test_the_hands_page_is_only_for_the_tables_phones(self, phone, append):
        table = _create(phone)
        _hands(append, table, 1)
        assert Client().get(f"/t/{table.id}/history/").status_code in (403, 404)
