"""The admin shows the log but offers no way to add, change or delete an event."""

import pytest
from django.contrib.auth.models import User


@pytest.fixture
def admin_client(client, db):
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw-12345-xyz"))
    return client


class TestEventAdmin:
    def test_an_event_can_be_read_but_not_changed_or_deleted(self, admin_client, make_table):
        table = make_table()
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

    def test_the_table_page_in_the_admin_hides_the_keys(self, admin_client, make_table):
        table = make_table()
        page = admin_client.get(f"/admin/games/table/{table.pk}/change/")
        assert page.status_code == 200
        assert table.scorekeeper_key.encode() not in page.content
