"""The id check every page answer passes through in tests/games (tests/html_ids.py)."""

from tests.html_ids import id_problems


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
