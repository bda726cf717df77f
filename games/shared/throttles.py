"""Throttles whose count is one atomic step in the shared cache.

DRF's throttles keep a list of request times per client: read it, check it, write it back.
Requests that arrive together, in different processes of the app, all read the same list
and all pass. Here a request first takes its place with the cache's atomic increment
(Redis's INCR in production; the embedded file cache increments by read and write) and
gives it back if it is refused, so parallel requests can never take more than the rate.

Counts are kept per fixed window of the rate's duration; a request is weighed against the
current window's count plus the previous window's, scaled by how much of the previous
window still lies within one duration of now. That is a sliding window's count, without
the burst a plain fixed window allows at its edge.

While the cache cannot be reached (``CacheUnavailable``), nothing is counted and every
request is served: a lost count costs less than an app that refuses everyone.
"""

import hashlib
import logging
import math
from contextlib import suppress

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import ngettext
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from games.shared.cache import CacheUnavailable, warn_rarely

logger = logging.getLogger(__name__)


class CountedRateThrottle(SimpleRateThrottle):
    """A SimpleRateThrottle counted atomically (see the module's docstring)."""

    taken_key: str | None = None  # the count ``take`` added to, if it did

    def _windows(self) -> tuple[str, str, float]:
        """Return the current and previous windows' keys and how far into the current
        window now is (0 to 1)."""
        self.now = self.timer()
        window, into = divmod(self.now, self.duration)
        window = int(window)
        return f"{self.key}:{window}", f"{self.key}:{window - 1}", into / self.duration

    def take(self) -> bool:
        """Take a place for one request of ``self.key``; False (and nothing taken) when
        the client has none left."""
        current, previous, into = self._windows()
        self.taken_key = None
        taken = None
        try:
            while taken is None:
                self.cache.add(current, 0, 2 * self.duration)
                with suppress(ValueError):  # the count expired between add and incr: again
                    taken = self.cache.incr(current)
        except CacheUnavailable:
            warn_rarely(logger, "Throttles let requests through uncounted: the cache is down.")
            return True
        self.taken_key = current
        if self.cache.get(previous, 0) * (1 - into) + taken <= self.num_requests:
            return True
        self.give_back()
        return False

    def give_back(self) -> None:
        """Give back the place ``take`` took (a request that did not count after all)."""
        if self.taken_key is None:  # none was taken: the cache was down
            return
        # ValueError: its window's count is gone, nothing to give back.
        with suppress(ValueError, CacheUnavailable):
            self.cache.decr(self.taken_key)

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        return self.take()

    def wait(self) -> float:
        """Return the seconds until the current window is over: when its count starts to
        fade, an estimate of when this client may ask again (not worked out exactly)."""
        _current, _previous, into = self._windows()
        return max(1.0, (1 - into) * self.duration)


class CountedAnonThrottle(CountedRateThrottle, AnonRateThrottle):
    """DRF's AnonRateThrottle (per client address), counted atomically."""


class CountedUserThrottle(CountedRateThrottle, UserRateThrottle):
    """DRF's UserRateThrottle (per user, else per address), counted atomically."""


class CountedScopedThrottle(ScopedRateThrottle, CountedRateThrottle):
    """DRF's ScopedRateThrottle (the view's throttle_scope), counted atomically.

    ScopedRateThrottle comes first: its allow_request reads the view's scope and rate,
    then hands over to CountedRateThrottle's.
    """


class PageThrottle(CountedRateThrottle):
    """A page write's rate (``DEFAULT_THROTTLE_RATES[scope]``), counted per client address,
    or per ``target`` when one is given (an email address: kept as a digest, never in clear).
    """

    def __init__(self, scope: str, target: str | None = None):
        self.scope = scope
        self.target = target
        super().__init__()

    def get_cache_key(self, request, view):
        if self.target is None:
            ident = self.get_ident(request)
        else:
            ident = hashlib.sha256(self.target.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


# The code of the form error page_write_allowed adds: page_status answers it with 429.
THROTTLED = "throttled"


def page_write_allowed(request, form, scope: str, *, email: str | None = None) -> bool:
    """Take a valid form's place in its write's rate: ``scope`` per client address and, with
    ``email``, ``<scope>_email`` per that address. When one is full, give back what was
    taken, put the refusal on ``form`` (page_status then answers 429) and return False."""
    throttles = [PageThrottle(scope)]
    if email is not None:
        throttles.append(PageThrottle(f"{scope}_email", email.strip().lower()))
    taken = []
    for throttle in throttles:
        if not throttle.allow_request(request, None):
            for done in taken:
                done.give_back()
            minutes = math.ceil(throttle.wait() / 60)
            form.add_error(None, ValidationError(_refusal(throttle, minutes), code=THROTTLED))
            return False
        taken.append(throttle)
    return True


def _refusal(throttle: PageThrottle, minutes: int) -> str:
    if throttle.target is None:
        message = ngettext(
            "Too many of these from this network for now: try again in %(minutes)d minute.",
            "Too many of these from this network for now: try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        message = ngettext(
            "Too many links asked for this email for now: try again in %(minutes)d minute.",
            "Too many links asked for this email for now: try again in %(minutes)d minutes.",
            minutes,
        )
    return message % {"minutes": minutes}


def page_status(form) -> int:
    """Return a form page's status: 429 refused by page_write_allowed, 422 other errors, 200."""
    if form.has_error(NON_FIELD_ERRORS, THROTTLED):
        return 429
    return 422 if form.errors else 200


def code_try_refusal(request, form, throttle: CountedRateThrottle, *, field=None) -> int | None:
    """Take a place for one typed code's try; return the refusal's status, or None when the
    code may be looked up (the caller gives the place back if it opens something).

    Past the rate the form says how long to wait (429); a malformed code is no try and gives
    its place back (400, the form's own errors).
    """
    if not throttle.allow_request(request, None):
        seconds = math.ceil(throttle.wait() or 1)
        form.errors.clear()
        form.add_error(
            field,
            ngettext(
                "Too many tries from this network: try again in %(seconds)d second.",
                "Too many tries from this network: try again in %(seconds)d seconds.",
                seconds,
            )
            % {"seconds": seconds},
        )
        return 429
    if not form.is_valid():
        throttle.give_back()
        return 400
    return None
