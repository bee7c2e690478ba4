import contextvars

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

pytestmark = pytest.mark.redis


def _connections_received():
    server = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    try:
        return server.info("stats")["total_connections_received"]
    finally:
        server.close()


def test_requests_and_sockets_share_the_process_s_redis_connections():
    # Each request and each socket runs in an async context of its own, where
    # Django makes a cache object of its own (config/caches.py).
    contexts = 30
    before = _connections_received()

    def use_the_cache(key):
        caches["default"].get(key)

    for n in range(contexts):
        contextvars.Context().run(use_the_cache, f"context-{n}")

    # One for the count's own client, one at most for the cache, and room for a
    # parallel worker's few.
    assert _connections_received() - before <= 10


def test_every_cache_object_of_the_process_uses_one_client():
    def client():
        return caches["default"]._cache

    first, second, third = (contextvars.Context().run(client) for _ in range(3))

    assert first is second is third
