"""The admin shows the log but offers no way to add, change or delete an event."""

import pytest

from games.models import RecomputeJob, SeasonStandings
from tests.factories import RecomputeJobFactory, SuperUserFactory, TableFactory, UserFactory
from tests.games.clubs_setup import club_world, record
from tests.payloads import quick


@pytest.fixture
def admin_client(client, db):
    client.force_login(SuperUserFactory(username="boss"))
    return client


class TestEventAdmin:
    def test_an_event_can_be_read_but_not_changed_or_deleted(self, admin_client, db):
        table = TableFactory()
        event = table.events.get()
        change_url = f"/admin/games/event/{event.pk}/change/"
        page = admin_client.get(change_url)
        assert page.status_code == 200
        assert b'name="_save"' not in page.content
        assert admin_client.post(change_url, {"type": "forged"}).status_code == 403
        assert admin_client.get(f"/admin/games/event/{event.pk}/delete/").status_code == 403
        assert admin_client.get("/admin/games/event/add/").status_code == 403
        event.refresh_from_db()
        assert event.type == "table_created"

    def test_the_table_page_in_the_admin_hides_the_keys(self, admin_client, db):
        table = TableFactory()
        page = admin_client.get(f"/admin/games/table/{table.pk}/change/")
        assert page.status_code == 200
        assert table.scorekeeper_key.encode() not in page.content


@pytest.mark.usefixtures("eager_celery")
class TestRecomputeEverything:
    def test_staff_start_it_and_follow_its_progress(
        self, admin_client, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            world = club_world()
            table = world.table()
            record(table, quick(0, "gin", 0, 30), world.member)
        SeasonStandings.objects.all().delete()
        listing = admin_client.get("/admin/games/recomputejob/")
        assert b"Recompute everything" in listing.content
        with django_capture_on_commit_callbacks(execute=True):
            started = admin_client.post("/admin/games/recomputejob/start/")
        job = RecomputeJob.objects.get()
        assert started.status_code == 302
        assert started["Location"] == f"/admin/games/recomputejob/{job.pk}/progress/"
        # Celery is eager here: the job ran when its row committed.
        page = admin_client.get(started["Location"])
        assert b'data-status="done"' in page.content
        assert b"1 of 1 tables read" in page.content
        assert b"hx-trigger" not in page.content  # over: the page stops polling
        assert SeasonStandings.objects.get(season=world.season).matches == 1

    def test_a_running_job_is_polled_block_by_block(self, admin_client, db):
        job = RecomputeJobFactory(status="running", total=200, done=50)
        page = admin_client.get(f"/admin/games/recomputejob/{job.pk}/progress/")
        assert b'hx-trigger="every 1s"' in page.content
        assert b'<progress max="100" value="25"' in page.content
        assert b"<html" in page.content
        block = admin_client.get(
            f"/admin/games/recomputejob/{job.pk}/progress/", HTTP_HX_REQUEST="true"
        )
        assert b"<html" not in block.content
        assert b"50 of 200 tables read" in block.content
        # Queued, not yet counting its tables: an empty bar, not a full one.
        queued = RecomputeJobFactory()
        page = admin_client.get(f"/admin/games/recomputejob/{queued.pk}/progress/")
        assert b'<progress max="100" value="0"' in page.content

    def test_a_get_does_not_start_one_and_outsiders_are_sent_to_sign_in(self, client, db):
        boss = SuperUserFactory(username="boss2")
        client.force_login(boss)
        assert client.get("/admin/games/recomputejob/start/").status_code == 405
        client.logout()
        client.force_login(UserFactory(username="someone"))
        response = client.post("/admin/games/recomputejob/start/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
        assert not RecomputeJob.objects.exists()
