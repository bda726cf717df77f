"""Every page a player or a director meets, as a phone shows it (390 x 844, light and dark):
no serious or moderate WCAG 2.2 A/AA finding from axe-core, and every control the thumb
taps at least 44 x 44 CSS px.

The tables, groups, club, league and night are made through the services (what the test is
about is the pages, not how they were reached); the browser holds the keys and the
director's session as a phone that made them would. One browser, one page per colour
scheme, every state visited in turn, and every finding of every page reported at once.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import record_gin_hand

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]

PHONE = {"width": 390, "height": 844}
SMALLEST_TARGET = 44

# A short name for an element in a finding: its tag, classes and first words.
DESCRIBE = """const describe = (el) => {
    const text = (el.getAttribute("aria-label") || el.textContent || el.value || "")
      .trim().replace(/\\s+/g, " ").slice(0, 40);
    const classes = Array.from(el.classList).map((c) => "." + c).join("");
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${classes} "${text}"`;
  };"""

# The controls a thumb taps that are smaller than SMALLEST_TARGET CSS px either way. A
# checkbox or radio button is tapped through its label when the label wraps it. A link in a
# sentence of text is exempt (WCAG 2.5.8's inline exception), but a rule's chip never is: it
# is the evidence in a dispute. Each finding names the element and its size.
SMALL_TARGETS = (
    """(smallest) => {
  """
    + DESCRIBE
    + """
  const TAPPED = "button, select, summary, a[href], input[type=checkbox], input[type=radio]";
  const OTHER_TEXT = "a, button, label, select, summary";
  const inSentence = (link) => {
    if (link.matches("a.rule") || getComputedStyle(link).display !== "inline") return false;
    let block = link.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) {
      block = block.parentElement;
    }
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent.trim() && !node.parentElement.closest(OTHER_TEXT)) return true;
    }
    return false;
  };
  const found = new Map();
  document.querySelectorAll(TAPPED).forEach((el) => {
    if (el.disabled || el.closest("[inert], [aria-hidden=true]")) return;
    let target = el;
    if (el.matches("input")) target = el.closest("label") || el;
    else if (el.matches("a") && inSentence(el)) return;
    const style = getComputedStyle(target);
    if (style.visibility === "hidden" || found.has(target)) return;
    const box = target.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) return;  // not shown (1 px: visually hidden)
    if (box.width < smallest - 0.5 || box.height < smallest - 0.5) {
      found.set(target, `${describe(target)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  });
  return Array.from(found.values());
}"""
)

# Every control's text at 4.5:1 on its face (3:1 when large) and its edge or face at 3:1
# against what is around it (WCAG 1.4.3 and 1.4.11), worked from the computed colours: axe
# leaves out what it cannot decide (a control under the sticky board, a pseudo-element).
CONTROL_CONTRAST = (
    """() => {
  """
    + DESCRIBE
    + """
  const CONTROLS = "button, a.button, label.chip, select, textarea, "
    + "input:not([type=hidden]):not([type=checkbox]):not([type=radio])";
  const parse = (text) => {
    const parts = (text.match(/[\\d.]+/g) || []).map(Number);
    if (parts.length < 3) return null;
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const luminance = (c) => {
    const channel = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // The colour an element is drawn on: its own background over its ancestors', down from
  // the page (white under all, as the canvas is).
  const behind = (element) => {
    const chain = [];
    for (let node = element; node; node = node.parentElement) chain.unshift(node);
    return chain.reduce((color, node) => {
      const background = parse(getComputedStyle(node).backgroundColor);
      return background && background[3] > 0 ? over(background, color) : color;
    }, [255, 255, 255, 1]);
  };
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden" && !el.closest(".visually-hidden");
  const found = [];
  document.querySelectorAll(CONTROLS).forEach((el) => {
    if (el.disabled || !shown(el)) return;
    const face = behind(el);
    const around = behind(el.parentElement);
    const style = getComputedStyle(el);
    const edged = ["Top", "Right", "Bottom", "Left"].some((side) => {
      const color = parse(style[`border${side}Color`]);
      const width = parseFloat(style[`border${side}Width`]);
      return width >= 1 && color && ratio(over(color, around), around) >= 3;
    });
    if (!edged && ratio(face, around) < 3) {
      found.push(`${describe(el)}: edge ${ratio(face, around).toFixed(2)}:1 to what is around it`);
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const holder = node.parentElement;
      if (!node.textContent.trim() || !shown(holder)) continue;
      const text = getComputedStyle(holder);
      const size = parseFloat(text.fontSize);
      const large = size >= 24 || (size >= 18.66 && parseInt(text.fontWeight, 10) >= 700);
      const base = behind(holder);
      const contrast = ratio(over(parse(text.color), base), base);
      if (contrast < (large ? 3 : 4.5)) {
        found.push(`${describe(el)}: text ${contrast.toFixed(2)}:1`);
        break;
      }
    }
  });
  return found;
}"""
)

# Sticky and fixed parts (the board at the top, the move bar at the bottom) lie flat while
# axe looks: it cannot tell the colours of what they cover, and leaves those out.
LAY_FLAT = """() => document.querySelectorAll("body *").forEach((el) => {
  if (["sticky", "fixed"].includes(getComputedStyle(el).position)) {
    el.style.setProperty("position", "static", "important");
  }
})"""


@dataclass(frozen=True)
class State:
    """A page as a phone meets it: its address, and what is done there before checking."""

    name: str
    path: str
    act: Callable | None = None
    language: str = "en"


def _session_cookie(*, user=None, tables=(), groups=()) -> str:
    """Return a session that is signed in as ``user`` (if any) and holds the scorekeeper's
    key of ``tables`` and the member's key of ``groups``, as the phone that made them."""
    from django.test import Client

    from games.tables.access import (
        SESSION_GRANTS,
        SESSION_GROUP_GRANTS,
        Role,
        group_role_digest,
        role_digest,
    )

    client = Client()
    if user is not None:
        client.force_login(user)
    session = client.session
    session[SESSION_GRANTS] = {str(t.id): role_digest(t, Role.SCOREKEEPER) for t in tables}
    session[SESSION_GROUP_GRANTS] = {
        str(g.pk): group_role_digest(g, Role.SCOREKEEPER) for g in groups
    }
    session.save()
    return session.session_key


def _table(variant: str, players, options, events):
    """Make a table through the services and append ``events`` to its log."""
    from games.tables import services

    table = services.table_create(variant=variant, options=options, players=list(players))
    for seq, (event_type, payload) in enumerate(events, start=1):
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            event_type=event_type,
            payload=payload,
        )
    return table


def _world() -> tuple[list[State], str]:
    """Make everything the pages show; return the states to visit and the session."""
    from django.contrib.auth import get_user_model

    from games import demo
    from games.clubs.groups import group_create
    from games.clubs.models import Club, Player
    from games.tables import services as table_services
    from games.tables.access import Role, role_digest
    from games.tables.sharing import result_share
    from games.tournaments import services as night_services
    from scoring import samples

    GIN = samples.played_of("gin")
    KNOCK_RUMMY = samples.played_of("knock_rummy")
    RAMINO = samples.played_of("ramino")
    RUMMY40 = samples.played_of("rummy40")
    from scoring.variants import GAMES

    tables = demo.demo_load()
    finished = next(t for t in tables if t.pk == demo.FINISHED_ID)
    in_play = next(t for t in tables if t.pk == demo.IN_PLAY_ID)
    draw_phase = _table("rummy40", RUMMY40.players, RUMMY40.options, RUMMY40.events[:1])
    play_phase = _table("rummy40", RUMMY40.players, RUMMY40.options, RUMMY40.events[:2])
    gin_play = _table("gin", GIN.players, GIN.options, GIN.events[:4])
    ramino_play = _table("ramino", RAMINO.players, RAMINO.options, RAMINO.events[:11])
    ramino_seats = _table("ramino", RAMINO.players, RAMINO.options, [])
    knock_play = _table(
        "knock_rummy", KNOCK_RUMMY.players, KNOCK_RUMMY.options, KNOCK_RUMMY.events[:2]
    )
    reviewed = _table("rummy40", RUMMY40.players, RUMMY40.options, RUMMY40.events)
    scala_seats = _table("scala40", ["Anna", "Bruno", "Carla"], {}, [])
    scala_play = _table(
        "scala40", ["Anna", "Bruno"], {}, [("hand_started", {"dealer": 0, "upcard": "4C"})]
    )
    shared = result_share(table=finished, digests=[role_digest(finished, Role.SCOREKEEPER)])

    owner = get_user_model().objects.get(username="demo-owner")
    club = Club.objects.get(slug=demo.DEMO_CLUB)
    league = demo.demo_league()
    season = league.seasons.get()
    anna = Player.objects.get(club=club, name="Anna")

    group = group_create(
        name="Sunday at Nonna's",
        players=["Nonna", "Zio", "Lucia"],
        variant="gin",
        options={"preset": "classic", "target": 50},
    )
    group_table = table_services.group_table_create(
        group=group,
        seat_players=list(group.players.all()[:2]),
        variant="gin",
        options={"preset": "classic", "target": 50},
    )

    night = night_services.tournament_create(
        actor=owner,
        club_id=club.pk,
        league_id=league.pk,
        name="Gin night",
        rounds=3,
        round_minutes=40,
    )
    night_services.entrants_register(
        actor=owner,
        tournament_id=night.pk,
        player_ids=list(club.players.values_list("pk", flat=True)),
    )
    night_tables = night_services.round_start(actor=owner, tournament_id=night.pk).tables
    room = night_services.room_link_make(actor=owner, tournament_id=night.pk)

    keys = [*tables, draw_phase, play_phase, gin_play, ramino_play, ramino_seats, knock_play]
    keys += [scala_seats, scala_play, reviewed]
    keys += [group_table, *night_tables]
    session = _session_cookie(user=owner, tables=keys, groups=[group])
    club_path = f"/clubs/{club.slug}/"
    league_path = f"{club_path}l/{league.slug}/"
    night_path = f"{club_path}n/{night.pk}/"

    def new_table(game):
        return lambda page: page.get_by_label(game, exact=True).check()

    def refused_quick_hand(page):
        # GIN-KNOCK: a knock with 14 points of deadwood is more than Classic's 10.
        record_gin_hand(page, "Carla", "Knock", knocker=14, defender=20)
        expect(page.get_by_test_id("form-alert")).to_be_visible()

    def gin_by_cards(page):
        page.locator("#hand-form").get_by_label("Cards", exact=True).check()
        page.locator("#hand-form").get_by_label("Carla", exact=True).check()
        page.locator("[data-one-picker] [data-rank=Q]").click()
        expect(page.get_by_test_id("hand-echo")).to_contain_text("Q♣")

    def referee_answer(page):
        page.get_by_label("Is this meld legal?").check()
        page.get_by_label("Cards", exact=True).fill("7H 8H 9H")
        page.get_by_role("button", name="Ask the referee").click()
        expect(page.get_by_test_id("verdict")).to_be_visible()

    def referee_score(page):
        page.get_by_label("What does this hand score?").check()
        for index, (name, hand) in enumerate(
            [("Anna", "7S 8S 9S KC KH KD 2C 3C 4C 5H"), ("Bruno", "5S 6S 10S JS KS 8C 8H 8D QH 2D")]
        ):
            row = page.locator(f'[data-player="{index}"]')
            row.get_by_label("Name").fill(name)
            row.get_by_label("Cards still in hand").fill(hand)
        page.locator('[data-player="0"]').get_by_label("knocked").check()
        page.get_by_role("button", name="Ask the referee").click()
        expect(page.get_by_test_id("score-seat-1")).to_be_visible()

    def referee_refusal(page):
        page.get_by_label("Is this meld legal?").check()
        page.get_by_label("Cards", exact=True).fill("7H 8H ZZ")
        page.get_by_role("button", name="Ask the referee").click()
        expect(page.locator("#answer [role=alert]")).to_be_visible()

    def join_refusal(page):
        page.get_by_label("Type the code shown on the scorekeeper's phone").fill("AAAA-AAAA")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.get_by_role("alert").first).to_be_visible()

    states = [
        State("home", "/"),
        *[
            State(f"new table: {game.name}", "/", new_table(game.name))
            for key, game in GAMES.items()
            if key != "gin"  # the home page's first offer
        ],
        State("table: a refused quick hand", f"/t/{in_play.id}/", refused_quick_hand),
        State("table: a Gin hand by its cards", f"/t/{in_play.id}/", gin_by_cards),
        State("table: Ramino hand by seats", f"/t/{ramino_seats.id}/"),
        State("table: move by move, to draw", f"/t/{draw_phase.id}/"),
        State("table: move by move, to play", f"/t/{play_phase.id}/"),
        State("table: Gin move by move, to play", f"/t/{gin_play.id}/"),
        State("table: Ramino move by move, melds down", f"/t/{ramino_play.id}/"),
        State("table: Knock Rummy move by move", f"/t/{knock_play.id}/"),
        State("table: Scala 40 hand by seats", f"/t/{scala_seats.id}/"),
        State("table: Scala 40 move by move", f"/t/{scala_play.id}/"),
        State("table: finished", f"/t/{finished.id}/"),
        State("a shared result", f"/r/{shared.token}/"),
        State("hands", f"/t/{finished.id}/history/"),
        State("a hand reviewed, a step in", f"/t/{reviewed.id}/hands/1/review/?step=5"),
        State("correction: amend", f"/t/{in_play.id}/hands/1/amend/"),
        State("correction: void", f"/t/{in_play.id}/hands/1/void/"),
        State("table's rules", f"/t/{in_play.id}/rules/"),
        State("room screen", f"/t/{in_play.id}/tv/"),
        State("invite other phones", f"/t/{in_play.id}/share/"),
        State("referee", "/referee/"),
        State("referee: an answer", "/referee/", referee_answer),
        State("referee: a hand's score", "/referee/", referee_score),
        State("referee: a refusal", "/referee/", referee_refusal),
        # The whole reference once; a game's page in Italian (the longest pages to check).
        State("rules", "/rules/"),
        State("rules of Ramino, in Italian", "/rules/ramino/", language="it"),
        State("help", "/help/"),
        State("help, in Italian", "/help/", language="it"),
        State("table, in Italian", f"/t/{play_phase.id}/", language="it"),
        State("group: new", "/g/new/"),
        State("group", f"/g/{group.pk}/"),
        State("group: players' book", f"/g/{group.pk}/stats/"),
        State("group: a player's page", f"/g/{group.pk}/players/{group.players.first().pk}/"),
        State("group's table", f"/t/{group_table.id}/"),
        State("clubs", "/clubs/"),
        State("club", club_path),
        State("club: players' book", f"{club_path}stats/"),
        State("league: new", f"{club_path}leagues/new/"),
        State("league", league_path),
        State("league standings", f"{league_path}standings/"),
        State("season", f"{league_path}s/{season.pk}/"),
        State("season standings", f"{league_path}standings/?season={season.pk}"),
        State("player's stats", f"{club_path}players/{anna.pk}/"),
        State("night: new", f"{club_path}n/new/"),
        State("night: director", night_path),
        State("night: table cards", f"{night_path}cards/"),
        State("night: a table", f"/t/{night_tables[0].id}/"),
        State("night: a player's page", f"/t/{night_tables[0].id}/night/"),
        State("night: room", f"/room/{room}/"),
        State("night: TV", f"{night_path}tv/"),
        State("join", "/join/"),
        State("join: a refused code", "/join/", join_refusal),
        State("join by link", "/j/"),
        State("keys", "/keys/"),
        State("keys: receive", "/keys/receive/"),
        State("import", "/import/"),
        State("log in", "/accounts/login/"),
        State("sign up", "/accounts/signup/"),
    ]
    return states, session


