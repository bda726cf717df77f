"""Nights worked by hand from docs/rules.md, through the director's page and services.

A knock-out: a quarter-final locked at 0–0 holds the next round back, the refusal names its
table, the director scores it from the page (its decision replaced) and the semi-finals are
paired; a player who withdraws mid-match gives the open table up by themselves
(NIGHT-KO-DRAW, NIGHT-WITHDRAW); the results show each decision. A Ramino night at tables
of four with a lateness penalty (NIGHT-ADJUST).

The bracket is worked by hand from NIGHT-KO-SEEDS: eight seeds play 1–8, 4–5, 2–7, 3–6,
tables numbered by match, seat 0 the first named.
"""

import pytest

from games.shared.errors import ActionRefused
from games.tournaments import selectors, services
from games.tournaments.models import RoundTable
from tests.factories import LeagueFactory
from tests.games.tournaments.helpers import append, finish_gin_table
from tests.games.tournaments.test_withdrawals import _names, _night, _set

pytestmark = pytest.mark.django_db


def _seeds(night) -> list[str | None]:
    night.refresh_from_db()
    names = dict(night.entrants.values_list("pk", "player__name"))
    return [None, *(names[pk] for pk in night.field)]


def test_a_quarter_final_locked_at_0_0_is_decided_from_the_page(world, director):
    night = _night(world, format="knockout", rounds=1)
    url = f"/clubs/{world.club.slug}/n/{night.pk}/"
    assert director.post(url + "rounds/").status_code == 302
    s = _seeds(night)
    pairings = {p.number: p for p in RoundTable.objects.filter(round__tournament=night)}
    assert [_names(pairings[n].table) for n in (1, 2, 3, 4)] == [
        (s[1], s[8]),
        (s[4], s[5]),
        (s[2], s[7]),
        (s[3], s[6]),
    ]
    for number in (1, 2, 3):
        finish_gin_table(pairings[number].table_id)  # seat 0 wins: s1, s4, s2
    decide = url + f"tables/{pairings[4].pk}/decide/"
    # Time is up at table 4 before any hand: locked at 0–0, level, no winner.
    locked = director.post(decide, {"decision": "lock", "reason": "time"})
    assert locked.status_code == 302
    refused = director.post(url + "rounds/")
    assert refused.status_code == 403
    assert "Table 4 of round 1 has no winner yet" in refused.content.decode()
    # The decided table keeps its form on the director's page, to change the decision.
    page = director.get(url).content.decode()
    assert "Change the decision" in page
    assert f'action="{decide}"' in page
    scored = {"decision": "score", "reason": "lots drawn", "points_0": "3", "points_1": "0"}
    assert director.post(decide, scored).status_code == 302
    assert director.post(url + "rounds/").status_code == 302
    semis = RoundTable.objects.filter(round__tournament=night, round__number=2)
    assert [_names(p.table) for p in semis.order_by("number")] == [(s[1], s[4]), (s[2], s[3])]


def test_a_player_who_withdraws_mid_match_gives_up_the_open_table(world):
    night = _night(world, format="knockout", others=("Dario",), rounds=1)
    started = services.round_start(actor=world.admin, tournament_id=night.pk)
    s = _seeds(night)
    assert [_names(table) for table in started.tables] == [(s[1], s[4]), (s[2], s[3])]
    _set(world, night, s[4])
    # Table 1 is voided by the withdrawal itself: level, it goes to s1 by walkover.
    found = selectors.night_results(tournament=night)
    first = started.round.tables.get(number=1)
    assert found.status[first.pk] == selectors.DECIDED
    finish_gin_table(started.tables[1].id, winner_seat=1)
    final = services.round_start(actor=world.admin, tournament_id=night.pk)
    assert [_names(table) for table in final.tables] == [(s[1], s[3])]
    # s3 wins the final (3 VP each for the semi-final and the final); s1, through on the
    # voided table, has 0 VP yet ranks 2nd as the finalist (NIGHT-KO-RANK). s2 and s4, out
    # in the first round on 0 VP, part on Buchholz: s2 met s3 (6), s4 met s1 (0).
    finish_gin_table(final.tables[0].id, winner_seat=1)
    lines = selectors.night_standings(tournament=night)
    assert [(line.name, line.row.rank, line.row.victory_points) for line in lines] == [
        (s[3], 1, 6),
        (s[1], 2, 0),
        (s[2], 3, 0),
        (s[4], 4, 0),
    ]


