"""A player withdrawn between rounds of a night: paired no more, kept in the standings.

Each expected round was worked out by hand from the rules the engine's docstrings state
(Swiss: by the standings, the fewest rematches, then the least sum of squared distances;
tables: the fewest repeated table-mates; knock-out: the opponent of a withdrawn player goes
through), with the players read from the tables of the rounds before.
"""

import re
from collections import Counter
from fractions import Fraction

import pytest
from django.test import Client

from games.shared.errors import ActionRefused
from games.tournaments import selectors, services
from games.tournaments.models import RoundTable, Tournament
from tests.factories import LeagueFactory, PlayerFactory
from tests.games.tournaments.helpers import NIGHT_FORM, append, finish_gin_table

pytestmark = pytest.mark.django_db

OTHERS = ("Dario", "Elena", "Franco", "Gina", "Ugo")


def _night(world, *, format="swiss", league=None, others=OTHERS, rounds=3) -> Tournament:
    for name in others:
        PlayerFactory(club=world.club, actor=world.admin, name=name)
    tournament = services.tournament_create(
        actor=world.admin,
        club_id=world.club.pk,
        league_id=(league or world.league).pk,
        name="Night",
        rounds=rounds,
        round_minutes=30,
        format=format,
        seed=7,
    )
    services.entrants_register(
        actor=world.admin,
        tournament_id=tournament.pk,
        player_ids=[p.pk for p in world.club.players.all()],
    )
    return tournament


def _names(table) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in table.seats.order_by("position"))


def _play(world, night, defenders) -> list[tuple[str, ...]]:
    """Start the next round; at its n-th table seat 0 goes gin against ``defenders[n]``
    (GIN-SCORE-GIN: a margin of 25 + that), and both confirm. Return the tables' players."""
    started = services.round_start(actor=world.admin, tournament_id=night.pk)
    for table, defender in zip(started.tables, defenders, strict=True):
        finish_gin_table(table.id, defender=defender)
    return [_names(table) for table in started.tables]


def _set(world, night, name: str, *, withdrawn: bool = True, checked_in: bool = True) -> None:
    entrant = night.entrants.get(player__name=name)
    services.entrant_set(
        actor=world.admin,
        tournament_id=night.pk,
        entrant_id=entrant.pk,
        checked_in=checked_in,
        withdrawn=withdrawn,
    )


def _standings(night) -> dict:
    return {line.name: line for line in selectors.night_standings(tournament=night)}


def _seated_once(started, active) -> None:
    seated = Counter(name for table in started.tables for name in _names(table))
    if started.round.bye is not None:
        seated[started.round.bye.player.name] += 1
    assert seated == Counter(active)


