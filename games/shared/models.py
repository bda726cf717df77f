"""What the parts' models share: keys, the games, who made a record and when."""

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from scoring.variants import GAMES


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


def game_choices() -> list[tuple[str, Any]]:
    """Return every game the engine knows as (key, name) choices, in the registry's order.

    A model field takes this function itself as its ``choices``: migrations record it by
    name, so a game added to the registry (scoring/variants/) needs no migration. The name is
    the game's own (GameRules.name), translated when shown (games/rules/game_words.py marks
    each for the catalogue).
    """
    return [(key, _(game.name)) for key, game in GAMES.items()]


def game_label(key: str) -> str:
    """Return the name of the game ``key`` in the active language (the key if unknown)."""
    game = GAMES.get(key)
    return str(_(game.name)) if game is not None else key


def game_is_named(field: str, name: str) -> models.CheckConstraint:
    """Refuse a row with no game. Which games exist is the registry's to say (the services
    refuse an unknown one by it), so that a new game needs no migration."""
    return models.CheckConstraint(condition=~models.Q(**{field: ""}), name=name)


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


class QueuedTask(models.Model):
    """A task queued in the same transaction as the write that calls for it (a transactional
    outbox): sent to the broker once that transaction commits, and deleted once sent. A row
    still here was not sent (the broker was away, or the process died between the commit and
    the send); ``outbox_drain`` sends it later, so no task a write called for is lost.
    """

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    queued_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.task}{tuple(self.args)}"
