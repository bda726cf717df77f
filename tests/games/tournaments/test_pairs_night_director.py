"""A pairs night's director: the VP table picked or edited (and refused, naming the band),
a pair withdrawing mid-night, who may see and run the night, and the pairs' integrity in the
database itself."""

import json
import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from games.tournaments.models import Entrant, PairMember, Tournament
from scoring.tournaments.victory_points import FIBUR_3_HANDS, to_dict
from tests.factories import PlayerFactory
from tests.games.tournaments.pairs_helpers import (
    PAIRS_NIGHT_FORM,
    burraco_league,
    meetings,
    pair_ids,
    pairs_night,
    play_match,
    tables_of,
)

# Pairs nights are Burraco nights: Burraco in the registry for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("burraco_game")]


def _own_table(**changes) -> str:
    """Return the federation's 3-hand table as JSON, its bands changed: {band number:
    {field: value}} (1 is the first band)."""
    table = to_dict(FIBUR_3_HANDS)
    table["name"] = "Our club's 3 hands"
    for number, fields in changes.items():
        table["bands"][int(number.removeprefix("band_")) - 1].update(fields)
    return json.dumps(table)


def _create(world, director, language="en", **form):
    data = {**PAIRS_NIGHT_FORM, "league": burraco_league(world).pk, **form}
    url = f"/clubs/{world.club.slug}/n/new/pairs/"
    return director.post(url, data, HTTP_ACCEPT_LANGUAGE=language)


class TestTheVPTable:
    def test_an_edited_table_whose_vp_do_not_go_up_is_refused_naming_the_band(
        self, world, director
    ):
        # Band 3 (155–250) gives 11–9, as band 2 (55–150) does: not monotone.
        own = _own_table(band_3={"winner": 11, "loser": 9})
        response = _create(world, director, vp_table="json", own_table=own)
        assert response.status_code == 422
        error = re.search(r'id="id_own_table_error"[^>]*>([^<]+)<', response.content.decode())
        assert error and error.group(1) == (
            "Band 3 (155–250): the winner&#x27;s VP must go up band by band, "
            "and 11 does not go up from 11."
        )
        assert not Tournament.objects.exists()

    def test_the_refusal_is_said_in_italian(self, world, director):
        own = _own_table(band_2={"winner": 12, "loser": 9})
        response = _create(world, director, language="it", vp_table="json", own_table=own)
        page = response.content.decode()
        assert response.status_code == 422
        assert "Fascia 2 (55–150): 12–9 PV non fanno 20." in page

    def test_a_gap_between_bands_and_text_that_is_no_json_are_refused(self, world, director):
        own = _own_table(band_4={"from": 260})
        page = _create(world, director, vp_table="json", own_table=own).content.decode()
        assert "Band 4 (260–350): a gap after 250; the band should start at 255." in page
        page = _create(world, director, vp_table="json", own_table="{bands: [").content.decode()
        assert "Not a table in JSON (line 1, column 2)." in page
        nested = "[" * 2900 + "]" * 2900  # within the field's length, past json's depth
        response = _create(world, director, vp_table="json", own_table=nested)
        assert response.status_code == 422
        assert "Not a table in JSON: it nests too deep." in response.content.decode()

    def test_a_table_for_another_number_of_hands_is_refused(self, world, director):
        response = _create(world, director, vp_table="fibur-4-hands")
        assert response.status_code == 422
        assert "This table is for matches of 4 hands, the night&#x27;s are 3." in (
            response.content.decode()
        )

    def test_too_long_a_table_is_refused_before_it_is_read(self, world, director):
        response = _create(world, director, vp_table="json", own_table=" " * 7000)
        assert response.status_code == 422
        assert not Tournament.objects.exists()

    def test_the_director_s_own_table_scores_the_night(self, world, director):
        # The club's copy: 11–9 from 55 to 100, 12–8 from 105 to 250 (the federation's
        # table has 11–9 up to 150).
        own = _own_table(band_2={"to": 100}, band_3={"from": 105})
        tournament, url = pairs_night(
            world, director, 2, plan="1 Mitchell", vp_table="json", own_table=own
        )
        assert tournament.vp_table["name"] == "Our club's 3 hands"
        assert director.post(url + "rounds/").status_code == 302
        # Pair 1 wins by 150: 12–8 by the club's table (11–9 by the federation's).
        play_match(tables_of(tournament, 1)[1], 150)
        page = director.get(url).content.decode()
        assert re.findall(r'data-testid="vp">(\d+)<', page) == ["12", "8"]


