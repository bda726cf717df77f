"""Admin: tables, players, clubs, leagues and seasons are browsable; the event log is strictly
read-only."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import (
    Club,
    Event,
    Invite,
    League,
    MatchResult,
    Membership,
    Player,
    RecomputeJob,
    Season,
    SeasonStandings,
    Seat,
    Table,
    TableProjection,
)
from games.standings import queue as standings_queue


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["position", "player"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "variant",
        "preset",
        "target",
        "status",
        "season",
        "practice",
        "head_seq",
        "updated_at",
    ]
    list_filter = ["variant", "status", "practice"]
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "type", "entered_by", "created_at"]
    list_filter = ["type"]
    search_fields = ["table__id", "event_id"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]


@admin.register(TableProjection)
class TableProjectionAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "verified_seq", "updated_at"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "public", "created_by", "created_at"]
    list_filter = ["public"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["club__name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "uses", "max_uses", "expires_at", "created_by"]
    list_filter = ["role", "club"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "variant", "players", "preset", "public"]
    list_filter = ["variant", "public", "club"]
    search_fields = ["name", "club__name"]
    # The engine validated these when the league was made; its tables already play them.
    readonly_fields = ["variant", "players", "preset", "options"]

    def has_add_permission(self, request):
        # Leagues are made on the club's pages, where the engine checks their options.
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on", "status", "closed_at"]
    list_filter = ["status", "league__club"]
    search_fields = ["name", "league__name"]
    readonly_fields = ["status", "closed_at", "closed_by"]

    def has_add_permission(self, request):
        # Seasons are opened and closed on the league's pages, by the club's admins.
        return False


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "finished_at", "updated_at"]


@admin.register(SeasonStandings)
class SeasonStandingsAdmin(ReadOnlyAdmin):
    list_display = ["season", "matches", "computed_at"]


@admin.register(RecomputeJob)
class RecomputeJobAdmin(ReadOnlyAdmin):
    """Standings are projections: staff can rebuild them all from the logs, as a task, and
    watch its progress (the page polls it with htmx)."""

    list_display = ["pk", "status", "done", "total", "seasons", "created_by", "created_at"]
    change_list_template = "admin/games/recomputejob/change_list.html"

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("start/", view(self.start_view), name="games_recomputejob_start"),
            path(
                "<int:job_id>/progress/",
                view(self.progress_view),
                name="games_recomputejob_progress",
            ),
            *super().get_urls(),
        ]

    def start_view(self, request):
        return require_POST(self._start)(request)

    def _start(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        job = standings_queue.recompute_job_start(user=request.user)
        messages.info(request, _("Recomputing every league's standings from the logs."))
        return redirect("admin:games_recomputejob_progress", job_id=job.pk)

    def progress_view(self, request, job_id: int):
        if not self.has_view_permission(request):
            raise PermissionDenied
        job = get_object_or_404(RecomputeJob, pk=job_id)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "job": job,
            "title": _("Recompute everything"),
        }
        # htmx polls only the progress block; it stops once the job is over.
        template = (
            "admin/games/recomputejob/_progress.html"
            if request.htmx
            else "admin/games/recomputejob/progress.html"
        )
        return TemplateResponse(request, template, context)
