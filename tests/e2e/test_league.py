"""A club's league from sign-up to public standings, through the pages on phone-sized screens.

One organiser signs up, creates a club with three guest players and a Gin league, opens a
season and keeps score at two league tables; the season's standings follow the finished
matches. Once the league is made public, a signed-out phone reads the same standings and is
offered nothing to record or change.
"""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import record_gin_hand

# The live server runs the recompute tasks in-process (eager), whatever broker CI configures.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]

PASSWORD = "seven-Spades-on-the-stock"

# The columns of a Gin league's standings, in the order _standings.html shows them.
COLUMNS = (
    "#",
    "Player",
    "P",
    "W",
    "L",
    "Diff.",
    "Rating",
    "Hands won",
    "Points for",
    "Points against",
    "Average per match",
    "Knocks",
    "Gins",
    "Big gins",
    "Undercuts",
    "Placed by",
)
# The openskill rating is worked out by a library, not by hand here: any one-decimal number.
ANY_RATING = re.compile(r"^-?\d+\.\d$")


# The organiser's pages ---------------------------------------------------------------------


def sign_up(page, username: str) -> None:
    """Create an account on the sign-up page; a new account lands on its (empty) club list."""
    page.goto("/accounts/signup/")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    expect(page).to_have_url(re.compile(r"/clubs/$"))
    expect(page.get_by_role("heading", name="My clubs")).to_be_visible()


def create_club(page, name: str) -> None:
    """Create a club from the club list; its creator lands on the club's page as owner."""
    page.get_by_label("Club name").fill(name)
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.get_by_text("You own this club.")).to_be_visible()


def add_guest_player(page, name: str) -> None:
    """Add a guest player to the club's roster; the roster is redrawn in place (htmx)."""
    players = page.locator("#players")
    players.get_by_label("Guest players' names, one a line").fill(name)
    players.get_by_role("button", name="Add the players").click()
    # Wait for the redrawn roster before adding the next one: the form is swapped with it.
    expect(players.locator(".roster li").filter(has_text=name)).to_be_visible()


def create_gin_league(page, name: str, *, target: str, tiebreakers: list[str]) -> None:
    """Create a Classic Gin league from the club page, ties broken by ``tiebreakers``."""
    page.get_by_role("link", name="New league").click()
    form = page.locator("#new-league")
    form.get_by_label("League name").fill(name)
    form.get_by_label("Gin Rummy", exact=True).check()
    form.get_by_label("Classic", exact=True).check()
    form.get_by_label("Play to").select_option(target)
    for n, tiebreaker in enumerate(tiebreakers, start=1):
        form.get_by_label(f"Tiebreaker {n}").select_option(label=tiebreaker)
    form.get_by_role("button", name="Create the league").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.get_by_text("Gin Rummy, 2 players a table")).to_be_visible()


