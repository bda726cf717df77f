"""Clubs, their members and roster, leagues and seasons that group tables into competitions."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.shared.models import (
    Created,
    digest_field,
    digest_is_full,
    game_choices,
    game_is_named,
    key_digest,
    new_key,
)


class Group(Created):
    """A circle of people who play together without a club: a family, friends, a bar's
    regulars. Like a table it is opened by keys: its member key starts tables and records
    at them, its viewer key only watches; only their digests are kept.

    A group's players and a club's roster are one notion, the same person from week to
    week: a ``Player`` that belongs to one group or one club (never both), seated at every
    table of it, so stats follow the person and not a typed name.
    """

    name = models.CharField(_("name"), max_length=60)
    # The game and options the group's next table offers first: a "new table" form's values.
    variant = models.CharField(_("game"), max_length=20, choices=game_choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    member_digest = digest_field()
    viewer_digest = digest_field()

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(member_digest=models.F("viewer_digest")),
                name="group_keys_differ",
            ),
            digest_is_full("member_digest", "group_member_digest_full"),
            digest_is_full("viewer_digest", "group_viewer_digest_full"),
            game_is_named("variant", "group_variant_named"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if self._state.adding and not self.member_digest:
            self.keys_issue()
        super().save(*args, **kwargs)

    def keys_issue(self) -> None:
        """Make the group's two keys: digests to the row, the keys on this instance only
        (``member_key``, ``viewer_key``) for whoever made the group."""
        self.member_key, self.viewer_key = new_key(), new_key()
        self.member_digest = key_digest(self.member_key)
        self.viewer_digest = key_digest(self.viewer_key)


class Player(models.Model):
    """A person at a table: a display name, later optionally linked to an account.

    A player of a club's roster or of a group is the same person at every table of it; a
    casual table's one-off names have neither. Retired players keep their history and are
    no longer offered for new tables.
    """

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
    group = models.ForeignKey(
        Group,
        verbose_name=_("group"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="players",
    )
    retired_at = models.DateTimeField(_("retired"), null=True, blank=True)
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
                Lower("name"),
                "group",
                condition=models.Q(group__isnull=False),
                name="player_unique_name_per_group",
            ),
            # One circle a person: a club's roster or a group, never both.
            models.CheckConstraint(
                condition=models.Q(club__isnull=True) | models.Q(group__isnull=True),
                name="player_one_circle",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(club__isnull=False, user__isnull=False),
                name="player_unique_user_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


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
        constraints = [
            # One person's clubs have different names, whatever the capitals.
            models.UniqueConstraint(
                Lower("name"), "created_by", name="club_unique_name_per_creator"
            ),
        ]

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
    # Only the token's digest is kept; the link is shown once, to the admin who made it.
    token_digest = digest_field()
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
            digest_is_full("token_digest", "invite_token_digest_full"),
        ]

    def __str__(self) -> str:
        return f"{self.club} invite ({self.role}, {self.uses}/{self.max_uses})"

    def save(self, *args, **kwargs):
        if self._state.adding and not self.token_digest:
            # The token lives on this instance only, for the link shown to its maker.
            self.token = new_key()
            self.token_digest = key_digest(self.token)
        super().save(*args, **kwargs)


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
    variant = models.CharField(_("game"), max_length=20, choices=game_choices)
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
            # Three leagues "Gin del giovedì" in one club cannot be told apart: one name each.
            models.UniqueConstraint(Lower("name"), "club", name="league_unique_name"),
            game_is_named("variant", "league_variant_named"),
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
        # "Open" and "Closed" say what the season is (in Italian: aperta, chiusa), not a verb.
        OPEN = "open", pgettext_lazy("a season's status", "Open")
        CLOSED = "closed", pgettext_lazy("a season's status", "Closed")

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
