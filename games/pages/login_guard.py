"""Who may try a password, and how often: django-axes' database handler with limits that
stop guessing without letting a stranger lock a player out (settings: AXES_*, LOGIN_*).

Wrong passwords are counted in the database (axes' AccessAttempt rows, one per account,
address and browser), so every process agrees and the count goes on while Redis is down.
Over the last LOGIN_LOCKOUT_MINUTES, two counts lock, each at its own limit:

- one account from one address (LOGIN_FAILURE_LIMIT): someone guessing a player's password
  is stopped there and only there; the player still logs in from any other network;
- one address, all accounts together (LOGIN_ADDRESS_FAILURE_LIMIT): an address trying many
  accounts is stopped for all of them.

A browser that logged in to an account before carries a signed *device cookie* for it
(OWASP's "Slow down online guessing attacks with device cookies"). For that account neither
lock applies, so nobody else's guesses keep a player off their own phone; its own wrong
passwords make it wait instead, twice as long after each (1, 2, 4… seconds, at most the
lock-out's length), counted in the shared cache. While the cache is down it is treated as
any other browser. The cookie carries a digest of the account's password hash, so a new
password (a reset) retires every device cookie of the account.

A login clears that account's count from that address only: logging in to one's own
account does not wipe what the address tried on others.
"""

import math
import secrets
import time
from contextlib import suppress
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.core.cache import cache
from django.db.models import Sum
from django.shortcuts import render
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import ngettext

from games.shared.cache import CacheUnavailable

DEVICE_COOKIE = "rummyref_device"
_SALT = "games.pages.login_guard.device"
# How long a device's wrong passwords are remembered after its last one.
DEVICE_MEMORY_SECONDS = 24 * 60 * 60
# The longest one login try holds its device's turn (the answer gives it back at once).
TURN_SECONDS = 30


def _clock() -> float:
    return time.time()


def _password_mark(user) -> str:
    return salted_hmac(_SALT, user.password, algorithm="sha256").hexdigest()


def device_cookie(user) -> str:
    """Return a new device cookie for ``user``: the account, its password's mark, and a
    random name for the device."""
    device = secrets.token_urlsafe(12)
    return signing.dumps({"u": user.pk, "p": _password_mark(user), "d": device}, salt=_SALT)


def known_device(request, username: str | None) -> str | None:
    """Return the name of this browser's device if its cookie is good for ``username``."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value or not username:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=timedelta(days=settings.LOGIN_DEVICE_DAYS))
    except signing.BadSignature:  # forged, or expired
        return None
    user_model = get_user_model()
    user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None or user.pk != data["u"]:
        return None
    if not constant_time_compare(data["p"], _password_mark(user)):  # the password changed
        return None
    return data["d"]


def device_delay(failures: int) -> float:
    """Return the seconds a known device waits after its ``failures``-th wrong password."""
    return min(2.0 ** (failures - 1), get_cool_off().total_seconds())


def _keys(device: str) -> tuple[str, str]:
    return f"login_device_{device}", f"login_device_{device}_turn"


def _device_wait(device: str) -> float:
    """Take the device's turn to try a password: return 0, or the seconds it must wait
    (and no turn taken). Raises CacheUnavailable."""
    state, turn = _keys(device)
    taken = None
    while taken is None:
        cache.add(turn, 0, TURN_SECONDS)
        with suppress(ValueError):  # the turn expired between add and incr: again
            taken = cache.incr(turn)
    if taken > 1:  # a try sent at the same time is being answered
        return 1.0
    _failures, until = cache.get(state, (0, 0.0))
    wait = until - _clock()
    if wait > 0:
        cache.delete(turn)
        return wait
    return 0.0


def _device_failed(device: str) -> None:
    state, _turn = _keys(device)
    failures, _until = cache.get(state, (0, 0.0))
    failures += 1
    cache.set(state, (failures, _clock() + device_delay(failures)), DEVICE_MEMORY_SECONDS)


class LoginGuard(AxesDatabaseHandler):
    """Axes' database handler with a limit per lock-out parameter set, a login clearing one
    account's count from one address, and known devices (see the module's docstring).

    The request carries ``login_device`` (the known device whose turn it holds) and
    ``login_wait`` (the seconds a known device must still wait)."""

    def is_locked(self, request, credentials=None) -> bool:
        device = known_device(request, get_client_username(request, credentials))
        if device is not None:
            try:
                wait = _device_wait(device)
            except CacheUnavailable:
                pass  # nothing is counted: the locks apply, as to any browser
            else:
                request.login_wait = wait
                if wait > 0:
                    return True
                request.login_device = device
                return False
        return super().is_locked(request, credentials)

    def get_failures(self, request, credentials=None) -> int:
        """Return the failures of the count nearest its own limit, shifted so that reaching
        that limit reaches AXES_FAILURE_LIMIT (axes compares every count with that one)."""
        if getattr(request, "login_device", None):
            return 0  # a known device waits instead of being locked (is_locked)
        limit = get_failure_limit(request, credentials)
        own_limits = (settings.AXES_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT)
        counts = [
            attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        return max(count - own + limit for count, own in zip(counts, own_limits, strict=True))

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        refused = request is None or request.axes_locked_out  # refused tries count nowhere
        super().user_login_failed(sender, credentials, request, **kwargs)
        device = getattr(request, "login_device", None)
        if device and not refused:
            with suppress(CacheUnavailable):
                _device_failed(device)

    def user_logged_in(self, sender, request, user, **kwargs):
        super().user_logged_in(sender, request, user, **kwargs)
        device = getattr(request, "login_device", None)
        if device:
            cache.delete(_keys(device)[0])
        request.login_device_cookie = device_cookie(user)

    def reset_user_attempts(self, request, credentials=None) -> int:
        """Clear the account's failures from this address only."""
        username = get_client_username(request, credentials)
        attempts = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        )
        count, _ = attempts.delete()
        return count


class DeviceCookieMiddleware:
    """Give a browser that has just logged in its device cookie, and give back the turn
    its known device's try held. Placed just before axes' middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        device = getattr(request, "login_device", None)
        if device:
            cache.delete(_keys(device)[1])
        cookie = getattr(request, "login_device_cookie", None)
        if cookie:
            response.set_cookie(
                DEVICE_COOKIE,
                cookie,
                max_age=settings.LOGIN_DEVICE_DAYS * 24 * 60 * 60,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def login_refused(request, original_response=None, credentials=None):
    """Render the login page with why logging in is refused and when to try again (429)."""
    wait = getattr(request, "login_wait", 0)
    if wait > 0:
        retry = math.ceil(wait)
        refused = ngettext(
            "Wrong passwords on this device: wait %(seconds)d second before trying again.",
            "Wrong passwords on this device: wait %(seconds)d seconds before trying again.",
            retry,
        ) % {"seconds": retry}
    else:
        retry = math.ceil(get_cool_off(request).total_seconds())
        minutes = math.ceil(retry / 60)
        refused = ngettext(
            "Too many wrong passwords for this account or from this network. "
            "Logging in is locked: try again in %(minutes)d minute.",
            "Too many wrong passwords for this account or from this network. "
            "Logging in is locked: try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username")})
    next_url = request.POST.get("next") or request.GET.get("next", "")
    response = render(
        request,
        "registration/login.html",
        {"form": form, "next": next_url, "locked": refused},
        status=429,
    )
    response["Retry-After"] = str(retry)
    return response