def open_season(page, name: str) -> str:
    """Open a season from the league page, running from today for a month; return its URL."""
    today = datetime.date.today()
    page.get_by_label("Season name").fill(name)
    page.get_by_label("Starts on").fill(today.isoformat())
    page.get_by_label("Ends on").fill((today + datetime.timedelta(days=30)).isoformat())
    page.get_by_role("button", name="Open the season").click()
    expect(page).to_have_url(re.compile(r"/s/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    return page.url


def start_season_table(page, seats: list[str]) -> None:
    """Start a league table from the season page, seating the club's players by name."""
    for n, name in enumerate(seats, start=1):
        page.get_by_label(f"Seat {n}").select_option(label=name)
    page.get_by_role("button", name="Start the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))
    for seat, name in enumerate(seats):
        expect(page.locator(f'#board [data-seat="{seat}"] .name')).to_have_text(name)


def expect_totals(page, *totals: int) -> None:
    """Expect the board's totals, seat by seat. The hand form comes back with the board:
    waiting for them is what makes the next hand safe to enter."""
    for seat, total in enumerate(totals):
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(total))


# The standings ----------------------------------------------------------------------------


def _cells(row: list) -> list:
    """Keep a pattern as it is and turn every other expected cell into its text."""
    return [cell if isinstance(cell, re.Pattern) else str(cell) for cell in row]


def expect_standings(page, rows: list[list], *, matches: int) -> None:
    """Expect the standings block to list ``rows`` in order, every cell as in COLUMNS.

    A row's rating cell may be ANY_RATING. The block polls itself while a recompute is due,
    so this waits for the recompute that a match's last hand queues.
    """
    block = page.get_by_test_id("standings")
    # The key columns, in view on a phone; the whole table one tap ("All columns") away.
    key = block.get_by_test_id("standings-key")
    expect(key.locator("tbody tr th")).to_have_text([row[1] for row in rows])
    expect(key.locator("tbody tr").first.locator("td, th")).to_have_text(_cells(rows[0])[:6])
    standings = block.locator("table.standings")
    expect(standings.locator("thead th")).to_have_text(list(COLUMNS))
    lines = standings.locator("tbody tr")
    expect(lines.locator("th")).to_have_text([row[1] for row in rows])
    for line, row in zip(lines.all(), rows, strict=True):
        expect(line.locator("td, th")).to_have_text(_cells(row))
    counted = "1 match counted" if matches == 1 else f"{matches} matches counted"
    expect(block.get_by_test_id("standings-how")).to_contain_text(counted)
    expect(block.get_by_test_id("standings-status")).to_contain_text(
        "Worked out from the tables' logs"
    )


def expect_read_only(page) -> None:
    """Expect a page that offers an outsider nothing to record or change: no form that
    posts in the page's content (the header's language switch is no change to the league),
    no link to a table, no button to start one."""
    main = page.locator("main")
    expect(main.locator("form[method=post]")).to_have_count(0)
    expect(main.locator('a[href^="/t/"]')).to_have_count(0)
    expect(main.get_by_role("button", name="Start the table")).to_have_count(0)
    expect(main.get_by_role("button", name="Make it public")).to_have_count(0)


# The matches, worked out by hand from docs/rules.md (Classic, to 50) -------------------------
#
# Table 1, Anna – Bruno:
#   1. Anna knocks with 3, Bruno holds 20: GIN-SCORE-KNOCK, Anna 20 - 3 = 17.
#   2. Bruno goes gin, Anna holds 10: GIN-SCORE-GIN, Bruno 25 + 10 = 35.
#   3. Anna goes gin, Bruno holds 15: Anna 17 + 25 + 15 = 57 >= 50, Anna wins (GIN-MATCH).
# Table 2, Carla – Bruno:
#   1. Bruno knocks with 5, Carla holds 9: Bruno 9 - 5 = 4.
#   2. Carla goes gin, Bruno holds 30: Carla 25 + 30 = 55 >= 50, Carla wins.
#
# Anna and Carla both have 1 won, 0 lost. They never met, so head to head leaves them tied
# and the points difference places them: Carla 55 - 4 = +51 above Anna 57 - 35 = +22.
# Bruno, 0 won and 2 lost, is last: 35 + 4 = 39 for, 57 + 55 = 112 against, -73.

AFTER_TABLE_1 = [
    # rank, player, P, W, L, diff, rating, hands won, for, against, average, knocks, gins,
    # big gins, undercuts, placed by
    [1, "Anna", 1, 1, 0, 22, ANY_RATING, 2, 57, 35, "57.0", 1, 1, 0, 0, ""],
    [2, "Bruno", 1, 0, 1, -22, ANY_RATING, 1, 35, 57, "35.0", 0, 1, 0, 0, ""],
]
AFTER_TABLE_2 = [
    [1, "Carla", 1, 1, 0, 51, ANY_RATING, 1, 55, 4, "55.0", 0, 1, 0, 0, "Points difference"],
    [2, "Anna", 1, 1, 0, 22, ANY_RATING, 2, 57, 35, "57.0", 1, 1, 0, 0, ""],
    [3, "Bruno", 2, 0, 2, -73, ANY_RATING, 2, 39, 112, "19.5", 1, 1, 0, 0, ""],
]


class TestLeague:
    def test_a_club_league_two_matches_the_standings_and_the_public_page(self, new_phone):
        page = new_phone()
        sign_up(page, "marta")
        create_club(page, "Circolo del Tre")
        for name in ("Anna", "Bruno", "Carla"):
            add_guest_player(page, name)
        create_gin_league(
            page,
            "Gin del giovedì",
            target="50",
            tiebreakers=["Head to head", "Points difference"],
        )
        league_url = page.url
        standings_link = page.locator("#seasons").get_by_role("link", name="Standings")
        # No season yet: nothing to stand in, so no link to the standings either.
        expect(standings_link).to_have_count(0)
        season_url = open_season(page, "Autumn")
        expect(page.get_by_test_id("standings")).to_contain_text("No finished matches yet")

        # Table 1: Anna – Bruno, to Anna's 57.
        start_season_table(page, ["Anna", "Bruno"])
        record_gin_hand(page, "Anna", "Knock", knocker=3, defender=20)
        expect_totals(page, 17, 0)
        record_gin_hand(page, "Bruno", "Gin", defender=10)
        expect_totals(page, 17, 35)
        record_gin_hand(page, "Anna", "Gin", defender=15)
        expect_totals(page, 57, 35)
        expect(page.get_by_test_id("winner")).to_contain_text("Anna wins the match!")
        expect(page.locator("#hand-form")).to_have_count(0)

        # Back to the season by the table page's link to it.
        page.get_by_test_id("season-link").get_by_role("link", name="Autumn").click()
        expect(page).to_have_url(season_url)
        expect_standings(page, AFTER_TABLE_1, matches=1)
        tables = page.locator("#tables li")
        expect(tables).to_have_count(1)
        expect(tables.first).to_contain_text("Anna – Bruno")

        # Table 2: Carla – Bruno, to Carla's 55.
        start_season_table(page, ["Carla", "Bruno"])
        record_gin_hand(page, "Bruno", "Knock", knocker=5, defender=9)
        expect_totals(page, 0, 4)
        record_gin_hand(page, "Carla", "Gin", defender=30)
        expect_totals(page, 55, 4)
        expect(page.get_by_test_id("winner")).to_contain_text("Carla wins the match!")

        page.get_by_test_id("season-link").get_by_role("link", name="Autumn").click()
        expect_standings(page, AFTER_TABLE_2, matches=2)
        expect(page.get_by_test_id("standings-how")).to_contain_text(
            "ties broken by Head to head, Points difference"
        )
        expect(page.locator("#tables li")).to_have_count(2)

        # The league page links to its standings; a signed-out phone is sent to sign in
        # while the league is private to the club.
        page.goto(league_url)
        standings_url = standings_link.get_attribute("href")
        assert standings_url is not None
        assert re.fullmatch(r"/clubs/[\w-]+/l/[\w-]+/standings/", standings_url)
        visitor = new_phone()
        visitor.goto(standings_url)
        expect(visitor).to_have_url(re.compile(r"/accounts/login/\?next="))
        expect(visitor.get_by_role("heading", name="Log in")).to_be_visible()

        page.get_by_role("button", name="Make it public").click()
        expect(page.get_by_text("public: anyone can see it")).to_be_visible()
        expect(page.get_by_role("button", name="Make it private to the club")).to_be_visible()

        # Public now: the same standings, without signing in, and nothing to change.
        visitor.goto(standings_url)
        expect(visitor).to_have_url(re.compile(re.escape(standings_url) + "$"))
        expect(visitor.get_by_role("heading", level=1)).to_have_text("Gin del giovedì")
        expect(visitor.get_by_text("Gin Rummy · Autumn")).to_be_visible()
        expect_standings(visitor, AFTER_TABLE_2, matches=2)
        # An outsider gets the players' names, not links to their pages.
        expect(visitor.get_by_test_id("standings").locator("tbody th a")).to_have_count(0)
        expect(visitor.get_by_role("link", name="Log in")).to_be_visible()
        expect_read_only(visitor)

        # The season's own page, reached from the public one, is read-only too: its tables
        # are listed by their players, with no link into them.
        visitor.get_by_role("link", name="Gin del giovedì").click()
        visitor.get_by_role("link", name="Autumn").click()
        expect(visitor.get_by_role("heading", level=1)).to_have_text("Autumn")
        expect(visitor.locator("#tables li")).to_have_count(2)
        expect_standings(visitor, AFTER_TABLE_2, matches=2)
        expect_read_only(visitor)
