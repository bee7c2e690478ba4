"""One Redis connection pool per process for Django's cache (CACHES' OPTIONS "pool_class").

Django keeps a cache object per async context (`django.core.cache.caches` is an
asgiref Local), and its RedisCache makes a connection pool for each object. Under
ASGI every request that touches the cache and every open socket therefore opened
a Redis connection of its own, kept until the object was collected: with 200
game sockets open on one process Redis counted 208 clients, and each socket
held about 11 KB of redis-py's objects (Django's open pull request
django/django#18459 is about the same waste). With this class every cache
object of the process asks for its pool by server and options, and gets the
one pool made for them. redis-py's pool is thread-safe and gives a forked
process connections of its own.
"""

import threading

import redis

# Options that name the client library, not the connection: Django makes a new
# DriverInfo object for every cache object.
_NOT_OF_THE_CONNECTION = frozenset({"driver_info", "lib_name"})


class SharedConnectionPool(redis.ConnectionPool):
    _pools = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url, **options):
        """Return the process's pool for `url` and `options`, made at the first call."""
        key = (
            url,
            repr(sorted(kv for kv in options.items() if kv[0] not in _NOT_OF_THE_CONNECTION)),
        )
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = super().from_url(url, **options)
            return pool
