"""This phone's keys (``/keys/``): keep them in an account, move them to another phone with
a one-use code, or save them in a recovery file and load it back.

Codes never travel in a path or a query string: the QR code of a move carries the code
after ``#``, which browsers never send, and the page's script copies it into the form.
"""

import json
import logging

from django.contrib.auth.signals import user_logged_in
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.pages.forms.keyring import RecoveryFileForm, TransferCodeForm
from games.pages.joining import qr_svg
from games.shared.throttles import CountedRateThrottle, code_try_refusal
from games.tables import keyring
from games.tables.access import (
    session_group_grants,
    session_remember,
    session_remember_group,
    session_table_grants,
)

logger = logging.getLogger(__name__)


class TransferThrottle(CountedRateThrottle):
    """Tries of a move code per client address (TRANSFER_THROTTLE, default 10/min), counted
    in the shared cache like /join/'s; a code that hands keys over gives its place back."""

    scope = "transfer"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def _held(request) -> keyring.Grants:
    return keyring.Grants(
        tables=session_table_grants(request), groups=session_group_grants(request)
    )


def _take(request, grants: keyring.Grants) -> str:
    """Give this browser every role the grants still open; say what came, in words."""
    held = keyring.grants_check(grants)
    for table, role in held.tables:
        session_remember(request, table, role)
    for group, role in held.groups:
        session_remember_group(request, group, role)
    return came_text(len(held.tables), len(held.groups))


def came_text(tables: int, groups: int) -> str:
    """Say what came to this phone: "1 table and 2 groups came to this phone."."""
    parts = [
        ngettext("%(count)s table", "%(count)s tables", tables) % {"count": tables}
        if tables
        else "",
        ngettext("%(count)s group", "%(count)s groups", groups) % {"count": groups}
        if groups
        else "",
    ]
    parts = [part for part in parts if part]
    if not parts:
        return gettext("Nothing came to this phone: the keys open no table or group here.")
    what = (
        parts[0]
        if len(parts) == 1
        else gettext("%(first)s and %(second)s")
        % {
            "first": parts[0],
            "second": parts[1],
        }
    )
    return gettext("%(what)s came to this phone.") % {"what": what}


def claims_on_login(sender, request, user, **kwargs) -> None:
    """Give a browser that signs in the roles its account holds."""
    if request is not None and hasattr(request, "session"):
        _take(request, keyring.claimed_grants(user=user))


def connect() -> None:
    user_logged_in.connect(claims_on_login, dispatch_uid="games.pages.keyring.claims_on_login")


def _page(request, *, status: int = 200, **extra):
    held = keyring.grants_check(_held(request))
    tables = [table for table, _role in held.tables]
    # Each table is listed with its players' names, read in one query.
    prefetch_related_objects(tables, "seats__player")
    context = {
        "held_tables": tables,
        "held_groups": [group for group, _role in held.groups],
        "code_form": TransferCodeForm(),
        "file_form": RecoveryFileForm(),
        **extra,
    }
    return render(request, "keys/keys.html", context, status=status)


@require_safe
@never_cache
def keyring_page(request):
    """Show what this phone holds and the three ways to keep it."""
    return _page(request)


@require_POST
def keys_claim_view(request):
    """Keep every table and group this browser holds in the signed-in account."""
    try:
        count = keyring.keys_claim(user=request.user, grants=_held(request))
    except keyring.KeysRefused as exc:
        return _page(request, status=403, claim_error=str(exc))
    return _page(request, claimed=count)


@require_POST
@never_cache
def keys_move(request):
    """Make a one-use code (and its QR code) that hands this phone's keys to another."""
    try:
        transfer = keyring.transfer_create(grants=_held(request))
    except keyring.KeysRefused as exc:
        return _page(request, status=409, move_error=str(exc))
    receive_url = request.build_absolute_uri(reverse("keys-receive"))
    return _page(
        request,
        transfer=transfer,
        transfer_qr=qr_svg(f"{receive_url}#{transfer.code}", _("Move code")),
        receive_url=receive_url,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def keys_receive(request):
    """Type (or scan) another phone's move code: its keys come to this phone."""
    form = TransferCodeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        throttle = TransferThrottle()
        refused = code_try_refusal(request, form, throttle, field="code")
        if refused:
            status = refused
        else:
            try:
                grants = keyring.transfer_redeem(code=form.cleaned_data["code"])
            except keyring.KeysRefused as exc:
                logger.info("Move code refused from %s", throttle.get_ident(request))
                form.add_error("code", str(exc))
                status = 404
            else:
                throttle.give_back()
                count = _take(request, grants)
                return _page(request, received=count)
    return render(request, "keys/receive.html", {"form": form}, status=status)


@require_safe
@never_cache
def recovery_download(request):
    """Download this browser's keys as a small file, to load back on any phone."""
    contents = keyring.recovery_dump(grants=_held(request))
    response = HttpResponse(
        json.dumps(contents, indent=1) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="rummyref-keys.json"'
    return response


@require_POST
@never_cache
def recovery_load(request):
    """Load a recovery file: its tables and groups come back to this phone."""
    form = RecoveryFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, status=400, file_form=form)
    try:
        grants = keyring.recovery_read(form.cleaned_data["contents"])
    except keyring.KeysRefused as exc:
        form.add_error("file", str(exc))
        return _page(request, status=400, file_form=form)
    return _page(request, received=_take(request, grants))
