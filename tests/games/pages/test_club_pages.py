"""Account, club, league and season pages, and who may read and record at league tables,
through the pages and the API."""

import re
import uuid

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from games.clubs import services as club_services
from games.models import Club, ClubRole, Event, League, Player, Season, Table
from tests.factories import (
    PASSWORD,
    SuperUserFactory,
    TableFactory,
    UserFactory,
    UserWithPasswordFactory,
)
from tests.payloads import quick


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _urls(world) -> dict[str, str]:
    club, league, season = world.club.slug, world.league.slug, world.season.pk
    return {
        "club": f"/clubs/{club}/",
        "league": f"/clubs/{club}/l/{league}/",
        "season": f"/clubs/{club}/l/{league}/s/{season}/",
        "tables": f"/clubs/{club}/l/{league}/s/{season}/tables/",
        "close": f"/clubs/{club}/l/{league}/s/{season}/close/",
        "seasons": f"/clubs/{club}/l/{league}/seasons/",
    }


def _hand_data(page: str, **fields) -> dict:
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, "mode": "quick", **fields}


KNOCK = {"knocker": "0", "ending": "knock", "knocker_count": "3", "defender_count": "20"}


def _event_body(table: Table, seq: int) -> dict:
    return {
        "event_id": str(uuid.uuid4()),
        "expected_seq": seq,
        "type": "hand_recorded",
        "payload": quick(0, "knock", 3, 20),
    }


class TestAccounts:
    def test_signing_up_signs_in_and_goes_where_the_visitor_was_heading(self, db):
        client = Client()
        response = client.post(
            "/accounts/signup/",
            {
                "username": "newbie",
                "email": "",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "next": "/invite/",
            },
        )
        assert response.status_code == 302 and response.url == "/invite/"
        assert "My clubs" in client.get("/clubs/").content.decode()

    def test_signing_up_never_sends_the_visitor_to_another_site(self, db):
        response = Client().post(
            "/accounts/signup/",
            {
                "username": "newbie",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "next": "https://evil.example/",
            },
        )
        assert response.status_code == 302 and response.url == "/clubs/"

    def test_a_next_that_is_a_word_is_no_page_name(self, db):
        # "x" was looked up as a view's name, and its absence answered 500.
        response = Client().post(
            "/accounts/signup/",
            {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "next": "x"},
        )
        assert response.status_code == 302 and response.url == "/clubs/"

    def test_logging_in_and_out(self, db):
        user = UserWithPasswordFactory(username="lia")
        client = Client()
        assert "Log in" in client.get("/").content.decode()
        response = client.post("/accounts/login/", {"username": "lia", "password": PASSWORD})
        assert response.status_code == 302 and response.url == "/clubs/"
        header = client.get("/").content.decode()
        assert "My clubs" in header and user.username in header
        assert client.get("/accounts/logout/").status_code == 405  # logging out is a POST
        assert client.post("/accounts/logout/").status_code == 302
        assert client.get("/clubs/").status_code == 302

    def test_a_forgotten_password_is_reset_through_the_emailed_link(
        self, db, eager_celery, django_capture_on_commit_callbacks
    ):
        user = UserWithPasswordFactory(username="lia", email="lia@example.org")
        client = Client()
        with django_capture_on_commit_callbacks(execute=True):  # the mail is sent by a task
            response = client.post("/accounts/password_reset/", {"email": "lia@example.org"})
        assert response.status_code == 302
        assert len(mail.outbox) == 1
        link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
        form_url = client.get(link).url  # Django swaps the token for a session-held one
        new = "another-pw-9876"
        response = client.post(form_url, {"new_password1": new, "new_password2": new})
        assert response.status_code == 302
        user.refresh_from_db()
        assert user.check_password(new)

    def test_anonymous_visitors_are_sent_to_log_in_on_club_pages(self, world):
        urls = _urls(world)
        for url in ("/clubs/", urls["club"], urls["league"], urls["season"]):
            response = Client().get(url)
            assert response.status_code == 302, url
            assert response.url.startswith("/accounts/login/?next="), url


