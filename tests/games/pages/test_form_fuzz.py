"""No HTML form makes the server answer 500, whatever its fields hold.

Every form of the pages a scorekeeper, a viewer and a club owner see is read from the page
itself (fields, hidden values, action) and sent back with each field, in turn, replaced by
huge, negative, empty, unicode and oversized values: a sweep of every field under every
choice of the form's radio buttons, then random mixes of several fields at once.
"""

from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.tables import services as table_services
from tests.games.clubs_setup import club_world

NASTY_VALUES = [
    "",
    "0",
    "-1",
    "-99999999999999999999",
    "99999999999999999999",
    "2147483648",
    "9223372036854775808",
    "1e309",
    "NaN",
    "3.5",
    "🃏🃏🃏",
    "JK " * 400,
    "x" * 5000,
    "\x00",
    "<script>",
    "AS AS AS AS AS AS AS AS AS AS AS AS AS AS AS AS",
    "1" * 400,
]
NASTY = st.one_of(st.sampled_from(NASTY_VALUES), st.text(max_size=60))
SKIPPED_ACTIONS = ("/accounts/logout/", "/i18n/setlang/")


class _Forms(HTMLParser):
    """Collect each POST form: its action, its fields with the values the page sends, and the
    values a radio button, checkbox or select offers."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        form = self._form
        if tag == "form" and attrs.get("method", "get").lower() == "post":
            self._form = {"action": attrs.get("action") or "", "fields": {}, "choices": {}}
            self.forms.append(self._form)
        elif form is None or not (attrs.get("name") or tag == "option"):
            return
        elif tag == "option" and self._select:
            form["choices"].setdefault(self._select, []).append(attrs.get("value", ""))
            if "selected" in attrs or self._select not in form["fields"]:
                form["fields"][self._select] = attrs.get("value", "")
        elif tag == "select":
            self._select = attrs["name"]
        elif tag in ("input", "textarea"):
            kind, name = attrs.get("type", "text"), attrs["name"]
            if kind in ("submit", "button"):
                return
            if kind in ("checkbox", "radio"):
                form["choices"].setdefault(name, [""]).append(attrs.get("value", "on"))
                if "checked" not in attrs:
                    form["fields"].setdefault(name, "")
                    return
            form["fields"][name] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def _forms(client, path: str) -> list[tuple[str, dict]]:
    response = client.get(path)
    assert response.status_code == 200, path
    parser = _Forms()
    parser.feed(response.content.decode())
    return [
        (urljoin(path, form["action"]) or path, form["fields"], form["choices"])
        for form in parser.forms
        if not form["action"].startswith(SKIPPED_ACTIONS)
    ]


@pytest.fixture
def pages(db, client, django_capture_on_commit_callbacks):
    """The pages with forms, as the club's owner sees them, with a table of every game."""
    with django_capture_on_commit_callbacks(execute=True):
        world = club_world()
        league_table = world.table()
        tables = [
            table_services.table_create(variant=variant, options={}, players=players)
            for variant, players in (
                ("gin", ["Anna", "Bruno"]),
                ("rummy40", ["Anna", "Bruno"]),
                ("ramino", ["Anna", "Bruno", "Carla"]),
                ("knock_rummy", ["Anna", "Bruno", "Carla"]),
            )
        ]
    for table in tables:
        client.get(f"/t/{table.pk}/join/{table.scorekeeper_key}/")
    client.force_login(world.owner)
    club, league, season = world.club.slug, world.league.slug, world.season.pk
    paths = [
        "/",
        "/referee/",
        "/clubs/",
        f"/clubs/{club}/",
        f"/clubs/{club}/leagues/new/",
        f"/clubs/{club}/l/{league}/",
        f"/clubs/{club}/l/{league}/s/{season}/",
        f"/clubs/{club}/l/{league}/s/{season}/close/",
        f"/t/{league_table.pk}/",
        *(f"/t/{table.pk}/" for table in tables),
    ]
    return {path: _forms(client, path) for path in paths}


def _radio_settings(fields: dict, choices: dict) -> list[dict]:
    """The form as the page sends it, and once for every other choice of each radio group."""
    settings_ = [fields]
    for name, offered in choices.items():
        settings_ += [{**fields, name: value} for value in offered if value != fields.get(name)]
    return settings_


def test_every_field_of_every_form_takes_every_nasty_value(client, pages):
    """Sweep: each form under each choice of its radio groups (a game, an ending), each
    typed field in turn holding each nasty value, the rest as the page sends them."""
    sent = 0
    for action, fields, choices in (form for found in pages.values() for form in found):
        typed = [name for name in fields if name not in choices and name != "csrfmiddlewaretoken"]
        for base in _radio_settings(fields, choices):
            for name in typed:
                for value in NASTY_VALUES:
                    response = client.post(action, {**base, name: value}, HTTP_HX_REQUEST="true")
                    assert response.status_code < 500, (action, name, value[:80])
                    sent += 1
    assert sent > 1000


def test_no_form_field_makes_a_500(client, pages):
    forms = [form for found in pages.values() for form in found]
    assert len(forms) >= 15  # every page above shows its forms

    @given(index=st.integers(0, len(forms) - 1), data=st.data())
    @settings(
        max_examples=600, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def send(index, data):
        action, fields, choices = forms[index]
        if not fields:
            return
        names = data.draw(st.lists(st.sampled_from(sorted(fields)), min_size=1, max_size=4))
        sent = dict(fields)
        for name in names:
            offered = st.sampled_from(choices[name]) if name in choices else st.nothing()
            sent[name] = data.draw(st.one_of(offered, NASTY))
        response = client.post(action, sent, HTTP_HX_REQUEST="true")
        assert response.status_code < 500, (action, {n: sent[n][:80] for n in names})

    send()
