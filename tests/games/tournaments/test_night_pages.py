"""The night's pages: the director creates it, adds players, starts rounds, hands out table
cards; members follow it; the room's screen shows it; nobody else sees it."""

import re
import uuid

import pytest
from django.test import Client

from games.pages import tournaments as tournament_pages
from games.tables import services as table_services
from games.tables.models import Table
from games.tournaments import selectors, services
from games.tournaments.models import RoundTable, Tournament
from scoring.tournaments.swiss import swiss_round
from tests.factories import LeagueFactory, PlayerFactory
from tests.games.sharing import join_from
from tests.games.tournaments.helpers import NIGHT_FORM
from tests.payloads import GIN_TABLE_FORM, quick

pytestmark = pytest.mark.django_db


@pytest.fixture
def gin_night_made_on_pages(world, director):
    PlayerFactory(club=world.club, actor=world.admin, name="Dario")
    response = director.post(
        f"/clubs/{world.club.slug}/n/new/", {**NIGHT_FORM, "league": world.league.pk}
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    tournament = Tournament.objects.get(name="Gin night")
    players = [p.pk for p in world.club.players.all()]
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    assert director.post(url + "entrants/", {"players": players}).status_code == 302
    return tournament, url


def test_the_director_starts_a_round_and_hands_out_table_cards(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    assert director.post(url + "rounds/").status_code == 302
    page = director.get(url).content.decode()
    assert page.count('data-testid="round-table"') == 2
    assert "Round 1 of 2" in page
    cards = director.get(url + "cards/").content.decode()
    codes = re.findall(r'data-testid="card-code">([^<]+)<', cards)
    assert len(codes) == 2 and len(set(codes)) == 2
    assert cards.count("<svg") == 2
    # The director's phone opens every table of the round, to score it if need be.
    first = RoundTable.objects.filter(round__tournament=tournament).first().table
    assert "Record a hand" in director.get(f"/t/{first.id}/").content.decode()


def test_a_round_cannot_start_while_tables_play_and_the_page_says_which(
    world, director, gin_night_made_on_pages
):
    _tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    response = director.post(url + "rounds/")
    # A refusal, answered as on every page (games/pages/errors.py).
    assert response.status_code == 403
    assert "still playing: 1, 2" in response.content.decode()


def test_a_refused_round_is_said_on_the_night_s_page_and_nothing_starts(world, director):
    """Nobody checked in: the director stays on the night, the refusal at its top (focused
    by app.js), the round's button still there; no round, no table."""
    response = director.post(
        f"/clubs/{world.club.slug}/n/new/", {**NIGHT_FORM, "league": world.league.pk}
    )
    tournament = Tournament.objects.get(name="Gin night")
    url = response.url
    response = director.post(url + "rounds/")
    page = response.content.decode()
    assert response.status_code == 403
    alert = re.search(r'data-testid="night-error">([^<]+)<', page)
    assert alert and alert.group(1) == "Check in at least two players to start a round."
    assert 'data-testid="start-round"' in page and "<h1>Gin night</h1>" in page
    assert not tournament.round_set.exists()
    assert not Table.objects.exists()


def test_the_room_screen_shows_the_round_and_the_standings(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    for pairing in RoundTable.objects.filter(round__tournament=tournament):
        table_services.event_append(
            table_id=pairing.table_id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "gin", 0, 30),
        )
    board = director.get(url + "tv/", HTTP_HX_REQUEST="true").content.decode()
    assert board.count('data-status="to_confirm"') == 2
    # Each player confirms on the table's phone (here the director's, which holds them all).
    for pairing in RoundTable.objects.filter(round__tournament=tournament):
        for seat in (0, 1):
            page = director.get(f"/t/{pairing.table_id}/").content.decode()
            assert f'data-testid="confirm-{seat}"' in page
            response = director.post(f"/t/{pairing.table_id}/confirm/", _confirm(page, seat))
            assert response.status_code == 302
        page = director.get(f"/t/{pairing.table_id}/").content.decode()
        assert "Result confirmed by every player" in page
        # The table's phone shows where its players stand in the night: the winner on 3 VP.
        assert re.search(r"#\d, 3 VP", page) and re.search(r"#\d, 0 VP", page)
    board = director.get(url + "tv/", HTTP_HX_REQUEST="true").content.decode()
    assert board.count("done ✓") == 2
    # Two winners at 3 victory points, two losers at 0.
    vps = re.findall(r'data-testid="vp">(\d+)<', board)
    assert sorted(vps) == ["0", "0", "3", "3"]


def test_a_members_screen_polls_idle_with_204_and_shares_one_drawing(
    world, director, gin_night_made_on_pages, monkeypatch
):
    """The members' screen of the night, like the room's: a poll at the version it shows
    is answered 204; a version is drawn once for every screen asking for it."""
    tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    page = director.get(url + "tv/").content.decode()
    since = re.search(r"tv/\?since=([^\"&]+)\"", page).group(1)
    poll = f"{url}tv/?since={since}"
    assert director.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    drawn = []
    original = tournament_pages._night_context
    monkeypatch.setattr(
        tournament_pages,
        "_night_context",
        lambda *args, **kwargs: drawn.append(1) or original(*args, **kwargs),
    )
    member = Client()
    member.force_login(world.member)
    for screen in (director, member, director):
        assert screen.get(url + "tv/", HTTP_HX_REQUEST="true").status_code == 200
    assert len(drawn) == 1
    _finish_open_tables(tournament)
    moved = member.get(poll, HTTP_HX_REQUEST="true")
    assert moved.status_code == 200 and moved.content.decode().count("done ✓") == 2
    assert len(drawn) == 2


def test_members_follow_but_only_admins_direct(world, gin_night_made_on_pages):
    _tournament, url = gin_night_made_on_pages
    member = Client()
    member.force_login(world.member)
    assert member.get(url).status_code == 200
    assert member.post(url + "rounds/").status_code == 403
    outsider = Client()
    outsider.force_login(world.outsider)
    assert outsider.get(url).status_code == 404


def _confirm(page: str, seat: int) -> dict:
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, "seat": seat}


def test_the_director_decides_a_table_from_the_night_page(world, director, gin_night_made_on_pages):
    tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    pairing = RoundTable.objects.filter(round__tournament=tournament).first()
    decide = url + f"tables/{pairing.pk}/decide/"
    refused = director.post(decide, {"decision": "score", "reason": "dispute", "points_0": "2"})
    assert refused.status_code == 400
    assert "give every player" in refused.content.decode()
    done = director.post(
        decide, {"decision": "score", "reason": "dispute", "points_0": "2", "points_1": "1"}
    )
    assert done.status_code == 302
    page = director.get(f"/t/{pairing.table_id}/").content.decode()
    assert "The director scored this table." in page and "dispute" in page
    assert "Record a hand" not in page


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_director_scores_a_table_of_any_size_one_value_a_seat(world, director, seats):
    """NIGHT-LOCK: the director may score a table with the points chosen, at every size."""
    league = LeagueFactory(
        club=world.club, actor=world.admin, variant="ramino", players=seats, options={}
    )
    names = ["Ada", "Bea", "Cris", "Duilio", "Ezio", "Fede"][:seats]
    players = [PlayerFactory(club=world.club, actor=world.admin, name=n) for n in names]
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=league.pk,
        name="Ramino night",
        rounds=1,
        round_minutes=30,
        format="swiss" if seats == 2 else "tables",
    )
    services.entrants_register(
        actor=world.admin, tournament_id=tournament.pk, player_ids=[p.pk for p in players]
    )
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    assert director.post(url + "rounds/").status_code == 302
    pairing = RoundTable.objects.get(round__tournament=tournament)
    seated = [seat.entrant.player.name for seat in pairing.seats.all()]
    page = director.get(url).content.decode()
    # One field a seat, each named after its player.
    for seat, name in enumerate(seated):
        assert f'name="points_{seat}"' in page and f"Victory points: {name}" in page
    assert f'name="points_{seats}"' not in page
    decide = url + f"tables/{pairing.pk}/decide/"
    missing = {"decision": "score", "reason": "dispute", "points_0": "1"}
    refused = director.post(decide, missing)
    assert refused.status_code == 400
    assert seated[-1] in refused.content.decode()  # the player whose points are missing
    chosen = {f"points_{seat}": str(seat + 1) for seat in range(seats)}
    done = director.post(decide, {"decision": "score", "reason": "dispute", **chosen})
    assert done.status_code == 302
    lines = selectors.night_standings(tournament=tournament)
    # Each player gets exactly the victory points the director chose for their seat.
    assert {line.name: line.row.victory_points for line in lines} == {
        name: seat + 1 for seat, name in enumerate(seated)
    }


