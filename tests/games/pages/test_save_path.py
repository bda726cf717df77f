"""A quick hand's save on one screen: the view checks the form against the engine's state,
calls one service and renders the page the one selector draws from the service's result.
Its queries are counted through the page and through the API, with the table's state kept
as the code keeps it (this process's snapshot, from the saves before); so are the table
page's and a poll's, and the project's modules each crosses (tests/games/crossings.py)."""

import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Event, Table
from games.tables import services as table_services
from games.tables import snapshots
from tests.games.crossings import crossing
from tests.games.pages.hand_form_keys import hand_form_keys

# Gin to 500, so a few hands leave the match open; the knocker 7, the defender 20.
GIN_TABLE = {
    "variant": "gin",
    "players": "2",
    "player_1": "Anna",
    "player_2": "Bruno",
    "gin__preset": "big_gin",
    "gin__target": "500",
}
KNOCK = {"mode": "quick", "knocker": 0, "ending": "knock", "knocker_count": 7, "defender_count": 20}
HANDS_BEFORE = 3
# What a save may send: the session, the table with its keys' role, the lock (which also
# tells a retry), the event's insert, the head's update.
SAVE_QUERIES = 5
# The API's: the same but the session (its key comes in a header).
API_SAVE_QUERIES = 4
# The table page: the session, the table, the history's events.
PAGE_QUERIES = 3
# The project's modules a save through the page crosses, everything counted (middleware,
# the engine, the templates' tags), and of them those of games/ on its own path (beneath
# the view's call, templates left out): 46 and 25 when counted (47 and 28 before the
# page's one selector), then 47 with the push after the commit (games.tables.push) and the
# board's stream attribute (games.templatetags.live), 49 with the night's push told of the
# head's move by signal (games.tournaments.receivers and .push; 27 of games on the path).
# Where the shared cache is Redis, its guard (games.shared.cache) is crossed too: 50, 28.
# The target is nearer 10: these are ceilings, not goals.
SAVE_MODULES, SAVE_PATH_GAMES_MODULES = 50, 28
# What a save may cross of the parts above tables: only the receiver of the signal a head's
# move sends, and the push it makes for a table of a night (docs/live.md).
TOLD_BY_SIGNAL = {"games.tournaments.receivers", "games.tournaments.push"}


def _save(phone: Client, table: Table, keys: dict):
    return phone.post(f"/t/{table.id}/hands/", {**keys, **KNOCK}, HTTP_HX_REQUEST="true")


# A transaction's bounds (a savepoint inside the test's own transaction) are not queries.
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


@pytest.fixture
def played(db) -> tuple[Client, Table]:
    """A phone keeping score at a Gin table with hands recorded already."""
    phone = Client()
    answer = phone.post("/", GIN_TABLE)
    table = Table.objects.get(pk=answer.url.split("/")[2])
    for _hand in range(HANDS_BEFORE):
        assert _save(phone, table, hand_form_keys(phone, table)).status_code == 200
    return phone, table


def _counted(call):
    with CaptureQueriesContext(connection) as queries:
        crossed = crossing(call)
    statements = [query["sql"] for query in queries.captured_queries]
    return crossed, [sql for sql in statements if not sql.startswith(TRANSACTION_CONTROL)]


