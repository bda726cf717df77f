"""A finished match's result, shared: the scorekeeper's "Share the result" button makes a
public page of it (or revokes it), and anyone with its address reads that page and the
picture messaging apps show under its link.

The public page needs no session and holds no key: it is drawn from the share's token
alone (``games.tables.sharing.shared_result``), and shows the names, the totals, the winner
and the hands, never the table's id, its join links or who recorded what.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.pages.tables import with_table
from games.tables import result_card, sharing
from games.tables.access import request_digests
from games.tables.models import SharedResult

# How long a browser or a proxy may keep the picture without asking again. A chat that
# showed the preview keeps its own copy anyway, so a longer wait would hide nothing more
# after a revoke; the ETag makes asking again cheap.
CARD_MAX_AGE = 300


def _block(request, table, share: SharedResult | None, *, revoked: bool = False):
    """Answer with the share block: its part for htmx, else a page of its own."""
    context = {"table": table, "share": share, "revoked": revoked}
    if share is not None:
        context["share_url"] = request.build_absolute_uri(
            reverse("shared-result", args=[share.token])
        )
    template = "tables/_share_result.html#body" if request.htmx else "sharing/manage.html"
    return render(request, template, context)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache  # the address of the result page, for the table's scorekeepers only
@with_table()
def result_share_block(request, table, role):
    """Share the finished match's result (POST), or show the address it has (GET)."""
    digests = request_digests(request, table.id)
    if request.method == "GET":
        share = sharing.live_share(table=table, digests=digests, user=request.user)
        return _block(request, table, share)
    share = sharing.result_share(table=table, digests=digests, user=request.user)
    if not request.htmx:
        return redirect("result-share", table_id=table.id)
    return _block(request, table, share)


@require_POST
@with_table()
def result_unshare(request, table, role):
    """Stop sharing the result: its address answers 404 from now on."""
    digests = request_digests(request, table.id)
    sharing.result_share_revoke(table=table, digests=digests, user=request.user)
    if not request.htmx:
        return redirect("result-share", table_id=table.id)
    return _block(request, table, None, revoked=True)


def _shared_match(token: str) -> sharing.SharedMatch:
    try:
        return sharing.shared_result(token=token)
    except SharedResult.DoesNotExist:
        raise Http404 from None


@require_safe
@never_cache  # revoking takes the page down at once
def shared_result_page(request, token):
    """Show a shared result to anyone with its address: no session, no key."""
    match = _shared_match(token)
    context = {
        "match": match,
        "page_url": request.build_absolute_uri(reverse("shared-result", args=[token])),
        "card_url": request.build_absolute_uri(reverse("shared-result-card", args=[token])),
        "card_width": result_card.WIDTH,
        "card_height": result_card.HEIGHT,
    }
    response = render(request, "sharing/result.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def shared_result_card(request, token):
    """Send the shared result's picture (PNG) in the request's language."""
    match = _shared_match(token)
    etag = result_card.result_card_etag(match)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(result_card.result_card(match), content_type="image/png")
    response["ETag"] = etag
    response["X-Robots-Tag"] = "noindex"
    patch_cache_control(response, public=True, max_age=CARD_MAX_AGE)
    # Its language comes from the language cookie too (LocaleMiddleware says only
    # Accept-Language): a shared cache must not hand one language's picture to the other.
    patch_vary_headers(response, ["Cookie"])
    return response
