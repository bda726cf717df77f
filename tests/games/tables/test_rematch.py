"""One rematch per finished table: the database's one-to-one link, the service that finds or
makes it, the chain of rematches, and the finished table's join links and codes following
that chain to the match in play."""

import threading
import uuid

import pytest
from django.db import IntegrityError, connections, transaction
from django.test import Client

from games.models import Table
from games.shared.errors import ActionRefused
from games.tables import heads, joining, selectors, services
from games.tables.access import Role
from games.tables.models import JoinToken
from tests.factories import TableFactory
from tests.games.clubs_setup import club_world
from tests.games.sharing import join_by_link
from tests.payloads import quick

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(append):
    """Return a function making a finished Classic match to 50 (Anna's gin, 25 + 30)."""

    def finish(table=None):
        table = table or TableFactory(options={"preset": "classic", "target": 50})
        append(table, "hand_recorded", quick(0, "gin", 0, 30))
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        return table

    return finish


def _rematch(table) -> Table:
    return services.table_rematch(table_id=table.id, entered_by="test")


class TestOneRematchPerTable:
    def test_asking_again_opens_the_same_rematch(self, finished):
        table = finished()
        first = _rematch(table)
        again = _rematch(table)
        assert again.pk == first.pk
        assert first.rematch_of_id == table.pk
        assert Table.objects.count() == 2
        # The rematch seats the next dealer first and plays the same options.
        assert [s.player.name for s in first.seats.order_by("position")] == ["Bruno", "Anna"]
        assert first.options == table.options

    def test_the_database_refuses_a_second_rematch_of_one_table(self, finished):
        table = finished()
        _rematch(table)
        other = TableFactory()
        other.rematch_of = table
        with pytest.raises(IntegrityError), transaction.atomic():
            other.save(update_fields=["rematch_of"])

    def test_a_table_is_never_its_own_rematch(self, finished):
        table = finished()
        table.rematch_of_id = table.pk
        with pytest.raises(IntegrityError), transaction.atomic():
            table.save(update_fields=["rematch_of"])

    def test_a_match_in_play_has_none(self):
        table = TableFactory()
        with pytest.raises(ActionRefused):
            _rematch(table)
        assert Table.objects.count() == 1

    def test_polls_of_the_finished_table_no_longer_stop_at_the_cache(self, finished):
        table = finished()
        heads.head_publish(table.id, table.head_seq)
        _rematch(table)
        # No poll's seq matches: each one reaches the view, which moves the phone on.
        assert heads.head_cached(table.id) == heads.RETIRED
        heads.head_offer(table.id, table.head_seq)
        assert heads.head_cached(table.id) == heads.RETIRED

    def test_a_league_tables_rematch_is_the_seasons_for_its_members(self, world, append):
        table = world.table()
        append(table, "hand_recorded", quick(0, "gin", 0, 30))
        with pytest.raises(ActionRefused):
            services.table_rematch(table_id=table.id, actor=world.outsider)
        rematch = services.table_rematch(table_id=table.id, actor=world.member)
        assert rematch.season_id == world.season.pk and rematch.rematch_of_id == table.pk
        assert [s.player_id for s in rematch.seats.order_by("position")] == [
            world.bruno.pk,
            world.anna.pk,
        ]
        assert services.table_rematch(table_id=table.id, actor=world.admin).pk == rematch.pk


class TestTheChain:
    def test_the_newest_table_of_a_chain_of_rematches(self, finished):
        first = finished()
        second = _rematch(first)
        assert selectors.table_newest(table=first).pk == second.pk
        assert selectors.table_rematch_newest(table=first).pk == second.pk
        finished(second)
        third = _rematch(second)
        assert selectors.table_newest(table=first).pk == third.pk
        assert selectors.table_newest(table=third).pk == third.pk
        # A table in play, or finished with no rematch, has nowhere to send its phones.
        assert selectors.table_rematch_newest(table=third) is None
        assert selectors.table_rematch_newest(table=finished()) is None


def _mint(table, role: Role, kind: str) -> str:
    minted = joining.join_token_mint(table=table, holder=Role.SCOREKEEPER, role=role, kind=kind)
    return minted.secret


def _role_at(phone: Client, table) -> str | None:
    page = phone.get(f"/t/{table.id}/")
    if page.status_code == 404:
        return None
    return "scorekeeper" if "Record a hand" in page.content.decode() else "viewer"


class TestOldLinksAndCodes:
    def test_a_finished_tables_codes_open_its_rematch_with_the_role_they_grant(self, finished):
        table = TableFactory(options={"preset": "classic", "target": 50})
        keeper_code = _mint(table, Role.SCOREKEEPER, JoinToken.Kind.CODE)
        viewer_link = _mint(table, Role.VIEWER, JoinToken.Kind.LINK)
        finished(table)
        # Over, and no rematch yet: they open nothing, but are kept (its rematch may follow)
        # even when a token is made elsewhere, which clears the expired ones.
        assert Client().post("/join/", {"code": keeper_code}).status_code == 404
        _mint(TableFactory(), Role.VIEWER, JoinToken.Kind.CODE)
        assert JoinToken.objects.filter(table=table).count() == 2
        rematch = _rematch(table)
        keeper, viewer = Client(), Client()
        response = keeper.post("/join/", {"code": keeper_code})
        assert response.status_code == 302 and response.url == f"/t/{rematch.id}/"
        response = join_by_link(viewer, joining.link_path(viewer_link))
        assert response.status_code == 302 and response.url == f"/t/{rematch.id}/"
        assert _role_at(keeper, rematch) == "scorekeeper"
        assert _role_at(viewer, rematch) == "viewer"
        # The old table is not opened by them: only the match in play.
        assert _role_at(viewer, table) is None

    def test_they_follow_the_chain_to_the_newest_table_while_it_is_in_play(self, finished):
        table = TableFactory(options={"preset": "classic", "target": 50})
        code = _mint(table, Role.VIEWER, JoinToken.Kind.CODE)
        finished(table)
        second = finished(_rematch(table))
        # The chain's newest table is over too: nothing to join.
        assert Client().post("/join/", {"code": code}).status_code == 404
        third = _rematch(second)
        response = Client().post("/join/", {"code": code})
        assert response.status_code == 302 and response.url == f"/t/{third.id}/"

    def test_an_expired_code_opens_no_rematch(self, finished):
        table = TableFactory(options={"preset": "classic", "target": 50})
        code = _mint(table, Role.VIEWER, JoinToken.Kind.CODE)
        finished(table)
        _rematch(table)
        JoinToken.objects.update(expires_at=table.created_at)
        assert Client().post("/join/", {"code": code}).status_code == 404


def _at_once(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads released together; return results or exceptions."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # each thread's outcome is the test's data
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class TestTwoPhonesTapRematchAtOnce:
    def test_two_requests_at_once_open_one_rematch(self):
        table = TableFactory(options={"preset": "classic", "target": 50})
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "gin", 0, 30),
        )
        results = _at_once(2, lambda i: _rematch(table))
        assert all(isinstance(r, Table) for r in results), results
        assert results[0].pk == results[1].pk
        assert Table.objects.count() == 2
        assert Table.objects.get(rematch_of=table).pk == results[0].pk

    def test_a_league_tables_members_tapping_at_once_open_one_rematch(self):
        world = club_world()
        table = world.table()
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "gin", 0, 30),
        )
        actors = [world.member, world.admin]
        results = _at_once(2, lambda i: services.table_rematch(table_id=table.id, actor=actors[i]))
        assert all(isinstance(r, Table) for r in results), results
        assert results[0].pk == results[1].pk
        assert world.season.tables.count() == 2
