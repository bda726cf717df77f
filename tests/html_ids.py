"""Every page the test client is answered with keeps its ids whole: no id twice, and every
id an ARIA attribute or a label's ``for`` names is on the page (a field's aria-describedby
names its ``<id>_error`` once it has errors, Django 5.2: its errors must carry that id, or a
screen reader says nothing of them)."""

from html.parser import HTMLParser

REFERRING = ("aria-describedby", "aria-labelledby", "aria-controls", "aria-errormessage")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.references: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.append(attributes["id"])
        for name in REFERRING:
            for target in (attributes.get(name) or "").split():
                self.references.append((tag, name, target))
        if tag == "label" and attributes.get("for"):
            self.references.append((tag, "for", attributes["for"]))


def id_problems(html: str) -> list[str]:
    """Return what is wrong with the ids of ``html``: each id given twice, and each id named
    by an attribute that no element has."""
    found = _Ids()
    found.feed(html)
    seen: set[str] = set()
    twice = sorted({i for i in found.ids if i in seen or seen.add(i)})
    problems = [f"id {i!r} is given twice" for i in twice]
    problems += [
        f"<{tag} {name}> names {target!r}, which no element has"
        for tag, name, target in found.references
        if target not in seen
    ]
    return problems
