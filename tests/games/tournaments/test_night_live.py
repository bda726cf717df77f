"""A night's screens follow a stream (docs/live.md): each commit that moves the night's
version (a round started, a check-in, a call, a hand at one of its tables) pushes that
version on the night's channel, and each screen's stream is let in exactly as the screen."""

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.tables import push
from games.tables import services as table_services
from games.tournaments.models import RoundTable
from tests.factories import TableFactory
from tests.games.tournaments import test_night_pages
from tests.payloads import quick
from tests.push_engine import SIG_KEY, from_the_engine

pytestmark = pytest.mark.django_db

# The night pages' night (a Swiss night of the club's players, not started); the director
# is the shared fixture (tests/games/tournaments/conftest.py).
gin_night_made_on_pages = test_night_pages.gin_night_made_on_pages
_room_link = test_night_pages._room_link

ENGINE = from_the_engine()


@pytest.fixture
def night_pushes_sent(settings, monkeypatch, django_capture_on_commit_callbacks):
    """Push on, and what is handed to the sender after each commit (nothing sent for real)."""
    settings.PUSH_URL = "http://127.0.0.1:9"
    settings.PUSH_SIG_KEY = SIG_KEY
    sent: list[push.Push] = []
    monkeypatch.setattr(push.publisher, "send", sent.append)
    return sent


def _night_pushes(sent, tournament) -> list[str]:
    """The versions pushed on the night's channel, each checked to be the event it says."""
    versions = []
    for item in sent:
        if item.channel == f"night-{tournament.pk}":
            assert item.content == f"id: {item.event_id}\nevent: night\ndata: {item.event_id}\n\n"
            versions.append(item.event_id)
    return versions


def _shown_version(page: str) -> str:
    """The night's version a room screen shows (the one its poll asks about)."""
    return re.search(r'data-live-version="([^"]+)"', page)[1]


def _hand(table_id, expected_seq: int):
    return table_services.event_append(
        table_id=table_id,
        event_id=uuid.uuid4(),
        expected_seq=expected_seq,
        event_type="hand_recorded",
        payload=quick(0, "gin", 0, 30),
    )


