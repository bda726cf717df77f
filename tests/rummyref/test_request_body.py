"""A refusal made before the body was read still reads it to its end, so the connection
closes cleanly and nginx passes the refusal on (rummyref/request_body.py; the real nginx in
tests/deploy/test_nginx.py). Nothing past nginx's limit is read."""

import io

from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponseForbidden

from rummyref.request_body import UnreadBodyMiddleware, drain_limit


def _request(body: bytes, length: int | None = None) -> tuple[WSGIRequest, io.BytesIO]:
    stream = io.BytesIO(body)
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/v1/imports/",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "CONTENT_TYPE": "application/octet-stream",
        "CONTENT_LENGTH": str(len(body) if length is None else length),
        "wsgi.input": stream,
        "wsgi.url_scheme": "http",
    }
    return WSGIRequest(environ), stream


def _refuse_unread(request):
    return HttpResponseForbidden("no credentials")


def test_a_body_a_refusal_left_unread_is_read_to_its_end(settings):
    settings.IMPORT_MAX_BYTES = 300_000
    body = b"x" * 300_000
    request, stream = _request(body)
    response = UnreadBodyMiddleware(_refuse_unread)(request)
    assert response.status_code == 403
    assert stream.tell() == len(body)


def test_a_body_the_view_read_is_not_read_again(settings):
    request, stream = _request(b'{"variant": "gin"}')

    def view(request):
        assert request.body == b'{"variant": "gin"}'
        return HttpResponseForbidden()

    UnreadBodyMiddleware(view)(request)
    assert stream.tell() == len(b'{"variant": "gin"}')


def test_a_body_longer_than_nginx_admits_is_left_unread(settings):
    settings.IMPORT_MAX_BYTES = 1000
    request, stream = _request(b"x" * 10, length=drain_limit() + 1)
    UnreadBodyMiddleware(_refuse_unread)(request)
    assert stream.tell() == 0


def test_the_limit_is_what_the_shipped_nginx_site_admits(settings):
    """deploy/nginx: client_max_body_size 21m, the import's 20 MiB and headroom."""
    from pathlib import Path

    site = (Path(__file__).resolve().parents[2] / "deploy" / "nginx").glob("*")
    sizes = [
        line
        for f in site
        if f.is_file()
        for line in f.read_text().splitlines()
        if "client_max_body_size" in line
    ]
    assert sizes and all(line.split()[-1] == "21m;" for line in sizes)
    settings.IMPORT_MAX_BYTES = 20 * 1024 * 1024
    assert drain_limit() == 21 * 1024 * 1024
