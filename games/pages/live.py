"""A table's live stream: server-sent events through the push engine (docs/live.md).

The app never holds the connection. It answers the engine (Pushpin) at once with GRIP
headers, "hold this response open on the table's channel", and the first event; the engine
keeps the browser's connection and appends what ``games.tables.push`` publishes.

A stream is authorised exactly as the idle poll it replaces: by the watch token a page
shown to a phone with access puts in its address. It tells what that poll tells (the
table's head seq, nothing else); what changed is fetched by the usual poll, which checks
the phone's key. Without the engine in front (no Grip-Sig) or with push off, there is no
stream, and the page goes on polling.
"""

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.pages.idle_polls import MAX_TOKEN
from games.shared.numbers import seq_or_none
from games.tables import heads, push

# The comment the engine sends on an idle stream, so that proxies and phones keep it open
# and a phone notices a dead one (GRIP's keep-alive, in seconds).
KEEP_ALIVE = ":\\n\\n; format=cstring; timeout=20"


def _first_message(seq: int, last_seen: int | None) -> str:
    """Return what a stream opens with: the head if the phone has not seen it (or a sign
    that the rematch has started); else a bare event, so the phone knows the stream is
    flowing (a proxy that buffers never lets it through, and the phone keeps polling)."""
    opening = f"retry: {push.RETRY_MS}\n\n"
    if seq == heads.RETIRED:
        return opening + push.moved_message()
    if last_seen is None or last_seen < seq:
        return opening + push.head_message(seq)
    return opening + "event: open\ndata: \n\n"


@require_safe
@never_cache
def table_live(request, table_id):
    """Open the table's stream for a phone holding a watch token of it (the engine holds
    it); 404 without push or the engine, 403 with a bad or expired token."""
    if not settings.PUSH_URL or "Grip-Sig" not in request.headers:
        return HttpResponse(status=404)
    token = request.GET.get("w", "")
    if not token or len(token) > MAX_TOKEN or not heads.watching(table_id, token):
        return HttpResponse(status=403)
    seq = heads.head_now(table_id)
    if seq is None:
        return HttpResponse(status=404)
    last_seen = seq_or_none(request.headers.get("Last-Event-ID", ""))
    response = HttpResponse(_first_message(seq, last_seen), content_type="text/event-stream")
    response["Grip-Hold"] = "stream"
    response["Grip-Channel"] = push.table_channel(table_id)
    response["Grip-Keep-Alive"] = KEEP_ALIVE
    # Passed on by the engine to the browser: nginx in front of it must not buffer the stream.
    response["X-Accel-Buffering"] = "no"
    return response
