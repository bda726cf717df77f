"""Every form of the pages, every field, with bad values: never a 500, nothing stored.

Each form is read off its rendered page (its inputs, their values, the first choice of each
select and radio group), so the base submission is the one a phone would send untouched;
then each field in turn gets each bad value. A refusal (4xx) must leave every table the
app writes to as it was.

A form the page sends through htmx (``hx-post``) is spoiled as a phone with scripts sends
it, with the HX-Request header, and is answered with its part of the page; one bad value of
each field goes as a phone without scripts sends it, and is answered with the whole page.
Which value goes plain turns from field to field, so every value reaches both answers
(the whole page costs three times the part: sending every value both ways would triple the
run for the same checks of the values).
"""

import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client

from games.models import (
    Club,
    Event,
    Group,
    Invite,
    JoinToken,
    KeyClaim,
    KeyTransfer,
    League,
    Membership,
    Player,
    Round,
    RoundTable,
    Season,
    SharedResult,
    Table,
    Tournament,
)
from scoring.variants import GAMES
from tests.games.clubs_setup import club_world
from tests.hypothesis_profiles import examples

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery"), pytest.mark.slow]

BAD_VALUES = [
    "",
    " ",
    "-1",
    "0",
    "99999999999999999999",
    "1e309",
    "NaN",
    "ä漢字🎴",
    "\x00",
    "x" * 10_000,
    "<script>alert(1)</script>",
]
HTMX = {"HX-Request": "true"}
# Forms that end what the others need (sign-out) or only switch the language.
SKIPPED_ACTIONS = ("/accounts/logout/", "/i18n/setlang/")
STORED = (
    Club,
    Event,
    Invite,
    JoinToken,
    League,
    Membership,
    Player,
    Season,
    Table,
    Tournament,
    Round,
    RoundTable,
    Group,
    KeyClaim,
    KeyTransfer,
    SharedResult,
)


class _Forms(HTMLParser):
    """Collect each POST form's action, fields (name -> value a phone would send) and whether
    the page sends it through htmx."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, dict[str, str], bool]] = []
        self._fields: dict[str, str] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._fields = {}
            self.forms.append((attrs.get("action") or "", self._fields, "hx-post" in attrs))
        if self._fields is None or not attrs.get("name"):
            if tag == "option" and self._select and self._select not in self._fields:
                self._fields[self._select] = attrs.get("value", "")
            if tag == "option" and self._select and "selected" in attrs:
                self._fields[self._select] = attrs.get("value", "")
            return
        name = attrs["name"]
        if tag == "input":
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs or (kind == "radio" and name not in self._fields):
                    self._fields[name] = attrs.get("value", "on")
            elif kind not in ("submit", "button"):
                self._fields[name] = attrs.get("value", "")
        elif tag == "select":
            self._select = name
        elif tag == "textarea":
            self._textarea = name
            self._fields[name] = ""
        elif tag == "button" and attrs.get("value"):
            self._fields.setdefault(name, attrs["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self._fields = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._fields is not None and self._textarea:
            self._fields[self._textarea] += data


def _forms(client: Client, path: str) -> list[tuple[str, dict[str, str], bool]]:
    page = client.get(path)
    assert page.status_code == 200, path
    parser = _Forms()
    parser.feed(page.content.decode())
    forms = []
    for action, fields, htmx in parser.forms:
        action = action or path
        if not action.startswith(SKIPPED_ACTIONS):
            forms.append((action, fields, htmx))
    return forms


def _counts() -> dict[str, int]:
    """Every stored table's row count, in one query (it runs before each of ~2,000 posts)."""
    counts = ", ".join(f'(SELECT COUNT(*) FROM "{model._meta.db_table}")' for model in STORED)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        row = cursor.fetchone()
    return {model.__name__: count for model, count in zip(STORED, row, strict=True)}


def _at_least(full_run: int) -> int:
    """The posts a test that sends more than ``full_run`` in the full run sends now."""
    return full_run * examples(len(BAD_VALUES)) // len(BAD_VALUES)


def _sent_plain(field_number: int, value_number: int) -> bool:
    """Tell whether a form sent through htmx sends this field's value as a page without
    scripts does: one value of each field, the next value for the next field."""
    return value_number == field_number % examples(len(BAD_VALUES))


