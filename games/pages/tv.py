"""The room's big screen: one table's board, read-only, live within a couple of seconds."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseClientRedirect

from games.pages.tables import poll_since, rematch_follow, rematch_poll, with_table
from games.tables import heads, selectors


@require_safe
@never_cache
@with_table()
def table_tv(request, table, role):
    """Show the totals, the last hand and who deals, big; polls get 204 when nothing changed,
    and once the finished match's rematch has started the screen moves on to it."""
    rematch = selectors.table_rematch_newest(table=table)
    if rematch is not None:
        heads.head_retire(table.id)  # so that every poll of it comes here
        if rematch_poll(request):
            rematch_follow(request, table, rematch)
            return HttpResponseClientRedirect(reverse("table-tv", args=[rematch.id]))
    elif poll_since(request, table) == table.head_seq:
        return HttpResponse(status=204)
    context = {
        "table": table,
        "board": selectors.table_board(table=table),
        "poll_ms": settings.TV_POLL_MS,
        "watch": heads.watch_token(table.id),
    }
    template = "tables/tv.html#board" if request.htmx else "tables/tv.html"
    return render(request, template, context)