def _check(page, state: State) -> list[str]:
    """Open ``state`` and return what is wrong with it: targets, controls' contrast, axe."""
    answer = page.goto(state.path)
    if not answer.ok:
        return [f"{state.path} answered {answer.status}"]
    if state.act is not None:
        state.act(page)
    problems = page.evaluate(SMALL_TARGETS, SMALLEST_TARGET)
    problems += page.evaluate(CONTROL_CONTRAST)
    page.evaluate(LAY_FLAT)
    return problems + axe_violations(page, impacts=BLOCKING, best_practice=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_wcag_aa_with_thumb_sized_targets(browser, live_server, scheme):
    states, session = _world()
    context = browser.new_context(
        viewport=PHONE,
        color_scheme=scheme,
        locale="en-US",
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(10_000)
    cookie = {"url": live_server.url, "name": settings.SESSION_COOKIE_NAME, "value": session}
    context.add_cookies([cookie])
    findings = {}
    try:
        page = context.new_page()
        for state in states:
            language = {"url": live_server.url, "name": settings.LANGUAGE_COOKIE_NAME}
            context.add_cookies([{**language, "value": state.language}])
            try:
                problems = _check(page, state)
            except PlaywrightError as exc:  # a page that cannot be reached fails, the rest go on
                problems = [f"not reached: {str(exc).splitlines()[0]}"]
            if problems:
                findings[state.name] = problems
    finally:
        context.close()
    report = "\n".join(
        f"{name}:\n  " + "\n  ".join(problems) for name, problems in findings.items()
    )
    assert not findings, f"{scheme}: {len(findings)} pages fail\n{report}"


# Refusals, where the thumb is ------------------------------------------------------------

# Where a refusal stands once it is shown: inside the screen and not under the sticky board
# (the element at its middle is itself), focused (it holds document.activeElement), and an
# alert, so a screen reader says it.
REFUSAL_SHOWN = """(refusal) => {
  const box = refusal.getBoundingClientRect();
  const x = box.left + Math.min(box.width / 2, 40);
  const y = box.top + Math.min(box.height / 2, 20);
  const there = document.elementFromPoint(x, y);
  return {
    inView: box.top >= 0 && box.bottom <= window.innerHeight,
    uncovered: there !== null && refusal.contains(there),
    focused: refusal.contains(document.activeElement),
    alert: Boolean(refusal.closest("[role=alert]") || refusal.querySelector("[role=alert]")),
  };
}"""


def _night(*, entrants: bool):
    """A club with a Gin league and a night in it; with ``entrants``, four players checked in.
    Return the owner and the night."""
    from games.clubs.models import ClubRole
    from games.tournaments import services as night_services
    from tests.factories import LeagueFactory, PlayerFactory

    league = LeagueFactory(name="Gin del lunedì")
    owner = league.club.memberships.get(role=ClubRole.OWNER).user
    night = night_services.tournament_create(
        actor=owner,
        club_id=league.club_id,
        league_id=league.pk,
        name="Gin night",
        rounds=3,
        round_minutes=40,
    )
    if entrants:
        players = [PlayerFactory(club=league.club, name=name) for name in ("Anna", "Bruno")]
        night_services.entrants_register(
            actor=owner, tournament_id=night.pk, player_ids=[p.pk for p in players]
        )
    return owner, night


def _quick_hand():
    """A Classic Gin table; a knock with 14 points is refused (GIN-KNOCK)."""
    from tests.factories import TableFactory

    table = TableFactory(options={"preset": "classic", "target": 100})

    def refuse(page):
        page.goto(f"/t/{table.id}/")
        record_gin_hand(page, "Anna", "Knock", knocker=14, defender=20)
        return page.get_by_test_id("form-alert")

    return _session_cookie(tables=[table]), refuse


def _move():
    """A Rummy40 hand, Bruno to discard: the four of clubs is the upcard, on the discard pile,
    so he cannot hold it (one deck)."""
    from scoring import samples

    RUMMY40 = samples.played_of("rummy40")

    table = _table("rummy40", RUMMY40.players, RUMMY40.options, RUMMY40.events[:2])

    def refuse(page):
        page.goto(f"/t/{table.id}/")
        form = page.get_by_test_id("move-form")
        form.locator("input[name=picked][value='4C']").check()
        form.get_by_test_id("move-discard").click()
        return form.get_by_role("alert")

    return _session_cookie(tables=[table]), refuse


def _correction():
    """A Classic Gin table's first hand amended to a knock with 14 points (GIN-KNOCK)."""
    from games.tables import services
    from tests.factories import TableFactory

    table = TableFactory(options={"preset": "classic", "target": 100})
    hand = {"mode": "quick", "knocker": 0, "ending": "knock", "knocker_count": 4}
    services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=1,
        event_type="hand_recorded",
        payload={**hand, "defender_count": 20},
    )

    def refuse(page):
        page.goto(f"/t/{table.id}/hands/1/amend/")
        page.get_by_label("Knocker's deadwood").fill("14")
        page.get_by_label("Why?").fill("recounted")
        page.get_by_role("button", name="Save the correction").click()
        return page.get_by_test_id("form-alert")

    return _session_cookie(tables=[table]), refuse


def _referee():
    """A meld with a card that is no card."""

    def refuse(page):
        page.goto("/referee/")
        page.get_by_label("Is this meld legal?").check()
        page.get_by_label("Cards", exact=True).fill("7H 8H ZZ")
        page.get_by_role("button", name="Ask the referee").click()
        return page.locator("#answer [role=alert]")

    return _session_cookie(), refuse


def _club():
    """A guest player added twice to the club's roster (names are unique in a club)."""
    from games.clubs.models import ClubRole
    from tests.factories import ClubFactory, PlayerFactory

    club = ClubFactory(name="Circolo Danese")
    PlayerFactory(club=club, name="Anna")
    owner = club.memberships.get(role=ClubRole.OWNER).user

    def refuse(page):
        page.goto(f"/clubs/{club.slug}/")
        players = page.locator("#players")
        players.get_by_label("Guest players' names, one a line").fill("anna")
        players.get_by_role("button", name="Add the players").click()
        return page.locator("#players").get_by_role("alert")

    return _session_cookie(user=owner), refuse


def _night_round():
    """A night's first round started with nobody checked in."""
    owner, night = _night(entrants=False)

    def refuse(page):
        page.goto(f"/clubs/{night.club.slug}/n/{night.pk}/")
        page.get_by_test_id("start-round").click()
        return page.get_by_role("alert").first

    return _session_cookie(user=owner), refuse


def _night_new():
    """A new night of no rounds."""
    owner, night = _night(entrants=False)

    def refuse(page):
        page.goto(f"/clubs/{night.club.slug}/n/new/")
        page.get_by_label("Name").fill("Another night")
        page.get_by_label("Rounds").fill("0")
        page.get_by_role("button", name="Create the tournament").click()
        return page.get_by_role("alert").first

    return _session_cookie(user=owner), refuse


def _join():
    """A table code that opens nothing."""

    def refuse(page):
        page.goto("/join/")
        page.get_by_label("Type the code shown on the scorekeeper's phone").fill("AAAA-AAAA")
        page.get_by_role("button", name="Join", exact=True).click()
        return page.get_by_test_id("code-error")

    return _session_cookie(), refuse


def _sign_up():
    """An account whose two passwords differ."""

    def refuse(page):
        page.goto("/accounts/signup/")
        page.get_by_label("Username", exact=True).fill("mara")
        page.get_by_label("Password", exact=True).fill("seven-Spades-on-the-stock")
        page.get_by_label("Password confirmation", exact=True).fill("eight-Spades-on-the-stock")
        page.get_by_role("button", name="Create the account").click()
        return page.get_by_role("alert").first

    return _session_cookie(), refuse


REFUSED_FORMS = {
    "quick hand": _quick_hand,
    "move": _move,
    "correction": _correction,
    "referee": _referee,
    "club": _club,
    "night: a round": _night_round,
    "night: a new night": _night_new,
    "joining": _join,
    "account": _sign_up,
}


@pytest.mark.parametrize("form", REFUSED_FORMS)
def test_a_refusal_is_shown_focused_and_announced_where_the_thumb_is(browser, live_server, form):
    session, refuse = REFUSED_FORMS[form]()
    context = browser.new_context(
        viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    context.add_cookies(
        [{"url": live_server.url, "name": settings.SESSION_COOKIE_NAME, "value": session}]
    )
    try:
        page = context.new_page()
        refusal = refuse(page)
        expect(refusal).to_be_visible()
        # Focus follows the answer's swap or the page's load: wait for it, then look.
        page.wait_for_function(
            "(el) => el.contains(document.activeElement)", arg=refusal.element_handle()
        )
        shown = page.evaluate(REFUSAL_SHOWN, refusal.element_handle())
        assert shown == {"inView": True, "uncovered": True, "focused": True, "alert": True}
    finally:
        context.close()
