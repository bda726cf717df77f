"""A director's night of twelve at Ramino tables of four, in real browsers: players pasted
by name and checked in by a tap, a latecomer, a withdrawal, two players kept apart, a
lateness penalty, a table calling the director seen on the room's TV, a guest's phone
following the standings and its next table, and the room screen at 1920 x 1080 with no
session, its clock stopped after the night.

The tables' hands are appended as the table phones would (each round's play is not what
this test is about); everything the director does goes through the pages.
"""

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.test_league import create_club, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Gina",
    "Ivo",
    "Lia",
    "Marco",
    "Nora",
    "Ugo",
]
LATE, LEAVES = "Ugo", "Marco"
APART = ("Anna", "Bruno")


def _ramino_league(club_name: str):
    """A Ramino league of four a table, one hand a match (made as the club page would)."""
    from django.contrib.auth import get_user_model

    from games.clubs.models import Club
    from tests.factories import LeagueFactory

    club = Club.objects.get(name=club_name)
    owner = get_user_model().objects.get(username="dora")
    return LeagueFactory(
        club=club,
        actor=owner,
        name="Ramino del venerdì",
        variant="ramino",
        players=4,
        options={"hands": 1},
    )


def _finish_round(tournament_name: str, number: int) -> None:
    """Every open table of the round: the first seat goes out, the others hold points by
    seat, and every player confirms (RAM-SCORE: the others pay what they hold)."""
    from games.tables import services as table_services
    from games.tournaments.models import RoundTable

    tables = RoundTable.objects.filter(
        round__tournament__name=tournament_name, round__number=number, table__status="open"
    )
    for pairing in tables:
        seats = pairing.seats.count()
        players = [{"points": 0, "went_out": True}] + [
            {"points": 10 * seat} for seat in range(1, seats)
        ]
        entries = [("hand_recorded", {"mode": "points", "players": players})]
        entries += [("result_confirmed", {"seat": seat}) for seat in range(seats)]
        for event_type, payload in entries:
            pairing.table.refresh_from_db()
            table_services.event_append(
                table_id=pairing.table_id,
                event_id=uuid.uuid4(),
                expected_seq=pairing.table.head_seq,
                event_type=event_type,
                payload=payload,
            )


def _seated(tournament_name: str, number: int) -> list[set[str]]:
    from games.tournaments.models import RoundTable

    return [
        {seat.entrant.player.name for seat in pairing.seats.select_related("entrant__player")}
        for pairing in RoundTable.objects.filter(
            round__tournament__name=tournament_name, round__number=number
        )
    ]


