"""Tables, seats and the append-only event log every number is derived from."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Group, Player, Season
from games.shared.models import digest_field, digest_is_full, game_choices, key_digest, new_key


class Table(models.Model):
    """One match at one real table; its log is the truth, the columns here mirror it."""

    class Status(models.TextChoices):
        OPEN = "open", _("In play")
        FINISHED = "finished", _("Finished")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    variant = models.CharField(_("game"), max_length=20, choices=game_choices)
    preset = models.CharField(_("preset"), max_length=20, blank=True)
    options = models.JSONField(_("options"), default=dict)
    target = models.PositiveIntegerField(_("target"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    # Only the keys' digests are kept: a copy of the database opens no table. The keys
    # themselves exist once, on the instance that made them (``keys_issue``).
    scorekeeper_digest = digest_field()
    viewer_digest = digest_field()
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
    # A group's table: its players are the group's, and the group's member key records here.
    group = models.ForeignKey(
        Group,
        verbose_name=_("group"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
    )
    # The table an imported log was exported from (another server's id, or this one's): a
    # file is imported once.
    imported_from = models.UUIDField(_("imported from"), null=True, blank=True, unique=True)
    # A league table whose keys record as at a casual table while its season is open: a
    # tournament night's table, whose key the director hands out on its table card. At other
    # league tables keys only watch and members record.
    keys_record = models.BooleanField(_("its keys record"), default=False)
    # The one place standings ask: set at creation from the form or the options' "practice".
    practice = models.BooleanField(_("practice"), default=False)
    # The finished table this one is the rematch of. One-to-one: a finished table has one
    # rematch at most, whichever phone taps it and however often (services.table_rematch);
    # its phones and its join links follow the chain to the newest table.
    rematch_of = models.OneToOneField(
        "self",
        verbose_name=_("rematch of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rematch",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(scorekeeper_digest=models.F("viewer_digest")),
                name="table_keys_differ",
            ),
            digest_is_full("scorekeeper_digest", "table_scorekeeper_digest_full"),
            digest_is_full("viewer_digest", "table_viewer_digest_full"),
            models.CheckConstraint(condition=models.Q(target__gte=1), name="table_target_positive"),
            models.CheckConstraint(
                condition=models.Q(keys_record=False) | models.Q(season__isnull=False),
                name="table_keys_record_only_in_a_season",
            ),
            # A group plays casual tables: a league table is the club's.
            models.CheckConstraint(
                condition=models.Q(group__isnull=True) | models.Q(season__isnull=True),
                name="table_group_or_season",
            ),
            # Options that say practice (RAM-OPT-PRACTICE) always make a practice table.
            models.CheckConstraint(
                condition=~models.Q(options__practice=True) | models.Q(practice=True),
                name="table_practice_option_marks_practice",
            ),
            models.CheckConstraint(
                condition=~models.Q(rematch_of=models.F("id")), name="table_not_its_own_rematch"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} {str(self.id)[:8]}"

    def save(self, *args, **kwargs):
        if self._state.adding and not self.scorekeeper_digest:
            self.keys_issue()
        super().save(*args, **kwargs)

    @property
    def keys_write(self) -> bool:
        """Tell whether a scorekeeper key records here: at a casual table, and at a
        tournament night's league table while its season is open."""
        return self.season_id is None or (self.keys_record and self.season.is_open)

    def keys_issue(self) -> None:
        """Make the table's two keys: their digests go to the row, the keys stay on this
        instance only (``scorekeeper_key``, ``viewer_key``) for whoever made the table."""
        self.scorekeeper_key, self.viewer_key = new_key(), new_key()
        self.scorekeeper_digest = key_digest(self.scorekeeper_key)
        self.viewer_digest = key_digest(self.viewer_key)