def _bad_values(field_number: int) -> list[str]:
    """The bad values a form's field number ``field_number`` gets: all of them in the full
    run; in a quick one (Hypothesis's "fast" profile) a few, the next field the next few,
    so that a form's fields still try every value between them."""
    each = examples(len(BAD_VALUES))
    first = field_number * each
    return [BAD_VALUES[(first + n) % len(BAD_VALUES)] for n in range(each)]


def _choosing_its_game(fields: dict[str, str], name: str) -> dict[str, str]:
    """Return the form's fields with, for a game's own option (``<game>__<option>``), that
    game chosen: a form reads only the chosen game's options, so a bad value in another
    game's would never reach a check."""
    game, _sep, _option = name.partition("__")
    if "variant" in fields and _sep and game in GAMES:
        return {**fields, "variant": game}
    return fields


def _fuzz(client: Client, path: str, *, reachable: bool = True, **typed) -> int:
    """Send every form of ``path`` with each field spoiled in turn; return how many posts.

    ``typed`` fills fields a person would type in (names, seats) where the page leaves them
    empty, so the untouched submission is a valid one.
    """
    sent, accepted = 0, 0
    for action, fields, htmx in _forms(client, path):
        fields.update({k: v for k, v in typed.items() if k in fields and not fields[k].strip()})
        accepted += client.post(action, fields).status_code < 400
        for number, name in enumerate(n for n in fields if n != "csrfmiddlewaretoken"):
            spoiled = _choosing_its_game(fields, name)
            for value_number, bad in enumerate(_bad_values(number)):
                headers = {} if not htmx or _sent_plain(number, value_number) else HTMX
                before = _counts()
                response = client.post(action, {**spoiled, name: bad}, headers=headers)
                sent += 1
                accepted += response.status_code < 400
                assert response.status_code < 500, (action, name, bad[:20])
                if response.status_code >= 400:
                    assert _counts() == before, (action, name, bad[:20], response.status_code)
    # The untouched forms (or some spoiled values, such as a name in kanji) are accepted:
    # the forms were really reached, not refused whole for a missing base value.
    assert accepted or not reachable, f"no post to {path}'s forms was accepted"
    return sent


def _table(client: Client, **fields) -> str:
    response = client.post(
        "/",
        {
            "variant": "gin",
            "gin__preset": "big_gin",
            "gin__target": "100",
            "player_1": "Anna",
            "player_2": "Bruno",
            **fields,
        },
    )
    body = response.content.decode()
    assert response.status_code == 302, re.findall(
        r"<p class=\"error\">(.*?)</p>|<li>(.*?)</li>", body
    )[:6]
    return response.url


def test_the_anonymous_pages_forms():
    client = Client()
    sent = _fuzz(client, "/", player_1="Anna", player_2="Bruno", player_3="Carla")
    # The referee's question needs its cards; past its throttle the answer is a 429.
    sent += _fuzz(client, "/referee/", cards="7S 8S 9S")
    sent += _fuzz(client, "/accounts/password_reset/")
    password = "seven-Spades-on-the-stock"
    sent += _fuzz(
        client, "/accounts/signup/", username="lia", password1=password, password2=password
    )
    # No code is right without a table that handed it out: every try is refused, none a 500.
    sent += _fuzz(client, "/join/", reachable=False)
    assert sent > _at_least(300)


def test_a_gin_tables_forms_and_corrections():
    phone = Client()
    table = _table(phone)
    page = phone.get(table).content.decode()
    assert 'id="hand-form"' in page
    # One hand to correct, so the amend and void pages have their forms.
    from tests.games.pages.test_pages import _hand_data

    hand = _hand_data(page, knocker="0", ending="knock", knocker_count="7", defender_count="20")
    assert phone.post(f"{table}hands/", hand).status_code == 302
    sent = _fuzz(phone, table) + _fuzz(phone, f"{table}hands/1/amend/")
    sent += _fuzz(phone, f"{table}hands/1/void/")
    assert sent > _at_least(200)


@pytest.mark.parametrize("variant", sorted(key for key in GAMES if key != "gin"))
def test_every_other_games_tables_forms(variant):
    """Every registered game's table page (its hand entry, however the game enters hands),
    from the registry: a game added is fuzzed without a line here."""
    from tests.games.pages.test_pages_play import _create

    phone = Client()
    seats = min(max(GAMES[variant].seatings), 4)
    table = _create(phone, variant, ["Anna", "Bruno", "Carla", "Dario"][:seats])
    assert _fuzz(phone, f"/t/{table.id}/") > 50


