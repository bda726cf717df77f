"""Stats pages: the players' book of a group and of a club, one game at a time (``?game=``),
and the page of each of a group's players (their record in all the group's games).

A group's stats and its players' pages open to any phone holding one of its keys, as its
page does; a club's stats to its members, as a player's page does (they gather every league
of the club, private ones too).
Anyone else gets a 404, as for a circle that does not exist. Both read the stored results
(``games.standings.selectors``): no log is replayed for a page.
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.pages.common import with_club
from games.pages.groups import with_group
from games.standings import selectors as standings_selectors


@require_safe
@with_group()
def group_stats_view(request, group, role):
    """Show a group's stats: every player's record, head to head and wins over time."""
    stats = standings_selectors.group_stats(group=group, variant=request.GET.get("game", ""))
    context = {"stats": stats, "back": reverse("group", args=[group.pk]), "back_label": group.name}
    return render(request, "stats/stats.html", context)


@require_safe
@with_group()
def group_player_view(request, group, role, player_id):
    """Show one of a group's players: their record over the group's games and opponents."""
    page = standings_selectors.group_player(group=group, player_id=player_id)
    if page is None:
        raise Http404(_("No such player in this group."))
    context = {"page": page, "back": reverse("group-stats", args=[group.pk])}
    return render(request, "stats/player.html", context)


@require_safe
@with_club
def club_stats_view(request, access):
    """Show a club's stats to its members: its leagues' and nights' matches, player by player."""
    if not access.is_member:
        raise Http404(_("No such club, or it is not yours to see."))
    club = access.club
    stats = standings_selectors.club_stats(club=club, variant=request.GET.get("game", ""))
    context = {"stats": stats, "back": reverse("club", args=[club.slug]), "back_label": club.name}
    return render(request, "stats/stats.html", context)
