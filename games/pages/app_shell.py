"""The installable app: its manifest, its service worker, the favicon and the offline page,
and for a local run over HTTPS (`make run HTTPS=1`) the page and file that install this
machine's certificate authority on a phone.

The service worker is served from the site's root so its scope covers every page; it is a
template because it must name the static files by their deployed (hashed) URLs.
"""

import hashlib
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.pages.game_styles import stylesheet_url
from rummyref.local_ca import authority_certificate

THEME_COLOUR = "#0f5132"
# The file name a phone saves this machine's certificate authority under (`make run HTTPS=1`).
CERTIFICATE_NAME = "rummyref-local-ca.crt"
BACKGROUND_COLOUR = "#f4f6f4"

# What a phone needs to draw any page it has opened before, with no network.
SHELL_STATIC = (
    "css/app.css",
    "css/dark.css",
    "js/app.js",
    "js/app_shell.js",
    "js/provisional.js",
    "js/outbox.js",
    "vendor/htmx-2.0.11.min.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)


def shell_urls() -> list[str]:
    return [static(name) for name in SHELL_STATIC] + [reverse("offline"), stylesheet_url()]


@lru_cache(maxsize=1)
def _deployed_version() -> str:
    return hashlib.sha256("|".join(shell_urls()).encode()).hexdigest()[:12]


def shell_version() -> str:
    """Name the cache after the shell's files, so a new release replaces it on every phone.

    Deployed, the static URLs carry their content's hash; in development they do not, so the
    files' contents are hashed instead (read on each request: development only).
    """
    if not settings.DEBUG:
        return _deployed_version()
    digest = hashlib.sha256()
    for name in SHELL_STATIC:
        path = finders.find(name)
        if path:
            with open(path, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:12]


@require_safe
@cache_control(max_age=3600, public=True)
def manifest(request):
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    data = {
        "name": "RummyRef",
        "short_name": "RummyRef",
        "description": _("Referee and scorekeeper for rummy games played with real cards."),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "lang": request.LANGUAGE_CODE,
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    # no-cache: browsers check for a new worker on every visit, so a release reaches phones.
    response = render(
        request,
        "app_shell/sw.js",
        {
            "version": shell_version(),
            "shell_urls": shell_urls(),
            "static_prefix": static(""),
            "development": settings.DEBUG,
        },
        content_type="text/javascript",
    )
    return response


@require_safe
def favicon(request):
    # Browsers ask for /favicon.ico whatever the page says; send them to the real icon.
    return redirect(static("icons/favicon-32.png"), permanent=True)


@require_safe
def offline(request):
    return render(request, "app_shell/offline.html")


def _local_authority():
    # Only a local run (DEBUG) hands out this machine's authority: a deployed site has a
    # certificate every phone already trusts, and no reason to offer another.
    if not settings.DEBUG:
        return None
    return authority_certificate(Path(settings.LOCAL_CA_DIR))


@require_safe
def local_ca(request):
    """Say how a phone installs this machine's certificate authority, once, for HTTPS."""
    host, _port = split_domain_port(request.get_host())
    https_url = f"https://{host}:{settings.LAN_HTTPS_PORT}/" if settings.LAN_HTTPS_PORT else ""
    return render(
        request,
        "app_shell/local_ca.html",
        {
            "available": _local_authority() is not None,
            "secure": request.is_secure(),
            "https_url": https_url,
        },
    )


@require_safe
def local_ca_certificate(request):
    """Hand out the authority's certificate, its public part only (DER, as phones install it)."""
    certificate = _local_authority()
    if certificate is None:
        raise Http404("No local certificate authority here.")
    if "Android" in request.headers.get("User-Agent", ""):
        # Android installs a CA certificate only from Settings, from a file: as a certificate
        # Chrome would hand it to an installer that refuses it (Android 11+) and keep nothing,
        # so it is sent as a plain file, which Chrome saves in Downloads under this name.
        kind, disposition = "application/octet-stream", "attachment"
    else:
        # Safari on iOS offers a certificate sent inline as a profile to install (as
        # mitmproxy's mitm.it hands out its authority); an attachment is only saved to Files.
        kind, disposition = "application/x-x509-ca-cert", "inline"
    response = HttpResponse(certificate.public_bytes(serialization.Encoding.DER), content_type=kind)
    response["Content-Disposition"] = f'{disposition}; filename="{CERTIFICATE_NAME}"'
    response["Cache-Control"] = "no-store"
    return response
