"""A poll with news brings the board and only what changed in the history; the table page
shows the latest hands and links to the rest, a page at a time."""

import re

from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.test import Client

from rummyref.release import code_version
from tests.games.pages.test_pages import _create
from tests.games.sharing import join_from
from tests.payloads import quick

HX = {"HTTP_HX_REQUEST": "true"}


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


def _save(phone, table, shown_seq=None, **hand):
    """Save a one-point knock through the page's form, as htmx sends it."""
    page = phone.get(f"/t/{table.id}/").content.decode()
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    data = {"event_id": event_id, "expected_seq": expected, "mode": "quick"}
    data.update(knocker="0", ending="knock", knocker_count="1", defender_count="2", **hand)
    if shown_seq is not None:
        data["shown_seq"] = str(shown_seq)
    return phone.post(f"/t/{table.id}/hands/", data, **HX)


class TestSaveAnswer:
    def test_a_save_brings_the_board_the_new_entry_and_a_fresh_form(self, phone, append):
        table = _create(phone)
        _hands(append, table, 3)
        response = _save(phone, table, shown_seq=table.head_seq)
        # It lands where the form says (hx-target="#board"): no header moves it.
        assert response.status_code == 200 and "HX-Retarget" not in response
        body = response.content.decode()
        assert body.lstrip().startswith('<section id="board"')
        assert '<ol hx-swap-oob="afterbegin:#history-list">' in body and 'id="hand-4"' in body
        assert 'id="hand-3"' not in body and 'id="history"' not in body
        # Not the form again: its keys for the next hand, at the new head, with an event id
        # of its own (the form stays on the page, emptied by app.js).
        assert '<span id="hand-form-keys" hx-swap-oob="true">' in body
        assert 'id="hand-form-slot"' not in body and 'id="hand-form"' not in body
        table.refresh_from_db()
        assert f'name="expected_seq" value="{table.head_seq}"' in body
        sent = table.events.get(seq=table.head_seq).event_id
        assert str(sent) not in body
        # GIN-SCORE-KNOCK: 2 - 1 = 1 to the knocker; Anna knocked hands 1, 3 and the new 4.
        assert 'data-testid="total-0">3<' in body

    def test_hands_other_phones_recorded_since_come_with_it(self, phone, append):
        table = _create(phone)
        _hands(append, table, 2)
        shown = table.head_seq
        _hands(append, table, 1)  # another phone, after this one's board was drawn
        body = _save(phone, table, shown_seq=shown).content.decode()
        assert 'id="hand-3"' in body and 'id="hand-4"' in body and 'id="hand-2"' not in body

    def test_the_answer_is_smaller_than_the_whole_of_main(self, phone, append):
        table = _create(phone)
        _hands(append, table, 30)
        small = _save(phone, table, shown_seq=table.head_seq)
        table.refresh_from_db()
        whole = _save(phone, table)  # a phone that does not say what it shows
        assert '<section id="history" class="card" hx-swap-oob="true">' in whole.content.decode()
        assert len(small.content) < len(whole.content) - 5_000

    def test_a_head_past_the_log_gets_the_whole_history(self, phone):
        table = _create(phone)
        response = _save(phone, table, shown_seq=99)
        body = response.content.decode()
        assert response.status_code == 200 and body.lstrip().startswith('<section id="board"')
        assert '<section id="history" class="card" hx-swap-oob="true">' in body


class TestKeptEntries:
    """A hand's entry is rendered once per table, hand, role and language, then kept."""

    def test_an_entry_is_kept_and_each_role_and_language_gets_its_own(self, phone, append):
        table = _create(phone)
        _hands(append, table, 2)
        assert "Amend" in phone.get(f"/t/{table.id}/").content.decode()
        hand_seq = table.events.filter(type="hand_recorded").first().seq
        key = make_template_fragment_key(
            "hand_entry", [table.id, hand_seq, 0, "scorekeeper", "en", False]
        )
        assert caches["template_fragments"].get(key) is not None
        viewer = Client()
        join_from(phone, viewer, table, "viewer")
        page = viewer.get(f"/t/{table.id}/").content.decode()
        assert 'id="hand-1"' in page and ">Amend<" not in page
        italian = viewer.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "Calcolo dei punti" in italian and "How it scored" not in italian

    def test_an_entry_drawn_by_other_code_is_not_shown_after_a_deploy(
        self, phone, append, settings
    ):
        """The shared cache outlives a deploy: the pieces the {% cache %} tag keeps are
        under a prefix naming the code (rummyref/release.py), so the new code draws its own."""
        assert settings.CACHES["template_fragments"]["KEY_PREFIX"].endswith(code_version())
        table = _create(phone)
        _hands(append, table, 1)
        hand_seq = table.events.get(type="hand_recorded").seq
        key = make_template_fragment_key(
            "hand_entry", [table.id, hand_seq, 0, "scorekeeper", "en", False]
        )
        fragments = settings.CACHES["template_fragments"]
        settings.CACHES = {
            **settings.CACHES,
            "template_fragments": {**fragments, "KEY_PREFIX": "before"},
        }
        caches["template_fragments"].set(key, '<li id="hand-1" class="hand">drawn before</li>')
        assert "drawn before" in phone.get(f"/t/{table.id}/").content.decode()
        settings.CACHES = {
            **settings.CACHES,
            "template_fragments": {**fragments, "KEY_PREFIX": "after"},
        }
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert "drawn before" not in page and 'id="hand-1"' in page

    def test_a_correction_shows_at_once(self, phone, append):
        table = _create(phone)
        _hands(append, table, 2)
        assert "misdeal" not in phone.get(f"/t/{table.id}/").content.decode()
        append(table, "hand_voided", {"hand": 1, "reason": "misdeal"})
        page = phone.get(f"/t/{table.id}/").content.decode()
        assert 'id="hand-1" class="hand voided"' in page and "misdeal" in page
