"""The room's big screen: one table's board, read-only, live within a couple of seconds."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.pages.tables import _match_context, poll_since, with_table
from games.tables import heads, selectors


@require_GET
@never_cache
@with_table()
def table_tv(request, table, role):
    """Show the totals, the last hand and who deals, big; polls get 204 when nothing changed."""
    if poll_since(request, table) == table.head_seq:
        return HttpResponse(status=204)
    state = selectors.table_state(table=table)
    match = _match_context(state)
    played = [hand for hand in state["hands"] if not hand["voided"] and hand["result"]]
    context = {
        "table": table,
        "state": state,
        "seats": list(zip(state["seats"], match.pop("board_totals"), strict=True)),
        "last": played[-1] if played else None,
        "poll_ms": settings.TV_POLL_MS,
        "watch": heads.watch_token(table.id),
        **match,
    }
    template = "tables/tv.html#board" if request.htmx else "tables/tv.html"
    return render(request, template, context)
