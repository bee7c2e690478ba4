"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per async context (`django.core.cache.caches` is an
asgiref Local), and each RedisCache object makes a client of its own, with a
connection pool and so a Redis connection of its own. Under ASGI every socket
and every request that used the cache made one: with 200 game sockets open on
one process Redis counted 208 clients, each socket held about 11 KB of
redis-py's objects, and a request paid about 1.5 ms of CPU to make its client
(reading redis-py's version from its package metadata, connecting, greeting
Redis) before a read of 0.2 ms. Django's open pull request django/django#18459
is about the same waste. Here every cache object of the process with the same
servers and options uses the one client made for them. Django's client keeps
nothing but its connection pools, and redis-py's pools are thread-safe and give
a forked process connections of its own. (Two threads making the first pool at
once each make one; the one not kept is dropped with its connection.)
"""

import threading
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

import redis as redis_py
from django.core.cache.backends import redis
from django.utils.functional import cached_property

_clients = {}  # (servers, options) -> the process's RedisCacheClient for them
_lock = threading.Lock()


class RedisCache(redis.RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                options = dict(self._options)
                # redis-py takes the connection's class from the URL's scheme (a Unix socket,
                # TLS) unless it is given one: given, one for that scheme.
                schemes = {urlsplit(server).scheme for server in self._servers}
                if len(schemes) == 1 and schemes <= QUICK_TO_GIVE_UP.keys():
                    options.setdefault("connection_class", QUICK_TO_GIVE_UP[schemes.pop()])
                client = _clients[key] = self._class(self._servers, **options)
            return client


# After a call that Redis did not answer, the process's cache calls fail at once for this
# long. A Redis that hangs (stopped, or a network that drops packets) makes every call wait
# for its socket timeout (2 s, settings.CACHES): a socket's check renews its slots and its
# presence through the cache, in the one thread all the process's sockets share, and a page
# reads who is at the table. Every caller already carries on when the cache fails.
AWAY_SECONDS = 1.0
_away_until = 0.0


class GivesUpQuickly:
    """Mixed into redis-py's connections (the pool's `connection_class`, a documented option):
    failing at once for AWAY_SECONDS after any connection of the process timed out or lost
    Redis."""

    def send_packed_command(self, command, check_health=True):
        if time.monotonic() < _away_until:
            raise redis_py.ConnectionError("Redis did not answer a moment ago.")
        with _noting_failures():
            return super().send_packed_command(command, check_health)

    def read_response(self, *args, **kwargs):
        with _noting_failures():
            return super().read_response(*args, **kwargs)


class QuickToGiveUp(GivesUpQuickly, redis_py.Connection):
    pass


class QuickToGiveUpOnASocketFile(GivesUpQuickly, redis_py.UnixDomainSocketConnection):
    pass


class QuickToGiveUpOverTLS(GivesUpQuickly, redis_py.SSLConnection):
    pass


QUICK_TO_GIVE_UP = {
    "redis": QuickToGiveUp,
    "unix": QuickToGiveUpOnASocketFile,
    "rediss": QuickToGiveUpOverTLS,
}


@contextmanager
def _noting_failures():
    global _away_until
    try:
        yield
    except (redis_py.ConnectionError, redis_py.TimeoutError):
        _away_until = time.monotonic() + AWAY_SECONDS
        raise
