"""The shared cache, out of the way while Redis is down.

Nothing in the cache is the only copy of anything: sessions are not kept there at all
(games/shared/sessions.py), table heads and snapshots are rebuilt from the logs, standings
from the database, and a throttle's count may be lost. So when Redis cannot be reached a
request is served as if the cache had missed, not answered with a 500:
``ResilientRedisCache`` is Django's Redis cache whose reads miss, whose writes are skipped
and whose counts (``incr``) raise ``CacheUnavailable`` for the throttles to let the request
through. One failure rests the cache for ``REST_SECONDS`` in the whole process: meanwhile
no request waits on a connection that will not come (a refused one is instant; a Redis
that hangs, or an address that drops packets, costs one timeout), then a request tries again.
A warning is logged once per ``WARN_SECONDS``, not once per call.

A write skipped while Redis was away may leave an older copy there (Redis was paused or cut
off): a table's head, say, that an idle poll would take for the newest. So the process
remembers the keys whose writes it lost and deletes them once Redis answers again, before
it uses the cache and, should it get no request, by a thread of its own within
``REST_SECONDS`` of Redis's return, so that the other processes, which did not see the
writes fail, do not read the old copies for long; past ``LOST_KEYS`` of them it clears the
cache instead (everything in it can be rebuilt).

A Redis restarted from its last save holds older copies of everything written since, and no
process knows which. So every key is made under the run id of the Redis server it is
written to (``INFO server``, read on each new connection): a restarted server has a new run
id, and every process, whose connections the restart broke, reconnects and from then on
reads and writes under the new one; what the save brought back is never read. A call whose
key was made just before its connection found the new server is made again.
"""

import logging
import threading
import time
from contextlib import suppress
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
    # The run id of the Redis server this process last connected to: every key's prefix.
    server_id: str = "-"
    # The thread that deletes the lost keys once Redis answers (see the module's docstring).
    mender: threading.Thread | None = None

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


def _connected(outage: _Outage):
    """Return what a new connection runs once connected: the usual handshake, then it
    learns the run id of the server (see the module's docstring)."""

    def connected(connection) -> None:
        connection.on_connect()
        connection.send_command("INFO", "server")
        info = connection.read_response()
        text = info.decode() if isinstance(info, bytes) else str(info)
        for line in text.splitlines():
            if line.startswith("run_id:"):
                outage.server_id = line.partition(":")[2].strip()
                return

    return connected


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that misses, rather than raises, while Redis is unreachable
    (see the module's docstring); ``incr`` and ``decr`` raise ``CacheUnavailable``."""

    def __init__(self, server, params):
        super().__init__(server, params)
        with _outages_lock:
            self._outage = _outages.setdefault(",".join(self._servers), _Outage())
        self._options = {**self._options, "redis_connect_func": _connected(self._outage)}

    def make_key(self, key, version=None):
        return f"{self._outage.server_id}:{super().make_key(key, version=version)}"

    def _reach(self, operation, *args, lost=(), version=None):
        """Run one of RedisCache's operations, or raise CacheUnavailable; ``lost``: the
        keys it writes, remembered if it cannot."""
        outage = self._outage
        if not outage.resting():
            try:
                if outage.pending():
                    self._come_back()
                server = outage.server_id
                result = operation(*args)
                if outage.server_id != server:  # its key was made for the server before
                    result = operation(*args)
                return result
            except UNREACHABLE as error:
                outage.begin(error)
        if lost:
            outage.lose([self.make_key(key, version=version) for key in lost])
            self._mend_soon()
        raise CacheUnavailable

    def _mend_soon(self) -> None:
        """Have the lost keys deleted once Redis answers, even if no request comes."""
        outage = self._outage
        with outage.lock:
            if outage.mender is not None and outage.mender.is_alive():
                return
            outage.mender = threading.Thread(target=self._mend, name="cache-mender", daemon=True)
            outage.mender.start()

    def _mend(self) -> None:
        outage = self._outage
        while outage.lost or outage.lost_all:
            time.sleep(REST_SECONDS)
            with suppress(CacheUnavailable):
                self._reach(lambda: None)  # deletes the lost keys first, if Redis answers

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
