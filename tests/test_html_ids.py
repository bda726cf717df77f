"""The id check every page answer passes through in tests/games (tests/html_ids.py)."""

from html.parser import HTMLParser

import pytest

from tests.html_ids import id_problems, start_tags
from tests.payloads import GIN_TABLE_FORM


def test_an_id_given_twice_is_named():
    html = '<input id="id_event_id"><form><input id="id_event_id"></form>'
    assert id_problems(html) == ["id 'id_event_id' is given twice"]


def test_an_error_id_a_field_names_but_no_element_has_is_named():
    html = '<input id="id_name" aria-describedby="id_name_helptext id_name_error">'
    html += '<span id="id_name_helptext">hint</span><label for="id_gone">Gone</label>'
    assert id_problems(html) == [
        "<input aria-describedby> names 'id_name_error', which no element has",
        "<label for> names 'id_gone', which no element has",
    ]


def test_a_page_whose_references_all_land_has_none():
    html = '<label for="id_name">Name</label><input id="id_name" aria-describedby="id_name_error">'
    html += '<span class="error" id="id_name_error">Too long.</span>'
    assert id_problems(html) == []


class _Reference(HTMLParser):
    """The start tags as Python's own HTML parser reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _read_by_html_parser(html: str) -> list[tuple[str, dict[str, str | None]]]:
    reference = _Reference()
    reference.feed(html)
    reference.close()
    return reference.tags


TRICKY = [
    '<input id=a disabled><label for="a">A</label>',
    '<div data-x=\'a>b\' id="x&amp;y" hx-vals=\'{"k": "<v>"}\'></div>',
    '<script id="rules" type="application/json">{"a": "<b id=\\"no\\">"}</script><i id="c">',
    '<!-- <p id="gone"> --><p id="kept">',
    '<style>p > a { color: red }</style><a id=b href="#a">',
    '<BR ID="up"/><img alt="" id="empty-alt">',
    '<p id="first" id="last">',
]


@pytest.mark.parametrize("html", TRICKY)
def test_start_tags_are_read_as_html_parser_reads_them(html):
    assert start_tags(html) == _read_by_html_parser(html)


def test_the_app_s_pages_are_read_as_html_parser_reads_them(client, db):
    table = client.post("/", GIN_TABLE_FORM).url
    for path in ("/", "/referee/", "/rules/", "/help/", table, f"{table}history/"):
        page = client.get(path).content.decode()
        assert start_tags(page) == _read_by_html_parser(page), path
