"""This phone's keys: what a browser holds, and three ways to keep it when the phone changes.

A browser's session holds, per table and per group, the digest of the key whose role it
was given (``games.tables.access``). That is all a scorekeeper has, so a cleared browser
or a lost phone would lose every table. Three ways keep them:

- **an account** claims them (``keys_claim``): signing in on any device gives the browser
  the same roles again (``claimed_grants``);
- **another phone** takes them with a one-use code (``transfer_create`` /
  ``transfer_redeem``): 8 characters of the join codes' alphabet, good for 10 minutes and
  one redemption, kept as an HMAC digest like the join codes, guessed at most 10 times a
  minute per address (the page's throttle);
- **a recovery file** (``recovery_dump`` / ``recovery_read``): the grants signed with the
  ``SECRET_KEY``, so that only this server's own files load, and a copy of the database
  (which holds the same digests) cannot be turned into one.

Whatever way grants come back, they are checked against the tables and groups they name:
a grant that no longer matches a key opens nothing and is dropped.
"""

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from games.clubs.models import Group
from games.tables.access import (
    Role,
    group_role_for_digests,
    role_for_digests,
)
from games.tables.joining import CODE_ALPHABET, code_display, code_normalize
from games.tables.models import KeyClaim, KeyTransfer, Table

TRANSFER_LIFETIME = timedelta(minutes=10)
TRANSFER_CODE_LENGTH = 8
RECOVERY_FORMAT = "rummyref-keys"
RECOVERY_VERSION = 1
RECOVERY_SALT = "games.tables.keyring.recovery"
# A browser holds few keys; a file or a transfer naming more is not one of ours.
MAX_GRANTS = 2000


class KeysRefused(Exception):
    """A transfer code or recovery file that gives nothing: the message says why."""


@dataclass(frozen=True)
class Grants:
    """What a browser holds: table id -> key digest, group id -> key digest."""

    tables: Mapping[str, str] = field(default_factory=dict)
    groups: Mapping[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tables) + len(self.groups)

    def to_dict(self) -> dict:
        return {"tables": dict(self.tables), "groups": dict(self.groups)}

    @classmethod
    def from_dict(cls, data) -> "Grants":
        """Read grants from stored or signed data, keeping only well-formed entries."""
        if not isinstance(data, dict):
            return cls()
        tables, groups = data.get("tables"), data.get("groups")

        def entries(raw, valid_id) -> dict[str, str]:
            if not isinstance(raw, dict):
                return {}
            return {
                str(key): digest
                for key, digest in list(raw.items())[:MAX_GRANTS]
                if valid_id(key) and isinstance(digest, str) and len(digest) == 64
            }

        return cls(tables=entries(tables, _is_uuid), groups=entries(groups, _is_id))


def _is_uuid(text) -> bool:
    try:
        uuid.UUID(str(text))
    except ValueError:
        return False
    return True


def _is_id(text) -> bool:
    return str(text).isascii() and str(text).isdigit() and len(str(text)) <= 12


@dataclass(frozen=True)
class Held:
    """Grants checked against what they open: the tables and groups, with their roles."""

    tables: list[tuple[Table, Role]]
    groups: list[tuple[Group, Role]]


def grants_check(grants: Grants) -> Held:
    """Return the tables and groups the grants still open, with the role each gives."""
    tables = Table.objects.in_bulk(list(grants.tables)) if grants.tables else {}
    groups = Group.objects.in_bulk([int(pk) for pk in grants.groups]) if grants.groups else {}
    held_tables = []
    for pk, table in tables.items():
        role = role_for_digests(table, [grants.tables[str(pk)]])
        if role is not None:
            held_tables.append((table, role))
    held_groups = []
    for pk, group in groups.items():
        role = group_role_for_digests(group, [grants.groups[str(pk)]])
        if role is not None:
            held_groups.append((group, role))
    return Held(tables=held_tables, groups=held_groups)


# An account's claims -------------------------------------------------------------------


@transaction.atomic
def keys_claim(*, user, grants: Grants) -> int:
    """Let ``user``'s account hold every table and group the grants open; return how many
    it holds now. A claim already made keeps the stronger of the two roles."""
    if user is None or not user.is_authenticated:
        raise KeysRefused(gettext("Sign in first: the keys are kept in your account."))
    held = grants_check(grants)
    for target, role in [*held.tables, *held.groups]:
        where = {"group": target} if isinstance(target, Group) else {"table": target}
        claim = KeyClaim.objects.select_for_update().filter(user=user, **where).first()
        if claim is None:
            try:
                with transaction.atomic():
                    KeyClaim.objects.create(user=user, role=role, **where)
            except IntegrityError:
                continue  # claimed at the same moment from another device
        elif claim.role != role and role == Role.SCOREKEEPER:
            claim.role = role
            claim.save(update_fields=["role"])
    return KeyClaim.objects.filter(user=user).count()


def keys_claim_follow(*, user, table: Table, rematch: Table) -> None:
    """Let an account that holds ``table`` hold its ``rematch`` too, with the same role, so
    signing in elsewhere opens the match being played, not only the finished one."""
    if user is None or not user.is_authenticated:
        return
    claim = KeyClaim.objects.filter(user=user, table=table).first()
    if claim is None:
        return
    try:
        with transaction.atomic():
            KeyClaim.objects.get_or_create(user=user, table=rematch, defaults={"role": claim.role})
    except IntegrityError:
        pass  # claimed at the same moment by another of the account's phones