class TestTheNightIsPushedWhereItMoves:
    def test_a_round_start_a_hand_and_a_call_each_push_what_the_room_then_shows(
        self,
        world,
        director,
        gin_night_made_on_pages,
        night_pushes_sent,
        django_capture_on_commit_callbacks,
    ):
        tournament, url = gin_night_made_on_pages
        room = _room_link(director, url)
        night_pushes_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            assert director.post(url + "rounds/").status_code == 302
        started = _night_pushes(night_pushes_sent, tournament)
        shown = _shown_version(Client().get(room).content.decode())
        # The round's start (and its tables' creations, in the same commit): the version the
        # room screen shows now, last.
        assert started and started[-1] == shown

        pairing = RoundTable.objects.filter(round__tournament=tournament).first()
        night_pushes_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            _hand(pairing.table_id, 1)
        after_hand = _night_pushes(night_pushes_sent, tournament)
        assert after_hand == [_shown_version(Client().get(room).content.decode())]
        assert after_hand != [shown]

        guest = director  # the director's phone holds every table of the round
        night_pushes_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            assert guest.post(f"/t/{pairing.table_id}/call-director/").status_code == 302
        called = _night_pushes(night_pushes_sent, tournament)
        assert called == [_shown_version(Client().get(room).content.decode())]
        assert called != after_hand

    def test_a_check_out_pushes_the_night(
        self,
        world,
        director,
        gin_night_made_on_pages,
        night_pushes_sent,
        django_capture_on_commit_callbacks,
    ):
        tournament, url = gin_night_made_on_pages
        entrant = tournament.entrants.first()
        before = _shown_version(Client().get(_room_link(director, url)).content.decode())
        night_pushes_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            response = director.post(url + f"entrants/{entrant.pk}/", {"state": "out"})
            assert response.status_code == 302
        assert len(_night_pushes(night_pushes_sent, tournament)) == 1
        assert _night_pushes(night_pushes_sent, tournament) != [before]

    def test_a_hand_at_a_table_of_no_night_pushes_no_night(
        self, world, night_pushes_sent, django_capture_on_commit_callbacks
    ):
        table = TableFactory()
        with django_capture_on_commit_callbacks(execute=True):
            _hand(table.id, 1)
        assert [item.channel for item in night_pushes_sent] == [f"table-{table.id}"]

    def test_after_a_hand_s_commit_one_query_finds_the_night_and_its_version(
        self,
        world,
        director,
        gin_night_made_on_pages,
        night_pushes_sent,
        django_capture_on_commit_callbacks,
    ):
        """What a save at a night's table pays once committed: one query, which tells the
        night and its version, at a table of a night or not."""
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        pairing = RoundTable.objects.filter(round__tournament=tournament).first()
        elsewhere = TableFactory()
        for table_id in (pairing.table_id, elsewhere.id):
            with django_capture_on_commit_callbacks() as after_commit:
                _hand(table_id, 1)
            pushes = [c for c in after_commit if c.__module__ == push.__name__]
            with CaptureQueriesContext(connection) as queries:
                for callback in pushes:
                    callback()
            assert len(queries) == 1, [query["sql"] for query in queries.captured_queries]
        # The version pushed for the table's hand is the one the night's screens then show.
        shown = _shown_version(Client().get(_room_link(director, url)).content.decode())
        assert _night_pushes(night_pushes_sent, tournament) == [shown]

    def test_nothing_is_pushed_when_a_round_start_rolls_back(
        self,
        world,
        director,
        gin_night_made_on_pages,
        night_pushes_sent,
        django_capture_on_commit_callbacks,
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        night_pushes_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            # Refused: the first round's tables are still playing.
            director.post(url + "rounds/")
        assert _night_pushes(night_pushes_sent, tournament) == []


class TestTheNightsStreams:
    def test_the_room_screen_streams_by_its_link_and_resumes_from_the_version_seen(
        self, world, director, gin_night_made_on_pages, night_pushes_sent
    ):
        tournament, url = gin_night_made_on_pages
        room = _room_link(director, url)
        page = Client().get(room).content.decode()
        version = _shown_version(page)
        assert f'data-live="{room}live/"' in page
        answer = Client().get(room + "live/", **ENGINE)
        assert answer.status_code == 200
        assert answer["Grip-Hold"] == "stream"
        assert answer["Grip-Channel"] == f"night-{tournament.pk}"
        assert answer["X-Accel-Buffering"] == "no"
        assert answer.content.decode() == (
            f"retry: 1000\n\nid: {version}\nevent: night\ndata: {version}\n\n"
        )
        seen = Client().get(room + "live/", HTTP_LAST_EVENT_ID=version, **ENGINE)
        assert seen.content.decode() == "retry: 1000\n\nevent: open\ndata: \n\n"

    def test_a_stream_is_refused_without_the_engine_the_link_or_push(
        self, world, director, gin_night_made_on_pages, settings, night_pushes_sent
    ):
        _tournament, url = gin_night_made_on_pages
        room = _room_link(director, url)
        assert Client().get(room + "live/").status_code == 404  # not through the engine
        assert Client().get("/room/not-a-token/live/", **ENGINE).status_code == 404
        settings.PUSH_URL = ""
        assert Client().get(room + "live/", **ENGINE).status_code == 404
        assert "data-live" not in Client().get(room).content.decode()

    def test_the_director_s_and_members_streams_are_for_members_only(
        self, world, director, gin_night_made_on_pages, night_pushes_sent
    ):
        tournament, url = gin_night_made_on_pages
        page = director.get(url).content.decode()
        assert f'data-live="{url}live/"' in page and 'hx-select="#night-live"' in page
        assert f'data-live="{url}live/"' in director.get(url + "tv/").content.decode()
        answer = director.get(url + "live/", **ENGINE)
        assert answer.status_code == 200 and answer["Grip-Channel"] == f"night-{tournament.pk}"
        outsider = Client()
        outsider.force_login(world.outsider)
        assert outsider.get(url + "live/", **ENGINE).status_code == 404

    def test_the_players_night_page_streams_by_the_table_s_key(
        self, world, director, gin_night_made_on_pages, night_pushes_sent
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        table_id = RoundTable.objects.filter(round__tournament=tournament).first().table_id
        page = director.get(f"/t/{table_id}/night/").content.decode()
        assert f'data-live="/t/{table_id}/night/live/"' in page
        answer = director.get(f"/t/{table_id}/night/live/", **ENGINE)
        assert answer.status_code == 200 and answer["Grip-Channel"] == f"night-{tournament.pk}"
        assert Client().get(f"/t/{table_id}/night/live/", **ENGINE).status_code == 404  # no key


class TestAPageNeverClaimsAVersionNewerThanItDraws:
    """live.js skips a fetch when a page already claims the version it heard of; so a page
    reads the version before what it draws (docs/live.md)."""

    @pytest.mark.parametrize("page", ["director's", "players'"])
    def test_a_hand_saved_while_the_page_is_drawn(
        self, world, director, gin_night_made_on_pages, night_pushes_sent, monkeypatch, page
    ):
        from games.pages import tournaments as night_pages
        from games.tournaments import selectors

        tournament, url = gin_night_made_on_pages
        assert director.post(url + "rounds/").status_code == 302
        pairing = RoundTable.objects.filter(round__tournament=tournament).first()
        before = selectors.night_version(tournament=tournament)
        drawing = night_pages._night_context

        def a_hand_meanwhile(*args, **kwargs):
            _hand(pairing.table_id, 1)
            return drawing(*args, **kwargs)

        monkeypatch.setattr(night_pages, "_night_context", a_hand_meanwhile)
        path = url if page == "director's" else f"/t/{pairing.table_id}/night/"
        shown = _shown_version(director.get(path).content.decode())
        # The page draws the hand but claims the night before it: one more fetch on the news,
        # never news taken as shown.
        assert selectors.night_version(tournament=tournament) != before
        assert shown == before
