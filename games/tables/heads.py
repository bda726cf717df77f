"""Each table's head as the shared cache knows it, for polls answered before any session
or database work (``games.pages.idle_polls``), and the watch tokens that let a phone ask.

A phone polls its table every couple of seconds, and almost every poll finds nothing new.
Answering those from the cache spares the session, the access check and the table row.
The cache is never the source: a poll whose seq is not the cached head goes through the
whole view, which reads the log. The head is written under the table's row lock, before
the commit, so two appends can never leave an older head after a newer one; an append
that rolls back leaves a head the log never reached, which no phone can be polling from.
"""

import logging

from django.core import signing
from django.core.cache import cache

from games.tables import push
from games.tables.models import Table

logger = logging.getLogger(__name__)

# An append refreshes its table's head; a quiet table's is put back by the next full poll.
# Short enough that a head the cache missed (a cache write that failed while the log was
# written) stops holding back news within minutes.
HEAD_SECONDS = 5 * 60
# A watch token lets a phone ask "anything new?" without its session: it says the phone
# was shown the table by the full view (which checked its key) within this long.
WATCH_SECONDS = 12 * 60 * 60
_WATCH = signing.TimestampSigner(salt="games.tables.heads.watch")


def _key(table_id) -> str:
    return f"table-head:{table_id}"


def head_publish(table_id, seq: int) -> None:
    """Tell the cache the table's log now ends at ``seq`` (an append, under its row lock),
    and the phones that stream the table once the append commits (games.tables.push)."""
    push.head_push_on_commit(table_id, seq)
    try:
        cache.set(_key(table_id), seq, HEAD_SECONDS)
    except Exception:  # the cache is down: polls go through the view meanwhile
        logger.warning("Could not publish the head of table %s.", table_id, exc_info=True)


def head_offer(table_id, seq: int) -> None:
    """Put back a quiet table's head, read from the database, unless an append set one."""
    try:
        cache.add(_key(table_id), seq, HEAD_SECONDS)
    except Exception:
        logger.warning("Could not offer the head of table %s.", table_id, exc_info=True)


# What a table whose rematch has started holds in place of its head: no poll's seq is
# negative, so every poll of it goes through the view, which moves the phone on. Kept past
# the watch tokens' lifetime: by then no page from before the rematch can poll idly.
RETIRED = -1
RETIRED_SECONDS = WATCH_SECONDS + HEAD_SECONDS


def head_retire(table_id) -> None:
    """Make every poll of the table reach its view: its rematch has started (under the
    finished table's row lock, as an append publishes its head)."""
    try:
        cache.set(_key(table_id), RETIRED, RETIRED_SECONDS)
    except Exception:  # the cache is down: polls go through the view meanwhile
        logger.warning("Could not retire the head of table %s.", table_id, exc_info=True)


def head_cached(table_id) -> int | None:
    """Return the head the cache holds for the table, or None."""
    try:
        seq = cache.get(_key(table_id))
    except Exception:
        return None
    return seq if isinstance(seq, int) else None


def watch_token(table_id) -> str:
    """Return the token a page shown to a phone with access puts in its polls' address."""
    return _WATCH.sign(str(table_id)).split(":", 1)[1]


def watching(table_id, token: str) -> bool:
    """Tell whether ``token`` is a watch token of this table that has not expired."""
    try:
        _WATCH.unsign(f"{table_id}:{token}", max_age=WATCH_SECONDS)
    except signing.BadSignature:  # SignatureExpired included
        return False
    return True


def head_now(table_id) -> int | None:
    """Return the table's head (RETIRED once its rematch has started), from the cache or
    else the database, which puts it back in the cache; None if there is no such table."""
    seq = head_cached(table_id)
    if seq is not None:
        return seq
    seq = Table.objects.filter(pk=table_id).values_list("head_seq", flat=True).first()
    if seq is not None:
        head_offer(table_id, seq)
    return seq
