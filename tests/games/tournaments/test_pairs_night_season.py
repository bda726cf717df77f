"""A Burraco pairs night counted in a club season: its tables are the season's, and each
finished match counts in the league's standings for each of the four players, as every
league match does: both partners carry their pair's result (won, lost, points for and
against), whatever the night's VP."""

import pytest

from games.clubs.models import Season
from games.standings.selectors import season_standings
from games.tables.models import Table
from tests.factories import SeasonFactory
from tests.games.tournaments.pairs_helpers import burraco_league, pairs_night, play_match, tables_of

# Pairs nights are Burraco nights: Burraco in the registry for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("burraco_game")]


def _season(world) -> Season:
    league = burraco_league(world)
    league.tiebreakers = ["points_difference"]
    league.save(update_fields=["tiebreakers"])
    return SeasonFactory(league=league, actor=world.admin, name="Burraco spring")


def test_the_form_offers_the_pairs_league_s_open_season(world, director):
    _season(world)
    page = director.get(f"/clubs/{world.club.slug}/n/new/pairs/").content.decode()
    assert "Burraco spring" in page
    # The Gin league's season is no season a pairs night can count in.
    assert world.season.name not in page


def test_each_player_of_a_pair_carries_the_pair_s_result_in_the_season(
    world, director, django_capture_on_commit_callbacks, eager_celery
):
    """BURRACO-SEASON. 4 pairs, "2 Mitchell", counted in the season. NS 1 and 3 stay; EW
    2 and 4 move.

    Each match three hands of 100 a pair, the lead spread over them (play_match):
    round 1: 1–2 +300 → 600 to 300, pair 1 wins; 3–4 0 → 300 to 300, level: both pairs
    share the match, all four players win it (BUR-MATCH).
    round 2: 1–4 −100 → 300 to 400, pair 4 wins; 3–2 +500 → 800 to 300, pair 3 wins.

    Each player, as their pair (played, won, lost; points for, against):
    pair 1: 2, 1, 1; 600 + 300 = 900, 300 + 400 = 700 (difference +200).
    pair 2: 2, 0, 2; 300 + 300 = 600, 600 + 800 = 1400 (−800).
    pair 3: 2, 2, 0; 300 + 800 = 1100, 300 + 300 = 600 (+500).
    pair 4: 2, 2, 0; 300 + 400 = 700, 300 + 300 = 600 (+100).
    The record first (wins, then fewer losses): 3 and 4 on 2–0, the league's tie-breaker
    (points difference) puts 3's players first; partners, level on everything, share the
    rank: 3 a and 3 b 1st, 4 a and 4 b 3rd, 1 a and 1 b 5th, 2 a and 2 b 7th.
    """
    season = _season(world)
    tournament, url = pairs_night(world, director, 4, plan="2 Mitchell", season=season.pk)
    assert tournament.season == season
    with django_capture_on_commit_callbacks(execute=True):
        assert director.post(url + "rounds/").status_code == 302
        first = tables_of(tournament, 1)
        assert all(p.table.season == season for p in first.values())
        play_match(first[1], 300)
        play_match(first[2], 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert director.post(url + "rounds/").status_code == 302
        second = tables_of(tournament, 2)
        play_match(second[1], -100)
        play_match(second[2], 500)
    assert Table.objects.filter(season=season, status=Table.Status.FINISHED).count() == 4
    standings = season_standings(season=season)
    assert standings.matches == 4 and standings.up_to_date
    rows = [
        (
            line.player.name,
            line.row["rank"],
            line.row["played"],
            line.row["won"],
            line.row["lost"],
            line.row["points_for"],
            line.row["points_against"],
        )
        for line in standings.lines
    ]
    assert sorted(rows, key=lambda row: (row[1], row[0])) == [
        ("P3 a", 1, 2, 2, 0, 1100, 600),
        ("P3 b", 1, 2, 2, 0, 1100, 600),
        ("P4 a", 3, 2, 2, 0, 700, 600),
        ("P4 b", 3, 2, 2, 0, 700, 600),
        ("P1 a", 5, 2, 1, 1, 900, 700),
        ("P1 b", 5, 2, 1, 1, 900, 700),
        ("P2 a", 7, 2, 0, 2, 600, 1400),
        ("P2 b", 7, 2, 0, 2, 600, 1400),
    ]