class JoinToken(models.Model):
    """A short-lived way in to a table or a group that a phone holding a role hands to
    another phone: a link (``/j/<token>/``, 256 random bits) or a code typed at ``/join/``
    (6 characters).

    Only the digest is kept. Either way in ends at ``expires_at`` (12 hours after it was
    made) or, for a table, when the match ends, whichever comes first
    (``games.tables.joining``). At a group, the scorekeeper role is its member key's."""

    class Kind(models.TextChoices):
        LINK = "link", _("link")
        CODE = "code", _("code")

    class Grants(models.TextChoices):
        # The values of games.tables.access.Role, which imports this module.
        SCOREKEEPER = "scorekeeper", _("scorekeeper")
        VIEWER = "viewer", _("viewer")

    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="join_tokens"
    )
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="join_tokens"
    )
    role = models.CharField(max_length=12, choices=Grants.choices)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    # Unique over every row: two live codes can never be the same; a clash is made again.
    digest = digest_field()
    expires_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=["scorekeeper", "viewer"]), name="join_token_role"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=["link", "code"]), name="join_token_kind"
            ),
            digest_is_full("digest", "join_token_digest_full"),
            # A token opens one thing: a table or a group.
            models.CheckConstraint(
                condition=models.Q(table__isnull=False, group__isnull=True)
                | models.Q(table__isnull=True, group__isnull=False),
                name="join_token_one_target",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id or self.group_id} {self.kind} ({self.role})"


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


class KeyClaim(models.Model):
    """An account's hold on a table or a group whose key a browser of it held: signing in
    on any device gives that browser the role again (``games.tables.keyring``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="key_claims"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="claims"
    )
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="claims"
    )
    role = models.CharField(max_length=12, choices=JoinToken.Grants.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table__isnull=False, group__isnull=True)
                | models.Q(table__isnull=True, group__isnull=False),
                name="key_claim_one_target",
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=["scorekeeper", "viewer"]), name="key_claim_role"
            ),
            models.UniqueConstraint(
                fields=["user", "table"],
                condition=models.Q(table__isnull=False),
                name="key_claim_unique_table",
            ),
            models.UniqueConstraint(
                fields=["user", "group"],
                condition=models.Q(group__isnull=False),
                name="key_claim_unique_group",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.table_id or self.group_id} ({self.role})"


class KeyTransfer(models.Model):
    """A one-use code that hands every key a browser holds to another phone: made by the
    old phone, redeemed once by the new one within minutes. The code is kept as an HMAC
    digest; ``grants`` are the key digests the old phone's session held."""

    digest = digest_field()
    grants = models.JSONField(default=dict)
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [digest_is_full("digest", "key_transfer_digest_full")]

    def __str__(self) -> str:
        return f"transfer {self.pk} (until {self.expires_at:%H:%M})"


class SharedResult(models.Model):
    """A finished match's public result page, opened by its own unguessable address.

    The address is no key: it opens a read-only page of the result (totals, winner, hands)
    and nothing else, which is why it is kept as it is, to be shown again to the table's
    scorekeepers. Revoking it makes the address answer 404; sharing again makes a new one.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="shares")
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One live address a table: sharing again while one is live shows that one.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(revoked_at__isnull=True),
                name="shared_result_one_live",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} shared ({'revoked' if self.revoked_at else 'live'})"


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


class ImmutableCheckpointError(Exception):
    """Raised on any attempt to change or remove a checkpoint."""


class CheckpointQuerySet(models.QuerySet):
    """Checkpoints are append-only, as the log is: refused before reaching SQL."""

    def update(self, **kwargs):
        raise ImmutableCheckpointError("Checkpoints are never updated; take a new one.")

    def delete(self):
        raise ImmutableCheckpointError("Checkpoints are never deleted.")


class Checkpoint(models.Model):
    """A table's head and seating as the nightly audit found them, signed with the log's key.

    The log's chain proves each event follows the one before; it cannot prove that no event
    was removed from the end, nor who sits in a seat of a table whose log began without its
    seating. A checkpoint anchors both: a log now shorter than, or different at, a checkpointed
    head, or a seat whose player changed since, is found (``games.tables.audit``). The
    signature is an HMAC keyed with LOG_CHAIN_KEY, so the owner of the schema cannot write one
    that verifies. One row a table a night, and only when something changed since its last.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="checkpoints")
    taken_at = models.DateTimeField()
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    # The seats' player ids in seat order (a player renamed is still the same player).
    seating = models.JSONField()
    signature = models.CharField(max_length=64)

    objects = CheckpointQuerySet.as_manager()

    class Meta:
        ordering = ["table", "-taken_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "taken_at"], name="checkpoint_unique_time"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} @ {self.seq} ({self.taken_at:%Y-%m-%d %H:%M})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableCheckpointError("Checkpoints are never updated; take a new one.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableCheckpointError("Checkpoints are never deleted.")
