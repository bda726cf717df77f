"""Admin: tables and players are browsable; the event log is strictly read-only."""

from django.contrib import admin

from games.models import Event, Player, Seat, Table, TableProjection


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
    list_display = ["id", "variant", "preset", "target", "status", "head_seq", "updated_at"]
    list_filter = ["variant", "status"]
    exclude = ["scorekeeper_key", "viewer_key"]
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "type", "entered_by", "created_at"]
    list_filter = ["type"]
    search_fields = ["table__id", "event_id"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(TableProjection)
class TableProjectionAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "verified_seq", "updated_at"]