# Pages read by GET with what a phone, a link or a bot may put in their query string.
QUERY_NAMES = ("since", "w", "page", "table", "season", "next", "lang", "q", "hand", "step")


def _fuzz_queries(client: Client, paths: list[str]) -> int:
    """GET each page with each query name set to each bad value, as htmx asks for its part
    of the page, and one value of each name (turning, as the forms' do) as a page is loaded:
    never a 500."""
    sent = 0
    for path in paths:
        for number, name in enumerate(QUERY_NAMES):
            for value_number, bad in enumerate(_bad_values(number)):
                response = client.get(path, {name: bad}, headers=HTMX)
                sent += 1
                assert response.status_code < 500, (path, name, bad[:20])
                if _sent_plain(number, value_number):
                    response = client.get(path, {name: bad})
                    assert response.status_code < 500, (path, name, bad[:20])
    return sent


def test_the_query_strings_of_the_pages():
    world = club_world()
    owner = Client()
    owner.force_login(world.owner)
    table = _table(owner)
    club = f"/clubs/{world.club.slug}/"
    paths = [
        "/",
        "/referee/",
        "/rules/",
        "/keys/",
        table,
        f"{table}history/",
        f"{table}tv/",
        "/clubs/",
        club,
        f"{club}l/{world.league.slug}/",
        f"{club}l/{world.league.slug}/s/{world.season.pk}/",
    ]
    assert _fuzz_queries(owner, paths) > _at_least(1000)


def test_the_phone_name_form_and_its_way_back():
    phone = Client()
    table = _table(phone)
    for bad in [*BAD_VALUES, "x", "home", "//evil.example/", "https://evil.example/"]:
        response = phone.post("/phone-name/", {"name": "Anna", "next": bad})
        if response.status_code == 400:  # text no page keeps (a NUL): refused at the edge
            assert "\x00" in bad
            continue
        assert response.status_code == 302, bad[:20]
        assert response.url in ("/", bad) and not response.url.startswith(("//", "http"))
    assert _fuzz(phone, table) > 0


def test_the_club_pages_forms():
    world = club_world()
    owner = Client()
    owner.force_login(world.owner)
    club = f"/clubs/{world.club.slug}/"
    league = f"{club}l/{world.league.slug}/"
    season = f"{league}s/{world.season.pk}/"
    # The season first: a season opened from the league page would close it.
    sent = _fuzz(owner, season, seat_1=str(world.anna.pk), seat_2=str(world.bruno.pk))
    sent += sum(_fuzz(owner, path) for path in ("/clubs/", club, f"{club}leagues/new/", league))
    assert sent > _at_least(300)


def test_a_tournament_night_s_forms():
    world = club_world()
    director = Client()
    director.force_login(world.admin)
    club = f"/clubs/{world.club.slug}/n/"
    sent = _fuzz(director, f"{club}new/", name="Gin night")
    night = Tournament.objects.filter(club=world.club).order_by("pk").first()
    # Players in, a round started: the night's page then has every form it can show.
    players = [p.pk for p in world.club.players.all()]
    assert director.post(f"{club}{night.pk}/entrants/", {"players": players}).status_code == 302
    assert director.post(f"{club}{night.pk}/rounds/").status_code == 302
    sent += _fuzz(director, f"{club}{night.pk}/", reason="time is up")
    table = RoundTable.objects.filter(round__tournament=night).first().table_id
    sent += _fuzz(director, f"/t/{table}/")
    assert sent > _at_least(150)


def test_a_groups_forms_and_this_phones_keys():
    phone = Client()
    sent = _fuzz(phone, "/g/new/", name="Family", names="Anna\nBruno\nCarla")
    group = Group.objects.order_by("pk").first()
    # A table of the group, so the page offers its last seating again in one tap.
    seated = list(group.players.values_list("pk", flat=True)[:2])
    response = phone.post(
        f"/g/{group.pk}/tables/",
        {"variant": "gin", "gin__preset": "big_gin", "gin__target": "100", "seated": seated},
    )
    assert response.status_code == 302
    sent += _fuzz(phone, f"/g/{group.pk}/")
    sent += _fuzz(phone, "/keys/") + _fuzz(phone, "/keys/receive/", reachable=False)
    assert sent > _at_least(200)
