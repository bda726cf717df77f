"""A whole tournament night in real browsers: the director sets it up and runs three Swiss
rounds of Gin; at each table a phone joins by the table card's code, records the hand and
both players confirm; the room's screen follows; the standings break a tie by Buchholz.

Expected standings are worked out here from what the pages showed (who sat where, who won),
by the night's rules: 3 victory points a win, 0 a loss; Buchholz is the sum of one's
opponents' victory points.
"""

import itertools
import re
from collections import defaultdict

import pytest
from playwright.sync_api import expect

from tests.e2e.test_league import add_guest_player, create_club, create_gin_league, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo")
ROUNDS = 3


def _set_up_the_night(director) -> str:
    sign_up(director, "dora")
    create_club(director, "Circolo Danese")
    for name in NAMES:
        add_guest_player(director, name)
    # Single-hand Gin matches: one gin ends each table.
    create_gin_league(
        director, "Gin del giovedì", target="1", tiebreakers=["Head to head", "Points difference"]
    )
    director.goto("/clubs/circolo-danese/")
    director.get_by_test_id("new-tournament").click()
    director.get_by_label("Name").fill("Gin night")
    director.get_by_label("Rounds").fill(str(ROUNDS))
    director.get_by_label("Minutes a round").fill("40")
    director.get_by_role("button", name="Create the tournament").click()
    expect(director.get_by_role("heading", level=1)).to_have_text("Gin night")
    entrants = director.locator("#entrants")
    for name in NAMES:
        entrants.get_by_label(name, exact=True).check()
    entrants.get_by_role("button", name="Add them, checked in").click()
    expect(director.get_by_test_id("entrant")).to_have_count(len(NAMES))
    return director.url


def _play_the_table(phone, code: str, winner: str, loser: str, defender: int) -> None:
    """Join by the card's code, record the winner's gin, and have both players confirm."""
    phone.goto("/join/")
    phone.get_by_label("Type the code shown on the scorekeeper's phone").fill(code)
    phone.get_by_role("button", name="Join", exact=True).click()
    form = phone.locator("#hand-form")
    form.get_by_label(winner, exact=True).check()
    form.get_by_label("Gin", exact=True).check()
    form.get_by_label("Defender's deadwood, after lay-offs").fill(str(defender))
    form.get_by_role("button", name="Record hand").click()
    expect(phone.get_by_test_id("total-0")).to_have_text(str(25 + defender))  # GIN-SCORE-GIN
    for name in (winner, loser):
        phone.get_by_role("button", name=f"{name}: I agree").click()
    expect(phone.get_by_test_id("confirmed")).to_be_visible()


def test_a_whole_swiss_night_of_gin(new_phone):
    director = new_phone()
    night_url = _set_up_the_night(director)
    board = director.context.new_page()
    board.goto(night_url + "tv/")
    vp, met = defaultdict(int), defaultdict(list)
    for round_number in range(1, ROUNDS + 1):
        director.goto(night_url)
        director.get_by_test_id("start-round").click()
        expect(director.get_by_test_id("clock")).to_contain_text(f"Round {round_number} of 3")
        expect(board.get_by_test_id("clock")).to_contain_text(f"Round {round_number} of 3")
        director.get_by_role("link", name="Table cards, with a code to score each table").click()
        cards = director.get_by_test_id("table-card")
        expect(cards).to_have_count(4)
        seated = set()
        for index in range(4):
            card = cards.nth(index)
            winner, loser = card.locator("p").first.inner_text().split(" – ")
            assert not {winner, loser} & seated
            seated |= {winner, loser}
            code = card.get_by_test_id("card-code").inner_text()
            # The first seat goes gin; the loser's deadwood differs at every table.
            _play_the_table(new_phone(), code, winner, loser, 10 + index + 5 * round_number)
            vp[winner] += 3
            met[winner].append(loser)
            met[loser].append(winner)
        assert seated == set(NAMES)
        # The room's screen shows the whole round done within its 2-second poll.
        done = board.locator('[data-testid="round-table"][data-status="done"]')
        expect(done).to_have_count(4)

    rows = board.get_by_test_id("standing-row")
    expect(rows).to_have_count(len(NAMES))
    shown = []
    for index in range(len(NAMES)):
        row = rows.nth(index)
        placed = row.get_by_test_id("placed-by")
        shown.append(
            (
                row.get_by_test_id("name").inner_text(),
                int(row.get_by_test_id("vp").inner_text()),
                int(row.get_by_test_id("buchholz").inner_text()),
                placed.inner_text() if placed.count() else "",
            )
        )
    buchholz = {name: sum(vp[other] for other in met[name]) for name in NAMES}
    for name, victory_points, their_buchholz, _placed_by in shown:
        assert (victory_points, their_buchholz) == (vp[name], buchholz[name]), name
    # Best first: by victory points, and where those are equal, by Buchholz.
    keys = [(victory_points, b) for _name, victory_points, b, _placed in shown]
    assert [k[0] for k in keys] == sorted((k[0] for k in keys), reverse=True)
    for (above, above_b), (below, below_b) in itertools.pairwise(keys):
        assert above > below or above_b >= below_b
    # Three Swiss rounds of eight leave three players on 6 points: the one who lost to the
    # winner met stronger opposition than the two who won their last round, so Buchholz
    # separates them, and the table says so.
    assert sorted(vp.values()) == [0, 3, 3, 3, 6, 6, 6, 9]
    assert any(placed == "Buchholz" for *_rest, placed in shown)

    director.goto(night_url)
    director.get_by_role("button", name="Close the tournament").click()
    expect(director.get_by_test_id("finished")).to_have_text("The tournament is over.")
    expect(director.get_by_test_id("start-round")).to_have_count(0)
    assert re.search(r"/clubs/[\w-]+/n/\d+/$", director.url)
