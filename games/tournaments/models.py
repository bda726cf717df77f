"""A tournament night of a club: who plays, its rounds, and the table each pairing plays at.

A table's log is its result: a round's tables are ordinary tables, and nothing of a result
is stored here; the night's standings are worked out from the finished tables' logs.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

MAX_ROUNDS = 15
MAX_ROUND_MINUTES = 240
MAX_POINTS = 20  # victory points a result can give


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(
        "games.Club", verbose_name=_("club"), on_delete=models.PROTECT, related_name="tournaments"
    )
    # The night plays a league's game and options, pinned when it is created.
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("rules of the league"),
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    # Counted in a season of that league: the night's tables are the season's league tables,
    # and their results go into its standings like any league match.
    season = models.ForeignKey(
        "games.Season",
        verbose_name=_("counted in the season"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
    )

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss: paired by the standings")
        ROUND_ROBIN = "round_robin", _("Round robin: everyone meets everyone")
        TABLES = "tables", _("Tables of 3 to 6, seated by the standings")
        KNOCKOUT = "knockout", _("Knock-out: the winner of each match goes on")
        PAIRS = "pairs", _("Pairs: Mitchell and Danese rounds by a plan")

    name = models.CharField(_("name"), max_length=80)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    variant = models.CharField(_("game"), max_length=20)
    options = models.JSONField(_("options"), default=dict)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    # A pairs night's rounds as the director wrote them ("3 Mitchell + 1 Danese",
    # scoring.tournaments.pairs_night.night_plan); "" for the other formats.
    plan = models.CharField(_("plan"), max_length=40, blank=True, default="")
    # A pairs night's VP table, pinned when the night is created: a copy of one of the
    # federation's or the director's own, as ``victory_points.to_dict`` writes it (read back
    # by ``from_dict``, which checks it again). None for the other formats.
    vp_table = models.JSONField(_("victory points table"), null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(_("minutes a round"))

    class Scale(models.TextChoices):
        WIN_DRAW_LOSS = "wdl", _("Win, draw or loss: the points below")
        BANDS = (
            "bands",
            _("By the points difference, in bands: 10–10 for a draw, up to 20–0 from 300 points"),
        )

    # How a two-player table's result becomes victory points (tables of 3-6: by place).
    scale = models.CharField(
        _("victory points"), max_length=8, choices=Scale.choices, default=Scale.WIN_DRAW_LOSS
    )
    # Victory points for a win, a draw, a loss and a bye (WinDrawLoss); a pairs night reads
    # only the bye's (BURRACO-BYE), its matches scoring by its VP table.
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=3)
    draw_points = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    bye_points = models.PositiveSmallIntegerField(_("points for a bye"), default=3)
    # The lateness preset (NIGHT-ADJUST): the points a latecomer loses at their table, in the
    # game's own points (added in a game scored in penalties); 0: no preset.
    late_penalty = models.PositiveSmallIntegerField(_("points off for lateness"), default=0)
    # The draw that orders players level on everything (the first round's pairing).
    seed = models.PositiveIntegerField()
    # A knock-out's bracket and a round robin's schedule are drawn once, from the first
    # round's field: its entrants (ids) in seed order, fixed then.
    field = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    # The room screen's address (/room/<token>/), made and revoked by the director: it opens
    # the night's read-only screen and nothing else, so it is kept as it is, to be shown to
    # the director again (as a shared result's address is). None: no room link.
    room_token = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Members a club admin lets run this night as its director (and no other night).
    deputies = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="deputy_nights"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="tournament_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=MAX_ROUNDS), name="tournament_rounds"
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=5, round_minutes__lte=MAX_ROUND_MINUTES),
                name="tournament_round_minutes",
            ),
            models.CheckConstraint(
                condition=Q(
                    win_points__lte=MAX_POINTS,
                    draw_points__lte=MAX_POINTS,
                    loss_points__lte=MAX_POINTS,
                    bye_points__lte=MAX_POINTS,
                ),
                name="tournament_points_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """Who the night pairs: a club player, or at a pairs night a pair of them (numbered, its
    two players in ``PairMember``); only those checked in are paired."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    # The player; None for a pair, whose players are its members.
    player = models.ForeignKey(
        "games.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A pair's number in the night (on the score sheets and the room screen); None for a
    # player. The order pairs are numbered in seats the Mitchell lines.
    number = models.PositiveSmallIntegerField(_("pair number"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    # Withdrawn between rounds: kept in the standings, paired no more.
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="pair_number_once"),
            # A player, or a numbered pair: never both, never neither.
            models.CheckConstraint(
                condition=Q(player__isnull=False, number__isnull=True)
                | Q(player__isnull=True, number__isnull=False, number__gte=1),
                name="entrant_player_or_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.tournament}"

    @property
    def name(self) -> str:
        """Return the player's name, or the pair's ("Anna & Carla", in the order they
        entered): prefetch ``members__player`` when naming many pairs."""
        if self.player_id is not None:
            return self.player.name
        return " & ".join(member.player.name for member in self.members.all())


class PairMember(models.Model):
    """One of a pair's two players. The night is stored beside the pair (always the pair's
    own: ``pair_register`` writes both) so that the database itself refuses a player in two
    pairs of one night; two places a pair, each once, make two different players."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    pair = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    # 0: the pair's first player (seat 0 North or seat 1 East), 1: the partner across.
    place = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="pair_member_once_a_night"
            ),
            models.UniqueConstraint(fields=["pair", "place"], name="pair_member_place_once"),
            models.CheckConstraint(condition=Q(place__lte=1), name="pair_member_two_places"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.pair_id})"


class KeptApart(models.Model):
    """Two of the night's players the pairing never seats together while it can help it
    (a couple, a parent and child): NIGHT-APART. Stored once, the lower entrant first."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="kept_apart")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="kept_apart_once"
            ),
            models.CheckConstraint(
                condition=Q(first__lt=models.F("second")), name="kept_apart_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    # The round clock is the server's: every phone and the room's screen count down to it.
    ends_at = models.DateTimeField()
    bye = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="byes"
    )
    # A round robin's players whose scheduled opponent had withdrawn when the round was
    # paired: each scores a bye's points that round (NIGHT-WITHDRAW). Set with the round.
    walkovers = models.ManyToManyField(Entrant, blank=True, related_name="walkover_rounds")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class RoundTable(models.Model):
    """One pairing of a round: its number in the room and the table it plays at."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.PROTECT, related_name="tournament_pairing"
    )
    entrants = models.ManyToManyField(Entrant, through="RoundSeat", related_name="+")
    # A phone at the table called the director (shown on the director's page and the room
    # screen until the director clears it); None: no call.
    director_called_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class RoundSeat(models.Model):
    """An entrant at a round's table: ``seat`` is the player's seat, or at a pairs night the
    side the pair sits on (0 North–South: the table's seats 0 and 2; 1 East–West: 1 and 3,
    as the game's ``teams`` seats partners across)."""

    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["round_table", "seat"], name="round_seat_once"),
            models.UniqueConstraint(fields=["round_table", "entrant"], name="round_seat_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.round_table} · seat {self.seat}"