def _finish_one_round_night(world, director, tournament, url):
    """Play the night's rounds: seat 0 goes gin at every table, both players confirm."""
    for _round in range(tournament.rounds):
        director.post(url + "rounds/")
        _finish_open_tables(tournament)
    assert director.post(url + "finish/").status_code == 302


def _finish_open_tables(tournament):
    """Seat 0 goes gin at every table still open, and both players confirm."""
    for pairing in RoundTable.objects.filter(round__tournament=tournament, table__status="open"):
        for event_type, payload in [
            ("hand_recorded", quick(0, "gin", 0, 30)),
            ("result_confirmed", {"seat": 0}),
            ("result_confirmed", {"seat": 1}),
        ]:
            pairing.table.refresh_from_db()
            table_services.event_append(
                table_id=pairing.table_id,
                event_id=uuid.uuid4(),
                expected_seq=pairing.table.head_seq,
                event_type=event_type,
                payload=payload,
            )


def test_a_private_clubs_results_are_its_members_a_public_clubs_everyones(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    assert Client().get(url + "results/").status_code == 404
    assert director.get(url + "results/").status_code == 200
    _finish_one_round_night(world, director, tournament, url)
    # Over, a private club's night names its members to its members alone.
    for path in ("results/", "results.json", "results.csv"):
        assert Client().get(url + path).status_code == 404, path
    world.club.public = True
    world.club.save()
    page = Client().get(url + "results/").content.decode()
    assert page.count('data-testid="standing-row"') == 4
    assert page.count('data-testid="result-table"') == 4  # 2 rounds of 2 tables
    csv_lines = Client().get(url + "results.csv").content.decode().splitlines()
    assert csv_lines[0] == "rank,player,victory_points,buchholz,points_difference,played,byes"
    # Two rounds of four: one player won both (6 VP), one lost both (0).
    vps = sorted(int(line.split(",")[2]) for line in csv_lines[1:])
    assert vps == [0, 3, 3, 6]


def test_the_night_s_results_file_holds_its_standings_and_every_table(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    _finish_one_round_night(world, director, tournament, url)
    response = director.get(url + "results.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    document = response.json()
    assert (document["format"], document["version"]) == ("rummyref-night-results", 1)
    assert document["night"]["name"] == "Gin night" and document["night"]["finished"]
    # Two rounds of four at 3-1-0: one player won both (6 VP), one lost both (0).
    assert sorted(row["victory_points"] for row in document["standings"]) == [0, 3, 3, 6]
    assert document["standings"][0]["rank"] == 1 and document["standings"][0]["victory_points"] == 6
    assert [r["number"] for r in document["rounds"]] == [1, 2]
    for round_ in document["rounds"]:
        assert len(round_["tables"]) == 2
        for table_ in round_["tables"]:
            # GIN-SCORE-GIN: seat 0 goes gin against 30 deadwood, 25 + 30 = 55.
            assert [seat["total"] for seat in table_["seats"]] == [55, 0]


def test_a_table_card_carries_a_paper_score_sheet(world, director, gin_night_made_on_pages):
    _tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    page = director.get(url + "cards/").content.decode()
    assert page.count('data-testid="score-sheet"') == 2
    sheet = page[page.index('data-testid="score-sheet"') :]
    sheet = sheet[: sheet.index("</table>")]
    assert sheet.count("<tr>") == 1 + 14 + 1  # the names, 14 hands, the total
    assert 'media="print"' in page and "print.css" in page


def test_a_name_a_spreadsheet_would_run_is_written_as_text(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    world.carla.name = "=HYPERLINK(1)"
    world.carla.save()
    _finish_one_round_night(world, director, tournament, url)
    body = director.get(url + "results.csv").content.decode()
    assert "'=HYPERLINK(1)" in body


def test_a_knock_out_shows_its_bracket_on_the_night_page_and_the_room_screen(world, director):
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=world.league.pk,
        name="Gin cup",
        rounds=1,
        round_minutes=30,
        format="knockout",
        seed=5,
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=tournament.pk,
        player_ids=[p.pk for p in world.club.players.all()],
    )
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    assert 'data-testid="bracket"' in director.get(url).content.decode()
    director.post(url + "rounds/")
    page = director.get(url).content.decode()
    # Three players in four places: one match and a bye, then the final.
    assert page.count('data-testid="bracket-match"') == 3 and "Final" in page
    screen = director.get(url + "tv/", HTTP_HX_REQUEST="true").content.decode()
    assert screen.count('data-testid="bracket-match"') == 3


def test_the_standings_heads_link_to_the_rules_they_apply(world, director, gin_night_made_on_pages):
    """NIGHT-BUCHHOLZ, NIGHT-DIFFERENCE, NIGHT-TIEBREAK: the standings' heads and their note
    link to the entries of the rules page, which holds them in English and in Italian."""
    _tournament, url = gin_night_made_on_pages
    page = director.get(url).content.decode()
    standings = page[page.index('data-testid="night-standings"') :]
    heads = re.findall(r'<th scope="col"><a href="([^"]+)"', standings)
    assert heads == ["/rules/#NIGHT-VP", "/rules/#NIGHT-BUCHHOLZ", "/rules/#NIGHT-DIFFERENCE"]
    assert '<a class="rule" href="/rules/#NIGHT-TIEBREAK">NIGHT-TIEBREAK</a>' in standings
    for language, section in (("en", "Club nights"), ("it", "Serate di club")):
        rules = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/").content.decode()
        assert f"<h2>{section}</h2>" in rules
        for rule in ("NIGHT-VP", "NIGHT-BUCHHOLZ", "NIGHT-DIFFERENCE", "NIGHT-TIEBREAK"):
            assert f'id="{rule}"' in rules


def _room_link(director, url) -> str:
    """Make the night's room link from its page and return its path."""
    assert director.post(url + "room-link/").status_code == 302
    page = director.get(url).content.decode()
    return re.search(r'value="https?://[^/"]+(/room/[^"]+/)" [^>]*data-testid="room-url"', page)[1]


class TestTheRoomScreen:
    def test_the_director_s_link_opens_the_screen_with_no_account_and_no_menus(
        self, world, director, gin_night_made_on_pages
    ):
        _tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        tv = Client()
        response = tv.get(room)
        page = response.content.decode()
        assert response.status_code == 200
        assert "Gin night" in page and page.count('data-testid="room-table"') == 2
        assert 'data-testid="night-standings"' in page and 'data-testid="room-clock"' in page
        # No account, no menus: the TV is nobody's, and shows nothing but the night.
        for chrome in ("Log in", "Log out", "My clubs", 'class="top"'):
            assert chrome not in page
        assert "sessionid" not in response.cookies

    def test_only_a_director_makes_or_stops_the_link(self, world, gin_night_made_on_pages):
        _tournament, url = gin_night_made_on_pages
        member = Client()
        member.force_login(world.member)
        assert member.post(url + "room-link/").status_code == 403
        assert Tournament.objects.get(name="Gin night").room_token is None

    def test_a_stopped_link_and_a_made_up_one_open_nothing(
        self, world, director, gin_night_made_on_pages
    ):
        _tournament, url = gin_night_made_on_pages
        room = _room_link(director, url)
        assert director.post(url + "room-link/", {"stop": "1"}).status_code == 302
        assert Client().get(room).status_code == 404
        assert Client().get("/room/not-a-token/").status_code == 404
        assert Client().get("/room/" + "x" * 200 + "/").status_code == 404

    def test_an_idle_poll_gets_204_until_a_table_moves(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        page = Client().get(room).content.decode()
        since = re.search(r"\?since=([^\"&]+)\"", page).group(1)
        poll = f"{room}?since={since}"
        assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204
        pairing = RoundTable.objects.filter(round__tournament=tournament).first()
        table_services.event_append(
            table_id=pairing.table_id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "gin", 0, 30),
        )
        moved = Client().get(poll, HTTP_HX_REQUEST="true")
        assert moved.status_code == 200 and "result to confirm" in moved.content.decode()

    def test_the_screens_of_a_night_share_one_drawing_of_each_version(
        self, world, director, gin_night_made_on_pages, monkeypatch
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        drawn = []
        original = tournament_pages._room_context
        monkeypatch.setattr(
            tournament_pages,
            "_room_context",
            lambda *args: drawn.append(args[2]) or original(*args),
        )
        for _screen in range(5):
            assert Client().get(room, HTTP_HX_REQUEST="true").status_code == 200
        assert len(drawn) == 1  # four of the five screens were served the first's drawing
        _finish_open_tables(tournament)
        moved = Client().get(room, HTTP_HX_REQUEST="true").content.decode()
        assert len(drawn) == 2 and "round over" in moved

    def test_the_clock_stops_when_the_round_ends_and_the_final_standings_follow_the_night(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        room = _room_link(director, url)
        assert "has not started yet" in Client().get(room).content.decode()
        _finish_one_round_night(world, director, tournament, url)
        page = Client().get(room).content.decode()
        assert 'data-testid="room-final"' in page and "data-ends-at" not in page
        assert 'data-testid="room-table"' not in page  # the night is over: only its standings

    def test_a_round_whose_tables_are_all_done_stops_its_clock(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        assert "data-ends-at" in Client().get(room).content.decode()
        _finish_open_tables(tournament)
        page = Client().get(room).content.decode()
        assert 'data-testid="round-over"' in page and "data-ends-at" not in page


class TestTheNightOnAPlayersPhone:
    def test_a_guest_at_a_table_sees_the_standings_then_the_next_table_then_the_results(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        guest = Client()  # no account: the table's key only, as a join link gives it
        join_from(director, guest, first.table, "viewer")
        table_page = guest.get(f"/t/{first.table_id}/").content.decode()
        assert f'href="/t/{first.table_id}/night/"' in table_page
        night_page = guest.get(f"/t/{first.table_id}/night/").content.decode()
        assert 'data-testid="participant-clock"' in night_page
        assert night_page.count('data-testid="standing-row"') == 4
        assert "Not paired yet" in night_page
        _finish_open_tables(tournament)
        director.post(url + "rounds/")
        night_page = guest.get(f"/t/{first.table_id}/night/").content.decode()
        # Both players of the guest's first table, each at their table of round 2.
        seated = {seat.entrant_id for seat in first.seats.all()}
        second = [
            pairing
            for pairing in RoundTable.objects.filter(round__tournament=tournament, round__number=2)
            if seated & {seat.entrant_id for seat in pairing.seats.all()}
        ]
        assert night_page.count('data-testid="next-table"') == len(second) >= 1
        for pairing in second:
            assert f"Table {pairing.number}</strong>" in night_page
        _finish_open_tables(tournament)
        assert director.post(url + "finish/").status_code == 302
        over = guest.get(f"/t/{first.table_id}/night/").content.decode()
        assert 'data-testid="night-results"' in over and "participant-clock" not in over

    def test_someone_without_the_table_s_key_sees_nothing(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        assert Client().get(f"/t/{first.table_id}/night/").status_code == 404

    def test_a_table_outside_any_night_has_no_night_page(self, db, client):
        created = client.post(
            "/",
            GIN_TABLE_FORM,
        )
        assert created.status_code == 302
        assert client.get(created.url).status_code == 200  # this phone holds the key
        assert client.get(created.url + "night/").status_code == 404


class TestCallingTheDirector:
    def test_a_call_from_a_table_shows_to_the_director_and_the_room_until_cleared(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        guest = Client()
        join_from(director, guest, first.table, "scorekeeper")
        page = guest.get(f"/t/{first.table_id}/").content.decode()
        assert 'data-testid="call-director"' in page
        screen = Client().get(room).content.decode()
        since = re.search(r"\?since=([^\"&]+)\"", screen).group(1)
        assert guest.post(f"/t/{first.table_id}/call-director/").status_code == 302
        assert guest.post(f"/t/{first.table_id}/call-director/").status_code == 302  # once
        page = guest.get(f"/t/{first.table_id}/").content.decode()
        assert 'data-testid="director-called"' in page and 'data-testid="call-director"' not in page
        director_page = director.get(url).content.decode()
        assert director_page.count('data-testid="director-call"') == 1
        # The room screen's next poll brings the call, with the table's number.
        moved = Client().get(f"{room}?since={since}", HTTP_HX_REQUEST="true")
        assert moved.status_code == 200
        calling = re.search(
            r'<li[^>]*class="calling"[^>]*>\s*<p class="room-table-head">\s*'
            r'<span class="num">Table (\d+)<',
            moved.text,
        )
        assert calling and int(calling[1]) == first.number
        clear = url + f"tables/{first.pk}/call-clear/"
        assert director.post(clear).status_code == 302
        assert 'data-testid="director-call"' not in director.get(url).content.decode()
        assert 'data-testid="room-call"' not in Client().get(room).content.decode()

    def test_only_the_director_clears_a_call_and_a_key_is_needed_to_make_one(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        assert Client().post(f"/t/{first.table_id}/call-director/").status_code == 404
        services.director_call(table=first.table)
        member = Client()
        member.force_login(world.member)
        assert member.post(url + f"tables/{first.pk}/call-clear/").status_code == 403
        first.refresh_from_db()
        assert first.director_called_at is not None


def test_the_director_follows_each_table_s_hands_totals_and_last_entry(
    world, director, gin_night_made_on_pages
):
    tournament, url = gin_night_made_on_pages
    director.post(url + "rounds/")
    first = RoundTable.objects.filter(round__tournament=tournament).first()
    # GIN-SCORE-KNOCK: seat 0 knocks with 2 against 10, and scores 8.
    table_services.hand_append(
        table_id=first.table_id,
        event_id=uuid.uuid4(),
        expected_seq=1,
        payload=quick(0, "knock", 2, 10),
    )
    page = director.get(url).content.decode()
    lines = re.findall(r'data-testid="table-progress">(.*?)</span>', page, re.S)
    assert len(lines) == 2
    names = [seat.entrant.player.name for seat in first.seats.all()]
    played = next(line for line in lines if f"{names[0]} 8" in line)
    assert "1 hand" in played and f"{names[1]} 0" in played
    assert "last entry 0 minutes ago" in played
    assert any("0 hands" in line for line in lines)


class TestPlayersByName:
    def test_a_pasted_list_registers_roster_players_and_new_ones_not_yet_checked_in(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        # Anna is on the roster (any capitals match her); Zeno and Ugo are new to the club;
        # a blank line and Zeno twice count once.
        pasted = "aNNa\n  Zeno \n\nUgo\nzeno\n"
        response = director.post(url + "entrants/names/", {"names": pasted})
        assert response.status_code == 302
        entrants = {e.player.name: e for e in tournament.entrants.select_related("player")}
        assert {"Anna", "Zeno", "Ugo"} <= set(entrants)
        assert world.club.players.filter(name="Zeno").count() == 1
        assert not entrants["Zeno"].checked_in and not entrants["Ugo"].checked_in
        page = director.get(url).content.decode()
        assert "Check in Zeno" in page and "Check in Ugo" in page
        zeno = entrants["Zeno"]
        assert director.post(url + f"entrants/{zeno.pk}/", {"state": "in"}).status_code == 302
        zeno.refresh_from_db()
        assert zeno.checked_in

    def test_a_name_the_roster_cannot_take_is_refused_and_nothing_is_stored(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        before = tournament.entrants.count()
        response = director.post(url + "entrants/names/", {"names": "Zeno\n" + "x" * 300})
        assert response.status_code == 400
        assert tournament.entrants.count() == before
        assert not world.club.players.filter(name="Zeno").exists()

    def test_too_many_names_at_once_are_refused(self, world, director, gin_night_made_on_pages):
        _tournament, url = gin_night_made_on_pages
        names = "\n".join(f"Player {n}" for n in range(121))
        response = director.post(url + "entrants/names/", {"names": names})
        assert response.status_code == 400
        assert "At most 120 names" in response.content.decode()


def test_the_director_keeps_two_players_apart_and_the_next_round_parts_them(
    world, director, gin_night_made_on_pages
):
    """NIGHT-APART through the pages: the pair the first round would seat is kept apart."""
    tournament, url = gin_night_made_on_pages
    # Without a pair kept apart, who would meet in round 1 (the seed's draw)?
    paired = [entrant.pk for entrant in selectors.paired_entrants(tournament=tournament)]
    found = selectors.night_results(tournament=tournament)
    planned = swiss_round(
        paired,
        found.results,
        found.byes,
        selectors.scale(tournament),
        round_number=1,
        seed=tournament.seed,
    )
    first, second = planned.tables[0]
    assert director.post(url + "apart/", {"first": first, "second": second}).status_code == 302
    page = director.get(url).content.decode()
    assert page.count('name="drop"') == 1 and 'href="/rules/#NIGHT-APART"' in page
    director.post(url + "rounds/")
    seated = [
        {seat.entrant_id for seat in pairing.seats.all()}
        for pairing in RoundTable.objects.filter(round__tournament=tournament)
    ]
    assert {first, second} not in seated and len(seated) == len(paired) // 2
    refused = director.post(url + "apart/", {"first": first, "second": first})
    assert refused.status_code == 400


class TestADeputyDirector:
    def test_a_member_named_deputy_runs_this_night_and_no_other(
        self, world, director, gin_night_made_on_pages
    ):
        """NIGHT-DEPUTY: the deputy starts the rounds, names no deputies, directs no other
        night."""
        tournament, url = gin_night_made_on_pages
        deputy = Client()
        deputy.force_login(world.member)
        assert deputy.post(url + "rounds/").status_code == 403
        assert 'data-testid="start-round"' not in deputy.get(url).content.decode()
        assert director.post(url + "deputies/", {"grant": world.member.pk}).status_code == 302
        assert 'data-testid="deputy"' in director.get(url).content.decode()
        page = deputy.get(url).content.decode()
        assert 'data-testid="start-round"' in page and 'data-testid="deputies"' not in page
        assert deputy.post(url + "rounds/").status_code == 302
        assert RoundTable.objects.filter(round__tournament=tournament).count() == 2
        # A deputy does not name deputies, nor direct another night of the club.
        assert deputy.post(url + "deputies/", {"grant": world.admin.pk}).status_code == 403
        other = services.tournament_create(
            actor=world.admin,
            club_id=world.club.pk,
            league_id=world.league.pk,
            name="Another night",
            rounds=1,
            round_minutes=30,
            format="swiss",
        )
        other_url = f"/clubs/{world.club.slug}/n/{other.pk}/"
        assert deputy.post(other_url + "room-link/").status_code == 403
        # Taken back: the member follows the night as any member does.
        director.post(url + "deputies/", {"revoke": world.member.pk})
        assert deputy.post(url + "room-link/").status_code == 403

    def test_only_a_member_of_the_club_can_be_named(self, world, director, gin_night_made_on_pages):
        _tournament, url = gin_night_made_on_pages
        assert director.post(url + "deputies/", {"grant": world.outsider.pk}).status_code == 400
        assert Tournament.objects.get(name="Gin night").deputies.count() == 0


class TestAdjustingATotal:
    def test_the_director_s_adjustment_and_lateness_preset_show_at_the_table_and_in_the_results(
        self, world, director
    ):
        """NIGHT-ADJUST through the pages: a night with a lateness penalty of 25."""
        response = director.post(
            f"/clubs/{world.club.slug}/n/new/",
            {**NIGHT_FORM, "league": world.league.pk, "late_penalty": 25},
        )
        assert response.status_code == 302
        tournament = Tournament.objects.get(name="Gin night")
        assert tournament.late_penalty == 25
        url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
        players = [p.pk for p in world.club.players.all()]
        director.post(url + "entrants/", {"players": players})
        director.post(url + "rounds/")
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        adjust = url + f"tables/{first.pk}/adjust/"
        assert director.post(adjust, {"late": "0"}).status_code == 302
        refused = director.post(adjust, {"seat": "1", "points": "0", "reason": "x"})
        assert refused.status_code == 400
        done = director.post(adjust, {"seat": "1", "points": "10", "reason": "dealt out of turn"})
        assert done.status_code == 302
        names = [seat.entrant.player.name for seat in first.seats.all()]
        table_page = director.get(f"/t/{first.table_id}/").content.decode()
        # Gin is scored in points: lateness takes 25; the second adjustment gives 10.
        assert 'data-testid="total-0">-25<' in table_page
        assert 'data-testid="total-1">10<' in table_page
        assert f"{names[0]}: -25 points, by the director (“late”)" in table_page
        _finish_open_tables(tournament)
        results = director.get(url + "results/").content.decode()
        assert results.count('data-testid="result-adjustment"') == 2
        # GIN-SCORE-GIN: 25 + 30 = 55 for seat 0, less 25: 30; seat 1 keeps its 10.
        document = director.get(url + "results.json").json()
        table_ = next(t for t in document["rounds"][0]["tables"] if t["number"] == first.number)
        assert [seat["total"] for seat in table_["seats"]] == [30, 10]
        assert [a["points"] for a in table_["adjustments"]] == [-25, 10]

    def test_a_night_without_a_lateness_penalty_refuses_the_preset(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        first = RoundTable.objects.filter(round__tournament=tournament).first()
        assert director.post(url + f"tables/{first.pk}/adjust/", {"late": "0"}).status_code == 400
        assert 'data-testid="late-0"' not in director.get(url).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_director_s_row_locking_actions_hold_outside_a_test_s_transaction(world, director):
    """As in a server (no test transaction around the request): every director action that
    locks the night's row runs in a transaction of its own."""
    response = director.post(
        f"/clubs/{world.club.slug}/n/new/",
        {**NIGHT_FORM, "league": world.league.pk, "late_penalty": 10},
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Gin night")
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    players = [p.pk for p in world.club.players.all()]
    assert director.post(url + "entrants/", {"players": players}).status_code == 302
    first, second = tournament.entrants.order_by("pk")[:2]
    assert (
        director.post(url + "apart/", {"first": first.pk, "second": second.pk}).status_code == 302
    )
    kept = tournament.kept_apart.get()
    assert director.post(url + "apart/", {"drop": kept.pk}).status_code == 302
    assert not tournament.kept_apart.exists()
    assert director.post(url + "rounds/").status_code == 302
    pairing = RoundTable.objects.filter(round__tournament=tournament).first()
    adjust = url + f"tables/{pairing.pk}/adjust/"
    assert director.post(adjust, {"late": "0"}).status_code == 302
    assert director.post(adjust, {"seat": "1", "points": "5", "reason": "slow"}).status_code == 302
    assert director.post(url + "room-link/").status_code == 302
    assert director.post(url + "deputies/", {"grant": world.member.pk}).status_code == 302
    assert director.post(url + f"tables/{pairing.pk}/call-clear/").status_code == 302


def test_a_knock_out_match_locked_level_is_scored_from_the_page_and_the_next_round_starts(
    world, director
):
    """NIGHT-KO-DRAW: four players, both semi-finals locked at 0-0 when time is up.
    The final cannot start, and the refusal names both tables; each decided table keeps its
    decide form, now to change the decision; scored for one player each, the final starts
    between the two given the points."""
    PlayerFactory(club=world.club, actor=world.admin, name="Dario")
    form = {**NIGHT_FORM, "league": world.league.pk, "format": "knockout", "name": "Gin night"}
    assert director.post(f"/clubs/{world.club.slug}/n/new/", form).status_code == 302
    tournament = Tournament.objects.get(name="Gin night")
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    players = [p.pk for p in world.club.players.all()]
    assert director.post(url + "entrants/", {"players": players}).status_code == 302
    assert director.post(url + "rounds/").status_code == 302
    pairings = list(RoundTable.objects.filter(round__number=1).order_by("number"))
    assert [p.number for p in pairings] == [1, 2]
    for pairing in pairings:
        locked = {"decision": "lock", "reason": "time"}
        assert director.post(url + f"tables/{pairing.pk}/decide/", locked).status_code == 302
    refused = director.post(url + "rounds/")
    assert refused.status_code == 403
    assert "Tables 1, 2 of round 1 have no winner yet" in refused.content.decode()
    page = director.get(url).content.decode()
    assert page.count("Change the decision") == 2
    given = []
    for pairing, points in zip(pairings, (("1", "0"), ("0", "1")), strict=True):
        scored = {"decision": "score", "reason": "extra hand", "points_0": points[0]}
        scored["points_1"] = points[1]
        assert director.post(url + f"tables/{pairing.pk}/decide/", scored).status_code == 302
        seat = 0 if points[0] == "1" else 1
        given.append(pairing.seats.get(seat=seat).entrant.player.name)
    assert director.post(url + "rounds/").status_code == 302
    final = RoundTable.objects.get(round__tournament=tournament, round__number=2)
    assert sorted(s.entrant.player.name for s in final.seats.all()) == sorted(given)


def _room_tables(page: str) -> list[dict]:
    """Each table card of the room screen: its head line, seats' names and totals."""
    cards = re.findall(r'<li data-status="[^"]+" data-testid="room-table".*?</ul>', page, re.S)
    return [
        {
            "head": " ".join(re.sub(r"<[^>]+>", " ", card.split("</p>")[0]).split()),
            "seats": re.findall(
                r'class="name">([^<]+)</span> <span class="total" data-testid="room-total">'
                r"(-?\d+)<",
                card,
            ),
        }
        for card in cards
    ]


class TestTheRoomScreenTotals:
    def test_each_table_shows_its_seats_running_totals_and_hands(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        first, second = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
        # Classic Gin, GIN-KNOCK: a knock on 3 against 20 deadwood scores the difference, 17.
        table_services.event_append(
            table_id=first.table_id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(0, "knock", 3, 20),
        )
        names = [[s.entrant.player.name for s in p.seats.all()] for p in (first, second)]
        tv = Client()
        tables = _room_tables(tv.get(room).content.decode())
        assert tables[0]["head"] == "Table 1 1 hand playing"
        assert tables[0]["seats"] == [(names[0][0], "17"), (names[0][1], "0")]
        assert tables[1]["head"] == "Table 2 0 hands playing"
        assert tables[1]["seats"] == [(names[1][0], "0"), (names[1][1], "0")]

    def test_the_screen_s_poll_brings_the_new_totals(
        self, world, director, gin_night_made_on_pages
    ):
        tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        first = RoundTable.objects.filter(round__tournament=tournament).order_by("number")[0]
        tv = Client()
        version = re.search(r"\?since=([^\"]+)\"", tv.get(room).content.decode())[1]
        assert tv.get(f"{room}?since={version}", HTTP_HX_REQUEST="true").status_code == 204
        # The second seat goes gin against 12 deadwood: 25 + 12 = 37 (GIN-SCORE-GIN).
        table_services.event_append(
            table_id=first.table_id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick(1, "gin", 0, 12),
        )
        board = tv.get(f"{room}?since={version}", HTTP_HX_REQUEST="true")
        assert board.status_code == 200
        tables = _room_tables(board.content.decode())
        assert [total for _name, total in tables[0]["seats"]] == ["0", "37"]
        assert tables[0]["head"].startswith("Table 1 1 hand")

    def test_the_totals_in_italian(self, world, director, gin_night_made_on_pages):
        _tournament, url = gin_night_made_on_pages
        director.post(url + "rounds/")
        room = _room_link(director, url)
        page = Client(HTTP_ACCEPT_LANGUAGE="it").get(room).content.decode()
        tables = _room_tables(page)
        assert tables[0]["head"] == "Tavolo 1 0 mani in gioco"
        assert "A parità decide il Buchholz" in page and "Classifica" in page
