"""The plain-HTTP side of ``make run HTTPS=1``: the certificate's address, everything else to HTTPS.

A phone that has not installed this machine's certificate authority yet cannot open the
HTTPS address without a warning, so this second listener (``gunicorn rummyref.lan_http``)
hands out the installation page and the authority's certificate (``/ca/``, and the static
files that page draws with) over plain HTTP, and sends every other address to the same path
on the HTTPS port (``LAN_HTTPS_PORT``). Only hosts the app allows are redirected to, so a
forged Host header cannot make it point anywhere else.
"""

from urllib.parse import quote

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from rummyref.wsgi import application as django_application

PLAIN_PATHS = ("/ca/", "/static/", "/favicon.ico", "/i18n/")


def application(environ, start_response):
    """Serve the certificate's pages over plain HTTP; redirect anything else to HTTPS."""
    path = environ.get("PATH_INFO", "/")
    if path.startswith(PLAIN_PATHS) or not settings.LAN_HTTPS_PORT:
        return django_application(environ, start_response)
    host, _port = split_domain_port(environ.get("HTTP_HOST", ""))
    if not host or not validate_host(host, settings.ALLOWED_HOSTS):
        start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
        return [b"Unknown host.\n"]
    query = environ.get("QUERY_STRING", "")
    # WSGI hands the path over as latin-1 text of its bytes.
    location = f"https://{host}:{settings.LAN_HTTPS_PORT}{quote(path.encode('latin-1'))}"
    location += f"?{query}" if query else ""
    start_response(
        "307 Temporary Redirect",
        [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
    )
    return [f"Go to {location}\n".encode()]
