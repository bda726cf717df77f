"""Joining a table from another phone: a join link (``/j/#<token>``, the QR codes), a code
typed at ``/join/``, and the share block that hands them out; links made before the
fragment (``/j/<token>/``) and old key links still open their table.

A join link carries its token after ``#``: browsers send no fragment, so the token reaches
no server (nor its access log) and no Referer header. The ``/j/`` page's script reads it,
drops it from the address bar and posts it (CSRF-checked) to ``/j/``, which gives the phone
the role; without JavaScript the same page asks for the link (or the code) to be pasted.
Links stay multi-use until they expire (games.tables.joining says why).

However a phone joins, its session gets the role (``access.session_remember``: a digest)
and the phone is sent to the table's own address: no key or token stays in the address
bar, in the history or in a Referer header. A refused join is logged with the table (when
known) and the client's address, never with what was tried.

The share block shows the same link and code each time it is drawn (one QR code on the
table, codes printed on a tournament night's cards), so the maker's session remembers them;
but sealed, never in clear: encrypted with Fernet (``cryptography``: AES with an HMAC, so a
changed value is refused, not misread) under a key derived from the SECRET_KEY. A copy of
the session store alone gives no live token.
"""

import base64
import logging
from datetime import datetime, timedelta

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from games.clubs.models import Group
from games.demo import DEMO_IDS
from games.pages.forms.joining import NO_LINK, NO_TABLE, JoinCodeForm, JoinLinkForm
from games.pages.tables import with_table
from games.shared.models import key_digest
from games.shared.throttles import CountedRateThrottle, code_try_refusal
from games.tables import joining
from games.tables.access import (
    Role,
    is_club_member,
    role_for_digests,
    session_remember,
    session_remember_group,
)
from games.tables.models import JoinToken, Table

logger = logging.getLogger(__name__)

# This phone's own live tokens, "<table>:<role>:<kind>" -> [sealed secret, expiry]:
# the share block shows them again instead of making new ones each time it is opened.
SESSION_TOKENS = "join_tokens_sealed"
# Sessions from before the sealing held the secrets themselves: dropped when next seen.
LEGACY_SESSION_TOKENS = "join_tokens"
SEAL_SALT = "games.pages.joining.seal"
# A token this close to its end is not shown again: a new one is made instead.
REUSE_MARGIN = timedelta(hours=1)
# Why /join/ was opened by a refused link (?refused=...): said above the code box.
REFUSED_LINK = "link"


class JoinThrottle(CountedRateThrottle):
    """Wrong code tries per client address (JOIN_THROTTLE, default 10/min), counted in the
    shared cache, so every app process counts together.

    Each try takes its place before the code is looked up, so tries sent in parallel cannot
    pass the rate; a code that opens a table gives its place back: a club's phones behind
    one Wi-Fi address all join at once without using each other's tries."""

    scope = "join"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def _client(request) -> str:
    return JoinThrottle().get_ident(request)


def _joined(request, target: Table | Group, role: Role):
    if isinstance(target, Group):
        session_remember_group(request, target, role)
        return redirect("group", group_id=target.pk)
    session_remember(request, target, role)
    return redirect("table", table_id=target.id)


def _refused():
    return redirect(f"{reverse('join')}?refused={REFUSED_LINK}")


@require_safe  # HEAD too: a link preview's HEAD would be a 405 logged with the path
@never_cache
def table_join(request, table_id, key):
    """Open a table from a key link shared before keys were hashed; nothing makes these now."""
    try:
        table = Table.objects.filter(pk=table_id).first()
    except ValidationError:  # not a UUID
        table = None
    role = role_for_digests(table, [key_digest(key)]) if table else None
    if role is None:
        # Only an id that names a table: the path is the visitor's to fill with anything.
        where = table.pk if table else "(none)"
        logger.info("Key link refused at table %s from %s", where, _client(request))
        return _refused()
    return _joined(request, table, role)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def link_join_page(request):
    """Open a table or a group from a join link (``/j/#<token>``, a QR code): the page's
    script posts the token; without it, the link (or the code) is pasted in its form.
    Tries are counted per client, as at /join/."""
    form = JoinLinkForm(request.POST or None)
    status, refusal = 200, ""
    if request.method == "POST":
        throttle = JoinThrottle()
        refused = code_try_refusal(request, form, throttle, field="link")
        if refused:
            status = refused
        else:
            kind, secret = form.cleaned_data["link"]
            try:
                target, role = joining.join_token_redeem(kind=kind, secret=secret)
            except joining.JoinRefused:
                logger.info("Join link refused from %s", _client(request))
                form = JoinLinkForm()  # the refused token is not written back into the page
                refusal = NO_LINK if kind == JoinToken.Kind.LINK else NO_TABLE
                status = 404
            else:
                throttle.give_back()  # a link that opens a table does not count
                return _joined(request, target, role)
    return render(request, "join/link.html", {"form": form, "refusal": refusal}, status=status)


@require_safe  # HEAD too: a link preview's HEAD would be a 405 logged with the path
@never_cache
def link_join(request, token):
    """Open a table or a group from a join link made before the token moved after ``#``
    (``/j/<token>/``): the role goes to this phone, which is sent on at once to an address
    without the token (the access log redacts it: rummyref.access_log)."""
    try:
        target, role = joining.join_token_redeem(kind=JoinToken.Kind.LINK, secret=token)
    except joining.JoinRefused:
        logger.info("Join link refused from %s", _client(request))
        return _refused()
    return _joined(request, target, role)