def test_a_twelve_player_night_with_what_a_director_meets(
    new_phone, browser, live_server, tmp_path
):
    director = new_phone()
    sign_up(director, "dora")
    create_club(director, "Circolo Danese")
    _ramino_league("Circolo Danese")
    director.goto("/clubs/circolo-danese/")
    director.get_by_test_id("new-tournament").click()
    director.get_by_label("Name").fill("Ramino night")
    director.get_by_label("Rounds").fill("2")
    director.get_by_label("Minutes a round").fill("40")
    director.get_by_label("Points off for a late player").fill("25")
    director.get_by_role("button", name="Create the tournament").click()
    expect(director.get_by_role("heading", level=1)).to_have_text("Ramino night")
    night_url = director.url

    # Twelve names pasted at once; eleven are at the door (Ugo comes late).
    director.get_by_label("Add players by name, one a line").fill("\n".join(NAMES))
    director.get_by_role("button", name="Add these players").click()
    expect(director.get_by_test_id("entrant")).to_have_count(12)
    for name in NAMES:
        if name != LATE:
            director.get_by_role("button", name=f"Check in {name}").click()
    expect(director.get_by_role("button", name=f"Check in {LATE}")).to_have_count(1)
    # Anna and Bruno never at one table (NIGHT-APART).
    apart = director.get_by_test_id("apart-form")
    apart.get_by_label("Keep").select_option(label=APART[0])
    apart.get_by_label("apart from").select_option(label=APART[1])
    apart.get_by_role("button", name="Keep them apart").click()
    expect(director.get_by_test_id("kept-apart").locator("li")).to_have_count(1)

    # The room's TV: a link made by the director, opened with no session at all.
    director.get_by_test_id("room-make").click()
    room_url = director.get_by_test_id("room-url").input_value()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = tv.new_page()
    screen.goto(room_url)
    expect(screen.get_by_text("The first round has not started yet.")).to_be_visible()

    # Round 1: eleven players at tables of 4, 4 and 3.
    director.get_by_test_id("start-round").click()
    expect(director.get_by_test_id("round-table")).to_have_count(3)
    first_round = _seated("Ramino night", 1)
    assert sorted(len(table) for table in first_round) == [3, 4, 4]
    assert not any(set(APART) <= table for table in first_round)
    expect(screen.get_by_test_id("room-table")).to_have_count(3)

    # A guest joins table 1 by its card's code and calls the director.
    director.get_by_role("link", name="Table cards, with a code to score each table").click()
    card = director.get_by_test_id("table-card").first
    code = card.get_by_test_id("card-code").inner_text()
    guest = new_phone()
    guest.goto("/join/")
    guest.get_by_label("Type the code shown on the scorekeeper's phone").fill(code)
    guest.get_by_role("button", name="Join", exact=True).click()
    guest.get_by_test_id("call-director").click()
    expect(guest.get_by_test_id("director-called")).to_be_visible()
    expect(screen.get_by_test_id("room-call")).to_have_count(1)
    director.goto(night_url)
    expect(director.get_by_test_id("director-call")).to_have_count(1)
    # The director arrives: the call is cleared, and the table's first player, who was
    # late, loses the night's 25 points (RAM-SCORE: Ramino's totals are points won, so
    # the penalty takes 25; NIGHT-ADJUST).
    director.get_by_role("button", name="On my way: clear the call").click()
    expect(director.get_by_test_id("director-call")).to_have_count(0)
    table_one = director.get_by_test_id("round-table").first
    table_one.get_by_test_id("adjust").locator("summary").click()
    table_one.get_by_test_id("late-0").click()
    expect(screen.get_by_test_id("room-call")).to_have_count(0)
    guest.reload()
    expect(guest.get_by_test_id("adjustments")).to_contain_text("-25 points")

    # The guest's phone follows the night: standings, then its players' next tables.
    guest.get_by_test_id("night-page").click()
    expect(guest.get_by_test_id("standing-row")).to_have_count(12)
    expect(guest.get_by_text("Not paired yet", exact=False)).to_be_visible()
    _finish_round("Ramino night", 1)

    # Between rounds: Ugo arrives, Marco leaves.
    director.goto(night_url)
    director.get_by_role("button", name=f"Check in {LATE}").click()
    leaving = director.get_by_test_id("entrant").filter(has_text=LEAVES)
    leaving.get_by_role("button", name="Withdraw").click()
    expect(director.get_by_test_id("entrant").filter(has_text=LEAVES)).to_contain_text("withdrawn")
    director.get_by_test_id("start-round").click()
    second_round = _seated("Ramino night", 2)
    seated = set().union(*second_round)
    assert LATE in seated and LEAVES not in seated and len(seated) == 11
    assert not any(set(APART) <= table for table in second_round)
    guest.reload()
    expect(guest.get_by_test_id("next-table")).not_to_have_count(0)

    # Time is up at round 2's last table: the director locks it from the page, then
    # changes the decision there to a score (NIGHT-LOCK: the later decision replaces it).
    director.goto(night_url)
    decide = director.get_by_test_id("round-table").last.get_by_test_id("decide")
    decide.locator("summary").click()
    decide.get_by_label("Decision").select_option("lock")
    decide.get_by_label("Why?").fill("time")
    decide.get_by_role("button", name="Record the decision").click()
    last = director.get_by_test_id("round-table").last
    expect(last).to_contain_text("decided by the director")
    decide = last.get_by_test_id("decide")
    expect(decide.locator("summary")).to_have_text("Change the decision")
    decide.locator("summary").click()
    decide.get_by_label("Decision").select_option("score")
    decide.get_by_label("Why?").fill("agreed")
    fields = decide.get_by_label("Victory points:", exact=False)
    for index in range(fields.count()):
        fields.nth(index).fill(str(index))
    decide.get_by_role("button", name="Record the decision").click()
    expect(director.get_by_test_id("round-table").last).to_contain_text("decided by the director")
    assert axe_violations(director) == []
    _finish_round("Ramino night", 2)
    director.goto(night_url)
    director.get_by_role("button", name="Close the tournament").click()
    expect(director.get_by_test_id("finished")).to_be_visible()
    director.goto(night_url + "results/")
    decision = director.get_by_test_id("result-decision")
    expect(decision).to_have_count(1)
    expect(decision).to_contain_text("Scored by the director (“agreed”), victory points given:")
    assert axe_violations(director) == []

    # The TV after the night: final standings, no clock, no menus; checked and kept.
    expect(screen.get_by_test_id("room-final")).to_be_visible(timeout=5_000)
    expect(screen.locator("[data-ends-at]")).to_have_count(0)
    for chrome in ("Log in", "Log out", "My clubs"):
        expect(screen.get_by_text(chrome, exact=True)).to_have_count(0)
    expect(screen.get_by_test_id("standing-row")).to_have_count(12)
    assert axe_violations(screen) == []
    screen.screenshot(path=str(tmp_path / "room-after-the-night.png"))
    tv.close()
