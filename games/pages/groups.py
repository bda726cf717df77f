"""Group pages: a circle of players without a club, its players and its tables.

A group is opened by keys as a table is: the browser that made it holds its member key
(start tables, record at them, change the players), other phones join by the same links
and codes as tables (``/j/…``, ``/join/``), for the member's role or a viewer's. Anyone
else gets a 404, as for a group that does not exist.
"""

from functools import wraps

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.clubs import groups
from games.clubs.models import Group
from games.pages import live
from games.pages.common import add_errors
from games.pages.forms.game_options import options_initial
from games.pages.forms.groups import GroupCreateForm, GroupTableForm, PlayerNameForm
from games.pages.joining import share_context
from games.shared.errors import ActionRefused, EventRejected
from games.shared.throttles import page_status, page_write_allowed
from games.tables import services as table_services
from games.tables.access import Role, group_role, request_digests, session_remember_group
from games.tables.models import Table

# The group's tables listed on its page, newest first; older ones are in its stats.
TABLES_SHOWN = 20


def with_group(*, write: bool = False):
    """Resolve the group from the URL and this browser's keys; 404 for anyone else, 403 for
    a viewer asking to change it."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, group_id, *args, **kwargs):
            group = Group.objects.filter(pk=group_id).first()
            role = group_role(group, digests=request_digests(request)) if group else None
            if role is None:
                raise Http404(_("No such group, or this browser has no key for it."))
            if write and role != Role.SCOREKEEPER:
                raise ActionRefused(_("Only the group's members can do this: viewers watch."))
            return view(request, group, role, *args, **kwargs)

        return wrapper

    return decorator


@require_http_methods(["GET", "HEAD", "POST"])
def group_create_view(request):
    """Start a group: its name, its players and the game its tables offer first."""
    form = GroupCreateForm(request.POST or None)
    if (
        request.method == "POST"
        and form.is_valid()
        and page_write_allowed(request, form, "group_create")
    ):
        try:
            group = groups.group_create(
                name=form.cleaned_data["name"],
                players=form.player_names(),
                variant=form.cleaned_data["variant"],
                options=form.options(),
                user=request.user,
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            session_remember_group(request, group, Role.SCOREKEEPER)
            return redirect("group", group_id=group.pk)
    return render(request, "groups/new.html", {"form": form}, status=page_status(form))


def _last_seating(tables: list[Table]) -> list:
    """Return the players of the group's last table, in seat order (offered first)."""
    if not tables:
        return []
    return [seat.player for seat in tables[0].seats.all() if seat.player.retired_at is None]


def _group_context(request, group: Group, role: Role, **forms) -> dict:
    players = groups.group_players(group=group)
    tables = list(
        group.tables.order_by("-created_at").prefetch_related("seats__player")[:TABLES_SHOWN]
    )
    last = _last_seating(tables)
    context = {
        "group": group,
        "role": role,
        "players": players,
        "tables": tables,
        "last_seating": last if len(last) >= 2 else [],
        "player_form": PlayerNameForm(),
        **forms,
    }
    if role == Role.SCOREKEEPER and "table_form" not in forms:
        context["table_form"] = GroupTableForm(
            players=players.active,
            initial={
                **options_initial(group.variant, group.options),
                "seated": [p.pk for p in last],
            },
        )
    return context


@require_safe
@with_group()
def group_detail(request, group, role):
    """Show the group: start a table in one or two taps, its players, its latest tables."""
    return render(request, "groups/group.html", _group_context(request, group, role))


@require_safe
@never_cache
@with_group()
def group_live(request, group, role):
    """The group page's stream, by the group's keys as the page itself."""
    if not live.engine_in_front(request):
        raise Http404
    return live.group_stream(group.pk)


@require_POST
@with_group(write=True)
def group_table_create_view(request, group, role):
    """Seat the chosen players at a new table of the group and open it."""
    players = groups.group_players(group=group).active
    form = GroupTableForm(request.POST, players=players)
    if form.is_valid() and page_write_allowed(request, form, "table_create"):
        try:
            table = table_services.group_table_create(
                group=group,
                seat_players=form.seat_players(),
                variant=form.cleaned_data["variant"],
                options=form.options(),
                entered_by=_("creator"),
                user=request.user,
            )
        except (EventRejected, ValidationError) as exc:
            add_errors(form, exc)
        else:
            return redirect("table", table_id=table.id)
    context = _group_context(request, group, role, table_form=form)
    return render(request, "groups/group.html", context, status=page_status(form))


def _player_write(request, group, role, write):
    form = PlayerNameForm(request.POST)
    if form.is_valid():
        try:
            write(form.cleaned_data["name"])
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("group", group_id=group.pk)
    context = _group_context(request, group, role, player_form=form)
    return render(request, "groups/group.html", context, status=page_status(form))


@require_POST
@with_group(write=True)
def group_player_add_view(request, group, role):
    """Add a player to the group."""
    return _player_write(
        request, group, role, lambda name: groups.group_player_add(group_id=group.pk, name=name)
    )


@require_POST
@with_group(write=True)
def group_player_rename_view(request, group, role, player_id: int):
    """Rename a player: their history follows (the seats point at the player)."""
    if not group.players.filter(pk=player_id).exists():
        raise Http404

    def write(name):
        groups.group_player_rename(group_id=group.pk, player_id=player_id, name=name)

    return _player_write(request, group, role, write)


@require_POST
@with_group(write=True)
def group_player_retire_view(request, group, role, player_id: int):
    """Retire a player (history kept, no longer offered), or bring them back."""
    try:
        groups.group_player_retire(
            group_id=group.pk, player_id=player_id, retired=request.POST.get("retired") != "0"
        )
    except group.players.model.DoesNotExist:
        raise Http404 from None
    return redirect("group", group_id=group.pk)


@require_safe
@never_cache  # join links and codes: no cache may keep them
@with_group()
def group_share(request, group, role):
    """Show the group's join links and codes: QR codes for the other phones."""
    context = {"group": group, **share_context(request, group, role)}
    return render(request, "groups/share.html", context)
