"""Polls that find nothing new, answered before the session, the access check or the
database: the table's page and its room screen poll every couple of seconds, and at a
club night those polls are most of the requests there are."""

from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import add_never_cache_headers

from games.shared.numbers import seq_or_none
from games.tables import heads

# The pages whose polls carry ?since=<seq>&w=<watch token>, by URL name.
POLLED = frozenset({"table", "table-tv"})
MAX_TOKEN = 100


def _nothing_new(request) -> bool:
    """Tell whether the request is an htmx poll, with a watch token of its table, from
    the head the cache holds: then the view would answer 204."""
    if request.method != "GET" or request.headers.get("HX-Request") != "true":
        return False
    since = seq_or_none(request.GET.get("since", ""))
    token = request.GET.get("w", "")
    if since is None or not token or len(token) > MAX_TOKEN:
        return False
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return False
    if match.url_name not in POLLED:
        return False
    table_id = match.kwargs["table_id"]
    return heads.head_cached(table_id) == since and heads.watching(table_id, token)


class IdlePollMiddleware:
    """Answer 204 to an idle poll (see _nothing_new), as the table's views would."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _nothing_new(request):
            response = HttpResponse(status=204)
            add_never_cache_headers(response)
            return response
        return self.get_response(request)
