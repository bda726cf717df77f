"""The installable app's files: manifest, service worker, favicon and offline page."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.payloads import GIN_TABLE_FORM

pytestmark = pytest.mark.django_db


def test_the_manifest_makes_the_site_installable():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] == "RummyRef"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    # Chromium installs an app only with a 192 and a 512 pixel icon.
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        assert finders.find(name), icon["src"]


def test_the_manifest_speaks_the_phone_language():
    response = Client(headers={"accept-language": "it"}).get("/manifest.webmanifest")
    manifest = json.loads(response.content)
    assert manifest["lang"] == "it"
    assert "carte vere" in manifest["description"]


def test_the_service_worker_is_served_from_the_root_and_never_cached():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    # It names the shell's files and the offline page, and leaves saves to the network.
    assert '"/static/css/app.css"' in body
    assert '"/offline/"' in body
    assert 'request.method !== "GET"' in body


def test_a_changed_shell_file_changes_the_cache_name_in_development(settings, tmp_path):
    from games.pages import app_shell

    settings.DEBUG = True  # deployed, the hashed static names carry the change instead
    before = app_shell.shell_version()
    changed = tmp_path / "css"
    changed.mkdir()
    (changed / "app.css").write_text("body { color: red }")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]
    finders.get_finder.cache_clear()
    try:
        assert app_shell.shell_version() != before
    finally:
        finders.get_finder.cache_clear()


def test_the_favicon_request_finds_the_icon():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response.url.endswith("icons/favicon-32.png")


def test_every_page_links_the_manifest_and_the_icons():
    page = Client().get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'rel="apple-touch-icon"' in page
    assert 'name="theme-color"' in page


def test_the_offline_page_says_what_happened_in_italian():
    page = Client(headers={"accept-language": "it"}).get("/offline/").content.decode()
    assert "Nessuna connessione" in page


def test_the_room_screen_needs_the_table_key_and_answers_idle_polls_with_nothing():
    phone = Client()
    response = phone.post(
        "/",
        {
            "variant": "gin",
            "gin__preset": "big_gin",
            "gin__target": "100",
            "player_1": "Anna",
            "player_2": "Bruno",
        },
    )
    assert response.status_code == 302, response.content.decode()[:1000]
    tv_url = response.url + "tv/"
    page = phone.get(tv_url)
    assert page.status_code == 200
    assert 'data-testid="tv-board"' in page.content.decode()
    assert "hand-form" not in page.content.decode()
    # Another browser, with no key, learns nothing.
    assert Client().get(tv_url).status_code == 404
    idle = phone.get(tv_url + "?since=1", headers={"hx-request": "true"})
    assert idle.status_code == 204


@pytest.mark.django_db
class TestHeadRequests:
    """Uptime monitors and link previews ask with HEAD: the pages answer as to GET, with no
    body (``curl -I``)."""

    def test_the_main_pages_answer_head_with_200(self, client):
        created = client.post(
            "/",
            GIN_TABLE_FORM,
        )
        table = created.url
        for path in ("/", "/referee/", "/rules/", "/join/", table, f"{table}history/"):
            response = client.head(path)
            assert response.status_code == 200, path
            assert response.content == b"", path

    def test_every_page_says_what_the_site_is_for_search_engines_and_link_previews(self, client):
        page = client.get("/").content.decode()
        assert '<meta name="description" content="RummyRef keeps score' in page
