"""Tables, seats, players and the append-only event log every number is derived from;
clubs, their members, leagues and seasons that group tables into competitions."""

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


def new_key() -> str:
    """Make an unguessable access key (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


class Variant(models.TextChoices):
    GIN = "gin", _("Gin Rummy")
    RUMMY40 = "rummy40", _("Rummy40")
    RAMINO = "ramino", _("Ramino")
    KNOCK_RUMMY = "knock_rummy", _("Knock Rummy")


class Player(models.Model):
    """A person at a table: a display name, later optionally linked to an account."""

    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # Set for a club's roster; a casual table's seats have no club and need no unique names.
    club = models.ForeignKey(
        "Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="players",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                "club",
                condition=models.Q(club__isnull=False),
                name="player_unique_name_per_club",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(club__isnull=False, user__isnull=False),
                name="player_unique_user_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


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
        "Season",
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


class Club(Created):
    """A group of people who play together: members with roles, a roster, leagues."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    # Lets signed-in people outside the club see its page and its public leagues.
    public = models.BooleanField(_("public"), default=False)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.TextChoices):
    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    MEMBER = "member", _("Member")


class Membership(models.Model):
    """A user's place in a club; the owner and admins run it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(
        _("role"), max_length=10, choices=ClubRole.choices, default=ClubRole.MEMBER
    )
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
            # At most one owner; services keep at least one (ownership moves, never vanishes).
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(role=ClubRole.OWNER),
                name="membership_one_owner",
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=ClubRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role in (ClubRole.OWNER, ClubRole.ADMIN)


class Invite(Created):
    """A link that makes whoever opens it (signed in) a member, until it expires or is used up."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_key, editable=False)
    role = models.CharField(
        _("role"), max_length=10, choices=ClubRole.choices, default=ClubRole.MEMBER
    )
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveSmallIntegerField(_("uses allowed"), default=1)
    uses = models.PositiveSmallIntegerField(_("uses"), default=0)

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        ordering = ["-created_at"]
        constraints = [
            # Ownership is handed over, never given away by a link.
            models.CheckConstraint(
                condition=models.Q(role__in=[ClubRole.ADMIN, ClubRole.MEMBER]),
                name="invite_role_not_owner",
            ),
            models.CheckConstraint(condition=models.Q(max_uses__gte=1), name="invite_uses_allowed"),
            models.CheckConstraint(
                condition=models.Q(uses__lte=models.F("max_uses")), name="invite_not_overused"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} invite ({self.role}, {self.uses}/{self.max_uses})"


class Tiebreaker(models.TextChoices):
    HEAD_TO_HEAD = "head_to_head", _("Head to head")
    POINTS_DIFFERENCE = "points_difference", _("Points difference")
    HANDS_WON = "hands_won", _("Hands won")
    RATING = "rating", _("Rating")


class League(Created):
    """A club's competition in one game: its tables all play the same options and seats.

    ``options`` holds the engine's full options for ``players`` seats, validated and
    expanded when the league is made, so every table of the league plays exactly them
    (options depend on the player count, so a league fixes it).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=60)
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    players = models.PositiveSmallIntegerField(_("players per table"))
    preset = models.CharField(_("preset"), max_length=20, blank=True)
    options = models.JSONField(_("options"), default=dict)
    # Ordered Tiebreaker values, applied after points when standings tie.
    tiebreakers = models.JSONField(_("tiebreakers"), default=list, blank=True)
    # Lets anyone, signed in or not, see the league, its seasons and standings (read-only).
    public = models.BooleanField(_("public"), default=False)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="league_unique_slug"),
            models.CheckConstraint(
                condition=models.Q(variant__in=Variant.values), name="league_variant_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=6), name="league_players_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class Season(Created):
    """A league's period of play; closing it archives its tables read-only.

    The dates say when the season is played; its status decides what may still be recorded,
    so a match finished late can still be entered until an admin closes the season.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-starts_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_unique_name"),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="season_dates_ordered"
            ),
            # A closed season says when it closed; an open one has no such date.
            models.CheckConstraint(
                condition=models.Q(status="open", closed_at__isnull=True)
                | models.Q(status="closed", closed_at__isnull=False),
                name="season_closed_at_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class MatchResult(models.Model):
    """A league table's match as standings read it: a projection of its log, kept so that a
    recompute reads again only the logs that moved.

    ``seq`` and ``head_hash`` are the log's head it reflects; when the table's head moves
    on, the next recompute replays the log again. ``summary`` (``MatchSummary.to_record``,
    player keys are Player ids) is null while the match is unfinished; ``finished_at`` is
    the time of the logged event that finished it, which orders the matches for ratings.
    """

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="result"
    )
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("match result")
        verbose_name_plural = _("match results")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(finished_at__isnull=True, summary__isnull=True)
                | models.Q(finished_at__isnull=False, summary__isnull=False),
                name="match_result_finished_has_summary",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} @ {self.seq}"


class SeasonStandings(models.Model):
    """A season's standings and ratings as last computed, and the logs they reflect.

    ``rows`` are ``StandingRow.to_dict`` best first, ``player`` a Player id. ``ratings``
    maps each Player id rated in the league by the end of this season (ratings run on
    across a league's seasons) to its current rating and its points in this season's
    matches. ``reflects`` maps every finished, counted table of the season to the head seq
    read: a table finished, reopened or corrected since shows the standings are behind.
    """

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, primary_key=True, related_name="standings"
    )
    rows = models.JSONField(default=list)
    ratings = models.JSONField(default=dict)
    reflects = models.JSONField(default=dict)
    matches = models.PositiveIntegerField(_("matches counted"), default=0)
    computed_at = models.DateTimeField(_("computed"))

    class Meta:
        verbose_name = _("season standings")
        verbose_name_plural = _("season standings")

    def __str__(self) -> str:
        return f"{self.season} ({self.matches} matches)"


class RecomputeJob(Created):
    """One "recompute everything": every league log read again, every season's standings
    rebuilt; the admin page polls its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    total = models.PositiveIntegerField(_("tables"), default=0)
    done = models.PositiveIntegerField(_("tables read"), default=0)
    seasons = models.PositiveIntegerField(_("seasons recomputed"), default=0)
    error = models.TextField(_("error"), blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("recompute")
        verbose_name_plural = _("recomputes")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done__lte=models.F("total")), name="job_done_le_total"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["queued", "running", "done", "failed"]),
                name="job_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"recompute {self.pk} ({self.status}, {self.done}/{self.total})"

    @property
    def percent(self) -> int:
        """Return the share of tables read, for the progress bar (a job with no tables to
        read is at 0 until it is done)."""
        if not self.total:
            return 100 if self.status == self.Status.DONE else 0
        return self.done * 100 // self.total