class TestAQuickHandsSave:
    def test_from_the_page_sends_five_queries_at_most(self, played):
        phone, table = played
        keys = hand_form_keys(phone, table)
        crossed, queries = _counted(lambda: _save(phone, table, keys))
        assert crossed.answer.status_code == 200
        assert len(queries) <= SAVE_QUERIES, "\n".join(queries)
        table.refresh_from_db()
        assert table.head_seq == 1 + HANDS_BEFORE + 1
        # The answer holds the new hand's line and the board's new totals: the knocker's
        # 20 - 7 = 13 a hand, four hands now (GIN-KNOCK).
        page = crossed.answer.content.decode()
        assert 'data-testid="total-0">52<' in page
        assert 'hx-swap-oob="afterbegin:#history-list"' in page

    def test_from_the_page_crosses_no_more_modules_than_counted(self, played):
        phone, table = played
        keys = hand_form_keys(phone, table)
        crossed = crossing(lambda: _save(phone, table, keys))
        assert len(crossed.modules) <= SAVE_MODULES, sorted(crossed.modules)
        on_path = crossed.under("games", crossed.path)
        assert len(on_path) <= SAVE_PATH_GAMES_MODULES, sorted(on_path)
        # The view, its one service and its selectors; never another page's or part's.
        assert {"games.pages.tables", "games.tables.services", "games.tables.selectors"} <= on_path
        assert crossed.under("games.tournaments") <= TOLD_BY_SIGNAL
        assert not crossed.under("games.standings")

    def test_from_the_page_draws_one_board_and_parses_no_options(self, played):
        phone, table = played
        keys = hand_form_keys(phone, table)
        crossed = crossing(lambda: _save(phone, table, keys))
        assert crossed.calls["games.tables.board", "board_from_state"] == 1
        # The engine's state holds the options as its rules read them: nothing parses them.
        assert crossed.calls["scoring.variants.gin", "options_from_dict"] == 0
        # The hand form is built once, to check the entry; the answer sends its fresh keys.
        assert crossed.calls["games.pages.entries.knocker_defender", "__init__"] == 1

    def test_from_another_process_reads_the_shared_snapshot(self, played):
        """A process that kept nothing of the table (another worker) starts from the shared
        cache's snapshot, as the code does, and reads no more of the log for it."""
        phone, table = played
        keys = hand_form_keys(phone, table)
        snapshots.forget_here()
        crossed, queries = _counted(lambda: _save(phone, table, keys))
        assert crossed.answer.status_code == 200
        assert len(queries) <= SAVE_QUERIES + 1, "\n".join(queries)

    def test_through_the_api_sends_four_queries_at_most(self, db):
        table = table_services.table_create(
            variant="gin", options={"preset": "big_gin", "target": 500}, players=["Anna", "Bruno"]
        )
        api = APIClient()

        def post(expected_seq: int):
            body = {
                "event_id": str(uuid.uuid4()),
                "expected_seq": expected_seq,
                "type": "hand_recorded",
                "payload": KNOCK,
            }
            return api.post(
                f"/api/v1/tables/{table.id}/events/",
                body,
                format="json",
                HTTP_X_TABLE_KEY=table.scorekeeper_key,
            )

        for head in range(1, 1 + HANDS_BEFORE):
            assert post(head).status_code == 201
        crossed, queries = _counted(lambda: post(1 + HANDS_BEFORE))
        assert crossed.answer.status_code == 201, crossed.answer.content
        assert len(queries) <= API_SAVE_QUERIES, "\n".join(queries)
        assert crossed.answer.json()["totals"] == [52, 0]

    def test_a_retry_is_answered_with_the_stored_event(self, played):
        phone, table = played
        keys = hand_form_keys(phone, table)
        assert _save(phone, table, keys).status_code == 200
        again = _save(phone, table, keys)
        assert again.status_code == 200
        assert Event.objects.filter(event_id=keys["event_id"]).count() == 1


class TestTheTablePage:
    def test_loads_in_three_queries(self, played):
        phone, table = played
        crossed, queries = _counted(lambda: phone.get(f"/t/{table.id}/"))
        assert crossed.answer.status_code == 200
        assert len(queries) <= PAGE_QUERIES, "\n".join(queries)
        # One board, its options parsed once: the hand form and the outbox's scoring model
        # take them from it.
        assert crossed.calls["games.tables.board", "board_from_state"] == 1
        assert crossed.calls["scoring.variants.gin", "options_from_dict"] == 1

    def test_a_poll_with_news_reads_no_more_than_the_page(self, played):
        phone, table = played
        seen = table.head_seq
        assert _save(phone, table, hand_form_keys(phone, table)).status_code == 200
        crossed, queries = _counted(
            lambda: phone.get(f"/t/{table.id}/?since={seen}", HTTP_HX_REQUEST="true")
        )
        assert crossed.answer.status_code == 200
        assert len(queries) <= PAGE_QUERIES, "\n".join(queries)
        # A scorekeeper's poll draws no hand form (the page keeps its own, and moves its head
        # on from the board's): only the board, the hand in play and the history's news.
        assert crossed.calls["games.pages.entries.knocker_defender", "__init__"] == 0
        # Four hands now, each 20 - 7 = 13 to the knocker (GIN-KNOCK).
        assert 'data-testid="total-0">52<' in crossed.answer.content.decode()
