"""Every kind of page carries the site's security headers: CSP, Permissions-Policy and the rest."""

import uuid

import pytest

from tests.factories import UserFactory

PAGES = [
    "/",
    "/referee/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password_reset/",
    "/clubs/",
    "/api/docs/",
    "/api/schema/",
    "/admin/login/",
    "/no-such-page/",
]


@pytest.fixture
def table_page(client, db):
    """The scorekeeper's page of a new table, made through the API as a phone makes it."""
    answer = client.post(
        "/api/v1/tables/",
        {"variant": "gin", "players": ["Anna", "Bruno"]},
        content_type="application/json",
    ).json()
    # The scorekeeper link remembers the key: its page posts the token after "#".
    client.post("/j/", {"link": answer["scorekeeper_link"].split("#", 1)[1]})
    return f"/t/{answer['id']}/"


def _check(response) -> None:
    csp = response.headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp
    policy = response.headers["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "screen-wake-lock=(self)"):
        assert feature in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


class TestSecurityHeaders:
    @pytest.mark.parametrize("path", PAGES)
    def test_every_page_sends_the_headers(self, client, db, path):
        client.force_login(UserFactory(username="mara"))
        _check(client.get(path))

    def test_a_table_page_sends_them(self, client, table_page):
        response = client.get(table_page)
        assert response.status_code == 200
        _check(response)

    def test_the_page_that_shows_join_links_is_never_cached(self, client, table_page):
        response = client.get(f"{table_page}share/")
        assert 'data-testid="link-scorekeeper"' in response.content.decode()
        assert "no-store" in response.headers["Cache-Control"]
        assert "private" in response.headers["Cache-Control"]

    def test_an_api_answer_sends_them(self, client, table_page):
        _check(client.get("/api/v1/tables/"))


def _every_page(client, world, table_path: str) -> list[str]:
    """Every GET route of the pages, with real objects in its address."""
    from django.urls import URLPattern, URLResolver, reverse

    from games.pages import urls
    from games.tournaments import services as tournament_services

    table_id = table_path.strip("/").split("/")[1]
    night = tournament_services.tournament_create(
        actor=world.owner,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin night",
        rounds=1,
        round_minutes=30,
    )
    tournament_services.entrants_register(
        actor=world.owner, tournament_id=night.pk, player_ids=[world.anna.pk, world.bruno.pk]
    )
    started = tournament_services.round_start(actor=world.owner, tournament_id=night.pk)
    from games.models import Group

    group = Group.objects.create(name="Family", variant="gin")
    values = {
        "group_id": group.pk,
        "tournament_id": night.pk,
        "entrant_id": night.entrants.first().pk,
        "round_table_id": started.round.tables.first().pk,
        "table_id": table_id,
        "number": 1,
        "club": world.club.slug,
        "league": world.league.slug,
        "season_id": world.season.pk,
        "player_id": world.anna.pk,
        "membership_id": world.club.memberships.first().pk,
        "game": "gin",
        "token": "not-a-token",
        "key": "not-a-key",
    }
    paths = []
    for pattern in urls.urlpatterns:
        if isinstance(pattern, URLResolver) or not isinstance(pattern, URLPattern):
            continue  # Django's own auth views: covered by the list above
        names = list(pattern.pattern.regex.groupindex)
        paths.append(reverse(pattern.name, kwargs={n: values[n] for n in names}))
    return paths


def test_every_route_of_the_pages_sends_the_headers(client, table_page):
    from games.tables import services as table_services
    from tests.games.clubs_setup import club_world

    world = club_world()
    client.force_login(world.owner)
    # A hand at the table, so its amend and void pages exist.
    table_services.hand_append(
        table_id=table_page.strip("/").split("/")[1],
        event_id=uuid.uuid4(),
        expected_seq=1,
        payload={
            "mode": "quick",
            "knocker": 0,
            "ending": "gin",
            "knocker_count": 0,
            "defender_count": 10,
        },
    )
    checked = 0
    for path in _every_page(client, world, table_page):
        response = client.get(path)
        assert response.status_code < 500, path
        if response.status_code in (301, 302):
            continue  # a redirect's target is among the pages checked
        _check(response)
        checked += 1
    assert checked >= 25