class TestSwiss:
    def test_a_winner_withdrawn_after_round_1_is_left_out_of_round_2(self, world):
        """NIGHT-WITHDRAW."""
        night = _night(world)
        # Margins 85, 75, 65 and 55: the winners stand w1..w4 on 3 VP, the losers l4..l1.
        (w1, l1), (w2, l2), (w3, l3), (w4, l4) = _play(world, night, (60, 50, 40, 30))
        _set(world, night, w4)
        second = services.round_start(actor=world.admin, tournament_id=night.pk)
        # Seven still in: w1 w2 w3 l4 l3 l2 l1. The bye to the last, l1; then adjacent
        # pairs, none met (l4 met w4, who has left): the least distance, 3, and the only.
        assert [_names(table) for table in second.tables] == [(w1, w2), (w3, l4), (l3, l2)]
        assert second.round.bye.player.name == l1
        _seated_once(second, [w1, w2, w3, l1, l2, l3, l4])
        lines = _standings(night)
        assert len(lines) == 8
        assert lines[w4].withdrawn and not lines[w1].withdrawn
        assert (lines[w4].row.victory_points, lines[w4].row.played) == (3, 1)
        # l4 lost to w4, who keeps their 3 VP: l4's Buchholz stays 3.
        assert lines[l4].row.buchholz == 3
        assert lines[l1].row.victory_points == 3  # the bye

    def test_the_second_player_withdrawn_after_round_2_is_left_out_of_round_3(self, world):
        night = _night(world)
        (w1, l1), (w2, l2), (w3, l3), (w4, l4) = _play(world, night, (60, 50, 40, 30))
        # Round 2 by standing, seat 0 winning by 55: w1 w3 l4 l2 win.
        assert _play(world, night, (30,) * 4) == [(w1, w2), (w3, w4), (l4, l3), (l2, l1)]
        _set(world, night, w3)
        # VP 6: w1 (Buchholz 3, +140), w3 (3, +120); 3: w2 (9, +20), w4 (9, 0), l4 (3, 0),
        # l2 (3, -20); 0: l3 (9, -120), l1 (9, -140).
        lines = selectors.night_standings(tournament=night)
        assert [line.name for line in lines] == [w1, w3, w2, w4, l4, l2, l3, l1]
        assert [line.row.victory_points for line in lines] == [6, 6, 3, 3, 3, 3, 0, 0]
        assert [line.row.buchholz for line in lines] == [3, 3, 9, 9, 3, 3, 9, 9]
        assert [line.withdrawn for line in lines] == [False, True, *[False] * 6]
        third = services.round_start(actor=world.admin, tournament_id=night.pk)
        # w1 w2 w4 l4 l2 l3, the bye to l1. Met: w1-w2, w4-l4, w2-l2, l4-l3. Without a
        # rematch the least distance is w1-w4 4 + w2-l4 4 + l2-l3 1 = 9; the next is 11.
        assert [_names(table) for table in third.tables] == [(w1, w4), (w2, l4), (l2, l3)]
        assert third.round.bye.player.name == l1
        _seated_once(third, [w1, w2, w4, l1, l2, l3, l4])
        assert _standings(night)[w3].row.victory_points == 6


class TestTablesOfFour:
    @pytest.fixture
    def ramino_league_of_four_one_hand(self, world):
        return LeagueFactory(
            club=world.club, actor=world.admin, variant="ramino", players=4, options={"hands": 1}
        )

    def test_a_winner_withdrawn_after_round_1_is_left_out_of_round_2(
        self, world, ramino_league_of_four_one_hand
    ):
        """NIGHT-WITHDRAW."""
        night = _night(world, league=ramino_league_of_four_one_hand)
        first = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [len(table.seats.all()) for table in first.tables] == [4, 4]
        # One hand at each table, entered by points: seat 0 goes out, the others hold 10,
        # 20 and 30 (RAM-SCORE: +60, -10, -20, -30): places 1-4, so 4, 2, 1 and 0 VP.
        for table in first.tables:
            hand = [{"points": 0, "went_out": True}, *({"points": p} for p in (10, 20, 30))]
            append(table.id, 1, "hand_recorded", {"mode": "points", "players": hand})
            for seat in range(4):
                append(table.id, 2 + seat, "result_confirmed", {"seat": seat})
        one, two = (_names(table) for table in first.tables)
        _set(world, night, one[0])
        second = services.round_start(actor=world.admin, tournament_id=night.pk)
        # Seven at tables of 4 and 3. With x of one's other three at the four, the repeated
        # pairs are C(x,2) + C(4-x,2) + C(3-x,2) + C(x,2): 9, 4, 3, 6 for x = 0..3.
        sizes = [len(_names(table)) for table in second.tables]
        assert sizes == [4, 3]
        _seated_once(second, [*one[1:], *two])
        four = set(_names(second.tables[0]))
        assert len(four & set(one)) == 2 and len(four & set(two)) == 2
        lines = _standings(night)
        assert lines[one[0]].withdrawn
        assert (lines[one[0]].row.victory_points, lines[one[0]].row.played) == (4, 1)
        # Buchholz of one's others: the VP of their table-mates, one[0]'s 4 among them.
        assert [lines[name].row.buchholz for name in one[1:]] == [5, 6, 7]
        assert sum(line.row.victory_points for line in lines.values()) == 14