class TestAPairWithdraws:
    """6 pairs, "2 Mitchell + 1 Danese": 3 tables, NS 1, 3, 5, EW 2, 4, 6.

    Round 1: 1–2 +300 → 13–7; 3–4 −100 → 9–11; 5–6 0 → 10–10. Then pair 4 withdraws.
    Round 2 (EW one table up): 1–6, 3–2, and 5–4 is no table: pair 5 scores the bye's 12 VP
    as a walkover (no bye of its own). 1–6 0 → 10–10; 3–2 +500 → 14–6.
    After 2 rounds: 1: 23, +300; 2: 13, −800; 3: 23, +400; 4: 11, +100 (withdrawn);
    5: 22, 0; 6: 20, 0. Those still in, best first: 3, 1, 5, 6, 2.
    Round 3, Danese: 5 pairs, the bye to the lowest placed with no bye, pair 2 (12 VP).
    3 has not met 1, but then 5–6 met in round 1: 3–5 leaves 1–6, who met in round 2; so
    3–6 and 1–5. 3–6 +100 → 11–9; 1–5 −200 → 8–12.
    Final: 3: 34, +500; 5: 34, +200; 1: 31, +100; 6: 29, −100; 2: 25, −800; 4: 11, +100.
    """

    def test_its_results_stand_its_opponents_walk_over_and_the_danese_pairs_the_rest(
        self, world, director
    ):
        tournament, url = pairs_night(world, director, 6, plan="2 Mitchell + 1 Danese")
        numbers = pair_ids(tournament)
        director.post(url + "rounds/")
        for table, difference in {1: 300, 2: -100, 3: 0}.items():
            play_match(tables_of(tournament, 1)[table], difference)
        response = director.post(url + f"entrants/{numbers[4]}/", {"state": "withdrawn"})
        assert response.status_code == 302
        director.post(url + "rounds/")
        assert meetings(tournament, 2, numbers) == {1: (1, 6), 2: (3, 2)}
        page = director.get(url).content.decode()
        assert "Bye, the opponent having withdrawn: P5 a &amp; P5 b" in page
        for table, difference in {1: 0, 2: 500}.items():
            play_match(tables_of(tournament, 2)[table], difference)
        director.post(url + "rounds/")
        assert meetings(tournament, 3, numbers) == {1: (3, 6), 2: (1, 5)}
        assert "Bye: P2 a &amp; P2 b" in director.get(url).content.decode()
        for table, difference in {1: 100, 2: -200}.items():
            play_match(tables_of(tournament, 3)[table], difference)
        page = director.get(url).content.decode()
        rows = re.findall(
            r'<td>(\d+)</td>\s*<th scope="row"><span data-testid="name">P(\d) a &amp; P\d b'
            r"</span>( <span[^>]*>\(withdrawn\))?.*?"
            r'data-testid="vp">([^<]+)<.*?data-testid="points-difference">([^<]+)<',
            page,
            re.S,
        )
        assert [(rank, pair, bool(gone), vp, diff) for rank, pair, gone, vp, diff in rows] == [
            ("1", "3", False, "34", "500"),
            ("2", "5", False, "34", "200"),
            ("3", "1", False, "31", "100"),
            ("4", "6", False, "29", "-100"),
            ("5", "2", False, "25", "-800"),
            ("6", "4", True, "11", "100"),
        ]


class TestWhoMaySeeAndRunIt:
    def test_a_stranger_finds_no_night_and_a_member_only_follows_it(self, world, director):
        tournament, url = pairs_night(world, director, 2)
        stranger = Client()
        stranger.force_login(world.outsider)
        assert stranger.get(url).status_code == 404
        assert stranger.post(url + "pairs/", {"first": 1, "second": 2}).status_code == 404
        assert Client().get(url + "results/").status_code == 404
        assert stranger.get(url + "results.json").status_code == 404
        member = Client()
        member.force_login(world.member)
        page = member.get(url)
        assert page.status_code == 200 and 'data-testid="pair-form"' not in page.content.decode()
        players = [p.pk for p in world.club.players.all()[:2]]
        refused = member.post(url + "pairs/", {"first": players[0], "second": players[1]})
        assert refused.status_code == 403
        assert Entrant.objects.filter(tournament=tournament).count() == 2

    def test_only_an_admin_creates_a_pairs_night(self, world, burraco_game):
        member = Client()
        member.force_login(world.member)
        data = {**PAIRS_NIGHT_FORM, "league": burraco_league(world).pk}
        assert member.post(f"/clubs/{world.club.slug}/n/new/pairs/", data).status_code == 403
        assert not Tournament.objects.exists()


