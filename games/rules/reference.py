"""The rules reference players read: docs/rules.md (English) and docs/rules.it.md (Italian).

Both files have the same entries in the same order, each headed ``### ID — title``; this
module reads them once per process into sections and entries, renders each entry's text
(Markdown, raw HTML off) and tells the page address of any rule ID, so every rule the
engine cites can link to the paragraph that states it.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language
from markdown_it import MarkdownIt

from scoring.variants import GAMES

DOCS = {"en": "rules.md", "it": "rules.it.md"}
_ENTRY = re.compile(r"^### (?P<rule>[A-Z0-9]+(?:-[A-Z0-9]+)*) — (?P<title>.+)$")


@dataclass(frozen=True)
class Entry:
    rule: str
    title: str
    html: str

    @property
    def game(self) -> str | None:
        return rule_game(self.rule)


@dataclass(frozen=True)
class Section:
    title: str
    html: str  # the section's own text, before its first entry
    entries: tuple[Entry, ...]

    def for_game(self, game: str | None) -> "Section":
        """Return the section with only the entries that apply to ``game`` (all for None)."""
        if game is None:
            return self
        kept = tuple(entry for entry in self.entries if entry.game in (None, game))
        return Section(title=self.title, html=self.html if not self.entries else "", entries=kept)


@dataclass(frozen=True)
class Reference:
    intro: str
    sections: tuple[Section, ...]

    @property
    def rules(self) -> frozenset[str]:
        return frozenset(entry.rule for section in self.sections for entry in section.entries)


def _language(language: str | None) -> str:
    code = (language or get_language() or "en").split("-")[0]
    return code if code in DOCS else "en"


def reference(language: str | None = None) -> Reference:
    """Return the reference in ``language`` (the request's by default), parsed once."""
    return _parsed(_language(language))


@lru_cache(maxsize=len(DOCS))
def _parsed(language: str) -> Reference:
    text = (Path(settings.BASE_DIR) / "docs" / DOCS[language]).read_text(encoding="utf-8")
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    intro, *chunks = re.split(r"^## ", text, flags=re.MULTILINE)
    sections = []
    for chunk in chunks:
        heading, _, body = chunk.partition("\n")
        own, *entry_chunks = re.split(r"^(?=### )", body, flags=re.MULTILINE)
        entries = []
        for entry_chunk in entry_chunks:
            head, _, entry_body = entry_chunk.partition("\n")
            match = _ENTRY.match(head.strip())
            if match is None:
                raise ValueError(f"{DOCS[language]}: not a rule heading: {head!r}")
            entries.append(
                Entry(match["rule"], match["title"], markdown.render(entry_body.strip()))
            )
        own_html = markdown.render(own.strip())
        sections.append(Section(title=heading.strip(), html=own_html, entries=tuple(entries)))
    # The file's own title line is the page's; the paragraphs under it introduce the rules.
    intro_body = intro.split("\n", 1)[1] if "\n" in intro else ""
    return Reference(intro=markdown.render(intro_body.strip()), sections=tuple(sections))


def rule_link(rule: str, game: str | None = None):
    """Return the rule ID as a link to its entry on the rules page (safe HTML)."""
    return format_html('<a class="rule" href="{}">{}</a>', rule_url(rule, game), rule)


def refusal_html(text: str, rule: str, game: str | None = None):
    """Return a refusal's sentence followed by its rule, linked (safe HTML for a form error)."""
    return format_html("{} {}", text, rule_link(rule, game))


def rule_game(rule: str) -> str | None:
    # A rule belongs to a game by its ID's prefix; the others (cards, melds, entries) to all.
    return next((key for key, game in GAMES.items() if rule.startswith(game.rule_prefix)), None)


def rule_url(rule: str, game: str | None = None) -> str:
    """Return the page address of ``rule``'s entry: on its game's page, else the full one."""
    game = rule_game(rule) or game
    page = reverse("rules-game", args=[game]) if game else reverse("rules")
    return f"{page}#{rule}"
