"""Tables, seats and the append-only event log every number is derived from."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Player, Season
from games.shared.models import Variant, new_key


class Table(models.Model):
    """One match at one real table; its log is the truth, the columns here mirror it."""

    class Status(models.TextChoices):
        OPEN = "open", _("In play")
        FINISHED = "finished", _("Finished")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    preset = models.CharField(_("preset"), max_length=20, blank=True)
    options = models.JSONField(_("options"), default=dict)
    target = models.PositiveIntegerField(_("target"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    scorekeeper_key = models.CharField(max_length=64, unique=True, default=new_key, editable=False)
    viewer_key = models.CharField(max_length=64, unique=True, default=new_key, editable=False)
    head_seq = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A league table: it plays the league's options and is private to the club.
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
    )
    # The one place standings ask: set at creation from the form or the options' "practice".
    practice = models.BooleanField(_("practice"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(scorekeeper_key=models.F("viewer_key")),
                name="table_keys_differ",
            ),
            models.CheckConstraint(condition=models.Q(target__gte=1), name="table_target_positive"),
            # Options that say practice (RAM-OPT-PRACTICE) always make a practice table.
            models.CheckConstraint(
                condition=~models.Q(options__practice=True) | models.Q(practice=True),
                name="table_practice_option_marks_practice",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} {str(self.id)[:8]}"


class Seat(models.Model):
    """A player's place at a table; position 0 is the first seat."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.position}"


class ImmutableEventError(Exception):
    """Raised on any attempt to change or remove a logged event."""


class EventQuerySet(models.QuerySet):
    """Events are append-only: bulk updates and deletes are refused before reaching SQL."""

    def update(self, **kwargs):
        raise ImmutableEventError("Events are never updated; append a correction instead.")

    def delete(self):
        raise ImmutableEventError("Events are never deleted; append a correction instead.")


class Event(models.Model):
    """One entry of a table's append-only log, hash-chained to the one before it."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    event_id = models.UUIDField(unique=True)
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    schema_version = models.PositiveSmallIntegerField(default=1)
    entered_by = models.CharField(max_length=80, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64, blank=True)
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.seq} {self.type}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableEventError("Events are never updated; append a correction instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEventError("Events are never deleted; append a correction instead.")


class TableProjection(models.Model):
    """The cached replay of a table's log; disposable, rebuilt by ``rebuild_projections``."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="projection"
    )
    seq = models.PositiveIntegerField()
    state = models.JSONField()
    verified_seq = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.table_id} @ {self.seq}"
