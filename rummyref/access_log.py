"""gunicorn's access log without the bearer secrets some paths carry.

Join links and club invites now carry their secret after ``#`` (``/j/#<token>``,
``/invite/#<token>``), which no browser sends; but links made before that still arrive as
paths, and anybody can type one: ``/j/<token>/``, ``/invite/<token>/``, the old table key
links ``/t/<id>/join/<key>/``, and Django's password reset links
``/accounts/reset/<uid>/<token>/``. ``RedactingLogger`` writes each of them with the secret
segment replaced by ``REDACTED``, in every part of a line that may hold a path: the request
line, the path, the query string (``?next=/j/…`` too, percent-encoded or not), the Referer
and any header or environ value a custom ``access_log_format`` names. ``RedactSecretsFilter``
does the same for the app's own log lines (settings.LOGGING).

``SECRET_PATH_PATTERNS`` is the one list of those paths, as PCRE-compatible regular
expressions: the nginx configuration in deploy/ mirrors it for nginx's own access log. Each
has two groups: what is kept (group 1), then the secret (group 2). They are not anchored at
the start, so a path under a prefix, or one inside a URL (a Referer, a ``next=``), is caught
as well; redacting a path that only looks like one costs nothing.

Left as they are, on purpose: a shared result's public page ``/r/<token>/`` (and its
``card.png``), and a night's room screen ``/room/<token>/``. Each token is the whole address
of a page made to be shown to everyone in the room and read-only (results, pairings and
standings; no key, no role), and whoever made it can revoke it.
"""

import logging
import re
from urllib.parse import unquote

from gunicorn.glogging import Logger, SafeAtoms

REDACTED = "REDACTED"

# A path segment: up to the next slash, query, fragment, space or quote.
_SEGMENT = r"[^/?#\s\"']+"
SECRET_PATH_PATTERNS: tuple[str, ...] = (
    # Join links from before the fragment: /j/<token>/.
    rf"(/j/)({_SEGMENT})",
    # Club invites from before the fragment: /invite/<token>/.
    rf"(/invite/)({_SEGMENT})",
    # Table key links from before keys were hashed: /t/<table id>/join/<key>/.
    rf"(/t/{_SEGMENT}/join/)({_SEGMENT})",
    # Django's password reset links: /accounts/reset/<uid>/<token>/ (not the form it
    # redirects to, /accounts/reset/<uid>/set-password/, which holds no secret).
    rf"(/accounts/reset/{_SEGMENT}/)(?!set-password(?:[/?#\s\"']|$))({_SEGMENT})",
)
_COMPILED = tuple(re.compile(pattern) for pattern in SECRET_PATH_PATTERNS)
# Percent-encoding undone at most this many times (a next= inside a next= is two).
_DECODINGS = 3


def _substitute(text: str) -> str:
    for pattern in _COMPILED:
        text = pattern.sub(lambda match: match.group(1) + REDACTED, text)
    return text


def redact(text: str) -> str:
    """Return ``text`` (a path, a URL, a query string, a request line) with every secret
    segment of a known secret-bearing path replaced by ``REDACTED``.

    A path can hide from the patterns behind percent-encoding (``/%6A/<token>/`` reaches
    the join view all the same), so ``text`` is decoded too: when a decoded form holds a
    secret, that form is what is written, redacted.
    """
    redacted = _substitute(text)
    decoded = text
    for _ in range(_DECODINGS):
        once = unquote(decoded, errors="replace")
        if once == decoded:
            break
        decoded = once
        if _substitute(decoded) != decoded:
            return _substitute(decoded)
    return redacted


class RedactSecretsFilter(logging.Filter):
    """Redact the same paths in the app's own log lines (settings.LOGGING's console
    handler): Django names the path of a request it refuses (``Not Found: …``,
    ``Method Not Allowed (HEAD): …``, ``Forbidden (CSRF …): …``), and a link-preview bot
    or a stale page can send an old link any way it likes."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


class RedactingAtoms(SafeAtoms):
    """The values a log line is made of, each redacted as it is read (only those the format
    names are read, so a request costs a few pattern searches, not one per header)."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        return redact(value) if isinstance(value, str) else value


class RedactingLogger(Logger):
    """gunicorn's logger, with the access log's secrets redacted (``logger_class``)."""

    atoms_wrapper_class = RedactingAtoms
