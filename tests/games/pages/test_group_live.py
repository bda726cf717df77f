"""A group's page follows a stream (docs/live.md): a table of the group started or finished
pushes a "group" event on the group's channel, and the stream is let in by the group's
keys, exactly as the page."""

import pytest
from django.test import Client

from games.models import Table
from games.tables import push
from tests.games.pages.test_group_pages import GIN, _ids, _start_group
from tests.games.tournaments.helpers import finish_gin_table
from tests.push_engine import from_the_engine

ENGINE = from_the_engine()
# Classic Gin to 50: one gin on 30 (25 + 30) ends the match (GIN-SCORE-GIN).
CLASSIC_50 = {**GIN, "gin__preset": "classic", "gin__target": "50"}
GROUP_NEWS = "event: group\ndata: \n\n"


@pytest.fixture
def group_pushes_sent(phone_with_push_on, monkeypatch):
    sent: list[push.Push] = []
    monkeypatch.setattr(push.publisher, "send", sent.append)
    return sent


def _group_news(sent, group) -> int:
    news = [item for item in sent if item.channel == f"group-{group.pk}"]
    assert all(item.content == GROUP_NEWS and item.event_id == "" for item in news)
    return len(news)


def test_a_table_started_and_one_finished_each_tell_the_group_s_page(
    phone_with_push_on, group_pushes_sent, django_capture_on_commit_callbacks
):
    group = _start_group(phone_with_push_on)
    seated = _ids(group, "Anna", "Bruno")
    with django_capture_on_commit_callbacks(execute=True):
        phone_with_push_on.post(f"/g/{group.pk}/tables/", {**CLASSIC_50, "seated": seated})
    assert _group_news(group_pushes_sent, group) == 1
    table = Table.objects.get(group=group)
    group_pushes_sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        # The gin, then the two confirmations: only the last one finishes the table.
        finish_gin_table(table.id)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert _group_news(group_pushes_sent, group) == 1
    # Its phones heard every head all the same.
    assert [item.event_id for item in group_pushes_sent if item.channel == f"table-{table.id}"] == [
        "2",
        "3",
        "4",
    ]


def test_the_group_s_stream_is_for_its_keys_only(phone_with_push_on, group_pushes_sent):
    group = _start_group(phone_with_push_on)
    page = phone_with_push_on.get(f"/g/{group.pk}/").content.decode()
    assert f'data-live="/g/{group.pk}/live/"' in page and 'hx-select="#group-live"' in page
    answer = phone_with_push_on.get(f"/g/{group.pk}/live/", **ENGINE)
    assert answer.status_code == 200
    assert answer["Grip-Channel"] == f"group-{group.pk}"
    assert answer.content.decode() == "retry: 1000\n\nevent: open\ndata: \n\n"
    assert Client().get(f"/g/{group.pk}/live/", **ENGINE).status_code == 404  # no key
    assert (
        phone_with_push_on.get(f"/g/{group.pk}/live/").status_code == 404
    )  # not through the engine


def test_without_push_the_group_s_page_names_no_stream(phone_with_push_on, settings):
    group = _start_group(phone_with_push_on)
    settings.PUSH_URL = ""
    assert "data-live" not in phone_with_push_on.get(f"/g/{group.pk}/").content.decode()
    assert phone_with_push_on.get(f"/g/{group.pk}/live/", **ENGINE).status_code == 404
