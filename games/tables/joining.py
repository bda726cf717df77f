"""Join tokens: how a phone that holds a role at a table lets another phone in.

Two kinds, both short-lived, both kept only as digests:

- a **link** ``/j/#<token>``: 32 random bytes, URL-safe (the QR codes carry it). The
  token rides after ``#``, which browsers never send: it reaches no server log and no
  Referer header. The page at ``/j/`` posts it (CSRF-checked) to be exchanged for the role
  in this phone's session. Links made before that, ``/j/<token>/``, still open the table
  (gunicorn's access log redacts their token: rummyref.access_log);
- a **code** of 6 characters typed at ``/join/``, shown as ``K7M-4QX``. Its alphabet,
  ``CODE_ALPHABET``, leaves out every character that reads as another on a screen or on
  paper: 0, O and Q; 1, I and L; 2 and Z; 5 and S; 8 and B; U (beside V). Typing ignores
  case, spaces and dashes.

A token grants the role it was made for, never more than its maker held: a viewer makes
viewer tokens only, and at a league table (where members record by signing in, and a key
only watches) every token is a viewer's. A token ends ``LIFETIME`` (12 hours) after it
was made or when the match ends, whichever comes first; but once a finished match's
rematch has started, its tokens open the newest table of the chain of rematches, with the
role they grant, while that table is in play: the QR code on the table and the codes
written down keep working for the evening's next matches. Expired tokens are deleted
whenever a new one is made (a finished table's stay until then: its rematch may follow).

A link stays **multi-use** for its lifetime: one QR code on the table is scanned by every
phone around it, and a link sent to a chat is opened by all of its readers. What made a
long-lived link dangerous was where it landed (access logs, Referer headers, history), and
the fragment keeps it out of all three; a one-use link would only make the table's players
queue for a new QR code each.

A link token is 256 random bits, so its digest is plain SHA-256 (as the table keys'). A
code has only 23^6 (about 2^27) values, so a plain hash of it could be reversed by
trying them all: its digest is an HMAC keyed with the SECRET_KEY instead, and a copy of
the database alone gives no live code. Guessing codes online is held back by the /join/
page's throttle.
"""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from games.clubs.models import Group
from games.shared.errors import ActionRefused
from games.shared.models import key_digest, new_key
from games.tables.access import Role
from games.tables.models import JoinToken, Table
from games.tables.selectors import table_newest

LIFETIME = timedelta(hours=12)
CODE_ALPHABET = "34679ACDEFGHJKMNPRTVWXY"
CODE_LENGTH = 6
# A new code or link clashing with a live one is made again; this many clashes in a row
# would mean the code space is nearly full, which the throttle and the expiry rule out.
MINT_TRIES = 8


class JoinRefused(Exception):
    """No live token matches: unknown, expired, or its match has ended."""


@dataclass(frozen=True)
class Minted:
    """A token just made: its secret exists only here (the maker's session keeps it sealed,
    games.pages.joining)."""

    secret: str
    role: Role
    kind: str
    expires_at: datetime


def code_normalize(text: str) -> str:
    """Return a typed code as stored: capitals, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch not in " -\t\u2010\u2011\u2012\u2013")


def code_display(code: str) -> str:
    """Return a code as shown: two groups of three (``K7M-4QX``)."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def token_digest(kind: str, secret: str) -> str:
    """Return what the database keeps of a token (see the module's note on codes)."""
    if kind == JoinToken.Kind.CODE:
        return salted_hmac("games.tables.joining.code", secret, algorithm="sha256").hexdigest()
    return key_digest(secret)


def link_path(secret: str) -> str:
    """Return a join link's address (without the host): the token after ``#``."""
    return f"{reverse('join-link')}#{secret}"


def _new_secret(kind: str) -> str:
    if kind == JoinToken.Kind.CODE:
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return new_key()


def _stronger(role: Role, holder: Role) -> bool:
    return role == Role.SCOREKEEPER and holder != Role.SCOREKEEPER


def join_tokens_expired_delete(*, now: datetime | None = None) -> int:
    """Delete the tokens that have expired. A finished table's are kept until then: once
    its rematch starts, they open that (``join_token_redeem``)."""
    now = now or timezone.now()
    return JoinToken.objects.filter(expires_at__lte=now).delete()[0]


def join_token_mint(
    *, table: Table | None = None, group: Group | None = None, holder: Role, role: Role, kind: str
) -> Minted:
    """Make a token granting ``role`` at ``table`` (or in ``group``: its member key's role
    is the scorekeeper's) for a phone that holds ``holder``."""
    if _stronger(role, holder):
        raise ActionRefused(gettext("A viewer can only invite viewers."))
    if table is not None and not table.keys_write and role == Role.SCOREKEEPER:
        raise ActionRefused(gettext("At a league table, members record by signing in."))
    if table is not None and table.status == Table.Status.FINISHED:
        raise ActionRefused(gettext("This match has ended: no new phones can join it."))
    now = timezone.now()
    join_tokens_expired_delete(now=now)
    expires_at = now + LIFETIME
    for _ in range(MINT_TRIES):
        secret = _new_secret(kind)
        try:
            with transaction.atomic():
                JoinToken.objects.create(
                    table=table,
                    group=group,
                    role=role,
                    kind=kind,
                    digest=token_digest(kind, secret),
                    expires_at=expires_at,
                )
        except IntegrityError:
            continue  # the same code is live elsewhere: draw another
        return Minted(secret=secret, role=role, kind=kind, expires_at=expires_at)
    raise RuntimeError("No free join code after several tries.")


# A token opens its group, or its table while the match is in play, or once the match is
# over the newest table of its rematches (which the redeeming checks is in play).
OPENS = (
    Q(group__isnull=False) | Q(table__status=Table.Status.OPEN) | Q(table__rematch__isnull=False)
)


def join_token_redeem(*, kind: str, secret: str) -> tuple[Table | Group, Role]:
    """Return the table (or group) and role a live token grants; JoinRefused if none.
    A finished table's token grants its role at the newest table of its rematches."""
    token = (
        JoinToken.objects.select_related("table", "group")
        .filter(OPENS, kind=kind, digest=token_digest(kind, secret), expires_at__gt=timezone.now())
        .first()
    )
    if token is None:
        raise JoinRefused
    if token.group is not None:
        return token.group, Role(token.role)
    table = table_newest(table=token.table)
    if table.status != Table.Status.OPEN:
        raise JoinRefused
    return table, Role(token.role)


def join_token_live(*, kind: str, secret: str, until: datetime) -> bool:
    """Tell whether a token still opens its table at ``until`` (a phone reusing its own)."""
    return JoinToken.objects.filter(
        OPENS, kind=kind, digest=token_digest(kind, secret), expires_at__gt=until
    ).exists()


def table_join_links(table: Table) -> dict[Role, Minted]:
    """Make a join link for each role, for the maker of a table just created."""
    return {
        role: join_token_mint(
            table=table, holder=Role.SCOREKEEPER, role=role, kind=JoinToken.Kind.LINK
        )
        for role in Role
    }
