"""Season standings as projections of the league tables' logs, recomputed on commit."""

import uuid

import pytest

from games import services
from games.models import MatchResult, SeasonStandings
from tests.games.clubs_setup import club_world
from tests.payloads import quick

pytestmark = pytest.mark.django_db


def record(table, payload, user):
    table.refresh_from_db()
    return services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        type="hand_recorded",
        payload=payload,
        user=user,
    )


def test_smoke(django_capture_on_commit_callbacks):
    world = club_world()
    with django_capture_on_commit_callbacks(execute=True):
        table = world.table()
        record(table, quick(0, "gin", 0, 30), world.member)
    standing = SeasonStandings.objects.get(season=world.season)
    print(standing.rows, standing.ratings, standing.reflects)
    assert MatchResult.objects.count() == 1


def test_pages(django_capture_on_commit_callbacks, client):
    world = club_world(public_league=True)
    with django_capture_on_commit_callbacks(execute=True):
        table = world.table()
        record(table, quick(0, "gin", 0, 30), world.member)
    from django.urls import reverse
    url = reverse("season", args=[world.club.slug, world.league.slug, world.season.pk])
    r = client.get(url)
    print(r.status_code, r.content.decode()[-4000:])
    r = client.get(reverse("league-standings", args=[world.club.slug, world.league.slug]))
    print(r.status_code)
