"""The players' guide at /help/: docs/guide.md in English, docs/guide.it.md in Italian."""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import Resolver404, resolve
from django.utils.text import slugify


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("href"):
            self.hrefs.append(attributes["href"])


def _links(html: str) -> _Links:
    links = _Links()
    links.feed(html)
    return links


def _help(client, language: str) -> str:
    response = client.get("/help/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
class TestHelpPage:
    def test_english_reads_the_english_guide(self, client):
        html = _help(client, "en")
        assert "<h1>How to use RummyRef</h1>" in html
        assert 'id="invite-the-other-phones"' in html
        assert "Inizia la partita" not in html

    def test_italian_reads_the_italian_guide(self, client):
        html = _help(client, "it")
        assert "<h1>Come si usa RummyRef</h1>" in html
        assert 'id="invita-gli-altri-telefoni"' in html
        assert "Invite the other phones" not in html

    def test_the_language_switch_of_the_header_turns_it_italian(self, client):
        client.post("/i18n/setlang/", {"language": "it", "next": "/help/"})
        assert "<h1>Come si usa RummyRef</h1>" in client.get("/help/").content.decode()

    @pytest.mark.parametrize(("language", "doc"), [("en", "guide.md"), ("it", "guide.it.md")])
    def test_contents_list_every_section_and_each_lands_on_its_heading(
        self, client, settings, language, doc
    ):
        text = (Path(settings.BASE_DIR) / "docs" / doc).read_text(encoding="utf-8")
        headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
        html = _help(client, language)
        contents = html.split('class="help-contents"', 1)[1].split("</nav>", 1)[0]
        anchors = [href.removeprefix("#") for href in _links(contents).hrefs]
        assert anchors == [slugify(heading) for heading in headings]
        assert set(anchors) <= _links(html).ids

    @pytest.mark.parametrize("language", ["en", "it"])
    def test_every_link_inside_resolves(self, client, language):
        links = _links(_help(client, language))
        for href in links.hrefs:
            address = urlsplit(href)
            assert not address.scheme, f"{href}: the guide links only to this site"
            if address.path:
                try:
                    resolve(address.path)
                except Resolver404:
                    pytest.fail(f"{href} (in the {language} guide) resolves to no page")
            if address.fragment and not address.path:
                assert address.fragment in links.ids, f"{href}: no such section"

    @pytest.mark.parametrize(
        ("language", "section"), [("en", "club-nights"), ("it", "serate-di-club")]
    )
    def test_its_link_into_the_rules_lands_on_a_rules_section(self, client, language, section):
        assert f'href="/rules/#{section}"' in _help(client, language)
        rules = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert section in _links(rules).ids

    def test_every_page_links_to_it_from_its_footer(self, client):
        home = client.get("/").content.decode()
        footer = home.split('<footer class="foot">', 1)[1].split("</footer>", 1)[0]
        assert "/help/" in _links(footer).hrefs
