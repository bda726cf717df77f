"""The players' guide: docs/guide.md (English) and docs/guide.it.md (Italian) as /help/.

The guide is kept as Markdown beside the rules reference so that it is read and reviewed as
a document; the page renders it once per language and process, raw HTML off, with an id on
every heading so its table of contents (and any other page) can link to a section.
"""

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from django.conf import settings
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import get_language
from django.views.decorators.http import require_safe
from markdown_it import MarkdownIt

GUIDES = {"en": "guide.md", "it": "guide.it.md"}


@dataclass(frozen=True)
class Guide:
    title: str
    sections: tuple[tuple[str, str], ...]  # (anchor, heading) of each "## " section, in order
    html: str


def guide(language: str | None = None) -> Guide:
    """Return the guide in ``language`` (the request's by default), parsed once."""
    code = (language or get_language() or "en").split("-")[0]
    return _parsed(code if code in GUIDES else "en")


@lru_cache(maxsize=len(GUIDES))
def _parsed(language: str) -> Guide:
    text = (Path(settings.BASE_DIR) / "docs" / GUIDES[language]).read_text(encoding="utf-8")
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = markdown.parse(text)
    title, sections = "", []
    for opening, inline in pairwise(tokens):
        if opening.type != "heading_open":
            continue
        anchor = slugify(inline.content)
        opening.attrSet("id", anchor)
        if opening.tag == "h1":
            title = inline.content
        elif opening.tag == "h2":
            sections.append((anchor, inline.content))
    # The file's title is the page's <h1>, drawn by the template above the contents.
    if tokens and tokens[0].tag == "h1":
        tokens = tokens[3:]
    html = markdown.renderer.render(tokens, markdown.options, {})
    return Guide(title=title, sections=tuple(sections), html=html)


@require_safe
def guide_page(request):
    return render(request, "help/help.html", {"guide": guide()})
