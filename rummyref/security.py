"""Site-wide security hooks: who a request comes from, how long a session lasts, and a
warning when the app's database role can change a log.

Throttles (DRF) and the login lock-out (django-axes) must count the same client the same
way, so both read the address through DRF's ``get_ident`` and the one ``NUM_PROXIES``
setting, and both see X-Forwarded-For only when the direct peer is one of
``TRUSTED_PROXIES``: from anyone else ForwardedHeadersMiddleware drops it (and every other
X-Forwarded-* header) before any of them reads the request, so it cannot be spoofed.
"""

import functools
import ipaddress
import logging

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_in
from django.db.backends.signals import connection_created
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

from rummyref import dbroles

logger = logging.getLogger(__name__)


# The headers a proxy sets about the client (X-Forwarded-For, -Proto, -Host…), as in META.
FORWARDED_HEADERS = ("HTTP_X_FORWARDED_", "HTTP_FORWARDED")


@functools.lru_cache(maxsize=8)
def _networks(
    proxies: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def from_trusted_proxy(request) -> bool:
    """Tell whether the request's direct peer (REMOTE_ADDR) is one of TRUSTED_PROXIES."""
    try:
        peer = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:  # no address (a Unix socket) or not one
        return False
    peer = getattr(peer, "ipv4_mapped", None) or peer  # ::ffff:10.0.0.5 is 10.0.0.5
    return any(peer in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


class ForwardedHeadersMiddleware:
    """Drop every X-Forwarded-* (and Forwarded) header a peer other than a trusted proxy
    sent, as if it never had: the client address, the HTTPS redirect (SECURE_PROXY_SSL_HEADER)
    and anything else that reads them then see only what a trusted proxy said."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not from_trusted_proxy(request):
            for name in [name for name in request.META if name.startswith(FORWARDED_HEADERS)]:
                del request.META[name]
            request.__dict__.pop("headers", None)  # HttpRequest.headers, if already read
        return self.get_response(request)


def client_address(request) -> str:
    """Return the client's address: the peer's, or as NUM_PROXIES trusted proxies report it."""
    if not from_trusted_proxy(request):
        return request.META.get("REMOTE_ADDR", "")
    return BaseThrottle().get_ident(request)


# The session key of the last renewal's time (seconds since the epoch).
RENEWED = "_renewed_at"
RENEW_EVERY = 24 * 60 * 60


class SessionRenewalMiddleware:
    """Extend an anonymous phone's session that a request used to SESSION_COOKIE_AGE
    (ANON_SESSION_DAYS) from now, writing it at most once a day: a session is written, and
    its cookie sent again, only when it changed, so a used one would otherwise lapse
    ANON_SESSION_DAYS after its last change. A signed-in session keeps its own length."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Unread (an idle poll, a static file) or empty (a visitor with nothing kept): no
        # session is created or written for it.
        if session is None or not session.accessed or session.is_empty():
            return response
        if SESSION_KEY in session:  # signed in
            return response
        now = int(timezone.now().timestamp())
        if now - session.get(RENEWED, 0) >= RENEW_EVERY:
            session[RENEWED] = now  # modified: SessionMiddleware saves it and sets the cookie
        return response


def _shorten_account_session(sender, request, user, **kwargs):
    # An anonymous phone keeps its table keys while it is used; a signed-in session can do
    # far more (clubs, admin), so it lasts ACCOUNT_SESSION_DAYS.
    request.session.set_expiry(settings.ACCOUNT_SESSION_DAYS * 24 * 60 * 60)


def _warn_if_log_rewritable(sender, connection, **kwargs):
    # Once per process, at its first connection: production should run as the runtime role
    # (manage.py db_roles), which can only read and append the log.
    connection_created.disconnect(dispatch_uid="rummyref-log-guard")
    problem = dbroles.log_rewritable_by(connection)
    if problem:
        logger.warning("%s. Run the app as the runtime role of `manage.py db_roles`.", problem)


def connect() -> None:
    """Connect the security receivers (called once, from the app's ready())."""
    user_logged_in.connect(_shorten_account_session, dispatch_uid="rummyref-account-session")
    if not settings.DEBUG:
        connection_created.connect(_warn_if_log_rewritable, dispatch_uid="rummyref-log-guard")