class TestKnockout:
    def _seeds(self, night) -> list[str]:
        night.refresh_from_db()
        names = dict(night.entrants.values_list("pk", "player__name"))
        return [names[pk] for pk in night.field]

    def test_the_opponent_of_a_withdrawn_winner_goes_through_without_a_table(self, world):
        """NIGHT-WITHDRAW, NIGHT-KO-DRAW: a walkover."""
        night = _night(world, format="knockout", rounds=1)
        first = _play(world, night, (30,) * 4)
        s = [None, *self._seeds(night)]  # s[1] is the top seed
        assert first == [(s[1], s[8]), (s[4], s[5]), (s[2], s[7]), (s[3], s[6])]
        _set(world, night, s[4])
        # Semi-finals s1-s4 and s2-s3: s4 has left, so s1 has a walkover; one table, the
        # second match's (numbered 2).
        second = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [_names(table) for table in second.tables] == [(s[2], s[3])]
        assert [p.number for p in second.round.tables.all()] == [2]
        finish_gin_table(second.tables[0].id)
        semis = selectors.bracket(tournament=night)[1]
        assert [(slot.name, slot.won) for slot in semis[0].slots] == [(s[1], True), (s[4], False)]
        assert [(slot.name, slot.won) for slot in semis[1].slots] == [(s[2], True), (s[3], False)]
        final = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [_names(table) for table in final.tables] == [(s[1], s[2])]
        finish_gin_table(final.tables[0].id)
        with pytest.raises(ActionRefused, match="Every round has been played"):
            services.round_start(actor=world.admin, tournament_id=night.pk)
        lines = _standings(night)
        assert lines[s[4]].withdrawn
        assert (lines[s[4]].row.victory_points, lines[s[4]].row.played) == (3, 1)
        # A walkover is no table: s1 won round 1 and the final, nothing for the semi-final.
        assert (lines[s[1]].row.victory_points, lines[s[1]].row.played) == (6, 2)

    def test_a_player_withdrawn_mid_match_loses_it_and_stays_out(self, world):
        night = _night(world, format="knockout", others=("Dario",), rounds=1)
        started = services.round_start(actor=world.admin, tournament_id=night.pk)
        s = [None, *self._seeds(night)]
        assert [_names(table) for table in started.tables] == [(s[1], s[4]), (s[2], s[3])]
        # The withdrawal voids s4's open table by itself (NIGHT-WITHDRAW): level, the
        # match goes to s1 by walkover once the round is over, and s4 stays out.
        _set(world, night, s[4])
        finish_gin_table(started.tables[1].id, winner_seat=1)
        with pytest.raises(ActionRefused, match="cannot come back"):
            _set(world, night, s[4], withdrawn=False)
        final = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [_names(table) for table in final.tables] == [(s[1], s[3])]

    def test_a_withdrawn_player_comes_back_until_their_match_has_gone(self, world):
        night = _night(world, format="knockout", others=("Dario",), rounds=1)
        _play(world, night, (30, 30))
        s = [None, *self._seeds(night)]
        # s1 and s2 won round 1. s1 withdraws and comes back before the final starts:
        # nothing has gone to anyone yet. s2 checks out instead.
        _set(world, night, s[1])
        _set(world, night, s[1], withdrawn=False)
        _set(world, night, s[2], withdrawn=False, checked_in=False)
        final = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert final.tables == [] and final.round.tables.count() == 0
        # s2 was out when the final started: s1 had it by walkover, and s2 stays out.
        with pytest.raises(ActionRefused, match="cannot come back"):
            _set(world, night, s[2], withdrawn=False)
        with pytest.raises(ActionRefused, match="Every round has been played"):
            services.round_start(actor=world.admin, tournament_id=night.pk)
        final_column = selectors.bracket(tournament=night)[-1]
        assert [(slot.name, slot.won) for slot in final_column[0].slots] == [
            (s[1], True),
            (s[2], False),
        ]


