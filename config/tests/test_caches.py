import contextvars

import pytest
import redis
from django.core.cache import caches

pytestmark = pytest.mark.redis


@pytest.fixture
def connections_made(monkeypatch):
    """Count the Redis connections this process opens (not the server's: workers share it)."""
    made = []
    real = redis.connection.AbstractConnection.connect

    def connect(self):
        if self._sock is None:
            made.append(self)
        return real(self)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", connect)
    return made


def test_requests_and_sockets_share_the_process_s_redis_connections(connections_made):
    # Each request and each socket runs in an async context of its own, where
    # Django makes a cache object of its own (config/caches.py).
    def use_the_cache(key):
        caches["default"].get(key)

    for n in range(30):
        contextvars.Context().run(use_the_cache, f"context-{n}")

    assert len(connections_made) <= 1  # the process's one, if not open already


def test_every_cache_object_of_the_process_uses_one_client():
    def client():
        return caches["default"]._cache

    first, second, third = (contextvars.Context().run(client) for _ in range(3))

    assert first is second is third
