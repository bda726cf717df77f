"""A small Burraco pairs night on a phone, in Italian: the director creates it (the VP
table's rows on the form), adds four pairs, starts round 1 and enters both tables' hands
on their pages, one sheet a pair, and each player confirms; the night page, the room's TV
and the results page name the pairs and their victory points (PV), axe-clean in light and
dark."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAIRS = [("Anna", "Carla"), ("Bruno", "Dario"), ("Elena", "Franco"), ("Gina", "Ivo")]


def _club() -> tuple[str, str]:
    """Make the club (its owner Dora), its Burraco league and its eight players; return
    the club's slug and a session key signed in as Dora."""
    from django.test import Client

    from tests.factories import ClubFactory, LeagueFactory, PlayerFactory, UserFactory

    dora = UserFactory(username="dora")
    club = ClubFactory(owner=dora, name="Circolo del Burraco")
    LeagueFactory(
        club=club,
        actor=dora,
        name="Burraco del martedì",
        variant="burraco",
        players=4,
        options={"target": 2005, "hands": 0},
    )
    for pair in PAIRS:
        for name in pair:
            PlayerFactory(club=club, actor=dora, name=name)
    client = Client()
    client.force_login(dora)
    return club.slug, client.session.session_key


def _tables() -> list[str]:
    from games.tournaments.models import RoundTable

    tables = RoundTable.objects.filter(round__number=1).order_by("number")
    return [str(pairing.table_id) for pairing in tables]


def _sheet(page, ns: int, ew: int) -> None:
    """Enter a hand nobody closed: each pair's melded points, its pozzetto taken, nothing
    left in hand (BUR-SCORE: the hand scores what it melded)."""
    form = page.locator("#hand-form")
    for side, melded in enumerate((ns, ew)):
        form.locator(f"[name=s{side}_melded]").fill(str(melded))
        form.locator(f"[name=s{side}_pozzetto]").set_checked(True)
        form.locator(f"[name=s{side}_in_hand]").fill("0")
    form.locator("input[name=closed][value='']").check()
    form.locator("button[type=submit].primary").click()


def _play(page, table_id: str, hands: list[tuple[int, int]]) -> None:
    """Enter the table's hands on its page, then each of its four players confirms."""
    page.goto(f"/t/{table_id}/")
    ns_total = 0
    for ns, ew in hands:
        _sheet(page, ns, ew)
        ns_total += ns
        expect(page.get_by_test_id("total-0")).to_have_text(str(ns_total))
    for seat in range(4):
        page.get_by_test_id(f"confirm-{seat}").click()
    expect(page.get_by_test_id("confirmed")).to_be_visible()


def _clean_in_light_and_dark(page) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page) == [], scheme
    page.emulate_media(color_scheme="light")


def test_a_four_pair_night_in_italian_on_a_phone(browser, live_server):
    slug, session = _club()
    context = browser.new_context(
        viewport=PHONE, locale="it-IT", is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    cookie = {"url": live_server.url, "name": settings.SESSION_COOKIE_NAME, "value": session}
    context.add_cookies([cookie])
    director = context.new_page()

    # The form: the federation's 3-hand table by default, its rows ready to edit.
    director.goto(f"/clubs/{slug}/n/new/pairs/")
    expect(director.get_by_test_id("vp-row")).to_have_count(13)
    expect(director.get_by_label("Fascia 2: PV al vincitore")).to_have_value("11")
    _clean_in_light_and_dark(director)
    director.get_by_label("Nome", exact=True).fill("Serata a coppie")
    director.get_by_label("Programma dei turni").fill("2 Mitchell")
    director.get_by_role("button", name="Crea la serata a coppie").click()
    expect(director.get_by_role("heading", level=1)).to_have_text("Serata a coppie")
    night_url = director.url

    form = director.get_by_test_id("pair-form")
    for number, (first, second) in enumerate(PAIRS, start=1):
        form.get_by_label("Primo giocatore").select_option(label=first)
        form.get_by_label("Compagno").select_option(label=second)
        form.get_by_role("button", name="Aggiungi la coppia, presente").click()
        expect(director.get_by_test_id("entrant")).to_have_count(number)
    expect(director.get_by_test_id("entrant").first).to_contain_text("Coppia 1: Anna & Carla")

    # The room's TV, opened with no session, in Italian too.
    director.get_by_test_id("room-make").click()
    room_url = director.get_by_test_id("room-url").input_value()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="it-IT")
    screen = tv.new_page()
    screen.goto(room_url)

    # Round 1, Mitchell: Anna & Carla (NS) meet Bruno & Dario at table 1, Elena & Franco
    # (NS) Gina & Ivo at table 2 (BURRACO-MITCHELL).
    director.get_by_test_id("start-round").click()
    tables = director.get_by_test_id("round-table")
    expect(tables).to_have_count(2)
    expect(tables.first).to_contain_text("Nord-Sud")
    expect(screen.get_by_test_id("room-table")).to_have_count(2)
    expect(screen.get_by_test_id("room-tables")).to_contain_text("Gina & Ivo")

    # Table 1: 200 to 100 three times, 600 to 300, NS by 300: 13–7 (band 255–350).
    # Table 2: 100 to 135, 135, 130, 300 to 400, EW by 100: 11–9 to EW (band 55–150).
    # The printed cards: a sheet a table, the night's VP table under it, no app chrome.
    director.get_by_role(
        "link", name="Cartellini dei tavoli, con un codice per segnare i punti di ciascuno"
    ).click()
    director.emulate_media(media="print")
    expect(director.get_by_test_id("score-sheet")).to_have_count(2)
    expect(director.get_by_test_id("card-vp-table").first).to_be_visible()
    expect(director.get_by_test_id("card-vp-table").first).to_contain_text("255–350")
    expect(director.locator("header.top")).to_be_hidden()
    director.emulate_media(media="screen")
    _clean_in_light_and_dark(director)

    first, second = _tables()
    _play(director, first, [(200, 100)] * 3)
    _play(director, second, [(100, 135), (100, 135), (100, 130)])

    director.goto(night_url)
    rows = director.locator("tr:has([data-testid=vp])")
    standings = {
        rows.nth(i).get_by_test_id("name").inner_text(): rows.nth(i)
        .get_by_test_id("vp")
        .inner_text()
        for i in range(rows.count())
    }
    assert standings == {
        "Anna & Carla": "13",
        "Gina & Ivo": "11",
        "Elena & Franco": "9",
        "Bruno & Dario": "7",
    }
    expect(tables.first).to_contain_text("Anna & Carla 13 PV, Bruno & Dario 7 PV")
    _clean_in_light_and_dark(director)

    expect(screen.get_by_test_id("room-board")).to_contain_text("Anna & Carla")
    expect(screen.get_by_test_id("room-seat").first).to_contain_text("Anna & Carla")
    _clean_in_light_and_dark(screen)

    director.goto(night_url + "results/")
    expect(director.get_by_test_id("result-table").first).to_contain_text(
        "Anna & Carla 600 – Bruno & Dario 300"
    )
    expect(director.get_by_test_id("result-vp").first).to_have_text(
        "Anna & Carla 13 PV, Bruno & Dario 7 PV"
    )
    expect(director.get_by_test_id("name").first).to_have_text("Anna & Carla")
    _clean_in_light_and_dark(director)
    tv.close()
    context.close()
