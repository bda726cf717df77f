"""Standings: projections of a league's table logs, kept so pages read them fast."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Season
from games.shared.models import Created
from games.tables.models import Table


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
