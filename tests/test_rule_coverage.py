"""The rules reference (docs/rules.md, docs/rules.it.md) is well formed, and every rule in it
is named by a test."""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
# The Italian twin: the same entries in the same order, its list lines labelled in Italian.
RULES_IT = ROOT / "docs" / "rules.it.md"
IT_LABELS = {"options_label": "Opzioni", "source_label": "Fonte"}

RULE_ID = r"[A-Z0-9]+(?:-[A-Z0-9]+)*"
# An entry opens with "### ID — title" and runs to the next heading of level 2 or 3.
HEADING = re.compile(rf"^### (?P<id>{RULE_ID}) — (?P<title>\S.*)$")
NEXT_HEADING = re.compile(r"^#{1,3} ")


@dataclass(frozen=True)
class Entry:
    rule: str
    title: str
    body: str
    options: str | None
    source: str


def _entries(path: Path, options_label: str = "Options", source_label: str = "Source"):
    """Parse a rules file into entries, raising ValueError where one strays from the shape.

    The shape: the heading, one paragraph (one or more lines), a blank line, then an
    optional "- Options: …" line and a "- Source: …" line, nothing else.
    """
    lines = path.read_text().splitlines()
    entries = []
    for start, line in enumerate(lines):
        if not line.startswith("### "):
            continue
        heading = HEADING.match(line)
        if heading is None:
            raise ValueError(f"line {start + 1}: not '### ID — title': {line!r}")
        end = next(
            (i for i in range(start + 1, len(lines)) if NEXT_HEADING.match(lines[i])), len(lines)
        )
        blocks = "\n".join(lines[start + 1 : end]).strip().split("\n\n")
        if len(blocks) != 2:
            raise ValueError(f"{heading['id']}: expected a paragraph then the list, got {blocks}")
        body, items = blocks[0].strip(), blocks[1].strip().split("\n")
        if not body or body.startswith(("-", "#", "|")):
            raise ValueError(f"{heading['id']}: the paragraph is missing")
        fields = {}
        for item in items:
            label, _, value = item.partition(": ")
            name = label.removeprefix("- ")
            if not label.startswith("- ") or name not in (options_label, source_label):
                raise ValueError(f"{heading['id']}: unexpected line {item!r}")
            if name in fields or not value.strip():
                raise ValueError(f"{heading['id']}: {name} repeated or empty")
            fields[name] = value.strip()
        if list(fields)[-1:] != [source_label]:
            raise ValueError(f"{heading['id']}: the last line must be '- {source_label}: …'")
        entries.append(
            Entry(
                rule=heading["id"],
                title=heading["title"],
                body=" ".join(body.split()),
                options=fields.get(options_label),
                source=fields[source_label],
            )
        )
    return entries


def _rule_ids() -> list[str]:
    return [entry.rule for entry in _entries(RULES)]


def _option_keys(entries) -> list[tuple[str, list[str]]]:
    """Return each entry's rule ID with the option keys its Options line names."""
    return [(e.rule, sorted(re.findall(r"`(\w+)`", e.options or ""))) for e in entries]


def _named_in_tests() -> set[str]:
    """Collect rule IDs written in test names (as ID or id_with_underscores) or docstrings.

    An ID counts only as a whole word, so R40-OPEN-PENALTY does not name R40-OPEN.
    """
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    found = set()
    for rule in _rule_ids():
        spellings = [rule]
        if "-" in rule:  # "value" alone is any word; a one-word ID is named in capitals
            spellings.append(rule.replace("-", "_").lower())
        if any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) for s in spellings):
            found.add(rule)
    return found


class TestRulesReference:
    def test_the_reference_is_in_the_repository_and_holds_every_rule(self):
        assert RULES.is_file(), f"the rules reference is missing: {RULES}"
        assert len(_rule_ids()) > 70

    def test_every_entry_has_a_heading_a_paragraph_and_a_source(self):
        for entry in _entries(RULES):  # a stray shape raises, naming the entry
            assert entry.title and entry.body and entry.source, entry

    def test_each_rule_id_has_one_entry(self):
        ids = _rule_ids()
        repeated = sorted({rule for rule in ids if ids.count(rule) > 1})
        assert not repeated, f"rules with more than one entry: {repeated}"

    def test_the_italian_reference_has_the_same_entries_in_the_same_order(self):
        italian = _entries(RULES_IT, **IT_LABELS)  # a stray shape raises, naming the entry
        assert [entry.rule for entry in italian] == _rule_ids()
        assert all(entry.title and entry.body and entry.source for entry in italian)
        assert _option_keys(italian) == _option_keys(_entries(RULES))

    def test_every_rule_is_named_by_a_test(self):
        missing = set(_rule_ids()) - _named_in_tests()
        assert not missing, f"no test names these rules: {sorted(missing)}"
