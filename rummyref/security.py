"""Site-wide security hooks: who a request comes from, what a locked-out login sees, how
long a signed-in session lasts, and a warning when the app's database role can change a log.

Throttles (DRF) and the login lock-out (django-axes) must count the same client the same
way, so both read the address through DRF's ``get_ident`` and the one ``NUM_PROXIES``
setting: with no proxy in front, X-Forwarded-For is ignored and cannot be spoofed.
"""

import logging

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.backends.signals import connection_created
from rest_framework.throttling import BaseThrottle

from rummyref import dbroles

logger = logging.getLogger(__name__)


def client_address(request) -> str:
    """Return the client's address as the trusted proxies (NUM_PROXIES) report it."""
    return BaseThrottle().get_ident(request)


def _shorten_account_session(sender, request, user, **kwargs):
    # An anonymous phone keeps its table keys for a season; a signed-in session can do far
    # more (clubs, admin), so it lasts ACCOUNT_SESSION_DAYS.
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