class TestRoundRobin:
    def test_the_schedule_goes_on_without_the_withdrawn_player(self, world):
        """NIGHT-WITHDRAW: the scheduled opponent of the player who left has a walkover
        worth a bye's points (3), recorded with the round."""
        night = _night(world, format="round_robin", others=("Dario",))
        first = _play(world, night, (30, 30))
        night.refresh_from_db()
        names = dict(night.entrants.values_list("pk", "player__name"))
        p = [names[pk] for pk in night.field]
        # The circle method on p0..p3: round 1 p0-p3, p2-p1; round 2 p2-p0, p3-p1; round 3
        # p0-p1, p3-p2 (seats swap every other round).
        assert first == [(p[0], p[3]), (p[2], p[1])]
        _set(world, night, p[0])
        # p0's scheduled opponent, p2, sits out the round (the schedule is fixed): no
        # table, a walkover worth the bye's 3 VP instead.
        second = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [_names(table) for table in second.tables] == [(p[3], p[1])]
        assert second.round.bye is None
        assert [e.player.name for e in second.round.walkovers.all()] == [p[2]]
        finish_gin_table(second.tables[0].id)
        third = services.round_start(actor=world.admin, tournament_id=night.pk)
        assert [_names(table) for table in third.tables] == [(p[3], p[2])]
        # Round 3 was to be p0-p1: p1 has the walkover now.
        assert [e.player.name for e in third.round.walkovers.all()] == [p[1]]
        lines = _standings(night)
        assert lines[p[0]].withdrawn
        assert (lines[p[0]].row.victory_points, lines[p[0]].row.played) == (3, 1)
        # Seat 0 won every table: p2 beat p1 in round 1 (3) and had the walkover of round
        # 2 (3); p1 lost round 1 and 2 and has the walkover of round 3 (3). A walkover is
        # no bye: neither has had one (NIGHT-WITHDRAW).
        assert [(lines[n].row.victory_points, lines[n].row.byes) for n in p[1:3]] == [
            (3, 0),
            (6, 0),
        ]
        page = Client()
        page.force_login(world.admin)
        html = page.get(f"/clubs/{world.club.slug}/n/{night.pk}/").content.decode()
        assert re.search(rf'data-testid="walkover">[^<]*{p[1]}', html)


class TestNightPage:
    def test_the_director_withdraws_a_player_and_starts_the_next_round(self, world):
        PlayerFactory(club=world.club, actor=world.admin, name="Dario")
        director = Client()
        director.force_login(world.admin)
        new = director.post(
            f"/clubs/{world.club.slug}/n/new/", {**NIGHT_FORM, "league": world.league.pk}
        )
        assert new.status_code == 302
        night = Tournament.objects.get(name=NIGHT_FORM["name"])
        url = f"/clubs/{world.club.slug}/n/{night.pk}/"
        players = [p.pk for p in world.club.players.all()]
        assert director.post(url + "entrants/", {"players": players}).status_code == 302
        assert director.post(url + "rounds/").status_code == 302
        tables = RoundTable.objects.filter(round__tournament=night).order_by("number")
        # Margins 85 and 55: w1, w2 on 3 VP, then l2, l1.
        for pairing, defender in zip(tables, (60, 30), strict=True):
            finish_gin_table(pairing.table_id, defender=defender)
        (w1, l1), (w2, l2) = (_names(pairing.table) for pairing in tables)
        leaving = night.entrants.get(player__name=w2)
        response = director.post(url + f"entrants/{leaving.pk}/", {"state": "withdrawn"})
        assert response.status_code == 302
        assert director.post(url + "rounds/").status_code == 302
        # w1 l2 l1 are left: the bye to l1, and w1 meets l2 (not met before).
        second = night.round_set.get(number=2)
        assert [_names(p.table) for p in second.tables.all()] == [(w1, l2)]
        assert second.bye.player.name == l1
        page = director.get(url).content.decode()
        assert re.search(
            rf'data-testid="name">{w2}</span> <span class="muted small">\(withdrawn\)', page
        )
        assert _standings(night)[w2].row.victory_points == Fraction(3)