class TestPairsHoldTogether:
    def test_a_player_already_in_a_pair_is_refused_with_their_name(self, world, director):
        tournament, url = pairs_night(world, director, 1)
        taken = PairMember.objects.get(pair__tournament=tournament, place=0).player
        other = PlayerFactory(club=world.club, actor=world.admin, name="Zeno")
        response = director.post(url + "pairs/", {"first": other.pk, "second": taken.pk})
        assert response.status_code == 400
        assert "P1 a already plays in a pair of this night." in response.content.decode()
        response = director.post(url + "pairs/", {"first": other.pk, "second": other.pk})
        assert "A pair is two different players." in response.content.decode()

    def test_no_pair_joins_once_the_first_round_is_paired(self, world, director):
        tournament, url = pairs_night(world, director, 2, plan="1 Mitchell")
        assert director.post(url + "rounds/").status_code == 302
        first, second = (PlayerFactory(club=world.club, actor=world.admin) for _ in "ab")
        response = director.post(url + "pairs/", {"first": first.pk, "second": second.pk})
        assert response.status_code == 403
        assert Entrant.objects.filter(tournament=tournament).count() == 2

    def test_the_database_refuses_a_player_in_two_pairs_and_a_number_used_twice(
        self, world, director
    ):
        tournament, _url = pairs_night(world, director, 2)
        one, two = Entrant.objects.filter(tournament=tournament).order_by("number")
        member = PairMember.objects.get(pair=one, place=0)
        with pytest.raises(IntegrityError), transaction.atomic():
            # Pair 2's players are its own: pair 1's first player cannot be one as well.
            PairMember.objects.filter(pair=two, place=1).update(player=member.player)
        with pytest.raises(IntegrityError), transaction.atomic():
            Entrant.objects.filter(pk=two.pk).update(number=1)
        with pytest.raises(IntegrityError), transaction.atomic():
            # A third player for a pair: only places 0 and 1.
            PairMember.objects.create(tournament=tournament, pair=one, player=world.anna, place=2)
        with pytest.raises(IntegrityError), transaction.atomic():
            # An entrant is a player or a numbered pair, not both.
            Entrant.objects.create(tournament=tournament, player=world.anna, number=3)


class TestCreatingIt:
    def test_the_form_offers_the_federation_s_tables_and_a_copy_to_edit(self, world, director):
        burraco_league(world)
        club = director.get(f"/clubs/{world.club.slug}/").content.decode()
        assert 'data-testid="new-pairs-night"' in club
        page = director.get(f"/clubs/{world.club.slug}/n/new/pairs/").content.decode()
        assert "2 hands (house default, unverified)" in page and "FIBur 4 hands" in page
        # The copy to edit is the 3-hand table, as rows: band 2 from 55 to 150, 11–9.
        assert 'name="band-1-low" value="55"' in page and 'name="band-1-high" value="150"' in page
        assert 'value="3 Mitchell + 1 Danese"' in page

    def test_a_league_of_pairs_is_refused_as_a_players_night(self, world, director):
        data = {
            "name": "Not so",
            "league": burraco_league(world).pk,
            "format": "swiss",
            "scale": "wdl",
            "win_points": 3,
            "draw_points": 1,
            "loss_points": 0,
            "bye_points": 3,
            "rounds": 2,
            "round_minutes": 30,
        }
        response = director.post(f"/clubs/{world.club.slug}/n/new/", data)
        assert response.status_code == 422
        assert "A game of pairs plays a pairs night: create it as one." in (
            response.content.decode()
        )

    def test_a_plan_that_is_no_plan_is_refused(self, world, director):
        response = _create(world, director, plan="3 Howell")
        assert response.status_code == 422
        assert "Write the plan as numbers of Mitchell and Danese rounds" in (
            response.content.decode()
        )
        assert not Tournament.objects.exists()

    def test_players_are_not_registered_one_by_one_at_a_pairs_night(self, world, director):
        tournament, url = pairs_night(world, director, 1)
        response = director.post(url + "entrants/", {"players": [world.anna.pk]})
        assert response.status_code == 400
        assert "This night&#x27;s entrants are pairs" in response.content.decode()
        assert Entrant.objects.filter(tournament=tournament).count() == 1


class TestAnOddField:
    """5 pairs, "2 Mitchell": 3 tables, NS 1, 3 and the phantom at table 3, EW 2, 4, 5. The
    last table is the rest table: pair 5 sits out round 1 (12 VP), pair 4 round 2 (BYE)."""

    def test_the_pair_facing_the_phantom_has_the_bye_and_its_vp(self, world, director):
        tournament, url = pairs_night(world, director, 5, plan="2 Mitchell")
        numbers = pair_ids(tournament)
        director.post(url + "rounds/")
        assert meetings(tournament, 1, numbers) == {1: (1, 2), 2: (3, 4)}
        assert "Bye: P5 a &amp; P5 b" in director.get(url).content.decode()
        for table in (1, 2):
            play_match(tables_of(tournament, 1)[table], 0)
        director.post(url + "rounds/")
        # EW one table up: 5 (from table 3) to table 1, 2 to table 2, 4 onto the rest table.
        assert meetings(tournament, 2, numbers) == {1: (1, 5), 2: (3, 2)}
        page = director.get(url).content.decode()
        assert "Bye: P4 a &amp; P4 b" in page
        # The printed cards say who sits out, for the room without a phone.
        cards = director.get(url + "cards/").content.decode()
        assert re.findall(r'data-testid="card-bye">([^<]+)<', cards) == ["Bye: P4 a &amp; P4 b"]
        vp = dict(
            re.findall(r'data-testid="name">P(\d) a &amp;.*?data-testid="vp">(\d+)<', page, re.S)
        )
        assert vp == {"1": "10", "2": "10", "3": "10", "4": "22", "5": "12"}