@require_safe
@never_cache
def demo_join(request, table_id):
    """Open a demo table as its scorekeeper, on a local run only (DEBUG): the home page lists
    them for a first look, and nobody holds their keys."""
    table = Table.objects.filter(pk=table_id).first() if settings.DEBUG else None
    if table is None or table.pk not in DEMO_IDS:
        raise Http404
    return _joined(request, table, Role.SCOREKEEPER)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def code_join(request):
    """Type a table's (or a group's) code and land on it; tries are throttled per client."""
    form = JoinCodeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        throttle = JoinThrottle()
        refused = code_try_refusal(request, form, throttle)
        if refused:
            status = refused
        else:
            try:
                target, role = joining.join_token_redeem(
                    kind=JoinToken.Kind.CODE, secret=form.cleaned_data["code"]
                )
            except joining.JoinRefused:
                logger.info("Join code refused from %s", _client(request))
                form.add_error("code", NO_TABLE)
                status = 404
            else:
                throttle.give_back()  # a code that opens a table does not count
                return _joined(request, target, role)
    context = {"form": form, "refused_link": request.GET.get("refused") == REFUSED_LINK}
    return render(request, "join/join.html", context, status=status)


def _share_roles(request, table: Table, role: Role) -> list[Role]:
    """Return the roles a phone holding ``role`` may hand out at ``table`` (in play)."""
    if not table.keys_write:
        # Members record at a league table by signing in; anyone else is let in to watch,
        # and only by a member. (A tournament night's table is shared as a casual one.)
        member = is_club_member(request.user, table.season.league.club_id)
        return [Role.VIEWER] if member else []
    return [Role.SCOREKEEPER, Role.VIEWER] if role == Role.SCOREKEEPER else [Role.VIEWER]


def _sealer() -> Fernet:
    key = salted_hmac(SEAL_SALT, "fernet-key", algorithm="sha256").digest()
    return Fernet(base64.urlsafe_b64encode(key))


def _seal(secret: str) -> str:
    """Return ``secret`` sealed for the session (see the module's note)."""
    return _sealer().encrypt(secret.encode()).decode()


def _unseal(sealed: str) -> str | None:
    """Return the secret ``_seal`` sealed, or None if it cannot be read (a SECRET_KEY
    rotated since, or a changed value: the phone then gets a new token)."""
    try:
        return _sealer().decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError, UnicodeDecodeError):
        return None


def _own_token(request, target: Table | Group, holder: Role, grant: Role, kind: str) -> str:
    """Return this phone's live token granting ``grant`` at a table or in a group, made now
    if it has none."""
    now = timezone.now()
    request.session.pop(LEGACY_SESSION_TOKENS, None)
    tokens = request.session.get(SESSION_TOKENS, {})
    is_group = isinstance(target, Group)
    slot = f"{'g' if is_group else ''}{target.pk}:{grant}:{kind}"
    if slot in tokens:
        sealed, expires = tokens[slot]
        secret = _unseal(sealed)
        still = datetime.fromisoformat(expires) > now + REUSE_MARGIN
        if secret and still and joining.join_token_live(kind=kind, secret=secret, until=now):
            return secret
    where = {"group": target} if is_group else {"table": target}
    minted = joining.join_token_mint(**where, holder=holder, role=grant, kind=kind)
    tokens = {s: v for s, v in tokens.items() if datetime.fromisoformat(v[-1]) > now}
    tokens[slot] = [_seal(minted.secret), minted.expires_at.isoformat()]
    request.session[SESSION_TOKENS] = tokens
    return minted.secret


def qr_svg(link: str, title: str) -> str:
    # Made here, drawn inline: no image request, nothing the CSP has to allow (no styles).
    # segno is imported here, when a code is drawn: about 10 MiB in every web worker else.
    import segno

    svg = segno.make(link, error="m").svg_inline(border=2, omitsize=True, title=title)
    return mark_safe(svg)


def share_context(request: HttpRequest, target: Table | Group, role: Role) -> dict:
    """Return what the share block shows: per role this phone may hand out, a QR code of a
    join link, the link and the short code; or that the match has ended; or nothing."""
    if isinstance(target, Group):
        grants = [Role.SCOREKEEPER, Role.VIEWER] if role == Role.SCOREKEEPER else [Role.VIEWER]
    elif target.status == Table.Status.FINISHED:
        return {"ended": True}
    else:
        grants = _share_roles(request, target, role)
    invites = []
    for grant in grants:
        token = _own_token(request, target, role, grant, JoinToken.Kind.LINK)
        link = request.build_absolute_uri(joining.link_path(token))
        code = _own_token(request, target, role, grant, JoinToken.Kind.CODE)
        title = _("Scorekeeper link") if grant == Role.SCOREKEEPER else _("Viewer link")
        invites.append(
            {
                "role": str(grant),
                "link": link,
                "qr": qr_svg(link, title),
                "code": joining.code_display(code),
            }
        )
    if not invites:
        return {}
    return {"invites": invites, "join_url": request.build_absolute_uri(reverse("join"))}


@require_safe
@never_cache  # join links and codes: no cache may keep them
@with_table()
def table_share(request, table, role):
    """Show the share block's contents: asked for when the block is opened (htmx), so links
    and codes are made only for a phone that means to hand them out; without JavaScript, a
    page of its own."""
    context = {"table": table, **share_context(request, table, role)}
    template = "tables/_share.html#body" if request.htmx else "join/share.html"
    return render(request, template, context)