def test_the_results_page_and_file_show_each_decision_and_the_vp_given(world, director):
    night = _night(world, format="knockout", others=("Dario",), rounds=1)
    started = services.round_start(actor=world.admin, tournament_id=night.pk)
    s = _seeds(night)
    first, second = started.round.tables.order_by("number")
    for pairing, decision, points in [(first, "lock", None), (second, "score", [1, 3])]:
        services.table_decide(
            actor=world.admin,
            tournament_id=night.pk,
            round_table_id=pairing.pk,
            decision=decision,
            reason="time",
            points=points,
        )
    url = f"/clubs/{world.club.slug}/n/{night.pk}/results"
    page = director.get(url + "/").content.decode()
    assert "Locked by the director (“time”): the totals stand." in page
    # Table 2 is s2 (seat 0) against s3: 1 VP to s2, 3 to s3, as the director gave.
    assert f"Scored by the director (“time”), victory points given: {s[2]} 1, {s[3]} 3" in page
    document = director.get(url + ".json").json()
    tables = document["rounds"][0]["tables"]
    assert tables[0]["decision"] == {"decision": "lock", "reason": "time", "victory_points": []}
    assert tables[1]["decision"] == {
        "decision": "score",
        "reason": "time",
        "victory_points": [{"player": s[2], "points": 1}, {"player": s[3], "points": 3}],
    }


def test_a_withdrawal_during_a_hand_played_move_by_move_is_refused_naming_the_table(world):
    night = _night(world, format="knockout", others=("Dario",), rounds=1)
    started = services.round_start(actor=world.admin, tournament_id=night.pk)
    s = _seeds(night)
    append(started.tables[0].id, 1, "hand_started", {"dealer": 0, "upcard": "4C"})
    with pytest.raises(ActionRefused, match="Table 1 cannot be decided yet"):
        _set(world, night, s[4])
    # Nothing stored: s4 is still in, and the table still plays.
    assert not night.entrants.get(player__name=s[4]).withdrawn
    found = selectors.night_results(tournament=night)
    assert found.status[started.round.tables.get(number=1).pk] == selectors.PLAYING


def test_a_ramino_night_at_tables_of_4_with_a_lateness_penalty(world):
    """NIGHT-ADJUST, NIGHT-DIFFERENCE: eight at Ramino tables of four, one hand a match,
    a lateness penalty of 75. At each table seat 0 goes out and the others hold 10, 20 and
    30 (RAM-SCORE: +60, -10, -20, -30). Table 1's seat 0 came late: 60 - 75 = -15, so
    seat 1 (-10) is 1st with 4 VP, seat 0 2nd with 2, seat 2 (-20) 1, seat 3 0. The
    points differences (60, -10, -20, -30 unadjusted) move as the penalty moves each total
    against the others' average: seat 0's by -75, the others' by +25 each: -15, 15, 5, -5."""
    ramino = LeagueFactory(
        club=world.club, actor=world.admin, variant="ramino", players=4, options={"hands": 1}
    )
    night = _night(world, league=ramino)
    night.late_penalty = 75
    night.save(update_fields=["late_penalty"])
    started = services.round_start(actor=world.admin, tournament_id=night.pk)
    first = started.round.tables.get(number=1)
    services.points_adjust(
        actor=world.admin, tournament_id=night.pk, round_table_id=first.pk, seat=0, preset="late"
    )
    hand = [{"points": 0, "went_out": True}, *({"points": p} for p in (10, 20, 30))]
    for table in started.tables:
        head = 2 if table.id == first.table_id else 1
        append(table.id, head, "hand_recorded", {"mode": "points", "players": hand})
        for seat in range(4):
            append(table.id, head + 1 + seat, "result_confirmed", {"seat": seat})
    seated = _names(first.table)
    lines = {line.name: line.row for line in selectors.night_standings(tournament=night)}
    assert [(lines[n].victory_points, lines[n].points_difference) for n in seated] == [
        (2, -15),
        (4, 15),
        (1, 5),
        (0, -5),
    ]
