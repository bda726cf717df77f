"""Read what is left of a request's body once its answer is made.

A view that refuses a request before reading its body (an upload without a login, a
throttled form, a body past Django's size limit) leaves the body unread in the socket. When
gunicorn then closes the connection, the kernel resets it instead of closing it, and nginx,
which is still sending the body it buffered, reports 502 to the client instead of the
app's answer. Reading the rest first lets the answer through. The most read is bounded by
what nginx lets in (``client_max_body_size``, deploy/nginx): a longer body, possible only
without nginx in front, is left as it is.
"""

from django.conf import settings
from django.http import UnreadablePostError

CHUNK = 64 * 1024


def drain_limit() -> int:
    """Return the longest body read to its end: the largest import and 1 MiB of headroom,
    what nginx's site admits."""
    return settings.IMPORT_MAX_BYTES + 1024 * 1024


class UnreadBodyMiddleware:
    """Outermost: after any answer, read and drop what the request's body still holds."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if 0 < length <= drain_limit():
            try:
                while request.read(CHUNK):
                    pass
            except UnreadablePostError:
                pass  # the client has gone: nothing is left to read, or to answer
        return response