def claimed_grants(*, user) -> Grants:
    """Return the grants ``user``'s account holds, for a browser that signs in."""
    tables: dict[str, str] = {}
    groups: dict[str, str] = {}
    claims = KeyClaim.objects.filter(user=user).select_related("table", "group")
    for claim in claims:
        if claim.table is not None:
            table = claim.table
            digest = table.scorekeeper_digest if claim.role == Role.SCOREKEEPER else None
            tables[str(table.pk)] = digest or table.viewer_digest
        else:
            group = claim.group
            digest = group.member_digest if claim.role == Role.SCOREKEEPER else None
            groups[str(group.pk)] = digest or group.viewer_digest
    return Grants(tables=tables, groups=groups)


# Moving to another phone -----------------------------------------------------------------


def _transfer_digest(code: str) -> str:
    # 23^8 codes: an HMAC keyed with the SECRET_KEY, so a copy of the database gives no code.
    return salted_hmac("games.tables.keyring.transfer", code, algorithm="sha256").hexdigest()


@dataclass(frozen=True)
class Transfer:
    code: str
    expires_at: datetime

    @property
    def shown(self) -> str:
        return code_display(self.code)


def transfer_create(*, grants: Grants) -> Transfer:
    """Make a one-use code that hands ``grants`` to the phone that types it."""
    if not len(grants):
        raise KeysRefused(gettext("This phone holds no tables or groups to move."))
    now = timezone.now()
    KeyTransfer.objects.filter(expires_at__lte=now).delete()
    expires_at = now + TRANSFER_LIFETIME
    for _ in range(8):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(TRANSFER_CODE_LENGTH))
        try:
            with transaction.atomic():
                KeyTransfer.objects.create(
                    digest=_transfer_digest(code), grants=grants.to_dict(), expires_at=expires_at
                )
        except IntegrityError:
            continue
        return Transfer(code=code, expires_at=expires_at)
    raise RuntimeError("No free transfer code after several tries.")


@transaction.atomic
def transfer_redeem(*, code: str) -> Grants:
    """Return the grants a live code hands over, and use the code up; KeysRefused if none."""
    code = code_normalize(code)
    transfer = (
        KeyTransfer.objects.select_for_update()
        .filter(digest=_transfer_digest(code), used_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if transfer is None:
        raise KeysRefused(gettext("No keys wait under that code: codes work once, for 10 minutes."))
    transfer.used_at = timezone.now()
    grants = Grants.from_dict(transfer.grants)
    # Used up: nothing of what it handed over stays behind in the row.
    transfer.grants = {}
    transfer.save(update_fields=["used_at", "grants"])
    return grants


# A recovery file ------------------------------------------------------------------------


def recovery_dump(*, grants: Grants, now: datetime | None = None) -> dict:
    """Return the recovery file's contents: the grants and what the file says of them (when
    it was made, how many tables and groups), all signed by this server."""
    made = (now or timezone.now()).isoformat(timespec="seconds")
    shown = {"made": made, "tables": len(grants.tables), "groups": len(grants.groups)}
    signed = {**grants.to_dict(), "shown": shown}
    return {
        "format": RECOVERY_FORMAT,
        "version": RECOVERY_VERSION,
        **shown,
        "keys": signing.dumps(signed, salt=RECOVERY_SALT, compress=True),
    }


# Every part of a recovery file; anything else is a change made outside this server.
RECOVERY_PARTS = frozenset({"format", "version", "made", "tables", "groups", "keys"})


def _shown(value) -> str:
    """Return a file's value as a short text fit to show: at most 10 characters, and a lone
    surrogate (which JSON may carry but no page can be written in) made a question mark."""
    return str(value)[:10].encode("utf-8", "replace").decode("utf-8")


def recovery_read(data) -> Grants:
    """Return the grants of a recovery file's contents; KeysRefused saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") != RECOVERY_FORMAT:
        raise KeysRefused(gettext("This is not a RummyRef recovery file."))
    if data.get("version") != RECOVERY_VERSION:
        raise KeysRefused(
            gettext("This recovery file is of version %(version)s, which this server cannot read.")
            % {"version": _shown(data.get("version"))}
        )
    keys = data.get("keys")
    if not isinstance(keys, str):
        raise KeysRefused(gettext("This recovery file has no keys in it."))
    changed = KeysRefused(
        gettext("This recovery file was changed, or made by another server: it opens nothing.")
    )
    try:
        signed = signing.loads(keys, salt=RECOVERY_SALT)
    except signing.BadSignature:
        raise changed from None
    grants = Grants.from_dict(signed)
    # What the file shows must be what was signed: a file made before the date was signed
    # still has its counts checked against its keys.
    shown = signed.get("shown") if isinstance(signed, dict) else None
    if not isinstance(shown, dict):
        shown = {
            "tables": len(grants.tables),
            "groups": len(grants.groups),
            "made": data.get("made"),
        }
    if set(data) - RECOVERY_PARTS or any(
        (type(data.get(part)), data.get(part)) != (type(value), value)
        for part, value in shown.items()
    ):
        raise changed
    return grants
