"""Every page the test client is answered with keeps its ids whole: no id twice, and every
id an ARIA attribute or a label's ``for`` names is on the page (a field's aria-describedby
names its ``<id>_error`` once it has errors, Django 5.2: its errors must carry that id, or a
screen reader says nothing of them).

Every page of the suite passes through this check, thousands of them in the form fuzz: it
reads the start tags with regular expressions, as html.parser would read them but several
times faster (tests/test_html_ids.py holds the two to the same answers)."""

import re
from html import unescape

REFERRING = ("aria-describedby", "aria-labelledby", "aria-controls", "aria-errormessage")

# Comments, and the text inside a script or a style, hold no tags (the start tag of a
# script is kept: json_script gives it an id).
_NOT_TAGS = re.compile(r"<!--.*?-->|(<(script|style)\b[^>]*>).*?</\2\s*>", re.S | re.I)
_START_TAG = re.compile(r"""<([a-zA-Z][^\s/>]*)((?:[^'">]+|"[^"]*"|'[^']*')*)>""")
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")


def start_tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Return each start tag of ``html``: its name and its attributes (names in lower case,
    values unquoted and unescaped, None for an attribute given without one; the last of an
    attribute given twice), as html.parser gives them."""
    text = _NOT_TAGS.sub(lambda found: found[1] or "", html)
    tags = []
    for tag in _START_TAG.finditer(text):
        attributes: dict[str, str | None] = {}
        for name, given in _ATTRIBUTE.findall(tag[2]):
            if not given:
                attributes[name.lower()] = None
                continue
            value = given[1:-1] if given[0] in ("'", '"') else given
            attributes[name.lower()] = unescape(value) if "&" in value else value
        tags.append((tag[1].lower(), attributes))
    return tags


def id_problems(html: str) -> list[str]:
    """Return what is wrong with the ids of ``html``: each id given twice, and each id named
    by an attribute that no element has."""
    ids: list[str] = []
    references: list[tuple[str, str, str]] = []
    for tag, attributes in start_tags(html):
        if attributes.get("id"):
            ids.append(attributes["id"])
        for name in REFERRING:
            for target in (attributes.get(name) or "").split():
                references.append((tag, name, target))
        if tag == "label" and attributes.get("for"):
            references.append((tag, "for", attributes["for"]))
    seen: set[str] = set()
    twice = sorted({i for i in ids if i in seen or seen.add(i)})
    problems = [f"id {i!r} is given twice" for i in twice]
    problems += [
        f"<{tag} {name}> names {target!r}, which no element has"
        for tag, name, target in references
        if target not in seen
    ]
    return problems
