"""What the parts' models share: keys, the games, who made a record and when."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _


def new_key() -> str:
    """Make an unguessable access key (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def key_digest(key: str) -> str:
    """Return the SHA-256 (hex) of a key: what the database keeps instead of the key."""
    # A fast, unpeppered hash is right here: a key is 256 random bits, so nobody can find it
    # by hashing guesses, however fast. Slow hashes and peppers protect guessable secrets
    # (passwords, short codes), and would only slow every request that presents a key.
    return hashlib.sha256(key.encode()).hexdigest()


DIGEST_LENGTH = 64  # SHA-256 in hex; a key itself is 43 characters, so one can never pass


def digest_field() -> models.CharField:
    """Return a column for the SHA-256 of a secret, looked up by its unique index."""
    return models.CharField(max_length=DIGEST_LENGTH, unique=True, editable=False)


def digest_is_full(field: str, name: str) -> models.CheckConstraint:
    """Refuse anything but a full digest in ``field`` (a plaintext key above all)."""
    return models.CheckConstraint(condition=Exact(Length(field), DIGEST_LENGTH), name=name)


class Variant(models.TextChoices):
    GIN = "gin", _("Gin Rummy")
    RUMMY40 = "rummy40", _("Rummy40")
    RAMINO = "ramino", _("Ramino")
    KNOCK_RUMMY = "knock_rummy", _("Knock Rummy")


class Created(models.Model):
    """Who made a club's record and when; the record outlives its maker's account."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        abstract = True
