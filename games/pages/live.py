"""Live streams: server-sent events through the push engine (docs/live.md), for a table's
pages (its head), a night's screens (its version) and a group's page (its tables).

The app never holds the connection. It answers the engine (Pushpin) at once with GRIP
headers, "hold this response open on the table's channel", and the first event; the engine
keeps the browser's connection and appends what ``games.tables.push`` publishes.

A stream is authorised exactly as the idle poll it replaces: by the watch token a page
shown to a phone with access puts in its address. It tells what that poll tells (the
table's head seq, nothing else); what changed is fetched by the usual poll, which checks
the phone's key. Without the engine in front (no Grip-Sig) or with push off, there is no
stream, and the page goes on polling.
"""

import jwt
from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.pages.idle_polls import MAX_TOKEN
from games.shared.numbers import seq_or_none
from games.tables import heads, push
from games.tournaments import push as night_push
from games.tournaments.selectors import night_version

# The comment the engine sends on an idle stream, so that proxies and phones keep it open
# and a phone notices a dead one (GRIP's keep-alive, in seconds).
KEEP_ALIVE = ":\\n\\n; format=cstring; timeout=20"


def _first_message(seq: int, last_seen: int | None) -> str:
    """Return what a stream opens with: the head if the phone has not seen it (or a sign
    that the rematch has started); else a bare event, so the phone knows the stream is
    flowing (a proxy that buffers never lets it through, and the phone keeps polling)."""
    if seq == heads.RETIRED:
        return push.moved_message()
    if last_seen is None or last_seen < seq:
        return push.head_message(seq)
    return OPEN_MESSAGE


def engine_in_front(request) -> bool:
    """Tell whether push is on and the request came through the engine: its Grip-Sig signed
    with PUSH_SIG_KEY, by the engine's issuer, not expired. A held answer sent straight to a
    browser would just close, and one forged would hold nothing: anything else gets 404."""
    signature = request.headers.get("Grip-Sig", "")
    if not settings.PUSH_URL or not settings.PUSH_SIG_KEY or not signature:
        return False
    try:
        jwt.decode(
            signature,
            settings.PUSH_SIG_KEY,
            algorithms=["HS256"],
            issuer=settings.PUSH_SIG_ISSUER,
            options={"require": ["exp", "iss"]},
        )
    except jwt.InvalidTokenError:
        return False
    return True


def held_stream(channel: str, first: str) -> HttpResponse:
    """Answer the engine: hold this response open on ``channel``, starting with ``first``
    (the events the stream opens with, after the browser's retry delay)."""
    response = HttpResponse(f"retry: {push.RETRY_MS}\n\n{first}", content_type="text/event-stream")
    response["Grip-Hold"] = "stream"
    response["Grip-Channel"] = channel
    response["Grip-Keep-Alive"] = KEEP_ALIVE
    # Passed on by the engine to the browser: nginx in front of it must not buffer the stream.
    response["X-Accel-Buffering"] = "no"
    return response


OPEN_MESSAGE = "event: open\ndata: \n\n"


def night_stream(request, tournament) -> HttpResponse:
    """Open a night's stream for a screen its view has let in: it starts with the night's
    version unless the screen says (Last-Event-ID) that it has seen it."""
    version = night_version(tournament=tournament)
    seen = request.headers.get("Last-Event-ID", "") == version
    first = OPEN_MESSAGE if seen else night_push.night_message(version)
    return held_stream(night_push.night_channel(tournament.pk), first)


def group_stream(group_id) -> HttpResponse:
    """Open a group's stream for a phone its view has let in (a group key's); its first
    event makes the page poll once, for what moved while it was opening."""
    return held_stream(push.group_channel(group_id), OPEN_MESSAGE)


@require_safe
@never_cache
def table_live(request, table_id):
    """Open the table's stream for a phone holding a watch token of it (the engine holds
    it); 404 without push or the engine, 403 with a bad or expired token."""
    if not engine_in_front(request):
        return HttpResponse(status=404)
    token = request.GET.get("w", "")
    if not token or len(token) > MAX_TOKEN or not heads.watching(table_id, token):
        return HttpResponse(status=403)
    seq = heads.head_now(table_id)
    if seq is None:
        return HttpResponse(status=404)
    last_seen = seq_or_none(request.headers.get("Last-Event-ID", ""))
    return held_stream(push.table_channel(table_id), _first_message(seq, last_seen))