class TestClubPages:
    def test_a_signed_in_user_creates_a_club_and_owns_it(self, db):
        user = UserFactory()
        client = _as(user)
        response = client.post("/clubs/", {"name": "Briscola & Co"})
        club = Club.objects.get()
        assert response.status_code == 302 and response.url == f"/clubs/{club.slug}/"
        assert club.memberships.get().role == ClubRole.OWNER
        page = client.get("/clubs/").content.decode()
        assert "Briscola &amp; Co" in page and "Owner" in page

    def test_the_club_page_shows_members_players_and_leagues(self, world):
        page = _as(world.member).get(_urls(world)["club"]).content.decode()
        for text in ("olga", "adam", "mara", "Anna", "Carla", "Gin Tuesdays"):
            assert text in page
        assert "Make an invite link" not in page and "Add the player" not in page

    def test_an_admin_makes_an_invite_link_and_it_is_shown(self, world):
        client = _as(world.admin)
        url = f"/clubs/{world.club.slug}/invites/"
        response = client.post(url, {"role": "member", "max_uses": "3", "days": "7"})
        assert response.status_code == 200
        invite = world.club.invites.order_by("-created_at").first()
        assert invite.max_uses == 3
        # Shown once, in the answer that made it; only its digest is kept.
        page = response.content.decode()
        link = re.search(r'value="http://testserver(/invite/#[\w-]{43})"', page).group(1)
        assert invite.token_digest not in page and len(invite.token_digest) == 64
        assert link not in client.get(_urls(world)["club"]).content.decode()
        joiner = UserFactory()
        path, token = link.split("#")
        assert _as(joiner).post(path, {"link": token}).url == "/invite/"
        client = _as(joiner)
        client.post(path, {"link": token})
        assert client.post(path).url == f"/clubs/{world.club.slug}/"
        assert world.club.memberships.filter(user=joiner, role="member").exists()

    def test_with_htmx_only_the_invites_section_comes_back(self, world):
        response = _as(world.admin).post(
            f"/clubs/{world.club.slug}/invites/",
            {"role": "member", "max_uses": "1", "days": "7"},
            HTTP_HX_REQUEST="true",
        )
        body = response.content.decode()
        assert response.status_code == 200
        assert 'id="invites"' in body and "<html" not in body and "/invite/" in body

    def test_a_member_cannot_make_invites_or_add_players(self, world):
        client = _as(world.member)
        invite = client.post(f"/clubs/{world.club.slug}/invites/", {"role": "admin"})
        player = client.post(f"/clubs/{world.club.slug}/players/", {"names": "Dino"})
        assert (invite.status_code, player.status_code) == (403, 403)
        assert "owner and admins" in player.content.decode()
        assert not Player.objects.filter(name="Dino").exists()

    def test_an_admin_adds_a_guest_player_and_a_repeated_name_is_refused(self, world):
        client = _as(world.admin)
        url = f"/clubs/{world.club.slug}/players/"
        assert client.post(url, {"names": "Dino"}).status_code == 302
        response = client.post(url, {"names": "dino"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 422
        assert "Line 1: The club already has a player called dino." in response.content.decode()
        assert world.club.players.filter(name__iexact="dino").count() == 1

    def test_an_admin_pastes_several_players_one_a_line(self, world):
        url = f"/clubs/{world.club.slug}/players/"
        response = _as(world.admin).post(
            url, {"names": "Dino\r\n\r\n  Elena   Rossi \r\nFranco\r\n"}, HTTP_HX_REQUEST="true"
        )
        body = response.content.decode()
        assert response.status_code == 200
        assert 'id="players"' in body and "<html" not in body
        added = ["Dino", "Elena Rossi", "Franco"]
        assert all(f">{name}</a>" in body for name in added)
        assert world.club.players.filter(name__in=added).count() == 3

    def test_bad_lines_are_named_and_nothing_is_added(self, world):
        url = f"/clubs/{world.club.slug}/players/"
        long_name = "X" * 41
        names = f"Dino\nANNA\n{long_name}\nElena\n\ndino\n"
        response = _as(world.admin).post(url, {"names": names})
        body = response.content.decode()
        assert response.status_code == 422
        # Lines counted as the admin sees them, the blank fifth one included.
        assert "Line 2: The club already has a player called ANNA." in body
        assert "Line 3: A name has at most 40 characters." in body
        assert "Line 6: dino is already on line 1." in body
        assert "Line 1:" not in body and "Line 4:" not in body
        assert not world.club.players.filter(name__in=["Dino", "Elena"]).exists()
        # The paste is kept in the box, to mend and send again.
        assert long_name in body and 'role="alert"' in body

    def test_a_paste_of_too_many_names_is_refused_whole(self, world):
        url = f"/clubs/{world.club.slug}/players/"
        names = "\n".join(f"Player {n}" for n in range(1, 62))
        response = _as(world.admin).post(url, {"names": names})
        assert response.status_code == 422
        assert "At most 60 names at once." in response.content.decode()
        assert not world.club.players.filter(name__startswith="Player ").exists()

    def test_a_blank_paste_asks_for_a_name(self, world):
        response = _as(world.admin).post(f"/clubs/{world.club.slug}/players/", {"names": " \n "})
        assert response.status_code == 422
        assert world.club.players.count() == 3

    def test_the_bulk_form_in_italian(self, world):
        client = _as(world.admin)
        client.cookies["django_language"] = "it"
        url = f"/clubs/{world.club.slug}/players/"
        response = client.post(url, {"names": "Dino\nanna"}, HTTP_ACCEPT_LANGUAGE="it")
        body = response.content.decode()
        assert response.status_code == 422
        assert "Riga 2: Il circolo ha già un giocatore di nome anna." in body
        assert "uno per riga" in body

    def test_an_admin_links_a_guest_player_to_a_member(self, world):
        response = _as(world.admin).post(
            f"/clubs/{world.club.slug}/players/link/",
            {"player": world.carla.pk, "member": world.member.pk},
        )
        assert response.status_code == 302
        world.carla.refresh_from_db()
        assert world.carla.user == world.member

    def test_the_owner_hands_the_club_over_on_the_page(self, world):
        membership = world.club.memberships.get(user=world.admin)
        response = _as(world.owner).post(
            f"/clubs/{world.club.slug}/members/{membership.pk}/role/", {"role": "owner"}
        )
        assert response.status_code == 302
        assert world.club.memberships.get(role="owner").user == world.admin

    def test_an_admin_cannot_demote_the_owner_on_the_page(self, world):
        owner = world.club.memberships.get(user=world.owner)
        response = _as(world.admin).post(
            f"/clubs/{world.club.slug}/members/{owner.pk}/role/", {"role": "member"}
        )
        assert response.status_code == 403
        owner.refresh_from_db()
        assert owner.role == ClubRole.OWNER


def _open_invite(client: Client, invite) -> None:
    """Open ``invite``'s link (``/invite/#<token>``) as the page's script does."""
    assert client.post("/invite/", {"link": invite.token}).url == "/invite/"


class TestInvitePage:
    def test_opening_an_invite_signed_out_asks_to_sign_in_with_no_token_in_next(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        client = Client()
        _open_invite(client, invite)
        page = client.get("/invite/").content.decode()
        assert world.club.name in page and invite.token not in page
        assert 'href="/accounts/login/?next=/invite/"' in page
        assert 'href="/accounts/signup/?next=/invite/"' in page
        # Accepting signed out sends to the sign-in, and back to /invite/.
        assert client.post("/invite/").url == "/accounts/login/?next=/invite/"

    def test_a_signed_in_user_joins_and_a_second_visit_says_so(self, world):
        newcomer = UserFactory()
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        client = _as(newcomer)
        _open_invite(client, invite)
        assert world.club.name in client.get("/invite/").content.decode()
        response = client.post("/invite/")
        assert response.status_code == 302 and response.url == f"/clubs/{world.club.slug}/"
        assert world.club.memberships.filter(user=newcomer, role="member").exists()
        _open_invite(client, invite)
        assert "a member of this club already" in client.get("/invite/").content.decode()

    def test_a_used_invite_is_refused_with_a_reason(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        first = _as(UserFactory())
        _open_invite(first, invite)
        first.post("/invite/")
        late = UserFactory()
        client = _as(late)
        _open_invite(client, invite)
        response = client.post("/invite/")
        assert response.status_code == 410
        assert "used already" in response.content.decode()
        assert not world.club.memberships.filter(user=late).exists()

    def test_an_unknown_invite_is_not_found(self, world):
        client = _as(UserFactory())
        response = client.post("/invite/", {"link": "m" * 43})
        assert response.status_code == 404 and "No such invite." in response.content.decode()
        assert "m" * 43 not in response.content.decode()
        assert client.get("/invite/made-up/").url == "/invite/?refused=invite"
        assert client.get("/invite/?refused=invite").status_code == 404


class TestLeagueAndSeasonPages:
    def test_an_admin_creates_a_league_from_the_form(self, world):
        response = _as(world.admin).post(
            f"/clubs/{world.club.slug}/leagues/new/",
            {
                "name": "Ramino Fridays",
                "variant": "ramino",
                "players": "4",
                "ramino__hands": "3",
                "ramino__knock_claim": "on",
                "tiebreaker_1": "hands_won",
                "tiebreaker_2": "rating",
                "public": "on",
            },
        )
        league = League.objects.get(name="Ramino Fridays")
        assert response.status_code == 302
        assert response.url == f"/clubs/{world.club.slug}/l/ramino-fridays/"
        assert (league.variant, league.players, league.public) == ("ramino", 4, True)
        assert league.options["hands"] == 3 and league.options["knock_claim"] is True
        assert league.tiebreakers == ["hands_won", "rating"]

    def test_options_the_engine_refuses_show_the_rule_and_make_nothing(self, world):
        response = _as(world.admin).post(
            f"/clubs/{world.club.slug}/leagues/new/",
            {"name": "Bad", "variant": "ramino", "players": "2", "ramino__hands": "3"}
            | {"ramino__knock_claim": "on"},
        )
        assert response.status_code == 422
        assert "RAM-OPT-KNOCKCLAIM" in response.content.decode()
        assert not League.objects.filter(name="Bad").exists()

    def test_a_member_cannot_open_the_new_league_page(self, world):
        assert _as(world.member).get(f"/clubs/{world.club.slug}/leagues/new/").status_code == 403

    def test_the_league_page_shows_its_options_and_seasons(self, world):
        page = _as(world.member).get(_urls(world)["league"]).content.decode()
        assert "Spring" in page and "GIN-MATCH" in page and "50" in page
        assert "Open the season" not in page

    def test_an_admin_opens_a_season_a_member_cannot(self, world):
        data = {"name": "Summer", "starts_on": "2026-07-01", "ends_on": "2026-09-30"}
        member = _as(world.member).post(_urls(world)["seasons"], data)
        assert member.status_code == 403
        response = _as(world.admin).post(_urls(world)["seasons"], data)
        season = Season.objects.get(name="Summer")
        assert response.status_code == 302 and response.url.endswith(f"/s/{season.pk}/")

    def test_a_season_ending_before_it_starts_is_refused_on_the_page(self, world):
        data = {"name": "Odd", "starts_on": "2026-07-01", "ends_on": "2026-06-30"}
        response = _as(world.admin).post(_urls(world)["seasons"], data)
        assert response.status_code == 422
        assert "ends on or after" in response.content.decode()

    def test_the_season_page_has_the_standings_placeholder_and_a_table_form(self, world):
        page = _as(world.member).get(_urls(world)["season"]).content.decode()
        assert 'id="standings"' in page and "No finished matches yet" in page
        assert 'name="seat_1"' in page and 'name="seat_2"' in page and "Anna" in page

    def test_a_new_table_takes_the_leagues_options_whatever_else_is_posted(self, world):
        response = _as(world.member).post(
            _urls(world)["tables"],
            {
                "seat_1": world.anna.pk,
                "seat_2": world.bruno.pk,
                # A forged game and options: the page never passes them on.
                "variant": "ramino",
                "target": "500",
                "options": '{"target": 500}',
            },
        )
        table = Table.objects.get()
        assert response.status_code == 302 and response.url == f"/t/{table.id}/"
        assert table.variant == "gin" and table.options == world.league.options
        assert table.season == world.season and not table.practice

    def test_a_table_marked_practice_on_the_form_is_flagged_and_shown(self, world):
        client = _as(world.member)
        client.post(
            _urls(world)["tables"],
            {"seat_1": world.anna.pk, "seat_2": world.carla.pk, "practice": "on"},
        )
        assert Table.objects.get().practice
        assert "practice: not counted" in client.get(_urls(world)["season"]).content.decode()

    def test_seats_must_differ(self, world):
        response = _as(world.member).post(
            _urls(world)["tables"], {"seat_1": world.anna.pk, "seat_2": world.anna.pk}
        )
        assert response.status_code == 422
        assert "different player" in response.content.decode()
        assert not Table.objects.exists()

    def test_a_member_records_at_a_league_table_without_any_key(self, world):
        table = world.table()
        client = _as(world.member)  # a browser that never held the table's keys
        page = client.get(f"/t/{table.id}/").content.decode()
        assert "Record a hand" in page
        response = client.post(f"/t/{table.id}/hands/", _hand_data(page, **KNOCK))
        assert response.status_code == 302
        assert table.events.count() == 2


class TestClosingASeason:
    def test_a_member_cannot_close_a_season(self, world):
        client = _as(world.member)
        assert client.get(_urls(world)["close"]).status_code == 403
        response = client.post(_urls(world)["close"])
        assert response.status_code == 403
        assert "owner and admins" in response.content.decode()
        world.season.refresh_from_db()
        assert world.season.is_open
        assert "Close the season" not in client.get(_urls(world)["season"]).content.decode()

    def test_an_admin_confirms_then_closes(self, world):
        client = _as(world.admin)
        assert "Close the season" in client.get(_urls(world)["season"]).content.decode()
        confirm = client.get(_urls(world)["close"]).content.decode()
        assert "cannot be undone" in confirm
        response = client.post(_urls(world)["close"])
        assert response.status_code == 302
        world.season.refresh_from_db()
        assert not world.season.is_open and world.season.closed_by == world.admin

    def test_a_closed_season_keeps_its_page_but_refuses_tables_and_records(self, world):
        table = world.table()
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        client = _as(world.member)
        page = client.get(_urls(world)["season"]).content.decode()
        assert "archived and read-only" in page and "No finished matches yet" in page
        assert 'name="seat_1"' not in page
        response = client.post(
            _urls(world)["tables"], {"seat_1": world.anna.pk, "seat_2": world.bruno.pk}
        )
        assert response.status_code == 403 and "closed" in response.content.decode()
        assert Table.objects.count() == 1
        # The table still opens, read-only; a hand posted anyway is refused with the reason.
        table_page = client.get(f"/t/{table.id}/").content.decode()
        assert "Record a hand" not in table_page
        data = {"event_id": str(uuid.uuid4()), "expected_seq": "1", "mode": "quick", **KNOCK}
        response = client.post(f"/t/{table.id}/hands/", data)
        assert response.status_code == 403
        assert "season is closed" in response.content.decode()
        assert table.events.count() == 1

    def test_a_closed_season_refuses_appends_through_the_api(self, world):
        table = world.table()
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        api = APIClient()
        api.force_login(world.member)
        response = api.post(
            f"/api/v1/tables/{table.id}/events/", _event_body(table, 1), format="json"
        )
        assert response.status_code == 403
        assert "season is closed" in response.json()["detail"]
        assert table.events.count() == 1


class TestPermissions:
    def test_a_member_of_another_club_cannot_see_its_private_pages(self, world):
        client = _as(world.outsider)
        urls = _urls(world)
        for url in (urls["club"], urls["league"], urls["season"], urls["close"]):
            assert client.get(url).status_code == 404, url
        response = client.post(urls["tables"], {"seat_1": world.anna.pk, "seat_2": world.bruno.pk})
        assert response.status_code == 404
        assert not Table.objects.exists()

    def test_a_member_of_another_club_cannot_open_or_record_at_a_league_table(self, world):
        table = world.table()
        client = _as(world.outsider)
        assert client.get(f"/t/{table.id}/").status_code == 404
        data = {"event_id": str(uuid.uuid4()), "expected_seq": "1", "mode": "quick", **KNOCK}
        assert client.post(f"/t/{table.id}/hands/", data).status_code == 404
        assert table.events.count() == 1

    def test_the_scorekeeper_key_alone_only_watches_a_league_table(self, world):
        table = world.table()
        client = _as(world.outsider)
        client.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
        page = client.get(f"/t/{table.id}/").content.decode()
        assert "Anna" in page and "Record a hand" not in page
        data = {"event_id": str(uuid.uuid4()), "expected_seq": "1", "mode": "quick", **KNOCK}
        response = client.post(f"/t/{table.id}/hands/", data)
        assert response.status_code == 403
        assert "Only signed-in members of the club" in response.content.decode()
        assert table.events.count() == 1

    def test_the_api_lets_a_key_read_a_league_table_but_never_record(self, world):
        table = world.table()
        api = APIClient()
        api.force_login(world.outsider)
        key = {"HTTP_X_TABLE_KEY": table.scorekeeper_key}
        detail = api.get(f"/api/v1/tables/{table.id}/", **key)
        assert detail.status_code == 200 and detail.json()["role"] == "viewer"
        response = api.post(
            f"/api/v1/tables/{table.id}/events/", _event_body(table, 1), format="json", **key
        )
        assert response.status_code == 403
        assert "members of the club" in response.json()["detail"]
        anonymous = APIClient().post(
            f"/api/v1/tables/{table.id}/events/", _event_body(table, 1), format="json", **key
        )
        assert anonymous.status_code == 403
        assert table.events.count() == 1

    def test_the_api_hides_a_league_table_from_an_outsider_without_a_key(self, world):
        table = world.table()
        api = APIClient()
        api.force_login(world.outsider)
        assert api.get(f"/api/v1/tables/{table.id}/").status_code == 404
        response = api.post(
            f"/api/v1/tables/{table.id}/events/", _event_body(table, 1), format="json"
        )
        assert response.status_code == 404
        assert table.events.count() == 1

    def test_a_member_records_through_the_api_with_the_session_and_its_csrf_token(self, world):
        table = world.table()
        api = APIClient(enforce_csrf_checks=True)
        api.force_login(world.member)
        refused = api.post(
            f"/api/v1/tables/{table.id}/events/", _event_body(table, 1), format="json"
        )
        assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
        assert table.events.count() == 1
        api.get("/")  # the page sets the CSRF cookie
        token = api.cookies["csrftoken"].value
        response = api.post(
            f"/api/v1/tables/{table.id}/events/",
            _event_body(table, 1),
            format="json",
            HTTP_X_CSRFTOKEN=token,
        )
        assert response.status_code == 201, response.content
        assert api.get(f"/api/v1/tables/{table.id}/").json()["role"] == "scorekeeper"

    def test_a_public_league_is_seen_by_anyone_read_only(self, world):
        world.league.public = True
        world.league.save()
        table = world.table()
        urls = _urls(world)
        for client in (Client(), _as(world.outsider)):
            league = client.get(urls["league"])
            assert league.status_code == 200 and "Spring" in league.content.decode()
            season = client.get(urls["season"]).content.decode()
            assert "No finished matches yet" in season and "Anna" in season
            assert f"/t/{table.id}/" not in season and 'name="seat_1"' not in season
            assert "Close the season" not in season
            response = client.post(
                urls["tables"], {"seat_1": world.anna.pk, "seat_2": world.bruno.pk}
            )
            assert response.status_code == 403
            assert client.post(urls["close"]).status_code == 403
            assert client.get(f"/t/{table.id}/").status_code == 404
        world.season.refresh_from_db()
        assert world.season.is_open and Table.objects.count() == 1

    def test_a_public_league_of_a_private_club_does_not_open_the_club(self, world):
        world.league.public = True
        world.league.save()
        assert _as(world.outsider).get(_urls(world)["club"]).status_code == 404

    def test_a_public_club_shows_outsiders_only_its_public_leagues(self, world):
        world.club.public = True
        world.club.save()
        page = _as(world.outsider).get(_urls(world)["club"]).content.decode()
        assert "Gin Tuesdays" not in page and "olga" not in page and "Anna" not in page

    def test_a_casual_table_still_needs_only_its_key(self, world):
        table = TableFactory()
        client = _as(world.outsider)
        client.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
        page = client.get(f"/t/{table.id}/").content.decode()
        response = client.post(f"/t/{table.id}/hands/", _hand_data(page, **KNOCK))
        assert response.status_code == 302
        assert Event.objects.filter(table=table).count() == 2


class TestAdmin:
    def test_clubs_leagues_and_seasons_are_listed_and_invite_tokens_hidden(self, world):
        client = _as(SuperUserFactory(username="boss"))
        for model in ("club", "membership", "invite", "league", "season", "player", "table"):
            assert client.get(f"/admin/games/{model}/").status_code == 200, model
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        page = client.get(f"/admin/games/invite/{invite.pk}/change/")
        assert page.status_code == 200 and invite.token.encode() not in page.content
        assert client.get("/admin/games/league/add/").status_code == 403


class TestSeasonDates:
    @pytest.mark.parametrize(
        ("today", "ends"),
        [
            # Three months on is 23 February: the season ends the day before.
            ("2026-11-23", "2027-02-22"),
            # 30 November + 3 months: February 2027 has no 30th, so 28 February, less a day.
            ("2026-11-30", "2027-02-27"),
        ],
    )
    def test_a_new_season_starts_today_and_lasts_three_months(self, monkeypatch, today, ends):
        import datetime as dt

        from django.utils import timezone

        from games.pages.forms.clubs import SeasonForm

        monkeypatch.setattr(timezone, "localdate", lambda: dt.date.fromisoformat(today))
        form = SeasonForm()
        assert f'value="{today}"' in str(form["starts_on"])
        assert f'value="{ends}"' in str(form["ends_on"])

    def test_dates_out_of_range_or_backwards_are_refused_by_their_field(self):
        from games.pages.forms.clubs import SeasonForm

        form = SeasonForm({"name": "S", "starts_on": "1900-01-01", "ends_on": "2026-01-01"})
        assert not form.is_valid()
        assert "between the years 2000 and 2100" in str(form.errors["starts_on"])
        form = SeasonForm({"name": "S", "starts_on": "2026-05-01", "ends_on": "2026-04-01"})
        assert not form.is_valid() and "on or after" in str(form.errors["ends_on"])
