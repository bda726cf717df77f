"""What the parts' models share: keys, the games, who made a record and when."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_key() -> str:
    """Make an unguessable access key (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


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
