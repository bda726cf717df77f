"""The shared cache, out of the way while Redis is down.

Nothing in the cache is the only copy of anything: sessions are written through to the
database (``cached_db``), table heads and snapshots are rebuilt from the logs, standings
from the database, and a throttle's count may be lost. So when Redis cannot be reached a
request is served as if the cache had missed, not answered with a 500:
``ResilientRedisCache`` is Django's Redis cache whose reads miss, whose writes are skipped
and whose counts (``incr``) raise ``CacheUnavailable`` for the throttles to let the request
through. One failure rests the cache for ``REST_SECONDS`` in the whole process: meanwhile
no request waits on a connection that will not come (a refused one is instant; a Redis
that hangs, or an address that drops packets, costs one timeout), then a request tries again.
A warning is logged once per ``WARN_SECONDS``, not once per call.

A write skipped while Redis was away may leave an older copy there (Redis was paused, cut
off, or restarted from its last save): a session changed in the database meanwhile would be
read back old, and written back old over the database's. So the process remembers the keys
whose writes it lost and deletes them before it uses the cache again; past ``LOST_KEYS``
of them it clears the cache instead (everything in it can be rebuilt).
"""

import logging
import threading
import time
from dataclasses import dataclass, field

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

# After a failure, how long the process leaves Redis alone before one request tries again.
REST_SECONDS = 2.0
# How often, at most, the same warning is logged by one process.
WARN_SECONDS = 60.0
# How many lost writes a process keeps track of; past that it clears the cache on return.
LOST_KEYS = 10_000
# A refused or dropped connection, a timeout, a Redis still loading its data: all mean
# "not now". Anything else (a bad command, a wrong type) is a bug and still raises.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class CacheUnavailable(Exception):
    """The shared cache cannot be reached, so no count can be taken."""


_warned: dict[str, float] = {}
_warned_lock = threading.Lock()


def warn_rarely(log: logging.Logger, message: str, *args) -> None:
    """Log ``message`` as a warning unless this process logged it in the last
    ``WARN_SECONDS`` (an outage touches every request: one line a minute says it)."""
    now = time.monotonic()
    with _warned_lock:
        if now - _warned.get(message, -WARN_SECONDS) < WARN_SECONDS:
            return
        _warned[message] = now
    log.warning(message, *args)


@dataclass
class _Outage:
    """What one process knows of one Redis server's absence, shared by its threads (Django
    builds a cache object per thread)."""

    away: bool = False
    resting_until: float = 0.0
    lost: set[str] = field(default_factory=set)
    lost_all: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def resting(self) -> bool:
        return time.monotonic() < self.resting_until

    def begin(self, error: Exception) -> None:
        self.away = True
        self.resting_until = time.monotonic() + REST_SECONDS
        warn_rarely(
            logger,
            "The shared cache is unreachable (%s): serving without it, trying again every %s s.",
            error,
            REST_SECONDS,
        )

    def lose(self, keys, *, everything: bool = False) -> None:
        """Remember keys whose writes did not reach Redis (or that all may be stale)."""
        with self.lock:
            self.lost_all |= everything or len(self.lost) + len(keys) > LOST_KEYS
            self.lost = set() if self.lost_all else self.lost | set(keys)

    def pending(self) -> bool:
        """Tell whether Redis was away since this process last reached it (no lock: a
        read of three attributes, on every operation)."""
        return self.away or self.lost_all or bool(self.lost)

    def take_lost(self) -> tuple[list[str], bool]:
        """Return and forget the lost keys, and whether all of them are lost."""
        with self.lock:
            self.away = False
            lost, lost_all = list(self.lost), self.lost_all
            self.lost, self.lost_all = set(), False
        return lost, lost_all


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that misses, rather than raises, while Redis is unreachable
    (see the module's docstring); ``incr`` and ``decr`` raise ``CacheUnavailable``."""

    def __init__(self, server, params):
        super().__init__(server, params)
        with _outages_lock:
            self._outage = _outages.setdefault(",".join(self._servers), _Outage())

    def _reach(self, operation, *args, lost=(), version=None):
        """Run one of RedisCache's operations, or raise CacheUnavailable; ``lost``: the
        keys it writes, remembered if it cannot."""
        outage = self._outage
        if not outage.resting():
            try:
                if outage.pending():
                    self._come_back()
                return operation(*args)
            except UNREACHABLE as error:
                outage.begin(error)
        if lost:
            outage.lose([self.make_key(key, version=version) for key in lost])
        raise CacheUnavailable

    def _or(self, miss, operation, *args, lost=(), version=None):
        """Run the operation, or answer ``miss`` while Redis cannot be reached."""
        try:
            return self._reach(operation, *args, lost=lost, version=version)
        except CacheUnavailable:
            return miss

    def _come_back(self) -> None:
        """Delete what this process could not write while Redis was away, before any
        other use of it, so that no older copy is read."""
        lost, lost_all = self._outage.take_lost()
        try:
            if lost_all:
                self._cache.clear()
            else:
                for start in range(0, len(lost), 1000):
                    self._cache.delete_many(lost[start : start + 1000])
        except UNREACHABLE:
            self._outage.lose(lost, everything=lost_all)
            raise
        warn_rarely(
            logger,
            "The shared cache answers again; the keys this process could not write "
            "meanwhile are deleted (%s).",
            "too many: the cache was cleared" if lost_all else len(lost),
        )

    def reachable(self) -> bool:
        """Tell whether Redis answers a PING now (False while the cache rests)."""
        return self._or(False, lambda: self._cache.get_client(write=True).ping())

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or(False, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._or(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._or(None, super().set, key, value, timeout, version, lost=[key], version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._or(False, super().delete, key, version, lost=[key], version=version)

    def get_many(self, keys, version=None):
        return self._or({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._or(False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        return self._reach(super().incr, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        keys = list(data)
        return self._or(keys, super().set_many, data, timeout, version, lost=keys, version=version)

    def delete_many(self, keys, version=None):
        keys = list(keys)
        self._or(None, super().delete_many, keys, version, lost=keys, version=version)

    def clear(self):
        return self._or(False, super().clear)


def cache_reachable(alias: str = "default") -> bool:
    """Tell whether the shared cache answers now, for a health check: a Redis cache is
    asked (PING); any other (files on this machine) is taken to be there."""
    backend = caches[alias]
    return backend.reachable() if isinstance(backend, ResilientRedisCache) else True
